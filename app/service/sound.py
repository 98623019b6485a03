"""Music and speech through the submit and lifecycle paths (DESIGN.md "Sound").

Music and synchronous speech are sent like an image: the claim decides, the create is sent
once, and the answer carries the sound. There is no task id and no query, so an answer lost on
the way leaves the slot ``unknown`` for good (create disabled; recover offers declare-failed
only: :func:`app.domain.states.recover_options`). An answer that did arrive is journaled first
(the sound's bytes with it, :mod:`app.service.journal`), then the bytes are written into the
slot's folder and the store learns where (``results.audio_file``), and only then is the sound
verified (:mod:`app.service.sound_media`): a crash anywhere after the answer loses nothing.

Asynchronous speech (long texts, protocol ``t2a``) has a task id: it is created and queried like
a V1 video through :class:`app.providers.sound.SpeechApi`; its status words are the ``t2a``
whitelist, ``Expired`` is a billed failure, and the file is fetched as soon as the task succeeds
(its link lives 9 hours).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from app.domain import params_sound
from app.domain.errors import FailReason
from app.domain.params_sound import MUSIC, MUSIC_CREATE_TIMEOUT, SPEECH
from app.domain.states import BILLED_FAILURES, State, state_for_status_word
from app.providers.base import ProviderError, VideoStatus, download_status_error
from app.providers.codes import failure_reason
from app.service import media as media_mod
from app.service import sound_media, voice
from app.service.context import ServiceContext
from app.service.results import OutcomeKind, Result
from app.store.rows import TaskRow

#: The lifecycle and the submitter call in here (they import this module, never the reverse):
#: ``Lifecycle`` has ``ctx``, ``moves``, ``download``, ``_verification_failed``; ``Submitter``
#: has ``ctx``, ``moves``, ``lifecycle``.
Lifecycle = Any
Submitter = Any

log = logging.getLogger(__name__)

DOWNLOAD_ATTEMPTS = 3


def is_sound(kind: object) -> bool:
    """Music, speech and a voice design (whose answer is a trial recording)."""
    return params_sound.is_sound(kind) or voice.is_voice(kind)


def is_async(task: TaskRow) -> bool:
    return params_sound.is_async(task.kind, task.params)


def body(task: TaskRow) -> dict[str, Any]:
    if voice.is_voice(task.kind):
        return voice.body(task)
    if task.kind == MUSIC:
        return params_sound.music_body(task.params)
    return params_sound.speech_body(task.params)


def create_timeout(ctx: ServiceContext, kind: str) -> float:
    """A song takes a minute or more: at least 300 s unless the user stated a timeout."""
    if kind == MUSIC and not ctx.config.timeout_stated:
        return max(MUSIC_CREATE_TIMEOUT, ctx.config.timeout)
    return ctx.config.timeout


async def send(ctx: ServiceContext, task: TaskRow, request: dict[str, Any]) -> Any:
    """Send the create once: the sound's answer (sync) or the speech task (async)."""
    if is_async(task):
        return await ctx.api(task).create_video(request)
    if voice.is_voice(task.kind):
        return await voice.send(ctx, request)
    return await ctx.provider.generate_sound(task.kind, request, create_timeout(ctx, task.kind))


def answer_dict(task: TaskRow, answer: Any, sent_at: float) -> dict[str, Any]:
    """The answer as the journal keeps it (the sound's bytes included, base64)."""
    if voice.is_voice(task.kind):
        return voice.answer_dict(answer, sent_at)
    if is_async(task):
        chars = answer.raw.get("usage_characters")
        return {
            "type": "speech_task",
            "task_id": answer.task_id,
            "raw": answer.raw,
            "sent_at": sent_at,
            "state": State.PROCESSING.value,
            "usage_characters": chars,
        }
    return {
        "type": "sound",
        "id": None,
        "audio": None if answer.audio is None else base64.b64encode(answer.audio).decode("ascii"),
        "url": answer.url,
        "extra": answer.extra,
        "raw": answer.raw,
        "trace_id": answer.trace_id,
        "problem": answer.problem,
        "sent_at": sent_at,
    }


def _usage(kind: str, extra: dict[str, Any] | None, fallback: Any = None) -> dict[str, Any]:
    """What the answer says was billed: speech its characters, music one song."""
    if kind == SPEECH:
        chars = (extra or {}).get("usage_characters", fallback)
        return {"usage_characters": chars} if chars is not None else {}
    return {"success_count": 1}


