"""The controller: the one QObject that owns the service and every background coroutine.

Widgets never await and never touch the store: they call a method here, which starts a
coroutine on the :class:`TaskRunner` and answers with a Qt signal (or a callback run on the
UI thread). What widgets may read from it: :attr:`Controller.reader` (the slot browser's
reads, bound to the current tenant, user and provider), :attr:`Controller.caps` (the provider:
name, endpoint, demo flag, label, capabilities) and :attr:`Controller.config`. Task changes
reported by ``service.listeners`` are re-emitted as :attr:`Controller.taskChanged`.

Paint first, load after (issue 34): the app makes the controller and its window *before* the
service is built, from an :class:`Early` start — the configuration, the provider it will be and
whose slots to show. Until :meth:`Controller.attach` hands the service in, the browser's first
page comes from the store's file (:mod:`app.service.early`: one statement, the store's own),
and every other call waits for the service, then runs: nothing is refused or lost for being
early, it is only later.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Coroutine

from app.domain.errors import ValidationError
from app.domain.listing import Group, QueueEntry, SlotFilter
from app.service.inputs import image_file_data_url
from app.service.commands import RecoverHow
from app.service.early import Early
from app.service.results import History, OutcomeKind, QuotaReport, Result
from app.service.trouble import Trouble, trouble_of
from app.service.views import ProviderInfo, TaskView
from app.start_warnings import WARN_DATA_DIR_OPEN, WARN_SECRET_IN_FILE
from app.ui.qt import QT_TRANSLATE_NOOP, QObject, Signal, translate

if TYPE_CHECKING:  # the service is handed in, built by the composition root (app.ui.app)
    from app.service.reads import SlotReader
    from app.service.slate import SlateService

log = logging.getLogger(__name__)

STATUS_REFRESH_SECONDS = 2.0


#: The queue panel's rows at most (the newest in flight); the count is exact beyond.
QUEUE_LIMIT = 50


#: A start's warnings in a designer's words (the technical ones are in the log and in
#: ``slate doctor``), by what they are about; shown by the status bar's ⚠.
WARNING_WORDS = {
    WARN_SECRET_IN_FILE: QT_TRANSLATE_NOOP(
        "StatusPane",
        "This computer has no system keyring, so Slate keeps its own key in a file in the data "
        "folder that only you can read. Nothing to do.",
    ),
    WARN_DATA_DIR_OPEN: QT_TRANSLATE_NOOP(
        "StatusPane",
        "Other people on this computer can see the names of the files in your data folder (not "
        "their contents). Run “slate doctor” to see how to close it.",
    ),
}
SOME_WARNING = QT_TRANSLATE_NOOP("StatusPane", "Slate started with a warning: see “slate doctor”.")


@dataclass(frozen=True)
class Status:
    """What the status bar and the queue panel show, read together (one source: the panel lists
    the very slots the status bar counts): today's quota, the slots in flight and their count,
    tasks whose queries fail."""

    quota: QuotaReport | None
    running: int
    failing: int
    queue: tuple[QueueEntry, ...] = ()  # the newest in flight (QUEUE_LIMIT at most)


class TaskRunner(QObject):
    """Runs coroutines for the UI: keeps strong references, cancels them on shutdown, and turns
    exceptions into the :attr:`error` signal (krita-ai-diffusion's ``_report_errors``), each
    typed once as a :class:`~app.service.trouble.Trouble` for the words to say."""

    error = Signal(object)  # Trouble

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._background: set[asyncio.Task[Any]] = set()
        self._closed = False

    def run(
        self,
        coro: Coroutine[Any, Any, Any],
        *,
        done: Callable[[Any], None] | None = None,
        failed: Callable[[Trouble], None] | None = None,
        background: bool = False,
        what: str = "",
    ) -> asyncio.Task[Any] | None:
        """Run ``coro``; ``done(result)`` when it returns, ``failed(trouble)`` when it raises
        (after :attr:`error` said so). Neither is called once the runner is shut down."""
        if self._closed:
            coro.close()
            return None
        task = asyncio.get_event_loop().create_task(coro)
        self._tasks.add(task)
        if background:
            self._background.add(task)

        def finished(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            self._background.discard(t)
            if t.cancelled():
                return
            exc = t.exception()
            if exc is not None:
                log.error("%s failed", what or "background work", exc_info=exc)
                trouble = trouble_of(exc, what)
                self.error.emit(trouble)
                if failed is not None and not self._closed:
                    failed(trouble)
                return
            if done is not None and not self._closed:
                try:
                    done(t.result())
                except Exception as cb_exc:  # noqa: BLE001 - a UI callback's bug must be seen
                    log.exception("callback of %s failed", what)
                    self.error.emit(trouble_of(cb_exc))

        task.add_done_callback(finished)
        return task

    @property
    def busy(self) -> int:
        """Transient work in progress (the poller and the status loop don't count)."""
        return len(self._tasks - self._background)

    async def settled(self, timeout: float = 15.0) -> bool:
        """Wait until no transient work is left (twice in a row, so chained work counts)."""
        deadline = time.monotonic() + timeout
        quiet = 0
        while time.monotonic() < deadline:
            quiet = quiet + 1 if self.busy == 0 else 0
            if quiet >= 3:
                return True
            await asyncio.sleep(0.05)
        return False

    async def shutdown(self) -> None:
        self._closed = True
        tasks = list(self._tasks)
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self._background.clear()


class _Later:
    """The service, or its reader, while the service is being built: each coroutine method
    waits for it, then runs on it."""

    def __init__(self, controller: Controller, part: str | None = None) -> None:
        self._controller = controller
        self._part = part

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)

        async def later(*args: Any, **kw: Any) -> Any:
            service = await self._controller.wait_ready()
            target = getattr(service, self._part) if self._part else service
            return await getattr(target, name)(*args, **kw)

        later.__name__ = name
        return later


class _EarlyReader(_Later):
    """The browser's reads before the service is built: the first page of projects straight
    from the store's file (:meth:`app.service.early.Early.read_first_page`), the rest later."""

    def __init__(self, controller: Controller, early: Early | None) -> None:
        super().__init__(controller, "reader")
        self._early = early
        #: Set once the first page was read from the file, or cannot be (then it comes later).
        self.tried = asyncio.Event()

    def projects_now(self, flt: SlotFilter, limit: int) -> list[Group] | None:
        """The first page at once, when it was already read ahead from the file: the window
        then shows its first rows in its first paint."""
        if self._early is None or flt != SlotFilter():
            return None
        page = self._early.first_page_ready(limit)
        if page is not None:
            self.tried.set()
        return page

    async def projects(
        self, flt: SlotFilter, *, after: int | None = None, limit: int = 100
    ) -> list[Group]:
        early, page = self._early, None
        try:
            if early is not None and after is None and flt == SlotFilter():
                page = await early.read_first_page(limit)
        finally:
            self.tried.set()
        if page is not None:
            return page
        service = await self._controller.wait_ready()
        return await service.reader.projects(flt, after=after, limit=limit)


class Controller(QObject):
    """Owns the Slate service for the window. All methods return at once."""

    taskChanged = Signal(object)  # TaskView, from service.listeners
    slotLoaded = Signal(str, object, object)  # request_id, TaskView | None, events (list)
    outcomeArrived = Signal(str, object)  # action, Result
    conflictArrived = Signal(object)  # Result with problem.diff and problem.suggested_request_id
    statusChanged = Signal(object)  # Status
    actionFailed = Signal(str)  # action: its coroutine raised (errorOccurred said why)
    errorOccurred = Signal(object)  # Trouble: the runner's error, typed (app.service.trouble)
    reset = Signal()  # the service was replaced (settings applied): reload everything
    ready = Signal()  # the service is built (the window was shown before it: paint first)
    pricesChanged = Signal()  # a designer gave or took back a price: estimates again

    def __init__(
        self,
        service: SlateService | None = None,
        *,
        owner: Any = None,
        rebuild: Callable[[Any], Awaitable[Any]] | None = None,
        parent: QObject | None = None,
        early: Early | None = None,
    ) -> None:
        """``service``: the built service; or None with ``early``: the window is made first and
        :meth:`attach` hands the service in once it is built (paint first, load after)."""
        super().__init__(parent)
        self.runner = TaskRunner(self)
        self._status_pending = False
        self._status_again = False
        self.runner.error.connect(self.errorOccurred)
        self.owner = owner  # the bootstrap.Slate that built the service (closed with us)
        self._rebuild = rebuild
        self._stop: asyncio.Event | None = None
        self._applying = asyncio.Lock()
        self.early = early
        self._ready = asyncio.Event()
        self._early_reader = _EarlyReader(self, early)
        self.service: SlateService = _Later(self)  # type: ignore[assignment]
        self.status: Status | None = None
        self._current: str | None = None
        self._reload_pending = False
        self._reload_again = False
        self.key_source = "none"
        self.warnings: list[str] = []
        self.warning_codes: list[str] = []
        if service is not None:
            self._own(owner)
            self._attach(service)
            self._ready.set()
        elif early is None:
            raise ValueError("a controller needs its service or an early start")

    def _own(self, owner: Any) -> None:
        self.owner = owner
        self.key_source = getattr(owner, "key_source", "none")
        self.warnings = list(getattr(owner, "warnings", []) or [])
        self.warning_codes = list(getattr(owner, "warning_codes", []) or [])

    # -- the service arrives --------------------------------------------------------------
    @property
    def is_ready(self) -> bool:
        """Whether the service is built (until then calls wait for it)."""
        return self._ready.is_set()

    async def first_page_tried(self, timeout: float = 2.0) -> None:
        """Until the browser's first page was read from the store's file (or cannot be): the
        app builds the service after it, so the import of the store does not hold up the first
        rows (one interpreter runs one thread at a time)."""
        try:
            await asyncio.wait_for(self._early_reader.tried.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    async def wait_ready(self) -> SlateService:
        """The service, once it is built."""
        await self._ready.wait()
        return self.service

    def attach(self, owner: Any) -> None:
        """Hand in the service the window was waiting for (``owner``: the ``bootstrap.Slate``
        that built it). Calls made meanwhile run now; when it is not the store, owner or
        provider the window started showing (another data folder was chosen), everything is read
        again (:attr:`reset`)."""
        if self.is_ready:
            raise RuntimeError("the controller already has its service")
        self._own(owner)
        self._attach(owner.service)
        self._ready.set()
        self.ready.emit()
        if self.early is None or not self.early.shows(owner):
            self.reset.emit()

    def warning_sentences(self) -> list[str]:
        """This run's warnings as the status bar says them (translated)."""
        said = [
            translate("StatusPane", WARNING_WORDS[c])
            for c in self.warning_codes
            if c in WARNING_WORDS
        ]
        if self.warnings and not said:
            said = [translate("StatusPane", SOME_WARNING)]
        return said

    # -- wiring ---------------------------------------------------------------------------
    def _attach(self, service: SlateService) -> None:
        self.service = service
        service.listeners.append(self._on_task)

    def _on_task(self, view: TaskView) -> None:
        self.taskChanged.emit(view)
        if view.request_id == self._current:
            self._reload_current()
        self._refresh_status_soon()  # the status bar never says "1 running" for an ended task

    def refresh_status_soon(self) -> None:
        """Read the status bar's and the queue panel's status again, now."""
        self._refresh_status_soon()

    def _refresh_status_soon(self) -> None:
        """Refresh the status now (coalesced: one refresh at a time, one more if asked meanwhile)."""
        if self._status_pending:
            self._status_again = True
            return
        self._status_pending = True

        async def refresh() -> None:
            try:
                while True:
                    self._status_again = False
                    await self.refresh_status()
                    if not self._status_again:
                        return
            finally:
                self._status_pending = False

        self.runner.run(refresh(), what="status")

    def first_page_now(self, flt: SlotFilter, limit: int) -> list[Group] | None:
        """The browser's first page without waiting, when the start already read it from the
        store's file (before the service is built); None: load it as usual."""
        if self.is_ready:
            return None
        return self._early_reader.projects_now(flt, limit)

    @property
    def reader(self) -> SlotReader:
        """The slot browser's reads (bound to the current service's scope); before the service
        is built, the first page from the store's file and the rest once it is."""
        if not self.is_ready:
            return self._early_reader  # type: ignore[return-value]
        return self.service.reader

    @property
    def caps(self) -> ProviderInfo:
        """The provider: ``name``, ``endpoint``, ``demo``, ``label`` and ``capabilities`` (before
        the service is built: the name and endpoint it will have, no capabilities yet)."""
        if not self.is_ready:
            assert self.early is not None
            return self.early.info
        return self.service.provider_info

    @property
    def config(self) -> Any:
        """The configuration the current service runs with (the settings dialog shows it)."""
        if not self.is_ready:
            assert self.early is not None
            return self.early.config
        return self.service.config

    @property
    def demo(self) -> bool:
        return self.caps.demo

    @property
    def provider_label(self) -> str:
        return self.caps.label

    # -- life ------------------------------------------------------------------------------
    def start(self) -> None:
        """Resume: sweep leftover ``submitting`` records, continue in-flight tasks, poll."""
        self._stop = asyncio.Event()
        self.runner.run(self.service.run_poller(self._stop), background=True, what="poller")
        self.runner.run(self._status_loop(self._stop), background=True, what="status")

    async def _status_loop(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await self.refresh_status()
            try:
                await asyncio.wait_for(stop.wait(), timeout=STATUS_REFRESH_SECONDS)
            except asyncio.TimeoutError:
                pass

    async def refresh_status(self) -> Status:
        quota = (await self.service.quota()).payload
        queue = tuple(await self.reader.queue(QUEUE_LIMIT))
        # the count is the panel's rows (past the panel's limit: the store's exact count)
        running = len(queue) if len(queue) < QUEUE_LIMIT else await self.service.running_count()
        failing = await self.reader.failing_queries()
        self.status = Status(quota, running, failing, queue)
        self.statusChanged.emit(self.status)
        return self.status

    async def aclose(self) -> None:
        """Stop the poller, cancel everything, close the service's provider and store."""
        if self._stop is not None:
            self._stop.set()
        await self.runner.shutdown()
        if self.is_ready and self._on_task in self.service.listeners:
            self.service.listeners.remove(self._on_task)
        if self.owner is not None:
            await self.owner.aclose()
            self.owner = None

    def reconfigure(self, config: Any, done: Callable[[str | None], None] | None = None) -> None:
        """Replace the service with one built from ``config`` (settings applied).

        ``done`` gets None once the new service runs, or the reason it could not be built (the
        old service then keeps running, untouched).
        """
        if self._rebuild is None:
            if done is not None:
                done("settings are saved and apply on the next start")
            return
        failed = None if done is None else (lambda trouble: done(trouble.message))
        self.runner.run(self._reconfigure(config), done=done, failed=failed, what="apply settings")

    async def _reconfigure(self, config: Any) -> str | None:
        assert self._rebuild is not None
        await self.wait_ready()
        async with self._applying:
            try:
                new = await self._rebuild(config)
            except Exception as exc:  # noqa: BLE001 - a bad setting is said, the old service stays
                log.warning("settings not applied: %s", exc)
                return str(exc) or type(exc).__name__
            attached = False
            try:
                await self._stop_background()
                await self._finish_actions()
                if self._on_task in self.service.listeners:
                    self.service.listeners.remove(self._on_task)
                old = self.owner
                self.owner = new
                self.key_source = getattr(new, "key_source", "none")
                self.warnings = list(getattr(new, "warnings", []) or [])
                self.warning_codes = list(getattr(new, "warning_codes", []) or [])
                self._attach(new.service)
                attached = True
                if old is not None:
                    await old.aclose()
            finally:
                if not attached:  # cancelled (the app is closing): the new one never ran
                    await new.aclose()
            self.start()
            self.reset.emit()
            return None

    async def _stop_background(self, grace: float = 5.0) -> None:
        """End the poller and status loop of the current service: asked first, then cancelled;
        awaited either way, so nothing of the old service runs once this returns."""
        if self._stop is not None:
            self._stop.set()
        tasks = list(self.runner._background)
        if not tasks:
            return
        _done, pending = await asyncio.wait(tasks, timeout=grace)
        for t in pending:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _finish_actions(self) -> None:
        """Let work already started on the current service end (a create in flight must get its
        answer, or it would turn unknown); reads and status refreshes end in moments."""
        me = asyncio.current_task()
        deadline = time.monotonic() + float(getattr(self.config, "timeout", 60.0)) + 10.0
        while True:
            others = [t for t in self.runner._tasks - self.runner._background if t is not me]
            if not others:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                for t in others:
                    t.cancel()
                await asyncio.gather(*others, return_exceptions=True)
                return
            await asyncio.wait(others, timeout=left)

    # -- reads for models and panels ------------------------------------------------------
    def load(self, read: Coroutine[Any, Any, Any], *, done: Callable[[Any], None]) -> None:
        """Run a read of :attr:`reader` (``controller.reader.projects(...)``); ``done`` gets the
        result on the UI thread."""
        self.runner.run(read, done=done, what=getattr(read, "__name__", "read"))

    def call(
        self, fn: Callable[..., Any], *args: Any, done: Callable[[Any], None] | None = None
    ) -> None:
        """Run any other blocking function (file reads, image decoding) in a worker thread."""
        self.runner.run(
            asyncio.to_thread(fn, *args), done=done, what=getattr(fn, "__name__", "work")
        )

    def select(self, request_id: str | None) -> None:
        """Make ``request_id`` the current slot and load its record and history."""
        self._current = request_id
        if request_id is None:
            return
        self._reload_current()

    def _reload_current(self) -> None:
        if self._reload_pending:
            self._reload_again = True
            return
        self._reload_pending = True
        self.runner.run(self._load_slot(), what="load slot")

    async def _load_slot(self) -> None:
        try:
            while True:
                self._reload_again = False
                rid = self._current
                if rid is None:
                    return
                out = await self.service.history(rid)
                if rid != self._current:
                    continue
                history = out.payload if out.kind is OutcomeKind.OK else None
                events = list(history.events) if isinstance(history, History) else []
                self.slotLoaded.emit(rid, out.task, events)
                if not self._reload_again:
                    return
        finally:
            self._reload_pending = False

    def lookup(self, request_id: str, done: Callable[[Result[Any]], None]) -> None:
        """The local record of a RequestId (no network)."""
        self.runner.run(self.service.status(request_id), done=done, what="lookup")

    def twin_of(
        self,
        request_id: str,
        kind: str,
        params: dict[str, Any],
        done: Callable[[Any], None],
        failed: Callable[[Trouble], None] | None = None,
    ) -> None:
        """Another live, unknown or successful slot with exactly these parameters (the service's
        Twin, or None): a draft's Create asks before paying again. Reads only."""
        self.runner.run(
            self.service.twin_of(request_id, kind, params), done=done, failed=failed, what="twin"
        )

    def suggest(self, request_id: str, done: Callable[[str], None]) -> None:
        self.runner.run(self.service.suggest_request_id(request_id), done=done, what="suggest")

    def next_scene(self, prefix: str, done: Callable[[str], None]) -> None:
        """The next free ``scene-NN`` for a ``series:date:project:`` prefix."""
        self.runner.run(self.reader.next_scene(prefix), done=done, what="next scene")

    # -- actions ----------------------------------------------------------------------------
    def _act(self, action: str, coro: Coroutine[Any, Any, Result[Any]]) -> None:
        def done(out: Result[Any]) -> None:
            if out.kind is OutcomeKind.CONFLICT:
                self.conflictArrived.emit(out)
            self.outcomeArrived.emit(action, out)
            self.runner.run(self.refresh_status(), what="status")

        self.runner.run(
            coro, done=done, failed=lambda _m: self.actionFailed.emit(action), what=action
        )

    def submit(self, request_id: str, kind: str, params: dict[str, Any]) -> None:
        self._act("create", self._sending(self.service.submit(request_id, kind, params)))

    #: Creates being sent now (a slot's Create, a shot list's rows): quitting asks first.
    sending = 0

    async def _sending(self, coro: Coroutine[Any, Any, Any]) -> Any:
        self.sending += 1
        try:
            return await coro
        finally:
            self.sending -= 1

    def query(self, request_id: str) -> None:
        self._act("query", self.service.query(request_id))

    def recover(self, request_id: str, how: RecoverHow) -> None:
        self._act("recover", self.service.recover(request_id, how))

    def prompts(self, search: str, done: Callable[[Result[Any]], None]) -> None:
        """This user's earlier prompts matching ``search`` (prompt recall)."""
        self.runner.run(self.service.prompts(search, 200), done=done, what="prompts")

    def set_hidden(
        self, request_id: str, hidden: bool, done: Callable[[Result[Any]], None]
    ) -> None:
        """``slate hide`` / ``unhide``: the slot leaves the browser (or comes back); the record
        stays."""
        coro = self.service.hide(request_id) if hidden else self.service.unhide(request_id)
        self.runner.run(coro, done=done, what="hide")

    def prune_media(self, request_id: str, done: Callable[[Result[Any]], None]) -> None:
        """``slate prune-media RID``: the slot's local media files deleted, its record kept."""
        self.runner.run(self.service.prune_media(request_id), done=done, what="prune media")

    def look(self, request_id: str, done: Callable[[Result[Any]], None]) -> None:
        """The provider's task list searched for an unknown slot's create; attaches nothing."""
        self.runner.run(self.service.look(request_id), done=done, what="lookup")

    def spend(self, options: dict[str, Any], done: Callable[[Result[Any]], None]) -> None:
        """``slate spend`` for the Spend view (``project``, ``since``, ``by``)."""
        self.runner.run(self.service.spend(**options), done=done, what="spend")

    def price_list(self, done: Callable[[Result[Any]], None]) -> None:
        """``slate prices list`` for Settings → Prices."""
        self.runner.run(self.service.price_list(), done=done, what="prices")

    def set_price(
        self,
        model: str,
        amount: str,
        part: dict[str, Any],
        done: Callable[[Result[Any]], None],
    ) -> None:
        """``slate prices set``: this user's own price for a model (or one part of it)."""
        self._priced(self.service.set_price(model, amount, **part), done)

    def unset_price(
        self, model: str, part: dict[str, Any], done: Callable[[Result[Any]], None]
    ) -> None:
        """``slate prices unset``: the table's price again."""
        self._priced(self.service.unset_price(model, **part), done)

    def _priced(
        self, coro: Coroutine[Any, Any, Result[Any]], done: Callable[[Result[Any]], None]
    ) -> None:
        def finished(out: Result[Any]) -> None:
            done(out)
            if out.problem is None:
                self.pricesChanged.emit()
                self._refresh_status_soon()  # today's budget use counts at the new price

        self.runner.run(coro, done=finished, what="prices")

    def plan_batch(self, source: Any, base_dir: Any, done: Callable[[Result[Any]], None]) -> None:
        """The dry run of a shot list (a file's path, or a template's ShotList): sends nothing."""
        self.runner.run(self._batch("plan", source, base_dir), done=done, what="shot list")

    def run_batch(
        self,
        source: Any,
        base_dir: Any,
        on_progress: Callable[[Any], None],
        done: Callable[[Result[Any]], None],
        allow_twins: bool = False,
    ) -> None:
        """Submit the shot list's rows (ordinary submit semantics); progress per row. Rows with
        exactly another slot's settings are created only with ``allow_twins`` (the review asked)."""
        self.runner.run(
            self._sending(self._batch("run", source, base_dir, on_progress, allow_twins)),
            done=done,
            what="shot list",
        )

    async def _batch(
        self,
        how: str,
        source: Any,
        base_dir: Any,
        on_progress: Callable[[Any], None] | None = None,
        allow_twins: bool = False,
    ) -> Result[Any]:
        from pathlib import Path

        from app.service.batch import BatchSource
        from app.service.results import invalid

        if isinstance(source, (str, Path)):
            try:
                source = await asyncio.to_thread(BatchSource.from_file, source)
            except ValidationError as exc:
                return invalid(None, exc)
        if how == "plan":
            return await self.service.plan_batch(source, base_dir)
        out = await self.service.run_batch(
            source, base_dir, on_progress=on_progress, allow_twins=allow_twins
        )
        await self.refresh_status()
        return out

    def cancel(self, request_id: str) -> None:
        self._act("cancel", self.service.cancel(request_id))

    def enhance(
        self,
        request_id: str,
        new_request_id: str,
        draft: tuple[str, dict[str, Any]],
        done: Callable[[Result[Any]], None],
    ) -> None:
        """MiniMax-H3's prompt enhancement of the draft ``request_id`` as the slot
        ``new_request_id`` (the service's ``enhance``: replayed on the same prompt)."""

        def finished(out: Result[Any]) -> None:
            done(out)
            self.runner.run(self.refresh_status(), what="status")

        self.runner.run(
            self._sending(self.service.enhance(request_id, new_request_id, draft=draft)),
            done=finished,
            what="enhance",
        )

    def regenerate(
        self, request_id: str, new_request_id: str, done: Callable[[Result[Any]], None]
    ) -> None:
        """A finished 768P MiniMax-H3 slot re-rendered at 2K as ``new_request_id`` (the
        service's ``regenerate``: replay, conflict, unknown as for any create)."""

        def finished(out: Result[Any]) -> None:
            done(out)
            self.runner.run(self.refresh_status(), what="status")

        self.runner.run(
            self._sending(self.service.regenerate(request_id, "2K", new_request_id)),
            done=finished,
            what="regenerate",
        )

    def export(self, request_id: str, to: str) -> None:
        self._act("export", self.service.export(request_id, to))

    def set_api_key(self, key: str, done: Callable[[str | None], None]) -> None:
        """Store the key in the OS keyring (never shown back); ``done`` gets an error or None."""
        from app.service import secrets

        def store() -> str | None:
            secrets.set_api_key(key)

        self._key_op(store, done)

    def delete_api_key(self, done: Callable[[str | None], None]) -> None:
        """Remove the stored key (only when the user asked for it); ``done`` gets an error or None."""
        from app.service import secrets

        def delete() -> None:
            secrets.delete_api_key()

        self._key_op(delete, done)

    def _key_op(self, op: Callable[[], None], done: Callable[[str | None], None]) -> None:
        from app.service import secrets

        def run() -> tuple[str | None, str]:
            err: str | None = None
            try:
                op()
            except (secrets.KeyringUnavailable, ValueError) as exc:
                err = str(exc)
            return err, secrets.api_key()[1]

        def finished(result: tuple[str | None, str]) -> None:
            err, self.key_source = result
            done(err)

        self.call(run, done=finished)

    def probe_media(
        self, source: str, kind: str, field: str, protocol: str, done: Callable[[Any], None]
    ) -> None:
        """Read and check one input off the UI thread: ``done`` gets the
        :class:`~app.ui.inputs.MediaInput`, or the rules' refusal (a ValidationError)."""
        from app.ui.inputs import probe_media

        def read() -> Any:
            try:
                return probe_media(source, kind, field, protocol)
            except ValidationError as exc:
                return exc

        self.call(read, done=done)

    def voices(self, done: Callable[[Result[Any]], None]) -> None:
        """The voices a voice line may use (the service's answer: the provider's list, or the
        documented system voices), ``done`` on the UI thread."""
        self.runner.run(self.service.voices(), done=done, what="voices")

    def voice_list(self, done: Callable[[Result[Any]], None]) -> None:
        """``slate voice list --type designed``: the designed voices with the day each was made,
        last used and will be deleted if unused, and the voice slot that made it."""
        self.runner.run(self.service.voice_list("designed"), done=done, what="voices")

    def design_voice(
        self,
        request_id: str,
        prompt: str,
        preview_text: str,
        done: Callable[[Result[Any]], None],
        failed: Callable[[Trouble], None] | None = None,
    ) -> None:
        """``slate voice design``: a voice slot, with the submit's outcomes (replay, conflict,
        unknown) for ``done`` to say; ``failed`` gets the trouble when the work raised."""

        def finished(out: Result[Any]) -> None:
            done(out)
            self.runner.run(self.refresh_status(), what="status")

        self.runner.run(
            self._sending(self.service.design_voice(request_id, prompt, preview_text)),
            done=finished,
            failed=failed,
            what="design voice",
        )

    def preview_price(
        self, voice: str, model: str | None, done: Callable[[Result[Any]], None]
    ) -> None:
        """What hearing ``voice`` costs before the click pays (the service's
        :class:`~app.service.preview.PreviewQuote`): a designed voice's trial, or a speech slot."""
        self.runner.run(
            self.service.preview_price(voice, model=model), done=done, what="preview price"
        )

    def preview_voice(
        self,
        voice: str,
        model: str | None,
        done: Callable[[Result[Any]], None],
        failed: Callable[[Trouble], None] | None = None,
    ) -> None:
        """Hear ``voice``: the preview made (or replayed), or a designed voice's trial;
        ``failed`` gets the trouble, typed, when the work raised."""

        def finished(out: Result[Any]) -> None:
            done(out)
            self.runner.run(self.refresh_status(), what="status")

        self.runner.run(
            self._sending(self.service.preview_voice(voice, model=model)),
            done=finished,
            failed=failed,
            what="preview voice",
        )

    def estimate(self, kind: str, params: dict[str, Any]) -> Result[Any]:
        """A draft's cost before Create (no I/O: the price table is read once)."""
        if not self.is_ready:  # the first moments of a start: the figure comes with the service
            return Result(OutcomeKind.INVALID)
        try:
            return self.service.estimate(kind, params)
        except Exception as exc:  # noqa: BLE001 - a price table that cannot be read: no figure
            log.warning("no estimate: %s", exc)
            return Result(OutcomeKind.INVALID)

    def read_data_url(self, path: str, done: Callable[[str | None, str | None], None]) -> None:
        """Read an image file into a ``data:image/...;base64`` URL: ``done(url, error)``."""

        def read() -> tuple[str | None, str | None]:
            try:
                return image_file_data_url(path, "image"), None
            except ValidationError as exc:
                return None, exc.message

        self.call(read, done=lambda r: done(*r))
