"""What building a window costs beyond its widgets (issues 34 and 38): an application-wide event
filter written in Python is called for every event of every object, and a window's construction
alone sends thousands (each widget is created, parented, styled and polished). The form's paste
aim (``inputs.PasteAim``) is such a filter only while the focus is in the form."""

from __future__ import annotations

from typing import Any

from app.ui.inputs import PasteAim
from app.ui.qt import Qt


def test_the_paste_aim_sees_events_only_while_the_focus_is_in_its_form(
    gui, make_window, qtbot, monkeypatch
):
    seen: list[Any] = []
    filter_events = PasteAim.eventFilter

    def spy(self: PasteAim, obj: Any, event: Any) -> bool:
        seen.append(event.type())
        return filter_events(self, obj, event)

    monkeypatch.setattr(PasteAim, "eventFilter", spy)
    window = make_window()
    window.activateWindow()
    assert seen == []  # the window built, shown and started: not one event through the aim
    form = window.slot_pane.form
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
