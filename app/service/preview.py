"""Hear a voice before paying for a voice-over (DESIGN.md "Voice design", issue 37).

* A designed voice whose voice slot kept its trial recording: the preview is that recording.
  Nothing is created, nothing sent; the answer is the voice slot (``replayed``).
* Any other voice (a system voice, a voice designed elsewhere, a designed voice whose trial is
  gone): a short speech slot named by :func:`app.domain.preview.request_id` — through the
  ordinary submit (claim, price, budget, quota, journal), so its cost is known before and
  counted once, and the same voice, model and text again are ``replayed``, never a second call.

:func:`quote` says which of the two it is and what it costs, before anything is paid; the price
is the form's own (:meth:`app.service.spend.Spending.estimate`).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from app.domain import params_voice, preview
from app.domain.errors import ValidationError
from app.domain.params_sound import DEFAULT_SPEECH_MODEL
from app.domain.states import State
from app.service import voice as voice_mod
from app.service.context import ServiceContext
from app.service.results import DraftCost, OutcomeKind, Result, invalid
from app.store.rows import TaskRow


@dataclass(frozen=True)
class PreviewQuote:
    """What hearing a voice takes, before anything is paid.

    ``request_id``: the slot that holds (or will hold) the preview. ``trial``: a designed
    voice's trial recording, nothing to pay. ``cost``: the speech slot's estimate (None for a
    trial). ``made``: the preview exists already, so hearing it again pays nothing.
    ``text``: the words it speaks (None for a trial)."""

    request_id: str
    trial: bool
    cost: DraftCost | None
    made: bool
    text: str | None


@dataclass(frozen=True)
class _Plan:
    request_id: str
    trial: TaskRow | None
    params: dict[str, Any] | None
    text: str | None


def has_trial(task: TaskRow) -> bool:
    """A successful voice slot that kept its trial recording."""
    results = task.results or {}
    return (
        task.state == State.SUCCESS and bool(results.get("audio_file")) and "trial" not in results
    )


async def trial_of(ctx: ServiceContext, voice: str) -> TaskRow | None:
    """The voice slot of this store that made ``voice`` and kept its trial recording."""
    if voice in voice_mod.SYSTEM_VOICE_IDS or not voice.startswith(params_voice.VOICE_ID_PREFIX):
        return None
    for row in await ctx.store.list_slots(ctx.scope, kind=voice_mod.VOICE, limit=10_000):
        if voice_mod.voice_id(row) == voice and has_trial(row):
            return row
    return None


async def _plan(ctx: ServiceContext, voice: object, text: object, model: object) -> _Plan:
    """Raises ValidationError naming ``voice`` or ``text``."""
    vid = preview.check_voice(voice)
    row = await trial_of(ctx, vid)
    if row is not None:
        return _Plan(row.request_id, row, None, None)
    if text is None:
        text = preview.default_text(vid)
    if not isinstance(text, str):
        raise ValidationError("text", "must be text")
    model_name = DEFAULT_SPEECH_MODEL if model is None else str(model)
    rid = preview.request_id(vid, text, model_name)
    return _Plan(rid, None, preview.params(vid, text, model_name), text)


async def quote(
    ctx: ServiceContext,
    estimate: Any,
    voice: object,
    text: object = None,
    model: object = None,
) -> Result[PreviewQuote]:
    """What hearing ``voice`` costs, before anything is paid (``estimate``: the form's price
    function, ``Spending.estimate``). Invalid parameters answer ``invalid`` naming the field."""
    try:
        plan = await _plan(ctx, voice, text, model)
    except ValidationError as exc:
        return invalid(None, exc)
    if plan.trial is not None:
        return Result(
            OutcomeKind.OK,
            plan.request_id,
            payload=PreviewQuote(plan.request_id, True, None, True, None),
        )
    assert plan.params is not None
    priced = estimate("speech", plan.params)
    if priced.kind is not OutcomeKind.OK:
        return Result(priced.kind, plan.request_id, problem=priced.problem)
    existing = await ctx.load(plan.request_id)
    made = existing is not None and existing.state == State.SUCCESS
    return Result(
        OutcomeKind.OK,
        plan.request_id,
        payload=PreviewQuote(plan.request_id, False, priced.payload, made, plan.text),
    )


async def hear(
    ctx: ServiceContext,
    submit: Callable[[str, str, Mapping[str, Any]], Awaitable[Result[Any]]],
    voice: object,
    text: object = None,
    model: object = None,
) -> Result[Any]:
    """The preview: a designed voice's trial (``replayed``, nothing sent), or the speech slot
    through ``submit`` (``created``, or ``replayed`` with nothing sent)."""
    try:
        plan = await _plan(ctx, voice, text, model)
    except ValidationError as exc:
        return invalid(None, exc)
    if plan.trial is not None:
        task = await ctx.with_media(plan.trial)
        return Result(OutcomeKind.REPLAYED, task.request_id, ctx.view(task))
    assert plan.params is not None
    return await submit(plan.request_id, "speech", plan.params)
