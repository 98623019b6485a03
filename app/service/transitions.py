"""The state machine's moves, by the state they lead to: each writes the new state, the fields
that go with it and the slot's history event in one transaction, then tells the listeners.

``expect`` guards a move: it applies only while the task is still in one of those states (a
racing process or a second answer finds nothing to do and gets None). A create's answer (any
move out of ``submitting``) lets go of the owner and lease. An answer that arrives after the
record was declared ``unknown`` (its owner looked gone) attaches to it — evidence beats the
sweep — and the history says so; it is never thrown away.

::

    submitting ─ created ───────────▶ preparing ─▶ queueing ─▶ processing ─┐  (to_progress)
        │  └──── images answered ──▶ downloading ◀── provider success ─────┘
        │                              │    └─ media verified ──▶ success
        ├─ refused ─▶ rejected         └─ media not verified ──▶ fail ─ redownload ─▶ downloading
        ├─ ambiguous / owner gone ─▶ unknown ◀── unrecognized status word
        │                              ├─ attach ─▶ queueing
        │                              └─ declare failed ─▶ fail
        └─ success without media ─▶ fail ◀── provider fail

    queueing ─ cancel confirmed by the provider (V2) ─▶ cancelled   (also: V2 reports cancelled)
"""

from __future__ import annotations

import logging
import time
from typing import Any, Sequence

from app.domain.cost import ReportOutOfRange, reported, usage_of
from app.domain.errors import FailReason
from app.domain.states import State
from app.providers.base import ProviderError, Refused, Stalled
from app.providers.codes import reason_of
from app.service.context import ServiceContext
from app.store.rows import TaskRow

log = logging.getLogger(__name__)

_LET_GO: dict[str, Any] = {"owner_pid": None, "lease_until": None}  # the create's answer is stored
_FROM_SUBMITTING = (State.SUBMITTING,)
_LATE = " (this answer arrived after the record was declared unknown; attached to it)"


