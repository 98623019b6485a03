"""The claim on SQLite, lean: the hot path of every submit, through the DBAPI cursor.

On a local SQLite file the claim's one fsync costs about 0.3 ms, and SQLAlchemy's per-statement
execution machinery cost twice that again (profile in docs/BENCHMARKS.md). This path runs the
statements of :mod:`app.store.statements` — compiled once for the SQLite dialect, with the
column types' own bind and result processors — straight on a DBAPI connection: one of the
engine's, kept out of its pool by this path (the pool's checkout and return cost as much as
the statements; a read that finds it busy takes a pooled one).

It handles the two common cases: reading a slot without any lock (the claim's read-first), and
a fresh claim (``BEGIN IMMEDIATE``, insert, quota, the two events in one statement, ``COMMIT``). Everything else —
re-claiming a ``rejected`` record, a lost insert race, a quota refusal, a claim under a daily
budget — returns ``None`` and the caller runs the general claim transaction. Same rules, same
rows, same single transaction.
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager, nullcontext
from functools import cached_property
from typing import Any, ContextManager, Iterator

from sqlalchemy import Engine

from app.store.engine import WriteQueue
from app.store.models import events, tasks
from app.store.prepared import Compiled, RowReader, compile_once
from app.store.rows import (
    ClaimOutcome,
    ClaimRequest,
    ClaimResult,
    Scope,
    TaskRow,
    task_of,
    task_row,
)
from app.store.statements import Statements

#: This process's id, kept current in a forked child: ``os.getpid()`` is a system call, and
#: every use of the kept connection (each replay's read) asks whether the process forked.
_pid = os.getpid()


def _forked() -> None:
    global _pid
    _pid = os.getpid()


os.register_at_fork(after_in_child=_forked)


class SqliteClaim:
    def __init__(
        self, engine: Engine, statements: Statements, write_queue: WriteQueue | None
    ) -> None:
        dialect = engine.dialect
        self.engine = engine
        self._dialect = dialect
        self._statements = statements
        self._write_queue = write_queue
        self._events_cache: dict[int, str] = {}
        #: One of the engine's connections kept out of its pool for this path (a file store
        #: only: an in-memory one is a single connection), used under ``_using``: the pool's
        #: checkout and return cost as much as a claim's statements, and one connection that
        #: reads the slot and then writes it keeps its page cache (another connection's cache
        #: is stale after each commit). A read that finds it taken uses a pooled connection
        #: instead of waiting; a claim waits for it (a read holds it for one SELECT).
        self._own = write_queue is not None
        self._pid = _pid
        self._using = threading.Lock()
        self._kept: Any = None  # the detached pool fairy
        self._rows = RowReader(tasks, dialect)
        #: a statement's result columns, by its SQL
        self._names: dict[str, tuple[str, ...]] = {}

    # The statements, compiled on first use: a store is opened by every command, and only a
    # submit claims (compiling the five costs ~30 ms of a `slate list`).
    @cached_property
    def find(self) -> Compiled:
        stmt = self._statements.find_slot
        # its row is read as a whole task (``find_slot``: no copy, no check of its keys)
        assert [c.key for c in stmt.selected_columns] == list(tasks.c.keys()), "all of tasks"
        return compile_once(stmt, self._dialect)

    @cached_property
    def insert(self) -> Compiled:
        keys = [c.key for c in tasks.c if c.key != "id"]
        return compile_once(self._statements.claim_insert, self._dialect, keys)

    @cached_property
    def quota(self) -> dict[bool, Compiled]:
        keys = ["tenant", "user_hash", "kind", "day", "used"]
        return {
            limited: compile_once(stmt, self._dialect, keys)
            for limited, stmt in self._statements.quota_upsert.items()
        }

    @cached_property
    def event(self) -> Compiled:
        keys = [c.key for c in events.c if c.key != "id"]
        return compile_once(self._statements.event_insert, self._dialect, keys)

    @cached_property
    def _task_id_at(self) -> int:
        """Where an event's ``task_id`` is among its binds: the claim's events are bound before
        its write turn, and the new task's id is put in place once the insert returns it."""
        assert "task_id" not in self.event.procs, "task_id is bound as given"
        return list(self.event.order).index("task_id")

    def _events_sql(self, n: int) -> str:
        """``INSERT INTO slot_events (...) VALUES (...), (...)`` for ``n`` rows (cached)."""
        sql = self._events_cache.get(n)
        if sql is None:
            head, sep, values = self.event.sql.partition(" VALUES ")
            assert sep, self.event.sql
            sql = self._events_cache[n] = head + sep + ", ".join([values.strip()] * n)
        return sql

    def _turn(self) -> ContextManager[Any]:
        return self._write_queue if self._write_queue is not None else nullcontext()

    def _row(self, cur: Any, sql: str, row: tuple[Any, ...] | None) -> dict[str, Any] | None:
        """A result row of ``sql`` by column name, through the columns' result processors."""
        if row is None:
            return None
        names = self._names.get(sql)
        if names is None:  # a statement's columns are fixed: read them once
            names = self._names[sql] = tuple(d[0] for d in cur.description)
        return self._rows.row(zip(names, row))

    @staticmethod
    def _slot(scope: Scope, slot_key: str) -> dict[str, Any]:
        return {
            "tenant": scope.tenant,
            "slot_key": slot_key,
            "provider": scope.provider,
            "endpoint": scope.endpoint,
        }

    def _kept_connection(self) -> Any:
        """This path's own DBAPI connection (made on first use), or None: a store in memory,
        a closed one, or a process forked from the one that made it."""
        if not self._own or self._pid != _pid:
            return None
        if self._kept is None:
            fairy = self.engine.raw_connection()
            fairy.detach()  # ours now: closed by close(), never returned to the pool
            self._kept = fairy
        return self._kept.dbapi_connection

    def close(self) -> None:
        """Close this path's own connection (the store closes)."""
        self._own = False
        with self._using:  # not in use once held
            kept, self._kept = self._kept, None
        if kept is not None:
            kept.close()

    @contextmanager
    def _connection(self, wait: bool) -> Iterator[Any]:
        """A DBAPI connection: this path's own when it is free (or, ``wait``, once it is),
        held while it is used; else one from the pool, given back after."""
        if self._using.acquire(blocking=wait):
            try:
                conn = self._kept_connection()
                if conn is not None:
                    yield conn
                    return
            finally:
                self._using.release()
        raw = self.engine.raw_connection()  # the pooled DBAPI connection, no wrapper
        try:
            yield raw.dbapi_connection
        finally:
            raw.close()  # back to the pool

    def find_slot(self, scope: Scope, slot_key: str) -> TaskRow | None:
        """The slot's task row (no media), read outside any transaction: under WAL a single
        SELECT sees one consistent snapshot and never waits for a writer."""
        args = self.find.args(self._slot(scope, slot_key))
        # This path's own connection when it is free, as ``_connection(wait=False)`` takes it,
        # written out: a replay's one read, where the generator context manager cost 1.5 µs.
        if self._using.acquire(blocking=False):
            try:
                conn = self._kept_connection()
                if conn is not None:
                    return self._find(conn, args)
            finally:
                self._using.release()
        with self._connection(wait=False) as conn:  # taken, or none kept: a pooled one
            return self._find(conn, args)

    def _find(self, conn: Any, args: tuple[Any, ...]) -> TaskRow | None:
        cur = conn.cursor()
        try:
            sql = self.find.sql
            found = self._row(cur, sql, cur.execute(sql, args).fetchone())
        finally:
            cur.close()  # the statement ends: no read snapshot is held
        # ``found`` is _row's own dict of every column of tasks (``find``): the task takes it over
        return task_of(found) if found is not None else None

    def claim(self, req: ClaimRequest) -> ClaimResult | None:
        """A fresh claim in one ``BEGIN IMMEDIATE`` transaction; None: the general path.
        Everything the statements bind is prepared before the write turn is taken: the turn
        holds only the statements and the COMMIT."""
        w, scope = req.write, req.scope
        if w.quota_limit is not None and w.units > w.quota_limit:
            return None  # the general path reports the refusal with today's use
        if w.budget is not None:
            return None  # a daily budget is checked by the general path (store/spend.py)
        insert_args = self.insert.args(req.task_values())
        quota = self.quota[w.quota_limit is not None]
        quota_args = quota.args(
            {
                "tenant": scope.tenant,
                "user_hash": scope.user_hash,
                "kind": req.kind,
                "day": w.day,
                "used": w.units,
                "limit": w.quota_limit,
            }
        )
        events = req.claim_events()
        event, insert = self.event, self.insert
        event_args = [v for e in events for v in event.args({**e, "task_id": None})]
        per_event, at = len(event.order), self._task_id_at
        events_sql = self._events_sql(len(events))
        with self._turn():
            with self._connection(wait=True) as conn:
                cur = conn.cursor()
                try:
                    cur.execute("BEGIN IMMEDIATE")
                    try:
                        # No re-read under the lock: the slot index (slot_copy 0 is the row every
                        # held slot has) makes the insert itself the test — DO NOTHING returns no
                        # row when the slot is held, and the general path answers or re-claims.
                        row = self._row(
                            cur, insert.sql, cur.execute(insert.sql, insert_args).fetchone()
                        )
                        if row is None:
                            cur.execute("ROLLBACK")
                            return None  # the slot is held: the general path reads the winner
                        used = cur.execute(quota.sql, quota_args).fetchone()
                        if used is None:
                            cur.execute("ROLLBACK")
                            return None  # quota exceeded: the general path refuses and counts
                        for i in range(at, len(event_args), per_event):
                            event_args[i] = row["id"]
                        cur.execute(events_sql, event_args)  # the events: one multi-row INSERT
                        cur.execute("COMMIT")
                    except BaseException:
                        if conn.in_transaction:
                            cur.execute("ROLLBACK")
                        raise
                finally:
                    cur.close()
        return ClaimResult(ClaimOutcome.CLAIMED, task_row(row), quota_used=int(used[0]))
