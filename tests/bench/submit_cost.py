"""Figures 1 and 2: the idempotent submit's claim and a replay, against a raw insert.

Three operations on SQLite files in one directory, all with Slate's settings (WAL,
``synchronous=FULL``, busy timeout), measured interleaved round by round so machine noise
hits them alike:

Ratios are medians over every operation, the three kinds interleaved operation by operation.
The CPU time of each operation is reported too: on a VM whose fsync takes 0.3 ms when quiet
and several ms when other processes write, the wall-time ratio moves with the disk; the CPU
time shows what Slate's own layers cost.

* **raw** — the floor: ``BEGIN IMMEDIATE``; one ``INSERT`` of a task row into the same
  ``tasks`` table (same indexes); ``COMMIT``, through the stdlib ``sqlite3`` module.
* **claim** — ``Store.claim_blocking(...)`` for a fresh slot with exactly the
  ``ClaimRequest`` ``SlateService.submit`` builds (``service/submit.py::claim_request``): the
  read first, then the claim (+ quota + two events + the row back) in one write transaction,
  as ``Store.claim`` runs them minus the hop to the worker thread. The slot's domain
  preparation (validation, normalization, fingerprint) is timed separately as
  ``submit_local``.
* **replay** — ``await SlateService.submit(...)`` of an existing slot with the same
  parameters: the claim transaction finds the record, a non-durable ``replayed`` note is
  added, the view is built. The provider is a stub that fails if it is ever reached.

* **floors** — what no Python layer can go under: the claim's very statements (the lean
  SQLite claim's compiled SQL, its binds prepared before the clock starts) run on a stdlib
  ``sqlite3`` connection — the read, ``BEGIN IMMEDIATE``, the insert, the quota upsert, the
  two events, ``COMMIT`` — and, for a replay, its one indexed read of the slot. ``claim_floor_ratio``
  and ``replay_floor_ratio`` are those floors ÷ the raw insert: a target below them cannot be
  met by Slate's code, only by doing less SQL.

``python -m tests.bench.submit_cost [--rounds R] [--ops N]`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

from app.config import Config
from app.domain.capabilities import Capabilities
from app.domain.fingerprint import fingerprint
from app.domain.params import normalize
from app.domain.slots import validate_request_id
from app.service.owner import this_owner
from app.service.results import OutcomeKind
from app.service.slate import SlateService
from app.service.submit import claim_request
from app.store.aio import open_store
from app.store.engine import BUSY_TIMEOUT_MS
from app.store.rows import ClaimRequest
from tests.bench.common import emit, ms, run_dir, summary_ms

SECRET = b"\x02" * 32
KIND = "video"


class UnreachableProvider:
    """A provider that must never be called: a replay sends nothing."""

    name = "demo"
    endpoint = "local"
    caps = Capabilities()

    def warm(self) -> None:
        """A submit warms the provider before its claim (no request: nothing to make here)."""

    def __getattr__(self, item: str) -> Any:
        raise AssertionError(f"the provider was reached ({item}) during a replay")

    async def aclose(self) -> None:
        return None


def params_for(i: int) -> dict[str, Any]:
    return {"prompt": f"tide eye, slow dolly in, take {i}", "resolution": "768P"}


def request_id(i: int) -> str:
    return f"article:20260816:bench:scene-{i:06d}"


def make_service(data_dir: Path, url: str) -> SlateService:
    config = Config(
        data_dir=data_dir,
        store=url,
        provider="demo",
        base_url=None,
        tenant="studio-a",
        user="lin",
        timeout=5.0,
        poll_interval=1.0,
    )
    return SlateService(config, open_store(url), UnreachableProvider(), SECRET)  # type: ignore[arg-type]


def prepare_claim(svc: SlateService, i: int) -> ClaimRequest:
    """What ``SlateService.submit`` computes before it calls ``Store.claim`` (same order, the
    same ``claim_request``, priced with the same table: the claim stores the estimate, and a
    replay reads it back instead of pricing the slot again)."""
    slot = svc.ctx.slot(validate_request_id(request_id(i)))
    norm = normalize(KIND, params_for(i))
    fp = fingerprint(KIND, norm)
    return claim_request(svc.ctx, slot, KIND, norm, fp, time.time(), svc.ctx.prices)


class RawInserter:
    """The floor: one task row, one transaction, stdlib sqlite3, Slate's pragmas."""

    def __init__(self, path: Path, template: dict[str, Any]) -> None:
        self.db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        self.template = template
        cols = list(template)
        self.sql = f"INSERT INTO tasks ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
        self.n = 0

    def insert(self) -> None:
        self.n += 1
        row = dict(self.template)
        row["slot_key"] = f"{self.n:064x}"
        row["idempotency_key"] = f"video:{self.n:064x}"
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute(self.sql, tuple(row.values()))
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()


