"""The read side: the slot browser's grouped, paged queries and the slot list (cosmicpython's
``views``).

Reads bypass the domain: they group, filter and page the ``tasks`` table in SQL so the browser
stays fast at 100,000 slots. Every query is bound to a :class:`~app.store.rows.Scope`
(tenant, user, provider, endpoint) and pages by keyset, never by offset:

* projects, newest activity first (keyset: the group's newest task id),
* days of one project, newest first (keyset: the day string),
* slots of one project and day, newest first (keyset: the task id).

These functions block; :class:`app.store.aio.Store` runs them in a worker thread.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from functools import lru_cache
from typing import Any, Sequence

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Engine,
    Integer,
    Select,
    and_,
    case,
    cast,
    func,
    literal_column,
    or_,
    select,
)

from app.domain.days import day_bounds
from app.domain.states import POLLABLE
from app.store.engine import few
from app.store.models import tasks
from app.store.picks import result_filter
from app.store import first_page, text_search
from app.store.rows import Group, Scope, SlotFilter, SlotRow, TaskRow, slot_row, task_row

_EPOCH = dt.date(1970, 1, 1)


def day_number(day: str) -> int:
    """``YYYY-MM-DD`` as days since 1970-01-01 (what :func:`_day_expr` computes in SQL)."""
    return (dt.datetime.strptime(day, "%Y-%m-%d").date() - _EPOCH).days


def day_string(number: int) -> str:
    return (_EPOCH + dt.timedelta(days=int(number))).isoformat()


def _utc_offset(ts: float) -> int:
    return int(time.localtime(ts).tm_gmtoff)


def _zone_key() -> tuple[str, ...]:
    return (os.environ.get("TZ", ""), *time.tzname)


@lru_cache(maxsize=16)
def _offsets(first_day: int, last_day: int, zone: tuple[str, ...]) -> tuple[tuple[float, int], ...]:
    """This machine's UTC offset from ``first_day`` to ``last_day`` (UTC day numbers):
    ``((since, offset), ...)``, the first entry holding from the start, each next one from the
    exact second its offset (daylight saving, a zone's own change) begins."""
    del zone  # part of the cache key only: a changed TZ computes anew
    t = (first_day - 1) * 86400
    end = (last_day + 2) * 86400
    offset = _utc_offset(t)
    out = [(float(t), offset)]
    step = 6 * 3600  # offset changes are months apart; four samples a day find each one
    while t < end:
        nxt = t + step
        new = _utc_offset(nxt)
        if new != offset:
            lo, hi = t, nxt
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if _utc_offset(mid) == offset:
                    lo = mid
                else:
                    hi = mid
            out.append((float(hi), new))
            offset = new
        t = nxt
    return tuple(out)


def local_offsets(first: float, last: float) -> tuple[tuple[float, int], ...]:
    """The local UTC offsets that apply to timestamps between ``first`` and ``last``."""
    return _offsets(int(first // 86400), int(last // 86400), _zone_key())


def _is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def _like_pattern(search: str) -> str:
    """``search`` as a LIKE pattern matching any part (escaped with a backslash)."""
    return "%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _narrowed(
    engine: Engine, cond: list[ColumnElement[bool]], search: str
) -> list[ColumnElement[bool]]:
    """``cond`` with the text index narrowing the rows first, on SQLite, for a search of 3+
    characters: the LIKE the caller adds then decides on those rows alone, so what matches is
    what a scan would match (ASCII case folded only). 1–2 characters have no trigram and
    PostgreSQL's pg_trgm indexes serve the LIKE itself: ``cond`` as it is."""
    if not _is_sqlite(engine):
        return cond
    indexed = text_search.candidates(engine, search, tasks.c.id)
    if indexed is None:
        return cond
    # likely(): the planner's hint that the other terms narrow little, so the index's rowids
    # drive (by primary key) rather than the owner's index scanning its rows to test each
    # against them — SQLite has no statistics to know it (no ANALYZE)
    return [*(func.likely(c, type_=Boolean) for c in cond), indexed]


def _text_matches(
    engine: Engine, cond: list[ColumnElement[bool]], search: str
) -> list[ColumnElement[bool]]:
    """``cond`` and "the RequestId or the prompt contains ``search``" — the one text match of
    the browser, the gallery and ``slate list --search``: ASCII case folded on SQLite (its LIKE,
    on the rows the trigram index narrowed to), the database's case folding on PostgreSQL (ILIKE,
    which its pg_trgm GIN indexes on these two columns serve)."""
    pattern = _like_pattern(search)
    prompt = tasks.c.prompt_text  # params["prompt"], kept in step by every write
    if _is_sqlite(engine):
        return [
            *_narrowed(engine, cond, search),
            or_(tasks.c.request_id.like(pattern, escape="\\"), prompt.like(pattern, escape="\\")),
        ]
    return [
        *cond,
        or_(tasks.c.request_id.ilike(pattern, escape="\\"), prompt.ilike(pattern, escape="\\")),
    ]


def _json_text(engine: Engine, name: str) -> ColumnElement[Any]:
    if _is_sqlite(engine):
        return func.json_extract(tasks.c.params, f"$.{name}")
    return tasks.c.params[name].as_string()


def _day_expr(engine: Engine, offsets: tuple[tuple[float, int], ...]) -> ColumnElement[Any]:
    """The designer's local day of ``created_at`` as a day number, the same on every backend.

    The local UTC offsets (daylight saving included) come from Python — this machine's clock, as
    :func:`app.domain.days.local_day` sees it — never from the database server's time zone.
    """
    created = tasks.c.created_at

    def number(value: float) -> ColumnElement[Any]:
        # inlined, not bound: GROUP BY, ORDER BY and HAVING must repeat one identical expression
        return literal_column(repr(int(value)) if float(value).is_integer() else repr(float(value)))

    if len(offsets) == 1:
        offset: Any = number(offsets[0][1])
    else:
        offset = case(
            *(
                (created < number(since), number(off))
                for (since, _), (_, off) in zip(offsets[1:], offsets[:-1])
            ),
            else_=number(offsets[-1][1]),
        )
    local = (created + offset) / literal_column("86400.0")
    if _is_sqlite(engine):
        return cast(local, Integer)  # timestamps are after 1970: truncation is floor
    return cast(func.floor(local), Integer)


def _project_expr() -> ColumnElement[Any]:
    return func.coalesce(tasks.c.project, "")


def _in_project(project: str) -> ColumnElement[bool]:
    """Slots of one project group, comparing the column itself so ``ix_tasks_browse`` serves."""
    if project:
        return tasks.c.project == project
    return or_(tasks.c.project.is_(None), tasks.c.project == "")


def _conditions(engine: Engine, scope: Scope, flt: SlotFilter) -> list[ColumnElement[bool]]:
    cond: list[ColumnElement[bool]] = [
        tasks.c.tenant == scope.tenant,
        tasks.c.user_hash == scope.user_hash,
        tasks.c.provider == scope.provider,
        tasks.c.endpoint == scope.endpoint,
    ]
    if not flt.hidden:
        cond.append(tasks.c.hidden_at.is_(None))
    if flt.states:
        cond.append(tasks.c.state.in_([s.value for s in flt.states]))
    if flt.kind:
        cond.append(tasks.c.kind == flt.kind)
    if flt.since is not None:
        cond.append(tasks.c.created_at >= flt.since)
    cond += result_filter(scope, flt)
    if flt.search:
        cond = _text_matches(engine, cond, flt.search)
    return cond


def projects(
    engine: Engine, scope: Scope, flt: SlotFilter, *, after: int | None = None, limit: int = 100
) -> list[Group]:
    """Projects with at least one matching slot, most recent activity first. The browser's first
    page on SQLite is :data:`app.store.first_page.SQL`, the statement the window reads before
    the store is open."""
    if after is None and flt == SlotFilter() and _is_sqlite(engine):
        owner = (scope.tenant, scope.user_hash, scope.provider, scope.endpoint)
        with engine.connect() as conn:
            found = conn.exec_driver_sql(first_page.SQL, first_page.params(owner, limit))
            return [Group(str(key), int(n), int(newest)) for key, n, newest in found]
    if after is None and _text_only(engine, flt):
        with engine.connect() as conn:
            found = conn.exec_driver_sql(TEXT_PROJECTS_SQL, text_projects_params(scope, flt, limit))
            return [Group(str(key), int(n), int(newest)) for key, n, newest in found]
    with engine.connect() as conn:
        return [
            Group(r.key, int(r.n), int(r.newest))
            for r in conn.execute(projects_statement(engine, scope, flt, after=after, limit=limit))
        ]


def projects_statement(
    engine: Engine, scope: Scope, flt: SlotFilter, *, after: int | None = None, limit: int = 100
) -> Select[Any]:
    """:func:`projects`' statement as SQLAlchemy builds it."""
    proj = _project_expr()
    newest = func.max(tasks.c.id)
    stmt = (
        select(proj.label("key"), func.count().label("n"), newest.label("newest"))
        .where(and_(*_conditions(engine, scope, flt)))
        .group_by(proj)
        .order_by(newest.desc())
        .limit(limit)
    )
    if after is not None:
        stmt = stmt.having(newest < after)
    return stmt


#: The first page of the browser's text filter alone (no other filter) on SQLite with the text
#: index, a search of 3+ characters: :func:`projects_statement` as SQLAlchemy compiles it for
#: SQLite, written out (a test holds the two equal). The filter the designer types then builds
#: and compiles nothing before it runs: ~2 ms of the reader's CPU, ~4.5 ms on a process's first
#: search (SQLAlchemy compiles a statement the first time it meets its shape).
TEXT_PROJECTS_SQL = (
    'SELECT coalesce(tasks.project, ?) AS "key", count(*) AS n, max(tasks.id) AS newest \n'
    "FROM tasks \n"
    "WHERE likely(tasks.tenant = ?) = 1 AND likely(tasks.user_hash = ?) = 1"
    " AND likely(tasks.provider = ?) = 1 AND likely(tasks.endpoint = ?) = 1"
    " AND likely(tasks.hidden_at IS NULL) = 1 AND tasks.id IN (SELECT tasks_text.rowid \n"
    "FROM tasks_text \n"
    "WHERE tasks_text.tasks_text MATCH ?)"
    " AND (tasks.request_id LIKE ? ESCAPE '\\' OR tasks.prompt_text LIKE ? ESCAPE '\\')"
    " GROUP BY coalesce(tasks.project, ?) ORDER BY max(tasks.id) DESC\n"
    " LIMIT ? OFFSET ?"
)


def _text_only(engine: Engine, flt: SlotFilter) -> bool:
    """Whether :data:`TEXT_PROJECTS_SQL` is ``flt``'s first page of projects on ``engine``."""
    return (
        _is_sqlite(engine)
        and flt == SlotFilter(search=flt.search)
        and len(flt.search) >= text_search.MIN_CHARS
        and text_search.has_index(engine)
    )


def text_projects_params(scope: Scope, flt: SlotFilter, limit: int) -> tuple[str | int, ...]:
    """:data:`TEXT_PROJECTS_SQL`'s parameters, in order."""
    pattern = _like_pattern(flt.search)
    owner = (scope.tenant, scope.user_hash, scope.provider, scope.endpoint)
    return ("", *owner, text_search.phrase(flt.search), pattern, pattern, "", int(limit), 0)


def days(
    engine: Engine,
    scope: Scope,
    flt: SlotFilter,
    project: str,
    *,
    after: str | None = None,
    limit: int = 100,
) -> list[Group]:
    """Days of one project with matching slots, newest first (the designer's local days)."""
    cond = [*_conditions(engine, scope, flt), _in_project(project)]
    with engine.connect() as conn:
        first, last = conn.execute(
            select(func.min(tasks.c.created_at), func.max(tasks.c.created_at)).where(and_(*cond))
        ).one()
        if first is None:
            return []
        day = _day_expr(engine, local_offsets(float(first), float(last)))
        stmt = (
            select(day.label("key"), func.count().label("n"), func.max(tasks.c.id).label("newest"))
            .where(and_(*cond))
            .group_by(day)
            .order_by(day.desc())
            .limit(limit)
        )
        if after is not None:
            stmt = stmt.having(day < literal_column(str(day_number(after))))
        return [Group(day_string(r.key), int(r.n), int(r.newest)) for r in conn.execute(stmt)]


def _slot_columns(engine: Engine) -> Sequence[Any]:
    return (
        tasks.c.id,
        tasks.c.request_id,
        tasks.c.kind,
        tasks.c.state,
        _json_text(engine, "model").label("model"),
        tasks.c.prompt_text.label("prompt"),
        tasks.c.project,
        tasks.c.created_at,
        tasks.c.updated_at,
        tasks.c.next_poll_at,
        tasks.c.results,
        tasks.c.provider_status,
        tasks.c.error_message,
    )


def slots(
    engine: Engine,
    scope: Scope,
    flt: SlotFilter,
    project: str,
    day: str,
    *,
    before_id: int | None = None,
    limit: int = 200,
) -> list[SlotRow]:
    """Matching slots of one project and day, newest first."""
    start, end = day_bounds(day)
    cond = _conditions(engine, scope, flt) + [
        _in_project(project),
        tasks.c.created_at >= start,
        tasks.c.created_at < end,
    ]
    if before_id is not None:
        cond.append(tasks.c.id < before_id)
    stmt = (
        select(*_slot_columns(engine)).where(and_(*cond)).order_by(tasks.c.id.desc()).limit(limit)
    )
    with engine.connect() as conn:
        return [slot_row(r) for r in conn.execute(stmt)]


def slot_by_request_id(engine: Engine, scope: Scope, request_id: str) -> SlotRow | None:
    stmt = (
        select(*_slot_columns(engine))
        .where(and_(*_conditions(engine, scope, SlotFilter()), tasks.c.request_id == request_id))
        .order_by(tasks.c.id)
        .limit(1)
    )
    with engine.connect() as conn:
        r = conn.execute(stmt).first()
    return slot_row(r) if r is not None else None


def neighbours(
    engine: Engine, scope: Scope, flt: SlotFilter, task_id: int
) -> tuple[int | None, int | None]:
    """The ids of the next newer and next older matching slot (for next/previous slot keys)."""
    cond = _conditions(engine, scope, flt)
    with engine.connect() as conn:
        newer = conn.execute(
            select(func.min(tasks.c.id)).where(and_(*cond, tasks.c.id > task_id))
        ).scalar()
        older = conn.execute(
            select(func.max(tasks.c.id)).where(and_(*cond, tasks.c.id < task_id))
        ).scalar()
    return newer, older


def count(engine: Engine, scope: Scope, flt: SlotFilter) -> int:
    with engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count()).where(and_(*_conditions(engine, scope, flt)))
            ).scalar()
            or 0
        )


