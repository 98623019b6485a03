"""What building a window costs beyond its widgets (issues 34 and 38): an application-wide event
filter written in Python is called for every event of every object, and a window's construction
alone sends thousands (each widget is created, parented, styled and polished). The form's paste
aim (``inputs.PasteAim``) is such a filter only while the focus is in the form; the wheel guard
(``widgets.WheelGuard``) never is: the application's style (``widgets.GuardingStyle``, made by
the first window or form) puts it on each spin box, combo box and slider as it is polished, and
on nothing else."""

from __future__ import annotations

import sys
from typing import Any, Iterator

import pytest

from app.ui import form as form_mod
from app.ui import style, widgets
from app.ui.inputs import PasteAim
from app.ui.qt import QApplication, QEvent, QObject, QPoint, QPointF, Qt, QtGui, QtWidgets, QWidget
from app.ui.widgets import GUARDED, GuardingStyle, WheelGuard, guard_wheel
from tests.gui.conftest import close
from PySide6.QtTest import QTest

WHEEL = Qt.FocusPolicy.WheelFocus


class CountingAim(PasteAim):
    """The form's paste aim, noting the events that pass through it."""

    seen: list[Any] = []

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        CountingAim.seen.append(event.type())
        return super().eventFilter(obj, event)


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


class CountingGuard(WheelGuard):
    """The wheel guard, noting what it is asked and its answers: the objects by their ids (a
    wrapper kept of an object being deleted would outlive it)."""

    def __init__(self, parent: Any) -> None:
        super().__init__(parent)
        self.seen: list[tuple[int, Any, bool]] = []

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        kept = super().eventFilter(obj, event)
        self.seen.append((id(obj), event.type(), kept))
        return kept

    def of(self, widget: Any, event: Any) -> list[bool]:
        """The answers to ``event`` sent to ``widget``."""
        self.seen.clear()
        QApplication.sendEvent(widget, event)
        return [kept for obj, kind, kept in self.seen if obj == id(widget) and kind == event.type()]


def _plain(qapp: Any) -> str:
    """The name of the application's own style (under its GuardingStyle, if it has one)."""
    now = qapp.style()
    return str(now.baseStyle().name() if isinstance(now, GuardingStyle) else now.name())