class StatementFloor:
    """The claim's and the replay's own SQL with nothing around it: the lean claim's compiled
    statements (``app/store/sqlite_claim.py``) on a stdlib connection, binds made in advance."""

    def __init__(self, path: Path, svc: SlateService) -> None:
        self.db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        fast = svc.store._fast
        assert fast is not None, "the floor is the lean SQLite claim's SQL"
        self.fast = fast
        self.svc = svc

    def binds(self, req: ClaimRequest) -> tuple[Any, ...]:
        """Everything the claim binds, made before the clock starts."""
        fast, scope = self.fast, req.scope
        quota = fast.quota[req.write.quota_limit is not None]
        events = req.claim_events()
        return (
            fast.find.args(fast._slot(scope, req.slot_key)),
            fast.insert.args(req.task_values()),
            quota.sql,
            quota.args(
                {
                    "tenant": scope.tenant,
                    "user_hash": scope.user_hash,
                    "kind": req.kind,
                    "day": req.write.day,
                    "used": req.write.units,
                    "limit": req.write.quota_limit,
                }
            ),
            fast._events_sql(len(events)),
            events,
        )

    def claim(self, binds: tuple[Any, ...]) -> None:
        find_args, insert_args, quota_sql, quota_args, events_sql, events = binds
        fast, db = self.fast, self.db
        assert db.execute(fast.find.sql, find_args).fetchone() is None
        db.execute("BEGIN IMMEDIATE")
        row = db.execute(fast.insert.sql, insert_args).fetchone()
        db.execute(quota_sql, quota_args).fetchone()
        task_id = row[0]
        db.execute(
            events_sql,
            [v for e in events for v in fast.event.args({**e, "task_id": task_id})],
        )
        db.execute("COMMIT")

    def replay(self, find_args: tuple[Any, ...]) -> None:
        assert self.db.execute(self.fast.find.sql, find_args).fetchone() is not None

    def close(self) -> None:
        self.db.close()


def raw_template(svc: SlateService) -> dict[str, Any]:
    import json

    now = time.time()
    norm = normalize(KIND, params_for(0))
    host, pid, started = this_owner()[:3]
    return dict(
        tenant=svc.scope.tenant,
        user_hash=svc.scope.user_hash,
        slot_key="",
        idempotency_key="",
        provider="demo",
        endpoint="local",
        request_id=request_id(0),
        kind=KIND,
        fingerprint=fingerprint(KIND, norm),
        params=json.dumps(norm),
        state="submitting",
        owner_host=host,
        owner_pid=pid,
        owner_started=started,
        lease_until=now + 180,
        units=1,
        created_at=now,
        updated_at=now,
        poll_failures=0,
        project="bench",
    )


