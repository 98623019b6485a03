"""``slate sim``: run the demo provider as a standalone loopback server until Ctrl+C."""

from __future__ import annotations

import argparse
import json
import signal
import threading
from pathlib import Path
from typing import Any, Callable

from app.sim.config import Faults, SimConfig
from app.sim.server import start_sim

_FAULT_NAMES = sorted(f for f in Faults.__dataclass_fields__ if f != "random")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="loopback address to bind (default 127.0.0.1)")
    parser.add_argument("--latency", type=float, default=None, metavar="S",
                        help="seconds a video task takes from create to Success (default 3.5)")
    parser.add_argument("--image-latency", type=float, default=None, metavar="S",
                        help="seconds an image generation takes (default 0.2)")
    parser.add_argument("--state", type=Path, default=None, metavar="FILE",
                        help="keep tasks in this SQLite file (shared by several processes)")
    parser.add_argument("--download-ttl", type=float, default=None, metavar="S",
                        help="seconds a video download link stays valid (default 3600)")
    parser.add_argument("--seed", type=int, default=0, help="seed for media and random faults")
    parser.add_argument(
        "--fault", action="append", default=[], metavar="NAME[=VALUE]",
        help="a fault switch, repeatable: " + ", ".join(_FAULT_NAMES)
        + "; random=P or random.NAME=P for random faults",
    )


def parse_faults(items: list[str]) -> dict[str, Any]:
    """``["rate_limit=3", "status_word=completed", "random=0.1"]`` → ``set_faults`` keywords."""
    out: dict[str, Any] = {}
    random: dict[str, float] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if name == "random":
            p = float(value) if sep else 0.05
            random.update({k: p for k in ("lose_create_response", "rate_limit", "server_error",
                                          "status_word", "success_without_file", "content_fail",
                                          "expire_downloads", "truncate_downloads")})
        elif name.startswith("random."):
            random[name[len("random."):]] = float(value)
        elif name == "status_word":
            out[name] = value
        elif name == "delay_create_response":
            out[name] = float(value) if sep else 2.0
        elif name in Faults.__dataclass_fields__:
            defaults = {"server_error_status": 502, "create_error_code": 1026}
            out[name] = int(value) if sep else defaults.get(name, 1_000_000)
        else:
            raise ValueError(f"unknown fault {name!r}; known: {', '.join(_FAULT_NAMES)}, random")
    if random:
        out["random"] = random
    return out


def run(ns: argparse.Namespace, emit: Callable[[dict[str, Any]], None]) -> int:
    host = getattr(ns, "host", "127.0.0.1") or "127.0.0.1"
    from app.providers.minimax import is_loopback_host

    if not is_loopback_host(host):
        emit({"outcome": "invalid", "error": {"code": "host", "message": "the demo provider binds to loopback only"}})
        return 2
    latency = getattr(ns, "latency", None)
    config = SimConfig.with_latency(latency) if latency is not None else SimConfig()
    if getattr(ns, "image_latency", None) is not None:
        config.image_latency = ns.image_latency
    if getattr(ns, "state", None) is not None:
        config.state_path = Path(ns.state)
    if getattr(ns, "download_ttl", None) is not None:
        config.download_ttl = ns.download_ttl
    config.seed = getattr(ns, "seed", 0) or 0
    try:
        config.faults.update(**parse_faults(getattr(ns, "fault", []) or []))
    except ValueError as exc:
        emit({"outcome": "invalid", "error": {"code": "fault", "message": str(exc)}})
        return 2
    try:
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
        emit({"outcome": "ok", "base_url": server.base_url, "port": server.port, "demo": True})
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
        print(json.dumps(payload), flush=True)

    return run(ns, emit)
