"""The text filter on an index: RequestId and prompt, any substring, as fast as a lookup.

On SQLite, migration ``0010_text_search`` builds ``tasks_text``: an FTS5 table with the
``trigram`` tokenizer over ``tasks.request_id`` and ``tasks.prompt_text`` (external content,
rowid = ``tasks.id``), kept in step by triggers on ``tasks``. A search of 3 or more characters
first narrows the tasks to the rowids the trigram index matches (``tasks_text MATCH`` a quoted
phrase: every trigram of the text, case folded), then keeps today's ``LIKE`` on those rows
only, so what matches is exactly what the scan matched (ASCII case folded, nothing else; ``%``
and ``_`` literal). The trigram index is a superset of that ``LIKE``: it folds every case.

A search of 1 or 2 characters has no trigram to look up: it keeps the ``LIKE`` scan (a short
search is rare and the scan stays correct). So does a store whose SQLite had no FTS5 or no
trigram tokenizer (before 3.34) when it migrated: the migration logs a note and builds nothing.

On PostgreSQL the same migration builds ``pg_trgm`` GIN indexes on the two columns the
``ILIKE`` reads; the planner uses them for the unchanged ``ILIKE`` and nothing here changes.
"""

from __future__ import annotations

import sqlite3
import weakref
from typing import Any

from sqlalchemy import ColumnElement, Engine, column, select, table, text

#: The FTS5 table (SQLite) and the shortest search it can answer (one trigram).
TABLE = "tasks_text"
MIN_CHARS = 3
#: SQLite 3.34 brought the trigram tokenizer.
TRIGRAM_SINCE = (3, 34, 0)

_fts = table(TABLE, column("rowid"), column(TABLE))
_has_index: weakref.WeakKeyDictionary[Engine, bool] = weakref.WeakKeyDictionary()


def trigram_available(conn: Any) -> str | None:
    """None when this SQLite can build the index, else why not (a sentence for the log)."""
    if sqlite3.sqlite_version_info < TRIGRAM_SINCE:
        return f"SQLite {sqlite3.sqlite_version} has no trigram tokenizer (3.34 or newer)"
    used = conn.execute(text("SELECT sqlite_compileoption_used('ENABLE_FTS5')")).scalar()
    if not used:
        return f"SQLite {sqlite3.sqlite_version} was built without FTS5"
    return None


def has_index(engine: Engine) -> bool:
    """Whether this SQLite store holds ``tasks_text`` (read once per engine, then remembered)."""
    known = _has_index.get(engine)
    if known is None:
        with engine.connect() as conn:
            known = (
                conn.execute(
                    text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :n"),
                    {"n": TABLE},
                ).first()
                is not None
            )
        _has_index[engine] = known
    return known


def forget(engine: Engine) -> None:
    """Read ``has_index`` anew next time (after a migration up or down)."""
    _has_index.pop(engine, None)


def phrase(search: str) -> str:
    """``search`` as one FTS5 phrase: quoted, its own quotes doubled, nothing else special."""
    return '"' + search.replace('"', '""') + '"'


def candidates(engine: Engine, search: str, task_id: Any) -> ColumnElement[bool] | None:
    """A condition narrowing ``task_id`` to the rows the trigram index matches for ``search``,
    or None when the index cannot answer (too short a search, no index, not SQLite)."""
    if engine.dialect.name != "sqlite" or len(search) < MIN_CHARS or not has_index(engine):
        return None
    found = select(_fts.c.rowid).where(_fts.c[TABLE].match(phrase(search)))
    return task_id.in_(found)  # type: ignore[no-any-return]