def failing_queries(engine: Engine, scope: Scope) -> int:
    """In-flight tasks whose latest provider query failed: the status bar's connection trouble."""
    stmt = select(func.count()).where(
        tasks.c.tenant == scope.tenant,
        tasks.c.provider == scope.provider,
        tasks.c.endpoint == scope.endpoint,
        few(engine.dialect.name, tasks.c.state.in_([s.value for s in POLLABLE])),
        tasks.c.poll_failures > 0,
    )
    with engine.connect() as conn:
        return int(conn.execute(stmt).scalar() or 0)


def request_ids_with_prefix(engine: Engine, scope: Scope, prefix: str) -> list[str]:
    """The RequestIds of the scope that start with ``prefix`` (case-insensitively on SQLite)."""
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    stmt = select(tasks.c.request_id).where(
        tasks.c.tenant == scope.tenant,
        tasks.c.user_hash == scope.user_hash,
        tasks.c.provider == scope.provider,
        tasks.c.endpoint == scope.endpoint,
        tasks.c.request_id.like(escaped + "%", escape="\\"),
    )
    with engine.connect() as conn:
        return [rid for (rid,) in conn.execute(stmt)]


def prompts(
    engine: Engine, scope: Scope, search: str = "", limit: int = 50
) -> list[tuple[str, float, int]]:
    """This user's earlier prompts (every provider, this tenant), the last used first:
    ``(prompt, last used, times used)``; ``search`` matches any part, case-insensitively."""
    last = func.max(tasks.c.created_at).label("last")
    cond = [
        tasks.c.tenant == scope.tenant,
        tasks.c.user_hash == scope.user_hash,
        tasks.c.prompt_text.is_not(None),
        tasks.c.prompt_text != "",
    ]
    if search:
        pattern = _like_pattern(search)
        cond = _narrowed(engine, cond, search)
        cond.append(tasks.c.prompt_text.ilike(pattern, escape="\\"))
    stmt = (
        select(tasks.c.prompt_text, last, func.count().label("uses"))
        .where(*cond)
        .group_by(tasks.c.prompt_text)
        .order_by(last.desc())
        .limit(limit)
    )
    with engine.connect() as conn:
        return [(str(p), float(at), int(n)) for p, at, n in conn.execute(stmt)]


