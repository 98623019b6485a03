"""Paint first, load after (issue 34): the window is made and shown before its service is built.

Until ``Controller.attach`` hands the service in, the browser's first page comes from the store's
file by the store's own statement (``app.store.first_page``), and every other call waits for the
service, then runs: nothing is refused or lost for being early. A start the file cannot answer
(no store yet, another folder chosen) shows its rows once the service is there.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from app.domain.listing import PROJECT_READ, SlotFilter
from app.service.early import Early
from app.ui.controller import Controller
from app.ui.models import PROJECT_PAGE
from app.ui.qt import QModelIndex, QWidget
from app.ui.window import MainWindow
from tests.gui.bulk import fill, insert_slot
from tests.gui.conftest import Gui, close


class Built:
    """What ``bootstrap.build`` hands the controller: the service and its config (the store
    and provider stay the fixture's, closed by it)."""

    def __init__(self, gui: Gui) -> None:
        self.service = gui.service
        self.config = gui.config
        self.key_source = "none"
        self.warnings: list[str] = []
        self.warning_codes: list[str] = []

    async def aclose(self) -> None:
        return None


def _early_window(
    gui: Gui, qtbot: Any, config: Any = None, *, paint_first: bool = False
) -> tuple[Controller, MainWindow]:
    controller = Controller(early=Early.of(config or gui.config, has_key=False))
    window = MainWindow(controller, gui.settings(), paint_first=paint_first)
    qtbot.addWidget(window)
    window.show()
    controller.start()
    return controller, window


def _projects(window: MainWindow) -> list[str | None]:
    model = window.model
    return [model.group_key(model.index(i, 0)) for i in range(model.rowCount(QModelIndex()))]


def test_the_first_rows_come_from_the_store_file_before_the_service(gui: Gui, qtbot: Any) -> None:
    fill(gui.store.engine, gui.service, 240, projects=6)
    rid = "article:20261205:paint-first:scene-01"
    insert_slot(gui.service, rid, "success", kind="image")
    expected = gui.run(gui.service.reader.projects(SlotFilter(), limit=PROJECT_PAGE))
    controller, window = _early_window(gui, qtbot)
    try:
        gui.until(lambda: _projects(window), what="the first rows, from the file")
        assert not controller.is_ready
        assert _projects(window) == [g.key for g in expected]
        assert controller.caps.demo and controller.config is gui.config

        looked: list[Any] = []
        controller.lookup(rid, looked.append)  # early: it waits for the service
        qtbot.wait(100)
        assert looked == [] and not controller.is_ready
        readied: list[bool] = []
        controller.ready.connect(lambda: readied.append(True))
        controller.attach(Built(gui))
        gui.until(lambda: looked, what="the early lookup's answer")
        assert looked[0].task is not None and looked[0].task.request_id == rid
        assert readied == [True] and controller.is_ready
        assert _projects(window) == [g.key for g in expected]  # the same page: no reload
    finally:
        close(gui, controller, window)


def test_a_start_the_file_cannot_answer_shows_its_rows_with_the_service(
    gui: Gui, qtbot: Any, tmp_path: Any
) -> None:
    """The early start names a store file that is not there (the first start, or the designer
    chose another folder while the window opened): no rows until the service is built, then
    the service's store's rows, read again."""
    fill(gui.store.engine, gui.service, 60, projects=3)
    elsewhere = dataclasses.replace(
        gui.config, store=f"sqlite:///{(tmp_path / 'none' / 'slate.sqlite3').as_posix()}"
    )
    controller, window = _early_window(gui, qtbot, elsewhere)
    try:
        qtbot.wait(200)
        assert _projects(window) == [] and not controller.is_ready
        controller.attach(Built(gui))
        gui.until(lambda: len(_projects(window)) == 3, what="the service's rows")
    finally:
        close(gui, controller, window)


def test_a_controller_needs_a_service_or_an_early_start(gui: Gui) -> None:
    try:
        Controller()
    except ValueError as exc:
        assert "early start" in str(exc)
    else:
        raise AssertionError("a controller with nothing to show was made")
    controller = Controller(gui.service)
    assert controller.is_ready
    try:
        controller.attach(Built(gui))
    except RuntimeError:
        pass
    else:
        raise AssertionError("a second service was attached")


def test_a_wrong_guess_of_the_provider_is_read_again_with_the_service(gui: Gui, qtbot: Any) -> None:
    """The first window guesses the provider from where the last start found the key (the
    keyring is read after the first paint): a key removed since shows MiniMax's slots first,
    then the demo provider's once the service is built."""
    fill(gui.store.engine, gui.service, 40, projects=2)
    expected = gui.run(gui.service.reader.projects(SlotFilter(), limit=PROJECT_PAGE))
    guessed = dataclasses.replace(gui.config, provider=None)  # as a start without flags
    controller = Controller(early=Early.of(guessed, has_key=True))
    assert (controller.caps.name, controller.caps.endpoint) == ("minimax", "global")
    window = MainWindow(controller, gui.settings())
    qtbot.addWidget(window)
    window.show()
    controller.start()
    try:
        gui.until(lambda: window.model.started, what="the first page asked")
        qtbot.wait(100)
        assert _projects(window) == []  # MiniMax's slots: none in this store
        controller.attach(Built(gui))
        gui.until(lambda: _projects(window) == [g.key for g in expected], what="demo's rows")
        assert controller.caps.demo
    finally:
        close(gui, controller, window)


def test_the_last_key_source_is_remembered(gui: Gui) -> None:
    from app.ui.settings import Settings

    settings = Settings(gui.settings())
    assert settings.last_key_source == "none"
    settings.last_key_source = "keyring"
    assert Settings(gui.settings()).last_key_source == "keyring"
    settings.last_key_source = "somewhere"  # not a source: kept as it was
    assert Settings(gui.settings()).last_key_source == "keyring"


def test_the_sound_pages_are_made_when_a_sound_kind_is_first_chosen(gui: Gui, qtbot: Any) -> None:
    """The Music and Voice pages (a hundred widgets) are not made with the window; chosen, they
    are, and take the form's state (read-only here) as if they had always been there."""
    controller, window = _early_window(gui, qtbot)
    try:
        form = window.slot_pane.form
        assert form.sound.pages.count() == 0  # not made for the first paint
        form.set_read_only(True)
        form.sound.choose("music")
        assert form.sound.pages.count() == 2 and form.sound.pages.currentIndex() == 0
        assert form.sound.lyrics.isReadOnly() and not form.sound.instrumental.isEnabled()
        form.set_read_only(False)
        assert not form.sound.lyrics.isReadOnly() and form.sound.instrumental.isEnabled()
    finally:
        close(gui, controller, window)

    controller, window = _early_window(gui, qtbot)
    try:
        sound = window.slot_pane.form.sound
        assert sound.voice_id() == ""  # asking the voice makes nothing
        assert sound.pages.count() == 0
        assert sound.speech_format.currentData() == "mp3"  # a page's widget asked for: made
        assert sound.pages.count() == 2
        with pytest.raises(AttributeError, match="no_such_field"):
            _ = sound.no_such_field
    finally:
        close(gui, controller, window)


def test_a_page_read_ahead_is_in_the_window_before_it_is_shown(gui: Gui, qtbot: Any) -> None:
    """The start reads the first page while the window's modules import; read by the time the
    window is made, its rows are in the tree before the first paint (no empty tree first), and
    the service's build is not held up waiting for it."""
    fill(gui.store.engine, gui.service, 60, projects=3)
    expected = gui.run(gui.service.reader.projects(SlotFilter(), limit=PROJECT_PAGE))
    early = Early.of(gui.config, has_key=False)
    early.prefetch(PROJECT_READ)  # as the start reads it: the page and one row more
    gui.until(lambda: early._ahead[PROJECT_READ].done(), what="the page read ahead")
    controller = Controller(early=early)
    window = MainWindow(controller, gui.settings())
    qtbot.addWidget(window)
    try:
        assert not window.isVisible()
        assert _projects(window) == [g.key for g in expected]  # in before the window shows
        assert not window.model.loading
        gui.run(controller.first_page_tried(timeout=0.01))  # tried: the build may go on
        assert controller._early_reader.tried.is_set()
        window.show()
        controller.start()
        controller.attach(Built(gui))
        gui.until(lambda: controller.is_ready, what="the service")
        assert _projects(window) == [g.key for g in expected]  # the same page: no reload
    finally:
        close(gui, controller, window)


def _tab_stops(window: MainWindow, count: int) -> list[str]:
    """The next ``count`` visible Tab stops after the draft's RequestId field, by name."""
    from app.ui.qt import Qt

    w, out = window.slot_pane.composer.full, []
    while len(out) < count:
        w = w.nextInFocusChain()
        if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.isVisible():
            out.append(w.objectName() or type(w).__name__)
    return out


def test_the_create_form_is_made_after_the_first_paint_and_tabs_as_if_made_first(
    gui: Gui, qtbot: Any
) -> None:
    """The app's window (``paint_first``) is shown without the create form; ``finish_start``
    (after the first rows are painted) makes it and the first draft. The Tab order is then the
    whole window's: the RequestId, the form's fields, Create."""
    whole = MainWindow(Controller(gui.service), gui.settings())
    qtbot.addWidget(whole)
    whole.show()
    whole.new_draft()
    gui.until(lambda: whole.slot_pane.form.prompt.isVisible(), what="the whole window's form")
    expected = _tab_stops(whole, 24)
    assert expected.index("promptEdit") < expected.index("createButton")
    whole.close()

    controller, window = _early_window(gui, qtbot, paint_first=True)
    try:
        qtbot.wait(50)
        assert window.slot_pane._form is None and window.slot.draft is None
        window.finish_start()
        window.finish_start()  # once
        assert window.slot_pane._form is not None and window.slot.draft is not None
        window.new_draft()
        gui.until(lambda: window.slot_pane.form.prompt.isVisible(), what="the draft's form")
        assert _tab_stops(window, 24) == expected
    finally:
        close(gui, controller, window)


def test_a_slot_chosen_before_the_form_is_made_stays_on_screen(gui: Gui, qtbot: Any) -> None:
    rid = "article:20261205:paint-first:scene-02"
    insert_slot(gui.service, rid, "success", kind="image")
    controller, window = _early_window(gui, qtbot, paint_first=True)
    try:
        window.select(rid)  # the app's last slot, asked for before the first paint
        window.finish_start()
        assert window.slot.draft is None and window.slot.selected == rid
        controller.attach(Built(gui))
        gui.until(lambda: window.slot.task is not None, what="the chosen slot")
        assert window.slot.task.request_id == rid and not window.slot_pane.form.isVisible()
    finally:
        close(gui, controller, window)


def _tree(window: MainWindow) -> list[tuple[int, str, str, bool]]:
    """The window's widgets, depth first: (depth, class, object name, shown in the window);
    those deleted later (a replaced status bar) gone first."""
    from app.ui.qt import QApplication, QEvent, Qt

    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    out: list[tuple[int, str, str, bool]] = []

    def walk(w: QWidget, depth: int) -> None:
        out.append((depth, type(w).__name__, w.objectName(), w.isVisibleTo(window)))
        for child in w.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            walk(child, depth + 1)

    walk(window, 0)
    return out


def _tab_chain(window: MainWindow) -> list[str]:
    """Every Tab stop of the window, shown or not, in its focus chain: each by its path of
    object names (class names where unnamed)."""
    from app.ui.qt import Qt

    def path(w: Any) -> str:
        parts = []
        while w is not None and w is not window:
            parts.append(w.objectName() or type(w).__name__)
            w = w.parentWidget()
        return "/".join(reversed(parts))

    w, out = window.nextInFocusChain(), []
    while w is not window:
        if w.focusPolicy() & Qt.FocusPolicy.TabFocus:
            out.append(path(w))
        w = w.nextInFocusChain()
    return out


def _first_page_come(window: MainWindow) -> bool:
    return window.model.started and not window.model.loading


def test_the_results_view_is_made_after_the_first_paint_as_in_a_whole_window(
    gui: Gui, qtbot: Any
) -> None:
    """A stored slot's results view (``FinishedView``) is not shown at the start: the app's
    window makes it in ``finish_start``. Once made, the window is the whole window's: the same
    widgets, object names, shown or hidden, and Tab order. Both are compared once their first
    page of slots has come (the store is empty: the welcome page then takes the form's place,
    whenever that page comes)."""
    whole = MainWindow(Controller(gui.service), gui.settings())
    qtbot.addWidget(whole)
    whole.show()
    gui.until(lambda: _first_page_come(whole), what="the whole window's first page")
    tree, chain = _tree(whole), _tab_chain(whole)
    assert whole.findChild(QWidget, "finishedView") is not None
    assert "resultGrid" in " ".join(chain) and "useAsButton" in " ".join(chain)
    whole.close()

    controller, window = _early_window(gui, qtbot, paint_first=True)
    try:
        qtbot.wait(50)
        assert window.slot_pane._finished is None
        assert window.findChild(QWidget, "finishedView") is None
        window.finish_start()
        assert window.slot_pane._finished is not None
        gui.until(lambda: _first_page_come(window), what="the early window's first page")
        assert _tree(window) == tree
        assert _tab_chain(window) == chain
    finally:
        close(gui, controller, window)


def test_a_slot_chosen_before_the_start_ends_shows_its_results(
    gui: Gui, qtbot: Any, tmp_path: Any
) -> None:
    """A stored slot shown before ``finish_start`` makes the results view then, hooked up to
    the window (its marks, "Use in a new slot"); the window is the whole window's all the same,
    its Tab order too."""
    from app.ui.qt import Qt
    from tests.gui.gallery_data import add_image_results
    from tests.gui.test_picks import stored

    [rid] = add_image_results(gui.service, tmp_path, 1, per_slot=1)
    whole = MainWindow(Controller(gui.service), gui.settings())
    qtbot.addWidget(whole)
    whole.show()
    whole.select(rid)
    gui.until(lambda: whole.slot_pane.finished.pick_bar.isVisible(), what="the whole's results")
    chain = _tab_chain(whole)
    whole.close()

    controller, window = _early_window(gui, qtbot, paint_first=True)
    try:
        window.select(rid)
        controller.attach(Built(gui))
        gui.until(lambda: window.slot_pane._finished is not None, what="the results view")
        finished = window.slot_pane._finished
        assert window.slot_pane._form is not None  # the stored slot's parameters, read only
        gui.until(lambda: finished.pick_bar.isVisible(), what="its result and marks")
        assert finished.images.count() == 1 and finished.isVisible()
        window.browser.tree.setFocus()
        qtbot.keyClick(window.browser.tree, Qt.Key.Key_F)  # the window's marks
        gui.until(lambda: stored(gui, rid)[0] == "favourite", what="favourite stored")
        window.finish_start()
        assert window.slot_pane.finished is finished and window.slot.selected == rid
        assert window.slot.draft is None
        assert _tab_chain(window) == chain
        finished.useWanted.emit(finished._media[0], "first_frame")  # its menu's first entry
        gui.until(lambda: window.slot.draft is not None, what="the draft fed with the result")
    finally:
        close(gui, controller, window)


def test_a_closed_history_panel_is_made_after_the_first_paint_as_in_a_whole_window(
    gui: Gui, qtbot: Any
) -> None:
    """The history panel (``ResultPane``) closed at the start (the window narrower than
    ``HISTORY_OPEN_WIDTH``, no choice saved) is made in ``finish_start``, with its saved split:
    then, and with the panel opened, the window is the whole window's. The store holds a slot:
    an empty one shows the welcome page instead of the draft once its emptiness is known, which
    may be before or after either window's start (a race that is not this test's)."""
    insert_slot(gui.service, "article:20261205:paint-first:scene-09", "success", kind="image")
    whole = MainWindow(Controller(gui.service), gui.settings())
    qtbot.addWidget(whole)
    whole.show()
    gui.until(lambda: whole.slot_pane.form.prompt.isVisible(), what="the whole window's form")
    assert not whole.history_open() and whole.result_pane.isHidden() is False
    whole.result_pane.splitter.setSizes([120, 480])  # a split of the designer's, saved
    split = whole.result_pane.save_layout()
    whole.close()  # saves the layout
    whole = MainWindow(Controller(gui.service), gui.settings())
    qtbot.addWidget(whole)
    whole.show()
    gui.until(lambda: whole.slot_pane.form.prompt.isVisible(), what="the whole window's form")
    tree, chain, sizes = _tree(whole), _tab_chain(whole), whole.splitter.sizes()
    assert whole.result_pane.save_layout() == split
    whole.set_history_open(True)
    opened = whole.splitter.sizes(), whole.result_pane.isVisible()
    whole.set_history_open(False)
    whole.close()

    controller, window = _early_window(gui, qtbot, paint_first=True)
    try:
        qtbot.wait(50)
        assert window._result_pane is None
        assert window.findChild(QWidget, "historyPanel") is None
        window.finish_start()
        assert window._result_pane is not None
        gui.until(lambda: window.slot_pane.form.prompt.isVisible(), what="the draft's form")
        assert _tree(window) == tree and _tab_chain(window) == chain
        assert window.splitter.sizes() == sizes and window.result_pane.save_layout() == split
        window.set_history_open(True)
        assert (window.splitter.sizes(), window.result_pane.isVisible()) == opened
    finally:
        close(gui, controller, window)


def test_a_history_panel_open_at_the_start_is_made_before_the_first_paint(
    gui: Gui, qtbot: Any
) -> None:
    from app.ui import settings as settings_mod
    from app.ui.qt import QEvent, QObject

    settings_mod.Settings(gui.settings()).history_panel = True  # the designer's choice
    seen: list[bool] = []

    class FirstPaint(QObject):
        def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint and not seen:
                seen.append(obj._result_pane is not None and obj.result_pane.isVisible())
            return False

    controller = Controller(early=Early.of(gui.config, has_key=False))
    window = MainWindow(controller, gui.settings(), paint_first=True)
    qtbot.addWidget(window)
    spy = FirstPaint()
    window.installEventFilter(spy)
    window.show()
    controller.start()
    try:
        gui.until(lambda: seen, what="the first paint")
        assert seen == [True]
        assert window.history_open() and window.slot_pane._form is None  # the form comes later
    finally:
        window.removeEventFilter(spy)
        close(gui, controller, window)
