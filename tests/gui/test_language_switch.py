"""The language switched in Settings without a restart (issue 23): the window comes back in the
chosen language in its place, with the slot that was on screen, and the choice is remembered;
the controller and its work are the same."""

from __future__ import annotations

from typing import Any

import pytest
import shiboken6

from app.ui.app import install_translations
from app.ui.window import MainWindow
from tests.gui.conftest import close, shown

RID = "article:20260816:tide-eye:scene-02"
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def _choose(gui: Any, window: MainWindow, language: str) -> MainWindow:
    window.open_settings()
    dlg = window.dialog
    dlg.language.setCurrentIndex(dlg.language.findData(language))
    dlg.save_button.click()
    gui.until(lambda: getattr(window, "replaced_by", None) is not None, what="rebuilt")
    return window.replaced_by


def test_the_language_switches_in_place_and_is_remembered(gui, make_window, qapp, request, caplog):
    gui.run(gui.service.submit(RID, "image", {"prompt": "a lighthouse"}))
    window = make_window()
    controller = window.controller
    window.select(RID)
    gui.until(lambda: shown(window, RID), what="the slot")
    window.resize(1200, 760)
    assert window.gallery_button.text() == "▦ Gallery"
    try:
        zh = _choose(gui, window, "zh_CN")
        gui.until(lambda: not shiboken6.isValid(window), what="the old window gone")
        assert zh.isVisible() and zh.controller is controller
        assert zh.gallery_button.text() == "▦ 图库"
        assert zh.shortcut_actions["quit"].text() != "Quit"
        # the words of issue 23 in Chinese too
        assert zh.slot_pane.tidy.menu_button.toolTip() == "整理"
        assert zh.slot_pane.tidy.delete_action.text() == "删除本地媒体…"
        assert zh.browser.show_hidden.text() == "显示已隐藏"
        assert zh.gallery.size_slider.accessibleName() == "缩略图大小"
        assert zh.shortcut_actions["shortcuts"].text() == "键盘快捷键"
        assert zh.shortcut_actions["recall"].text() == "以前的提示词…"
        zh.show_shortcuts()
        assert zh.dialog.windowTitle() == "键盘快捷键"
        zh.dialog.close()
        gui.until(lambda: zh.dialog is None, what="closed")
        assert (zh.width(), zh.height()) == (1200, 760)
        gui.until(lambda: shown(zh, RID), what="the same slot on screen")
        assert gui.settings().value("appearance/language") == "zh_CN"
        # The work goes on in the new window: its news arrive there.
        zh.slot_pane.tidy.hide_action.trigger()
        gui.until(lambda: zh.slot.task.hidden, what="hidden, said in the new window")
        en = _choose(gui, zh, "en")
        assert en.gallery_button.text() == "▦ Gallery"
        gui.until(lambda: shown(en, RID), what="still the slot")
        assert gui.settings().value("appearance/language") == "en"
    finally:
        install_translations(qapp, "en")
    close(gui, controller, en)
    # nothing of the old windows was called after they went (reads on their way landed first)
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []
    # (the windows this test opened and the app let go: not for pytest-qt to close again)
    request.node.qt_widgets = [
        (w, f) for w, f in request.node.qt_widgets if w() is None or shiboken6.isValid(w())
    ]
