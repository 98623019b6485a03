"""Recover an unknown or failed slot, never by a create.

One command, one of four ways: :class:`AttachTask` (the provider task id the user found),
:class:`Lookup` (where the provider lists tasks), :class:`Redownload` (a failed task with
results left) and :class:`DeclareFailed` (with a reason; a charge may exist). Which way a task
offers is :func:`app.domain.states.recover_options`, with the capabilities of the slot's
protocol (MiniMax V2 lists tasks; V1 cannot).

Lookup follows :mod:`app.domain.lookup`: the window around the create, candidates with the
slot's model, duration, resolution and ratio that no other slot owns; exactly one is attached
(the history keeps the window and every task seen), zero or several change nothing and are
listed. :meth:`Recovery.look` runs the same search without attaching, for the app's question
"1 matching task found at MiniMax — attach?".
"""

from __future__ import annotations

from functools import partial

from typing import TYPE_CHECKING, Any

from app.domain.errors import FailReason, Unchanged
from app.domain.states import (
    Action,
    RecoverOption,
    RecoverWay,
    State,
    recover_options,
    state_for_status_word,
)
from app.domain.tidy import may_refetch
from app.providers.base import KeepsClock, ProviderError
from app.service.commands import AttachTask, DeclareFailed, Lookup, RecoverHow, Redownload
from app.service.context import ServiceContext
from app.service.lifecycle import Lifecycle
from app.service.results import (
    Candidate,
    LookupReport,
    OutcomeKind,
    Problem,
    ProblemCode,
    ProviderAnswer,
    Result,
    not_allowed,
)
from app.service.lease import LEASE_MARGIN
from app.service.transitions import Transitions
from app.service.views import DECLARED_REASON
from app.store.rows import TaskRow

if TYPE_CHECKING:  # loaded by the recovery that uses them, not by a read (issue 38)
    from app.domain import lookup

__all__ = ["AttachTask", "DeclareFailed", "Lookup", "RecoverHow", "Recovery", "Redownload"]


