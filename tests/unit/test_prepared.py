"""A transition on SQLite compiles its statements before the writers' turn and only runs them in
it (app/store/prepared.py): the turn is every other writer's wait. What it sends must be what
SQLAlchemy's own execution sends — the same SQL, the same parameters (bind processors, IN lists
expanded, a JSON None as SQLAlchemy binds it) — and the rows it reads back the same values."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import create_engine, event, exists, select, update
from sqlalchemy.sql import compiler

from app.domain.fingerprint import fingerprint
from app.domain.params import normalize
from app.domain.states import State
from app.service.submit import claim_request
from app.store.models import events, media_t, metadata, tasks
from app.store.prepared import RowReader, compile_once, prepare
from app.store.rows import ClaimOutcome

RID = "article:20261207:prepared:still-01"


def _sent(engine: Any, run: Any) -> list[tuple[str, tuple[Any, ...]]]:
    """What reached the DBAPI cursor while ``run(conn)`` ran (in a rolled-back transaction)."""
    seen: list[tuple[str, tuple[Any, ...]]] = []

    def hook(_c: Any, _cur: Any, statement: str, parameters: Any, *_a: Any) -> None:
        seen.append((statement, tuple(parameters)))

    event.listen(engine, "before_cursor_execute", hook)
    try:
        with engine.connect() as conn:
            run(conn)
            conn.rollback()
    finally:
        event.remove(engine, "before_cursor_execute", hook)
    return seen


def test_a_prepared_statement_sends_what_sqlalchemy_sends() -> None:
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    other = tasks.alias("other")
    statements = [
        update(tasks)
        .where(
            tasks.c.id == 7,
            tasks.c.state.in_(["submitting", "queueing", "processing"]),  # an IN list
            tasks.c.updated_at.in_([1.5, 2.5]),  # an IN list whose type processes its binds
            ~exists().where(other.c.provider_task_id == "t-1", other.c.id != 7),
            tasks.c.results.is_(None),
        )
        .values(updated_at=3.25, state="queueing", results=[{"url": "u"}], params=None),
        events.insert().values(
            tenant="a",
            slot_key="k",
            provider="demo",
            endpoint="local",
            task_id=None,
            at=1.0,
            event="created",
            state=None,
            detail="d",
            data=None,
        ),
        select(media_t).where(media_t.c.task_id == 7).order_by(media_t.c.position),
    ]
    for stmt in statements:
        by_sqlalchemy = _sent(engine, lambda conn, s=stmt: conn.execute(s))
        ready = prepare(stmt, engine.dialect)
        by_prepared = _sent(engine, ready.run)
        assert by_prepared == by_sqlalchemy, stmt
    # one event's template, bound per event, as SQLAlchemy binds the same values
    values = {
        "tenant": "a",
        "slot_key": "k",
        "provider": "demo",
        "endpoint": "local",
        "task_id": 3,
        "at": 2.0,
        "event": "created",
        "state": "queueing",
        "detail": None,
        "data": None,
    }
    template = compile_once(events.insert(), engine.dialect, [k for k in values])
    by_sqlalchemy = _sent(engine, lambda conn: conn.execute(events.insert().values(**values)))
    assert [(template.sql, template.args(values, none_too=True))] == by_sqlalchemy


def test_rows_read_back_are_what_execute_gives() -> None:
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.begin() as conn:
        conn.execute(
            tasks.insert().values(
                tenant="a",
                user_hash="u",
                slot_key="k",
                idempotency_key="i",
                provider="demo",
                endpoint="local",
                request_id=RID,
                kind="image",
                fingerprint="f",
                params={"prompt": "p", "n": 2},
                state="success",
                results=[{"url": "u"}],
                created_at=1.0,
                updated_at=2.0,
                cost_estimate="0.035",
                units=2,
            )
        )
        stmt = select(tasks).where(tasks.c.slot_key == "k")
        expected = dict(conn.execute(stmt).mappings().one())
        raw = prepare(stmt, engine.dialect).run(conn).mappings().one()
        assert RowReader(tasks, engine.dialect).row(raw) == expected
        assert expected["params"] == {"prompt": "p", "n": 2}  # JSON parsed, not text


async def test_a_transition_compiles_nothing_inside_the_writers_turn(service, monkeypatch):
    store = service.ctx.store
    norm = normalize("video", {"prompt": "a kite"})
    req = claim_request(
        service.ctx, service.ctx.slot(RID), "video", norm, fingerprint("video", norm), time.time()
    )
    claim = await store.claim(req)
    assert claim.outcome is ClaimOutcome.CLAIMED and claim.task is not None
    queue = store.repo.write_queue
    assert queue is not None  # a SQLite file: writers take turns
    held = [False]
    enter, leave = type(queue).__enter__, type(queue).__exit__

    def entered(self: Any) -> Any:
        out = enter(self)
        held[0] = True
        return out

    def left(self: Any, *exc: Any) -> Any:
        held[0] = False
        return leave(self, *exc)

    compiled_in_turn: list[str] = []
    real_init = compiler.SQLCompiler.__init__

    def compiling(self: Any, *a: Any, **kw: Any) -> None:
        if held[0]:
            compiled_in_turn.append(type(a[1]).__name__ if len(a) > 1 else "?")
        real_init(self, *a, **kw)

    monkeypatch.setattr(type(queue), "__enter__", entered)
    monkeypatch.setattr(type(queue), "__exit__", left)
    monkeypatch.setattr(compiler.SQLCompiler, "__init__", compiling)
    moved = await store.transition(
        claim.task,
        expect=[State.SUBMITTING],
        event="created",
        detail="provider task t-9",
        data={"task_id": "t-9"},
        unique_provider_task=True,
        state="queueing",
        provider_task_id="t-9",
        owner_pid=None,
        lease_until=None,
        next_poll_at=time.time() + 5,
    )
    assert moved is not None and moved.state is State.QUEUEING
    assert moved.provider_task_id == "t-9" and moved.params == norm and moved.media == []
    assert compiled_in_turn == []
    history = await store.history(service.ctx.scope, claim.task.slot_key)
    assert [e.event for e in history][-1] == "created" and history[-1].data == {"task_id": "t-9"}