def check_for(task: TaskRow, extra: dict[str, Any] | None) -> sound_media.SoundCheck:
    if voice.is_voice(task.kind):
        return voice.check_for(task)
    fmt, rate, channels = params_sound.expected_audio(task.kind, task.params)
    if channels is None and extra:  # music: the channels MiniMax reports, where it does
        reported = extra.get("music_channel", extra.get("audio_channel"))
        if isinstance(reported, int) and not isinstance(reported, bool) and reported in (1, 2):
            channels = reported
    return sound_media.SoundCheck(fmt, rate, channels, params_sound.expected_seconds(extra))


# -- the synchronous answer -------------------------------------------------------------------
async def recorded_sync(
    submitter: Submitter, task: TaskRow, answered: dict[str, Any], recorded: Callable[[], None]
) -> Result[Any]:
    """The sound arrived with the create's answer: keep its bytes in the slot's folder, store
    where they are (``downloading``), settle the journal, then verify (``success`` or ``fail``).
    Run again from the journal, it finds the record already moved on and goes on from there."""
    if voice.is_voice(task.kind):
        return await voice.recorded(submitter, task, answered, recorded)
    ctx = submitter.ctx
    moves = submitter.moves
    extra = answered.get("extra") or {}
    folder = media_mod.media_folder(ctx.config.data_dir, task.tenant, task.slot_key)
    results: dict[str, Any] = {"extra_info": extra, "trace_id": answered.get("trace_id")}
    usage = _usage(task.kind, extra)
    if task.kind == SPEECH:
        if usage:
            results["usage"] = usage
    else:
        results.update(usage)  # music: one song (success_count)
    said = {"provider_status": "Success", "owner_pid": None, "lease_until": None}
    data = {"raw": answered.get("raw")}
    audio = answered.get("audio")
    if audio:
        raw_bytes = base64.b64decode(audio)
        try:
            path, digest = await asyncio.to_thread(
                sound_media.keep_bytes, raw_bytes, folder, str(task.params["format"])
            )
        except OSError as exc:  # a full disk: the store is told what arrived and was lost
            return await _not_kept(submitter, task, exc, data, results, recorded, said)
        results["audio_file"] = _relative(ctx, path)
        results["audio_sha256"] = digest
    elif answered.get("url"):
        results["audio_url"] = answered["url"]
    else:
        why = answered.get("problem") or "the answer holds no sound"
        new = await moves.to_fail(
            task,
            answer=True,
            code="no_media",
            reason=FailReason.NO_MEDIA,
            message=f"the provider answered without a usable sound ({why})",
            detail=why,
            data=data,
            results=results,
            provider_success=True,
            **said,
        )
        recorded()
        return Result(OutcomeKind.CREATED, task.request_id, ctx.view(new or task))
    seconds = params_sound.expected_seconds(extra)
    detail = f"{task.kind} answered" + (f" ({seconds:.1f} s reported)" if seconds else "")
    new = await moves.to_downloading(
        task, answer=True, event="created", detail=detail, data=data, results=results, **said
    )
    if new is None:  # the record moved on (a replay of the journal): go on from where it is
        new = await ctx.store.task(task.id)
    recorded()
    current = new or task
    if current.state == State.DOWNLOADING:
        current = await submitter.lifecycle.download_within(current, ctx.config.timeout, [])
    return Result(OutcomeKind.CREATED, task.request_id, ctx.view(current))


async def _not_kept(
    submitter: Submitter,
    task: TaskRow,
    exc: OSError,
    data: dict[str, Any],
    results: dict[str, Any],
    recorded: Callable[[], None],
    said: dict[str, Any],
) -> NoReturn:
    """The sound arrived in the answer's own bytes and this machine could not write them (a
    full disk). A synchronous sound has no id to fetch it again: the slot says so — made and
    billed, lost here — rather than "may or may not exist", and the command names the data
    dir (exit 2)."""
    from app.unusable import while_writing

    why = exc.strerror or str(exc)
    await submitter.moves.to_fail(
        task,
        answer=True,
        code="not_written",
        reason=FailReason.NOT_WRITTEN,
        message=f"the {task.kind} was made and billed, but this machine could not write it "
        f"({why}); a synchronous sound has no id to fetch it again",
        detail=f"{task.kind} answered; not written here: {why}",
        data={**data, "errno": exc.errno},
        results=results,
        provider_success=True,
        **said,
    )
    recorded()
    bad = while_writing(exc, submitter.ctx.config)
    if bad is not None:
        raise bad from exc
    raise exc


