"""Picks and boards in the store: a designer's favourite / reject flag and 0–5 rating on a result
(a media item of a slot: its task id and position), and boards — named collections of results
across projects. Both are per user (tenant and user hash): on a team store each designer has
their own.

Nothing here writes or reads the ledger's rows for change: no task, event, media or quota row is
written, so a pick can never alter what a slot is, what it cost or whether a submit replays.
The filters the browser and the gallery read by (:func:`result_filter`) live here too, beside
the tables they read; ``app.store.queries`` and ``app.store.gallery`` add them to their SELECTs.

These functions block; :class:`app.store.aio.Store` runs them in a worker thread.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from sqlalchemy import ColumnElement, Connection, and_, delete, exists, func, or_, select

from app.store.models import (
    BOARD_COLUMNS,
    BOARD_ITEM_COLUMNS,
    PICK_COLUMNS,
    board_items_t,
    boards_t,
    media_t,
    picks_t,
    tasks,
)
from app.store.rows import Scope, SlotFilter

if TYPE_CHECKING:
    from app.store.repository import Repository

FAVOURITE = "favourite"
REJECT = "reject"
#: The pick filter's choices besides a flag: every result not rejected (the slot shows while one
#: of its results is not rejected, or while it has none yet).
UNREJECTED = "unrejected"


@dataclass(frozen=True)
class PickRow:
    """One result's pick: its task and place, the flag (or None) and the rating (0: none)."""

    task_id: int
    position: int
    pick: str | None
    rating: int


@dataclass(frozen=True)
class BoardRow:
    """A board: its id, name, how many results of this scope are on it, and when it was made."""

    id: int
    name: str
    count: int
    created_at: float


@dataclass(frozen=True)
class BoardEntry:
    """A result on a board (``slate board list NAME``)."""

    request_id: str
    task_id: int
    position: int
    added_at: float


def _insert(conn: Connection, table: Any) -> Any:
    """The dialect's INSERT (both have ``ON CONFLICT``, named by the unique index's columns)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table)


def _owner(table: Any, scope: Scope) -> list[ColumnElement[bool]]:
    return [table.c.tenant == scope.tenant, table.c.user_hash == scope.user_hash]


def _tasks_in_scope(scope: Scope) -> list[ColumnElement[bool]]:
    return [
        tasks.c.tenant == scope.tenant,
        tasks.c.user_hash == scope.user_hash,
        tasks.c.provider == scope.provider,
        tasks.c.endpoint == scope.endpoint,
    ]


# -- filters (SQL; the browser's and the gallery's reads) ----------------------------------------
def filters_results(flt: SlotFilter) -> bool:
    """Whether the filter asks about picks or boards at all (the unfiltered read adds nothing)."""
    return bool(flt.pick or flt.min_rating or flt.board is not None)


def _pick_conditions(flt: SlotFilter) -> list[ColumnElement[bool]]:
    """Conditions on one ``picks`` row (empty: the filter needs no pick row)."""
    cond: list[ColumnElement[bool]] = []
    if flt.pick in (FAVOURITE, REJECT):
        cond.append(picks_t.c.pick == flt.pick)
    if flt.min_rating:
        cond.append(picks_t.c.rating >= flt.min_rating)
        if flt.pick == UNREJECTED:
            cond.append(or_(picks_t.c.pick.is_(None), picks_t.c.pick != REJECT))
    return cond


def _rejected(table: Any, scope: Scope) -> Any:
    """A reject pick on the result named by ``table``'s task id and position."""
    return exists().where(
        *_owner(picks_t, scope),
        picks_t.c.task_id == table.c.task_id,
        picks_t.c.position == table.c.position,
        picks_t.c.pick == REJECT,
    )


def result_filter(scope: Scope, flt: SlotFilter) -> list[ColumnElement[bool]]:
    """Conditions on ``tasks`` for the pick, rating and board filters: a slot matches when one of
    its results matches them all (the gallery then keeps those results: :func:`result_matches`).
    Served by ``uq_board_items_result``, ``ix_picks_pick`` / ``ix_picks_rating``,
    ``uq_picks_result`` and the media's ``task_id`` index."""
    if not filters_results(flt):
        return []
    picked = _pick_conditions(flt)
    if flt.board is not None:
        sub = select(board_items_t.c.task_id).where(board_items_t.c.board_id == flt.board)
        if picked:
            sub = sub.join(
                picks_t,
                and_(
                    picks_t.c.task_id == board_items_t.c.task_id,
                    picks_t.c.position == board_items_t.c.position,
                    *_owner(picks_t, scope),
                ),
            ).where(*picked)
        elif flt.pick == UNREJECTED:
            sub = sub.where(~_rejected(board_items_t, scope))
        return [tasks.c.id.in_(sub)]
    if picked:
        return [tasks.c.id.in_(select(picks_t.c.task_id).where(*_owner(picks_t, scope), *picked))]
    # unrejected alone: a slot without results yet, or with one result not rejected
    return [
        or_(
            ~exists().where(media_t.c.task_id == tasks.c.id),
            exists().where(media_t.c.task_id == tasks.c.id, ~_rejected(media_t, scope)),
        )
    ]


