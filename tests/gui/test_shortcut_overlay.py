"""The shortcuts overlay on ``?`` (issue 23): it lists every shortcut action of the window with
its keys, from the actions themselves; ``?`` typed into a field is just a question mark."""

from __future__ import annotations

import pytest

from app.ui.qt import QKeySequence, Qt
from app.ui.shortcuts import ShortcutOverlay

# The offscreen platform says so when a dialog opens; nothing of ours.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def _listed(overlay: ShortcutOverlay) -> dict[str, str]:
    t = overlay.table
    return {
        t.topLevelItem(i).text(0): t.topLevelItem(i).text(1) for i in range(t.topLevelItemCount())
    }


def test_question_mark_lists_the_shortcuts_the_actions_have(gui, make_window, qtbot):
    window = make_window()
    window.browser.tree.setFocus()
    qtbot.keyClick(window.browser.tree, "?")
    gui.until(lambda: isinstance(window.dialog, ShortcutOverlay), what="the overlay")
    listed = _listed(window.dialog)
    native = QKeySequence.SequenceFormat.NativeText
    expected = {
        act.text(): "  ·  ".join(k.toString(native) for k in act.shortcuts())
        for act in window.shortcut_actions.values()
    }
    assert {what: listed[what] for what in expected} == expected  # (and the marking keys)
    assert listed["Quit"] == QKeySequence("Ctrl+Q").toString(native)
    assert "Ctrl+G" in listed["Gallery"].replace("Meta", "Ctrl")  # (macOS writes ⌘)
    assert "?" in listed["Keyboard shortcuts"]
    # A shortcut added to the window shows up without a second list to update.
    window.shortcut_actions["quit"].setShortcuts([QKeySequence("Ctrl+Q"), QKeySequence("Ctrl+W")])
    window.show_shortcuts()  # closes the open one (? again)
    gui.until(lambda: window.dialog is None, what="closed")
    window.show_shortcuts()
    assert "Ctrl+W" in _listed(window.dialog)["Quit"]
    window.dialog.close()
    gui.until(lambda: window.dialog is None, what="closed")
    # In the prompt, ? is a character.
    window.new_draft()
    prompt = window.slot_pane.form.prompt
    prompt.setFocus()
    qtbot.keyClick(prompt, "?", Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(prompt, "?")
    assert prompt.toPlainText().count("?") == 2 and window.dialog is None
