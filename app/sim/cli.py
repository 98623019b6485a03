"""``slate sim``: run the demo provider as a standalone loopback server until Ctrl+C."""

from __future__ import annotations

import argparse
import json
import signal
import threading
from pathlib import Path
from typing import Any, Callable

from app.sim.config import SimConfig, fault_lines, parse_faults

__all__ = ["add_arguments", "fault_lines", "list_faults_text", "main", "parse_faults", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port)")
    parser.add_argument(
        "--host", default="127.0.0.1", help="loopback address to bind (default 127.0.0.1)"
    )
    parser.add_argument(
        "--latency",
        type=float,
        default=None,
        metavar="S",
        help="seconds a video task takes from create to Success (default 3.5)",
    )
    parser.add_argument(
        "--not-allow-listed",
        action="store_true",
        help="the account is not on MiniMax-H3's allow-list: 2K regeneration is refused",
    )
    parser.add_argument(
        "--context-ir-task",
        action="store_true",
        help="prompt enhancement answers a task id to query instead of the task inline",
    )
    parser.add_argument(
        "--image-latency",
        type=float,
        default=None,
        metavar="S",
        help="seconds an image generation takes (default 0.2)",
    )
    parser.add_argument(
        "--state",
        type=Path,
        default=None,
        metavar="FILE",
        help="keep tasks in this SQLite file (shared by several processes)",
    )
    parser.add_argument(
        "--download-ttl",
        type=float,
        default=None,
        metavar="S",
        help="seconds a video download link stays valid (default 3600)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for media and random faults")
    parser.add_argument(
        "--tls-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the TLS certificate (same port; for clients that force https) in DIR",
    )
    parser.add_argument(
        "--no-tls", action="store_true", help="plain HTTP only (no TLS on the same port)"
    )
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="a fault switch, repeatable or comma-separated (kebab-case or snake_case); "
        "see --list-faults",
    )
    parser.add_argument(
        "--list-faults",
        action="store_true",
        help="print every fault switch with what it does, and exit",
    )


def list_faults_text() -> str:
    rows = fault_lines()
    width = max(len(name) + len(value) for name, value, _ in rows) + 2
    lines = [
        "Fault switches (slate sim --fault NAME[=VALUE], or slate --demo-fault NAME[=VALUE] "
        "for the embedded demo provider):"
    ]
    lines += [f"  {(name + value).ljust(width)}{does}" for name, value, does in rows]
    return "\n".join(lines) + "\n"


def run(ns: argparse.Namespace, emit: Callable[[dict[str, Any]], None]) -> int:
    if getattr(ns, "list_faults", False):
        emit(
            {
                "faults": [
                    {"name": name, "value": value.strip("[]=") or None, "does": does}
                    for name, value, does in fault_lines()
                ],
                "text": list_faults_text(),
            }
        )
        return 0
    host = getattr(ns, "host", "127.0.0.1") or "127.0.0.1"
    from app.domain.hosts import is_loopback_host

    if not is_loopback_host(host):
        emit(
            {
                "outcome": "invalid",
                "error": {"code": "host", "message": "the demo provider binds to loopback only"},
            }
        )
        return 2
    from app.domain.errors import ValidationError
    from app.domain.numbers import number, whole

    try:  # every number given: finite and in range (DESIGN.md), the field named
        whole("port", getattr(ns, "port", 0) or 0, minimum=0, maximum=65535)
        for name, low in (("latency", 0.0), ("image_latency", 0.0), ("download_ttl", 0.001)):
            if getattr(ns, name, None) is not None:
                number(name, getattr(ns, name), minimum=low, maximum=86_400.0)
    except ValidationError as exc:
        emit(
            {
                "outcome": "invalid",
                "error": {"code": "invalid", "field": exc.field, "message": str(exc)},
            }
        )
        return 2
    latency = getattr(ns, "latency", None)
    config = SimConfig.with_latency(latency) if latency is not None else SimConfig()
    if getattr(ns, "image_latency", None) is not None:
        config.image_latency = ns.image_latency
    if getattr(ns, "not_allow_listed", False):
        config.regeneration_allowed = False
    if getattr(ns, "context_ir_task", False):
        config.context_ir_mode = "task"
    if getattr(ns, "state", None) is not None:
        config.state_path = Path(ns.state)
    if getattr(ns, "download_ttl", None) is not None:
        config.download_ttl = ns.download_ttl
    config.tls = not getattr(ns, "no_tls", False)
    if getattr(ns, "tls_dir", None) is not None:
        config.tls_dir = Path(ns.tls_dir)
    config.seed = getattr(ns, "seed", 0) or 0
    try:
        config.faults.update(**parse_faults(getattr(ns, "fault", []) or []))
    except ValueError as exc:
        emit(
            {
                "outcome": "invalid",
                "error": {"code": "fault", "field": "fault", "message": str(exc)},
            }
        )
        return 2
    try:
        from app.sim.server import start_sim  # on first use: the parser needs none of it

        server = start_sim(config, host=host, port=getattr(ns, "port", 0) or 0)
    except OSError as exc:
        emit({"outcome": "invalid", "error": {"code": "port", "message": f"cannot listen: {exc}"}})
        return 2
    stop = threading.Event()

    def on_signal(signum: int, frame: object) -> None:
        stop.set()

    previous = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[sig] = signal.signal(sig, on_signal)
        except ValueError:  # not the main thread: rely on KeyboardInterrupt / the caller
            pass
    try:
        emit(
            {
                "outcome": "ok",
                "base_url": server.base_url,
                "port": server.port,
                "demo": True,
                "tls_cert": str(server.tls_cert) if server.tls_cert else None,
            }
        )
        while not stop.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.sim", description=__doc__)
    add_arguments(parser)
    ns = parser.parse_args(argv)

    def emit(payload: dict[str, Any]) -> None:
        if "text" in payload:
            print(payload["text"], end="", flush=True)
            return
        print(json.dumps(payload), flush=True)

    return run(ns, emit)
