"""Issue 33 point 12 (d, e): the shortcuts overlay says each key once (Ctrl+Return and Ctrl+Enter
are both "Ctrl+回车" in Chinese) and lists the marking keys F, X, 1–5 and 0; and those keys mark
the selected slot's result while the slot list has focus, as they do in the slot pane."""

from __future__ import annotations

import pytest

from app.ui.qt import Qt
from app.ui.shortcuts import ShortcutOverlay
from tests.gui.conftest import shown
from tests.gui.gallery_data import add_image_results
from tests.gui.test_picks import stored
from tests.gui.test_shortcut_overlay import _listed

pytestmark = pytest.mark.qt_log_ignore(
    r"This plugin does not support propagateSizeHints\(\)",
    r".*No RHI backend\. Using CPU conversion\.",
)


def test_the_overlay_says_each_key_once_and_lists_the_marking_keys(gui, make_window, lang):
    window = make_window()
    window.show_shortcuts()
    gui.until(lambda: isinstance(window.dialog, ShortcutOverlay), what="the overlay")
    listed = _listed(window.dialog)
    for keys in listed.values():
        said = keys.split("  ·  ")
        assert len(said) == len(set(said)), keys
    assert set(listed.values()) >= {"F", "X", "1–5", "0"}
    favourite = "收藏" if lang == "zh_CN" else "Favourite"
    assert listed[favourite] == "F"
    window.dialog.close()


def test_f_and_x_in_the_slot_list_mark_the_selected_slots_result(gui, make_window, tmp_path):
    [rid] = add_image_results(gui.service, tmp_path, 1, per_slot=1)
    window = make_window()
    window.select(rid)
    gui.until(lambda: shown(window, rid), what="slot shown")
    finished = window.slot_pane.finished
    gui.until(lambda: finished.pick_bar.isVisible(), what="the pick bar")
    tree = window.browser.tree
    tree.setFocus()
    gui.qtbot.keyClick(tree, Qt.Key.Key_F)
    gui.until(lambda: stored(gui, rid)[0] == "favourite", what="favourite stored")
    gui.until(lambda: finished.pick_bar.favourite.isChecked(), what="the heart on")
    gui.qtbot.keyClick(tree, Qt.Key.Key_X)
    gui.until(lambda: stored(gui, rid)[0] == "reject", what="reject stored")
    gui.qtbot.keyClick(tree, Qt.Key.Key_4)
    gui.until(lambda: stored(gui, rid)[1] == 4, what="four stars")
    assert shown(window, rid)  # the keys marked; they did not move the selection
