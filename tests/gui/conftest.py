"""GUI fixtures: a qasync loop on pytest-qt's QApplication, a service on the demo provider, a window.

The qasync loop is made with ``already_running=True``: Qt's event loop drives asyncio, exactly as
in the app. Tests are plain (sync) pytest-qt tests that wait with ``qtbot.waitUntil`` from the
test function (``gui.run`` / ``gui.until``) and never from inside a coroutine, so no event loop is
ever nested inside a coroutine.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import qasync

from app.config import Config
from app.providers.minimax import MiniMaxProvider
from app.service.slate import SlateService
from app.sim import SimServer
from app.store.aio import Store, open_store
from app.store.repository import Repository
from app.ui.qt import QApplication, QEvent, QObject, QSettings
from tests.support.fixtures import SECRET, copy_migrated_store, make_config, sqlite_url

SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"


@pytest.fixture(scope="session", autouse=True)
def _loaded_modules_frozen(qapp: Any) -> None:
    """What this worker has loaded before its first GUI test (the app's and the tests' modules,
    Qt's wrappers, the QApplication) moved out of the cycle collector's way, as a slate process
    does with what it loads (``gc.freeze``, ``app.__main__``): the full collection that ends
    every GUI test then walks what the tests made, not every module's objects again."""
    import gc

    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _collect_on_the_gui_thread(qapp: Any) -> Iterator[None]:
    """The app's collection (``MainThreadCollector``: cycles freed on the GUI thread only) in
    every GUI test; at its end the windows it closed are deleted and their cycles freed here,
    on the GUI thread, not by a collection some later test's worker thread happens to run."""
    from app.ui.app import MainThreadCollector

    collector = MainThreadCollector(qapp)
    try:
        yield
    finally:
        _free_closed()
        collector.stop()
        collector.setParent(None)


def _free_closed() -> None:
    """The closed windows deleted and their cycles freed, on the GUI thread."""
    import gc

    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


@pytest.fixture(autouse=True)
def _thumb_workers_on_first_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """A window's thumbnail workers start at the gallery's first thumbnail, not one second
    after the window (the app's warm start, ``thumbs.WARM_START``): a test window that shows
    no thumbnail spawns no decoder processes. Each warm start costs two interpreters importing
    PyAV and Pillow (~0.8 s of CPU), paid by most GUI tests for nothing; the warm start itself
    has its own test (test_gallery_thumbs), and the gallery's tests still decode in the
    worker processes."""
    from app.ui.gallery import thumbs

    monkeypatch.setattr(thumbs, "WARM_START", None)


@dataclass
class Gui:
    qtbot: Any
    loop: asyncio.AbstractEventLoop
    config: Config
    store: Store
    provider: MiniMaxProvider
    service: SlateService
    sim: SimServer
    settings_path: Path

    @property
    def repo(self) -> Repository:
        return self.store.repo

    # Generous defaults: under xdist several windows, demo providers and downloads share two
    # cores with other workers' subprocesses; a wait that holds only on a quiet machine is a
    # flaky test (a timeout is a bound on a hang, not an assertion about speed).
    def run(self, coro: Any, timeout: float = 60.0) -> Any:
        """Run a coroutine on the app's loop; the test waits outside it (Qt events drive it)."""
        task = self.loop.create_task(coro)
        self.qtbot.waitUntil(task.done, timeout=int(timeout * 1000))
        return task.result()

    def until(self, predicate: Callable[[], Any], timeout: float = 45.0, what: str = "") -> Any:
        box: list[Any] = []

        def check() -> bool:
            value = predicate()
            if value:
                box.append(value)
            return bool(value)

        try:
            self.qtbot.waitUntil(check, timeout=int(timeout * 1000))
        except Exception as exc:  # noqa: BLE001 - say what we waited for
            raise AssertionError(f"timed out waiting for {what or predicate}") from exc
        return box[-1]

    def quiet(self, window: Any, timeout: float = 60.0) -> None:
        """The window's controller has no work left (its runner settled, twice in a row): what
        a click started has been done, so "nothing happened" can be asserted after it."""
        runner = window.controller.runner
        if not self.run(runner.settled(timeout), timeout=timeout + 15):
            raise AssertionError(f"the window's work never settled ({runner.busy} running)")

    def laid_out(self, widget: Any = None) -> None:
        """Qt's deferred layouts done now: the posted layout requests sent (a layout that
        changes a size posts the next request, hence a few rounds)."""
        for _ in range(5):
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        if widget is not None:
            widget.ensurePolished()

    def drained(self, widget: Any = None) -> None:
        """What Qt has queued by now has run, without waiting for time to pass: the posted
        events and the zero-time timers (an item view's delayed item layout, a header's
        delayed section resize, a ``singleShot(0)`` fit), the layouts they post, and the
        repaints asked for (the widgets' update requests sent). A few rounds: what one round
        runs may queue the next."""
        for _ in range(5):
            QApplication.processEvents()
            self.laid_out()
            QApplication.sendPostedEvents(None, QEvent.Type.UpdateRequest)
        if widget is not None:
            widget.ensurePolished()

    def resize(self, widget: Any, width: int, height: int, timeout: float = 45.0) -> None:
        """Resize ``widget`` and wait until it has handled the resize (its ``resizeEvent`` ran
        at that size), then lay it out: what follows sees the window as resized."""
        target = (width, height)
        if (widget.width(), widget.height()) == target:
            self.laid_out(widget)
            return
        seen: list[tuple[int, int]] = []
        spy = _ResizeSpy(seen)
        widget.installEventFilter(spy)
        try:
            widget.resize(width, height)
            self.until(
                lambda: target in seen and (widget.width(), widget.height()) == target,
                timeout=timeout,
                what=f"{widget.objectName() or type(widget).__name__} resized to {target}",
            )
        finally:
            widget.removeEventFilter(spy)
        self.laid_out(widget)

    def settings(self) -> QSettings:
        return QSettings(str(self.settings_path), QSettings.Format.IniFormat)

    def other_service(self) -> SlateService:
        """The same tenant and user in another process (no listeners: the window isn't told)."""
        return SlateService(self.config, self.store, self.provider, SECRET)


class _ResizeSpy(QObject):
    """Notes the sizes of the resize events its widget receives."""

    def __init__(self, seen: list[tuple[int, int]]) -> None:
        super().__init__()
        self.seen = seen

    def eventFilter(self, _obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Resize:
            size = event.size()
            self.seen.append((size.width(), size.height()))
        return False


@pytest.fixture
def qloop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        # Kill the loop's pending Qt timers here, on the GUI thread: a QObject with live timers
        # that is garbage-collected from a worker thread makes Qt warn.
        timer = loop._timer  # type: ignore[attr-defined]
        callbacks = timer._SimpleTimer__callbacks
        for timer_id in list(callbacks):
            timer.killTimer(timer_id)
        callbacks.clear()
        loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
        asyncio.events._set_running_loop(None)
        loop.close()
        asyncio.set_event_loop(None)


def _gui(
    qtbot: Any,
    loop: asyncio.AbstractEventLoop,
    data_dir: Path,
    sim: SimServer,
    tmp_path: Path,
    url: str | None = None,
    **kw: Any,
) -> Gui:
    url = url or sqlite_url(data_dir)
    config = make_config(data_dir, url, **kw)
    store = open_store(url)
    provider = MiniMaxProvider(
        "sk-test-key-123456",
        sim.base_url,
        name="demo",
        endpoint="local",
        timeout=5.0,
        connect_timeout=10.0,
    )
    service = SlateService(config, store, provider, SECRET)
    return Gui(qtbot, loop, config, store, provider, service, sim, tmp_path / "slate-settings.ini")


@pytest.fixture
def sim(demo_sim: SimServer) -> SimServer:
    return demo_sim


@pytest.fixture
def gui(
    qtbot: Any,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    sim: SimServer,
    tmp_path: Path,
    migrated_store: bytes,
) -> Iterator[Gui]:
    """A service on a store of its own (a copy of the migrated one: no rows, newest schema)."""
    copy_migrated_store(migrated_store, data_dir)
    g = _gui(qtbot, qloop, data_dir, sim, tmp_path)
    try:
        yield g
    finally:
        g.run(g.provider.aclose())
        g.store.close()


@pytest.fixture
def make_window(gui: Gui, qtbot: Any) -> Iterator[Callable[..., Any]]:
    """Open a window (controller started, resume included); closed and awaited at the end."""
    from app.ui.controller import Controller
    from app.ui.window import MainWindow

    opened: list[tuple[Any, Any]] = []

    def make(service: SlateService | None = None, start: bool = True) -> Any:
        controller = Controller(service or gui.service)
        window = MainWindow(controller, gui.settings())
        qtbot.addWidget(window)
        window.show()
        if start:
            controller.start()
        opened.append((controller, window))
        gui.until(lambda: window.model.started, what="first page of slots")
        return window

    yield make
    for controller, window in opened:
        close(gui, controller, window)


def close(gui: Gui, controller: Any, window: Any) -> None:
    import shiboken6

    if getattr(controller, "_closed_by_test", False):
        return
    controller._closed_by_test = True
    if shiboken6.isValid(window) and window.isVisible():
        window.close()
    gui.run(controller.aclose())


def shown(window: Any, request_id: str) -> bool:
    """The record of ``request_id`` is the slot on screen."""
    task = window.slot.task
    return task is not None and task.request_id == request_id


def buttons(window: Any) -> dict[Any, Any]:
    """The slot pane's action buttons, by Action."""
    return window.slot_pane.actions.buttons


def fill_form(window: Any, rid: str, prompt: str, kind: str = "video", **params: Any) -> None:
    form = window.slot_pane.form
    if kind == "image":
        form.image_radio.setChecked(True)
    else:
        form.video_radio.setChecked(True)
    if "model" in params:
        form.set_model(params["model"])
    window.slot_pane.composer.set_request_id(rid)
    form.prompt.setPlainText(prompt)
    if "duration" in params:
        form.duration.set_value(params["duration"])
    if "resolution" in params:
        form.resolution.setCurrentText(params["resolution"])
    if "n" in params:
        form.n.setValue(params["n"])


@pytest.fixture(params=["en", "zh_CN"])
def lang(request: Any, qapp: Any) -> Any:
    """The window's words in English, then in Chinese (English again afterwards)."""
    from app.ui.language import install_translations

    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")