def _relative(ctx: ServiceContext, path: Path) -> str:
    data_dir = ctx.config.data_dir
    return str(path.relative_to(data_dir)) if path.is_relative_to(data_dir) else str(path)


def _absolute(ctx: ServiceContext, name: str) -> Path:
    path = Path(name)
    return path if path.is_absolute() else ctx.config.data_dir / path


# -- asynchronous speech: the query's answer --------------------------------------------------
async def apply_speech_status(lc: Lifecycle, task: TaskRow, status: VideoStatus) -> TaskRow:
    """Move an asynchronous speech task by one query answer (the ``t2a`` whitelist)."""
    moves = lc.moves
    word = status.status
    mapped = state_for_status_word(word, "t2a")
    raw = {"raw": status.raw, "status": word}  # the word as data: the history says it
    # applied to the state it was asked in, as a video's answer (Lifecycle.apply_status)
    said: dict[str, Any] = {"provider_status": word, "poll_failures": 0, "expect": (task.state,)}
    usage = _usage(SPEECH, None, (task.results or {}).get("created_usage_characters"))
    if mapped is State.UNKNOWN:
        new = await moves.to_unknown(
            task,
            code="unknown_status",
            reason=FailReason.UNRECOGNIZED_STATUS,
            why=f"the provider answered an unrecognized status {word!r}; nothing downloaded",
            detail=f"unrecognized status word {word!r}",
            data=raw,
            next_poll_at=None,
            **said,
        )
    elif mapped is State.FAIL:
        billed = word in BILLED_FAILURES.get("t2a", frozenset())
        if billed:
            code, msg = "expired", "the audio was made and is gone (its file expired); billed"
            reason = FailReason.NO_MEDIA
        else:
            code = str(status.error_code) if status.error_code else "provider_fail"
            reason = failure_reason(status.error_code)
            msg = status.error_message or "the provider reports the task failed (not billed)"
        extra: dict[str, Any] = {}
        if billed:
            extra = {"provider_success": True, "results": {**(task.results or {}), "usage": usage}}
        new = await moves.to_fail(
            task,
            code=code,
            reason=reason,
            message=msg,
            detail=f"{word}: {msg}",
            data=raw,
            **said,
            **extra,
        )
    elif mapped is State.DOWNLOADING and not status.file_id:
        new = await moves.to_fail(
            task,
            code="no_media",
            reason=FailReason.NO_MEDIA,
            message="the provider reported Success without a file",
            detail="Success without a file id",
            data=raw,
            provider_success=True,
            results={**(task.results or {}), "usage": usage},
            **said,
        )
    elif mapped is State.DOWNLOADING:
        results = {**(task.results or {}), "file_id": status.file_id, "usage": usage}
        new = await moves.to_downloading(
            task,
            event="status",
            detail=f"{word} (file {status.file_id})",
            data=raw,
            results=results,
            error_code=None,
            error_message=None,
            next_poll_at=time.time(),
            **said,
        )
        if new is None:
            held: TaskRow = await lc.stored(task)
            return held
        fetched: TaskRow = await lc.download(new)
        return fetched
    else:
        new = await moves.to_progress(task, mapped, word, raw, expect=(task.state,))
    if new is None:
        now: TaskRow = await lc.stored(task)
        return now
    moved: TaskRow = new
    return moved


