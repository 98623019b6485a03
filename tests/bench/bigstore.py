"""A large Slate store for the GUI figures: 100,000 slots and 1,000,000 history events.

Built fast with bulk SQL (stdlib ``sqlite3`` ``executemany`` into the schema the migrations
create), and cached: ``<bench dir>/bigstore-v<N>-<slots>x<events per slot>/`` holds the data
dir and ``slate.sqlite3``; a ``complete.json`` marker is written last, so an interrupted build
is rebuilt. Every slot is real to the service: its ``slot_key`` and idempotency key are the
ones ``SlotRef`` derives for tenant ``studio-a``, user ``lin`` on the demo provider, its
parameters are normalized and fingerprinted, its RequestId follows the business scheme
(``article:YYYYMMDD:proj-NNN:scene-NN``) over 100 projects and 180 days.

Every slot is in a settled state (success 80 %, fail 8 %, rejected 8 %, unknown 4 %), so
opening the store in the app polls nothing and writes nothing: the cache stays pristine.
Media rows are not generated (no files exist for them).

Every slot carries its cost as the claim and the lifecycle store it (migration 0006): the
estimate from the shipped price table, the provider's report for a success, the claim day.
``legacy=True`` (``--legacy``) leaves the cost columns empty but the day, as a store migrated
from before 0006 looks: Slate then prices every slot when it is read.

``python -m tests.bench.bigstore [--slots N] [--events-per-slot K] [--legacy] [--force]`` prints
the store's path and facts as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterator

from tests.bench.common import bench_dir, emit
from tests.support.rows import SLOT_COLUMNS, slot_dict

try:
    import fcntl
except ImportError:  # not POSIX: no lock (runs side by side there are not these tests' case)
    fcntl = None  # type: ignore[assignment]

VERSION = 4  # 2: prompt_text (0003); 3: slot boundary, owner ids, store id (0004-5); 4: cost (0006)
TENANT, USER = "studio-a", "lin"
PROVIDER, ENDPOINT = "demo", "local"
PROJECTS = 100
DAYS = 180

ADJECTIVES = (
    "misty",
    "golden",
    "neon",
    "quiet",
    "stormy",
    "paper",
    "glass",
    "velvet",
    "rusty",
    "frozen",
    "sunlit",
    "hollow",
    "distant",
    "crimson",
    "silver",
    "amber",
)
SUBJECTS = (
    "tide eye",
    "harbor crane",
    "night market",
    "mountain shrine",
    "city rooftop",
    "river ferry",
    "old library",
    "desert road",
    "forest path",
    "lighthouse",
    "tea house",
    "subway car",
    "orchard",
    "salt flats",
    "bell tower",
    "fish market",
    "snow field",
    "kite festival",
    "train yard",
    "greenhouse",
)
MOVES = (
    "slow dolly in",
    "wide establishing shot",
    "handheld close-up",
    "aerial pull back",
    "static frame",
    "pan left",
    "tilt up",
    "tracking shot",
)

#: The events of a settled slot, by state (each list has EVENTS_PER_SLOT entries by default).
EVENTS = {
    "success": [
        "submitted",
        "create_sent",
        "created",
        "status",
        "status",
        "status",
        "status",
        "downloaded",
        "verified",
        "exported",
    ],
    "fail": [
        "submitted",
        "create_sent",
        "created",
        "status",
        "status",
        "status",
        "status",
        "replayed",
        "conflict",
        "replayed",
    ],
    "rejected": [
        "submitted",
        "create_sent",
        "rate_limited",
        "rejected",
        "replayed",
        "conflict",
        "replayed",
        "replayed",
        "quota_refused",
        "replayed",
    ],
    "unknown": [
        "submitted",
        "create_sent",
        "unknown",
        "replayed",
        "replayed",
        "replayed",
        "conflict",
        "replayed",
        "replayed",
        "replayed",
    ],
}
STATE_WEIGHTS = (("success", 80), ("fail", 8), ("rejected", 8), ("unknown", 4))
STATUS_WORDS = ("Preparing", "Queueing", "Processing", "Success")


def cache_dir(slots: int, events_per_slot: int, legacy: bool = False) -> Path:
    tail = "-legacy" if legacy else ""
    return bench_dir() / f"bigstore-v{VERSION}-{slots}x{events_per_slot}{tail}"


def store_url(path: Path) -> str:
    return f"sqlite:///{path.as_posix()}"


def _slots(
    n: int, rng: random.Random, now: float, legacy: bool = False
) -> Iterator[dict[str, Any]]:
    from app.domain.cost import estimate, reported, usage_of
    from app.domain.days import local_day
    from app.domain.fingerprint import fingerprint
    from app.domain.params import normalize
    from app.domain.prices import parse_table
    from app.domain.slots import SlotRef
    from app.service.prices import shipped_text
    from app.store.rows import Scope

    table = parse_table(shipped_text())

    user_hash = SlotRef.parse(TENANT, USER, "placeholder-id").user_hash
    scope = Scope(TENANT, user_hash, PROVIDER, ENDPOINT)
    states = [s for s, w in STATE_WEIGHTS for _ in range(w)]
    scene: dict[tuple[str, str], int] = {}
    day0 = now - DAYS * 86400
    for i in range(n):
        created = day0 + (i / n) * DAYS * 86400 + rng.random() * 60  # ascending with the id
        project = f"proj-{rng.randrange(PROJECTS):03d}"
        day = time.strftime("%Y%m%d", time.localtime(created))
        k = scene[(project, day)] = scene.get((project, day), 0) + 1
        rid = f"article:{day}:{project}:scene-{k:02d}"
        ref = SlotRef.parse(TENANT, USER, rid)
        prompt = f"{rng.choice(ADJECTIVES)} {rng.choice(SUBJECTS)}, {rng.choice(MOVES)}, take {i}"
        if rng.random() < 0.7:
            kind = "video"
            raw: dict[str, Any] = {"prompt": prompt, "resolution": rng.choice(("768P", "1080P"))}
        else:
            kind = "image"
            raw = {
                "prompt": prompt,
                "aspect_ratio": rng.choice(("1:1", "16:9", "3:2")),
                "n": rng.randint(1, 4),
            }
        norm = normalize(kind, raw)
        state = rng.choice(states)
        task_id = f"{int(created)}{i % 100000:05d}"
        results = None
        error_code = error_message = provider_status = None
        if state == "success":
            provider_status = "Success"
            results = (
                {"file_id": str(10**14 + i), "width": 1366, "height": 768}
                if kind == "video"
                else {
                    "id": task_id,
                    "image_urls": [f"https://demo.invalid/{task_id}/0.png"],
                    "success_count": 1,
                    "failed_count": 0,
                }
            )
        elif state == "fail":
            provider_status = "Fail"
            error_code, error_message = "1027", "video output sensitive"
        elif state == "rejected":
            error_code, error_message = "1008", "insufficient balance"
            task_id = None  # type: ignore[assignment]
        else:
            error_code = "unknown"
            error_message = "ReadTimeout: the create's answer never arrived"
            task_id = None  # type: ignore[assignment]
        cost = (
            estimate(kind, norm, table)
            .with_reported(
                reported(kind, norm, usage_of(kind, results, state == "success"), table)
                if state == "success"
                else None
            )
            .to_record()
        )
        if legacy:
            cost = {"estimate": None, "currency": None, "basis": None, "reported": None}
        yield slot_dict(
            scope,
            rid,
            kind,
            slot_key=ref.slot_key,
            idempotency_key=ref.key(kind),
            fingerprint=fingerprint(kind, norm),
            params=json.dumps(norm),
            state=state,
            created_at=created,
            updated_at=created + 120,
            units=1 if kind == "video" else norm["n"],
            more=dict(
                provider_task_id=task_id,
                provider_status=provider_status,
                results=json.dumps(results) if results is not None else None,
                error_code=error_code,
                error_message=error_message,
                owner_host=None,
                owner_pid=None,
                owner_started=None,
                lease_until=None,
                next_poll_at=None,
                project=project,
                prompt_text=norm["prompt"],
                cost_estimate=cost["estimate"],
                cost_currency=cost["currency"],
                cost_basis=cost["basis"],
                cost_reported=cost["reported"],
                cost_day=local_day(created),
            ),
        )


def _events(task_id: int, slot: dict[str, Any], per_slot: int) -> list[tuple[Any, ...]]:
    names = EVENTS[slot["state"]]
    names = (names * (per_slot // len(names) + 1))[:per_slot]
    out = []
    status = 0
    t = slot["created_at"]
    ptid = slot["provider_task_id"] or ""
    for name in names:
        t += 7.0
        data: Any = None
        detail = name
        if name == "created":
            data = {
                "raw": {"task_id": ptid, "base_resp": {"status_code": 0, "status_msg": "success"}},
                "sent_at": t,
            }
            detail = f"provider task {ptid}"
        elif name == "status":
            word = (
                STATUS_WORDS[min(status, len(STATUS_WORDS) - 1)]
                if slot["state"] == "success"
                else (STATUS_WORDS[status] if status < 3 else "Fail")
            )
            status += 1
            data = {
                "raw": {
                    "task_id": ptid,
                    "status": word,
                    "file_id": "",
                    "base_resp": {"status_code": 0, "status_msg": "success"},
                }
            }
            detail = word
        elif name == "conflict":
            data = {
                "attempted_fingerprint": "0" * 64,
                "diff": {"prompt": {"stored": "a", "attempted": "b"}},
            }
            detail = "changed: prompt"
        elif name == "replayed":
            detail = "same parameters: answered from the record, nothing sent"
        out.append(
            (
                slot["tenant"],
                slot["slot_key"],
                PROVIDER,
                ENDPOINT,
                task_id,
                t,
                name,
                slot["state"],
                detail,
                json.dumps(data) if data is not None else None,
            )
        )
    return out


def build(
    slots: int, events_per_slot: int, *, force: bool = False, seed: int = 7, legacy: bool = False
) -> dict[str, Any]:
    """Build (or reuse) the cached store; returns its facts.

    Under a lock beside the folder: runs started side by side (the smoke tests of several
    groups on a clean machine) wait for one build and reuse it, instead of each removing the
    folder another is writing."""
    folder = cache_dir(slots, events_per_slot, legacy)
    with open(folder.with_name(folder.name + ".lock"), "a") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(folder, slots, events_per_slot, force=force, seed=seed, legacy=legacy)


def _build(
    folder: Path, slots: int, events_per_slot: int, *, force: bool, seed: int, legacy: bool
) -> dict[str, Any]:
    from app.store.aio import open_store

    marker = folder / "complete.json"
    if marker.exists() and not force:
        facts = json.loads(marker.read_text())
        facts["cached"] = True
        return facts
    shutil.rmtree(folder, ignore_errors=True)
    data_dir = folder / "data"
    data_dir.mkdir(parents=True)
    path = data_dir / "slate.sqlite3"
    t0 = time.perf_counter()
    open_store(store_url(path)).close()  # the schema, by the migrations
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA cache_size=-200000")
    cols = (
        *SLOT_COLUMNS,
        "provider_task_id",
        "provider_status",
        "results",
        "error_code",
        "error_message",
        "owner_host",
        "owner_pid",
        "owner_started",
        "lease_until",
        "next_poll_at",
        "project",
        "prompt_text",
        "cost_estimate",
        "cost_currency",
        "cost_basis",
        "cost_reported",
        "cost_day",
    )
    task_sql = (
        f"INSERT INTO tasks (id, {', '.join(cols)}) VALUES (?, {', '.join('?' for _ in cols)})"
    )
    event_sql = (
        "INSERT INTO slot_events (tenant, slot_key, provider, endpoint, task_id, at, event, "
        "state, detail, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    rng = random.Random(seed)
    now = time.time()
    batch_tasks: list[tuple[Any, ...]] = []
    batch_events: list[tuple[Any, ...]] = []
    n_events = 0
    db.execute("BEGIN")
    for task_id, slot in enumerate(_slots(slots, rng, now, legacy), start=1):
        batch_tasks.append((task_id, *(slot[c] for c in cols)))
        batch_events.extend(_events(task_id, slot, events_per_slot))
        if len(batch_tasks) >= 5000:
            db.executemany(task_sql, batch_tasks)
            db.executemany(event_sql, batch_events)
            n_events += len(batch_events)
            batch_tasks.clear()
            batch_events.clear()
    db.executemany(task_sql, batch_tasks)
    db.executemany(event_sql, batch_events)
    n_events += len(batch_events)
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    facts = {
        "store": store_url(path),
        "data_dir": str(data_dir),
        "path": str(path),
        "slots": slots,
        "events": n_events,
        "bytes": path.stat().st_size,
        "build_s": round(time.perf_counter() - t0, 2),
        "tenant": TENANT,
        "user": USER,
        "version": VERSION,
        "legacy": legacy,
        "search_hit": "lighthouse",
        "search_miss": "zzqx-no-such-text",
    }
    marker.write_text(json.dumps(facts))
    facts["cached"] = False
    return facts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--slots", type=int, default=100_000)
    p.add_argument("--events-per-slot", type=int, default=10)
    p.add_argument("--legacy", action="store_true", help="no cost columns (as before 0006)")
    p.add_argument("--force", action="store_true")
    ns = p.parse_args(argv)
    emit(build(ns.slots, ns.events_per_slot, force=ns.force, legacy=ns.legacy))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
