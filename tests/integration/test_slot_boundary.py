"""The boundary is the slot (issue 15, point 1), on both backends.

Issue 15: an image and a video submit of one RequestId at the same instant were both
``created`` on PostgreSQL in 276 of 300 rounds — two paid creates, and ``status`` showed only
one. Two real processes race here, one submitting images and one videos of the same RequestIds,
round after round at agreed instants: every round must give exactly one ``created`` and one
``conflict``, and the provider must see exactly one create per slot. The 200 rounds per backend
run as four shards of 50 (each its own pair of racers, provider and store), so they can run on
several workers; every round is independent of the others.

A store that already holds such duplicates (made before the boundary) shows every task of the
slot in ``status``, ``history`` and ``doctor``.
"""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
import sqlalchemy as sa

from app.domain.slots import SlotRef
from app.store.engine import make_engine
from app.store.migrate import upgrade
from app.store.rows import Scope
from tests.support.machines import start_python
from tests.support.rows import SLOT_COLUMNS, slot_dict

#: Rounds per shard, and shards per backend: 200 rounds per backend in all.
ROUNDS = 50
SHARDS = 4
#: From both racers being ready to the round's start: the time to hand both the instant.
LEAD = 0.02
RID = "article:20260816:tide-eye:scene-02"


@pytest.mark.parametrize("shard", range(SHARDS))
def test_image_and_video_of_one_request_id_racing_create_once(
    slate_env, demo_sim, store_url, data_dir, shard
):
    racers = [
        start_python(
            slate_env,
            [
                "-m",
                "tests.support.slot_racer",
                "--store",
                store_url,
                "--base-url",
                demo_sim.base_url,
                "--data-dir",
                str(data_dir),
                "--kind",
                kind,
                "--prefix",
                f"article:20260816:race{shard}",
                "--rounds",
                str(ROUNDS),
                "--lockstep",
            ],
        )
        for kind in ("image", "video")
    ]
    try:
        # Each round: both racers ready (store opened, previous round done), then one instant.
        for i in range(ROUNDS):
            for proc in racers:
                assert proc.stdout is not None
                line = proc.stdout.readline()
                assert line.strip() == f"ready {i}", (line, proc.stderr.read()[-3000:])
            start = time.time() + LEAD
            for proc in racers:
                assert proc.stdin is not None
                proc.stdin.write(f"{start!r}\n")
                proc.stdin.flush()
        results = []
        for proc in racers:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err[-3000:]
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for proc in racers:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    images, videos = results
    rounds = [Counter(pair) for pair in zip(images, videos)]
    doubles = [i for i, c in enumerate(rounds) if c["created"] > 1]
    assert doubles == [], f"{len(doubles)} of {ROUNDS} rounds created twice: {doubles[:10]}"
    assert all(c == Counter({"created": 1, "conflict": 1}) for c in rounds), [
        (i, dict(c)) for i, c in enumerate(rounds) if c != Counter({"created": 1, "conflict": 1})
    ][:10]
    stats = demo_sim.stats()
    assert stats["creates_total"] == ROUNDS, stats["creates_total"]
    assert set(stats["creates_by_prompt"].values()) == {1}
    # Both kinds won some rounds: the race was real in both directions.
    assert Counter(images)["created"] > 0 and Counter(videos)["created"] > 0, (
        Counter(images),
        Counter(videos),
    )
    eng = make_engine(store_url)
    try:
        with eng.connect() as conn:
            per_slot = (
                conn.execute(
                    sa.text(
                        "SELECT count(*) FROM tasks GROUP BY tenant, slot_key, provider, endpoint"
                    )
                )
                .scalars()
                .all()
            )
    finally:
        eng.dispose()
    assert len(per_slot) == ROUNDS and set(per_slot) == {1}


def _duplicated_store(store_url: str) -> None:
    """A store written before the slot boundary, holding an image and a video task for one
    slot of tenant studio-a, user lin (the race's leftovers), then opened by today's Slate."""
    ref = SlotRef.parse("studio-a", "lin", RID)
    eng = make_engine(store_url)
    try:
        upgrade(eng, "0003_browse_index")
        now = time.time()
        cols = (*SLOT_COLUMNS, "provider_task_id", "provider_status")
        table = sa.table(
            "tasks", *[sa.column(c, sa.JSON) if c == "params" else sa.column(c) for c in cols]
        )
        scope = Scope(ref.tenant, ref.user_hash, "demo", "local")
        with eng.begin() as conn:
            for kind, pid, state in (
                ("image", "img-111", "success"),
                ("video", "vid-222", "processing"),
            ):
                conn.execute(
                    table.insert().values(
                        slot_dict(
                            scope,
                            RID,
                            kind,
                            slot_key=ref.slot_key,
                            idempotency_key=ref.key(kind),
                            fingerprint="f" * 64,
                            params={"prompt": f"{kind} prompt"},
                            state=state,
                            created_at=now,
                            more=dict(
                                provider_task_id=pid,
                                provider_status="Processing" if kind == "video" else "Success",
                            ),
                        )
                    )
                )
                now += 0.5
    finally:
        eng.dispose()


@pytest.mark.empty_store  # the duplicated store is built from an empty database
def test_status_history_and_doctor_show_every_task_of_a_duplicated_slot(slate, store_url):
    _duplicated_store(store_url)
    env = {"SLATE_STORE": store_url}
    status = slate("status", RID, env=env)
    assert status.code == 0 and status.out["task"]["provider_task_id"] == "img-111", status.out
    assert [t["provider_task_id"] for t in status.out["duplicates"]] == ["vid-222"]
    assert status.out["duplicates"][0]["kind"] == "video"
    assert "more than one task" in status.out["note"]
    history = slate("history", RID, env=env)
    assert history.code == 0
    assert [t["provider_task_id"] for t in history.out["duplicates"]] == ["vid-222"]
    reported = [e for e in history.out["events"] if e["event"] == "duplicate_slot"]
    assert len(reported) == 2, history.out["events"]
    assert all("img-111" in e["detail"] and "vid-222" in e["detail"] for e in reported)
    doctor = slate("doctor", env=env)
    assert doctor.out["store"]["duplicate_slots"] == 1, doctor.out["store"]
    assert any("more than one task" in n for n in doctor.out["notes"]), doctor.out["notes"]
    # Neither kind gets a third task: both are conflicts (or the slot's own replay)
    for kind in ("image", "video"):
        again = slate("submit", "--request-id", RID, "--kind", kind, "--prompt", "third", env=env)
        assert again.code == 3 and again.out["outcome"] == "conflict", again.out


def test_an_ordinary_slot_has_no_duplicates_key(slate, store_url):
    made = slate(
        "submit",
        "--request-id",
        RID,
        "--kind",
        "image",
        "--prompt",
        "p",
        env={"SLATE_STORE": store_url},
    )
    assert made.code == 0
    status = slate("status", RID, env={"SLATE_STORE": store_url})
    assert set(status.out) == {"outcome", "request_id", "task", "error"}, status.out
