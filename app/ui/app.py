"""Starting the desktop app: Qt application, icon, translations, saved settings, qasync, shutdown.

``run_gui`` runs everything on one qasync loop (``qasync.run``): the window never waits on a
disk or the network, the controller owns the background work, the app stops when its last
window closes (``lastWindowClosed``, not ``aboutToQuit``) and then awaits the cleanup.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
from typing import Any, Callable

from app.config import ENV_API_KEY, Config
from app.ui.assets import app_icon
from app.ui.language import install_translations
from app.ui.qt import (
    QApplication,
    QMessageBox,
    QObject,
    QTimer,
)
from app.ui.settings import Settings, fixed_fields

log = logging.getLogger(__name__)


def make_app(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv or [sys.argv[0] if sys.argv else "slate"])
    assert isinstance(app, QApplication)
    app.setApplicationName("Slate")
    app.setOrganizationName("Slate")
    app.setApplicationDisplayName("Slate")
    app.setDesktopFileName("io.slate.Slate")
    app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)
    return app


class MainThreadCollector(QObject):
    """Python's cycle collection, run on the GUI thread only.

    With the collector on, a collection runs in whichever thread happens to allocate: a worker
    thread (a thumbnail decode, the service's reads) could then free the Python wrapper of a Qt
    object while the GUI thread deletes or uses that object — a crash inside Qt (seen in
    ``QListWidget.clear()``). Here automatic collection is off and a timer on the GUI thread
    collects each generation when Python would have (its thresholds, checked every
    ``interval_ms``). Reference counting frees everything that is not a cycle as before."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = 500) -> None:
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        self.was_enabled = gc.isenabled()
        self.collections = 0
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        gc.disable()
        self.timer.start()

    def check(self) -> None:
        counts = gc.get_count()
        due = [g for g in (2, 1, 0) if counts[g] > self.threshold[g]]
        if due:
            gc.collect(due[0])  # the oldest generation due, with the younger ones
            self.collections += 1

    def stop(self) -> None:
        """Automatic collection as it was before (tests; the app runs it to its end)."""
        self.timer.stop()
        if self.was_enabled:
            gc.enable()


def freeze_started() -> None:
    """The start is done: what it made lives as long as the app (the GUI's and the service's
    modules and classes, the window's widgets' wrappers; ~100k objects) and is moved out of
    the cycle collector's way (``gc.freeze``, as ``app.__main__`` does with what the command
    line loads). Every full collection walked it all again otherwise: a 50-180 ms pause of the
    window's loop each time (issue 34); frozen, it walks what was made since. The young
    generations are collected first (they are collected soon anyway), so no garbage the start
    left is kept."""
    gc.collect(1)
    gc.freeze()


#: Seconds a ``--describe`` or ``--screenshot`` run may take to close once its answer is out
#: (``SLATE_CLOSE_WITHIN`` sets another).
CLOSE_WITHIN = 30.0


def end_within(seconds: float | None = None) -> None:
    """The answer is out: should closing take longer than ``seconds`` (a thread that never
    ends, a teardown stuck in Qt), every thread's stack goes to stderr and the process ends
    with exit 1, instead of holding its caller until it gives up. faulthandler's watchdog is a
    thread of its own in C: it fires even when the main thread holds the GIL."""
    import faulthandler

    if seconds is None:
        seconds = float(os.environ.get("SLATE_CLOSE_WITHIN") or CLOSE_WITHIN)
    sys.stderr.flush()
    faulthandler.dump_traceback_later(seconds, exit=True, file=sys.stderr)


#: Seconds the service may take to close before the run says on stderr what closing waits on.
CLOSE_GRACE = 10.0


def say_pending(out: Any = None) -> int:
    """Every asyncio task still pending, with where it waits, to ``out`` (stderr): what a close
    that does not end waits on. faulthandler's dump shows threads only, and with the loop idle
    every thread waits for work; the stuck coroutine is here. The number of tasks."""
    out = sys.stderr if out is None else out
    current = asyncio.current_task()
    pending = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
    for task in pending:
        out.write(f"slate: still pending: {task!r}\n")
        task.print_stack(file=out)
    out.flush()
    return len(pending)


async def close_in_time(closing: Any, grace: float | None = None) -> bool:
    """Await ``closing`` (the controller's ``aclose()``); False, once the tasks it waits on
    are said (:func:`say_pending`), when it has not ended within ``grace`` seconds. It goes on
    in the background then; the caller decides whether to wait longer."""
    if grace is None:
        grace = float(os.environ.get("SLATE_CLOSE_GRACE") or CLOSE_GRACE)
    task = asyncio.ensure_future(closing)
    done, _ = await asyncio.wait({task}, timeout=grace)
    if task in done:
        task.result()
        return True
    log.warning("closing took over %.0f s", grace)
    sys.stderr.write(f"slate: closing takes over {grace:g} s; it waits on:\n")
    say_pending()
    return False


# -- running -----------------------------------------------------------------------------------------
async def _build(config: Config) -> Any:
    from app.bootstrap import build

    def built() -> Any:
        slate = build(config)
        slate.warm()  # the first submit's making here (client, prices), not on the loop
        return slate

    return await asyncio.to_thread(built)


async def _tell(title: str, text: str) -> None:
    box = QMessageBox(QMessageBox.Icon.Critical, title, text)
    done: asyncio.Future[None] = asyncio.get_event_loop().create_future()
    box.finished.connect(lambda _r: done.done() or done.set_result(None))
    box.open()
    await done


async def amain(
    app: QApplication,
    config: Config,
    settings: Settings,
    *,
    screenshot: str | None = None,
    select: str | None = None,
    size: tuple[int, int] | None = None,
    describe: bool = False,
    lang: str = "en",
    key_source: str = "none",
    configured: Callable[[str], Config] | None = None,
) -> int:
    """Run the window until it closes. ``screenshot`` runs get a throwaway copy of ``settings``
    (the window saves its layout on close): a screenshot never writes the user's settings.
    ``describe`` (``slate gui --describe``) prints what the settled window shows as one JSON
    object (``app.ui.describe``) and exits, like a screenshot.

    Paint first, load after (issue 34): the window is shown, with the first page of slots read
    straight from the store's file, before the service is built (``app.bootstrap``: the store,
    SQLAlchemy, the provider); the controller hands it in when it is (``Controller.attach``).
    ``key_source`` is where the key is expected to be (the last start's answer); with
    ``configured`` the key is looked up after the first paint (in a worker thread) and the
    service is built with ``configured(where it was found)``."""
    from app.domain.listing import PROJECT_READ
    from app.service.early import Early

    early = Early.of(config, has_key=key_source != "none")
    early.prefetch(PROJECT_READ)  # read while the window's modules are imported
    from app.domain.errors import SlateError
    from app.ui.controller import Controller
    from app.ui.window import MainWindow

    screenshot_like = bool(screenshot) or describe  # looks once, asks nothing, writes nothing
    controller = Controller(early=early, rebuild=_build)
    if screenshot_like and not settings.is_snapshot:
        settings = settings.snapshot()
    # a describe run answers once the window has settled: it is made whole, as before paint
    # first (CI saw two describes' closes outlast their 30 s under load with it deferred)
    window = MainWindow(controller, settings, paint_first=not describe)
    answered: int | None = None  # a run that only looks: its exit code, once its answer is out
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    if size is not None:  # slate gui --size WxH: this size, whatever the saved layout says
        window.resize(*size)
    window.show()
    if size is not None:
        window.resize(*size)
    if os.environ.get("SLATE_GUI_PROBE"):  # tests that drive the real window from outside
        from app.ui.probe import attach

        attach(window, os.environ["SLATE_GUI_PROBE"])
    controller.start()
    # the slot to show is asked for now (it loads with the service): a click the designer makes
    # meanwhile comes after it and wins
    target = select or (None if screenshot_like else settings.qsettings.value("window/lastSlot"))
    if target:
        window.select(str(target))
    try:
        await controller.first_page_tried()
        await asyncio.sleep(0)  # its rows are in and painted before the store is imported
        window.finish_start()  # then the create form and the first draft
        if configured is not None:
            found = await asyncio.to_thread(_key_source)
            settings.last_key_source = found
            config = configured(found)
        slate = await _built(config, screenshot_like)
        if slate is None:  # the designer quit rather than choose another folder
            return 2
        controller.attach(slate)
        freeze_started()  # the start is done: its objects live as long as the app
        if describe:
            import json

            from app.ui import describe as describe_mod

            await describe_mod.settle(window, controller, target)
            seen = describe_mod.describe(window, selected=select, lang=lang)
            sys.stdout.write(json.dumps(seen, ensure_ascii=False) + "\n")
            sys.stdout.flush()
            end_within()
            answered = 0
            window.close()
            return 0
        if screenshot:
            await controller.runner.settled()
            await asyncio.sleep(0.2)
            await controller.runner.settled()
            await asyncio.sleep(0.05)  # what is posted is painted (never processEvents here)
            ok = window.grab().save(screenshot, "PNG")
            end_within()
            answered = 0 if ok else 1
            window.close()
            if not ok:
                sys.stderr.write(f"slate: could not write {screenshot}\n")
                return 1
            return 0
        await closed.wait()
        return 0
    except SlateError as exc:  # the data dir or store cannot be used (and nothing was chosen)
        sys.stderr.write(f"slate: {exc}\n")
        if not screenshot_like:
            await _tell("Slate", str(exc))
        return 2
    finally:
        while getattr(window, "replaced_by", None) is not None:  # the language was switched
            window = window.replaced_by
        if window.isVisible():
            window.close()
        if not await close_in_time(controller.aclose()) and answered is not None:
            # a run that only looks wrote nothing and its answer is out: it ends now rather
            # than on the watchdog's exit 1 (what closing waits on is on stderr)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(answered)


async def _built(config: Config, screenshot_like: bool) -> Any:
    """The service of ``config``; while its folder cannot be used, the designer is asked for
    another (a screenshot asks nothing: the error is raised). None: the designer quit."""
    if screenshot_like:
        return await _build(config)
    from app.ui.unusable import build_or_ask

    return await build_or_ask(config, _build)


def run_gui(
    config: Config,
    screenshot: str | None = None,
    select: str | None = None,
    lang: str | None = None,
    size: tuple[int, int] | None = None,
    describe: bool = False,
) -> int:
    """The desktop app (``slate``, ``slate gui``). ``screenshot`` renders the window to a PNG and
    exits, writing none of the user's settings; ``size`` (``--size WxH``) sets the window's size;
    ``describe`` prints what the window shows as JSON and exits (``app.ui.describe``)."""
    import qasync

    app = make_app()
    MainThreadCollector(app)  # Qt objects' wrappers are freed on the GUI thread only
    settings = Settings(fixed=fixed_fields(config))
    saved = settings.language  # chosen in Settings; --lang wins for this run
    name = install_translations(app, lang or (None if saved == "system" else saved))
    if screenshot or describe:
        settings = settings.snapshot()
    given = config

    def configured(key_source: str) -> Config:
        try:
            return settings.config(given, key_source=key_source)
        except Exception as exc:  # noqa: BLE001 - bad saved settings must not lock the user out
            log.warning("ignoring saved settings: %s", exc)
            return given

    # The key is looked up (keyring: about a tenth of the start) after the first paint; until
    # then the window shows the slots of the provider the last start found.
    guess = "env" if os.environ.get(ENV_API_KEY, "").strip() else settings.last_key_source
    return int(
        qasync.run(
            amain(
                app,
                configured(guess),
                settings,
                screenshot=screenshot,
                select=select,
                size=size,
                describe=describe,
                lang=name,
                key_source=guess,
                configured=configured,
            )
        )
    )


def _key_source() -> str:
    from app.service import secrets

    return secrets.api_key()[1]
