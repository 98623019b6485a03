"""The lifecycle after the create: sweep, resume, poll, query, wait, and the downloads that turn
the provider's success into a local one.

A task moves only on evidence: a provider answer on the whitelist, verified media, or a
provably gone owner. Every move goes through :class:`~app.service.transitions.Transitions`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, NoReturn

from app.domain import params_v2
from app.domain.errors import FailReason, ValidationError
from app.domain.numbers import number
from app.domain.protocols import V2
from app.domain.states import (
    IN_FLIGHT,
    POLLABLE,
    STOP_STATES,
    Action,
    State,
    asks_provider,
    state_for_status_word,
)
from app.providers.base import ForeignAnswer, ProviderError, VideoStatus
from app.providers.codes import failure_reason
from app.service.context import ServiceContext
from app.service.owner import owner_gone
from app.service.ratelimit import backoff, retry_delay
from app.service.results import OutcomeKind, Problem, ProblemCode, Result, invalid
from app.service.transitions import Transitions
from app.store.rows import TaskRow

if TYPE_CHECKING:  # loaded by the download that uses them, not by a read (issue 38)
    from app.service import media as media_mod

log = logging.getLogger(__name__)

DOWNLOAD_ATTEMPTS = 3
#: No backoff schedules a query further ahead than this (300 s and a margin): a next query
#: time beyond it was written by a machine whose clock runs ahead, and is treated as due.
MAX_POLL_GAP = 360.0
#: The longest ``--max-seconds`` a wait takes (a week).
MAX_WAIT_SECONDS = 7 * 86_400.0


def max_seconds_given(value: object) -> float | None:
    """``--max-seconds`` as given: None (no limit), or finite and in range (ValidationError)."""
    if value is None:
        return None
    return number("max_seconds", value, minimum=0.0, maximum=MAX_WAIT_SECONDS)


class Lifecycle:
    def __init__(self, ctx: ServiceContext, moves: Transitions) -> None:
        self.ctx = ctx
        self.moves = moves
        self._inflight: set[int] = set()
        self._poll_sem: asyncio.Semaphore | None = None
        #: The poller's running steps, by task id: each task's step runs on by itself (a stuck
        #: download holds its own slot, never another's next query).
        self._polling: dict[int, asyncio.Task[None]] = {}
        self._step_done = asyncio.Event()
        #: Steps that raised in a row, by task id: the poller puts such a task's next query off
        #: by a growing backoff (:meth:`_step_failed`), never asking it again at once.
        self._step_failures: dict[int, int] = {}
        #: Run at the start of every sweep: the journal's replay (set by the service).
        self.before_sweep: Callable[[], Awaitable[Any]] | None = None

    # -- start-up -------------------------------------------------------------------------
    async def sweep_submitting(self) -> list[TaskRow]:
        """Write journaled answers into their slots first (``before_sweep``, see
        :mod:`app.service.journal`), then turn ``submitting`` records whose owner is provably
        gone into ``unknown``. Every command that opens the store, and the desktop app's
        poller, starts here."""
        if self.before_sweep is not None:
            await self.before_sweep()
        out = []
        now: float | None = None
        for task in await self.ctx.store.tasks_in_states(None, [State.SUBMITTING]):
            if now is None:
                now = await self.ctx.store.now()  # leases are judged in the store's clock
            if owner_gone(
                task.owner_host,
                task.owner_pid,
                task.owner_started,
                task.lease_until,
                now,
                boot=task.owner_boot,
                pidns=task.owner_pidns,
            ):
                new = await self.moves.to_unknown_owner_gone(task)
                if new is not None:
                    out.append(new)
        return out

    async def resume(self) -> int:
        """Spread the next query of every in-flight task so a restart causes no burst."""
        ctx = self.ctx
        tasks = await ctx.store.tasks_in_states(ctx.scope, list(POLLABLE))
        now = time.time()
        gap = 1.0 / max(ctx.config.max_requests_per_second, 0.1)
        plan = []
        for i, task in enumerate(tasks):
            due = now + i * gap + ctx.rng.random() * gap
            if (
                task.next_poll_at is None
                or task.next_poll_at < due
                or (task.next_poll_at > now + MAX_POLL_GAP)
            ):  # written by a clock far ahead
                plan.append((task.id, due))
        await ctx.store.schedule_polls(plan)
        return len(tasks)

    # -- one step of evidence -----------------------------------------------------------------
    async def advance(self, task: TaskRow) -> TaskRow:
        """One step of evidence for ``task``: a provider query, or the download."""
        if task.id in self._inflight:
            return task
        self._inflight.add(task.id)
        try:
            return await self._advance(task)
        finally:
            self._inflight.discard(task.id)

    async def _advance(self, task: TaskRow) -> TaskRow:
        state = task.state
        if state == State.SUBMITTING:
            swept = await self.sweep_submitting()
            return next((t for t in swept if t.id == task.id), task)
        if state == State.DOWNLOADING:
            if task.kind == "prompt":  # text only: the answer held it, nothing to download
                return (await self.moves.to_success(task, [])) or task
            return await self.download(task)
        if state in POLLABLE or (state == State.UNKNOWN and task.provider_task_id):
            if not asks_provider(task.kind, self.ctx.caps(task), task.params):
                return task  # no task the provider can be asked about: nothing more to learn
            return await self._query_once(task)
        return task

    async def _query_once(self, task: TaskRow) -> TaskRow:
        ctx = self.ctx
        assert task.provider_task_id is not None
        api = ctx.api(task)
        try:
            status = await ctx.call(lambda: api.query_video(task.provider_task_id or ""))
        except ProviderError as exc:
            if isinstance(exc, ForeignAnswer):  # another task's answer: recorded, ignored
                await self._foreign_answer(task, exc)
            failures = task.poll_failures + 1
            delay = retry_delay(exc.retry_after, backoff(ctx.poll_interval, failures, rng=ctx.rng))
            return (await self.moves.query_failed(task, exc, failures, delay)) or task
        return await self.apply_status(task, status)

    async def _foreign_answer(self, task: TaskRow, exc: ForeignAnswer) -> None:
        """DESIGN.md: an answer naming a task id other than the one asked is not evidence about
        this slot — every one is kept in its history, nothing else changes."""
        await self.ctx.store.add_event(
            self.ctx.scope,
            task.slot_key,
            task.id,
            "foreign_answer",
            state=task.state,
            detail=exc.message,
            data={"asked": exc.asked, "named": exc.named, "raw": exc.raw},
        )

    async def apply_status(self, task: TaskRow, status: VideoStatus) -> TaskRow:
        """Move the task by one query answer: the status word through its protocol's
        whitelist; the provider's success starts the download at once (V2 links expire)."""
        if task.kind == "speech":  # asynchronous speech: its own words (app.service.sound)
            from app.service import sound

            return await sound.apply_speech_status(self, task, status)
        moves = self.moves
        protocol = self.ctx.protocol(task)
        word, state = status.status, task.state
        mapped = state_for_status_word(word, protocol)
        raw = {"raw": status.raw, "status": word}  # the word as data: the history says it
        # The answer is about the state it was asked in: a move another process made meanwhile
        # (the window and `slate wait` poll one store) stands, and this answer changes nothing.
        said: dict[str, Any] = {"provider_status": word, "poll_failures": 0, "expect": (state,)}
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
            code = str(status.error_code) if status.error_code else "provider_fail"
            msg = status.error_message or "the provider reports the task failed"
            new = await moves.to_fail(
                task,
                code=code,
                reason=failure_reason(status.error_code),
                message=msg,
                detail=f"{word}: {msg}",
                data=raw,
                **said,
            )
        elif mapped is State.CANCELLED:
            new = await moves.to_cancelled(
                task,
                detail="the provider reports the task cancelled (not billed)",
                data={**raw, "billed": False},
                **said,
            )
        elif mapped is State.DOWNLOADING and task.kind == "prompt":
            new = await self.prompt_answered(task, status.text, status.usage, raw, **said)
        elif mapped is State.DOWNLOADING and protocol == V2:
            if not status.url:  # billed all the same; a fresh query may link it (redownload)
                new = await moves.to_fail(
                    task,
                    code="no_media",
                    reason=FailReason.NO_MEDIA,
                    message="the provider reported success without a video URL",
                    detail=f"{word} without content.url",
                    data=raw,
                    provider_success=True,
                    results={"url_by_query": True, "usage": status.usage or {}},
                    **said,
                )
            else:
                results = {"url_by_query": True, "usage": status.usage or {}}
                new = await moves.to_downloading(
                    task,
                    event="status",
                    detail=f"{word} (usage {status.usage or {}})",
                    data=raw,
                    results=results,
                    error_code=None,
                    error_message=None,
                    next_poll_at=time.time(),
                    **said,
                )
                if new is None:
                    return await self.stored(task)
                return await self.download(new, link=status.url)
        elif mapped is State.DOWNLOADING and not status.file_id:
            new = await moves.to_fail(  # billed; a fresh query may name the file (redownload)
                task,
                code="no_media",
                reason=FailReason.NO_MEDIA,
                message="the provider reported Success without a file",
                detail="Success without a file id",
                data=raw,
                provider_success=True,
                results={"file_by_query": True},
                **said,
            )
        elif mapped is State.DOWNLOADING:
            results = {"file_id": status.file_id, "width": status.width, "height": status.height}
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
                return await self.stored(task)
            return await self.download(new)
        else:
            new = await moves.to_progress(task, mapped, word, raw, expect=(state,))
        return new if new is not None else await self.stored(task)

    async def stored(self, task: TaskRow) -> TaskRow:
        """The task as the store holds it now (a move of ours found it moved by another)."""
        return (await self.ctx.store.task(task.id)) or task

    async def prompt_answered(
        self,
        task: TaskRow,
        text: str | None,
        usage: dict[str, Any] | None,
        data: dict[str, Any],
        *,
        answer: bool = False,
        **said: Any,
    ) -> TaskRow | None:
        """A Context-IR task succeeded: its enhanced prompt is the slot's result (text, no
        media); success without one is a failure of the task (``no_media``)."""
        moves = self.moves
        if not text:
            return await moves.to_fail(
                task,
                code="no_media",
                reason=FailReason.NO_MEDIA,
                message="the provider reported success without an enhanced prompt",
                detail="succeeded without content.prompt",
                data=data,
                answer=answer,
                **said,
            )
        new = await moves.to_downloading(
            task,
            answer=answer,
            event="created" if answer else "status",
            detail=f"enhanced prompt of {len(text)} characters (usage {usage or {}})",
            data=data,
            results={"prompt": text, "usage": usage or {}},
            error_code=None,
            error_message=None,
            **said,
        )
        return await moves.to_success(new or task, [])

    # -- downloads ------------------------------------------------------------------------------
    async def download(
        self,
        task: TaskRow,
        preverified: list[media_mod.VerifiedMedia] | None = None,
        link: str | None = None,
    ) -> TaskRow:
        """Fetch and verify every media item; only then ``success``. ``link``: a V2 video's
        URL from the query just answered (tried first; later attempts query again)."""
        from app.service import media as media_mod
        from app.service import sound

        if sound.is_sound(task.kind):  # music and speech: app.service.sound
            return await sound.download(self, task)
        ctx = self.ctx
        folder = media_mod.media_folder(ctx.config.data_dir, task.tenant, task.slot_key)
        results = task.results or {}
        verified: list[media_mod.VerifiedMedia] = list(preverified or [])
        reason = None
        for attempt in range(1, DOWNLOAD_ATTEMPTS + 1):
            try:
                if task.kind == "video":
                    fresh = link if attempt == 1 else None
                    verified = [await self._download_video(task, results, folder, fresh)]
                else:
                    got = list(preverified or [])
                    for url in results.get("image_urls") or []:
                        got.append(
                            await media_mod.download_verified(
                                ctx.provider,
                                url,
                                folder=folder,
                                kind="image",
                                image_check=media_mod.ImageCheck.of(task.params),
                                on_bytes=ctx.bytes_heard(task),
                            )
                        )
                    verified = got
                reason = None
                break
            except media_mod.VerificationFailed as exc:
                reason = exc.reason
                await self._verification_failed(task, f"attempt {attempt}: {exc.reason}")
                if not exc.retryable and attempt >= 2:
                    break
            except OSError as exc:  # this machine's trouble, never a verdict on the task
                await self.not_written(task, exc)
            except ProviderError as exc:
                if exc.try_later:  # the read said nothing (timeout, 5xx, stall): ask again later
                    return await self.download_later(task, exc)
                reason = f"could not get a download link: {exc.message}"
                await self._verification_failed(
                    task, f"attempt {attempt}: {reason}", {"raw": exc.raw}
                )
        if reason is None and not verified:
            reason = "the provider answered success without any media item"
        if reason is not None:
            new = await self.moves.to_fail(
                task,
                expect=(State.DOWNLOADING,),
                code="verification_failed",
                reason=FailReason.MEDIA_BAD,
                message=reason,
                detail=f"media not verified: {reason}",
            )
        else:
            new = await self.moves.to_success(task, [v.row(ctx.config.data_dir) for v in verified])
        return new or (await ctx.store.task(task.id)) or task

    async def download_later(self, task: TaskRow, exc: ProviderError | OSError) -> TaskRow:
        """A read on the way to the media said nothing about the task (``exc.try_later``: a
        timeout, a reset, a 5xx, a rate limit, a stalled transfer): DESIGN.md "a read is never
        a verdict" — the task stays ``downloading`` and is asked again after a backoff (the
        provider's ``Retry-After`` where it gave one)."""
        ctx = self.ctx
        failures = task.poll_failures + 1
        after = exc.retry_after if isinstance(exc, ProviderError) else None
        delay = retry_delay(after, backoff(ctx.poll_interval, failures, rng=ctx.rng))
        return (await self.moves.download_later(task, exc, failures, delay)) or task

    async def not_written(self, task: TaskRow, exc: OSError) -> NoReturn:
        """This machine could not write the media (a full disk, a folder turned read-only):
        nothing about the task — it stays ``downloading`` and is fetched again later, the
        provider's result untouched — and the command says what is wrong with the data dir
        (:class:`BadConfiguration`, exit 2 naming the path) or raises ``exc`` as it is."""
        from app.unusable import media_not_written

        await self.download_later(task, exc)
        bad = media_not_written(exc, self.ctx.config)
        if bad is not None:
            raise bad from exc
        raise exc

    async def refetch(self, task: TaskRow) -> list[media_mod.VerifiedMedia]:
        """Download and verify a finished slot's media again, as the first download did (same
        checks), changing no state: for a slot whose local files were deleted. Raises what a
        download raises (VerificationFailed, ProviderError, OSError)."""
        from app.service import media as media_mod

        ctx = self.ctx
        folder = media_mod.media_folder(ctx.config.data_dir, task.tenant, task.slot_key)
        results = task.results or {}
        if task.kind == "video":
            return [await self._download_video(task, results, folder, None)]
        got = []
        for url in results.get("image_urls") or []:
            got.append(
                await media_mod.download_verified(
                    ctx.provider,
                    url,
                    folder=folder,
                    kind="image",
                    image_check=media_mod.ImageCheck.of(task.params),
                    on_bytes=ctx.bytes_heard(task),
                )
            )
        if not got:
            raise media_mod.VerificationFailed("the provider left no link to download again")
        return got

    async def _verification_failed(
        self, task: TaskRow, detail: str, data: dict[str, Any] | None = None
    ) -> None:
        await self.ctx.store.add_event(
            self.ctx.scope,
            task.slot_key,
            task.id,
            "verification_failed",
            state=task.state,
            detail=detail,
            data={**(data or {}), "reason": FailReason.MEDIA_BAD.value},
        )

    async def _download_video(
        self, task: TaskRow, results: dict[str, Any], folder: Path, link: str | None = None
    ) -> media_mod.VerifiedMedia:
        from app.service import media as media_mod

        if self.ctx.protocol(task) == V2:
            return await self._download_v2(task, folder, link)
        ctx = self.ctx
        file_id = str(results.get("file_id") or "")
        if not file_id and results.get("file_by_query"):  # Success came without one: ask again
            status = await ctx.call(lambda: ctx.provider.query_video(task.provider_task_id or ""))
            if state_for_status_word(status.status) is not State.DOWNLOADING:
                raise media_mod.VerificationFailed(
                    f"a fresh query answered {status.status!r}, not Success"
                )
            file_id = status.file_id or ""
            w, h = status.width, status.height
            results = {**results, "width": w, "height": h}
        if not file_id:
            raise media_mod.VerificationFailed("no file id to download")
        info = await ctx.call(lambda: ctx.provider.retrieve_file(file_id))
        if not info.download_url:
            raise media_mod.VerificationFailed("the file has no download link")
        w, h = results.get("width"), results.get("height")
        expect = (int(w), int(h)) if w and h else None
        asked = task.params.get("duration")  # the length asked is held as for V2
        seconds = float(asked) if isinstance(asked, int) and not isinstance(asked, bool) else None
        got = await media_mod.download_verified(
            ctx.provider,
            info.download_url,
            folder=folder,
            kind="video",
            declared_bytes=info.bytes or None,
            check=media_mod.VideoCheck(size=expect, seconds=seconds),
            on_bytes=ctx.bytes_heard(task),
        )
        await ctx.store.add_event(
            ctx.scope,
            task.slot_key,
            task.id,
            "downloaded",
            state=task.state,
            detail=f"{got.bytes} bytes from file {file_id}",
            data={"bytes": got.bytes},
        )
        return got

    async def _download_v2(
        self, task: TaskRow, folder: Path, link: str | None
    ) -> media_mod.VerifiedMedia:
        """A V2 video: its ``content.url`` (or, when that expired or failed, a fresh one from a
        new query — V2 has no file id to exchange), held to the size asked, the length and the
        stereo track."""
        from app.service import media as media_mod

        ctx = self.ctx
        api = ctx.api(task)
        if link is None:
            status = await ctx.call(lambda: api.query_video(task.provider_task_id or ""))
            if state_for_status_word(status.status, V2) is not State.DOWNLOADING:
                raise media_mod.VerificationFailed(
                    f"a fresh query answered {status.status!r}, not succeeded"
                )
            if not status.url:
                raise media_mod.VerificationFailed("a fresh query gave no video URL")
            link = status.url
        want = params_v2.expected_output(task.params)
        check = media_mod.VideoCheck(
            short_side=want.short_side,
            aspect=want.aspect,
            seconds=want.seconds,
            audio_channels=want.audio_channels,
        )
        got = await media_mod.download_verified(
            ctx.provider,
            link,
            folder=folder,
            kind="video",
            check=check,
            on_bytes=ctx.bytes_heard(task),
        )
        await ctx.store.add_event(
            ctx.scope,
            task.slot_key,
            task.id,
            "downloaded",
            state=task.state,
            detail=f"{got.bytes} bytes, {got.width}×{got.height}",
            data={"bytes": got.bytes, "width": got.width, "height": got.height},
        )
        return got

    # -- commands: query and wait ---------------------------------------------------------------
    async def query(self, request_id: object) -> Result[Any]:
        ctx = self.ctx
        got = await ctx.actionable(request_id, Action.QUERY)
        if isinstance(got, Result):
            return got
        task = got  # an unknown slot without a task id to ask about was refused above
        # one step, within the command's own deadline (a download cut there resumes later);
        # what the first request makes (the HTTP client and its modules, loaded on first use)
        # is made before the deadline starts: on a loaded machine it took most of a short one
        ctx.provider.warm()
        task = await self._advance_until(task, time.monotonic() + ctx.config.timeout)
        return ctx.by_state(await ctx.with_media(task))

    async def wait(self, request_id: object, max_seconds: float | None = None) -> Result[Any]:
        try:
            max_seconds = max_seconds_given(max_seconds)
        except ValidationError as exc:
            return invalid(request_id, exc)
        task = await self.ctx.load_or_answer(request_id)
        if isinstance(task, Result):
            return task
        return await self.wait_task(task, max_seconds)

    async def wait_after(self, first: Result[Any], max_seconds: float | None) -> Result[Any]:
        """Wait on after a submit; the answer keeps the submit's outcome (created, replayed)."""
        assert first.task is not None
        task = await self.ctx.store.task(first.task.id)
        assert task is not None
        out = await self.wait_task(task, max_seconds)
        if out.kind is OutcomeKind.OK:
            out = dataclasses.replace(out, kind=first.kind)
        return out

    async def _advance_until(self, task: TaskRow, deadline: float | None) -> TaskRow:
        """One step of evidence, cut at ``deadline`` (monotonic): a download that drips past
        it is abandoned — the task stays where it was (``downloading``), to resume later."""
        if deadline is None:
            return await self.advance(task)
        try:
            async with asyncio.timeout(max(deadline - time.monotonic(), 0.0)):
                return await self.advance(task)
        except TimeoutError:
            log.info("task %s: the command's deadline cut its step (%s)", task.id, task.state)
            return (await self.ctx.store.task(task.id)) or task

    async def download_within(
        self,
        task: TaskRow,
        seconds: float,
        preverified: list[media_mod.VerifiedMedia] | None = None,
    ) -> TaskRow:
        """:meth:`download`, abandoned after ``seconds`` (the task stays ``downloading``)."""
        try:
            async with asyncio.timeout(seconds):
                return await self.download(task, preverified)
        except TimeoutError:
            log.info("task %s: downloads not done within %g s; left downloading", task.id, seconds)
            return (await self.ctx.store.task(task.id)) or task

    async def wait_task(self, task: TaskRow, max_seconds: float | None) -> Result[Any]:
        """Query until a stop state (success, fail, unknown, rejected) or ``max_seconds``."""
        ctx = self.ctx
        deadline = None if max_seconds is None else time.monotonic() + max_seconds
        first = True
        while True:
            if task.state in STOP_STATES and not (
                first and task.state == State.UNKNOWN and task.provider_task_id
            ):
                return ctx.by_state(await ctx.with_media(task))
            if not first or task.state != State.SUBMITTING:
                task = await self._advance_until(task, deadline)
            first = False
            if task.state in STOP_STATES:
                return ctx.by_state(await ctx.with_media(task))
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return Result(
                    OutcomeKind.OK,
                    task.request_id,
                    ctx.view(task),
                    Problem(
                        ProblemCode.STILL_RUNNING, f"still {task.state} after {max_seconds:g} s"
                    ),
                )
            pause = ctx.poll_interval
            if task.next_poll_at and task.next_poll_at - time.time() <= MAX_POLL_GAP:
                pause = max(0.05, min(task.next_poll_at - time.time(), 300.0))
            if deadline is not None:
                pause = min(pause, max(deadline - now, 0.0))
            await asyncio.sleep(pause)
            fresh = await ctx.store.task(task.id)
            task = fresh or task

    # -- background polling ---------------------------------------------------------------------
    async def poll_due(self, limit: int | None = None) -> int:
        """Advance every task whose next query is due (bounded concurrency) and wait for those
        steps. Returns how many."""
        started = await self._start_due(limit)
        if started:
            await asyncio.gather(*started)
        return len(started)

    async def _start_due(self, limit: int | None = None) -> list[asyncio.Task[None]]:
        """Start a step for every due task that has none running; each runs on by itself."""
        ctx = self.ctx
        if self._poll_sem is None:
            self._poll_sem = asyncio.Semaphore(ctx.config.max_concurrent_polls)
        due = await ctx.store.due_tasks(
            ctx.scope, list(POLLABLE), time.time(), limit or ctx.config.max_concurrent_polls * 4
        )
        due = [t for t in due if t.id not in self._inflight and t.id not in self._polling]
        sem = self._poll_sem

        async def one(task: TaskRow) -> None:
            async with sem:
                try:
                    await self.advance(task)
                except Exception:  # noqa: BLE001 - one task's trouble must not stop the others
                    log.exception("polling task %s failed", task.id)
                    await self._step_failed(task)
                else:
                    self._step_failures.pop(task.id, None)

        def done(task_id: int) -> Callable[[asyncio.Task[None]], None]:
            def forget(_step: asyncio.Task[None]) -> None:
                self._polling.pop(task_id, None)
                self._step_done.set()

            return forget

        started = []
        for t in due:
            step = asyncio.create_task(one(t))
            self._polling[t.id] = step
            step.add_done_callback(done(t.id))
            started.append(step)
        return started

    async def _step_failed(self, task: TaskRow) -> None:
        """A step of the poller's raised: the task's next query after a backoff that grows with
        each step that raised in a row. Left due, the task would be started again at the next
        round, which a finished step starts at once: the poller would spin on it, querying the
        store and logging a traceback hundreds of times a second."""
        ctx = self.ctx
        failures = self._step_failures.get(task.id, 0) + 1
        self._step_failures[task.id] = failures
        delay = backoff(ctx.poll_interval, failures, rng=ctx.rng)
        try:
            await ctx.store.schedule_polls([(task.id, time.time() + delay)])
        except Exception:  # noqa: BLE001 - the store's trouble: the next round says it again
            log.exception("could not put off the next query of task %s", task.id)

    async def run_poller(self, stop: asyncio.Event) -> None:
        """Poll until ``stop`` is set: resume first, then keep every in-flight task moving.
        A round never waits for the steps it started (a download that hangs would hold every
        other slot's next query): the next round starts the steps that are due by then."""
        await self.sweep_submitting()
        await self.resume()
        stopped = asyncio.ensure_future(stop.wait())
        try:
            while not stop.is_set():
                self._step_done.clear()
                n = len(await self._start_due())
                nxt = await self.ctx.store.next_due_at(self.ctx.scope, list(POLLABLE))
                pause = 1.0 if nxt is None else min(max(nxt - time.time(), 0.02), 1.0)
                if n:
                    pause = min(pause, 0.05)
                elif self._polling and nxt is not None and nxt <= time.time():
                    pause = 0.5  # what is due is running; a step that ends wakes the loop
                woken = asyncio.ensure_future(self._step_done.wait())
                await asyncio.wait({stopped, woken}, timeout=pause, return_when="FIRST_COMPLETED")
                woken.cancel()
        finally:
            stopped.cancel()
            running = list(self._polling.values())
            for step in running:
                step.cancel()
            await asyncio.gather(*running, return_exceptions=True)

    async def running_count(self) -> int:
        return len(await self.ctx.store.tasks_in_states(self.ctx.scope, list(IN_FLIGHT)))
