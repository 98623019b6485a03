"""Browsing with the keyboard (issue 35): the next and previous result of the slot on screen
(Alt+Right / Alt+Left, or ] and [), and the next and previous slot of the list as it is filtered
(Alt+Down / Alt+Up) — real key presses on a real window, offscreen; the marking keys then act on
the result the keys brought up."""

from __future__ import annotations

import pytest

from app.ui.qt import QApplication, Qt
from tests.gui.conftest import shown
from tests.gui.gallery_data import add_image_results

pytestmark = pytest.mark.qt_log_ignore(
    r".*No RHI backend\. Using CPU conversion\.",
    r"PulseAudioService: pa_context_connect\(\) failed",
    r"No audio device detected",
)

ALT = Qt.KeyboardModifier.AltModifier


def active(gui, window) -> None:
    window.activateWindow()
    window.windowHandle().requestActivate()  # (offscreen gives it back only when asked)
    gui.until(lambda: QApplication.activeWindow() is window, what="the window active")


def test_keys_step_through_a_slots_results_and_through_the_slots(gui, make_window, tmp_path, qtbot):
    rids = add_image_results(gui.service, tmp_path, 3, per_slot=3)
    window = make_window()
    window.slot_pane.select(rids[1])
    gui.until(lambda: shown(window, rids[1]), what="the slot shown")
    finished = window.slot_pane.finished
    gui.until(lambda: finished.images.count() == 3, what="its three results")
    active(gui, window)
    window.browser.tree.setFocus()
    assert finished.current_position() == 0

    qtbot.keyClick(window.browser.tree, Qt.Key.Key_Right, ALT)
    assert finished.current_position() == 1
    qtbot.keyClick(window.browser.tree, Qt.Key.Key_BracketRight)
    assert finished.current_position() == 2
    qtbot.keyClick(window.browser.tree, Qt.Key.Key_BracketRight)  # the last: it stays
    assert finished.current_position() == 2
    qtbot.keyClick(window.browser.tree, Qt.Key.Key_BracketLeft)
    assert finished.current_position() == 1
    # the marking keys act on the result the keys brought up
    finished.images.setFocus()
    qtbot.keyClick(finished.images, Qt.Key.Key_4)
    gui.until(
        lambda: gui.run(gui.service.pick(rids[1])).payload.results[1].rating == 4,
        what="four stars on the second result",
    )
    assert gui.run(gui.service.pick(rids[1])).payload.results[0].rating == 0
    qtbot.keyClick(finished.images, Qt.Key.Key_Left, ALT)
    assert finished.current_position() == 0

    # the slots: Alt+Down and Alt+Up move through the list (newest first)
    window.browser.tree.setFocus()
    qtbot.keyClick(window.browser.tree, Qt.Key.Key_Down, ALT)
    gui.until(lambda: shown(window, rids[0]), what="the next (older) slot")
    qtbot.keyClick(window.browser.tree, Qt.Key.Key_Up, ALT)
    gui.until(lambda: shown(window, rids[1]), what="back to the slot")
    qtbot.keyClick(window.browser.tree, Qt.Key.Key_Up, ALT)
    gui.until(lambda: shown(window, rids[2]), what="the newest slot")


def test_typing_brackets_in_the_prompt_types_them(gui, make_window, qtbot):
    window = make_window()
    window.new_draft()
    active(gui, window)
    prompt = window.slot_pane.form.prompt
    prompt.setFocus()
    qtbot.keyClicks(prompt, "a [b]")
    assert prompt.toPlainText() == "a [b]"


def test_the_result_keys_are_listed_and_said_in_chinese(lang, make_window):
    from app.ui.shortcuts import rows

    window = make_window()
    listed = dict(rows(window.shortcut_actions.values()))
    nxt = window.shortcut_actions["nextResult"].text()
    prev = window.shortcut_actions["previousResult"].text()
    assert nxt in listed and prev in listed and "]" in listed[nxt] and "[" in listed[prev]
    if lang == "zh_CN":
        assert nxt == "下一个结果" and prev == "上一个结果"
    else:
        assert nxt == "Next result of the slot"