def result_matches(flt: SlotFilter, pick: str | None, rating: int, on_board: bool) -> bool:
    """The same rule for one result already read (the gallery keeps only matching results)."""
    if flt.pick in (FAVOURITE, REJECT) and pick != flt.pick:
        return False
    if flt.pick == UNREJECTED and pick == REJECT:
        return False
    if flt.min_rating and rating < flt.min_rating:
        return False
    return flt.board is None or on_board


# -- picks ---------------------------------------------------------------------------------------
#: "Leave as it is" for a flag or a rating.
KEEP: Any = object()


def set_pick(
    repo: "Repository",
    scope: Scope,
    task_id: int,
    position: int,
    *,
    pick: Any = KEEP,
    rating: Any = KEEP,
) -> PickRow:
    """Set the flag (``favourite``, ``reject`` or None to clear it) and/or the rating (0–5, 0
    clears it) of one result, in one transaction; what is not given stays. A result with neither
    keeps no row."""
    now = time.time()
    where = and_(
        *_owner(picks_t, scope), picks_t.c.task_id == task_id, picks_t.c.position == position
    )

    def write(conn: Connection, _ambiguous: bool) -> PickRow:
        # idempotent: after an ambiguous COMMIT the same values are written again
        old = conn.execute(select(picks_t.c.pick, picks_t.c.rating).where(where)).first()
        new_pick = (old.pick if old else None) if pick is KEEP else pick
        new_rating = (old.rating if old else 0) if rating is KEEP else int(rating)
        if new_pick is None and not new_rating:
            if old is not None:
                conn.execute(delete(picks_t).where(where))
        elif old is not None:
            conn.execute(
                picks_t.update()
                .where(where)
                .values(pick=new_pick, rating=new_rating, updated_at=now)
            )
        else:  # a racing writer's row (PostgreSQL) is overwritten, never an error
            ins = _insert(conn, picks_t).values(
                tenant=scope.tenant,
                user_hash=scope.user_hash,
                task_id=task_id,
                position=position,
                pick=new_pick,
                rating=new_rating,
                updated_at=now,
            )
            conn.execute(
                ins.on_conflict_do_update(
                    index_elements=list(PICK_COLUMNS),
                    set_={"pick": new_pick, "rating": new_rating, "updated_at": now},
                )
            )
        return PickRow(task_id, position, new_pick, new_rating)

    return repo._run_write(write)


def picks_of(repo: "Repository", scope: Scope, task_ids: Sequence[int]) -> list[PickRow]:
    """This user's picks on the results of these tasks."""
    if not task_ids:
        return []
    with repo.read() as conn:
        rows = conn.execute(
            select(picks_t.c.task_id, picks_t.c.position, picks_t.c.pick, picks_t.c.rating)
            .where(*_owner(picks_t, scope), picks_t.c.task_id.in_(list(task_ids)))
            .order_by(picks_t.c.task_id, picks_t.c.position)
        ).all()
    return [PickRow(r.task_id, r.position, r.pick, int(r.rating)) for r in rows]


# -- boards --------------------------------------------------------------------------------------
def boards(repo: "Repository", scope: Scope) -> list[BoardRow]:
    """This user's boards, by name, each with the number of this scope's results on it."""
    n = (
        select(func.count())
        .select_from(board_items_t.join(tasks, tasks.c.id == board_items_t.c.task_id))
        .where(board_items_t.c.board_id == boards_t.c.id, *_tasks_in_scope(scope))
        .scalar_subquery()
    )
    with repo.read() as conn:
        rows = conn.execute(
            select(boards_t.c.id, boards_t.c.name, n.label("n"), boards_t.c.created_at)
            .where(*_owner(boards_t, scope))
            .order_by(boards_t.c.name)
        ).all()
    return [BoardRow(r.id, r.name, int(r.n or 0), r.created_at) for r in rows]


