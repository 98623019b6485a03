"""The form in a designer's words and hands (issue 18, points 10 and 11), through the real widgets:

- a rule's refusal shown under the form is the designer's sentence for its typed reason (the
  domain's ``Rule``), in English and zh_CN — never the rules' English ("is required (MiniMax-H3
  needs a text prompt)", "must be an https:// URL, mm_file://ID, …");
- Ctrl+V with the pointer over the "Drop or paste an image" field pastes there even when the focus
  is in another field of the form; text on the clipboard is said, not dropped silently.
"""

from __future__ import annotations

import re

import pytest

from app.domain.states import Action
from app.ui.app import install_translations
from app.ui.qt import QApplication, QColor, QGuiApplication, QImage, Qt, QtCore, QtGui
from tests.gui.conftest import buttons

CHINESE = re.compile(r"[\u4e00-\u9fff]")
#: The rules' own English: what the form must never show.
RULES_ENGLISH = re.compile(
    r"is required|needs a text prompt|must be an https|mm_file|data: URL|local file|"
    r"is not offered|must be a whole number"
)


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")


def _copy_picture(color: str = "#3b6ea5") -> None:
    mime = QtCore.QMimeData()
    image = QImage(1280, 720, QImage.Format.Format_RGB32)
    image.fill(QColor(color))
    mime.setImageData(image)
    QGuiApplication.clipboard().setMimeData(mime)


def _under_pointer(widget) -> bool:
    return widget.rect().contains(widget.mapFromGlobal(QtGui.QCursor.pos()))


def _paste_picture(gui, qtbot, form) -> None:
    _copy_picture()
    form.first.edit.setFocus()
    gui.until(form.first.edit.hasFocus, what="the field focused")
    qtbot.keyClick(form.first.edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    gui.until(lambda: form.first.input is not None, timeout=20, what="the pasted picture")


def test_an_h3_draft_without_a_prompt_is_told_in_the_designers_words(gui, make_window, qtbot, lang):
    """A first frame and no prompt on MiniMax-H3: the form says the model needs a prompt in the
    designer's language; a typed address that is not one is said the same way."""
    window = make_window()
    window.new_draft()
    window.activateWindow()
    form = window.slot_pane.form
    create = buttons(window)[Action.CREATE]
    # no name yet: Create says so in the designer's words (not "RequestId is 0 characters")
    tip = create.toolTip()
    assert not create.isEnabled() and "characters" not in tip, tip
    if lang == "zh_CN":
        assert CHINESE.search(tip) and "RequestId" not in tip, tip
    else:
        assert tip == "RequestId: name the slot first: its project, date and scene.", tip
    window.slot_pane.composer.set_request_id("article:20260816:tide-eye:scene-03")
    form.set_model("MiniMax-H3")
    _paste_picture(gui, qtbot, form)
    gui.until(form.error.isVisible, what="the form's problem")
    said = form.error.text()
    assert "MiniMax-H3" in said and not RULES_ENGLISH.search(said), said
    if lang == "zh_CN":
        assert CHINESE.search(said) and "needs" not in said, said
    else:
        assert (
            said == "Prompt: MiniMax-H3 needs a prompt, even with a first frame: describe the shot."
        )
    tip = create.toolTip()  # the draft's first problem: a prompt to write
    assert not create.isEnabled() and tip and not RULES_ENGLISH.search(tip), tip
    assert CHINESE.search(tip) if lang == "zh_CN" else tip == "Write a prompt to start.", tip
    # a typed first frame that is no address
    form.first.clear.click()
    form.prompt.setPlainText("tide eye, slow dolly in")
    qtbot.keyClicks(form.first.edit, "ftp://example.com/a.png")
    gui.until(lambda: "ftp" not in form.error.text() and form.error.text(), what="said")
    said = form.error.text()
    assert not RULES_ENGLISH.search(said), said
    if lang == "zh_CN":
        assert CHINESE.search(said) and "choose" not in said, said
    else:
        assert said == (
            "First frame: choose a file, or paste a web address that starts with https://."
        )


def test_ctrl_v_over_the_drop_field_pastes_there_whatever_has_the_focus(gui, make_window, qtbot):
    """Point 10: the focus in the prompt, the pointer over "Drop or paste an image", Ctrl+V: the
    clipboard's picture goes into the field and the prompt is left as it was; text on the
    clipboard is said; with the pointer elsewhere, Ctrl+V pastes text into the prompt as ever."""
    window = make_window()
    window.new_draft()
    window.activateWindow()
    form = window.slot_pane.form
    form.set_model("MiniMax-Hailuo-2.3")
    form.prompt.setPlainText("tide eye")
    gui.until(form.first.isVisible, what="the first frame's field")
    form.prompt.setFocus()
    gui.until(form.prompt.hasFocus, what="the prompt focused")
    QtGui.QCursor.setPos(form.first.mapToGlobal(form.first.rect().center()))
    gui.until(lambda: _under_pointer(form.first), what="the pointer over the field")
    _copy_picture()
    qtbot.keyClick(form.prompt, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    gui.until(lambda: form.first.input is not None, timeout=20, what="the pasted picture")
    assert form.first.has_thumbnail() and "1280×720" in form.first.edit.text()
    assert form.prompt.toPlainText() == "tide eye" and form.prompt.hasFocus()
    # text on the clipboard, aimed at the field: said, and nothing changes
    form.first.clear.click()
    form.prompt.setFocus()
    QGuiApplication.clipboard().setText("a sunset over the harbour")
    qtbot.keyClick(form.prompt, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    message = window.slot_pane.actions.message
    gui.until(lambda: "clipboard holds text, not a picture" in message.text(), what="said")
    assert form.first.input is None and form.prompt.toPlainText() == "tide eye"
    # the pointer away from the field: the prompt takes the text
    QtGui.QCursor.setPos(form.prompt.mapToGlobal(form.prompt.rect().center()))
    gui.until(lambda: not _under_pointer(form.first), what="the pointer off the field")
    form.prompt.moveCursor(QtGui.QTextCursor.MoveOperation.End)
    qtbot.keyClick(form.prompt, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    gui.until(
        lambda: form.prompt.toPlainText() == "tide eyea sunset over the harbour", what="pasted"
    )
    assert form.first.input is None
    QGuiApplication.clipboard().clear()
    assert QApplication.focusWidget() is form.prompt