async def measure(rounds: int, ops: int, workdir: Path) -> dict[str, Any]:
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    claim_url = f"sqlite:///{(workdir / 'claim.sqlite3').as_posix()}"
    raw_url = f"sqlite:///{(workdir / 'raw.sqlite3').as_posix()}"
    floor_url = f"sqlite:///{(workdir / 'floor.sqlite3').as_posix()}"
    svc = make_service(workdir, claim_url)
    open_store(raw_url).close()  # same schema, migrated
    open_store(floor_url).close()
    raw = RawInserter(workdir / "raw.sqlite3", raw_template(svc))
    floor = StatementFloor(workdir / "floor.sqlite3", svc)
    floor_keys = iter(range(30_000_000, 40_000_000))

    # Existing slots for the replays: claimed, then moved on as a create would leave them.
    replay_keys = list(range(10_000_000, 10_000_000 + ops))
    for i in replay_keys:
        claim = svc.store.claim_blocking(prepare_claim(svc, i))
        assert claim.claimed and claim.task is not None
        svc.store.repo.transition(
            claim.task,
            state="processing",
            provider_task_id=f"t{i}",
            owner_pid=None,
            lease_until=None,
            next_poll_at=time.time() + 3600,
        )
    # Warm up every path (imports, statement caches, the thread pool).
    for _ in range(20):
        raw.insert()
        floor.claim(floor.binds(prepare_claim(svc, next(floor_keys))))
    # The replay floor reads slots that exist in the floor's own file.
    replay_floor_binds = []
    for _ in replay_keys:
        binds = floor.binds(prepare_claim(svc, next(floor_keys)))
        floor.claim(binds)
        replay_floor_binds.append(binds[0])
    warm = 20_000_000
    for i in range(warm, warm + 20):
        svc.store.claim_blocking(prepare_claim(svc, i))
    for i in replay_keys[:20]:
        out = await svc.submit(request_id(i), KIND, params_for(i))
        assert out.kind is OutcomeKind.REPLAYED, out

    t_raw: list[float] = []
    t_claim: list[float] = []
    t_local: list[float] = []
    t_replay: list[float] = []
    t_floor_claim: list[float] = []
    t_floor_replay: list[float] = []
    cpu: dict[str, list[float]] = {"raw": [], "claim": [], "replay": []}
    round_ratios: list[dict[str, float]] = []
    nxt = 0
    clock, cpu_clock = time.perf_counter, time.process_time
    for _ in range(rounds):
        r_raw, r_claim, r_replay = [], [], []
        # Interleaved op by op (raw, claim, replay, raw, ...): a change of disk or CPU load
        # during the run hits the three alike.
        for i, find_args in zip(replay_keys, replay_floor_binds):
            binds = floor.binds(prepare_claim(svc, next(floor_keys)))
            t0 = clock()
            floor.claim(binds)
            t_floor_claim.append(clock() - t0)
            t0 = clock()
            floor.replay(find_args)
            t_floor_replay.append(clock() - t0)

            c0, t0 = cpu_clock(), clock()
            raw.insert()
            r_raw.append(clock() - t0)
            cpu["raw"].append(cpu_clock() - c0)

            nxt += 1
            t0 = clock()
            args = prepare_claim(svc, nxt)
            c1, t1 = cpu_clock(), clock()
            claim = svc.store.claim_blocking(args)
            t2 = clock()
            cpu["claim"].append(cpu_clock() - c1)
            assert claim.claimed
            t_local.append(t1 - t0)
            r_claim.append(t2 - t1)

            c0, t0 = cpu_clock(), clock()
            out = await svc.submit(request_id(i), KIND, params_for(i))
            r_replay.append(clock() - t0)
            cpu["replay"].append(cpu_clock() - c0)
            assert out.kind is OutcomeKind.REPLAYED, out
        t_raw += r_raw
        t_claim += r_claim
        t_replay += r_replay
        med_raw = statistics.median(r_raw)
        round_ratios.append(
            {
                "claim": round(statistics.median(r_claim) / med_raw, 3),
                "replay": round(statistics.median(r_replay) / med_raw, 3),
            }
        )
    raw.close()
    floor.close()
    svc.store.close()
    med_raw = statistics.median(t_raw)
    claim_ratio = statistics.median(t_claim) / med_raw
    replay_ratio = statistics.median(t_replay) / med_raw
    claim_floor = statistics.median(t_floor_claim)
    replay_floor = statistics.median(t_floor_replay)
    return {
        "raw_insert": summary_ms(t_raw),
        "claim": summary_ms(t_claim),
        "submit_local": summary_ms(t_local),
        "replay": summary_ms(t_replay),
        "claim_ratio": round(claim_ratio, 3),
        "replay_ratio": round(replay_ratio, 3),
        "claim_floor": summary_ms(t_floor_claim),
        "replay_floor": summary_ms(t_floor_replay),
        "claim_floor_ratio": round(claim_floor / med_raw, 3),
        "replay_floor_ratio": round(replay_floor / med_raw, 3),
        # what Slate's layers add on top of the same SQL (1.0: nothing)
        "claim_over_floor": round(statistics.median(t_claim) / claim_floor, 3),
        "replay_over_floor": round(statistics.median(t_replay) / replay_floor, 3),
        "claim_ratio_by_round": [r["claim"] for r in round_ratios],
        "replay_ratio_by_round": [r["replay"] for r in round_ratios],
        "raw_median_ms": ms(med_raw),
        # CPU time of this process per operation (the disk's fsync is not in it): what the
        # Python layers cost, independent of how fast the disk answers during this run.
        "cpu_median_ms": {k: ms(statistics.median(v)) for k, v in cpu.items()},
        "sqlite_version": sqlite3.sqlite_version,
        "rounds": rounds,
        "ops_per_round": ops,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--ops", type=int, default=100)
    p.add_argument("--dir", type=Path, default=None)
    ns = p.parse_args(argv)
    workdir = ns.dir or run_dir("submit_cost")
    try:
        emit(asyncio.run(measure(ns.rounds, ns.ops, workdir)))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
