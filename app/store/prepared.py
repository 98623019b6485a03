"""Statements compiled before the writers' turn, run inside it as driver SQL (SQLite).

Run through ``Connection.execute``, each statement of a transition builds its cache key, looks up
its compiled form and processes its parameters at the moment it runs — inside the writers' turn
(:class:`~app.store.engine.WriteQueue`), while every other writer of the file waits: ~1.3 ms of
CPU for a task's answer (update, event, the row and its media read back), against ~0.5 ms for
the same statements' own work. With 16 processes on two cores a holder is often descheduled in
that time, and the turn's length is everyone's wait.

:func:`prepare` compiles a statement before the turn: the SQL SQLAlchemy would send for this
dialect, and its parameters as SQLAlchemy would bind them (the columns' bind processors applied,
an ``IN`` list expanded). :meth:`Prepared.run` sends it with ``exec_driver_sql``: its errors are
SQLAlchemy's (``DBAPIError``, which the store's retry and busy handling read) and the engine's
events see it. :class:`RowReader` gives the rows back as ``Connection.execute`` would (the
columns' result processors applied: JSON parsed, numbers as their type).

A statement of one fixed shape (a task by its id, its media, one event; the lean claim's
statements in :mod:`app.store.sqlite_claim`) is compiled once (:func:`compile_once`) and only
bound for each use (:meth:`Compiled.args`).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable, Iterable, Mapping, Sequence

from sqlalchemy import Connection, CursorResult, Table
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.expression import ClauseElement


@dataclass
class Compiled:
    sql: str
    order: Sequence[str]
    procs: Mapping[str, Callable[[Any], Any]]
    fixed: Mapping[str, Any]  # values the statement carries itself (LIMIT 1)

    def __post_init__(self) -> None:
        #: the needed names' values in statement order, one C call (a one-name statement gets
        #: a tuple too)
        self._get: Callable[[Mapping[str, Any]], tuple[Any, ...]] = (
            itemgetter(*self.order) if len(self.order) > 1 else _one(self.order)
        )
        #: where a column type's bind processor applies (JSON, dates), by position
        self._procs = [(i, self.procs[n]) for i, n in enumerate(self.order) if n in self.procs]
        #: the names a caller must give (the statement carries no value of its own for them)
        self._needed = frozenset(name for name in self.order if name not in self.fixed)

    def args(self, values: Mapping[str, Any], *, none_too: bool = False) -> tuple[Any, ...]:
        """The statement's parameters from ``values`` by name, in order, through the columns'
        bind processors — for a value that is None too with ``none_too``, as SQLAlchemy's own
        execution does (a JSON column then stores the JSON ``null``, not SQL NULL)."""
        if not self._needed <= values.keys():  # a new column must be in ClaimRequest.task_values
            missing = sorted(self._needed - values.keys())
            raise KeyError(f"the statement binds no value for {', '.join(missing)}")
        got = self._get({**self.fixed, **values} if self.fixed else values)
        if not self._procs:
            return got
        out = list(got)
        for i, proc in self._procs:
            if none_too or out[i] is not None:
                out[i] = proc(out[i])
        return tuple(out)


def _one(order: Sequence[str]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    names = tuple(order)
    return lambda values: tuple(values[n] for n in names)


def compile_once(stmt: Any, dialect: Any, column_keys: Sequence[str] | None = None) -> Compiled:
    """A statement of one shape compiled once for ``dialect`` (positional), its parameters then
    bound by name for each use (:meth:`Compiled.args`)."""
    compiled = stmt.compile(dialect=dialect, column_keys=list(column_keys) if column_keys else None)
    order = tuple(compiled.positiontup or ())
    procs = {}
    for name in order:
        proc = compiled.binds[name].type.bind_processor(dialect)
        if proc is not None:
            procs[name] = proc
    # A required bind's "value" is SQLAlchemy's REQUIRED marker, not a value: never bind it (a
    # column missing from the values then fails loudly in ``args`` instead of storing garbage).
    fixed = {
        k: v for k, v in compiled.params.items() if v is not None and not compiled.binds[k].required
    }
    return Compiled(str(compiled), order, procs, fixed)


@dataclass(frozen=True)
class Prepared:
    sql: str
    args: tuple[Any, ...]

    def run(self, conn: Connection) -> CursorResult[Any]:
        return conn.exec_driver_sql(self.sql, self.args)


def prepare(stmt: ClauseElement, dialect: Dialect) -> Prepared:
    """``stmt`` compiled for ``dialect`` (a positional paramstyle: SQLite's), with its
    parameters in order, processed as SQLAlchemy's execution would."""
    compiled = stmt.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
    names = compiled.positiontup
    if names is None:
        raise ValueError(f"{dialect.name}: prepare() needs a positional paramstyle")
    params = compiled.construct_params()
    procs = compiled._bind_processors
    args = []
    for name in names:
        proc = procs.get(name)
        if proc is None and name not in compiled.binds:
            # an element of an expanded IN list (``state_1_2``): its list's processor
            proc = procs.get(name.rpartition("_")[0])
        value = params[name]
        args.append(proc(value) if proc is not None else value)
    return Prepared(str(compiled), tuple(args))


class RowReader:
    """A table's rows as ``Connection.execute`` gives them: its columns' result processors
    (for one dialect) applied to a driver-SQL row, by column name."""

    def __init__(self, table: Table, dialect: Dialect) -> None:
        self._procs = [
            (c.key, proc)
            for c in table.c
            if (proc := c.type.result_processor(dialect, None)) is not None
        ]

    def row(self, raw: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(raw)
        for key, proc in self._procs:
            if key in out:
                out[key] = proc(out[key])
        return out
