"""Picks and boards: set or clear a result's favourite / reject flag and its 0–5 rating, put a
result on a board or take it off, list the boards and what is on one.

Per designer (the service's tenant and user); the ledger is never touched: no task, event, media
or cost row is written, so a pick never changes what a slot is or whether a submit replays. The
rules (what a flag, a rating, a result number and a board name may be) are
``app.domain.picks``; every refusal names its field, before anything is stored.
"""

from __future__ import annotations

from typing import Any

from app.domain.errors import ValidationError
from app.domain.picks import (
    validate_board_name,
    validate_flag,
    validate_rating,
    validate_result,
)
from app.service.context import ServiceContext
from app.service.pick_results import BoardEntryInfo, BoardInfo, BoardReport, PickReport, ResultPick
from app.service.results import OutcomeKind, Problem, ProblemCode, Result, invalid
from app.store.picks import KEEP
from app.store.rows import TaskRow


class Picks:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def _slot(self, request_id: object) -> TaskRow | Result[Any]:
        task = await self.ctx.load_or_answer(request_id)
        if isinstance(task, Result):
            return task
        if not task.media:
            task = await self.ctx.store.task(task.id) or task
        return task

    async def _report(self, task: TaskRow) -> PickReport:
        ctx = self.ctx
        picks = {(p.task_id, p.position): p for p in await ctx.store.picks_of(ctx.scope, [task.id])}
        boards = await ctx.store.boards_of(ctx.scope, [task.id])
        out = []
        for m in task.media:
            p = picks.get((task.id, m.position))
            out.append(
                ResultPick(
                    m.position + 1,
                    p.pick if p else None,
                    p.rating if p else 0,
                    tuple(boards.get((task.id, m.position), ())),
                )
            )
        return PickReport(tuple(out))

    async def pick(
        self, request_id: object, *, pick: Any = KEEP, rating: Any = KEEP, result: object = 1
    ) -> Result[PickReport]:
        """Set (or clear: ``pick=None``, ``rating=0``) a result's flag and/or rating; with
        neither given, the slot's marks as they are. ``result``: its number in the slot."""
        ctx = self.ctx
        got = await self._slot(request_id)
        if isinstance(got, Result):
            return got
        try:
            flag = KEEP if pick is KEEP else validate_flag(pick)
            stars = KEEP if rating is KEEP else validate_rating(rating)
            position = validate_result(result, len(got.media))
        except ValidationError as exc:
            return invalid(got.request_id, exc)
        if flag is not KEEP or stars is not KEEP:
            await ctx.store.set_pick(
                ctx.scope,
                got.id,
                got.media[position].position,
                pick=KEEP if flag is KEEP else (flag.value if flag else None),
                rating=stars,
            )
        return Result(OutcomeKind.OK, got.request_id, payload=await self._report(got))

    async def boards(self) -> Result[BoardReport]:
        ctx = self.ctx
        found = await ctx.store.boards(ctx.scope)
        return Result(
            OutcomeKind.OK,
            None,
            payload=BoardReport(tuple(BoardInfo(b.name, b.count, b.id) for b in found)),
        )

    async def board(self, name: object) -> Result[BoardReport]:
        """One board's results, newest added first."""
        ctx = self.ctx
        try:
            board_name = validate_board_name(name)
        except ValidationError as exc:
            return invalid(None, exc)
        found = next((b for b in await ctx.store.boards(ctx.scope) if b.name == board_name), None)
        if found is None:
            return _no_board(board_name)
        entries = await ctx.store.board_entries(ctx.scope, found.id)
        return Result(
            OutcomeKind.OK,
            None,
            payload=BoardReport(
                (BoardInfo(found.name, found.count, found.id),),
                found.name,
                tuple(BoardEntryInfo(e.request_id, e.position + 1, e.added_at) for e in entries),
            ),
        )

    async def change_board(
        self, name: object, request_id: object, *, add: bool, result: object = 1
    ) -> Result[BoardReport]:
        """Put a slot's result on the board ``name`` (made when it does not exist yet), or take
        it off (``add=False``; the board stays)."""
        ctx = self.ctx
        try:
            board_name = validate_board_name(name)
        except ValidationError as exc:
            return invalid(request_id, exc)
        got = await self._slot(request_id)
        if isinstance(got, Result):
            return got
        try:
            position = validate_result(result, len(got.media))
        except ValidationError as exc:
            return invalid(got.request_id, exc)
        item = [(got.id, got.media[position].position)]
        if add:
            _, changed = await ctx.store.add_to_board(ctx.scope, board_name, item)
        else:
            gone = await ctx.store.remove_from_board(ctx.scope, board_name, item)
            if gone is None:
                return _no_board(board_name, got.request_id)
            changed = gone
        boards = await ctx.store.boards(ctx.scope)
        info = tuple(BoardInfo(b.name, b.count, b.id) for b in boards if b.name == board_name)
        return Result(
            OutcomeKind.OK,
            got.request_id,
            payload=BoardReport(info, board_name, changed=changed),
        )

    async def delete_board(self, name: object) -> Result[BoardReport]:
        """Delete a board and its list; the results themselves stay."""
        ctx = self.ctx
        try:
            board_name = validate_board_name(name)
        except ValidationError as exc:
            return invalid(None, exc)
        if not await ctx.store.delete_board(ctx.scope, board_name):
            return _no_board(board_name)
        return Result(OutcomeKind.OK, None, payload=BoardReport((), board_name, changed=1))


def _no_board(name: str, request_id: str | None = None) -> Result[Any]:
    return Result(
        OutcomeKind.NOT_FOUND,
        request_id,
        problem=Problem(ProblemCode.NOT_FOUND, f"board: no board named {name!r}", field="board"),
    )
