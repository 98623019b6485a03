"""Reads: a slot's status (by RequestId or handle), its history, the slot list, today's quota,
export of verified media, RequestId suggestions, and :class:`SlotReader` — the slot browser's
grouped, paged reads bound to the service's scope.

The browser's and the gallery's row types (:class:`SlotRow`, :class:`Group`, :class:`SlotFilter`,
:class:`ResultRow`, :class:`QueueEntry`) are plain values of the store-free
``app.domain.listing``, re-exported here under their old names; the window's modules import them
from there, so importing the window loads no store.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any, Coroutine, Mapping

from app.domain import handles
from app.domain.days import budget_day
from app.domain.errors import ForeignHandleError, HandleError, ValidationError
from app.domain.listing import Group, QueueEntry, ResultRow, SlotFilter, SlotRow
from app.domain.naming import (
    export_name,
    next_free_scene,
    suggest_next_request_id,
    suggestion_prefix,
)
from app.domain.slots import KINDS, validate_request_id
from app.domain.fingerprint import fingerprint
from app.domain.states import IN_FLIGHT, PAID_OR_PAYING, REFUSAL_WHY, Action, Refusal, State
from app.service.context import ServiceContext
from app.service.spend import Spending
from app.service.results import (
    EarlierPrompt,
    Exported,
    ExportedFile,
    History,
    HistoryEvent,
    OutcomeKind,
    Problem,
    ProblemCode,
    PromptList,
    QuotaReport,
    QuotaUse,
    Result,
    SlotList,
    SlotTasks,
    Twin,
    invalid,
    not_found,
)
from app.service.views import TaskView
from app.store.aio import Store
from app.store.rows import Scope, TaskRow

__all__ = [
    "Group",
    "QueueEntry",
    "Reads",
    "ResultRow",
    "SlotFilter",
    "SlotReader",
    "SlotRow",
    "Twin",
    "find_twin",
]


#: Prompt recall's search: at most this many characters.
PROMPT_SEARCH_MAX = 200


def invalid_field(message: str, field: str) -> Result[Any]:
    return Result(OutcomeKind.INVALID, problem=Problem(ProblemCode.INVALID, message, field=field))


async def find_twin(ctx: ServiceContext, kind: str, fp: str, slot_key: str) -> Twin | None:
    """The one rule of "same settings as another slot", for the form and the shot list alike:
    the newest other slot of this tenant and user whose kind and fingerprint are these and that
    is live, unknown or a success. A read: nothing is claimed or written."""
    states = sorted(s.value for s in PAID_OR_PAYING)
    found = await ctx.store.twin(ctx.scope, kind, fp, slot_key, states)
    return None if found is None else Twin(found.request_id, State(found.state))


class Reads:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def status(self, request_id: object) -> Result[Any]:
        """The local record only (no network); a slot holding several tasks (made before the
        slot boundary) shows them all."""
        got = await self.ctx.load_or_answer(request_id)
        if isinstance(got, Result):
            return got
        out = self.ctx.by_state(await self.ctx.with_media(got))
        others = await self._duplicates(got)
        if others:
            out = dataclasses.replace(out, payload=SlotTasks(others))
        return out

    async def _duplicates(self, task: TaskRow) -> tuple[TaskView, ...]:
        copies = await self.ctx.store.slot_copies(self.ctx.scope, task.slot_key)
        return tuple(self.ctx.view(t) for t in copies)

    async def task_by_handle(self, handle: str) -> TaskRow:
        """Raises HandleError (bad, or made by another store) or ForeignHandleError (another
        tenant's or user's). The row found is checked against the caller too (tenant, user,
        provider, endpoint): a handle never reaches a task that is not the caller's."""
        ctx = self.ctx
        task_id = handles.verify(
            ctx.secret, handle, "task", ctx.scope.tenant, ctx.scope.user_hash, ctx.store.store_id
        )
        task = await ctx.store.task(task_id)
        if task is None or not ctx.owns(task):
            raise ForeignHandleError("handle: not found for this tenant and user")
        return task

    async def status_by_handle(self, handle: str) -> Result[Any]:
        try:
            task = await self.task_by_handle(handle)
        except ForeignHandleError as exc:
            return not_found(None, str(exc))
        except HandleError as exc:
            return Result(
                OutcomeKind.INVALID,
                None,
                problem=Problem(ProblemCode.BAD_HANDLE, str(exc), field="handle"),
            )
        return self.ctx.by_state(await self.ctx.with_media(task))

    async def history(self, request_id: object) -> Result[History]:
        """The slot's events, oldest first (queued notes written first)."""
        ctx = self.ctx
        try:
            slot = ctx.slot(validate_request_id(request_id))
        except ValidationError as exc:
            return invalid(request_id, exc)
        await ctx.notes.flush()
        events = await ctx.store.history(ctx.scope, slot.slot_key)
        task = await ctx.store.slot(ctx.scope, slot.slot_key)
        if not events and task is None:
            return not_found(slot.request_id)
        items = tuple(HistoryEvent(e.at, e.event, e.state, e.detail, e.data) for e in events)
        others = await self._duplicates(task) if task is not None else ()
        return Result(
            OutcomeKind.OK,
            slot.request_id,
            ctx.view(task) if task else None,
            payload=History(items, others),
        )

    async def list_slots(
        self,
        *,
        state: str | None = None,
        kind: str | None = None,
        limit: int = 50,
        search: str | None = None,
        before_id: int | None = None,
    ) -> Result[SlotList]:
        def bad(message: str, field: str) -> Result[SlotList]:
            return Result(
                OutcomeKind.INVALID, problem=Problem(ProblemCode.INVALID, message, field=field)
            )

        if state is not None and state not in {s.value for s in State}:
            return bad(f"state: one of {', '.join(s.value for s in State)}", "state")
        if kind is not None and kind not in KINDS:
            return bad("kind: image or video", "kind")
        if not 1 <= limit <= 10_000:
            return bad("limit: 1 to 10000", "limit")
        rows = await self.ctx.store.list_slots(
            self.ctx.scope, state=state, kind=kind, search=search, limit=limit, before_id=before_id
        )
        return Result(OutcomeKind.OK, payload=SlotList(tuple(self.ctx.view(r) for r in rows)))

    async def prompts(self, search: object = "", limit: object = 50) -> Result[PromptList]:
        """This user's earlier prompts (prompt recall), the last used first; ``search`` matches
        any part of a prompt, case-insensitively."""
        if not isinstance(search, str) or len(search) > PROMPT_SEARCH_MAX:
            return invalid_field(
                f"search: text of at most {PROMPT_SEARCH_MAX} characters", "search"
            )
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            return invalid_field("limit: 1 to 1000", "limit")
        rows = await self.ctx.store.prompts(self.ctx.scope, search.strip(), limit)
        return Result(OutcomeKind.OK, payload=PromptList(tuple(EarlierPrompt(*r) for r in rows)))

    async def export(self, request_id: object, to: str | Path) -> Result[Exported]:
        """Copy the verified media of a successful slot to ``to`` (checked against SHA-256)."""
        ctx = self.ctx
        got = await ctx.actionable(request_id, Action.EXPORT)
        if isinstance(got, Result):
            return got
        task = await ctx.with_media(got)

        def refused(code: ProblemCode, message: str, field: str | None = None) -> Result[Exported]:
            return Result(
                OutcomeKind.INVALID,
                task.request_id,
                ctx.view(task),
                Problem(code, message, field=field),
            )

        dest = Path(to).expanduser()
        try:
            dest.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return refused(ProblemCode.INVALID, f"to: cannot create {dest}: {exc.strerror}", "to")
        from app.service import media as media_mod  # an export's checks, not a read's (issue 38)

        here = [m for m in task.media if m.removed_at is None]
        if task.media and not here:
            return refused(ProblemCode.MEDIA_MISSING, REFUSAL_WHY[Refusal.MEDIA_REMOVED])
        written = []
        for i, m in enumerate(here, 1):
            src = ctx.config.data_dir / m.path
            if not src.exists() or media_mod.sha256_file(src) != m.sha256:
                return refused(
                    ProblemCode.MEDIA_MISSING,
                    f"{src} is missing or changed on disk; "
                    "recover --redownload is not possible for a success; the record "
                    "keeps its SHA-256",
                )
            target = dest / export_name(task.request_id, i, len(here), src.suffix)
            if target.exists() and media_mod.sha256_file(target) != m.sha256:
                return refused(
                    ProblemCode.INVALID,
                    f"to: {target} exists with other content; nothing overwritten",
                    "to",
                )
            shutil.copyfile(src, target)
            written.append(ExportedFile(str(target), m.sha256, m.bytes))
        await ctx.store.add_event(
            ctx.scope,
            task.slot_key,
            task.id,
            "exported",
            state=task.state,
            detail=f"{len(written)} file(s) to {dest}",
            data={"files": len(written)},
        )
        return Result(
            OutcomeKind.OK, task.request_id, ctx.view(task), payload=Exported(tuple(written))
        )

    async def quota(self) -> Result[QuotaReport]:
        """Today's use and limits, and today's use of the daily budget when one is set."""
        ctx = self.ctx
        day = budget_day()
        used = await ctx.store.quota_used(ctx.scope, day)
        budget = None
        if ctx.config.budget_daily is not None and ctx.prices_or_none() is not None:
            budget = await Spending(ctx).budget_today()
        return Result(
            OutcomeKind.OK,
            payload=QuotaReport(
                day,
                QuotaUse(used["video"], ctx.config.quota_video),
                QuotaUse(used["image"], ctx.config.quota_image),
                budget,
                QuotaUse(used.get("music", 0), ctx.config.quota_music),
                QuotaUse(used.get("speech", 0), ctx.config.quota_speech),
                QuotaUse(used.get("voice", 0), ctx.config.quota_voice),
            ),
        )

    async def twin_of(
        self, request_id: object, kind: object, params: Mapping[str, Any]
    ) -> Twin | None:
        """The newest other slot of this tenant and user whose kind and fingerprint equal the
        draft's (read and normalized as the submit reads them) and that is live, unknown or a
        success; None when there is none or the draft does not validate (its create says why).
        A read: nothing is claimed or written."""
        from app.service.submit import read_inputs  # the submit's own reading of a draft

        ctx = self.ctx
        try:
            slot = ctx.slot(validate_request_id(request_id))
            _params, _local, norm = await read_inputs(ctx, kind, params, slot.request_id)
        except ValidationError:
            return None
        return await find_twin(ctx, str(kind), fingerprint(str(kind), norm), slot.slot_key)

    async def suggest_request_id(self, request_id: str) -> str:
        """The next free attempt of a RequestId (``scene-02`` → ``scene-02.t2``)."""
        taken = await self.ctx.store.request_ids_with_prefix(
            self.ctx.scope, suggestion_prefix(request_id)
        )
        return suggest_next_request_id(request_id, set(taken) | {request_id})