def _board_id(conn: Connection, scope: Scope, name: str) -> int | None:
    return conn.execute(
        select(boards_t.c.id).where(*_owner(boards_t, scope), boards_t.c.name == name)
    ).scalar()


def board_by_name(repo: "Repository", scope: Scope, name: str) -> BoardRow | None:
    return next((b for b in boards(repo, scope) if b.name == name), None)


def add_to_board(
    repo: "Repository", scope: Scope, name: str, results: Sequence[tuple[int, int]]
) -> tuple[int, int]:
    """Put these results (task id, position) on the board ``name``, making the board when it
    does not exist yet, in one transaction: (board id, results newly added)."""
    now = time.time()

    def write(conn: Connection, _ambiguous: bool) -> tuple[int, int]:
        board = _board_id(conn, scope, name)
        if board is None:  # made here, or by a racing writer a moment ago: read it back
            conn.execute(
                _insert(conn, boards_t)
                .values(tenant=scope.tenant, user_hash=scope.user_hash, name=name, created_at=now)
                .on_conflict_do_nothing(index_elements=list(BOARD_COLUMNS))
            )
            board = _board_id(conn, scope, name)
        added = 0
        for task_id, position in results:
            made = conn.execute(
                _insert(conn, board_items_t)
                .values(board_id=board, task_id=task_id, position=position, added_at=now)
                .on_conflict_do_nothing(index_elements=list(BOARD_ITEM_COLUMNS))
                .returning(board_items_t.c.id)
            ).all()
            added += len(made)  # empty: it was on the board already
        return int(board), added

    return repo._run_write(write)


def remove_from_board(
    repo: "Repository", scope: Scope, name: str, results: Sequence[tuple[int, int]]
) -> int | None:
    """Take these results off the board ``name`` (the board stays, empty or not): how many were
    on it, or None when there is no such board."""

    def write(conn: Connection, _ambiguous: bool) -> int | None:
        board = _board_id(conn, scope, name)
        if board is None:
            return None
        gone = 0
        for task_id, position in results:
            gone += conn.execute(
                delete(board_items_t).where(
                    board_items_t.c.board_id == board,
                    board_items_t.c.task_id == task_id,
                    board_items_t.c.position == position,
                )
            ).rowcount
        return gone

    return repo._run_write(write)


def delete_board(repo: "Repository", scope: Scope, name: str) -> bool:
    """Delete the board ``name`` and its list (the results themselves stay)."""

    def write(conn: Connection, _ambiguous: bool) -> bool:
        board = _board_id(conn, scope, name)
        if board is None:
            return False
        conn.execute(delete(board_items_t).where(board_items_t.c.board_id == board))
        conn.execute(delete(boards_t).where(boards_t.c.id == board))
        return True

    return repo._run_write(write)


def board_entries(repo: "Repository", scope: Scope, board_id: int) -> list[BoardEntry]:
    """The results of this scope on a board, newest added first."""
    with repo.read() as conn:
        rows = conn.execute(
            select(
                tasks.c.request_id,
                board_items_t.c.task_id,
                board_items_t.c.position,
                board_items_t.c.added_at,
            )
            .select_from(board_items_t.join(tasks, tasks.c.id == board_items_t.c.task_id))
            .where(board_items_t.c.board_id == board_id, *_tasks_in_scope(scope))
            .order_by(board_items_t.c.added_at.desc(), board_items_t.c.id.desc())
        ).all()
    return [BoardEntry(r.request_id, r.task_id, r.position, r.added_at) for r in rows]


def boards_of(
    repo: "Repository", scope: Scope, task_ids: Sequence[int]
) -> dict[tuple[int, int], list[str]]:
    """The names of this user's boards each result of these tasks is on."""
    if not task_ids:
        return {}
    with repo.read() as conn:
        rows = conn.execute(
            select(board_items_t.c.task_id, board_items_t.c.position, boards_t.c.name)
            .select_from(board_items_t.join(boards_t, boards_t.c.id == board_items_t.c.board_id))
            .where(*_owner(boards_t, scope), board_items_t.c.task_id.in_(list(task_ids)))
            .order_by(boards_t.c.name)
        ).all()
    out: dict[tuple[int, int], list[str]] = {}
    for r in rows:
        out.setdefault((r.task_id, r.position), []).append(r.name)
    return out
