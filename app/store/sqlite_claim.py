"""The claim on SQLite, lean: the hot path of every submit, through the DBAPI cursor.

On a local SQLite file the claim's one fsync costs about 0.3 ms, and SQLAlchemy's per-statement
execution machinery cost twice that again (profile in docs/BENCHMARKS.md). This path runs the
very statements :class:`~app.store.repository.Repository` builds with SQLAlchemy Core —
compiled once for the SQLite dialect, with the column types' own bind and result processors —
straight on the pooled DBAPI connection.

It handles the two common outcomes: an existing record answered as is (read without any lock),
and a fresh claim (``BEGIN IMMEDIATE``, insert, quota, the two events, ``COMMIT``). Everything
else — re-claiming a ``rejected`` record, a lost insert race — returns ``None`` and the caller
runs the general claim transaction. Same rules, same rows, same single transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from sqlalchemy import Table

if TYPE_CHECKING:
    from app.store.repository import ClaimResult, Repository, Scope


@dataclass
class _Compiled:
    sql: str
    order: Sequence[str]
    procs: Mapping[str, Callable[[Any], Any]]
    fixed: Mapping[str, Any]  # values the statement carries itself (LIMIT 1)

    def __post_init__(self) -> None:
        self._plan = [(name, self.procs.get(name), self.fixed.get(name)) for name in self.order]

    def args(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        get = values.get
        return tuple(
            (proc(v) if proc is not None and v is not None else v)
            for name, proc, fixed in self._plan
            for v in (get(name, fixed),)
        )


def _compile(stmt: Any, dialect: Any, column_keys: Sequence[str] | None = None) -> _Compiled:
    compiled = stmt.compile(dialect=dialect, column_keys=list(column_keys) if column_keys else None)
    order = tuple(compiled.positiontup or ())
    procs = {}
    for name in order:
        proc = compiled.binds[name].type.bind_processor(dialect)
        if proc is not None:
            procs[name] = proc
    fixed = {k: v for k, v in compiled.params.items() if v is not None}
    return _Compiled(str(compiled), order, procs, fixed)


class SqliteClaim:
    def __init__(self, repo: "Repository", table: Table, event_table: Table) -> None:
        dialect = repo.engine.dialect
        self.repo = repo
        self.find = _compile(repo._find_stmt, dialect)
        self.insert = _compile(repo._claim_stmt, dialect, [c.key for c in table.c if c.key != "id"])
        self.quota = {
            limited: _compile(repo._quota_stmt(limited), dialect,
                              ["tenant", "user_hash", "kind", "day", "used"])
            for limited in (False, True)
        }
        self.event = _compile(event_table.insert(), dialect,
                              [c.key for c in event_table.c if c.key != "id"])
        self.row_procs = {
            c.key: proc for c in table.c
            if (proc := c.type.result_processor(dialect, None)) is not None
        }

    def _row(self, cur: Any, row: tuple[Any, ...] | None) -> dict[str, Any] | None:
        if row is None:
            return None
        names = [d[0] for d in cur.description]
        out = dict(zip(names, row))
        for key, proc in self.row_procs.items():
            if key in out and out[key] is not None:
                out[key] = proc(out[key])
        return out

    def find_slot(self, scope: "Scope", slot_key: str) -> dict[str, Any] | None:
        """The slot's task row (no media), read outside any transaction: under WAL a single
        SELECT sees one consistent snapshot and never waits for a writer."""
        slot = {"tenant": scope.tenant, "slot_key": slot_key, "provider": scope.provider,
                "endpoint": scope.endpoint}
        with self.repo.engine.connect() as sa_conn:
            raw = sa_conn.connection.dbapi_connection
            assert raw is not None
            cur = raw.cursor()
            try:
                return self._row(cur, cur.execute(self.find.sql, self.find.args(slot)).fetchone())
            finally:
                cur.close()

    def claim(self, scope: "Scope", values: dict[str, Any], *, quota_limit: int | None,
              events: list[dict[str, Any]], read_first: bool = True) -> "ClaimResult | None":
        from app.store.repository import ClaimResult, _task

        slot = {"tenant": scope.tenant, "slot_key": values["slot_key"],
                "provider": scope.provider, "endpoint": scope.endpoint}
        with self.repo.writer.connect() as sa_conn:
            raw = sa_conn.connection.dbapi_connection
            assert raw is not None
            cur = raw.cursor()
            try:
                found = None
                if read_first:
                    found = self._row(cur, cur.execute(self.find.sql, self.find.args(slot)).fetchone())
                if found is not None:
                    task = _task(found)
                    if self.repo._answered_as_is(task, scope, values["kind"], values["fingerprint"]):
                        return ClaimResult(task)
                    return None  # a rejected record to re-claim: the general path
                if quota_limit is not None and values["units"] > quota_limit:
                    return None  # the general path reports the refusal with today's use
                with self.repo.write_turn():
                    return self._claim_tx(cur, raw, scope, slot, values, quota_limit, events)
            finally:
                cur.close()

    def _claim_tx(self, cur: Any, raw: Any, scope: "Scope", slot: dict[str, Any],
                  values: dict[str, Any], quota_limit: int | None,
                  events: list[dict[str, Any]]) -> "ClaimResult | None":
        """The fresh claim in one ``BEGIN IMMEDIATE`` transaction; None: the general path."""
        from app.store.repository import ClaimResult, _task

        cur.execute("BEGIN IMMEDIATE")
        try:
            if cur.execute(self.find.sql, self.find.args(slot)).fetchone() is not None:
                cur.execute("ROLLBACK")
                return None  # someone claimed it since the read: the general path
            row = self._row(cur, cur.execute(self.insert.sql, self.insert.args(values)).fetchone())
            if row is None:
                cur.execute("ROLLBACK")
                return None  # lost the insert race: the general path reads the winner
            q = self.quota[quota_limit is not None]
            used = cur.execute(q.sql, q.args({
                "tenant": scope.tenant, "user_hash": scope.user_hash, "kind": values["kind"],
                "day": values["day"], "used": values["units"], "limit": quota_limit,
            })).fetchone()
            if used is None:
                cur.execute("ROLLBACK")
                return None  # quota exceeded: the general path refuses and counts
            cur.executemany(self.event.sql, [
                self.event.args({**e, "task_id": row["id"]}) for e in events
            ])
            cur.execute("COMMIT")
        except BaseException:
            if raw.in_transaction:
                cur.execute("ROLLBACK")
            raise
        return ClaimResult(_task(row), claimed=True, quota_used=int(used[0]))
