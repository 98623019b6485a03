"""Figure 3: 16 processes × 100 submits over the same 100 slots, one SQLite file.

The parent starts the demo provider on loopback, migrates the store, then starts the worker
processes; each imports Slate, builds its service, says it is ready (a file), waits for the parent's
common start instant and
submits all 100 slots (video, same parameters in every process) in its own shuffled order,
timing every ``await service.submit(...)``. Exactly 100 creates must reach the provider
(``creates_total`` and ``made_total`` of the demo provider's statistics).

``python -m tests.bench.race [--procs 16] [--keys 100]`` prints one JSON object.
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

TENANT, USER = "studio-a", "lin"
#: Each worker's own request cap. High on purpose: this figure is about the store and the
#: claim race, not the rate limiter (which is per process and measured by the polling figure).
WORKER_RPS = 200.0


def rid(i: int) -> str:
    return f"article:20260816:race:scene-{i:03d}"


def params(i: int) -> dict[str, Any]:
    return {"prompt": f"race slot {i}", "resolution": "768P"}


async def worker(ns: argparse.Namespace) -> dict[str, Any]:
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
    # and the provider's HTTP client, made on its first request since 98eae13 (httpx, a TLS
    # context, anyio's backend): made here, as before, not inside the first create's time
    provider.warm()
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
    outcomes: Counter[str] = Counter()
    began = time.time()
    cpu0 = time.process_time()
    for i in order:
        t0 = time.perf_counter()
        out = await svc.submit(rid(i), "video", params(i))
        lat.append(time.perf_counter() - t0)
        kinds.append(out.kind.value)
        outcomes[out.kind.value] += 1
    ended = time.time()
    cpu = time.process_time() - cpu0
    await provider.aclose()
    store.close()
    return {
        "latencies": lat,
        "kinds": kinds,
        "outcomes": dict(outcomes),
        "began": began,
        "ended": ended,
        "start": start,
        "cpu_s": cpu,
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
    try:
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.bench.race",
                    "--worker",
                    "--index",
                    str(k),
                    "--data-dir",
                    str(workdir),
                    "--store",
                    store,
                    "--base-url",
                    sim.base_url,
                    "--keys",
                    str(ns.keys),
                ],
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
        late = [r["began"] - start for r in results]
        stats = sim.stats()
    finally:
        sim.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    lat = [x for r in results for x in r["latencies"]]
    by_outcome: dict[str, list[float]] = {}
    for r in results:
        for x, kind in zip(r["latencies"], r["kinds"]):
            by_outcome.setdefault(kind, []).append(x)
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
    ns = p.parse_args(argv)
    if ns.worker:
        sys.stdout.write(json.dumps(asyncio.run(worker(ns))) + "\n")
        return 0
    emit(parent(ns))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
