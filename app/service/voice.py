"""Voice design through the submit, lifecycle and recover paths (DESIGN.md "Voice design").

A voice slot is sent like music: the claim decides, the create is sent once with the slot's own
voice id (:func:`app.domain.params_voice.voice_id_for` its idempotency key), and the answer
carries the trial recording (hex). The answer is journaled first (:mod:`app.service.journal`),
the recording is kept in the slot's folder, then verified like any sound (it decodes, it lasts
more than 0 s) before ``success``.

What makes a voice slot different is that its lost answer is settled by exact evidence:

* a create answered 2039 ("duplicate voice id") with the slot's own id says an earlier create
  of this slot made the voice — the slot owns it (``success``, no trial recording: the history
  says it is gone), never a failure;
* ``recover --lookup`` on an ``unknown`` voice slot asks ``get_voice`` (``voice_generation``):
  the slot's id listed → the slot owns it (``success`` without the trial recording); not listed
  → nothing changes, and the evidence (what was asked, when, how many designed voices were
  listed, whether the create's window has passed) is kept for declare-failed.
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.domain import params_voice
from app.domain.params_sound import SYSTEM_VOICES
from app.domain.errors import FailReason, Unchanged
from app.domain.states import State
from app.providers.base import ProviderError
from app.service import media as media_mod
from app.service import sound_media
from app.service.context import ServiceContext
from app.service.results import (
    OutcomeKind,
    Problem,
    ProblemCode,
    ProviderAnswer,
    Result,
    VoiceEntry,
    VoicesReport,
)
from app.store.rows import TaskRow

log = logging.getLogger(__name__)

VOICE = params_voice.VOICE
#: What a voice design's trial recording is taken as when its bytes name no format.
TRIAL_FORMAT = "mp3"
#: MiniMax deletes a designed voice unused for this long.
UNUSED_DAYS = params_voice.UNUSED_DAYS
#: MiniMax's documented system voices: never deleted, never asked about by the 7-day clock.
SYSTEM_VOICE_IDS = frozenset(v for v, _ in SYSTEM_VOICES)
Submitter = Any
Recovery = Any


def is_voice(kind: object) -> bool:
    return kind == VOICE


def voice_id(task: TaskRow) -> str:
    """The voice id this slot sends and owns (from its idempotency key)."""
    return params_voice.voice_id_for(task.idempotency_key)


def body(task: TaskRow) -> dict[str, Any]:
    return params_voice.design_body(task.params, voice_id(task))


async def send(ctx: ServiceContext, request: dict[str, Any]) -> Any:
    return await ctx.provider.design_voice(request, ctx.config.timeout)


def answer_dict(answer: Any, sent_at: float) -> dict[str, Any]:
    """The answer as the journal keeps it (the trial recording's bytes included, base64)."""
    return {
        "type": "sound",
        "voice": True,
        "id": None,
        "voice_id": answer.voice_id,
        "duplicate": answer.duplicate,
        "audio": None if answer.audio is None else base64.b64encode(answer.audio).decode("ascii"),
        "url": None,
        "extra": {},
        "raw": answer.raw,
        "trace_id": answer.trace_id,
        "problem": answer.problem,
        "sent_at": sent_at,
    }


def check_for(task: TaskRow) -> sound_media.SoundCheck:
    """A trial recording: the format its bytes name, any sample rate and channels, > 0 s."""
    fmt = str((task.results or {}).get("audio_format") or TRIAL_FORMAT)
    return sound_media.SoundCheck(fmt, None)


async def recorded(
    submitter: Submitter, task: TaskRow, answered: dict[str, Any], settled: Callable[[], None]
) -> Result[Any]:
    """The create answered: keep the trial recording, store where it is (``downloading``),
    settle the journal, then verify it (``success`` or ``fail``). A 2039 answer: the slot owns
    its voice (``success``, no recording)."""
    ctx = submitter.ctx
    moves = submitter.moves
    vid = voice_id(task)
    said = {"provider_status": "Success", "owner_pid": None, "lease_until": None}
    data = {"raw": answered.get("raw")}
    results: dict[str, Any] = {"voice_id": vid, "trace_id": answered.get("trace_id")}
    if answered.get("duplicate"):
        new = await moves._answer(
            task,
            state=State.SUCCESS,
            event="voice_owned",
            detail=f"MiniMax answered 2039 (duplicate voice id) for this slot's own voice id "
            f"{vid}: an earlier create of this slot made the voice, and the slot owns it; its "
            "trial recording is gone (it came with that earlier answer)",
            data={**data, "evidence": "duplicate_voice_id", "voice_id": vid},
            results={**results, "trial": "gone"},
            error_code=None,
            error_message=None,
            next_poll_at=None,
            provider_success=True,
            **said,
        )
        settled()
        current = new or await ctx.store.task(task.id) or task
        return Result(OutcomeKind.CREATED, task.request_id, ctx.view(current))
    audio = answered.get("audio")
    if not audio:
        why = answered.get("problem") or "the answer holds no trial recording"
        new = await moves.to_fail(
            task,
            answer=True,
            code="no_media",
            reason=FailReason.NO_MEDIA,
            message=f"the provider answered without a usable trial recording ({why})",
            detail=why,
            data=data,
            results=results,
            provider_success=True,
            **said,
        )
        settled()
        return Result(OutcomeKind.CREATED, task.request_id, ctx.view(new or task))
    raw_bytes = base64.b64decode(audio)
    fmt = sound_media.sniff_sound(raw_bytes[:16]) or TRIAL_FORMAT
    folder = media_mod.media_folder(ctx.config.data_dir, task.tenant, task.slot_key)
    path, digest = await asyncio.to_thread(sound_media.keep_bytes, raw_bytes, folder, fmt)
    data_dir = ctx.config.data_dir
    results.update(
        audio_file=str(path.relative_to(data_dir)) if path.is_relative_to(data_dir) else str(path),
        audio_sha256=digest,
        audio_format=fmt,
    )
    new = await moves.to_downloading(
        task,
        answer=True,
        event="created",
        detail=f"voice {vid} designed; its trial recording arrived ({len(raw_bytes)} bytes)",
        data=data,
        results=results,
        **said,
    )
    if new is None:
        new = await ctx.store.task(task.id)
    settled()
    current = new or task
    if current.state == State.DOWNLOADING:
        current = await submitter.lifecycle.download_within(current, ctx.config.timeout, [])
    return Result(OutcomeKind.CREATED, task.request_id, ctx.view(current))


# -- recover --lookup: exact evidence from get_voice -------------------------------------------
async def lookup(recovery: Recovery, task: TaskRow) -> Result[Any]:
    """Ask ``get_voice`` whether the slot's own voice id exists. Listed → the slot owns it
    (``success``; the trial recording is gone). Not listed → nothing changes; the evidence goes
    to the history (declare-failed names it)."""
    ctx: ServiceContext = recovery.ctx
    vid = voice_id(task)
    asked_at = time.time()
    try:
        listed = await ctx.call(lambda: ctx.provider.get_voices("voice_generation"))
    except ProviderError as exc:
        return Result(
            OutcomeKind.UNKNOWN,
            task.request_id,
            ctx.view(task),
            Problem(
                ProblemCode.UNKNOWN,
                f"the provider's voice list did not answer: {exc.message}; nothing changed",
                provider=ProviderAnswer(exc.code),
                unchanged=Unchanged.LIST_SILENT,
            ),
        )
    window = await recovery._window(task)
    found = next((v for v in listed if v.voice_id == vid), None)
    evidence = {
        "voice_id": vid,
        "voice_type": "voice_generation",
        "asked_at": asked_at,
        "designed_voices_listed": len(listed),
        "window": {"start": window.start, "end": window.end},
        "window_passed": asked_at > window.end,
        "listed": found is not None,
    }
    if found is not None:
        new = await recovery.moves._move(
            task,
            expect=(State.UNKNOWN,),
            state=State.SUCCESS,
            error_code=None,
            error_message=None,
            next_poll_at=None,
            provider_status="Success",
            results={**(task.results or {}), "voice_id": vid, "trial": "gone"},
            event="recovered",
            detail=f"get_voice lists this slot's voice id {vid} among the designed voices: "
            "the slot owns the voice; its trial recording is gone (the create's answer was lost)",
            data={"lookup": evidence, "created_time": found.created_time},
            provider_success=True,
        )
        return ctx.by_state(new or await ctx.store.task(task.id) or task)
    passed = evidence["window_passed"]
    detail = (
        f"get_voice does not list this slot's voice id {vid} "
        f"({len(listed)} designed voice(s) listed); nothing changed. "
        + (
            "The create's window has passed: the voice was not made; declare it failed with "
            "this evidence"
            if passed
            else "The create's window has not passed yet: ask again later"
        )
    )
    await ctx.store.add_event(
        ctx.scope,
        task.slot_key,
        task.id,
        "lookup",
        state=task.state,
        detail=detail,
        data={"lookup": evidence, "unchanged": Unchanged.LOOKUP_NOTHING.value},
    )
    return Result(
        OutcomeKind.UNKNOWN,
        task.request_id,
        ctx.view(task),
        Problem(ProblemCode.UNKNOWN, detail, unchanged=Unchanged.LOOKUP_NOTHING),
    )


# -- the voice list ------------------------------------------------------------------------------
KIND_OF_GROUP = {
    "system_voice": "system",
    "voice_generation": "designed",
    "voice_cloning": "cloned",
}
VOICE_TYPE_OF = {
    "system": "system",
    "designed": "voice_generation",
    "cloned": "voice_cloning",
    "all": "all",
}


def day_of(value: object) -> str | None:
    """A date as ``YYYY-MM-DD`` from MiniMax's ``created_time`` (a date, a date and time, or
    Unix seconds or milliseconds) or a Unix time; None when it cannot be read."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) or (isinstance(value, str) and value.strip().isdigit()):
        seconds = float(value)
        if seconds > 1e11:  # milliseconds
            seconds /= 1000.0
        try:
            return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).date().isoformat()
        except (OverflowError, OSError, ValueError):
            return None
    text = str(value).strip()
    try:
        return dt.date.fromisoformat(text[:10]).isoformat()
    except ValueError:
        return None


def deleted_after(made: str | None, last_used: str | None) -> str | None:
    """The day MiniMax deletes a designed or cloned voice if it stays unused
    (:func:`app.domain.params_voice.deleted_after`)."""
    return params_voice.deleted_after(made, last_used)


def today() -> str:
    """Today as the 7-day clock counts days (``YYYY-MM-DD``, UTC, as :func:`day_of`)."""
    return day_of(time.time()) or dt.date.today().isoformat()


@dataclass(frozen=True)
class KnownHere:
    """What this store knows of voices: the voice slots that made one (voice id → RequestId and
    the day it was made) and the newest use of each voice by a successful speech slot."""

    owners: dict[str, tuple[str, str | None]]
    used: dict[str, str]

    def entry(self, voice: str, kind: str, created_time: object) -> VoiceEntry:
        """One voice with its dates: made (the provider's day, else its slot's), last used, and
        the day it is deleted if unused (designed and cloned voices only)."""
        owner = self.owners.get(voice)
        made = day_of(created_time) or (owner[1] if owner else None)
        last = self.used.get(voice)
        return VoiceEntry(
            voice,
            kind,
            made,
            last,
            None if kind == "system" else deleted_after(made, last),
            owner[0] if owner else None,
        )


async def known_here(ctx: ServiceContext) -> KnownHere:
    owners: dict[str, tuple[str, str | None]] = {}
    used: dict[str, float] = {}
    for row in await ctx.store.list_slots(ctx.scope, kind=VOICE, limit=10_000):
        if row.state == State.SUCCESS:
            owners[voice_id(row)] = (row.request_id, day_of(row.created_at))
    for row in await ctx.store.list_slots(ctx.scope, kind="speech", limit=10_000):
        voice = (row.params or {}).get("voice")
        if isinstance(voice, str) and row.state == State.SUCCESS:
            used[voice] = max(used.get(voice, 0.0), row.created_at)
    last = {v: d for v, at in used.items() if (d := day_of(at)) is not None}
    return KnownHere(owners, last)


async def check_kept(ctx: ServiceContext, norm: Mapping[str, Any], request_id: str | None) -> None:
    """The 7-day clock for a speech create: a designed or cloned voice — one a voice slot of
    this store made, or one ``get_voice`` lists as ``voice_generation`` / ``voice_cloning`` —
    past its "deleted after" day (:class:`KnownHere.entry`, the dates ``voice list`` shows) is
    refused before anything is sent (ValidationError naming ``voice`` and the day). A documented
    system voice is not asked about; a slot that exists already is left to the claim (a replay
    sends nothing). A voice list that does not answer: judged by what this store knows."""
    voice = norm.get("voice")
    if not isinstance(voice, str) or voice in SYSTEM_VOICE_IDS:
        return
    if request_id is not None and await ctx.load(request_id) is not None:
        return
    known = await known_here(ctx)
    try:
        listed = await ctx.call(lambda: ctx.provider.get_voices("all"))
    except (ProviderError, OSError, ValueError) as exc:
        log.info("voice list for the 7-day clock: %s", exc)
        listed = []
    found = next((v for v in listed if v.voice_id == voice), None)
    kind = KIND_OF_GROUP.get(found.group, "system") if found is not None else None
    if kind == "system":
        return
    if found is None and voice not in known.owners:
        return  # neither this store nor the provider knows it: MiniMax judges it
    entry = known.entry(voice, kind or "designed", found.created_time if found else None)
    params_voice.check_not_deleted(voice, entry.made, entry.last_used, today())


async def list_voices(ctx: ServiceContext, voice_type: object) -> Result[Any]:
    """``voice list``: ``get_voice`` plus what this store knows (the voice slots that made a
    voice, the speech slots that used one)."""
    from app.domain.errors import ValidationError
    from app.service.results import invalid

    if voice_type not in VOICE_TYPE_OF:
        return invalid(
            None,
            ValidationError("type", "must be system, designed, cloned or all"),
        )
    try:
        listed = await ctx.call(lambda: ctx.provider.get_voices(VOICE_TYPE_OF[str(voice_type)]))
    except ProviderError as exc:
        return Result(
            OutcomeKind.UNKNOWN,
            problem=Problem(
                ProblemCode.UNKNOWN,
                f"the provider's voice list did not answer: {exc.message}",
                provider=ProviderAnswer(exc.code),
            ),
        )
    known = await known_here(ctx)
    out = [
        known.entry(v.voice_id, KIND_OF_GROUP.get(v.group, "system"), v.created_time)
        for v in listed
    ]
    return Result(OutcomeKind.OK, payload=VoicesReport(tuple(out)))
