"""Recover an unknown or failed slot, never by a create.

One command, one of four ways: :class:`AttachTask` (the provider task id the user found),
:class:`Lookup` (where the provider lists tasks), :class:`Redownload` (a failed task with
results left) and :class:`DeclareFailed` (with a reason; a charge may exist). Which way a task
offers is :func:`app.domain.states.recover_options`.
"""

from __future__ import annotations

from typing import Any

from app.domain.params import request_body
from app.domain.states import (
    Action,
    RecoverOption,
    RecoverWay,
    State,
    recover_options,
    state_for_status_word,
)
from app.providers.base import ProviderError
from app.service.context import ServiceContext
from app.service.commands import AttachTask, DeclareFailed, Lookup, RecoverHow, Redownload
from app.service.lifecycle import Lifecycle
from app.service.results import (
    OutcomeKind,
    Problem,
    ProblemCode,
    ProviderAnswer,
    Result,
    not_allowed,
)
from app.service.transitions import Transitions
from app.store.rows import TaskRow

__all__ = ["AttachTask", "DeclareFailed", "Lookup", "RecoverHow", "Recovery", "Redownload"]


#: How long after the slot's claim a lookup searches the provider's list (see DESIGN.md).
LOOKUP_BEFORE, LOOKUP_AFTER = 60.0, 900.0


class Recovery:
    def __init__(self, ctx: ServiceContext, lifecycle: Lifecycle, moves: Transitions) -> None:
        self.ctx = ctx
        self.lifecycle = lifecycle
        self.moves = moves

    async def recover(self, request_id: object, how: RecoverHow) -> Result[Any]:
        ctx = self.ctx
        got = await ctx.actionable(request_id, Action.RECOVER)
        if isinstance(got, Result):
            return got
        task = got
        options = recover_options(task, ctx.provider.caps, provider=ctx.provider.name)
        if isinstance(how, DeclareFailed):
            return await self._declare_failed(task, how.reason, options[RecoverWay.DECLARE_FAILED])
        if isinstance(how, Redownload):
            return await self._redownload(task, options[RecoverWay.REDOWNLOAD])
        if isinstance(how, Lookup):
            return await self._lookup(task, options)
        return await self._attach(task, how.task_id, options[RecoverWay.ATTACH])

    async def _declare_failed(self, task: TaskRow, reason: str,
                              option: RecoverOption) -> Result[Any]:
        ctx = self.ctx
        if not reason or not reason.strip():
            return Result(OutcomeKind.INVALID, task.request_id, ctx.view(task), Problem(
                ProblemCode.INVALID, "reason: a reason is required to declare a task failed",
                field="reason"))
        if not option.offered:
            return not_allowed(ctx.view(task), option.why_not)
        new = await self.moves.to_fail(
            task, expect=(State.UNKNOWN,), code="declared_failed",
            message=f"declared failed by {ctx.user}: {reason.strip()}", event="declared_failed",
            detail=reason.strip(),
            data={"note": "a charge may exist at the provider", "by": "user"},
        )
        return ctx.by_state(new or task)

    async def _redownload(self, task: TaskRow, option: RecoverOption) -> Result[Any]:
        ctx = self.ctx
        if not option.offered:
            return not_allowed(ctx.view(task), option.why_not)
        new = await self.moves.to_downloading(
            task, expect=(State.FAIL,), event="recovered",
            detail="redownload: fetching a fresh link", error_code=None, error_message=None,
        )
        if new is None:
            return ctx.by_state(task)
        return ctx.by_state(await self.lifecycle.download(new))

    async def _attach(self, task: TaskRow, provider_task_id: str,
                      option: RecoverOption) -> Result[Any]:
        ctx = self.ctx
        if not option.state_allows:
            return not_allowed(ctx.view(task), option.why_not)
        tid = (provider_task_id or "").strip()
        if not tid or len(tid) > 128 or not all(c.isalnum() or c in "-_." for c in tid):
            return Result(OutcomeKind.INVALID, task.request_id, ctx.view(task), Problem(
                ProblemCode.INVALID, "task_id: expected the provider's task id "
                "(letters, digits, - _ .)", field="task_id"))
        if not option.offered:
            return not_allowed(ctx.view(task), option.why_not)
        try:
            status = await ctx.call(lambda: ctx.provider.query_video(tid))
        except ProviderError as exc:
            return Result(OutcomeKind.UNKNOWN, task.request_id, ctx.view(task), Problem(
                ProblemCode.UNKNOWN, f"the provider did not confirm task {tid}: {exc.message}; "
                "nothing changed", provider=ProviderAnswer(exc.code)))
        if state_for_status_word(status.status) is State.UNKNOWN:
            return Result(OutcomeKind.UNKNOWN, task.request_id, ctx.view(task), Problem(
                ProblemCode.UNKNOWN, f"task {tid} answered status {status.status!r}; "
                "nothing changed"))
        new = await self.moves.to_attached(task, tid, status.raw)
        if new is None:
            return ctx.by_state(task)
        return ctx.by_state(await ctx.with_media(await self.lifecycle.advance(new)))

    async def _lookup(self, task: TaskRow,
                      options: dict[RecoverWay, RecoverOption]) -> Result[Any]:
        ctx = self.ctx
        option = options[RecoverWay.LOOKUP]
        if not option.offered:
            return not_allowed(ctx.view(task), option.why_not)
        found = await ctx.call(lambda: ctx.provider.list_tasks(
            task.created_at - LOOKUP_BEFORE, task.created_at + LOOKUP_AFTER))
        body = request_body(task.kind, task.params)
        matches = [t for t in found
                   if all(t.params.get(k) == v for k, v in body.items() if k in t.params)
                   and t.params.get("prompt") == body.get("prompt")]
        if len(matches) != 1:
            return Result(OutcomeKind.UNKNOWN, task.request_id, ctx.view(task), Problem(
                ProblemCode.UNKNOWN, f"lookup found {len(matches)} matching tasks in the time "
                "window; attach one with --task-id"))
        return await self._attach(task, matches[0].task_id, options[RecoverWay.ATTACH])
