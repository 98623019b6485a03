"""One racer of the slot-boundary race: a real process that submits one kind for many slots, each
at an agreed instant, so that another racer submitting the other kind of the same RequestIds
hits the store at the same moments.

``python -m tests.support.slot_racer --store URL --base-url B --data-dir D --kind image|video
--prefix P --rounds N --start T --gap G`` prints one JSON list: the outcome of every round.

``--lockstep`` (instead of ``--start``/``--gap``): a barrier per round, no clock. Before each
round the racer says ``ready N`` on stdout and waits for a start instant on stdin; the test
hands both racers the same instant once both are ready, so every round starts together however
slowly a busy machine runs either racer, and no round waits longer than the slower racer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from app.bootstrap import open_store_of
from app.config import Config
from app.providers.demo import DemoProvider
from app.service.slate import SlateService

SECRET = b"\x01" * 32


def request_id(prefix: str, i: int) -> str:
    return f"{prefix}:scene-{i:04d}"


async def run(ns: argparse.Namespace) -> list[str]:
    config = Config(
        data_dir=Path(ns.data_dir),
        store=ns.store,
        provider="demo",
        base_url=ns.base_url,
        tenant="race",
        user="lin",
        timeout=10.0,
        poll_interval=0.05,
        max_requests_per_second=1000.0,
    )
    store = open_store_of(config)
    provider = DemoProvider(ns.base_url, timeout=10.0, connect_timeout=2.0)
    svc = SlateService(config, store, provider, SECRET)
    outcomes = []
    try:
        if hasattr(store, "clock"):  # what a first submit reads once, read before the race
            store.clock(), store.store_id
        for i in range(ns.rounds):
            if ns.lockstep:
                print(f"ready {i}", flush=True)
                line = await asyncio.to_thread(sys.stdin.readline)
                await asyncio.sleep(max(0.0, float(line) - time.time()))
            else:
                await asyncio.sleep(max(0.0, ns.start + i * ns.gap - time.time()))
            out = await svc.submit(
                request_id(ns.prefix, i), ns.kind, {"prompt": f"race {ns.prefix} {i}"}
            )
            outcomes.append(out.kind.value)
        return outcomes
    finally:
        await svc.aclose()
        await provider.aclose()
        store.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    for name in ("--store", "--base-url", "--data-dir", "--kind", "--prefix"):
        p.add_argument(name, required=True)
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--start", type=float, default=0.0)
    p.add_argument("--gap", type=float, default=0.0)
    p.add_argument("--lockstep", action="store_true")
    print(json.dumps(asyncio.run(run(p.parse_args(argv)))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
