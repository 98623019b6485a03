"""What building a window costs beyond its widgets (issues 34 and 38): an application-wide event
filter written in Python is called for every event of every object, and a window's construction
alone sends thousands (each widget is created, parented, styled and polished). The form's paste
aim (``inputs.PasteAim``) is such a filter only while the focus is in the form; the wheel guard
(``widgets.WheelGuard``) is off the application while a window is built, and the fields the
build made are guarded when it ends; the first form installs it once it is made."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from app.ui import form as form_mod
from app.ui import widgets
from app.ui.inputs import PasteAim
from app.ui.qt import QApplication, QEvent, Qt, QWidget
from app.ui.widgets import GUARDED, WheelGuard
from tests.gui.conftest import close

WHEEL = Qt.FocusPolicy.WheelFocus


class CountingAim(PasteAim):
    """The form's paste aim, noting the events that pass through it."""

    seen: list[Any] = []

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        CountingAim.seen.append(event.type())
        return super().eventFilter(obj, event)


class CountingGuard(WheelGuard):
    """The wheel guard, noting the events that pass through it."""

    def __init__(self, parent: Any) -> None:
        super().__init__(parent)
        self.seen: list[Any] = []

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        self.seen.append(event.type())
        return super().eventFilter(obj, event)


@pytest.fixture
def no_guard(qapp: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No wheel guard on the application, as before its first form (an earlier one set aside
    meanwhile); the guard made is a :class:`CountingGuard`, taken off at the end."""
    earlier = qapp.findChild(WheelGuard, "wheelGuard")
    if earlier is not None:
        qapp.removeEventFilter(earlier)
        earlier.setObjectName("")
    monkeypatch.setattr(widgets, "WheelGuard", CountingGuard)
    try:
        yield
    finally:
        for guard in qapp.findChildren(CountingGuard):
            qapp.removeEventFilter(guard)
            guard.setParent(None)
        if earlier is not None:
            earlier.setObjectName("wheelGuard")
            qapp.installEventFilter(earlier)


def test_the_paste_aim_sees_events_only_while_the_focus_is_in_its_form(
    gui, make_window, qtbot, monkeypatch
):
    monkeypatch.setattr(form_mod, "PasteAim", CountingAim)
    seen = CountingAim.seen
    seen.clear()
    window = make_window()
    window.activateWindow()
    form = window.slot_pane.form
    assert isinstance(form.paste_aim, CountingAim)
    assert seen == []  # the window built, shown and started: not one event through the aim
    form.prompt.setFocus()
    gui.until(form.prompt.hasFocus, what="the prompt focused")
    qtbot.keyClick(form.prompt, Qt.Key.Key_A)
    assert seen  # the focus in the form: its key presses pass through the aim
    assert form.prompt.toPlainText().endswith("a")
    window.browser.focus_search()
    gui.until(lambda: not form.isAncestorOf(window.focusWidget()), what="the focus out")
    seen.clear()
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_B)
    assert seen == []  # the focus out of the form: the aim is off the application again


@pytest.mark.parametrize("first", [False, True], ids=["guard-on", "first-window"])
def test_a_window_is_built_with_the_wheel_guard_off_and_its_fields_guarded(
    gui, qtbot, qapp, no_guard, first
):
    """An earlier window's form left the guard on the application (taken off for the build),
    or this window is the first (its form makes the guard, put on at the build's end)."""
    from app.ui.controller import Controller
    from app.ui.window import MainWindow

    if not first:
        widgets.guard_wheel(qapp)
    controller, settings = Controller(gui.service), gui.settings()
    for guard in qapp.findChildren(CountingGuard):
        guard.seen.clear()
    window = MainWindow(controller, settings)
    qtbot.addWidget(window)
    try:
        guard = qapp.findChild(WheelGuard, "wheelGuard")
        assert isinstance(guard, CountingGuard)
        assert guard.seen == []  # the whole build: not one event through the guard
        fields = [w for w in window.findChildren(QWidget) if isinstance(w, GUARDED)]
        assert len(fields) > 10
        wheel = [w.objectName() or type(w).__name__ for w in fields if w.focusPolicy() == WHEEL]
        assert wheel == []  # none takes the focus by the wheel, as the guard's polish leaves it
        window.show()
        assert guard.seen  # the guard is on the application
        controller.start()
        gui.until(lambda: window.model.started, what="first page of slots")
    finally:
        close(gui, controller, window)


def test_the_first_form_installs_the_wheel_guard_once_it_is_made(qapp, qtbot, no_guard):
    form = form_mod.CreateForm()
    qtbot.addWidget(form)
    guard = qapp.findChild(WheelGuard, "wheelGuard")
    assert isinstance(guard, CountingGuard)
    assert guard.seen == []  # installed at the end of the form's build: none of its events
    fields = [w for w in form.findChildren(QWidget) if isinstance(w, GUARDED)]
    assert len(fields) >= 5
    assert [w for w in fields if w.focusPolicy() == WHEEL] == []  # the fields made: guarded
    QApplication.sendEvent(form, QEvent(QEvent.Type.User))
    assert guard.seen == [QEvent.Type.User]  # on the application now
