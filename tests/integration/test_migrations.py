"""Migrations on both backends: step by step, with data, and the unique boundary never missing.

Every step (base → 0001 → 0002 → 0003 → 0006, down and up again) is checked against the database catalog:
a unique index over the idempotency key exists after each one, and a duplicate key is refused.
The index replacement itself (create new, read it back, then drop old) is checked from inside:
when the old index is dropped the new one already reads back, and when it does not read back
right the old one is kept.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from app.domain.days import local_day
from app.store.engine import make_engine
from app.store.migrate import HEAD_REVISION, current_revision, downgrade, script_head, upgrade
from app.store.migrations import indexes
from app.store.models import BOUNDARY_COLUMNS, BOUNDARY_INDEX, Task
from app.store.repository import Repository
from app.store.rows import ClaimRequest, ClaimWrite, Scope

NARROW = ("tenant", "idempotency_key")
STEPS = [None, "0001_initial", "0002_widen_boundary", "0003_browse_index", "0006_cost"]


@pytest.fixture
def engine(store_url: str):
    eng = make_engine(store_url)
    try:
        yield eng
    finally:
        eng.dispose()


def boundary(engine: sa.Engine) -> dict[str, tuple[str, ...]]:
    """Unique indexes of ``tasks`` that cover the idempotency key, read from the catalog."""
    with engine.connect() as conn:
        if not sa.inspect(conn).has_table("tasks"):
            return {}
        found = indexes.unique_indexes(conn, "tasks")
    return {n: cols for n, cols in found.items() if set(NARROW) <= set(cols)}


def row(i: int, **kw: Any) -> dict[str, Any]:
    now = time.time()
    base = dict(
        tenant="studio-a", user_hash="u" * 64, slot_key=f"{i:064d}", idempotency_key=f"k{i:063d}",
        provider="demo", endpoint="local", request_id=f"article:20260816:mig:scene-{i:02d}",
        kind="video", fingerprint="f" * 64, params={"prompt": f"p{i}"}, state="success",
        units=1, created_at=now, updated_at=now, poll_failures=0, provider_task_id=f"t{i}",
    )
    base.update(kw)
    return base


def insert(engine: sa.Engine, *rows: dict[str, Any]) -> None:
    with engine.begin() as conn:
        for r in rows:
            conn.execute(Task.__table__.insert().values(**r))


def assert_duplicate_refused(engine: sa.Engine, i: int) -> None:
    """The boundary is not only in the catalog: the database enforces it."""
    with pytest.raises(IntegrityError):
        insert(engine, row(i, request_id="article:20260816:mig:dupe"))


def assert_step(engine: sa.Engine, rev: str | None) -> None:
    assert current_revision(engine) == rev
    found = boundary(engine)
    if rev is None:
        assert found == {}
    elif rev == "0001_initial":
        assert found == {"uq_tasks_tenant_key": NARROW}
    else:
        assert found == {BOUNDARY_INDEX: BOUNDARY_COLUMNS}


def test_head_revision_constant_matches_the_scripts(engine):
    assert script_head(engine) == HEAD_REVISION == STEPS[-1]


def test_step_by_step_up_and_down_keeps_a_unique_boundary(engine):
    assert_step(engine, None)
    walk = ["0001_initial", "0002_widen_boundary", "0003_browse_index", "0006_cost",
            "0001_initial", "0002_widen_boundary", "0003_browse_index", "0006_cost"]
    for i, rev in enumerate(walk):
        if STEPS.index(rev) < STEPS.index(current_revision(engine)):
            downgrade(engine, rev)
        else:
            upgrade(engine, rev)
        assert_step(engine, rev)
        insert(engine, row(i))  # data written at this step survives the next ones
        assert_duplicate_refused(engine, i)
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(Task.__table__)).scalar() == len(walk)
    downgrade(engine, "base")
    assert_step(engine, None)
    upgrade(engine)
    assert_step(engine, HEAD_REVISION)


def test_empty_store_upgrades_to_head_and_repository_works(engine):
    repo = Repository(engine)
    assert_step(engine, HEAD_REVISION)
    scope = Scope("studio-a", "u" * 64, "demo", "local")
    write = ClaimWrite(
        idempotency_key="k" * 64, request_id="article:1:x:scene-01", params={"prompt": "p"},
        units=1, owner=("host", 1, 1.0), lease_until=time.time() + 60, quota_limit=None,
        day="2026-08-16",
    )
    got = repo.claim(ClaimRequest(scope, "s" * 64, "image", "f" * 64, time.time(), lambda: write))
    assert got.claimed


@pytest.mark.parametrize("start", STEPS[1:-1] + [None])
def test_store_at_every_earlier_revision_with_data_upgrades_cleanly(engine, start):
    if start is not None:
        upgrade(engine, start)
        insert(engine, row(1), row(2, state="processing", provider_task_id="t2"))
    repo = Repository(engine)  # opening a store migrates it to head
    assert_step(engine, HEAD_REVISION)
    scope = Scope("studio-a", "u" * 64, "demo", "local")
    if start is not None:
        old = repo.get_slot(scope, f"{1:064d}")
        assert old is not None and old.state == "success" and old.params == {"prompt": "p1"}
        if STEPS.index(start) < STEPS.index("0003_browse_index"):
            assert old.prompt_text == "p1"  # 0003 copied the prompt out of the parameters
        # 0006: the claim day from created_at (local time); no cost stored, priced when read
        assert old.cost_day == local_day(old.created_at)
        assert old.cost_currency is None and old.cost_estimate is None
        # The old record still arbitrates its slot: claiming it again answers the record.
        write = ClaimWrite(
            idempotency_key=f"k{1:063d}", request_id=old.request_id, params={"prompt": "p1"},
            units=1, owner=("host", 1, 1.0), lease_until=time.time() + 60, quota_limit=None,
            day="2026-08-16",
        )
        again = repo.claim(ClaimRequest(scope, f"{1:064d}", "video", "f" * 64, time.time(),
                                        lambda: write))
        assert not again.claimed and again.task is not None and again.task.id == old.id
        assert_duplicate_refused(engine, 1)


def test_the_new_index_reads_back_before_the_old_one_is_dropped(engine, monkeypatch):
    upgrade(engine, "0001_initial")
    seen: list[dict[str, tuple[str, ...]]] = []
    real_drop = indexes.op.drop_index

    def drop_index(name: str, *a: Any, **kw: Any) -> None:
        bind = indexes.op.get_bind()
        now = indexes.unique_indexes(bind, "tasks")
        seen.append(now)
        # At the moment of the drop both boundaries exist: never a moment without one.
        assert now.get(BOUNDARY_INDEX) == BOUNDARY_COLUMNS
        assert now.get(name) == NARROW
        real_drop(name, *a, **kw)

    monkeypatch.setattr(indexes.op, "drop_index", drop_index, raising=False)
    upgrade(engine)
    assert len(seen) == 1
    assert_step(engine, HEAD_REVISION)


@pytest.mark.parametrize("readback", ["missing", "wrong_columns", "not_unique"])
def test_replace_unique_index_refuses_to_drop_when_the_new_one_does_not_read_back(
    engine, monkeypatch, readback
):
    upgrade(engine, "0001_initial")
    insert(engine, row(1))
    real = indexes.unique_indexes

    def lying_catalog(bind: sa.Connection, table: str) -> dict[str, tuple[str, ...]]:
        found = dict(real(bind, table))
        if readback == "missing" or readback == "not_unique":
            found.pop(BOUNDARY_INDEX, None)
        else:
            found[BOUNDARY_INDEX] = ("tenant", "provider")
        return found

    dropped: list[str] = []
    real_drop = indexes.op.drop_index
    monkeypatch.setattr(indexes, "unique_indexes", lying_catalog)
    monkeypatch.setattr(indexes.op, "drop_index",
                        lambda name, *a, **kw: (dropped.append(name), real_drop(name, *a, **kw)),
                        raising=False)
    with pytest.raises(indexes.IndexVerificationError, match="keeping uq_tasks_tenant_key"):
        upgrade(engine)
    assert dropped == []
    monkeypatch.undo()
    # The failed migration rolled back as a whole: still 0001, the narrow boundary in place.
    assert_step(engine, "0001_initial")
    assert_duplicate_refused(engine, 1)
    upgrade(engine)
    assert_step(engine, HEAD_REVISION)


def test_a_crash_between_create_and_drop_leaves_a_boundary(engine, monkeypatch):
    """The drop fails (a crash, a lock timeout): the migration rolls back; a boundary remains."""
    upgrade(engine, "0001_initial")

    def boom(*a: Any, **kw: Any) -> None:
        raise RuntimeError("process died before the drop")

    monkeypatch.setattr(indexes.op, "drop_index", boom, raising=False)
    with pytest.raises(RuntimeError, match="died"):
        upgrade(engine)
    monkeypatch.undo()
    assert boundary(engine), "no unique boundary left after an interrupted migration"
    assert current_revision(engine) == "0001_initial"
    upgrade(engine)
    assert_step(engine, HEAD_REVISION)


def test_fast_path_skips_alembic_at_head(engine, monkeypatch):
    upgrade(engine)
    from alembic import command

    monkeypatch.setattr(command, "upgrade", lambda *a, **kw: pytest.fail("alembic ran at head"))
    upgrade(engine)
