"""The slot browser's first page — its projects, newest activity first — as one SQL statement
that needs nothing but the standard library (issue 34: paint first, load after).

The window reads it with :func:`read` while the store is still being opened behind it (SQLAlchemy,
migrations, the provider), and the store's own reader answers the same page with the very same
statement (:func:`app.store.queries.projects`): one statement, so the first page the window
paints is the page the store would give.

:func:`read` answers ``None`` — "cannot tell, wait for the store" — whenever it is not sure: a
store that is not a SQLite file, a file that does not exist yet, a schema it cannot read, a
locked or damaged file. It opens the file read-only and never creates or changes anything.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

from app.domain.listing import Group

#: The first page of projects of one owner (tenant, user hash, provider, endpoint): every slot
#: not hidden from the browser, grouped by project, newest activity first. The inner query groups
#: by the column itself, in the order of ``ix_tasks_browse`` (owner, project, created_at,
#: hidden_at), read from that index alone; the outer one makes "no project" one group (NULL and
#: '' alike, as the browser's other reads do) over the few rows it gives.
SQL = (
    "SELECT coalesce(key, '') AS key, sum(n) AS n, max(newest) AS newest FROM ("
    "SELECT tasks.project AS key, count(*) AS n, max(tasks.id) AS newest FROM tasks "
    "WHERE tasks.tenant = ? AND tasks.user_hash = ? AND tasks.provider = ? "
    "AND tasks.endpoint = ? AND tasks.hidden_at IS NULL "
    "GROUP BY tasks.project"
    ") GROUP BY coalesce(key, '') ORDER BY max(newest) DESC LIMIT ?"
)


class Owner(NamedTuple):
    """Whose slots: the store's scope (``app.store.rows.Scope`` has these four fields)."""

    tenant: str
    user_hash: str
    provider: str
    endpoint: str


def params(owner: Owner | tuple[str, str, str, str], limit: int) -> tuple[str | int, ...]:
    """:data:`SQL`'s parameters, in order."""
    tenant, user_hash, provider, endpoint = owner
    return (tenant, user_hash, provider, endpoint, int(limit))


def sqlite_file(url: str) -> Path | None:
    """The file of a ``sqlite:///path`` store URL (SQLAlchemy's form, its default driver);
    None for anything else (PostgreSQL, an in-memory store, another driver, a URL with
    options)."""
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if url.startswith(prefix):
            rest = url[len(prefix) :]
            if not rest or "?" in rest or rest == ":memory:":
                return None
            return Path(unquote(rest))
    return None


def read(url: str, owner: Owner | tuple[str, str, str, str], limit: int) -> list[Group] | None:
    """The first page of the store at ``url`` by :data:`SQL`, or None when it cannot tell."""
    path = sqlite_file(url)
    if path is None or not path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
    except (sqlite3.Error, OSError, ValueError):
        return None
    try:
        rows = conn.execute(SQL, params(owner, limit)).fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return [Group(str(key), int(n), int(newest)) for key, n, newest in rows]


__all__ = ["SQL", "Owner", "params", "read", "sqlite_file"]