class SlotReader:
    """The slot browser's reads, bound to one scope (they run in a worker thread).

    Projects, days and slots page by keyset: pass the last page's newest id (projects), day
    (days) or id (slots) as ``after``/``before_id``.
    """

    def __init__(self, store: Store, scope: Scope, data_dir: Path | None = None) -> None:
        self._store = store
        self.scope = scope
        #: Where media paths are relative to (results come back with absolute paths).
        self.data_dir = data_dir

    # projects, days and slots: the read begins when asked for (``Store._begun``); await it
    def projects(
        self, flt: SlotFilter, *, after: int | None = None, limit: int = 100
    ) -> Coroutine[Any, Any, list[Group]]:
        return self._store.projects(self.scope, flt, after=after, limit=limit)

    def days(
        self, flt: SlotFilter, project: str, *, after: str | None = None, limit: int = 100
    ) -> Coroutine[Any, Any, list[Group]]:
        return self._store.days(self.scope, flt, project, after=after, limit=limit)

    def slots(
        self,
        flt: SlotFilter,
        project: str,
        day: str,
        *,
        before_id: int | None = None,
        limit: int = 200,
    ) -> Coroutine[Any, Any, list[SlotRow]]:
        return self._store.slots(self.scope, flt, project, day, before_id=before_id, limit=limit)

    def results(
        self,
        flt: SlotFilter,
        project: str | None = None,
        day: str | None = None,
        *,
        before_id: int | None = None,
        limit: int = 120,
    ) -> Coroutine[Any, Any, list[ResultRow]]:
        """The results gallery's page: every result of up to ``limit`` matching slots older than
        ``before_id`` (of one project and day when given), newest first; a slot without media
        comes as one row without a path. Paths are absolute (under the data folder). The read
        begins when asked for (``Store._begun``); await it."""
        begun = self._store.results(self.scope, flt, project, day, before_id=before_id, limit=limit)
        base = self.data_dir

        async def results() -> list[ResultRow]:  # named as the read (the runner's log says it)
            rows = await begun
            if base is None:
                return rows
            return [
                r
                if r.path is None or Path(r.path).is_absolute()
                else dataclasses.replace(r, path=str(base / r.path))
                for r in rows
            ]

        return results()

    async def slot(self, request_id: str) -> SlotRow | None:
        return await self._store.slot_row(self.scope, request_id)

    async def neighbours(self, flt: SlotFilter, task_id: int) -> tuple[int | None, int | None]:
        return await self._store.neighbours(self.scope, flt, task_id)

    async def count(self, flt: SlotFilter) -> int:
        return await self._store.count(self.scope, flt)

    async def failing_queries(self) -> int:
        """In-flight tasks whose latest provider query failed (the status bar's trouble note)."""
        return await self._store.failing_queries(self.scope)

    async def running(self, limit: int = 20) -> list[SlotRow]:
        """The slots in flight (being sent, at the provider, downloading), newest first: the
        queue panel's rows, and the groups the browser opens at start."""
        rows: list[SlotRow] = []
        for task in await self._in_flight(limit):
            row = await self._store.slot_row(self.scope, task.request_id)
            if row is not None:
                rows.append(row)
        return rows

    async def _in_flight(self, limit: int) -> list[TaskRow]:
        """The newest ``limit`` tasks in flight (each state read with its own limit: a store
        with thousands in flight is not read whole)."""
        tasks: list[TaskRow] = []
        for state in IN_FLIGHT:
            tasks += await self._store.list_slots(self.scope, state=state.value, limit=limit)
        tasks.sort(key=lambda t: t.created_at, reverse=True)
        return tasks[:limit]

    async def queue(self, limit: int = 50) -> list[QueueEntry]:
        """The queue panel's entries: the slots in flight, newest first, with the ones waiting
        for the rate limit marked (their create is retried, nothing was made yet)."""
        out: list[QueueEntry] = []
        for task in await self._in_flight(limit):
            row = await self._store.slot_row(self.scope, task.request_id)
            if row is None:
                continue
            waiting = False
            if task.state == State.SUBMITTING:
                events = await self._store.history(self.scope, task.slot_key)
                waiting = bool(events) and events[-1].event == "rate_limited"
            out.append(QueueEntry(row, waiting, dict(task.params or {})))
        return out

    async def durations(
        self,
        kind: str,
        model: str | None,
        resolution: str | None = None,
        duration: int | None = None,
        *,
        limit: int = 50,
    ) -> list[float]:
        """Seconds from create to success of this designer's latest successful tasks of the same
        kind, model, resolution and duration (newest first, at most ``limit``, among the latest
        thousand successes): what the progress estimate learns from."""
        out: list[float] = []
        before: int | None = None
        scanned = 0
        while len(out) < limit and scanned < 1000:  # the latest thousand successes at most
            page = await self._store.list_slots(
                self.scope, state=State.SUCCESS.value, kind=kind, limit=200, before_id=before
            )
            if not page:
                break
            for task in page:
                p = task.params or {}
                if (
                    p.get("model") == model
                    and p.get("resolution") == resolution
                    and p.get("duration") == duration
                ):
                    took = task.updated_at - task.created_at
                    if 0 < took < 6 * 3600:
                        out.append(took)
            before = page[-1].id
            scanned += len(page)
            if len(page) < 200:
                break
        return out[:limit]

    async def next_scene(self, prefix: str) -> str:
        """The next free ``scene-NN`` for a ``series:date:project:`` prefix."""
        return next_free_scene(
            prefix, await self._store.request_ids_with_prefix(self.scope, prefix)
        )
