"""The Slate service: submit semantics, lifecycle (query, wait, poll, resume), recover, export.

One instance serves one tenant and user against one provider and endpoint. The CLI and the
GUI both drive it; it enforces the allowed-actions table of :mod:`app.domain.states`.
Store calls run in worker threads so an event loop (the GUI's) never waits on a disk.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
import shutil
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping, TypeVar

from app.config import Config
from app.domain import handles
from app.domain.errors import ForeignHandleError, HandleError, ValidationError
from app.domain.fingerprint import fingerprint
from app.domain.params import diff, normalize, request_body, units
from app.domain.naming import suggest_next_request_id
from app.domain.slots import KINDS, SlotRef, validate_request_id
from app.domain.states import (
    IN_FLIGHT,
    POLLABLE,
    Action,
    State,
    allowed_actions,
    is_allowed,
    state_for_status_word,
)
from app.providers.base import Ambiguous, Provider, ProviderError, Refused
from app.service import media as media_mod
from app.service.owner import owner_gone, this_owner
from app.service.ratelimit import RateLimiter, backoff
from app.service.views import (
    EXIT_FAIL,
    EXIT_STILL_RUNNING,
    MediaView,
    Outcome,
    TaskView,
    error,
)
from app.domain.days import local_day
from app.domain.naming import project_of
from app.store.aio import Store
from app.store.rows import ClaimOutcome, ClaimRequest, Scope, TaskRow

log = logging.getLogger(__name__)
T = TypeVar("T")

RATE_LIMIT_RETRIES = 3
DOWNLOAD_ATTEMPTS = 3
SUBMIT_LEASE_MARGIN = 120.0
NOTE_FLUSH_DELAY = 0.25
STOP_STATES = {State.SUCCESS.value, State.FAIL.value, State.UNKNOWN.value, State.REJECTED.value}


class SlateService:
    def __init__(
        self,
        config: Config,
        store: Store,
        provider: Provider,
        secret: bytes,
        *,
        poll_interval: float | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.provider = provider
        self.secret = secret
        self.tenant = config.tenant
        self.user = config.user
        ref = SlotRef.parse(config.tenant, config.user, "placeholder-id")
        self.scope = Scope(ref.tenant, ref.user_hash, provider.name, provider.endpoint)
        default_poll = 1.0 if provider.name == "demo" else 10.0
        self.poll_interval = poll_interval or config.poll_interval or default_poll
        self.limiter = RateLimiter(config.max_requests_per_second)
        self.rng = rng or random.Random()
        self.listeners: list[Callable[[TaskView], None]] = []
        self._inflight: set[int] = set()
        self._pending_notes: list[dict[str, Any]] = []
        self._note_flush: asyncio.Task[None] | None = None
        self._poll_sem: asyncio.Semaphore | None = None

    # -- plumbing -----------------------------------------------------------------------
    def _slot(self, request_id: str) -> SlotRef:
        return SlotRef.parse(self.tenant, self.user, request_id)

    def handle_for(self, task: TaskRow) -> str:
        return handles.sign(self.secret, "task", task.tenant, task.user_hash, task.id)

    def view(self, task: TaskRow) -> TaskView:
        media = [
            MediaView(
                path=str((self.config.data_dir / m.path) if not Path(m.path).is_absolute() else m.path),
                sha256=m.sha256, bytes=m.bytes, content_type=m.content_type, width=m.width,
                height=m.height, duration=m.duration,
                handle=handles.sign(self.secret, "file", task.tenant, task.user_hash, m.id),
            )
            for m in task.media
        ]
        err = None
        if task.error_code or task.error_message:
            err = {"code": task.error_code, "message": task.error_message}
        return TaskView(
            id=task.id, request_id=task.request_id, handle=self.handle_for(task), kind=task.kind,
            state=task.state, provider=task.provider, provider_task_id=task.provider_task_id,
            provider_status=task.provider_status, fingerprint=task.fingerprint,
            params=task.params, media=media, error=err,
            allowed_actions=[str(a) for a in allowed_actions(task.state, has_results=task.has_results)],
            created_at=task.created_at, updated_at=task.updated_at,
            next_poll_at=task.next_poll_at, has_results=task.has_results, project=task.project,
        )

    def _notify(self, task: TaskRow | None) -> None:
        if task is None:
            return
        view = self.view(task)
        for listener in list(self.listeners):
            try:
                listener(view)
            except Exception:  # noqa: BLE001 - a listener's bug must not break the lifecycle
                log.exception("task listener failed")

    async def _transition(self, task: TaskRow, **kw: Any) -> TaskRow | None:
        new = await self.store.transition(task, **kw)
        if new is not None:
            self._notify(new)
        return new

    async def _call(self, coro_fn: Callable[[], Awaitable[T]]) -> T:
        await self.limiter.acquire()
        return await coro_fn()

    def _not_found(self, request_id: str | None) -> Outcome:
        return Outcome(
            "not_found", request_id,
            error=error("not_found", "no such slot for this tenant and user"),
        )

    @staticmethod
    def _invalid(request_id: Any, exc: ValidationError) -> Outcome:
        rid = request_id if isinstance(request_id, str) else None
        return Outcome("invalid", rid, error=error("invalid", str(exc), field=exc.field))

    async def _load(self, request_id: str) -> TaskRow | None:
        return await self.store.slot(self.scope, self._slot(request_id).slot_key)

    # -- start-up -------------------------------------------------------------------------
    async def sweep_submitting(self) -> list[TaskRow]:
        """Turn ``submitting`` records whose owner is provably gone into ``unknown``."""
        out = []
        for task in await self.store.tasks_in_states(None, [State.SUBMITTING]):
            if owner_gone(task.owner_host, task.owner_pid, task.owner_started, task.lease_until):
                new = await self._transition(
                    task, expect=[State.SUBMITTING.value], state=State.UNKNOWN.value,
                    error_code="unknown",
                    error_message="the process that sent the create ended before the answer "
                    "was stored; the task may or may not exist",
                    event="unknown",
                    detail=f"owner {task.owner_host} pid {task.owner_pid} is gone",
                )
                if new is not None:
                    out.append(new)
        return out

    async def resume(self) -> int:
        """Spread the next query of every in-flight task so a restart causes no burst."""
        tasks = await self.store.tasks_in_states(self.scope, list(POLLABLE))
        now = time.time()
        gap = 1.0 / max(self.config.max_requests_per_second, 0.1)
        plan = []
        for i, task in enumerate(tasks):
            due = now + i * gap + self.rng.random() * gap
            if task.next_poll_at is None or task.next_poll_at < due:
                plan.append((task.id, due))
        await self.store.schedule_polls(plan)
        return len(tasks)

    # -- submit ---------------------------------------------------------------------------
    async def submit(
        self, request_id: Any, kind: Any, params: Mapping[str, Any], *, wait: bool = False,
        max_seconds: float | None = None,
    ) -> Outcome:
        try:
            slot = self._slot(validate_request_id(request_id))
            if kind not in KINDS:
                raise ValidationError("kind", "must be image or video")
            norm = normalize(kind, params)
        except ValidationError as exc:
            return self._invalid(request_id, exc)
        fp = fingerprint(kind, norm)
        n_units = units(kind, norm)
        now = time.time()
        claim = await self.store.claim(ClaimRequest(
            self.scope, slot_key=slot.slot_key, idempotency_key=slot.key(kind),
            request_id=slot.request_id, kind=kind, fingerprint=fp, params=norm, units=n_units,
            owner=this_owner(), lease_until=now + self.config.timeout + SUBMIT_LEASE_MARGIN,
            quota_limit=self.config.quota_limit(kind), day=local_day(now), now=now,
            project=project_of(slot.request_id),
        ))
        if claim.outcome is ClaimOutcome.QUOTA_REFUSED:
            limit = self.config.quota_limit(kind)
            await self.store.add_event(self.scope, slot.slot_key, None, "quota_refused",
                detail=f"{kind} quota: {claim.quota_used} of {limit} used today; {n_units} more refused",
            )
            return Outcome(
                "quota_exceeded", slot.request_id,
                error=error("quota_exceeded", f"today's {kind} quota is used up: "
                            f"{claim.quota_used} of {limit} (this create needs {n_units})"),
            )
        task = claim.task
        assert task is not None
        if not claim.claimed:
            return await self._existing(slot, task, kind, fp, norm, wait=wait, max_seconds=max_seconds)
        self._notify(task)
        outcome = await self._create(task)
        if wait and outcome.outcome == "created":
            return await self._wait_after(outcome, max_seconds)
        return outcome

    async def _existing(
        self, slot: SlotRef, task: TaskRow, kind: str, fp: str, norm: dict[str, Any], *,
        wait: bool, max_seconds: float | None,
    ) -> Outcome:
        if task.kind != kind or task.fingerprint != fp or task.user_hash != self.scope.user_hash:
            changes = diff(task.params, norm) if task.kind == kind else {"kind": {"stored": task.kind, "attempted": kind}}
            await self.store.add_event(self.scope, slot.slot_key, task.id, "conflict",
                state=task.state, detail="changed: " + ", ".join(changes) if changes else "other owner",
                data={"attempted_fingerprint": fp, "diff": changes},
            )
            names = ", ".join(changes) or "owner"
            suggestion = suggest_next_request_id(slot.request_id)
            return Outcome(
                "conflict", slot.request_id, self.view(await self._with_media(task)),
                error=error(
                    "conflict",
                    f"this RequestId is already used with other parameters ({names}); nothing "
                    f"was sent. Use a new RequestId for new parameters, e.g. {suggestion}",
                    diff=changes, suggested_request_id=suggestion,
                ),
            )
        if task.state == State.SUBMITTING.value:
            swept = await self.sweep_submitting()
            task = next((t for t in swept if t.id == task.id), task)
        self._note(slot.slot_key, task, "replayed",
                   "same parameters: answered from the record, nothing sent")
        task = await self._with_media(task)
        if task.state == State.UNKNOWN.value:
            return Outcome(
                "unknown", slot.request_id, self.view(task),
                error=error("unknown", "this slot's create has an unknown outcome; create is "
                            "disabled. Query the provider or recover."),
            )
        out = Outcome("replayed", slot.request_id, self.view(task))
        if wait and task.state not in STOP_STATES:
            return await self._wait_after(out, max_seconds)
        if task.state == State.FAIL.value:
            out.exit_code = EXIT_FAIL
        return out

    def _note(self, slot_key: str, task: TaskRow, event: str, detail: str) -> None:
        """Queue an informational history note; notes are written in batches off the answer
        path (shortly after, on ``history`` and on ``aclose``)."""
        self._pending_notes.append({"slot_key": slot_key, "task_id": task.id, "at": time.time(),
                                    "event": event, "state": task.state, "detail": detail})
        if self._note_flush is None or self._note_flush.done():
            self._note_flush = asyncio.get_running_loop().create_task(self._flush_notes_later())

    async def _flush_notes_later(self) -> None:
        await asyncio.sleep(NOTE_FLUSH_DELAY)
        await self.flush_notes()

    async def flush_notes(self) -> None:
        notes, self._pending_notes = self._pending_notes, []
        if notes:
            await self.store.add_notes(self.scope, notes)

    async def aclose(self) -> None:
        """Write what is still queued. The owner calls this before closing the store."""
        if self._note_flush is not None and not self._note_flush.done():
            self._note_flush.cancel()
        await self.flush_notes()

    async def _with_media(self, task: TaskRow) -> TaskRow:
        if task.media or task.state != State.SUCCESS.value:
            return task
        return (await self.store.task(task.id)) or task

    async def _create(self, task: TaskRow) -> Outcome:
        """Send the create exactly once (again only after a definitive rate-limit refusal)."""
        body = request_body(task.kind, task.params)
        attempt = 0
        while True:
            attempt += 1
            sent_at = time.time()
            try:
                if task.kind == "video":
                    answer: Any = await self._call(lambda: self.provider.create_video(body))
                else:
                    answer = await self._call(lambda: self.provider.generate_image(body))
                break
            except Refused as exc:
                if exc.rate_limited and attempt <= RATE_LIMIT_RETRIES:
                    delay = exc.retry_after or backoff(1.0, attempt, cap=20.0, rng=self.rng)
                    await self.store.add_event(self.scope, task.slot_key, task.id, "rate_limited",
                        state=task.state, detail=f"1002 rate limit; nothing was created; "
                        f"sending again in {delay:.1f} s", data={"raw": exc.raw},
                    )
                    await asyncio.sleep(delay)
                    continue
                new = await self._transition(
                    task, expect=[State.SUBMITTING.value], state=State.REJECTED.value,
                    error_code=str(exc.code) if exc.code is not None else "never_sent",
                    error_message=exc.message, owner_pid=None, lease_until=None,
                    event="rejected", detail=exc.message, data={"raw": exc.raw, "code": exc.code},
                )
                return Outcome(
                    "rejected", task.request_id, self.view(new or task),
                    error=error("rejected", f"the provider refused the create (nothing was "
                                f"created): {exc.message}", provider_code=exc.code),
                )
            except Exception as exc:  # noqa: BLE001 - anything after send: outcome unknown
                why = exc.message if isinstance(exc, ProviderError) else f"{type(exc).__name__}: {exc}"
                if not isinstance(exc, Ambiguous):
                    log.exception("unexpected error while creating")
                new = await self._transition(
                    task, expect=[State.SUBMITTING.value], state=State.UNKNOWN.value,
                    error_code="unknown", error_message=why, owner_pid=None, lease_until=None,
                    event="unknown", detail=why,
                    data={"raw": getattr(exc, "raw", None), "sent_at": sent_at},
                )
                return Outcome(
                    "unknown", task.request_id, self.view(new or task),
                    error=error("unknown", f"the create's outcome is unknown ({why}). Slate will "
                                "not create again; query or recover."),
                )
        if task.kind != "video":
            log.info("image create for slot %s answered (id %s)", task.id, answer.id)
            return await self._image_answered(task, answer)
        # Should this write fail, the record stays `submitting` under this (live) process and
        # turns `unknown` once it ends; the log keeps the task id for recover --task-id.
        log.info("video create for slot %s answered: provider task %s", task.id, answer.task_id)
        new = await self._transition(
            task, expect=[State.SUBMITTING.value], state=State.PREPARING.value,
            provider_task_id=answer.task_id, provider_status=None,
            next_poll_at=time.time() + self.poll_interval, owner_pid=None,
            lease_until=None, event="created", detail=f"provider task {answer.task_id}",
            data={"raw": answer.raw, "sent_at": sent_at},
        )
        return Outcome("created", task.request_id, self.view(new or task))

    async def _image_answered(self, task: TaskRow, result: Any) -> Outcome:
        urls = [i.url for i in result.items if i.url]
        results = {"id": result.id, "image_urls": urls, "success_count": result.success_count,
                   "failed_count": result.failed_count}
        folder = media_mod.media_folder(self.config.data_dir, task.tenant, task.slot_key)
        inline = []
        for item in result.items:
            if item.data is not None:
                try:
                    inline.append(await asyncio.to_thread(media_mod.store_inline, item.data, folder=folder, kind="image"))
                except media_mod.VerificationFailed as exc:
                    results.setdefault("inline_errors", []).append(exc.reason)
        if not urls and not inline:
            new = await self._transition(
                task, expect=[State.SUBMITTING.value], state=State.FAIL.value,
                provider_task_id=result.id, provider_status="Success", results=results,
                error_code="no_media", error_message="the provider answered success without any image",
                owner_pid=None, lease_until=None, event="status", detail="success without an image item",
                data={"raw": result.raw},
            )
            return Outcome("created", task.request_id, self.view(new or task), exit_code=EXIT_FAIL)
        new = await self._transition(
            task, expect=[State.SUBMITTING.value], state=State.DOWNLOADING.value,
            provider_task_id=result.id, provider_status="Success", results=results,
            owner_pid=None, lease_until=None, event="created",
            detail=f"{len(urls) + len(inline)} image(s) answered", data={"raw": result.raw},
        )
        task = new or task
        task = await self._download(task, preverified=inline)
        exit_code = EXIT_FAIL if task.state == State.FAIL.value else None
        return Outcome("created", task.request_id, self.view(task), exit_code=exit_code)

    # -- lifecycle ------------------------------------------------------------------------
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
        if state == State.SUBMITTING.value:
            swept = await self.sweep_submitting()
            return next((t for t in swept if t.id == task.id), task)
        if state == State.DOWNLOADING.value:
            return await self._download(task)
        if state in {s.value for s in POLLABLE} or (state == State.UNKNOWN.value and task.provider_task_id):
            if task.kind == "image":
                return task  # MiniMax has no image query: nothing more to learn
            return await self._query_once(task)
        return task

    async def _query_once(self, task: TaskRow) -> TaskRow:
        assert task.provider_task_id is not None
        try:
            status = await self._call(lambda: self.provider.query_video(task.provider_task_id or ""))
        except ProviderError as exc:
            failures = task.poll_failures + 1
            delay = exc.retry_after or backoff(self.poll_interval, failures, rng=self.rng)
            note = failures == 1 or failures % 10 == 0
            new = await self._transition(
                task, poll_failures=failures, next_poll_at=time.time() + delay,
                event="query_failed" if note else None,
                detail=f"query failed ({exc.message}); next try in {delay:.0f} s",
                data={"raw": exc.raw, "code": exc.code},
            )
            return new or task
        word = status.status
        mapped = state_for_status_word(word)
        raw = {"raw": status.raw}
        common: dict[str, Any] = {"provider_status": word, "poll_failures": 0}
        if mapped is State.UNKNOWN:
            new = await self._transition(
                task, state=State.UNKNOWN.value, error_code="unknown_status",
                error_message=f"the provider answered an unrecognized status {word!r}; nothing "
                "downloaded", next_poll_at=None, event="unknown",
                detail=f"unrecognized status word {word!r}", data=raw, **common,
            )
            return new or task
        if mapped is State.FAIL:
            code = str(status.error_code) if status.error_code else "provider_fail"
            msg = status.error_message or "the provider reports the task failed"
            new = await self._transition(
                task, state=State.FAIL.value, error_code=code, error_message=msg,
                next_poll_at=None, event="status", detail=f"{word}: {msg}", data=raw, **common,
            )
            return new or task
        if mapped is State.DOWNLOADING:
            if not status.file_id:
                new = await self._transition(
                    task, state=State.FAIL.value, error_code="no_media",
                    error_message="the provider reported Success without a file",
                    next_poll_at=None, event="status", detail="Success without a file id",
                    data=raw, **common,
                )
                return new or task
            results = {"file_id": status.file_id, "width": status.width, "height": status.height}
            new = await self._transition(
                task, state=State.DOWNLOADING.value, results=results, error_code=None,
                error_message=None, next_poll_at=time.time(), event="status",
                detail=f"{word} (file {status.file_id})", data=raw, **common,
            )
            return await self._download(new or task)
        changed = task.provider_status != word or task.state != mapped.value
        was_unknown = task.state == State.UNKNOWN.value
        new = await self._transition(
            task, state=mapped.value, next_poll_at=time.time() + self.poll_interval,
            error_code=None if was_unknown else task.error_code,
            error_message=None if was_unknown else task.error_message,
            event=("recovered" if was_unknown else "status") if changed else None,
            detail=word, data=raw, **common,
        )
        return new or task

    async def _download(self, task: TaskRow, preverified: list[media_mod.VerifiedMedia] | None = None) -> TaskRow:
        """Fetch and verify every media item; only then ``success``."""
        folder = media_mod.media_folder(self.config.data_dir, task.tenant, task.slot_key)
        results = task.results or {}
        verified: list[media_mod.VerifiedMedia] = list(preverified or [])
        reason = None
        for attempt in range(1, DOWNLOAD_ATTEMPTS + 1):
            try:
                if task.kind == "video":
                    verified = [await self._download_video(task, results, folder)]
                else:
                    got = list(preverified or [])
                    for url in results.get("image_urls") or []:
                        got.append(await media_mod.download_verified(self.provider, url, folder=folder, kind="image"))
                    verified = got
                reason = None
                break
            except media_mod.VerificationFailed as exc:
                reason = exc.reason
                await self.store.add_event(self.scope, task.slot_key, task.id, "verification_failed",
                    state=task.state, detail=f"attempt {attempt}: {exc.reason}",
                )
                if not exc.retryable and attempt >= 2:
                    break
            except OSError as exc:
                reason = f"could not write the media file: {exc.strerror or exc}"
                await self.store.add_event(self.scope, task.slot_key, task.id, "verification_failed",
                    state=task.state, detail=f"attempt {attempt}: {reason}",
                )
                break
            except ProviderError as exc:
                reason = f"could not get a download link: {exc.message}"
                await self.store.add_event(self.scope, task.slot_key, task.id, "verification_failed",
                    state=task.state, detail=f"attempt {attempt}: {reason}", data={"raw": exc.raw},
                )
        if reason is None and not verified:
            reason = "the provider answered success without any media item"
        if reason is not None:
            new = await self._transition(
                task, expect=[State.DOWNLOADING.value], state=State.FAIL.value,
                error_code="verification_failed", error_message=reason, next_poll_at=None,
                event="status", detail=f"media not verified: {reason}",
            )
            return new or (await self.store.task(task.id)) or task
        rows = [v.row(self.config.data_dir) for v in verified]
        new = await self._transition(
            task, expect=[State.DOWNLOADING.value], state=State.SUCCESS.value, error_code=None,
            error_message=None, next_poll_at=None, media=rows, event="verified",
            detail=", ".join(f"{r['content_type']} {r['width']}×{r['height']} sha256 {r['sha256'][:12]}" for r in rows),
            data={"media": rows},
        )
        return new or (await self.store.task(task.id)) or task

    async def _download_video(self, task: TaskRow, results: dict[str, Any], folder: Path) -> media_mod.VerifiedMedia:
        file_id = str(results.get("file_id") or "")
        if not file_id:
            raise media_mod.VerificationFailed("no file id to download")
        info = await self._call(lambda: self.provider.retrieve_file(file_id))
        if not info.download_url:
            raise media_mod.VerificationFailed("the file has no download link")
        w, h = results.get("width"), results.get("height")
        expect = (int(w), int(h)) if w and h else None
        got = await media_mod.download_verified(
            self.provider, info.download_url, folder=folder, kind="video",
            declared_bytes=info.bytes or None, expect_size=expect,
        )
        await self.store.add_event(self.scope, task.slot_key, task.id, "downloaded",
            state=task.state, detail=f"{got.bytes} bytes from file {file_id}",
        )
        return got

    # -- commands -------------------------------------------------------------------------
    async def _load_or_answer(self, request_id: Any) -> TaskRow | Outcome:
        """The slot's task, or the answer for a bad RequestId (invalid) or no slot (not_found)."""
        try:
            task = await self._load(validate_request_id(request_id))
        except ValidationError as exc:
            return self._invalid(request_id, exc)
        return self._not_found(request_id) if task is None else task

    async def status(self, request_id: Any) -> Outcome:
        got = await self._load_or_answer(request_id)
        if isinstance(got, Outcome):
            return got
        return self._by_state(await self._with_media(got))

    async def task_by_handle(self, handle: str) -> TaskRow:
        """Raises HandleError (bad) or ForeignHandleError (another tenant/user's)."""
        task_id = handles.verify(self.secret, handle, "task", self.scope.tenant, self.scope.user_hash)
        task = await self.store.task(task_id)
        if task is None or (task.provider, task.endpoint) != (self.scope.provider, self.scope.endpoint):
            raise ForeignHandleError("handle: not found for this tenant and user")
        return task

    async def status_by_handle(self, handle: str) -> Outcome:
        try:
            task = await self.task_by_handle(handle)
        except ForeignHandleError as exc:
            return Outcome("not_found", None, error=error("not_found", str(exc)))
        except HandleError as exc:
            return Outcome("invalid", None, error=error("bad_handle", str(exc), field="handle"))
        return self._by_state(await self._with_media(task))

    async def _actionable(self, request_id: Any, action: Action) -> TaskRow | Outcome:
        task = await self._load_or_answer(request_id)
        if isinstance(task, Outcome):
            return task
        if not is_allowed(action, task.state, has_results=task.has_results):
            from app.domain.states import WHY_NOT

            return Outcome(
                "invalid", task.request_id, self.view(task),
                error=error("not_allowed", f"{action} is not offered while the slot is "
                            f"{task.state}: {WHY_NOT[action]}"),
            )
        return task

    def _by_state(self, task: TaskRow, outcome: str = "ok") -> Outcome:
        view = self.view(task)
        if task.state == State.UNKNOWN.value:
            return Outcome("unknown", task.request_id, view,
                           error=error("unknown", task.error_message or "outcome unknown"))
        if task.state == State.REJECTED.value:
            return Outcome("rejected", task.request_id, view,
                           error=error("rejected", task.error_message or "rejected"))
        out = Outcome(outcome, task.request_id, view)
        if task.state == State.FAIL.value:
            out.exit_code = EXIT_FAIL
        return out

    async def query(self, request_id: Any) -> Outcome:
        got = await self._actionable(request_id, Action.QUERY)
        if isinstance(got, Outcome):
            return got
        task = got
        if task.state == State.UNKNOWN.value and not task.provider_task_id:
            return Outcome(
                "unknown", task.request_id, self.view(task),
                error=error("unknown", "the create's answer never arrived, so there is no "
                            "provider task id to query. Find the task in the provider console "
                            "and recover --task-id ID, or recover --declare-failed."),
            )
        if task.kind == "image" and task.state == State.UNKNOWN.value:
            return Outcome("unknown", task.request_id, self.view(task),
                           error=error("unknown", "images cannot be queried at MiniMax; "
                                       "recover --declare-failed when you are sure"))
        task = await self.advance(task)
        return self._by_state(await self._with_media(task))

    async def wait(self, request_id: Any, max_seconds: float | None = None) -> Outcome:
        task = await self._load_or_answer(request_id)
        if isinstance(task, Outcome):
            return task
        return await self._wait_task(task, max_seconds)

    async def _wait_after(self, first: Outcome, max_seconds: float | None) -> Outcome:
        assert first.task is not None
        task = await self.store.task(first.task.id)
        assert task is not None
        out = await self._wait_task(task, max_seconds)
        if out.outcome == "ok":
            out.outcome = first.outcome
        return out

    async def _wait_task(self, task: TaskRow, max_seconds: float | None) -> Outcome:
        deadline = None if max_seconds is None else time.monotonic() + max_seconds
        first = True
        while True:
            if task.state in STOP_STATES and not (first and task.state == State.UNKNOWN.value and task.provider_task_id):
                return self._by_state(await self._with_media(task))
            if not first or task.state != State.SUBMITTING.value:
                task = await self.advance(task)
            first = False
            if task.state in STOP_STATES:
                return self._by_state(await self._with_media(task))
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return Outcome(
                    "ok", task.request_id, self.view(task), exit_code=EXIT_STILL_RUNNING,
                    error=error("still_running", f"still {task.state} after {max_seconds:g} s"),
                )
            pause = self.poll_interval
            if task.next_poll_at:
                pause = max(0.05, min(task.next_poll_at - time.time(), 300.0))
            if deadline is not None:
                pause = min(pause, max(deadline - now, 0.0))
            await asyncio.sleep(pause)
            fresh = await self.store.task(task.id)
            task = fresh or task

    async def recover(
        self, request_id: Any, *, task_id: str | None = None, redownload: bool = False,
        declare_failed: str | None = None, lookup: bool = False,
    ) -> Outcome:
        modes = [task_id is not None, redownload, declare_failed is not None, lookup]
        if sum(modes) != 1:
            return Outcome("invalid", request_id if isinstance(request_id, str) else None,
                           error=error("invalid", "recover: choose exactly one of --task-id, "
                                       "--redownload, --declare-failed, --lookup", field="recover"))
        got = await self._actionable(request_id, Action.RECOVER)
        if isinstance(got, Outcome):
            return got
        task = got
        if declare_failed is not None:
            return await self._declare_failed(task, declare_failed)
        if redownload:
            return await self._redownload(task)
        if lookup:
            return await self._lookup(task)
        assert task_id is not None
        return await self._attach(task, task_id)

    def _require_unknown(self, task: TaskRow, what: str) -> Outcome | None:
        if task.state != State.UNKNOWN.value:
            return Outcome("invalid", task.request_id, self.view(task),
                           error=error("not_allowed", f"{what} is for unknown tasks; this one is {task.state}"))
        return None

    async def _declare_failed(self, task: TaskRow, reason: str) -> Outcome:
        if not reason or not reason.strip():
            return Outcome("invalid", task.request_id, self.view(task),
                           error=error("invalid", "reason: a reason is required to declare a task failed",
                                       field="reason"))
        if bad := self._require_unknown(task, "declare-failed"):
            return bad
        new = await self._transition(
            task, expect=[State.UNKNOWN.value], state=State.FAIL.value, error_code="declared_failed",
            error_message=f"declared failed by {self.user}: {reason.strip()}", next_poll_at=None,
            event="declared_failed", detail=reason.strip(),
            data={"note": "a charge may exist at the provider", "by": "user"},
        )
        return self._by_state(new or task)

    async def _redownload(self, task: TaskRow) -> Outcome:
        if task.state != State.FAIL.value or not task.has_results:
            return Outcome("invalid", task.request_id, self.view(task),
                           error=error("not_allowed", "redownload needs a failed task with results left"))
        new = await self._transition(
            task, expect=[State.FAIL.value], state=State.DOWNLOADING.value, error_code=None,
            error_message=None, event="recovered", detail="redownload: fetching a fresh link",
        )
        if new is None:
            return self._by_state(task)
        return self._by_state(await self._download(new))

    async def _attach(self, task: TaskRow, provider_task_id: str) -> Outcome:
        if bad := self._require_unknown(task, "attach"):
            return bad
        tid = (provider_task_id or "").strip()
        if not tid or len(tid) > 128 or not all(c.isalnum() or c in "-_." for c in tid):
            return Outcome("invalid", task.request_id, self.view(task),
                           error=error("invalid", "task_id: expected the provider's task id "
                                       "(letters, digits, - _ .)", field="task_id"))
        if task.kind != "video":
            return Outcome("invalid", task.request_id, self.view(task),
                           error=error("not_allowed", "MiniMax cannot query image tasks; use "
                                       "--declare-failed"))
        try:
            status = await self._call(lambda: self.provider.query_video(tid))
        except ProviderError as exc:
            return Outcome("unknown", task.request_id, self.view(task),
                           error=error("unknown", f"the provider did not confirm task {tid}: "
                                       f"{exc.message}; nothing changed", provider_code=exc.code))
        if state_for_status_word(status.status) is State.UNKNOWN:
            return Outcome("unknown", task.request_id, self.view(task),
                           error=error("unknown", f"task {tid} answered status "
                                       f"{status.status!r}; nothing changed"))
        new = await self._transition(
            task, expect=[State.UNKNOWN.value], provider_task_id=tid, state=State.QUEUEING.value,
            error_code=None, error_message=None, event="recovered",
            detail=f"attached provider task {tid}", data={"raw": status.raw},
        )
        if new is None:
            return self._by_state(task)
        return self._by_state(await self._with_media(await self.advance(new)))

    async def _lookup(self, task: TaskRow) -> Outcome:
        if bad := self._require_unknown(task, "lookup"):
            return bad
        if not self.provider.caps.can_list_tasks:
            return Outcome("invalid", task.request_id, self.view(task),
                           error=error("not_allowed", f"the {self.provider.name} provider cannot "
                                       "list tasks; find the task id in its console and use --task-id"))
        found = await self._call(lambda: self.provider.list_tasks(task.created_at - 60, task.created_at + 900))
        body = request_body(task.kind, task.params)
        matches = [t for t in found if all(t.params.get(k) == v for k, v in body.items() if k in t.params)
                   and t.params.get("prompt") == body.get("prompt")]
        if len(matches) != 1:
            return Outcome("unknown", task.request_id, self.view(task),
                           error=error("unknown", f"lookup found {len(matches)} matching tasks in the "
                                       "time window; attach one with --task-id"))
        return await self._attach(task, matches[0].task_id)

    async def history(self, request_id: Any) -> Outcome:
        try:
            slot = self._slot(validate_request_id(request_id))
        except ValidationError as exc:
            return self._invalid(request_id, exc)
        await self.flush_notes()
        events = await self.store.history(self.scope, slot.slot_key)
        task = await self.store.slot(self.scope, slot.slot_key)
        if not events and task is None:
            return self._not_found(request_id)
        items = [
            {"at": e.at, "time": dt.datetime.fromtimestamp(e.at).isoformat(timespec="seconds"),
             "event": e.event, "state": e.state, "detail": e.detail, "data": e.data}
            for e in events
        ]
        return Outcome("ok", slot.request_id, self.view(task) if task else None, extra={"events": items})

    async def list_slots(
        self, *, state: str | None = None, kind: str | None = None, limit: int = 50,
        search: str | None = None, before_id: int | None = None,
    ) -> Outcome:
        if state is not None and state not in {s.value for s in State}:
            return Outcome("invalid", error=error("invalid", f"state: one of {', '.join(s.value for s in State)}", field="state"))
        if kind is not None and kind not in KINDS:
            return Outcome("invalid", error=error("invalid", "kind: image or video", field="kind"))
        if not 1 <= limit <= 10_000:
            return Outcome("invalid", error=error("invalid", "limit: 1 to 10000", field="limit"))
        rows = await self.store.list_slots(self.scope, state=state, kind=kind, search=search,
                              limit=limit, before_id=before_id)
        slots = [{"request_id": r.request_id, **self.view(r).to_json()} for r in rows]
        return Outcome("ok", extra={"slots": slots, "count": len(slots)})

    async def export(self, request_id: Any, to: str | Path) -> Outcome:
        got = await self._actionable(request_id, Action.EXPORT)
        if isinstance(got, Outcome):
            return got
        task = await self._with_media(got)
        dest = Path(to).expanduser()
        try:
            dest.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return Outcome("invalid", task.request_id, self.view(task),
                           error=error("invalid", f"to: cannot create {dest}: {exc.strerror}", field="to"))
        stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in task.request_id)
        written = []
        for i, m in enumerate(task.media, 1):
            src = self.config.data_dir / m.path
            if not src.exists() or media_mod.sha256_file(src) != m.sha256:
                return Outcome("invalid", task.request_id, self.view(task),
                               error=error("media_missing", f"{src} is missing or changed on disk; "
                                           "recover --redownload is not possible for a success; "
                                           "the record keeps its SHA-256"))
            ext = src.suffix
            target = dest / (f"{stem}{ext}" if len(task.media) == 1 else f"{stem}-{i}{ext}")
            if target.exists() and media_mod.sha256_file(target) != m.sha256:
                return Outcome("invalid", task.request_id, self.view(task),
                               error=error("invalid", f"to: {target} exists with other content; "
                                           "nothing overwritten", field="to"))
            shutil.copyfile(src, target)
            written.append({"path": str(target), "sha256": m.sha256, "bytes": m.bytes})
        await self.store.add_event(self.scope, task.slot_key, task.id, "exported",
                       state=task.state, detail=f"{len(written)} file(s) to {dest}")
        return Outcome("ok", task.request_id, self.view(task), extra={"exported": written})

    async def quota(self) -> Outcome:
        day = local_day()
        used = await self.store.quota_used(self.scope, day)
        data = {
            "day": day,
            "video": {"used": used["video"], "limit": self.config.quota_video},
            "image": {"used": used["image"], "limit": self.config.quota_image},
        }
        return Outcome("ok", extra={"quota": data})

    async def suggest_request_id(self, request_id: str) -> str:
        base = request_id.rsplit(".t", 1)[0] if ".t" in request_id else request_id
        taken = set(await self.store.request_ids_with_prefix(self.scope, base))
        return suggest_next_request_id(request_id, taken | {request_id})

    # -- background polling -----------------------------------------------------------------
    async def poll_due(self, limit: int | None = None) -> int:
        """Advance every task whose next query is due (bounded concurrency). Returns how many."""
        if self._poll_sem is None:
            self._poll_sem = asyncio.Semaphore(self.config.max_concurrent_polls)
        states = list(POLLABLE)
        due = await self.store.due_tasks(self.scope, states, time.time(),
                             limit or self.config.max_concurrent_polls * 4)
        due = [t for t in due if t.id not in self._inflight]
        sem = self._poll_sem

        async def one(task: TaskRow) -> None:
            async with sem:
                try:
                    await self.advance(task)
                except Exception:  # noqa: BLE001 - one task's trouble must not stop the others
                    log.exception("polling task %s failed", task.id)

        await asyncio.gather(*(one(t) for t in due))
        return len(due)

    async def run_poller(self, stop: asyncio.Event) -> None:
        """Poll until ``stop`` is set: resume first, then keep every in-flight task moving."""
        await self.sweep_submitting()
        await self.resume()
        while not stop.is_set():
            n = await self.poll_due()
            nxt = await self.store.next_due_at(self.scope, list(POLLABLE))
            pause = 1.0 if nxt is None else min(max(nxt - time.time(), 0.02), 1.0)
            if n:
                pause = min(pause, 0.05)
            try:
                await asyncio.wait_for(stop.wait(), timeout=pause)
            except asyncio.TimeoutError:
                pass

    async def running_count(self) -> int:
        return len(await self.store.tasks_in_states(self.scope, list(IN_FLIGHT)))
