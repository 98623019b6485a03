"""Issue 33 point 12 (a): the MiniMax-H3-Image ratio picker opens on a click anywhere on it, not
only on its arrow, and a ratio of one's own is still typed."""

from __future__ import annotations

import pytest

from app.ui.qt import Qt
from tests.gui.test_form_h3image import h3_image_draft


# The offscreen platform cannot raise a popup or grab the keyboard for it: not a fault of ours.
@pytest.mark.qt_log_ignore(r"This plugin does not support (raise|grabbing the keyboard)")
def test_the_ratio_picker_opens_on_a_click_on_its_text(gui, make_window, qtbot):
    window = make_window()
    form = h3_image_draft(window)
    ratio = form.h3image.ratio
    gui.until(ratio.isVisible, what="the ratio picker")
    qtbot.mouseClick(ratio.lineEdit(), Qt.MouseButton.LeftButton)
    gui.until(ratio.view().isVisible, timeout=5, what="the ratio list open")
    ratio.view().setCurrentIndex(ratio.model().index(ratio.findText("16:9"), 0))
    qtbot.keyClick(ratio.view(), Qt.Key.Key_Return)
    gui.until(lambda: not ratio.view().isVisible(), timeout=5, what="the list closed")
    assert form.params()["aspect_ratio"] == "16:9"
    # one's own ratio, typed
    ratio.lineEdit().selectAll()
    qtbot.keyClicks(ratio.lineEdit(), "5:4")
    assert form.params()["aspect_ratio"] == "5:4"