@pytest.fixture
def counting(qapp: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The application with its plain style, as before its first window; the GuardingStyle
    made next has a :class:`CountingGuard`, and a plain GuardingStyle is back at the end."""
    name = _plain(qapp)
    qapp.setStyle(QtWidgets.QStyleFactory.create(name))
    monkeypatch.setattr(widgets, "WheelGuard", CountingGuard)
    try:
        yield
    finally:
        monkeypatch.undo()
        qapp.setStyle(GuardingStyle(name))


def _counter(qapp: Any) -> CountingGuard:
    guard = qapp.style().guard
    assert isinstance(guard, CountingGuard)
    return guard


def _wheel_turn() -> Any:
    centre = QPointF(5, 5)
    return QtGui.QWheelEvent(
        centre,
        centre,
        QPoint(0, 0),
        QPoint(0, -120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )


def _guarded(verdicts: CountingGuard, widget: Any) -> bool:
    """``widget`` takes no focus by the wheel, and, unfocused, the guard keeps a wheel turn
    from it (and from it alone)."""
    assert not widget.hasFocus()
    return widget.focusPolicy() != WHEEL and verdicts.of(widget, _wheel_turn()) == [True]


def _python_calls(obj: Any, event: Any) -> list[str]:
    """The Python functions that run while ``event`` is sent to ``obj``."""
    calls: list[str] = []

    def profile(frame: Any, what: str, _arg: Any) -> None:
        if what == "call":
            calls.append(f"{frame.f_code.co_filename}:{frame.f_code.co_qualname}")

    sys.setprofile(profile)
    try:
        QApplication.sendEvent(obj, event)
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.parametrize("first", [False, True], ids=["style-set", "first-window"])
def test_the_wheel_guard_sees_the_events_of_the_guarded_fields_alone(
    gui, qtbot, qapp, counting, first
):
    """An earlier window or form made the application's style a GuardingStyle, or this window
    is the first (the application has its plain style: the window makes the guarding one)."""
    from app.ui.controller import Controller
    from app.ui.window import MainWindow

    if not first:
        guard_wheel()
    else:
        assert not isinstance(qapp.style(), GuardingStyle)
    controller = Controller(gui.service)
    window = MainWindow(controller, gui.settings())
    qtbot.addWidget(window)
    try:
        verdicts = _counter(qapp)
        window.show()
        controller.start()
        gui.until(lambda: window.model.started, what="first page of slots")
        # no application-wide filter in Python: an event to a plain object runs no Python
        assert _python_calls(QObject(), QEvent(QEvent.Type.User)) == []
        every = window.findChildren(QWidget)
        fields = [w for w in every if isinstance(w, GUARDED)]
        assert len(fields) > 10
        for w in every:  # the fields not shown yet are guarded when polished, before shown
            w.ensurePolished()
        verdicts.seen.clear()
        for w in every:
            QApplication.sendEvent(w, QEvent(QEvent.Type.User))
        assert {obj for obj, _kind, _kept in verdicts.seen} == {id(w) for w in fields}
        unguarded = [
            w.objectName() or type(w).__name__ for w in fields if not _guarded(verdicts, w)
        ]
        assert unguarded == []
    finally:
        close(gui, controller, window)


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_fields_made_later_are_guarded_through_a_theme_change(gui, make_window, qapp, counting):
    """A dialog's fields (under the window's stylesheet), a window of its own, made after a
    theme change: guarded as they are polished; the window's own fields stay guarded."""
    window = make_window()
    verdicts = _counter(qapp)
    form = window.slot_pane.form
    try:
        window.settings.theme = "dark"
        window.apply_theme()
        assert window.styleSheet() == style.stylesheet(style.DARK)
        assert [w for w in (form.duration.slider, form.ratio) if not _guarded(verdicts, w)] == []
        dialog = QtWidgets.QDialog(window)
        box = QtWidgets.QVBoxLayout(dialog)
        later = [
            QtWidgets.QSpinBox(),
            QtWidgets.QDoubleSpinBox(),
            QtWidgets.QDateEdit(),
            QtWidgets.QComboBox(),
            QtWidgets.QSlider(),
        ]
        for w in later:
            box.addWidget(w)
        alone = QtWidgets.QComboBox()  # a window of its own: the application's style itself
        for w in (dialog, alone):
            w.show()
        assert not isinstance(dialog.style(), GuardingStyle)  # the stylesheet's style over it
        assert [type(w).__name__ for w in [*later, alone] if not _guarded(verdicts, w)] == []
        for w in (dialog, alone):
            w.close()
        alone.deleteLater()
    finally:
        style.apply_theme(window, style.LIGHT)


def test_an_unfocused_field_passes_the_wheel_to_the_page(qapp, qtbot):
    """A wheel turn (as the platform sends it) over a field without the focus scrolls the page
    and leaves the field; over a focused one it changes the field."""
    guard_wheel()  # the application's style: the guarding one, as a window or form makes it
    page = QtWidgets.QScrollArea()
    qtbot.addWidget(page)
    inner = QWidget()
    rows = QtWidgets.QVBoxLayout(inner)
    spins = [QtWidgets.QSpinBox(value=50) for _ in range(30)]
    for spin in spins:
        rows.addWidget(spin)
    page.setWidget(inner)
    page.resize(200, 200)
    page.show()
    qtbot.waitExposed(page)
    spin, bar = spins[2], page.verticalScrollBar()

    def turn(up: bool) -> None:
        where = spin.mapTo(page, spin.rect().center())
        QTest.wheelEvent(page.windowHandle(), QPointF(where), QPoint(0, 120 if up else -120))
        QApplication.processEvents()

    turn(up=False)
    assert (spin.value(), bar.value() > 0) == (50, True)  # the page scrolled, the field kept
    scrolled = bar.value()
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    turn(up=True)
    assert (spin.value(), bar.value()) == (51, scrolled)  # the focused field took it
