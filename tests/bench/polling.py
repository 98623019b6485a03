"""Figures 6 and 7: Qt event-loop lag while the service polls 1,000 tasks, and the request rate.

Set-up: the demo provider runs in its own process (``python -m app.sim``, state in an SQLite
file) with 1,000 video tasks that stay ``Processing`` for the whole run, so every request is
a status query. The Slate store holds the matching 1,000 tasks in ``processing`` (bulk
insert). This process then runs a ``QApplication`` (offscreen) on a qasync loop, as the app
does, with ``SlateService.run_poller`` (sweep, resume, poll) at the configured request cap.
As in the app, the provider's HTTP client is made before the loop's first request (in a worker
thread, ``Slate.warm``), Python's cycle collector runs on the GUI thread (``MainThreadCollector``)
and what the set-up made is frozen before the measurement (``freeze_started``: out of every later
full collection); each collection during the run is recorded (``gc.callbacks``), and each of the
worst ticks says how much of its lateness was spent collecting.

Lag: a precise ``QTimer`` ticks every ``--tick-ms``; a tick's lateness is how much longer
than the interval it took since the previous one. The same timer runs first with the loop
idle (the floor of this machine) and then with the poller.

Rate: every provider call's send time is recorded client-side (a wrapper around the provider
method, after the rate limiter let it through) and the demo provider's own arrival-time
statistics are read at the end; both give the most requests seen in any 1-second window.

``python -m tests.bench.polling [--tasks 1000] [--seconds 30] [--rps 5]`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.bench.common import ROOT, child_env, emit, ms, percentile, run_dir

TENANT, USER = "studio-a", "lin"


def max_in_window(times: list[float], window: float = 1.0) -> int:
    """The most events in any half-open window ``[t, t + window)`` (the demo provider's rule)."""
    times = sorted(times)
    best, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


def preload(workdir: Path, n: int) -> tuple[str, Path]:
    """Make ``n`` long-running video tasks at the demo provider and the matching Slate rows."""
    from sqlalchemy import insert

    from app.domain.fingerprint import fingerprint
    from app.domain.params import normalize, request_body
    from app.domain.slots import SlotRef
    from app.sim.rules import validate_video
    from app.sim.store import SimStore
    from app.store.engine import make_engine
    from app.store.models import tasks
    from app.store.repository import Repository

    sim_state = workdir / "demo-provider.sqlite3"
    store = f"sqlite:///{(workdir / 'slate.sqlite3').as_posix()}"
    sim_store = SimStore(sim_state)
    repo = Repository(make_engine(store))
    ref0 = SlotRef.parse(TENANT, USER, "article:20260816:poll:scene-000000")
    now = time.time()
    rows = []
    for i in range(n):
        rid = f"article:20260816:poll:scene-{i:06d}"
        ref = SlotRef.parse(TENANT, USER, rid)
        norm = normalize("video", {"prompt": f"polled slot {i}", "resolution": "768P"})
        body = request_body("video", norm)
        task = sim_store.add_task(body["prompt"], validate_video(body), "success")
        rows.append(
            dict(
                tenant=ref.tenant,
                user_hash=ref0.user_hash,
                slot_key=ref.slot_key,
                idempotency_key=ref.key("video"),
                provider="demo",
                endpoint="local",
                request_id=rid,
                kind="video",
                fingerprint=fingerprint("video", norm),
                params=norm,
                state="processing",
                provider_task_id=task["task_id"],
                provider_status="Processing",
                units=1,
                created_at=now,
                updated_at=now,
                next_poll_at=None,
                poll_failures=0,
                project="poll",
            )
        )
    with repo.writer.begin() as conn:
        conn.execute(insert(tasks), rows)
    repo.engine.dispose()
    sim_store.close()
    return store, sim_state


def start_sim_process(state: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app.sim",
            "--state",
            str(state),
            "--latency",
            "86400",
            "--image-latency",
            "0",
        ],
        cwd=ROOT,
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    try:
        base_url = json.loads(line)["base_url"]
    except (ValueError, KeyError):
        proc.kill()
        raise RuntimeError(
            f"the demo provider did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}"
        )
    return proc, base_url


def sim_stats(base_url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base_url}/_sim/stats", timeout=10) as resp:
        return json.loads(resp.read())  # type: ignore[no-any-return]


class TickLag:
    """A precise QTimer; records how late each tick came."""

    def __init__(self, interval_ms: int) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.interval = interval_ms / 1000.0
        self.late: list[float] = []
        self.at: list[float] = []
        self._last: float | None = None
        self._t0 = 0.0
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.late.append(max(0.0, now - self._last - self.interval))
            self.at.append(now - self._t0)
        self._last = now

    def start(self) -> None:
        self.late = []
        self.at = []
        self._last = None
        self._t0 = time.perf_counter()
        self.timer.start()

    def stop(self) -> list[float]:
        self.timer.stop()
        return self.late


class GcLog:
    """Python's cycle collections (``gc.callbacks``): generation, start and end
    (``perf_counter``)."""

    def __init__(self) -> None:
        self.runs: list[tuple[int, float, float]] = []
        self._start = 0.0

    def __enter__(self) -> GcLog:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._start = now
        else:
            self.runs.append((info["generation"], self._start, now))

    def within(self, t0: float, t1: float) -> float:
        """Seconds spent collecting between ``t0`` and ``t1``."""
        return sum(max(0.0, min(end, t1) - max(start, t0)) for _g, start, end in self.runs)

    def summary(self, t0: float, t1: float) -> dict[str, Any]:
        runs = [r for r in self.runs if t0 <= r[1] <= t1]
        longest = {
            g: max((end - start for gen, start, end in runs if gen == g), default=0.0)
            for g in (0, 1, 2)
        }
        return {
            "collections": [sum(1 for r in runs if r[0] == g) for g in (0, 1, 2)],
            "longest_ms": [ms(longest[g]) for g in (0, 1, 2)],
            "frozen": gc.get_freeze_count(),
        }


def lag_summary(late: list[float]) -> dict[str, Any]:
    return {
        "ticks": len(late),
        "p50_ms": ms(percentile(late, 50)) if late else None,
        "p99_ms": ms(percentile(late, 99)) if late else None,
        "max_ms": ms(max(late)) if late else None,
        "over_16ms": sum(1 for x in late if x > 0.016),
        "over_50ms": sum(1 for x in late if x > 0.050),
    }


async def measure(
    ns: argparse.Namespace, store: str, base_url: str, workdir: Path
) -> dict[str, Any]:
    from app.config import Config
    from app.providers.demo import DemoProvider
    from app.domain.states import State
    from app.service.slate import SlateService
    from app.store.aio import open_store

    config = Config(
        data_dir=workdir,
        store=store,
        provider="demo",
        base_url=base_url,
        tenant=TENANT,
        user=USER,
        timeout=10.0,
        poll_interval=ns.poll_interval,
        max_requests_per_second=ns.rps,
    )
    opened = open_store(store)
    provider = DemoProvider(base_url, timeout=10.0, connect_timeout=5.0)
    # its HTTP client (httpx, a TLS context) made in a worker thread, as the app's build thread
    # makes it (``Provider.warm``): the loop does not pay it at the first request
    await asyncio.to_thread(provider.warm)
    sent: list[float] = []
    query = provider.query_video

    async def counted_query(task_id: str) -> Any:
        sent.append(time.time())
        return await query(task_id)

    provider.query_video = counted_query  # type: ignore[method-assign]
    svc = SlateService(config, opened, provider, b"\x04" * 32)
    from app.ui.app import freeze_started

    freeze_started()  # the set-up is done: what it made is out of the collector's way, as in the app

    lag = TickLag(ns.tick_ms)
    lag.start()
    await asyncio.sleep(ns.idle_seconds)
    idle = lag.stop()

    stop = asyncio.Event()
    with GcLog() as collections:
        lag.start()
        t0 = time.time()
        poller = asyncio.ensure_future(svc.run_poller(stop))
        await asyncio.sleep(ns.seconds)
        busy = lag.stop()
    worst = sorted(zip(busy, lag.at), reverse=True)[:5]
    ticked = lag._t0  # a tick at ``at`` waited from ``at - interval - late`` on
    stop.set()
    await asyncio.wait_for(poller, timeout=30)
    t1 = time.time()
    await provider.aclose()
    states = opened.repo.tasks_in_states(
        svc.scope, [State.PROCESSING, State.PREPARING, State.QUEUEING]
    )
    opened.close()
    return {
        "idle": lag_summary(idle),
        "busy": lag_summary(busy),
        "worst_ticks": [
            {
                "late_ms": ms(late),
                "at_s": round(at, 2),
                "gc_ms": ms(collections.within(ticked + at - lag.interval - late, ticked + at)),
            }
            for late, at in worst
        ],
        "gc": collections.summary(ticked, ticked + (lag.at[-1] if lag.at else 0.0)),
        "client_sent": len(sent),
        "client_max_per_second": max_in_window(sent),
        "client_mean_rps": round(len(sent) / max(t1 - t0, 1e-9), 3),
        "still_polling": len(states),
        "t0": t0,
        "t1": t1,
    }


def run(ns: argparse.Namespace) -> dict[str, Any]:
    workdir = ns.dir or run_dir("polling")
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    t_pre = time.perf_counter()
    store, sim_state = preload(workdir, ns.tasks)
    preload_s = time.perf_counter() - t_pre
    proc, base_url = start_sim_process(sim_state)
    try:
        import qasync
        from PySide6.QtWidgets import QApplication

        from app.ui.app import MainThreadCollector

        app = QApplication.instance() or QApplication(["slate-bench"])
        collector = MainThreadCollector(app)  # the app's: collections on the GUI thread's timer
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        try:
            with loop:
                out = loop.run_until_complete(measure(ns, store, base_url, workdir))
        finally:
            collector.stop()
        stats = sim_stats(base_url)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(workdir, ignore_errors=True)
    server_times = [t for t in stats.get("request_times", []) if out["t0"] <= t <= out["t1"] + 1]
    out.update(
        {
            "tasks": ns.tasks,
            "seconds": ns.seconds,
            "rps_cap": ns.rps,
            "tick_ms": ns.tick_ms,
            "poll_interval_s": ns.poll_interval,
            "preload_s": round(preload_s, 2),
            "server_requests_total": stats.get("requests_total"),
            "server_requests_by_endpoint": stats.get("requests_by_endpoint"),
            "server_max_per_second": stats.get("max_requests_per_second"),
            "server_max_per_second_last_1000": max_in_window(server_times),
            "cpus": os.cpu_count(),
        }
    )
    out["lag_p99_ms"] = out["busy"]["p99_ms"]
    out["lag_max_ms"] = out["busy"]["max_ms"]
    out["max_requests_per_second"] = max(
        out["client_max_per_second"], out["server_max_per_second"] or 0
    )
    out.pop("t0")
    out.pop("t1")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tasks", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--idle-seconds", type=float, default=3.0)
    p.add_argument(
        "--rps",
        type=float,
        default=None,
        help="the request cap (default: the app's Config default)",
    )
    p.add_argument("--poll-interval", type=float, default=1.0, help="the demo provider's default")
    p.add_argument("--tick-ms", type=int, default=4)
    p.add_argument("--dir", type=Path, default=None)
    ns = p.parse_args(argv)
    if ns.rps is None:
        from app.config import Config

        ns.rps = Config.__dataclass_fields__["max_requests_per_second"].default
    emit(run(ns))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
