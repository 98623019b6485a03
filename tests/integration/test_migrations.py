"""Migrations on both backends: step by step, with data, and the unique boundary never missing.

Every step (base → 0001 → … → head, down and up again) is checked against the database catalog:
a unique index over the idempotency key exists after each one, and from 0004 on a unique index
over the slot itself (tenant, slot_key, provider, endpoint, slot_copy); the database refuses a
duplicate key — and from 0004 a second task for one slot, whatever its kind. An index
replacement (create new, read it back, then drop old) is checked from inside: when the old index
is dropped the new one already reads back, and when it does not read back right nothing is
dropped. A store that already holds several tasks for one slot migrates without losing or
hiding any of them. 0006 gives old slots their claim day and leaves their cost to be priced
when read.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from app.domain.days import local_day
from app.store.engine import make_engine
from app.store.migrate import HEAD_REVISION, current_revision, downgrade, script_head, upgrade
from app.store.migrations import indexes
from app.store.models import KEY_COLUMNS, KEY_INDEX, SLOT_COLUMNS, SLOT_INDEX
from app.store.repository import Repository
from app.store.rows import ClaimRequest, ClaimWrite, Owner, Scope

NARROW = ("tenant", "idempotency_key")
STEPS = [
    None,
    "0001_initial",
    "0002_widen_boundary",
    "0003_browse_index",
    "0004_slot_boundary",
    "0005_owner_text_store_id",
    "0006_cost",
    "0007_tidy",
    "0008_picks",
    "0009_user_prices",
    "0010_text_search",
    "0011_error_reason",
    "0012_read_indexes",
]
SCOPE = Scope("studio-a", "u" * 64, "demo", "local")
pytestmark = pytest.mark.empty_store  # every migration here starts from an empty database


@pytest.fixture
def engine(store_url: str):
    eng = make_engine(store_url)
    try:
        yield eng
    finally:
        eng.dispose()


def _unique(engine: sa.Engine) -> dict[str, tuple[str, ...]]:
    with engine.connect() as conn:
        if not sa.inspect(conn).has_table("tasks"):
            return {}
        return indexes.unique_indexes(conn, "tasks")


def key_boundary(engine: sa.Engine) -> dict[str, tuple[str, ...]]:
    """Unique indexes of ``tasks`` that cover the idempotency key, read from the catalog."""
    return {n: c for n, c in _unique(engine).items() if set(NARROW) <= set(c)}


def slot_boundary(engine: sa.Engine) -> dict[str, tuple[str, ...]]:
    """Unique indexes of ``tasks`` that cover the slot (tenant and slot_key)."""
    return {n: c for n, c in _unique(engine).items() if {"tenant", "slot_key"} <= set(c)}


def at_least(rev: str | None, than: str) -> bool:
    return rev is not None and STEPS.index(rev) >= STEPS.index(than)


def row(i: int, **kw: Any) -> dict[str, Any]:
    now = time.time()
    base = dict(
        tenant="studio-a",
        user_hash="u" * 64,
        slot_key=f"{i:064d}",
        idempotency_key=f"k{i:063d}",
        provider="demo",
        endpoint="local",
        request_id=f"article:20260816:mig:scene-{i:02d}",
        kind="video",
        fingerprint="f" * 64,
        params={"prompt": f"p{i}"},
        state="success",
        units=1,
        created_at=now,
        updated_at=now,
        poll_failures=0,
        provider_task_id=f"t{i}",
    )
    base.update(kw)
    return base


def insert(engine: sa.Engine, *rows: dict[str, Any]) -> None:
    """Insert raw rows naming only their own columns (any revision's table takes them)."""
    with engine.begin() as conn:
        for r in rows:
            cols = [sa.column(k, sa.JSON) if k == "params" else sa.column(k) for k in r]
            conn.execute(sa.table("tasks", *cols).insert().values(**r))


def assert_duplicate_refused(engine: sa.Engine, i: int) -> None:
    """The boundary is not only in the catalog: the database enforces it — the idempotency key
    always, and from 0004 the slot itself (another kind, another key, same slot)."""
    with pytest.raises(IntegrityError):
        insert(engine, row(i, request_id="article:20260816:mig:dupe"))
    if at_least(current_revision(engine), "0004_slot_boundary"):
        with pytest.raises(IntegrityError):
            insert(engine, row(i, idempotency_key=f"other-kind-{i:052d}", kind="image"))


def assert_step(engine: sa.Engine, rev: str | None) -> None:
    assert current_revision(engine) == rev
    keys, slots = key_boundary(engine), slot_boundary(engine)
    if rev is None:
        assert keys == {} and slots == {}
    elif rev == "0001_initial":
        assert keys == {"uq_tasks_tenant_key": NARROW} and slots == {}
    elif not at_least(rev, "0004_slot_boundary"):
        assert keys == {KEY_INDEX: KEY_COLUMNS} and slots == {}
    else:
        assert keys == {KEY_INDEX: KEY_COLUMNS}
        assert slots == {SLOT_INDEX: SLOT_COLUMNS}


def claim(
    repo: Repository,
    slot_key: str,
    key: str,
    kind: str = "video",
    fp: str = "f" * 64,
    rid: str = "article:1:x:scene-01",
) -> Any:
    write = ClaimWrite(
        idempotency_key=key,
        request_id=rid,
        params={"prompt": "p"},
        units=1,
        owner=Owner("host", 1, 1.0),
        lease_until=time.time() + 60,
        quota_limit=None,
        day="2026-08-16",
    )
    return repo.claim(ClaimRequest(SCOPE, slot_key, kind, fp, time.time(), lambda: write))


def test_head_revision_constant_matches_the_scripts(engine):
    assert script_head(engine) == HEAD_REVISION == STEPS[-1]


def test_step_by_step_up_and_down_keeps_a_unique_boundary(engine):
    assert_step(engine, None)
    walk = STEPS[1:] + STEPS[1:-1][::-1] + STEPS[2:]
    for i, rev in enumerate(walk):
        if STEPS.index(rev) < STEPS.index(current_revision(engine)):
            downgrade(engine, rev)
        else:
            upgrade(engine, rev)
        assert_step(engine, rev)
        insert(engine, row(i))  # data written at this step survives the next ones
        assert_duplicate_refused(engine, i)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM tasks")).scalar() == len(walk)
    downgrade(engine, "base")
    assert_step(engine, None)
    upgrade(engine)
    assert_step(engine, HEAD_REVISION)


def test_empty_store_upgrades_to_head_and_repository_works(engine):
    repo = Repository(engine)
    assert_step(engine, HEAD_REVISION)
    assert claim(repo, "s" * 64, "k" * 64, kind="image").claimed
    assert len(repo.store_id() or "") == 32


@pytest.mark.parametrize("start", STEPS[1:-1] + [None])
def test_store_at_every_earlier_revision_with_data_upgrades_cleanly(engine, start):
    if start is not None:
        upgrade(engine, start)
        insert(engine, row(1), row(2, state="processing", provider_task_id="t2"))
    repo = Repository(engine)  # opening a store migrates it to head
    assert_step(engine, HEAD_REVISION)
    if start is not None:
        old = repo.get_slot(SCOPE, f"{1:064d}")
        assert old is not None and old.state == "success" and old.params == {"prompt": "p1"}
        if not at_least(start, "0003_browse_index"):
            assert old.prompt_text == "p1"  # 0003 copied the prompt out of the parameters
        assert old.slot_copy == 0 and old.owner_boot is None
        # 0006: the claim day from created_at (local time); no cost stored, priced when read
        if not at_least(start, "0006_cost"):
            assert old.cost_day == local_day(old.created_at)
        assert old.hidden_at is None  # 0007: nothing hidden, no media removed
        assert old.cost_currency is None and old.cost_estimate is None
        # The old record still arbitrates its slot: claiming it again answers the record —
        # and so does a claim of the other kind (the slot is the boundary now).
        for kind, key in (("video", f"k{1:063d}"), ("image", "image-key" + "0" * 55)):
            again = claim(repo, f"{1:064d}", key, kind=kind, rid=old.request_id)
            assert not again.claimed and again.task is not None and again.task.id == old.id
        assert_duplicate_refused(engine, 1)


def test_the_new_indexes_read_back_before_anything_is_dropped(engine, monkeypatch):
    upgrade(engine, "0001_initial")
    seen: list[tuple[str, dict[str, tuple[str, ...]]]] = []
    real_drop = indexes.op.drop_index

    def drop_index(name: str, *a: Any, **kw: Any) -> None:
        bind = indexes.op.get_bind()
        now = indexes.unique_indexes(bind, "tasks")
        seen.append((name, now))
        # At the moment of every drop the boundary it is replaced by already reads back.
        if name == "uq_tasks_tenant_key":
            assert now.get(KEY_INDEX) == KEY_COLUMNS and now.get(name) == NARROW
        elif name == "ix_tasks_slot":
            assert now.get(SLOT_INDEX) == SLOT_COLUMNS and now.get(KEY_INDEX) == KEY_COLUMNS
        real_drop(name, *a, **kw)

    from alembic import op as alembic_op

    monkeypatch.setattr(alembic_op, "drop_index", drop_index, raising=False)
    upgrade(engine)
    # 0012 remakes the browse index (not a boundary: nothing unique is dropped there)
    assert [name for name, _ in seen] == ["uq_tasks_tenant_key", "ix_tasks_slot", "ix_tasks_browse"]
    assert_step(engine, HEAD_REVISION)


@pytest.mark.parametrize("readback", ["missing", "wrong_columns", "not_unique"])
@pytest.mark.parametrize(
    "start, new, kept",
    [
        ("0001_initial", KEY_INDEX, "uq_tasks_tenant_key"),
        ("0003_browse_index", SLOT_INDEX, "ix_tasks_slot"),
    ],
)
def test_a_new_unique_index_that_does_not_read_back_drops_nothing(
    engine, monkeypatch, readback, start, new, kept
):
    upgrade(engine, start)
    insert(engine, row(1))
    real = indexes.unique_indexes

    def lying_catalog(bind: sa.Connection, table: str) -> dict[str, tuple[str, ...]]:
        found = dict(real(bind, table))
        if readback in ("missing", "not_unique"):
            found.pop(new, None)
        else:
            found[new] = ("tenant", "provider")
        return found

    dropped: list[str] = []
    from alembic import op as alembic_op

    real_drop = alembic_op.drop_index
    monkeypatch.setattr(indexes, "unique_indexes", lying_catalog)
    monkeypatch.setattr(
        alembic_op,
        "drop_index",
        lambda name, *a, **kw: (dropped.append(name), real_drop(name, *a, **kw)),
        raising=False,
    )
    with pytest.raises(indexes.IndexVerificationError, match=f"keeping {kept}"):
        upgrade(engine)
    monkeypatch.undo()
    assert kept not in dropped
    # The failed migration rolled back as a whole: still at the start, its boundary in place.
    assert_step(engine, start)
    with engine.connect() as conn:
        assert kept in {ix["name"] for ix in sa.inspect(conn).get_indexes("tasks")}
    assert_duplicate_refused(engine, 1)
    upgrade(engine)
    assert_step(engine, HEAD_REVISION)


@pytest.mark.parametrize("start", ["0001_initial", "0003_browse_index"])
def test_a_crash_between_create_and_drop_leaves_a_boundary(engine, monkeypatch, start):
    """The drop fails (a crash, a lock timeout): the migration rolls back; a boundary remains."""
    upgrade(engine, start)

    def boom(*a: Any, **kw: Any) -> None:
        raise RuntimeError("process died before the drop")

    from alembic import op as alembic_op

    monkeypatch.setattr(alembic_op, "drop_index", boom, raising=False)
    with pytest.raises(RuntimeError, match="died"):
        upgrade(engine)
    monkeypatch.undo()
    assert key_boundary(engine), "no unique boundary left after an interrupted migration"
    assert current_revision(engine) == start
    upgrade(engine)
    assert_step(engine, HEAD_REVISION)


def test_a_store_holding_duplicate_slots_migrates_keeps_and_reports_every_task(engine, caplog):
    """The race of issue 15 left an image and a video task for one slot (two paid creates).
    The migration must not fail, must keep both, report them on both tasks and in the log,
    and from then on the slot takes no third task."""
    upgrade(engine, "0003_browse_index")
    slot = f"{7:064d}"
    insert(
        engine,
        row(
            7,
            slot_key=slot,
            kind="image",
            idempotency_key="image:" + "a" * 64,
            provider_task_id="img-1",
            state="success",
        ),
        row(
            8,
            slot_key=slot,
            kind="video",
            idempotency_key="video:" + "b" * 64,
            provider_task_id="vid-2",
            state="processing",
        ),
        row(9),
    )  # an ordinary slot next to it
    with caplog.at_level(logging.WARNING, logger="app.store.migrations"):
        repo = Repository(engine)
    assert_step(engine, HEAD_REVISION)
    with engine.connect() as conn:
        kept = conn.execute(
            sa.text(
                "SELECT kind, provider_task_id, slot_copy FROM tasks WHERE slot_key = :s ORDER BY id"
            ),
            {"s": slot},
        ).all()
        assert [tuple(r) for r in kept] == [("image", "img-1", 0), ("video", "vid-2", 1)]
        assert (
            conn.execute(
                sa.text("SELECT max(slot_copy) FROM tasks WHERE slot_key != :s"), {"s": slot}
            ).scalar()
            == 0
        )
    events = [e for e in repo.history(SCOPE, slot) if e.event == "duplicate_slot"]
    assert len(events) == 2 and {e.task_id for e in events} == {
        t.id for t in [repo.get_slot(SCOPE, slot), *repo.slot_copies(SCOPE, slot)] if t
    }
    assert all("img-1" in (e.detail or "") and "vid-2" in (e.detail or "") for e in events)
    assert [t["provider_task_id"] for t in events[0].data["tasks"]] == ["img-1", "vid-2"]
    logged = [r.getMessage() for r in caplog.records if "holds 2 tasks" in r.getMessage()]
    assert len(logged) == 1 and "img-1" in logged[0] and "vid-2" in logged[0], caplog.text
    # The first task answers for the slot; the other is shown beside it, never hidden.
    assert repo.get_slot(SCOPE, slot).provider_task_id == "img-1"
    assert [t.provider_task_id for t in repo.slot_copies(SCOPE, slot)] == ["vid-2"]
    assert repo.duplicate_slots() == 1
    # The index holds for every new row: no third task for the slot, of either kind.
    for kind in ("image", "video"):
        got = claim(repo, slot, f"{kind}:new-{uuid.uuid4().hex}", kind=kind)
        assert not got.claimed and got.task is not None and got.task.provider_task_id == "img-1"
    with pytest.raises(IntegrityError):
        insert(engine, row(10, slot_key=slot, idempotency_key="video:" + "c" * 64))
    # Down and up again: still both, still reported (once more), still bounded.
    downgrade(engine, "0003_browse_index")
    upgrade(engine)
    with engine.connect() as conn:
        assert (
            conn.execute(
                sa.text("SELECT count(*) FROM tasks WHERE slot_key = :s"), {"s": slot}
            ).scalar()
            == 2
        )


def test_fast_path_skips_alembic_at_head(engine, monkeypatch):
    upgrade(engine)
    from alembic import command

    monkeypatch.setattr(command, "upgrade", lambda *a, **kw: pytest.fail("alembic ran at head"))
    upgrade(engine)


def test_a_claim_blocked_behind_a_racing_insert_reads_the_winner(engine):
    """A claim whose insert meets a racer's uncommitted insert of the same slot waits for it and
    then answers the racer's record — never an error, never a second task. (SQLite's writers
    are serialized before they read, so the wait is PostgreSQL's; there the claim also runs
    again when a racer is refused by the idempotency key's index instead of the slot's.)"""
    import threading

    repo = Repository(engine)
    slot, key = "r" * 64, "video:" + "r" * 58
    winner = engine.connect()
    tx = winner.begin()
    if engine.dialect.name == "sqlite":
        tx.rollback()
        winner.close()
        winner = None
    else:
        insert_row = row(50, slot_key=slot, idempotency_key=key, state="submitting")
        cols = [sa.column(k, sa.JSON) if k == "params" else sa.column(k) for k in insert_row]
        winner.execute(sa.table("tasks", *cols).insert().values(**insert_row))
    got: list[Any] = []
    racer = threading.Thread(target=lambda: got.append(claim(repo, slot, key)))
    racer.start()
    if winner is not None:
        # the server says a session waits on the winner's lock (a live view, read afresh)
        blocked = sa.text(
            "SELECT count(*) FROM pg_locks WHERE NOT granted AND :w = ANY(pg_blocking_pids(pid))"
        )
        pid = winner.execute(sa.text("SELECT pg_backend_pid()")).scalar()
        deadline = time.monotonic() + 60  # bounds a hang only
        while True:
            with engine.connect() as look:
                if look.execute(blocked, {"w": pid}).scalar():
                    break
            assert racer.is_alive() and time.monotonic() < deadline, "the claim did not wait"
            time.sleep(0.02)
        assert racer.is_alive()  # waiting on the winner's uncommitted row
        tx.commit()
        winner.close()
    racer.join(60)  # bounds a hang only: it ends as soon as the winner commits
    assert got, "the claim raised or hung"
    if engine.dialect.name == "sqlite":
        assert got[0].claimed
    else:
        assert not got[0].claimed and got[0].task.provider_task_id == "t50"


def _text_filtered(engine: sa.Engine, search: str) -> list[str]:
    from app.store import queries
    from app.store.rows import SlotFilter

    flt = SlotFilter(search=search)
    project = queries.projects(engine, SCOPE, flt)
    return [] if not project else [str(g.key) for g in project]


@pytest.mark.parametrize("start", ["0003_browse_index", "0009_user_prices"])
def test_0010_fills_the_text_index_with_every_existing_row(engine, start):
    """A store with slots migrates up: the text index holds each of them (SQLite: the FTS5
    table, id for id; PostgreSQL: the two pg_trgm indexes) and the filter finds them."""
    upgrade(engine, start)
    prompts = {1: "a red fox by the frozen river", 2: "一只猫在草地上", 3: "100% cotton_candy"}
    insert(engine, *(row(i, params={"prompt": p}) for i, p in prompts.items()))
    with engine.begin() as conn:  # what the claim writes beside params (0003 on)
        for i, p in prompts.items():
            conn.execute(
                sa.text("UPDATE tasks SET prompt_text = :p WHERE slot_key = :k"),
                {"p": p, "k": f"{i:064d}"},
            )
    upgrade(engine)
    assert_step(engine, HEAD_REVISION)
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            ids = conn.execute(sa.text("SELECT id FROM tasks ORDER BY id")).scalars().all()
            indexed = conn.execute(sa.text("SELECT id FROM tasks_text_docsize ORDER BY id"))
            assert indexed.scalars().all() == ids and len(ids) == 3
            hit = conn.execute(
                sa.text("SELECT rowid FROM tasks_text WHERE tasks_text MATCH :q"),
                {"q": '"zen riv"'},
            ).scalars()
            assert len(list(hit)) == 1
        else:
            names = set(
                conn.execute(
                    sa.text("SELECT indexname FROM pg_indexes WHERE tablename = 'tasks'")
                ).scalars()
            )
            assert {"ix_tasks_request_id_trgm", "ix_tasks_prompt_trgm"} <= names
    for search in ("zen riv", "猫在草", "0% c", "scene-02", "猫"):
        assert _text_filtered(engine, search) == [""], search  # one project: no name
    assert _text_filtered(engine, "xyz") == []
    downgrade(engine, "0009_user_prices")  # and back: the index is gone, the filter scans
    assert _text_filtered(engine, "zen riv") == [""]
    upgrade(engine)


@pytest.fixture
def sqlite_engine(tmp_path):
    """A SQLite store of its own: what this test checks is SQLite's FTS5 alone."""
    eng = make_engine(f"sqlite:///{(tmp_path / 'fts.sqlite3').as_posix()}")
    try:
        yield eng
    finally:
        eng.dispose()


def test_a_sqlite_without_the_trigram_tokenizer_keeps_the_scan(sqlite_engine, monkeypatch, caplog):
    from app.store import text_search

    engine = sqlite_engine

    upgrade(engine, "0009_user_prices")
    insert(engine, row(1, params={"prompt": "a red fox"}, prompt_text="a red fox"))
    monkeypatch.setattr(text_search.sqlite3, "sqlite_version_info", (3, 31, 1))
    with caplog.at_level(logging.WARNING):
        upgrade(engine)
    assert "the text filter stays a scan" in caplog.text and "3.34" in caplog.text
    assert current_revision(engine) == HEAD_REVISION
    with engine.connect() as conn:
        assert not sa.inspect(conn).has_table("tasks_text")
    assert text_search.has_index(engine) is False
    assert _text_filtered(engine, "red fox") == [""]


def test_0011_gives_earlier_rows_the_reason_their_code_names(engine):
    """A store with failed, refused and unknown slots migrates up: each row whose stored code
    names its reason gets it (read back before the migration commits), a row whose code cannot
    be mapped (``unknown``: a lost answer, a broken connection and a closed app were all stored
    so; a code of no known class) keeps NULL, and its code and message stay as they were."""
    upgrade(engine, "0010_text_search")
    stored = {
        1: ("rejected", "1008", "insufficient balance"),
        2: ("rejected", "never_sent", "video create: the request never left (ConnectTimeout)"),
        3: ("unknown", "unknown", "video create: no answer in time after sending (ReadTimeout)"),
        4: ("fail", "1027", "output sensitive"),
        5: ("fail", "declared_failed", "declared failed by mei: gone"),
        6: ("unknown", "unknown_status", "the provider answered an unrecognized status"),
        7: ("fail", "blocked", "every image was blocked by the provider's safety filter"),
        8: ("fail", "4242", "a code of no known class"),
        9: ("success", None, None),
    }
    insert(
        engine,
        *(
            row(i, state=st, error_code=code, error_message=msg)
            for i, (st, code, msg) in stored.items()
        ),
    )
    upgrade(engine)
    assert_step(engine, HEAD_REVISION)
    with engine.connect() as conn:
        got = {
            int(r.slot_key): (r.error_code, r.error_message, r.error_reason)
            for r in conn.execute(
                sa.text("SELECT slot_key, error_code, error_message, error_reason FROM tasks")
            )
        }
    reasons = {i: got[i][2] for i in stored}
    assert reasons == {
        1: "balance",
        2: "never_sent",
        3: None,
        4: "sensitive_output",
        5: "declared_failed",
        6: "unrecognized_status",
        7: "sensitive_output",
        8: None,
        9: None,
    }
    assert {i: got[i][:2] for i in stored} == {i: v[1:] for i, v in stored.items()}
    downgrade(engine, "0010_text_search")
    with engine.connect() as conn:
        assert "error_reason" not in {c["name"] for c in sa.inspect(conn).get_columns("tasks")}
    upgrade(engine)
