"""Cancel a queued task, where the provider can (MiniMax V2).

V2's ``DELETE /v2/video_generation/{id}`` cancels a ``queued`` task but **deletes** a finished
one, so the DELETE is sent only right after a query answered ``queued``. The slot becomes
``cancelled`` only when the provider confirms (``action: cancelled``). A task that started
running meanwhile is not touched: the answer says so (``invalid``, the query's evidence moves
the slot on as any query would), and nothing is cancelled.
"""

from __future__ import annotations

from typing import Any

from app.domain.states import WHY_NOT, Action, State, is_allowed, state_for_status_word
from app.providers.base import Ambiguous, ProviderError
from app.service.context import ServiceContext
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


class Canceller:
    def __init__(self, ctx: ServiceContext, lifecycle: Lifecycle, moves: Transitions) -> None:
        self.ctx = ctx
        self.lifecycle = lifecycle
        self.moves = moves

    async def cancel(self, request_id: object) -> Result[Any]:
        ctx = self.ctx
        task = await ctx.load_or_answer(request_id)
        if isinstance(task, Result):
            return task
        caps = ctx.caps(task)
        if task.kind != "video" or not caps.can_cancel:
            model = task.params.get("model") or task.kind
            return not_allowed(
                ctx.view(task),
                f"the {ctx.provider.name} provider cannot cancel "
                f"{model} tasks (only MiniMax V2 tasks, e.g. MiniMax-H3, can be "
                "cancelled)",
            )
        if not is_allowed(Action.CANCEL, task.state, has_results=task.has_results, can_cancel=True):
            return not_allowed(
                ctx.view(task),
                f"cancel is not offered while the slot is {task.state}: {WHY_NOT[Action.CANCEL]}",
            )
        assert task.provider_task_id is not None
        tid = task.provider_task_id
        api = ctx.api(task)
        protocol = ctx.protocol(task)
        try:
            status = await ctx.call(lambda: api.query_video(tid))
        except ProviderError as exc:
            kind = OutcomeKind.UNKNOWN if isinstance(exc, Ambiguous) else OutcomeKind.REJECTED
            code = ProblemCode.UNKNOWN if kind is OutcomeKind.UNKNOWN else ProblemCode.REJECTED
            return Result(
                kind,
                task.request_id,
                ctx.view(task),
                Problem(
                    code,
                    f"the provider did not answer the query before the cancel "
                    f"({exc.message}); nothing was cancelled",
                    provider=ProviderAnswer(exc.code),
                ),
            )
        if state_for_status_word(status.status, protocol) is not State.QUEUEING:
            moved = await self.lifecycle.apply_status(task, status)
            word = status.status or "in an unknown state"
            return not_allowed(
                ctx.view(moved),
                f"the task is {word} at the provider, no longer "
                "queued: only a queued task can be cancelled. It stays as it is; "
                "nothing was cancelled",
            )
        try:
            answer = await ctx.call(lambda: api.cancel_video(tid))
        except Ambiguous as exc:
            await ctx.store.add_event(
                ctx.scope,
                task.slot_key,
                task.id,
                "cancel_unknown",
                state=task.state,
                detail=exc.message,
                data={"raw": exc.raw},
            )
            return Result(
                OutcomeKind.UNKNOWN,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.UNKNOWN,
                    f"the cancel's answer did not arrive ({exc.message}); it "
                    "may or may not have happened. Query the slot to see",
                    provider=ProviderAnswer(exc.code),
                ),
            )
        except ProviderError as exc:
            return not_allowed(
                ctx.view(task),
                f"the provider refused to cancel: {exc.message}. The task stays as it is",
            )
        if answer.action != "cancelled":  # a finished task was deleted: never asked for
            await ctx.store.add_event(
                ctx.scope,
                task.slot_key,
                task.id,
                "deleted",
                state=task.state,
                detail=f"the provider answered action {answer.action!r} to a DELETE sent for a "
                "queued task",
                data={"raw": answer.raw},
            )
            return Result(
                OutcomeKind.UNKNOWN,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.UNKNOWN,
                    f"the provider answered {answer.action!r}, not cancelled; "
                    "query the slot to see where it stands",
                ),
            )
        new = await self.moves.to_cancelled(
            task,
            detail=f"cancelled at the provider while queued (task {tid}); not billed",
            data={"raw": answer.raw, "billed": False},
            provider_status="cancelled",
            expect=(State.QUEUEING, State.PROCESSING),
        )
        if new is None:
            fresh = await ctx.store.task(task.id) or task
            return ctx.by_state(fresh)
        return Result(OutcomeKind.CANCELLED, task.request_id, ctx.view(new))