def list_slots(
    engine: Engine,
    scope: Scope,
    *,
    state: str | None = None,
    kind: str | None = None,
    search: str | None = None,
    limit: int = 100,
    before_id: int | None = None,
    since: float | None = None,
    until: float | None = None,
) -> list[TaskRow]:
    """Slots newest first, keyset-paginated by id (``before_id``): the `slate list` answer."""
    cond = [
        tasks.c.tenant == scope.tenant,
        tasks.c.user_hash == scope.user_hash,
        tasks.c.provider == scope.provider,
        tasks.c.endpoint == scope.endpoint,
    ]
    if state:
        cond.append(tasks.c.state == state)
    if kind:
        cond.append(tasks.c.kind == kind)
    if before_id is not None:
        cond.append(tasks.c.id < before_id)
    if since is not None:
        cond.append(tasks.c.created_at >= since)
    if until is not None:
        cond.append(tasks.c.created_at < until)
    if search:
        cond = _text_matches(engine, cond, search)
    with engine.connect() as conn:
        rows = (
            conn.execute(select(tasks).where(*cond).order_by(tasks.c.id.desc()).limit(limit))
            .mappings()
            .all()
        )
    return [task_row(r) for r in rows]


def twin(
    engine: Engine,
    scope: Scope,
    kind: str,
    fingerprint: str,
    slot_key: str,
    states: Sequence[str],
) -> TaskRow | None:
    """The newest task of this scope, other than slot ``slot_key``'s, with this kind and
    fingerprint in one of ``states`` (a slot made or being made with the same parameters)."""
    cond = [
        tasks.c.tenant == scope.tenant,
        tasks.c.user_hash == scope.user_hash,
        tasks.c.provider == scope.provider,
        tasks.c.endpoint == scope.endpoint,
        tasks.c.kind == kind,
        tasks.c.fingerprint == fingerprint,
        tasks.c.slot_key != slot_key,
        tasks.c.state.in_(list(states)),
    ]
    with engine.connect() as conn:
        row = (
            conn.execute(select(tasks).where(*cond).order_by(tasks.c.id.desc()).limit(1))
            .mappings()
            .first()
        )
    return task_row(row) if row is not None else None
