"""Figure 3: 16 processes × 100 submits over the same 100 slots, one SQLite file.

The parent starts the demo provider on loopback, migrates the store, then starts the worker
processes; each imports Slate, builds its service, says it is ready (a file), waits for the parent's
common start instant and
submits all 100 slots (video, same parameters in every process) in its own shuffled order,
timing every ``await service.submit(...)``. Exactly 100 creates must reach the provider
(``creates_total`` and ``made_total`` of the demo provider's statistics).

Each create's time is split in the worker (``create_split``): waiting for the writers' lock
(``WriteQueue.__enter__``), holding it (to ``__exit__``: the write transactions), the HTTP create,
the journal, and the rest. Then, in the same run, the **floor** (``floor``): the same processes,
keys and orders on the stdlib alone — a replay is one indexed SELECT on a ``sqlite3``
connection; a create is ``BEGIN IMMEDIATE; INSERT … ON CONFLICT DO NOTHING; COMMIT`` (WAL,
synchronous=FULL, the store's busy timeout), a bare HTTP POST to a loopback ``http.server`` in
the parent, and ``BEGIN IMMEDIATE; UPDATE; COMMIT``. ``floor_flock`` is the same with an
exclusive ``flock`` around each write transaction, as Slate's writers' queue takes one.

``python -m tests.bench.race [--procs 16] [--keys 100] [--no-floor]`` prints one JSON object.
``python -m tests.bench.race --worker ...`` is one worker (prints its latencies).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tests.bench.common import ROOT, child_env, emit, run_dir, summary_ms

#: the parts of a create timed in the worker (seconds, summed over one submit)
PARTS = ("lock_wait", "lock_held", "http", "journal")

TENANT, USER = "studio-a", "lin"
#: Each worker's own request cap. High on purpose: this figure is about the store and the
#: claim race, not the rate limiter (which is per process and measured by the polling figure).
WORKER_RPS = 200.0


def rid(i: int) -> str:
    return f"article:20260816:race:scene-{i:03d}"


def params(i: int) -> dict[str, Any]:
    return {"prompt": f"race slot {i}", "resolution": "768P"}


def _timed_parts() -> dict[str, float]:
    """Wrap (in this worker process only) the writers' lock, the HTTP create and the journal
    with timers; the returned dict sums their seconds until the caller clears it."""
    from app.providers.minimax import MiniMaxProvider
    from app.service import journal
    from app.store.engine import WriteQueue

    acc: dict[str, float] = dict.fromkeys((*PARTS, "writes"), 0.0)
    enter, leave = WriteQueue.__enter__, WriteQueue.__exit__
    held_since: list[float] = []

    def timed_enter(self: WriteQueue) -> WriteQueue:
        t0 = time.perf_counter()
        out = enter(self)
        t1 = time.perf_counter()
        acc["lock_wait"] += t1 - t0
        acc["writes"] += 1
        held_since.append(t1)
        return out

    def timed_exit(self: WriteQueue, *exc: object) -> None:
        leave(self, *exc)
        acc["lock_held"] += time.perf_counter() - held_since.pop()

    def timing(key: str, fn: Any) -> Any:
        if asyncio.iscoroutinefunction(fn):

            async def timed_async(*a: Any, **kw: Any) -> Any:
                t0 = time.perf_counter()
                try:
                    return await fn(*a, **kw)
                finally:
                    acc[key] += time.perf_counter() - t0

            return timed_async

        def timed(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                acc[key] += time.perf_counter() - t0

        return timed

    WriteQueue.__enter__ = timed_enter  # type: ignore[method-assign]
    WriteQueue.__exit__ = timed_exit  # type: ignore[method-assign]
    MiniMaxProvider.create_video = timing("http", MiniMaxProvider.create_video)  # type: ignore[method-assign]
    journal.write = timing("journal", journal.write)
    journal.settle = timing("journal", journal.settle)
    return acc


def _barrier(ns: argparse.Namespace) -> float:
    """The floor's barrier (the worker's, blocking): say ready, wait for the common start."""
    workdir = Path(ns.data_dir)
    (workdir / f"ready-{ns.index}").touch()
    go = workdir / "go"
    while not go.exists():
        time.sleep(0.01)
    start = float(go.read_text() or 0)
    time.sleep(max(0.0, start - time.time()))
    return start


async def worker(ns: argparse.Namespace) -> dict[str, Any]:
    acc = _timed_parts()
    from app.config import Config
    from app.providers.demo import DemoProvider
    from app.service.slate import SlateService
    from app.store.aio import open_store

    config = Config(
        data_dir=Path(ns.data_dir),
        store=ns.store,
        provider="demo",
        base_url=ns.base_url,
        tenant=TENANT,
        user=USER,
        timeout=30.0,
        poll_interval=1.0,
        max_requests_per_second=WORKER_RPS,
    )
    store = open_store(ns.store)
    provider = DemoProvider(ns.base_url, timeout=30.0, connect_timeout=10.0)
    svc = SlateService(config, store, provider, b"\x03" * 32)
    order = list(range(ns.keys))
    random.Random(ns.index).shuffle(order)
    await svc.status(rid(0))  # warm the store path (no write, no provider)
    # and what the first submit makes (the provider's HTTP client: httpx, a TLS context,
    # anyio's backend; the price table), as the desktop app does in its build thread: made
    # here, not inside the first create's time
    svc.warm()
    # Barrier: say ready, then wait for the parent's common start instant.
    workdir = Path(ns.data_dir)
    (workdir / f"ready-{ns.index}").touch()
    go = workdir / "go"
    while not go.exists():
        await asyncio.sleep(0.01)
    start = float(go.read_text() or 0)
    await asyncio.sleep(max(0.0, start - time.time()))
    lat: list[float] = []
    kinds: list[str] = []
    parts: list[dict[str, float]] = []
    outcomes: Counter[str] = Counter()
    profiler = None
    if ns.profile:  # this worker only (tests.bench.profiles --only race): its loop, awaits too
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.001, async_mode="enabled")
        profiler.start()
    began = time.time()
    cpu0 = time.process_time()
    for i in order:
        for k in acc:
            acc[k] = 0.0
        t0 = time.perf_counter()
        out = await svc.submit(rid(i), "video", params(i))
        lat.append(time.perf_counter() - t0)
        kinds.append(out.kind.value)
        outcomes[out.kind.value] += 1
        parts.append(dict(acc))
    ended = time.time()
    cpu = time.process_time() - cpu0
    if profiler is not None:
        profiler.stop()
        text = profiler.output_text(unicode=True, color=False, show_all=False)
        Path(ns.profile).write_text(text)
    await provider.aclose()
    store.close()
    return {
        "latencies": lat,
        "kinds": kinds,
        "parts": parts,
        "outcomes": dict(outcomes),
        "began": began,
        "ended": ended,
        "start": start,
        "cpu_s": cpu,
    }


def floor_worker(ns: argparse.Namespace) -> dict[str, Any]:
    """The floor's worker: the submits' bare minimum on the stdlib (see the module's text)."""
    import fcntl
    import http.client
    import sqlite3
    from urllib.parse import urlsplit

    from app.store.engine import BUSY_TIMEOUT_MS  # the store's busy timeout (a constant)

    db = Path(ns.data_dir) / "floor.sqlite3"
    conn = sqlite3.connect(db, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    lock = os.open(str(db) + ".writers", os.O_RDWR | os.O_CREAT, 0o600) if ns.flock else None
    url = urlsplit(ns.base_url)
    http_conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=30)
    order = list(range(ns.keys))
    random.Random(ns.index).shuffle(order)
    held: list[float] = []

    def write(sql: str, args: tuple[Any, ...]) -> int:
        if lock is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            t0 = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            n = conn.execute(sql, args).rowcount
            conn.execute("COMMIT")
            held.append(time.perf_counter() - t0)
            return n
        finally:
            if lock is not None:
                fcntl.flock(lock, fcntl.LOCK_UN)

    start = _barrier(ns)
    lat: list[float] = []
    kinds: list[str] = []
    began = time.time()
    for i in order:
        t0 = time.perf_counter()
        kind = "replayed"
        found = conn.execute("SELECT state FROM slots WHERE slot_key = ?", (rid(i),)).fetchone()
        insert = "INSERT INTO slots (slot_key, state, params) VALUES (?, 'submitting', ?) "
        if found is None and write(
            insert + "ON CONFLICT DO NOTHING", (rid(i), json.dumps(params(i)))
        ):
            http_conn.request(
                "POST",
                "/create",
                json.dumps(params(i)).encode(),
                {"Content-Type": "application/json"},
            )
            answer = json.loads(http_conn.getresponse().read())
            write(
                "UPDATE slots SET state = 'created', task_id = ? WHERE slot_key = ?",
                (answer["task_id"], rid(i)),
            )
            kind = "created"
        lat.append(time.perf_counter() - t0)
        kinds.append(kind)
    ended = time.time()
    http_conn.close()
    conn.close()
    return {
        "latencies": lat,
        "kinds": kinds,
        "began": began,
        "ended": ended,
        "start": start,
        "held": held,
    }


def _answering_server() -> Any:
    """The floor's provider: a stdlib HTTP server on loopback (a thread) that answers every
    POST with a small JSON object."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    count = iter(range(1, 1 << 30))

    class Answer(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as Slate's client
        disable_nagle_algorithm = True  # headers and body are two writes: no delayed-ACK wait

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = json.dumps({"task_id": f"t{next(count)}", "base_resp": {"status_code": 0}})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *_a: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _race(
    ns: argparse.Namespace, workdir: Path, args: list[str], first: tuple[str, ...] = ()
) -> tuple[list[dict[str, Any]], list[str], float]:
    """Start ``ns.procs`` workers with ``args`` (the first one with ``first`` too), release
    them at one instant, collect them."""
    for stale in [*workdir.glob("ready-*"), workdir / "go"]:
        stale.unlink(missing_ok=True)
    base = [sys.executable, "-m", "tests.bench.race", "--worker", "--data-dir", str(workdir)]
    procs = [
        subprocess.Popen(
            [*base, "--index", str(k), "--keys", str(ns.keys), *args, *(first if k == 0 else [])],
            cwd=ROOT,
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(ns.procs)
    ]
    deadline = time.monotonic() + ns.timeout
    while (
        sum((workdir / f"ready-{k}").exists() for k in range(ns.procs)) < ns.procs
        and time.monotonic() < deadline
        and all(p.poll() is None for p in procs)
    ):
        time.sleep(0.02)
    start = time.time() + ns.lead
    (workdir / "go.tmp").write_text(repr(start))
    (workdir / "go.tmp").replace(workdir / "go")
    results = []
    errors = []
    for p in procs:
        out, err = p.communicate(timeout=ns.timeout)
        try:
            results.append(json.loads(out.strip().splitlines()[-1]))
        except (IndexError, ValueError):
            errors.append(f"worker exited {p.returncode}: {err[-1500:]}")
    return results, errors, start


def _by_outcome(results: list[dict[str, Any]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for r in results:
        for x, kind in zip(r["latencies"], r["kinds"]):
            out.setdefault(kind, []).append(x)
    return out


def _split(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Where each create's time went (medians and p99 of each part, in ms; ``writes``: write
    transactions per create)."""
    rows = [
        {**parts, "total": x}
        for r in results
        for x, kind, parts in zip(r["latencies"], r["kinds"], r["parts"])
        if kind == "created"
    ]
    if not rows:
        return {}
    for row in rows:
        row["rest"] = row["total"] - sum(row[k] for k in PARTS)
    out: dict[str, Any] = {}
    for key in (*PARTS, "rest", "total"):
        got = summary_ms([row[key] for row in rows])
        out[key] = {"median_ms": got["median_ms"], "p99_ms": got["p99_ms"]}
    # the 1 % slowest creates: what their time was spent on (means)
    slow = sorted(rows, key=lambda row: row["total"])[-max(1, len(rows) // 100) :]
    out["slowest_1pct_mean_ms"] = {
        key: round(1000 * sum(row[key] for row in slow) / len(slow), 3)
        for key in (*PARTS, "rest", "total")
    }
    out["writes_per_create"] = sorted(Counter(int(row["writes"]) for row in rows).items())
    return out


def floor(ns: argparse.Namespace, workdir: Path, flock: bool) -> dict[str, Any]:
    """The same race on the stdlib alone (see the module's text), in ``workdir``."""
    import sqlite3

    db = workdir / "floor.sqlite3"
    for old in workdir.glob("floor.sqlite3*"):
        old.unlink()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(
            "CREATE TABLE slots (id INTEGER PRIMARY KEY, slot_key TEXT NOT NULL UNIQUE, "
            "state TEXT NOT NULL, params TEXT NOT NULL, task_id TEXT)"
        )
    conn.close()
    server = _answering_server()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        args = ["--bare", "--base-url", url, *(["--flock"] if flock else [])]
        results, errors, _ = _race(ns, workdir, args)
    finally:
        server.shutdown()
        server.server_close()
    lat = [x for r in results for x in r["latencies"]]
    by = _by_outcome(results)
    held = [x for r in results for x in r["held"]]
    return {
        "latency": summary_ms(lat),
        "p99_ms": summary_ms(lat).get("p99_ms"),
        "latency_by_outcome": {k: summary_ms(v) for k, v in sorted(by.items())},
        "write_held": summary_ms(held),
        "creates": len(by.get("created", [])),
        "worker_errors": errors,
    }


def parent(ns: argparse.Namespace) -> dict[str, Any]:
    from app.sim import SimConfig, start_sim
    from app.store.aio import open_store

    workdir = ns.dir or run_dir("race")
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    store = f"sqlite:///{(workdir / 'slate.sqlite3').as_posix()}"
    open_store(store).close()  # migrated once, before the race
    sim = start_sim(SimConfig(preparing=30, queueing=30, processing=30, image_latency=0.0))
    floors: dict[str, Any] = {}
    try:
        try:
            results, errors, start = _race(
                ns,
                workdir,
                ["--store", store, "--base-url", sim.base_url],
                ("--profile", str(ns.profile)) if ns.profile else (),
            )
            late = [r["began"] - start for r in results]
            stats = sim.stats()
        finally:
            sim.stop()
        if ns.floor:  # after the race, the same minutes: the machine is as loaded
            floors["floor"] = floor(ns, workdir, flock=False)
            floors["floor_flock"] = floor(ns, workdir, flock=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    lat = [x for r in results for x in r["latencies"]]
    by_outcome = _by_outcome(results)
    outcomes: Counter[str] = Counter()
    for r in results:
        outcomes.update(r["outcomes"])
    cpu = sum(r["cpu_s"] for r in results)
    span = (max(r["ended"] for r in results) - min(r["began"] for r in results)) if results else 0.0
    return {
        "procs": ns.procs,
        "keys": ns.keys,
        "submits": len(lat),
        "creates_total": stats["creates_total"],
        "made_total": stats["made_total"],
        "max_creates_per_prompt": max(stats["creates_by_prompt"].values(), default=0),
        "outcomes": dict(outcomes),
        "latency": summary_ms(lat),
        "p99_ms": summary_ms(lat).get("p99_ms"),
        # the creates (a claim, the create over HTTP, its answer written) apart from the
        # replays (one read): where the tail is
        "latency_by_outcome": {k: summary_ms(v) for k, v in sorted(by_outcome.items())},
        # where a create waits: the writers' lock (waiting, holding), HTTP, journal, the rest
        "create_split": _split(results),
        **floors,
        "floor_p99_ms": floors.get("floor", {}).get("p99_ms"),
        "span_s": round(span, 3),
        "start_spread_s": round(max(late) - min(late), 3) if late else None,
        "cpu_ms_per_submit": round(1000 * cpu / len(lat), 3) if lat else None,
        "cpus": os.cpu_count(),
        "worker_errors": errors,
        "worker_rps_cap": WORKER_RPS,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--worker", action="store_true")
    p.add_argument("--index", type=int, default=0)
    p.add_argument("--data-dir")
    p.add_argument("--store")
    p.add_argument("--base-url")
    p.add_argument("--procs", type=int, default=16)
    p.add_argument("--keys", type=int, default=100)
    p.add_argument("--lead", type=float, default=0.3, help="seconds from all-ready to the start")
    p.add_argument("--timeout", type=float, default=240.0)
    p.add_argument("--dir", type=Path, default=None)
    p.add_argument("--bare", action="store_true", help="worker: the stdlib floor's")
    p.add_argument("--profile", type=Path, default=None, help="the first worker's profile, here")
    p.add_argument("--flock", action="store_true", help="floor worker: flock around writes")
    p.add_argument("--no-floor", dest="floor", action="store_false", help="parent: no floor")
    ns = p.parse_args(argv)
    if ns.worker and ns.bare:
        sys.stdout.write(json.dumps(floor_worker(ns)) + "\n")
        return 0
    if ns.worker:
        sys.stdout.write(json.dumps(asyncio.run(worker(ns))) + "\n")
        return 0
    emit(parent(ns))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