# -- the download and the verification --------------------------------------------------------
async def download(lc: Lifecycle, task: TaskRow) -> TaskRow:
    """Verify the kept sound (sync), or fetch it first (a URL answer; an async task's file,
    with a fresh link each attempt); only then ``success``."""
    ctx = lc.ctx
    results = task.results or {}
    check = check_for(task, results.get("extra_info"))
    folder = media_mod.media_folder(ctx.config.data_dir, task.tenant, task.slot_key)
    reason: str | None = None
    got: media_mod.VerifiedMedia | None = None
    for attempt in range(1, DOWNLOAD_ATTEMPTS + 1):
        try:
            if results.get("audio_file"):
                path = _absolute(ctx, str(results["audio_file"]))
                got = await asyncio.to_thread(
                    sound_media.verified, path, check, results.get("audio_sha256")
                )
            else:
                url = results.get("audio_url")
                declared = None
                if not url:
                    file_id = str(results.get("file_id") or "")
                    if not file_id:
                        raise media_mod.VerificationFailed("no file id to download")
                    info = await ctx.call(lambda fid=file_id: ctx.provider.retrieve_file(fid))
                    url, declared = info.download_url, info.bytes
                    if not url:
                        raise media_mod.VerificationFailed("the file has no download link")
                path = await _fetch(ctx, task, url, folder, check.format, declared)
                got = await asyncio.to_thread(sound_media.verified, path, check)
            reason = None
            break
        except media_mod.VerificationFailed as exc:
            reason = exc.reason
            await lc._verification_failed(task, f"attempt {attempt}: {exc.reason}")
            if results.get("audio_file") or (not exc.retryable and attempt >= 2):
                break  # the kept bytes are what arrived: trying again changes nothing
        except OSError as exc:  # this machine's trouble, never a verdict on the task
            await lc.not_written(task, exc)
        except ProviderError as exc:
            if exc.try_later:  # the read said nothing (timeout, 5xx, stall): ask again later
                fetched: TaskRow = await lc.download_later(task, exc)
                return fetched
            reason = f"could not get a download link: {exc.message}"
            await lc._verification_failed(task, f"attempt {attempt}: {reason}", {"raw": exc.raw})
    if reason is not None or got is None:
        new = await lc.moves.to_fail(
            task,
            expect=(State.DOWNLOADING,),
            code="verification_failed",
            reason=FailReason.MEDIA_BAD,
            message=reason or "no sound",
            detail=f"sound not verified: {reason}",
        )
    else:
        new = await lc.moves.to_success(task, [got.row(ctx.config.data_dir)])
    return new or (await ctx.store.task(task.id)) or task


async def _fetch(
    ctx: ServiceContext, task: TaskRow, url: str, folder: Path, fmt: str, declared: int | None
) -> Path:
    """Download ``url`` into the slot's folder as ``<sha256>.<fmt>`` (fsynced)."""
    await asyncio.to_thread(media_mod._make_folder, folder)
    fd, name = tempfile.mkstemp(prefix=".part-", dir=folder)
    tmp = Path(name)
    heard = ctx.bytes_heard(task)
    try:
        digest = hashlib.sha256()
        size = 0
        try:
            async with ctx.provider.download(url) as dl:
                if dl.status_code != 200:
                    raise download_status_error(dl.status_code) or media_mod.VerificationFailed(
                        f"download answered HTTP {dl.status_code}"
                    )
                with os.fdopen(fd, "wb") as out:
                    fd = -1
                    async for chunk in dl.chunks:
                        size += len(chunk)
                        if size > sound_media.MAX_SOUND_BYTES:
                            raise media_mod.VerificationFailed("the sound is too large")
                        digest.update(chunk)
                        out.write(chunk)
                        if heard is not None:
                            heard(size, dl.content_length or declared)
                    out.flush()
                    os.fsync(out.fileno())
                length = dl.content_length
        except ProviderError as exc:
            if exc.try_later:  # nothing wrong with the sound: the caller tries again later
                raise
            raise media_mod.VerificationFailed(
                f"download broke off after {size} bytes: {exc.message}", retryable=True
            ) from None
        if length is not None and size != length:
            raise media_mod.VerificationFailed(f"truncated: {size} of {length} bytes arrived")
        if declared and size != declared:
            raise media_mod.VerificationFailed(
                f"size mismatch: {size} bytes, the provider declared {declared}"
            )
        if size == 0:
            raise media_mod.VerificationFailed("download was empty")
        final = folder / f"{digest.hexdigest()}.{fmt}"
        os.replace(tmp, final)
        return final
    finally:
        if fd != -1:
            os.close(fd)
        tmp.unlink(missing_ok=True)


# -- voices -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class VoiceList:
    """The voices a voice line may use. ``documented``: the provider could not be asked (or
    has no voice list), so these are MiniMax's documented system voices; ``problem``: why."""

    voices: tuple[tuple[str, str], ...]
    documented: bool = False
    problem: str | None = None


async def list_voices(provider: Any) -> Result[VoiceList]:
    """The provider's ``get_voice`` list, else the documented system voices (never empty)."""
    fallback = tuple(params_sound.SYSTEM_VOICES)
    ask = getattr(provider, "list_voices", None)
    if ask is None:
        return Result(OutcomeKind.OK, payload=VoiceList(fallback, True, None))
    try:
        found = tuple(await ask())
    except (ProviderError, OSError, ValueError) as exc:
        log.info("voice list: %s", exc)
        return Result(OutcomeKind.OK, payload=VoiceList(fallback, True, str(exc)))
    if not found:
        return Result(OutcomeKind.OK, payload=VoiceList(fallback, True, None))
    return Result(OutcomeKind.OK, payload=VoiceList(found))
