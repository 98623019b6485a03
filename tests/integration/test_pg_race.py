"""Separate machines sharing one PostgreSQL store, played by separate `slate` processes.

Each process opens the store itself (the very first ones also migrate a brand-new database,
serialized by the migration's advisory lock), then all submit at the same instant. The unique
boundary in PostgreSQL is the only thing they share besides the provider.
"""

from __future__ import annotations

from collections import Counter

import pytest
import sqlalchemy as sa

from app.store.engine import make_engine
from app.store.migrate import HEAD_REVISION, current_revision
from tests.support.pg import fresh_database
from tests.support.procs import race

RID = "article:20260816:harbor:scene-07"


@pytest.fixture
def pg_url():
    with fresh_database() as url:  # empty: not even migrated
        yield url


def test_twelve_processes_fresh_pg_store_one_slot_exactly_one_create(slate_env, demo_sim, pg_url):
    demo_sim.set_faults(delay_create_response=0.5)  # the winner's create is still in flight
    env = {**slate_env, "SLATE_STORE": pg_url}
    prompt = "harbor at dawn, slow pan"
    argv = ["submit", "--request-id", RID, "--kind", "video", "--prompt", prompt]
    results = race(env, [argv] * 12)
    outcomes = Counter(out["outcome"] for _code, out in results)
    assert outcomes == {"created": 1, "replayed": 11}, results
    assert [code for code, _ in results] == [0] * 12, results
    assert all(out["error"] is None for _, out in results), results
    stats = demo_sim.stats()
    assert stats["creates_total"] == 1, stats
    assert stats["creates_by_prompt"] == {prompt: 1}
    assert len({out["task"]["handle"] for _, out in results}) == 1
    assert len({out["task"]["fingerprint"] for _, out in results}) == 1
    # One record, one "submitted" event; the store was migrated exactly to head by the racers.
    eng = make_engine(pg_url)
    try:
        assert current_revision(eng) == HEAD_REVISION
        with eng.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM tasks")).scalar() == 1
            submitted = conn.execute(
                sa.text("SELECT count(*) FROM slot_events WHERE event = 'submitted'")
            ).scalar()
            assert submitted == 1
    finally:
        eng.dispose()


def test_racing_users_and_changed_parameters_on_pg(slate_env, demo_sim, pg_url):
    """Same RequestId: two designers (two slots), and one racer with another prompt (conflict)."""
    demo_sim.set_faults(delay_create_response=0.3)
    env = {**slate_env, "SLATE_STORE": pg_url}
    base = ["submit", "--request-id", RID, "--kind", "image"]
    argvs = (
        [["--user", "lin", *base, "--prompt", "p-lin"]] * 2
        + [["--user", "mei", *base, "--prompt", "p-mei"]] * 2
        + [["--user", "lin", *base, "--prompt", "p-lin changed"]] * 2
    )
    results = race(env, argvs)
    by_prompt = demo_sim.stats()["creates_by_prompt"]
    assert by_prompt.get("p-lin changed", 0) <= 1
    if by_prompt.get("p-lin changed"):  # the changed prompt won lin's slot
        assert by_prompt == {"p-mei": 1, "p-lin changed": 1}
    else:
        assert by_prompt == {"p-mei": 1, "p-lin": 1}
    outcomes = Counter(out["outcome"] for _c, out in results)
    assert outcomes["created"] == 2, results
    assert outcomes["conflict"] == 2 and outcomes["replayed"] == 2, results
    assert all(out["outcome"] in {"created", "replayed", "conflict"} for _c, out in results)


def test_quota_is_atomic_across_processes_on_pg(slate_env, demo_sim, pg_url):
    env = {**slate_env, "SLATE_STORE": pg_url, "SLATE_QUOTA_VIDEO": "3"}
    argvs = [
        ["submit", "--request-id", f"{RID}-q{i:02d}", "--kind", "video", "--prompt", f"q{i}"]
        for i in range(8)
    ]
    results = race(env, argvs)
    outcomes = Counter(out["outcome"] for _c, out in results)
    assert outcomes == {"created": 3, "quota_exceeded": 5}, results
    for code, out in results:
        assert code == (0 if out["outcome"] == "created" else 5), (code, out)
    assert demo_sim.stats()["creates_total"] == 3
    eng = make_engine(pg_url)
    try:
        with eng.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM tasks")).scalar() == 3
            assert conn.execute(sa.text("SELECT sum(used) FROM quota_use")).scalar() == 3
    finally:
        eng.dispose()
    ((code, out),) = race(env, [["quota"]])
    assert code == 0 and out["quota"]["video"] == {"used": 3, "limit": 3}, out
