"""Issue 33 point 10: a voice picked with the keyboard is sent as its id, in English and zh_CN,
through the real voice combo: arrows, a label typed through the input method and Enter, and a
voice id of the user's own typed in (a designed or cloned voice)."""

from __future__ import annotations

import pytest

from app.domain.states import Action, State
from app.ui.app import install_translations
from app.ui.qt import QApplication, QtGui, Qt
from tests.gui.conftest import buttons, shown
from tests.gui.test_flows import wait_state

LINE = "article:20261202:tide-eye:voice-01"
ANCHOR = "Chinese (Mandarin)_News_Anchor"


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")


def voice_form(gui, window):
    window.new_draft()
    form = window.slot_pane.form
    form.sound.voice_radio.setChecked(True)
    gui.until(lambda: form.sound.voices_documented is False, what="voices listed")
    window.slot_pane.composer.set_request_id(LINE)
    form.sound.text.setPlainText("The tide turns at six.")
    return form


def ime_type(widget, text: str) -> None:
    """Text committed by an input method (how 新闻主播 is typed)."""
    event = QtGui.QInputMethodEvent("", [])
    event.setCommitString(text)
    QApplication.sendEvent(widget, event)


def test_a_voice_chosen_or_typed_with_the_keyboard_is_sent_as_its_id(gui, make_window, qtbot, lang):
    window = make_window()
    form = voice_form(gui, window)
    combo = form.sound.voice
    combo.setFocus()
    # the arrows: each voice by its id
    for _ in range(combo.count()):
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == "新闻主播"
    assert form.sound.params()["voice"] == ANCHOR
    # a label typed (through the input method) and Enter: its id, not its label
    qtbot.keyClick(combo, Qt.Key.Key_Up)
    edit = combo.lineEdit()
    assert edit is not None, "the voice is typed in the combo"
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    ime_type(edit, "新闻主播")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert form.sound.params()["voice"] == ANCHOR
    assert [combo.itemText(i) for i in range(combo.count())].count("新闻主播") == 1
    # a voice id of one's own, typed: sent as typed
    edit.selectAll()
    qtbot.keyClicks(edit, "my-cloned-voice-01")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert form.sound.params()["voice"] == "my-cloned-voice-01"
    assert form.error_text() is None
    # back to the label by the keyboard, and Create sends the id
    edit.selectAll()
    ime_type(edit, "新闻主播")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert form.sound.params()["voice"] == ANCHOR
    create = buttons(window)[Action.CREATE]
    gui.until(create.isEnabled, what="create offered")
    create.click()
    gui.until(lambda: shown(window, LINE), what="the voice line")
    wait_state(gui, window, State.SUCCESS, LINE)
    assert window.slot.task.params["voice"] == ANCHOR
