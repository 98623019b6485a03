"""Submit: validate, claim, answer from the record (replay, conflict), or send the create once.

The claim (:meth:`app.store.aio.Store.claim`) alone decides whether a create is sent. Nothing
retries a create by itself except after a definitive rate-limit refusal; anything unexpected
after the send is ``unknown``, never ``fail``.

Local media are read and probed before the claim (:mod:`app.service.inputs`), so bad input is
refused with nothing stored and nothing sent. A V2 create's local content travels inline or is
uploaded first (:func:`app.domain.params_v2.plan_body`); uploads happen after the claim, and
when one fails the create is never sent: the slot is ``rejected`` and may be created again.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import time
from pathlib import Path
from typing import Any, Callable, Mapping

from app.domain import derived, enhance, params_h3image, params_v2
from app.domain.cost import BudgetCheck, estimate, format_money
from app.domain.days import budget_day
from app.domain.errors import (
    BadConfiguration,
    FailReason,
    StoreBusy,
    Unchanged,
    ValidationError,
)
from app.domain.fingerprint import fingerprint
from app.domain.naming import project_of, suggest_next_request_id
from app.domain.params import FRAME_IMAGE_FIELDS, diff, normalize, request_body, units
from app.domain.prices import PriceTable
from app.domain.protocols import V2, protocol_of
from app.domain.slots import KINDS, SlotRef, unknown_kind, validate_request_id
from app.domain.states import STOP_STATES, State, same_intent
from app.providers.base import (
    Ambiguous,
    ImageItem,
    ImageResult,
    OverfullAnswer,
    ProviderError,
    Refused,
    V2Extras,
)
from app.providers.codes import reason_of
from app.service import h3image, inputs, journal
from app.service.context import ServiceContext
from app.service.lease import Lease, lease_seconds
from app.service.lifecycle import Lifecycle, max_seconds_given
from app.service.owner import owner_gone, this_owner
from app.service.ratelimit import backoff, retry_delay
from app.service.results import (
    OutcomeKind,
    Problem,
    ProblemCode,
    ProviderAnswer,
    Result,
    invalid,
)
from app.service.transitions import Transitions
from app.store.rows import BudgetRule, ClaimOutcome, ClaimRequest, ClaimWrite, Owner, TaskRow

log = logging.getLogger(__name__)

RATE_LIMIT_RETRIES = 3


def claim_request(
    ctx: ServiceContext,
    slot: SlotRef,
    kind: Any,
    norm: dict[str, Any],
    fp: str,
    now: float,
    table: PriceTable | None = None,
) -> ClaimRequest:
    """What a submit asks the store for: this slot with this intent — and, should it be free,
    the slot in ``submitting``, owned by this process under a lease (in the store's clock) that
    outlives the create's timeout, counted against today's quota and checked against the daily
    budget, with its cost estimate from ``table`` (built only then). The lease is renewed while
    the owner uploads and sends (:mod:`app.service.lease`)."""

    def write() -> ClaimWrite:
        budget = ctx.config.budget_daily
        return ClaimWrite(
            idempotency_key=slot.key(kind),
            request_id=slot.request_id,
            params=norm,
            units=units(kind, norm),
            owner=this_owner(),
            lease_until=ctx.store.clock() + lease_seconds(ctx),
            quota_limit=ctx.config.quota_limit(kind),
            day=budget_day(now),
            project=project_of(slot.request_id),
            cost=None if table is None else estimate(kind, norm, table),
            budget=None if budget is None or table is None else BudgetRule(budget, table),
        )

    return ClaimRequest(ctx.scope, slot.slot_key, kind, fp, now, write)


async def read_inputs(
    ctx: ServiceContext, kind: Any, params: Mapping[str, Any], request_id: str | None = None
) -> tuple[Mapping[str, Any], dict[str, inputs.LocalInput], dict[str, Any]]:
    """A create's parameters as the submit reads them — local files and data URLs read, probed
    and checked, then normalized: ``(params, local content by SHA-256, normalized)``. The one
    reading for a submit and a shot-list row (:mod:`app.service.batch`), so a row is what the
    same options given to ``slate submit`` are. ``request_id``: the slot they are for (a replay
    of it needs no pruned reference's bytes, :mod:`app.service.h3image`). Raises
    ValidationError naming the field."""
    local: dict[str, inputs.LocalInput] = {}
    if kind not in KINDS:
        raise unknown_kind(kind)
    if kind == enhance.KIND:
        pass  # text only: nothing local to read
    elif kind == "video" and derived.is_regeneration(params):
        pass  # nothing local is sent: the source is a task id
    elif protocol_of(kind, params) == V2:
        params, local = await asyncio.to_thread(inputs.prepare_v2, params)
    elif kind == "image" and params_h3image.is_h3_image(params.get("model")):
        params, local = await h3image.prepare(ctx, params, request_id)
    elif any(params.get(f) for f in FRAME_IMAGE_FIELDS):
        await asyncio.to_thread(inputs.check_v1_images, kind, params)
    norm = normalize(kind, params)
    if kind == "speech":
        from app.service import voice  # loaded by a voice line's submit, not by a read (issue 38)

        await voice.check_kept(ctx, norm, request_id)  # the 7-day clock of a designed voice
    return params, local, norm


def warm_for_send(ctx: ServiceContext) -> None:
    """What a send makes or loads on first use, made before the record (between the record and
    the send a crash leaves the slot unknown, so nothing slow may run there): the provider's
    client and modules, and the service's modules for a send's answer (music and speech, the
    verified downloads of images that come with the answer). A read loads none of them."""
    from app.service import media, sound  # noqa: F401 - loaded now, not after the record

    ctx.provider.warm()


class Submitter:
    def __init__(self, ctx: ServiceContext, lifecycle: Lifecycle, moves: Transitions) -> None:
        self.ctx = ctx
        self.lifecycle = lifecycle
        self.moves = moves
        self._replaying = False

    async def submit(
        self,
        request_id: Any,
        kind: Any,
        params: Mapping[str, Any],
        *,
        wait: bool = False,
        max_seconds: float | None = None,
        on_claimed: Callable[[], None] | None = None,
    ) -> Result[Any]:
        """``on_claimed`` is called once the claim has answered (or the input was refused):
        a batch lets the next row claim only then, so rows claim in the file's order."""
        called = False

        def claimed() -> None:
            nonlocal called
            if not called and on_claimed is not None:
                called = True
                on_claimed()

        try:
            return await self._submit(
                request_id, kind, params, wait=wait, max_seconds=max_seconds, on_claimed=claimed
            )
        finally:
            claimed()

    async def _submit(
        self,
        request_id: Any,
        kind: Any,
        params: Mapping[str, Any],
        *,
        wait: bool,
        max_seconds: float | None,
        on_claimed: Callable[[], None],
    ) -> Result[Any]:
        ctx = self.ctx
        plan: params_v2.BodyPlan | None = None
        try:
            slot = ctx.slot(validate_request_id(request_id))
            params, local, norm = await read_inputs(ctx, kind, params, slot.request_id)
            if (
                kind != enhance.KIND
                and not (kind == "video" and derived.is_regeneration(params))
                and protocol_of(kind, params) == V2
            ):
                plan = params_v2.plan_body(norm, ctx.provider.api(V2).caps.can_upload)
            max_seconds = max_seconds_given(max_seconds)
            table = ctx.prices
        except ValidationError as exc:
            return invalid(request_id, exc)
        fp = fingerprint(kind, norm)
        # what the provider's first request would make (its HTTP client, ~0.1-0.3 s in a fresh
        # process; the embedded demo provider itself) is made before the record: between the
        # record and the send, a crash leaves the slot unknown, so nothing slow may run there
        # (cheap once warm). Only when the claim is to write: a replay or a conflict answered
        # from the record sends nothing, and makes nothing for it.
        claim = await ctx.store.claim(
            claim_request(ctx, slot, kind, norm, fp, time.time(), table),
            before_write=lambda: warm_for_send(ctx),
        )
        on_claimed()
        if claim.outcome is ClaimOutcome.BUDGET_REFUSED:
            assert claim.budget is not None
            return await self._budget_refused(slot, claim.budget, table.currency)
        if claim.outcome is ClaimOutcome.QUOTA_REFUSED:
            limit = ctx.config.quota_limit(kind)
            need = units(kind, norm)
            await ctx.store.add_event(
                ctx.scope,
                slot.slot_key,
                None,
                "quota_refused",
                detail=f"{kind} quota: {claim.quota_used} of {limit} used today; "
                f"{need} more refused",
            )
            return Result(
                OutcomeKind.QUOTA_EXCEEDED,
                slot.request_id,
                problem=Problem(
                    ProblemCode.QUOTA_EXCEEDED,
                    f"today's {kind} quota is used up: "
                    f"{claim.quota_used} of {limit} (this create needs {need})",
                ),
            )
        task = claim.task
        assert task is not None
        if not claim.claimed:
            return await self._existing(
                slot, task, kind, fp, norm, wait=wait, max_seconds=max_seconds
            )
        ctx.notify(task)
        out = await self._create(task, local, plan)
        if wait and out.kind is OutcomeKind.CREATED:
            return await self.lifecycle.wait_after(out, max_seconds)
        return out

    async def _budget_refused(
        self, slot: SlotRef, check: BudgetCheck, currency: str
    ) -> Result[Any]:
        """The daily budget refused the claim: nothing was written or sent; history says why."""
        ctx = self.ctx
        reason = check.reason or "the daily budget refuses this create"
        await ctx.store.add_event(
            ctx.scope,
            slot.slot_key,
            None,
            "budget_refused",
            detail=reason,
            data={
                "budget": str(check.budget),
                "currency": currency,
                "spent_today": None if check.spent is None else str(check.spent),
                "estimate": None if check.estimate is None else str(check.estimate),
            },
        )
        left = check.remaining
        tail = "" if left is None else f" ({format_money(left, currency)} left today)"
        return Result(
            OutcomeKind.BUDGET_EXCEEDED,
            slot.request_id,
            problem=Problem(
                ProblemCode.BUDGET_EXCEEDED,
                f"the daily budget refuses this create; nothing was sent: {reason}{tail}",
            ),
        )

    async def _existing(
        self,
        slot: SlotRef,
        task: TaskRow,
        kind: str,
        fp: str,
        norm: dict[str, Any],
        *,
        wait: bool,
        max_seconds: float | None,
    ) -> Result[Any]:
        """Answer from the record: the same intent is replayed, any other is a conflict."""
        ctx = self.ctx
        if not same_intent(
            task.kind, task.fingerprint, task.user_hash, kind, fp, ctx.scope.user_hash
        ):
            changes = (
                diff(task.params, norm)
                if task.kind == kind
                else {"kind": {"stored": task.kind, "attempted": kind}}
            )
            await ctx.store.add_event(
                ctx.scope,
                slot.slot_key,
                task.id,
                "conflict",
                state=task.state,
                detail="changed: " + ", ".join(changes) if changes else "other owner",
                data={"attempted_fingerprint": fp, "diff": changes},
            )
            names = ", ".join(changes) or "owner"
            suggestion = suggest_next_request_id(slot.request_id)
            return Result(
                OutcomeKind.CONFLICT,
                slot.request_id,
                ctx.view(await ctx.with_media(task)),
                Problem(
                    ProblemCode.CONFLICT,
                    f"this RequestId is already used with other parameters ({names}); nothing "
                    f"was sent. Use a new RequestId for new parameters, e.g. {suggestion}",
                    diff=changes,
                    suggested_request_id=suggestion,
                ),
            )
        if task.state == State.SUBMITTING:
            swept = await self.lifecycle.sweep_submitting()
            task = next((t for t in swept if t.id == task.id), task)
        ctx.notes.add(
            slot.slot_key,
            task,
            "replayed",
            "same parameters: answered from the record, nothing sent",
        )
        task = await ctx.with_media(task)
        if task.state == State.UNKNOWN:
            return Result(
                OutcomeKind.UNKNOWN,
                slot.request_id,
                ctx.view(task),
                Problem(
                    ProblemCode.UNKNOWN,
                    "this slot's create has an unknown outcome; create is "
                    "disabled. Query the provider or recover.",
                    unchanged=Unchanged.STILL_UNKNOWN,
                    reason=FailReason.of(task.error_reason),
                ),
            )
        out: Result[Any] = Result(OutcomeKind.REPLAYED, slot.request_id, ctx.view(task))
        if wait and task.state not in STOP_STATES:
            return await self.lifecycle.wait_after(out, max_seconds)
        return out

    async def _v2_body(
        self, task: TaskRow, local: dict[str, inputs.LocalInput], plan: params_v2.BodyPlan
    ) -> dict[str, Any]:
        """The V2 body: small images inline as data URLs, the rest uploaded first. Raises
        :class:`Refused` (never sent) when a file changed or an upload failed."""
        ctx = self.ctx
        api = ctx.api(task)
        sources: dict[str, str] = {}
        said: list[str] = []
        for sha in sorted(plan.inline | plan.upload):
            item = local[sha]
            try:
                if sha in plan.inline:
                    sources[sha] = await asyncio.to_thread(item.data_url)
                    said.append(f"{item.filename} inline")
                    continue
                data = await asyncio.to_thread(item.read)
                up = await ctx.call(lambda: api.upload_file(data, item.filename))
            except inputs.InputChanged as exc:
                raise Refused(f"{exc}; the create was not sent", never_sent=True) from None
            except ProviderError as exc:
                raise Refused(
                    f"uploading {item.filename} failed ({exc.message}); the create was not sent",
                    never_sent=True,
                    code=exc.code,
                    raw=exc.raw,
                ) from None
            sources[sha] = up.url
            said.append(f"{item.filename} uploaded as {up.url}")
        if said:
            await ctx.store.add_event(
                ctx.scope,
                task.slot_key,
                task.id,
                "inputs",
                state=task.state,
                detail="; ".join(said),
                data={
                    "inputs": {
                        sha: {
                            "name": local[sha].filename,
                            "sent_as": sources[sha] if sha in plan.upload else "data URL",
                        }
                        for sha in sources
                    }
                },
            )
        return params_v2.request_body(task.params, sources)

    async def _create(
        self,
        task: TaskRow,
        local: dict[str, inputs.LocalInput] | None = None,
        plan: params_v2.BodyPlan | None = None,
    ) -> Result[Any]:
        """Send the create exactly once (again only after a definitive rate-limit refusal),
        holding the record's lease all the while, uploads included (:mod:`app.service.lease`)."""
        owner = Owner(
            task.owner_host or "",
            task.owner_pid or 0,
            task.owner_started or 0.0,
            task.owner_boot,
            task.owner_pidns,
        )
        async with Lease(self.ctx, task, owner) as lease:
            return await self._send(task, lease, local, plan)

    async def _send(
        self,
        task: TaskRow,
        lease: Lease,
        local: dict[str, inputs.LocalInput] | None,
        plan: params_v2.BodyPlan | None,
    ) -> Result[Any]:
        from app.service import sound  # music and speech: loaded by a send, not by a read

        ctx = self.ctx
        v2 = ctx.protocol(task) == V2
        h3_image = task.kind == "image" and params_h3image.is_h3_image(task.params.get("model"))
        regen = task.kind == "video" and derived.is_regeneration(task.params)
        prompt_kind = task.kind == enhance.KIND
        try:
            if prompt_kind:
                body = enhance.request_body(task.params)
            elif regen:
                body = derived.regeneration_body(task.params)
            elif v2:
                assert plan is not None, "a V2 create needs its body plan"
                body = await self._v2_body(task, local or {}, plan)
            elif h3_image:
                body = await self._h3_image_body(task, local or {})
            elif sound.is_sound(task.kind):
                body = sound.body(task)
            else:
                body = request_body(task.kind, task.params)
        except Refused as exc:
            new = await self.moves.to_rejected(task, exc)
            return Result(
                OutcomeKind.REJECTED,
                task.request_id,
                ctx.view(new or task),
                Problem(
                    ProblemCode.REJECTED,
                    exc.message,
                    provider=ProviderAnswer(exc.code),
                    reason=reason_of(exc),
                ),
            )
        api = ctx.api(task)
        attempt = 0
        while True:
            attempt += 1
            await ctx.limiter.acquire()
            if not await lease.confirm():  # declared unknown while it waited: never send
                return await self._not_sent(task)
            sent_at = time.time()
            try:
                if prompt_kind:
                    answer: Any = await self._extras().enhance_prompt(body)
                elif regen:
                    answer = await self._extras().regenerate_video(body)
                elif task.kind == "video":
                    answer = await api.create_video(body)
                elif sound.is_sound(task.kind):
                    answer = await sound.send(ctx, task, body)
                elif h3_image:
                    answer = await ctx.provider.generate_h3_image(
                        params_h3image.endpoint(task.params), body
                    )
                else:
                    answer = await ctx.provider.generate_image(body)
                break
            except Refused as exc:
                if exc.rate_limited and attempt <= RATE_LIMIT_RETRIES:
                    delay = retry_delay(
                        exc.retry_after, backoff(1.0, attempt, cap=20.0, rng=ctx.rng)
                    )
                    await ctx.store.add_event(
                        ctx.scope,
                        task.slot_key,
                        task.id,
                        "rate_limited",
                        state=task.state,
                        detail=f"1002 rate limit; nothing was created; sending again in "
                        f"{delay:.1f} s",
                        data={"raw": exc.raw, "retry_in": round(delay, 1)},
                    )
                    await asyncio.sleep(delay)  # the lease is renewed meanwhile
                    continue
                new = await self.moves.to_rejected(task, exc)
                return Result(
                    OutcomeKind.REJECTED,
                    task.request_id,
                    ctx.view(new or await self._fresh(task)),
                    Problem(
                        ProblemCode.REJECTED,
                        f"the provider refused the create (nothing was created): {exc.message}",
                        provider=ProviderAnswer(exc.code),
                        reason=reason_of(exc),
                    ),
                )
            except Exception as exc:  # noqa: BLE001 - anything after send: outcome unknown
                why = (
                    exc.message
                    if isinstance(exc, ProviderError)
                    else f"{type(exc).__name__}: {exc}"
                )
                if not isinstance(exc, Ambiguous):
                    log.exception("unexpected error while creating")
                raw = exc.raw if isinstance(exc, ProviderError) else None
                lost = reason_of(exc) if isinstance(exc, ProviderError) else FailReason.LOCAL_ERROR
                new = await self.moves.to_unknown_after_send(
                    task,
                    why,
                    raw,
                    sent_at,
                    ctx.config.timeout,
                    reason=lost,
                    code=exc.code_word if isinstance(exc, OverfullAnswer) else "unknown",
                )
                return Result(
                    OutcomeKind.UNKNOWN,
                    task.request_id,
                    ctx.view(new or await self._fresh(task)),
                    Problem(
                        ProblemCode.UNKNOWN,
                        f"the create's outcome is unknown "
                        f"({why}). Slate will not create again; query or recover.",
                        reason=lost,
                    ),
                )
        if prompt_kind:
            answered = self._prompt_answer(answer, sent_at)
        elif sound.is_sound(task.kind):
            answered = sound.answer_dict(task, answer, sent_at)
        elif task.kind == "video":
            answered = self._video_answer(answer, sent_at, v2)
        else:
            answered = self._image_answer(answer)
        entry = await self._journal(task, answered)
        stored: list[bool] = []  # set once the store holds the answer (its entry settled)
        try:
            return await self._record_answer(task, answered, entry, stored)
        except BadConfiguration:
            raise  # recorded; only the media could not be written here (a full disk): exit 2
        except Exception as exc:  # noqa: BLE001 - the answer is safe in the journal: say where
            if stored:
                return await self._stored_then_failed(task, exc)
            return self._kept(task, answered, entry, exc)
        finally:
            if entry is not None:
                journal.release(entry)

    # -- the create's answer: journal first, then the store ------------------------------------
    @staticmethod
    def _video_answer(answer: Any, sent_at: float, v2: bool) -> dict[str, Any]:
        return {
            "type": "video",
            "task_id": answer.task_id,
            "raw": answer.raw,
            "sent_at": sent_at,
            "state": (State.QUEUEING if v2 else State.PREPARING).value,
        }

    def _extras(self) -> V2Extras:
        api = self.ctx.provider.api(V2)
        if not isinstance(api, V2Extras):
            raise Refused(
                "this provider offers no MiniMax-H3 extras; nothing was sent", never_sent=True
            )
        return api

    @staticmethod
    def _prompt_answer(answer: Any, sent_at: float) -> dict[str, Any]:
        return {
            "type": "prompt",
            "task_id": answer.task_id,
            "id": answer.task_id,
            "status": answer.status,
            "prompt": answer.prompt,
            "usage": answer.usage,
            "raw": answer.raw,
            "sent_at": sent_at,
        }

    @staticmethod
    def _image_answer(result: ImageResult) -> dict[str, Any]:
        return {
            "type": "image",
            "id": result.id,
            "urls": [i.url for i in result.items if i.url],
            "inline": [
                base64.b64encode(i.data).decode("ascii") for i in result.items if i.data is not None
            ],
            "success_count": result.success_count,
            "failed_count": result.failed_count,
            "usage": result.usage,
            "raw": result.raw,
        }

    async def _h3_image_body(
        self, task: TaskRow, local: dict[str, inputs.LocalInput]
    ) -> dict[str, Any]:
        """The H3-Image body: local references (files, data URLs, other slots' results) as data
        URLs, read again and compared by SHA-256. Raises :class:`Refused` (never sent) when one
        changed or is gone."""
        sources: dict[str, str] = {}
        for item in task.params.get("reference_image") or ():
            sha = item.get("sha256")
            if not sha or sha in sources:
                continue
            got = local.get(sha)
            if got is None:
                raise Refused(
                    "a reference image is no longer at hand; the create was not sent",
                    never_sent=True,
                )
            try:
                sources[sha] = await asyncio.to_thread(got.data_url)
            except inputs.InputChanged as exc:
                raise Refused(f"{exc}; the create was not sent", never_sent=True) from None
        return params_h3image.request_body(task.params, sources)

    async def _journal(self, task: TaskRow, answered: dict[str, Any]) -> Path | None:
        """Make the answer durable before any store write (None: the journal could not be
        written; the store write is still tried, the log keeps the answer's ids)."""
        owner = Owner(
            task.owner_host or "",
            task.owner_pid or 0,
            task.owner_started or 0.0,
            task.owner_boot,
            task.owner_pidns,
        )
        try:
            folder = await self._journal_folder()
            return await asyncio.to_thread(journal.write, folder, task, owner, answered)
        except Exception as exc:  # noqa: BLE001 - the store write may still succeed
            log.error(
                "the create's answer for record %s could not be journaled (%s: %s); "
                "provider task %s, images %s",
                task.id,
                type(exc).__name__,
                exc,
                answered.get("task_id") or answered.get("id"),
                answered.get("urls"),
            )
            return None

    async def _journal_folder(self) -> Path:
        store = self.ctx.store
        store_id = await asyncio.to_thread(lambda: store.store_id)
        return journal.folder_for(self.ctx.config.data_dir, store_id)

    async def _record_answer(
        self,
        task: TaskRow,
        answered: dict[str, Any],
        entry: Path | None,
        stored: list[bool] | None = None,
    ) -> Result[Any]:
        """Write the answer into the slot (and, for images, download them); the journal entry
        goes as soon as the store holds the answer (and ``stored`` says so to the caller)."""
        ctx = self.ctx

        def recorded() -> None:
            if stored is not None:
                stored.append(True)
            if entry is not None:
                journal.settle(entry)

        if answered["type"] == "prompt":
            return await self._prompt_recorded(task, answered, recorded)
        if answered["type"] == "sound":
            from app.service import sound

            return await sound.recorded_sync(self, task, answered, recorded)
        if answered["type"] == "image":
            result = ImageResult(
                id=answered.get("id"),
                items=[ImageItem(url=u) for u in answered.get("urls") or []]
                + [ImageItem(data=base64.b64decode(b)) for b in answered.get("inline") or []],
                success_count=answered.get("success_count"),
                failed_count=answered.get("failed_count"),
                raw=answered.get("raw") or {},
                usage=answered.get("usage"),
            )
            log.info("image create for slot %s answered (id %s)", task.id, result.id)
            return await self._images_answered(task, result, recorded)
        log.info(
            "video create for slot %s answered: provider task %s", task.id, answered["task_id"]
        )
        new = await self.moves.to_created(
            task,
            answered["task_id"],
            answered.get("raw") or {},
            float(answered.get("sent_at") or time.time()),
            State(answered["state"]),
            **(
                {"results": {"created_usage_characters": answered.get("usage_characters")}}
                if answered["type"] == "speech_task"
                else {}
            ),
        )
        recorded()
        return Result(
            OutcomeKind.CREATED, task.request_id, ctx.view(new or await self._fresh(task))
        )

    async def _prompt_recorded(
        self, task: TaskRow, answered: dict[str, Any], recorded: Callable[[], None]
    ) -> Result[Any]:
        """Context-IR answered: the task inline (its prompt stored at once) or a task id (the
        slot waits in ``queueing`` and is queried like a V2 task)."""
        ctx = self.ctx
        task_id = answered["task_id"]
        said = {"provider_task_id": task_id, "owner_pid": None, "lease_until": None}
        if answered.get("status") is None:
            new = await self.moves.to_created(
                task,
                task_id,
                answered.get("raw") or {},
                float(answered.get("sent_at") or time.time()),
                State.QUEUEING,
            )
        elif answered.get("status") == "succeeded":
            new = await self.lifecycle.prompt_answered(
                task,
                answered.get("prompt"),
                answered.get("usage"),
                {"raw": answered.get("raw")},
                answer=True,
                provider_status="succeeded",
                **said,
            )
        else:  # an inline task not done yet: query it like any V2 task
            new = await self.moves.to_created(
                task,
                task_id,
                answered.get("raw") or {},
                float(answered.get("sent_at") or time.time()),
                State.QUEUEING,
            )
        recorded()
        return Result(
            OutcomeKind.CREATED, task.request_id, ctx.view(new or await self._fresh(task))
        )

    async def _stored_then_failed(self, task: TaskRow, exc: Exception) -> Result[Any]:
        """The store holds the answer (the slot is ``downloading`` or on its way); what failed
        came after it — recording the downloaded media, say, while another process held the
        write lock. The create is made and recorded: the slot goes on from its state (``query``
        or ``status`` finishes it), as after a download that ran out of time."""
        log.warning(
            "record %s: the answer is recorded; what came after it failed (%s: %s); the slot "
            "goes on from its state",
            task.id,
            type(exc).__name__,
            exc,
        )
        try:
            task = await self._fresh(task)
        except Exception as again:  # noqa: BLE001 - the view of the record we hold will do
            log.warning("record %s: could not be read again (%s)", task.id, again)
        return Result(OutcomeKind.CREATED, task.request_id, self.ctx.view(task))

    def _kept(
        self, task: TaskRow, answered: dict[str, Any], entry: Path | None, exc: Exception
    ) -> Result[Any]:
        """The store could not record a paid answer: say what happened and where it is."""
        what = (
            f"provider task {answered['task_id']}"
            if answered["type"] in ("video", "speech_task")
            else f"{task.kind} sound: {answered['url']}"
            if answered["type"] == "sound" and answered.get("url")
            else f"{task.kind} sound"
            if answered["type"] == "sound"
            else f"{len(answered.get('urls') or []) + len(answered.get('inline') or [])} image(s)"
            + (f": {', '.join(answered['urls'])}" if answered.get("urls") else "")
        )
        why = f"{type(exc).__name__}: {exc}"
        log.error(
            "record %s: the create answered (%s) but the store could not record it (%s); "
            "journal entry %s",
            task.id,
            what,
            why,
            entry,
        )
        if entry is not None:
            where = (
                f"nothing is lost: the answer is kept in {entry} and is written into the "
                f"slot the next time Slate opens this store (any command, e.g. `slate "
                f"status {task.request_id}`)"
            )
        elif answered["type"] == "sound" and answered.get("audio"):
            where = (
                "the journal could not be written either, and a synchronous sound has no id "
                "to fetch it again: its bytes are lost"
            )
        else:
            where = f"the journal could not be written either; the log keeps the answer ({what})"
        from app.unusable import while_writing

        bad = while_writing(exc, self.ctx.config)
        code = (
            ProblemCode.BAD_CONFIGURATION
            if bad is not None
            else ProblemCode.STORE_BUSY
            if isinstance(exc, StoreBusy)
            else ProblemCode.INTERNAL
        )
        said = f"{bad.sentence()} " if bad is not None else ""
        return Result(
            OutcomeKind.INVALID,
            task.request_id,
            problem=Problem(
                code,
                f"{said}The provider answered the create ({what}) but the store could not "
                f"record it ({why}); {where}",
                field=bad.setting if bad is not None else None,
            ),
        )

    async def replay_journal(self) -> int:
        """Write every journaled answer the store does not have yet into its slot (answers
        whose store write failed). Only this provider's and endpoint's entries: images are
        downloaded with this provider. Returns how many entries were settled."""
        if self._replaying:
            return 0
        folder = await self._journal_folder()
        entries = await asyncio.to_thread(journal.pending, folder)
        done = 0
        self._replaying = True
        try:
            for entry in entries:
                try:
                    done += await self._replay(entry)
                except Exception as exc:  # noqa: BLE001 - stays in the journal for next time
                    log.error(
                        "journal entry %s could not be written into its slot yet (%s: %s)",
                        entry.path,
                        type(exc).__name__,
                        exc,
                    )
        finally:
            self._replaying = False
        if done:
            log.info("journal: %d answer(s) written into their slots", done)
        return done

    async def _replay(self, entry: journal.Entry) -> bool:
        ctx = self.ctx
        d, answered = entry.data, entry.answer
        if (d.get("provider"), d.get("endpoint")) != (ctx.scope.provider, ctx.scope.endpoint):
            return False
        owner = d.get("owner") or {}
        if owner.get("pid") != os.getpid() and not owner_gone(
            owner.get("host"),
            owner.get("pid"),
            owner.get("started"),
            None,
            boot=owner.get("boot"),
            pidns=owner.get("pidns"),
        ):
            return False  # its own process is still at it
        task = await ctx.store.task(int(d.get("task_id") or 0))
        if task is None or task.slot_key != d.get("slot_key"):
            log.error(
                "journal entry %s names record %s, which this store does not hold; left in place",
                entry.path,
                d.get("task_id"),
            )
            return False
        answer_id = (
            answered.get("task_id")
            if answered.get("type") in ("video", "prompt", "speech_task")
            else answered.get("id")
        )
        if task.provider_task_id is not None and task.provider_task_id == answer_id:
            journal.settle(entry.path)  # the store had it already
            return True
        await ctx.store.add_event(
            task.scope,
            task.slot_key,
            task.id,
            "journal_replayed",
            state=task.state,
            detail="the create's answer, kept in the journal when the store could not record "
            "it, is written into the slot now",
        )
        await self._record_answer(task, answered, entry.path)
        return True

    async def _fresh(self, task: TaskRow) -> TaskRow:
        return (await self.ctx.store.task(task.id)) or task

    async def _not_sent(self, task: TaskRow) -> Result[Any]:
        """This process lost its hold on the record before a send (it was declared unknown
        while the process waited): the create is not sent. Nothing of this record was created
        — every earlier attempt was refused — so the record says so (``rejected``)."""
        new = await self.moves.to_rejected_not_sent(task)
        task = new or await self._fresh(task)
        return self.ctx.by_state(await self.ctx.with_media(task))

    async def _images_answered(
        self, task: TaskRow, result: ImageResult, recorded: Callable[[], None]
    ) -> Result[Any]:
        """Images come with the create's answer: verify and store them at once (URLs expire).
        ``recorded`` is called once the store holds the answer (before the downloads)."""
        from app.service import media as media_mod  # verified downloads: not a read's (issue 38)

        ctx = self.ctx
        urls = [i.url for i in result.items if i.url]
        results: dict[str, Any] = {
            "id": result.id,
            "image_urls": urls,
            "success_count": result.success_count,
            "failed_count": result.failed_count,
        }
        if result.usage:
            results["usage"] = result.usage
        folder = media_mod.media_folder(ctx.config.data_dir, task.tenant, task.slot_key)
        inline = []
        for item in result.items:
            if item.data is not None:
                try:
                    inline.append(
                        await asyncio.to_thread(
                            media_mod.store_inline,
                            item.data,
                            folder=folder,
                            kind="image",
                            image_check=media_mod.ImageCheck.of(task.params),
                        )
                    )
                except media_mod.VerificationFailed as exc:
                    results.setdefault("inline_errors", []).append(exc.reason)
        answered: dict[str, Any] = {
            "provider_task_id": result.id,
            "provider_status": "Success",
            "results": results,
            "owner_pid": None,
            "lease_until": None,
        }
        if not urls and not inline:
            blocked = bool(result.failed_count)
            message = (
                "every image was blocked by the provider's safety filter (not charged)"
                if blocked
                else "the provider answered success without any image"
            )
            new = await self.moves.to_fail(
                task,
                answer=True,
                code="blocked" if blocked else "no_media",
                reason=FailReason.SENSITIVE_OUTPUT if blocked else FailReason.NO_MEDIA,
                message=message,
                detail=message,
                data={"raw": result.raw},
                **answered,
            )
            recorded()
            return Result(OutcomeKind.CREATED, task.request_id, ctx.view(new or task))
        detail = f"{len(urls) + len(inline)} image(s) answered"
        if result.failed_count:
            detail += (
                f"; {result.failed_count} blocked by the provider's safety filter (not charged)"
            )
        new = await self.moves.to_downloading(
            task,
            answer=True,
            event="created",
            detail=detail,
            data={"raw": result.raw, "images": len(urls) + len(inline)},
            **answered,
        )
        recorded()
        # The downloads are bounded by the request timeout: a drip server never holds the
        # command; the slot stays `downloading` and `wait`/`query` go on.
        task = await self.lifecycle.download_within(new or task, ctx.config.timeout, inline)
        return Result(OutcomeKind.CREATED, task.request_id, ctx.view(task))
