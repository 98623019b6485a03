"""Figure 9: ``spend`` on the 100,000-slot store, and the daily budget's part of a claim.

On the cached store of :mod:`tests.bench.bigstore` (every slot with its stored cost, as Slate
writes it since migration 0006), ``SlateService.spend`` — exactly what ``slate spend`` runs:
the store counts the slots in SQL, grouped by what spend looks at, and the domain sums the
pairs exactly — is timed for the total alone and for each grouping (day, project, model), and
with ``since`` a week ago. The figure is the slowest of these medians.

Beside it: a store migrated from before 0006 (``legacy``: no stored costs), on a copy: its first
``spend`` prices every slot from its parameters and stores the figures (the one-time cost of an
upgrade), and the groupings after that;
today's budget use (``budget_today``: the read the claim transaction makes, on today's slots
through the ``ix_tasks_cost_day`` index); and a claim with a daily budget set against one
without, on a copy of the store (the budget sends the claim down the general path; today's slots of unknown price are given an amount on that copy, since a
budget refuses every create while today's spend has a part of unknown price).

``python -m tests.bench.spend [--slots 100000] [--runs 5]`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.bench.common import bench_dir, emit, summary_ms

TENANT, USER = "studio-a", "lin"


def _service(store_url: str, data_dir: Path, budget: Decimal | None = None) -> Any:
    from app.config import Config
    from app.providers.demo import DemoProvider
    from app.service.slate import SlateService
    from app.store.aio import open_store

    config = Config(
        data_dir=data_dir,
        store=store_url,
        provider="demo",
        base_url=None,
        tenant=TENANT,
        user=USER,
        budget_daily=budget,
        prices_file=data_dir / "no-override.toml",
    )
    store = open_store(store_url)
    provider = DemoProvider("http://127.0.0.1:9", timeout=1.0)  # never called here
    return SlateService(config, store, provider, b"\x02" * 32), store, provider


async def _time(fn: Any, runs: int) -> tuple[list[float], Any]:
    out, last = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        last = await fn()
        out.append(time.perf_counter() - t0)
    return out, last


async def _spend_figures(store_url: str, data_dir: Path, runs: int) -> dict[str, Any]:
    from app.domain.days import local_day

    svc, store, provider = _service(store_url, data_dir)
    week = local_day(time.time() - 7 * 86400)
    try:
        out: dict[str, Any] = {}
        for name, kw in (
            ("total", {}),
            ("by_day", {"by": "day"}),
            ("by_project", {"by": "project"}),
            ("by_model", {"by": "model"}),
            ("since_week_by_day", {"by": "day", "since": week}),
        ):
            times, result = await _time(lambda kw=kw: svc.spend(**kw), runs)
            assert result.payload is not None, result.problem
            total = result.payload.spend.total
            out[name] = {
                **summary_ms(times),
                "slots": total.slots,
                "groups": len(result.payload.spend.groups),
            }
        times, today = await _time(svc.budget_today, runs)
        out["budget_today"] = {**summary_ms(times), "slots_today": today.spent.slots}
        return out
    finally:
        await svc.aclose()
        await provider.aclose()
        store.close()


async def _first_spend(store_url: str, data_dir: Path) -> int:
    svc, store, provider = _service(store_url, data_dir)
    try:
        result = await svc.spend()
        assert result.payload is not None, result.problem
        return int(result.payload.spend.total.slots)
    finally:
        await svc.aclose()
        await provider.aclose()
        store.close()


def _claim_figures(store_url_of: Any, runs: int) -> dict[str, Any]:
    """Store.claim_blocking for fresh slots with and without a budget, interleaved."""
    from app.domain.fingerprint import fingerprint
    from app.domain.params import normalize
    from app.domain.prices import parse_table
    from app.domain.slots import SlotRef
    from app.service.prices import shipped_text
    from app.service.submit import claim_request

    table = parse_table(shipped_text())
    svc, store, provider = store_url_of()
    budgeted, *_ = store_url_of(budget=Decimal("1000000"))
    norm = normalize("video", {"prompt": "bench", "resolution": "768P"})
    fp = fingerprint("video", norm)
    plain_t, budget_t = [], []
    try:
        for i in range(runs):
            for which, target in ((svc, plain_t), (budgeted, budget_t)):
                rid = f"article:20991231:bench:scene-{len(plain_t) + len(budget_t):05d}"
                slot = SlotRef.parse(TENANT, USER, rid)
                req = claim_request(which.ctx, slot, "video", norm, fp, time.time(), table)
                t0 = time.perf_counter()
                got = store.claim_blocking(req)
                target.append(time.perf_counter() - t0)
                assert got.claimed, got
        return {"claim": summary_ms(plain_t), "claim_with_budget": summary_ms(budget_t)}
    finally:
        store.close()
        budgeted.store.close()


def _price_today(path: Path) -> None:
    """Give today's slots of unknown price (image-01, 1080P clips) an amount, so a budget can
    admit a create at all (with a part of unknown price it refuses everything)."""
    import sqlite3

    from app.domain.days import local_day

    db = sqlite3.connect(str(path))
    try:
        with db:
            db.execute(
                "UPDATE tasks SET cost_estimate = '0.10' WHERE cost_estimate IS NULL "
                "AND cost_day = ?",
                (local_day(),),
            )
    finally:
        db.close()


def main(argv: list[str] | None = None) -> int:
    from tests.bench.bigstore import build

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--slots", type=int, default=100_000)
    p.add_argument("--events-per-slot", type=int, default=10)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--claims", type=int, default=200)
    ns = p.parse_args(argv)
    facts = build(ns.slots, ns.events_per_slot)
    legacy = build(ns.slots, 1, legacy=True)
    work = Path(tempfile.mkdtemp(prefix="spend-", dir=bench_dir()))
    try:
        out: dict[str, Any] = {"slots": facts["slots"], "events": facts["events"], "runs": ns.runs}
        out["stored"] = asyncio.run(_spend_figures(facts["store"], work, ns.runs))
        # an upgraded store: the first spend prices every slot and stores it (on a copy)
        old = work / "legacy.sqlite3"
        shutil.copyfile(legacy["path"], old)
        old_url = f"sqlite:///{old.as_posix()}"
        t0 = time.perf_counter()
        first = asyncio.run(_first_spend(old_url, work))
        out["legacy_first_spend"] = {
            "ms": round((time.perf_counter() - t0) * 1000, 1),
            "slots": first,
        }
        out["legacy"] = asyncio.run(_spend_figures(old_url, work, ns.runs))
        # claims write: on a copy, so the cached store stays pristine
        copy = work / "claims.sqlite3"
        shutil.copyfile(facts["path"], copy)
        url = f"sqlite:///{copy.as_posix()}"
        _price_today(copy)

        def open_one(budget: Decimal | None = None) -> Any:
            return _service(url, work, budget)

        out["claims"] = _claim_figures(open_one, ns.claims)
        groupings = ("total", "by_day", "by_project", "by_model", "since_week_by_day")
        out["spend_ms"] = max(out["stored"][g]["median_ms"] for g in groupings)
        out["legacy_after_first_spend_ms"] = max(out["legacy"][g]["median_ms"] for g in groupings)
        out["claim_budget_ratio"] = round(
            statistics.median([out["claims"]["claim_with_budget"]["median_ms"]])
            / out["claims"]["claim"]["median_ms"],
            2,
        )
        emit(out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
