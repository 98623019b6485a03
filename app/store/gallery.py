"""The read side of the results gallery: every result of the slots that match the browser's
filter (and, when given, one project and one local day), newest slot first.

A page is a keyset page of *slots* (``before_id``: the last page's oldest task id); each slot
brings all of its media, in order, and a slot without media (running, failed, unknown) brings
one row without media so the gallery can show its state. The slots are found through
``ix_tasks_owner_list`` (scope, then id descending) or ``ix_tasks_browse`` (scope, project,
created_at); their media through the media table's ``task_id`` index — no new index is needed.

These functions block; :class:`app.store.aio.Store` runs them in a worker thread. A tile's row
(:class:`ResultRow`) is ``app.domain.listing``'s, re-exported here.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, and_, exists, literal, select

from app.domain.days import day_bounds
from app.domain.listing import ResultRow as ResultRow
from app.domain.states import State
from app.store.models import board_items_t, media_t, picks_t, tasks
from app.store.picks import filters_results, result_matches
from app.store.queries import _conditions, _in_project, _json_text


def results(
    engine: Engine,
    scope: Any,
    flt: Any,
    project: str | None = None,
    day: str | None = None,
    *,
    before_id: int | None = None,
    limit: int = 120,
) -> list[ResultRow]:
    """The results of up to ``limit`` matching slots older than ``before_id``, newest first."""
    cond = _conditions(engine, scope, flt)
    if project is not None:
        cond.append(_in_project(project))
    if day is not None:
        start, end = day_bounds(day)
        cond += [tasks.c.created_at >= start, tasks.c.created_at < end]
    if before_id is not None:
        cond.append(tasks.c.id < before_id)
    slot_stmt = (
        select(
            tasks.c.id,
            tasks.c.request_id,
            tasks.c.state,
            tasks.c.kind,
            _json_text(engine, "model").label("model"),
            _json_text(engine, "resolution").label("resolution"),
            _json_text(engine, "source_task_id").label("source_task_id"),
            tasks.c.provider_task_id,
            tasks.c.prompt_text,
            tasks.c.project,
            tasks.c.created_at,
        )
        .where(and_(*cond))
        .order_by(tasks.c.id.desc())
        .limit(limit)
    )
    with engine.connect() as conn:
        slots = conn.execute(slot_stmt).all()
        if not slots:
            return []
        ids = [s.id for s in slots]
        # the picks ride on the media's own SELECT (an outer join on uq_picks_result): no
        # statement is added to a page
        picked = and_(
            picks_t.c.tenant == scope.tenant,
            picks_t.c.user_hash == scope.user_hash,
            picks_t.c.task_id == media_t.c.task_id,
            picks_t.c.position == media_t.c.position,
        )
        on_board = (
            exists().where(
                board_items_t.c.board_id == flt.board,
                board_items_t.c.task_id == media_t.c.task_id,
                board_items_t.c.position == media_t.c.position,
            )
            if flt.board is not None
            else literal(True)
        )
        media_rows = conn.execute(
            select(
                media_t.c.id,
                media_t.c.task_id,
                media_t.c.position,
                media_t.c.path,
                media_t.c.sha256,
                media_t.c.bytes,
                media_t.c.content_type,
                media_t.c.width,
                media_t.c.height,
                media_t.c.duration,
                picks_t.c.pick,
                picks_t.c.rating,
                on_board.label("on_board"),
            )
            .select_from(media_t.outerjoin(picks_t, picked))
            .where(media_t.c.task_id.in_(ids))
            .order_by(media_t.c.task_id, media_t.c.position, media_t.c.id)
        ).all()
    by_task: dict[int, list[Any]] = {}
    for m in media_rows:
        by_task.setdefault(m.task_id, []).append(m)
    narrowed = filters_results(flt)
    out: list[ResultRow] = []
    for s in slots:
        common: dict[str, Any] = {
            "task_id": s.id,
            "request_id": s.request_id,
            "state": State(s.state),
            "kind": s.kind,
            "model": s.model,
            "prompt": s.prompt_text,
            "project": s.project or "",
            "created_at": s.created_at,
            "resolution": s.resolution,
            "provider_task_id": s.provider_task_id,
            "source_task_id": s.source_task_id,
        }
        found = by_task.get(s.id)
        if found and narrowed:
            kept = [m for m in found if result_matches(flt, m.pick, m.rating or 0, m.on_board)]
            if not kept:
                continue  # only other results of this slot matched the SQL (on another rule)
            found = kept
        if not found:
            if narrowed and flt.pick != "unrejected":
                continue
            out.append(
                ResultRow(
                    **common,
                    position=0,
                    media_id=None,
                    path=None,
                    sha256=None,
                    bytes=None,
                    content_type=None,
                    width=None,
                    height=None,
                    duration=None,
                )
            )
            continue
        for m in found:
            out.append(
                ResultRow(
                    **common,
                    position=m.position,
                    media_id=m.id,
                    path=m.path,
                    sha256=m.sha256,
                    bytes=m.bytes,
                    content_type=m.content_type,
                    width=m.width,
                    height=m.height,
                    duration=m.duration,
                    pick=m.pick,
                    rating=int(m.rating or 0),
                )
            )
    return out