class Recovery:
    def __init__(self, ctx: ServiceContext, lifecycle: Lifecycle, moves: Transitions) -> None:
        self.ctx = ctx
        self.lifecycle = lifecycle
        self.moves = moves

    async def recover(self, request_id: object, how: RecoverHow) -> Result[Any]:
        ctx = self.ctx
        if isinstance(how, Redownload):  # a success whose local files were deleted (tidy-up)
            found = await ctx.load_or_answer(request_id)
            if isinstance(found, TaskRow) and may_refetch(
                found.state, found.results, sum(m.removed_at is not None for m in found.media)
            ):
                return await self._refetch(found)
        got = await ctx.actionable(request_id, Action.RECOVER)
        if isinstance(got, Result):
            return got
        task = got
        options = recover_options(task, ctx.caps(task), provider=ctx.provider.name)
        if isinstance(how, DeclareFailed):
            return await self._declare_failed(task, how.reason, options[RecoverWay.DECLARE_FAILED])
        if isinstance(how, Redownload):
            return await self._redownload(task, options[RecoverWay.REDOWNLOAD])
        if isinstance(how, Lookup):
            return await self._lookup(task, options)
        return await self._attach(task, how.task_id, options[RecoverWay.ATTACH])

    async def _declare_failed(
        self, task: TaskRow, reason: str, option: RecoverOption
    ) -> Result[Any]:
        ctx = self.ctx
        if not reason or not reason.strip():
            return Result(
                OutcomeKind.INVALID,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.INVALID,
                    "reason: a reason is required to declare a task failed",
                    field="reason",
                ),
            )
        if not option.offered:
            return not_allowed(ctx.view(task), option.why_not)
        new = await self.moves.to_fail(
            task,
            expect=(State.UNKNOWN,),
            code="declared_failed",
            reason=FailReason.DECLARED_FAILED,
            message=f"declared failed by {ctx.user}: {reason.strip()}",
            event="declared_failed",
            detail=reason.strip(),
            data={"note": "a charge may exist at the provider", "by": "user"},
            # the designer's own words, kept whole: said as they gave them, never cut out of
            # the message
            results={**(task.results or {}), DECLARED_REASON: reason.strip()},
        )
        return ctx.by_state(new or task)

    async def _redownload(self, task: TaskRow, option: RecoverOption) -> Result[Any]:
        ctx = self.ctx
        if not option.offered:
            return not_allowed(ctx.view(task), option.why_not)
        new = await self.moves.to_downloading(
            task,
            expect=(State.FAIL,),
            event="recovered",
            detail="redownload: fetching a fresh link",
            error_code=None,
            error_message=None,
        )
        if new is None:
            return ctx.by_state(task)
        return ctx.by_state(await self.lifecycle.download(new))

    async def _refetch(self, task: TaskRow) -> Result[Any]:
        """``recover --redownload`` of a slot pruned by ``prune-media``: the media fetched and
        verified again; the slot stays ``success`` (nothing created, nothing billed)."""
        from app.service.media import VerificationFailed

        ctx = self.ctx
        try:
            fresh = await self.lifecycle.refetch(task)
        except (VerificationFailed, ProviderError, OSError) as exc:
            reason = getattr(exc, "reason", None) or getattr(exc, "message", None) or str(exc)
            await ctx.store.add_event(
                ctx.scope,
                task.slot_key,
                task.id,
                "verification_failed",
                state=task.state,
                detail=f"redownload: {reason}",
                data=_refetch_facts(exc),
            )
            return Result(
                OutcomeKind.INVALID,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.MEDIA_MISSING,
                    f"redownload: the provider did not give the media again ({reason}); the "
                    "slot stays a success, its record keeps each file's SHA-256",
                ),
            )
        await ctx.store.replace_media(
            ctx.scope,
            task,
            [v.row(ctx.config.data_dir) for v in fresh],
            f"redownload after prune-media: {len(fresh)} file(s) verified again",
        )
        new = await ctx.store.task(task.id) or task
        ctx.notify(new)
        return Result(OutcomeKind.OK, new.request_id, ctx.view(new))

    async def _attach(
        self,
        task: TaskRow,
        provider_task_id: str,
        option: RecoverOption,
        evidence: lookup.Selection | None = None,
    ) -> Result[Any]:
        ctx = self.ctx
        if not option.state_allows:
            return not_allowed(ctx.view(task), option.why_not)
        tid = (provider_task_id or "").strip()
        if not tid or len(tid) > 128 or not all(c.isalnum() or c in "-_." for c in tid):
            return Result(
                OutcomeKind.INVALID,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.INVALID,
                    "task_id: expected the provider's task id (letters, digits, - _ .)",
                    field="task_id",
                ),
            )
        if not option.offered:
            return not_allowed(ctx.view(task), option.why_not)
        if await ctx.store.owners_of(task.provider, task.endpoint, [tid], except_task=task.id):
            return not_allowed(
                ctx.view(task),
                f"task {tid} is already attached to another "
                "slot; one task is never shown by two slots",
            )
        api = ctx.api(task)
        protocol = ctx.protocol(task)
        try:
            status = await ctx.call(lambda: api.query_video(tid))
        except ProviderError as exc:
            return Result(
                OutcomeKind.UNKNOWN,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.UNKNOWN,
                    f"the provider did not confirm task {tid}: {exc.message}; nothing changed",
                    provider=ProviderAnswer(exc.code),
                    unchanged=Unchanged.NOT_CONFIRMED,
                ),
            )
        if state_for_status_word(status.status, protocol) is State.UNKNOWN:
            return Result(
                OutcomeKind.UNKNOWN,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.UNKNOWN,
                    f"task {tid} answered status {status.status!r}; nothing changed",
                    unchanged=Unchanged.STRANGE_STATUS,
                ),
            )
        detail = None
        if evidence is not None:
            w = evidence.window
            detail = (
                f"lookup attached provider task {tid}: the one candidate among "
                f"{len(evidence.listed)} task(s) listed between {w.start} and {w.end}"
            )
        new = await self.moves.to_attached(
            task,
            tid,
            status.raw,
            detail=detail,
            evidence=evidence.evidence() if evidence is not None else None,
        )
        if new is None:
            fresh = await ctx.store.task(task.id) or task
            if fresh.state == State.UNKNOWN:  # the guard held: another slot took the task
                return not_allowed(
                    ctx.view(fresh),
                    f"task {tid} was attached to another slot meanwhile; nothing changed",
                )
            return ctx.by_state(fresh)
        return ctx.by_state(await ctx.with_media(await self.lifecycle.advance(new)))

    # -- lookup -------------------------------------------------------------------------------
    async def _window(self, task: TaskRow) -> lookup.Window:
        """From the claim of the create that was lost (a slot re-claimed after a rejection:
        its last claim, not its first) to 60 s after that create's timeout ran out: the last
        send and its timeout as recorded when the create became unknown; without them (the
        process died while sending) the owner's lease, which outlived any send of that
        process."""
        from app.domain import lookup

        sent_at = timeout = None
        claimed = task.created_at
        found_send = False
        for event in reversed(await self.ctx.store.history(task.scope, task.slot_key)):
            if event.task_id != task.id:
                continue
            data = event.data or {}
            if not found_send and event.event == "unknown" and "sent_at" in data:
                sent_at, timeout = data.get("sent_at"), data.get("timeout")
                found_send = True
            if event.event == "submitted":  # the newest claim: the create that was lost
                claimed = max(claimed, event.at)
                break
        if isinstance(sent_at, (int, float)) and sent_at >= claimed:
            ran_out = float(sent_at) + float(timeout or self.ctx.config.timeout)
        elif task.lease_until is not None:
            ran_out = task.lease_until
        else:
            ran_out = claimed + self.ctx.config.timeout + LEASE_MARGIN
        return lookup.window(claimed, ran_out)

    async def _rivals(self, task: TaskRow, clock: lookup.Clock | None) -> list[lookup.Rival]:
        """This user's other slots that are ``unknown`` or ``submitting``, each with its own
        window (placed in the provider's clock as this slot's): any of them may have made a
        task that fits this slot too."""
        from app.domain import lookup

        others = await self.ctx.store.tasks_in_states(task.scope, [State.UNKNOWN, State.SUBMITTING])
        out = []
        for other in others:
            if other.id == task.id or other.kind != task.kind or other.provider_task_id:
                continue
            win = lookup.placed(await self._window(other), clock)
            out.append(lookup.Rival(other.request_id, other.params, win))
        return out

    async def _select(self, task: TaskRow) -> lookup.Selection:
        """List the tasks of the create's window in the provider's clock. The clock is read off
        the provider's answers: the latest one's before listing, and the list's own after it;
        when they disagree by more than a second (no answer yet, or the clock moved) the list
        is asked again in the window the fresh reading places."""
        from app.domain import lookup

        ctx = self.ctx
        own = await self._window(task)
        api = ctx.api(task)
        model = task.params.get("model")
        wanted = model if isinstance(model, str) else None
        clock = api.provider_clock() if isinstance(api, KeepsClock) else None
        for _ in range(2):
            win = lookup.placed(own, clock)
            listed = await ctx.call(partial(api.list_tasks, win.start, win.end, wanted))
            fresh = api.provider_clock() if isinstance(api, KeepsClock) else None
            if fresh is None or (clock is not None and abs(fresh.offset - clock.offset) <= 1.0):
                break
            clock = fresh
        ids = [t.task_id for t in listed]
        owned = await ctx.store.owners_of(task.provider, task.endpoint, ids, except_task=task.id)
        rivals = await self._rivals(task, clock)
        return lookup.select(task.params, win, listed, sorted(owned), rivals)

    @staticmethod
    def _report(found: lookup.Selection, attached: str | None = None) -> LookupReport:
        return LookupReport(
            found.window.start,
            found.window.end,
            len(found.listed),
            found.owned,
            tuple(Candidate(c.task_id, c.created_at, c.model, c.status) for c in found.candidates),
            attached,
            found.contested,
        )

    async def look(self, request_id: object) -> Result[LookupReport]:
        """The lookup without attaching: what the provider lists for this unknown slot (for
        the app's "1 matching task found at MiniMax — attach?"). Changes nothing."""
        ctx = self.ctx
        got = await ctx.actionable(request_id, Action.RECOVER)
        if isinstance(got, Result):
            return got
        task = got
        option = recover_options(task, ctx.caps(task), provider=ctx.provider.name)[
            RecoverWay.LOOKUP
        ]
        if not option.offered:
            return not_allowed(ctx.view(task), option.why_not)
        try:
            found = await self._select(task)
        except ProviderError as exc:
            return Result(
                OutcomeKind.UNKNOWN,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.UNKNOWN,
                    f"the provider's task list did not answer: {exc.message}",
                    provider=ProviderAnswer(exc.code),
                    unchanged=Unchanged.LIST_SILENT,
                ),
            )
        return Result(OutcomeKind.OK, task.request_id, ctx.view(task), payload=self._report(found))

    async def _lookup(self, task: TaskRow, options: dict[RecoverWay, RecoverOption]) -> Result[Any]:
        ctx = self.ctx
        option = options[RecoverWay.LOOKUP]
        if not option.offered:
            return not_allowed(ctx.view(task), option.why_not)
        from app.service import voice

        if voice.is_voice(task.kind):  # exact evidence: get_voice lists the slot's voice id
            return await voice.lookup(self, task)
        try:
            found = await self._select(task)
        except ProviderError as exc:
            return Result(
                OutcomeKind.UNKNOWN,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.UNKNOWN,
                    f"the provider's task list did not answer: {exc.message}; nothing changed",
                    provider=ProviderAnswer(exc.code),
                    unchanged=Unchanged.LIST_SILENT,
                ),
            )
        one = found.found
        if one is None:
            n = len(found.candidates)
            rivals = sorted({rid for _tid, by in found.contested for rid in by})
            what = (
                "no matching task"
                if n == 0
                else f"{n} matching task{'' if n == 1 else 's'} that "
                f"{'another slot' if len(rivals) == 1 else 'other slots'} of the same shape, "
                f"unknown or submitting, could have made ({', '.join(rivals)}), so none is "
                "chosen"
                if found.contested
                else f"{n} matching tasks (the list cannot show the prompt, so none is chosen)"
            )
            unchanged = (
                Unchanged.LOOKUP_NOTHING
                if not found.candidates
                else Unchanged.LOOKUP_CONTESTED
                if found.contested
                else Unchanged.LOOKUP_MANY
            )
            await ctx.store.add_event(
                ctx.scope,
                task.slot_key,
                task.id,
                "lookup",
                state=task.state,
                detail=f"lookup found {what} between {found.window.start} and "
                f"{found.window.end}; nothing changed",
                data={**found.evidence(), "unchanged": unchanged.value},
            )
            return Result(
                OutcomeKind.UNKNOWN,
                task.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.UNKNOWN,
                    f"lookup found {what} in the time window; nothing "
                    "changed. Attach one with --task-id ID",
                    unchanged=unchanged,
                ),
                payload=self._report(found),
            )
        out = await self._attach(task, one.task_id, options[RecoverWay.ATTACH], found)
        attached = (
            one.task_id
            if out.task is not None and out.task.provider_task_id == one.task_id
            else None
        )
        return Result(
            out.kind, out.request_id, out.task, out.problem, self._report(found, attached)
        )


def _refetch_facts(exc: Exception) -> dict[str, Any]:
    """Why a redownload got no media, as the history's data: the provider's code, or the
    reason typed (the file did not verify, or could not be written here)."""
    if isinstance(exc, ProviderError):
        return {"code": exc.code, "raw": exc.raw}
    reason = FailReason.NOT_WRITTEN if isinstance(exc, OSError) else FailReason.MEDIA_BAD
    return {"reason": reason.value}