class Transitions:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def _move(
        self, task: TaskRow, *, provider_success: bool = False, **kw: Any
    ) -> TaskRow | None:
        if "error_code" in kw and kw["error_code"] is None:  # an error cleared: its reason too
            kw.setdefault("error_reason", None)
        try:
            reported = self._reported(task, kw, provider_success)
        except ReportOutOfRange as exc:  # kept raw (results, history), flagged, never priced
            reported = None
            note = (
                f"; the provider reported {exc}: kept raw in the history, not priced "
                "(counted at the estimate)"
            )
            if note not in (task.cost_basis or ""):
                kw["cost_basis"] = (task.cost_basis or "") + note
            kw["data"] = {**(kw.get("data") or {}), "report_out_of_range": exc.what}
        if reported is not None:
            kw["cost_reported"] = reported
        new = await self.ctx.store.transition(task, **kw)
        if new is not None:
            self.ctx.notify(new)
        return new

    def _reported(self, task: TaskRow, kw: dict[str, Any], provider_success: bool) -> str | None:
        """The provider's report, priced with the price table, when this move brings one: the
        provider said the generation succeeded (``downloading``, or a success without media),
        or the move stores results that carry a report (V2 ``usage``, images'
        ``success_count``). Recorded whatever the download does next; None: nothing to record
        (an earlier report is kept)."""
        success = provider_success or kw.get("state") == State.DOWNLOADING
        results = kw.get("results", task.results)
        if not success and not ("results" in kw and usage_of(task.kind, results, False)):
            return None
        usage = usage_of(task.kind, results, success)
        table = self.ctx.prices_or_none()
        if usage is None or table is None:
            return None
        if task.cost_currency is not None and task.cost_currency != table.currency:
            return None  # the estimate is in another currency: never mix the two
        priced = reported(task.kind, task.params, usage, table)
        return None if priced is None else str(priced)

    # -- the create's answer ------------------------------------------------------------------
    async def _answer(
        self,
        task: TaskRow,
        *,
        detail: str | None = None,
        data: dict[str, Any] | None = None,
        **kw: Any,
    ) -> TaskRow | None:
        """Store the create's answer: from ``submitting`` — or from ``unknown`` (no provider
        task id yet) when the sweep declared the owner gone while the answer was on its way.
        Only then, when the record has moved on otherwise (declared failed, attached to
        another id), is the answer kept in the slot's history alone."""
        new = await self._move(task, expect=_FROM_SUBMITTING, detail=detail, data=data, **kw)
        if new is not None:
            return new
        new = await self._move(
            task,
            expect=(State.UNKNOWN,),
            unset=("provider_task_id",),
            detail=(detail or "") + _LATE,
            data={**(data or {}), "late_answer": True},
            **kw,
        )
        if new is not None:
            log.warning(
                "task %s: the create's answer arrived after the record was declared "
                "unknown; attached (%s)",
                task.id,
                detail,
            )
            return new
        pid = kw.get("provider_task_id")
        if pid is not None:
            current = await self.ctx.store.task(task.id)
            state = current.state if current is not None else None
            log.warning(
                "task %s: the create's answer (provider task %s) arrived after the record "
                "was settled as %s; kept in its history",
                task.id,
                pid,
                state,
            )
            await self.ctx.store.add_event(
                task.scope,
                task.slot_key,
                task.id,
                "late_answer",
                state=state,
                detail=f"the create answered with provider task {pid} after the record was "
                f"settled ({state}); nothing changed. If it is this slot's task: recover "
                f"--task-id {pid}",
                data={**(data or {}), "provider_task_id": pid},
            )
        return None

    async def to_rejected(self, task: TaskRow, exc: Refused) -> TaskRow | None:
        """Definitively refused before any task was made: nothing billed, create may follow.
        The reason is typed (:func:`app.providers.codes.reason_of`); the provider's code and
        words are kept as they came."""
        reason = reason_of(exc)
        return await self._answer(
            task,
            state=State.REJECTED,
            error_code=str(exc.code) if exc.code is not None else "never_sent",
            error_message=exc.message,
            error_reason=reason.value,
            **_LET_GO,
            event="rejected",
            detail=exc.message,
            data={"raw": exc.raw, "code": exc.code, "reason": reason.value},
        )

    async def to_rejected_not_sent(self, task: TaskRow) -> TaskRow | None:
        """The owner lost its hold on the record before sending (declared unknown while it
        waited): no create of this record left the machine, so nothing was made."""
        why = (
            "the create was not sent: this process lost its hold on the slot while it waited "
            "(its record was declared unknown); nothing was created"
        )
        return await self._move(
            task,
            expect=(State.SUBMITTING, State.UNKNOWN),
            unset=("provider_task_id",),
            state=State.REJECTED,
            error_code="never_sent",
            error_message=why,
            error_reason=FailReason.NEVER_SENT.value,
            **_LET_GO,
            event="rejected",
            detail=why,
            data={"reason": FailReason.NEVER_SENT.value},
        )

    async def to_created(
        self,
        task: TaskRow,
        provider_task_id: str,
        raw: dict[str, Any],
        sent_at: float,
        state: State = State.PREPARING,
        **extra: Any,
    ) -> TaskRow | None:
        """A video create answered with its task id: query it from now on (a V2 task starts
        ``queued``, a V1 one ``Preparing``). ``extra``: more columns (an asynchronous speech
        task's ``results``)."""
        return await self._answer(
            task,
            state=state,
            provider_task_id=provider_task_id,
            provider_status=None,
            next_poll_at=time.time() + self.ctx.poll_interval,
            **_LET_GO,
            event="created",
            detail=f"provider task {provider_task_id}",
            data={"raw": raw, "sent_at": sent_at},
            **extra,
        )

    # -- unknown --------------------------------------------------------------------------------
    async def to_unknown(
        self,
        task: TaskRow,
        *,
        code: str,
        reason: FailReason,
        why: str,
        detail: str,
        data: dict[str, Any] | None = None,
        expect: Sequence[State] | None = None,
        **values: Any,
    ) -> TaskRow | None:
        """The create may or may not exist, or the provider said a word off the whitelist:
        create stays disabled; only query and recover are offered. ``reason``: why, typed (the
        event's data carries it too)."""
        return await self._move(
            task,
            expect=expect,
            state=State.UNKNOWN,
            error_code=code,
            error_message=why,
            error_reason=reason.value,
            event="unknown",
            detail=detail,
            data={**(data or {}), "reason": reason.value},
            **values,
        )

    async def to_unknown_after_send(
        self,
        task: TaskRow,
        why: str,
        raw: Any,
        sent_at: float,
        timeout: float,
        reason: FailReason,
        code: str = "unknown",
    ) -> TaskRow | None:
        """The create left and no answer can be trusted (``reason``: why, typed — no answer in
        time, the connection lost, an answer that cannot be read; ``code``: the stored code,
        when it is more than a lost answer). ``sent_at`` and the create's ``timeout`` are kept:
        a lookup's window ends 60 s after that timeout ran out."""
        return await self.to_unknown(
            task,
            expect=_FROM_SUBMITTING,
            code=code,
            reason=reason,
            why=why,
            detail=why,
            data={"raw": raw, "sent_at": sent_at, "timeout": timeout},
            **_LET_GO,
        )

    async def to_unknown_owner_gone(self, task: TaskRow) -> TaskRow | None:
        return await self.to_unknown(
            task,
            expect=_FROM_SUBMITTING,
            code="unknown",
            reason=FailReason.OWNER_GONE,
            why="the process that sent the create ended before the answer was stored; the task "
            "may or may not exist",
            detail=f"owner {task.owner_host} pid {task.owner_pid} is gone",
        )

    # -- fail, downloading, success ---------------------------------------------------------
    async def to_fail(
        self,
        task: TaskRow,
        *,
        code: str,
        reason: FailReason,
        message: str,
        detail: str,
        data: dict[str, Any] | None = None,
        event: str = "status",
        expect: Sequence[State] | None = None,
        answer: bool = False,
        **values: Any,
    ) -> TaskRow | None:
        """Terminal (recover offers a redownload only while results remain). ``answer``: the
        create's own answer (see :meth:`_answer`). ``code`` and ``message``: the provider's
        own (evidence) or Slate's; ``reason``: why, typed (the event's data carries it too)."""
        data = {**(data or {}), "reason": reason.value}
        values["error_reason"] = reason.value
        if answer:
            return await self._answer(
                task,
                state=State.FAIL,
                error_code=code,
                error_message=message,
                next_poll_at=None,
                event=event,
                detail=detail,
                data=data,
                **values,
            )
        return await self._move(
            task,
            expect=expect,
            state=State.FAIL,
            error_code=code,
            error_message=message,
            next_poll_at=None,
            event=event,
            detail=detail,
            data=data,
            **values,
        )

    async def to_downloading(
        self,
        task: TaskRow,
        *,
        event: str,
        detail: str,
        data: dict[str, Any] | None = None,
        expect: Sequence[State] | None = None,
        answer: bool = False,
        **values: Any,
    ) -> TaskRow | None:
        """The provider's success (only its claim): fetch and verify every media item next.
        ``answer``: the create's own answer (images; see :meth:`_answer`)."""
        if answer:
            return await self._answer(
                task, state=State.DOWNLOADING, event=event, detail=detail, data=data, **values
            )
        return await self._move(
            task,
            expect=expect,
            state=State.DOWNLOADING,
            event=event,
            detail=detail,
            data=data,
            **values,
        )

    async def to_success(self, task: TaskRow, media: list[dict[str, Any]]) -> TaskRow | None:
        """Every media item downloaded and verified."""
        return await self._move(
            task,
            expect=(State.DOWNLOADING,),
            state=State.SUCCESS,
            error_code=None,
            error_message=None,
            error_reason=None,
            next_poll_at=None,
            media=media,
            event="verified",
            detail=", ".join(
                f"{r['content_type']} {r['width']}×{r['height']} sha256 {r['sha256'][:12]}"
                for r in media
            ),
            data={"media": media},
        )

    # -- queries ----------------------------------------------------------------------------------
    async def to_progress(
        self,
        task: TaskRow,
        state: State,
        word: str,
        raw: dict[str, Any],
        *,
        expect: Sequence[State] | None = None,
    ) -> TaskRow | None:
        """A whitelisted in-flight word: keep querying. Leaving ``unknown`` this way is a
        recovery (its error is cleared); an unchanged word writes no event."""
        changed = task.provider_status != word or task.state != state
        was_unknown = task.state == State.UNKNOWN
        return await self._move(
            task,
            expect=expect,
            state=state,
            next_poll_at=time.time() + self.ctx.poll_interval,
            error_code=None if was_unknown else task.error_code,
            error_message=None if was_unknown else task.error_message,
            error_reason=None if was_unknown else task.error_reason,
            event=("recovered" if was_unknown else "status") if changed else None,
            detail=word,
            data=raw,
            provider_status=word,
            poll_failures=0,
        )

    async def query_failed(
        self, task: TaskRow, exc: ProviderError, failures: int, delay: float
    ) -> TaskRow | None:
        """No answer: same state, next query after a backoff (noted on the 1st and every 10th)."""
        note = failures == 1 or failures % 10 == 0
        return await self._move(
            task,
            poll_failures=failures,
            next_poll_at=time.time() + delay,
            event="query_failed" if note else None,
            detail=f"query failed ({exc.message}); next try in {delay:.0f} s",
            data={"raw": exc.raw, "code": exc.code},
        )

    async def download_later(
        self, task: TaskRow, exc: ProviderError | OSError, failures: int, delay: float
    ) -> TaskRow | None:
        """A download let go for its rate, a read on its way that said nothing (a timeout,
        a 5xx, a rate limit: ``exc.try_later``), or media this machine could not write (a full
        disk: ``OSError``): still ``downloading``, the next try after a backoff (noted on the
        1st and every 10th; always for this machine's own trouble)."""
        if isinstance(exc, OSError):
            return await self._move(
                task,
                expect=(State.DOWNLOADING,),
                poll_failures=failures,
                next_poll_at=time.time() + delay,
                event="media_not_written",
                detail=f"could not write the media here ({exc.strerror or exc}); "
                f"the result is still at the provider; next try in {delay:.0f} s",
                data={"errno": exc.errno, "billed": True},
            )
        note = failures == 1 or failures % 10 == 0
        event = "download_stalled" if isinstance(exc, Stalled) else "query_failed"
        return await self._move(
            task,
            expect=(State.DOWNLOADING,),
            poll_failures=failures,
            next_poll_at=time.time() + delay,
            event=event if note else None,
            detail=f"{exc.message}; next try in {delay:.0f} s",
            data={"next_try_in": round(delay)}
            | ({} if exc.raw is None else {"raw": exc.raw, "code": exc.code}),
        )

    async def to_cancelled(
        self,
        task: TaskRow,
        *,
        detail: str,
        data: dict[str, Any] | None = None,
        expect: Sequence[State] | None = None,
        **values: Any,
    ) -> TaskRow | None:
        """The provider confirmed that the queued task is cancelled: terminal, not billed."""
        return await self._move(
            task,
            expect=expect,
            state=State.CANCELLED,
            error_code=None,
            error_message=None,
            error_reason=None,
            next_poll_at=None,
            event="cancelled",
            detail=detail,
            data=data,
            **values,
        )

    # -- recover ------------------------------------------------------------------------------
    async def to_attached(
        self,
        task: TaskRow,
        provider_task_id: str,
        raw: dict[str, Any],
        *,
        detail: str | None = None,
        evidence: dict[str, Any] | None = None,
    ) -> TaskRow | None:
        """The unknown create's task was found (by the user, or by lookup): continue from its
        answer. Only while no other slot holds that task (checked in the same transaction)."""
        return await self._move(
            task,
            expect=(State.UNKNOWN,),
            provider_task_id=provider_task_id,
            state=State.QUEUEING,
            error_code=None,
            error_message=None,
            error_reason=None,
            event="recovered",
            detail=detail or f"attached provider task {provider_task_id}",
            data={"raw": raw, **({"lookup": evidence} if evidence else {})},
            unique_provider_task=True,
        )
