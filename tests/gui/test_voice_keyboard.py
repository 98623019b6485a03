"""Issue 33 point 10: a voice picked with the keyboard is sent as its id, in English and zh_CN,
through the real voice combo: arrows, a label typed through the input method and Enter, and a
voice id of the user's own typed in (a designed or cloned voice)."""

from __future__ import annotations


from app.domain.states import Action, State
from app.ui.qt import QApplication, QtGui, Qt
from tests.gui.conftest import buttons, shown
from tests.gui.test_flows import wait_state

LINE = "article:20261202:tide-eye:voice-01"
ANCHOR = "Chinese (Mandarin)_News_Anchor"


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
    label = {"en": "News anchor (Mandarin)", "zh_CN": "新闻主播"}[lang]  # in the UI's language
    window = make_window()
    form = voice_form(gui, window)
    combo = form.sound.voice
    combo.setFocus()
    # the arrows: each voice by its id
    for _ in range(combo.count()):
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == label
    assert form.sound.params()["voice"] == ANCHOR
    # a label typed (through the input method) and Enter: its id, not its label
    qtbot.keyClick(combo, Qt.Key.Key_Up)
    edit = combo.lineEdit()
    assert edit is not None, "the voice is typed in the combo"
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    ime_type(edit, label)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert form.sound.params()["voice"] == ANCHOR
    assert [combo.itemText(i) for i in range(combo.count())].count(label) == 1
    # a voice id of one's own, typed: sent as typed
    edit.selectAll()
    qtbot.keyClicks(edit, "my-cloned-voice-01")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert form.sound.params()["voice"] == "my-cloned-voice-01"
    assert form.error_text() is None
    # back to the label by the keyboard, and Create sends the id
    edit.selectAll()
    ime_type(edit, label)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert form.sound.params()["voice"] == ANCHOR
    create = buttons(window)[Action.CREATE]
    gui.until(create.isEnabled, what="create offered")
    create.click()
    gui.until(lambda: shown(window, LINE), what="the voice line")
    wait_state(gui, window, State.SUCCESS, LINE)
    assert window.slot.task.params["voice"] == ANCHOR


def test_the_documented_voices_are_named_in_the_designers_language(gui, make_window, lang):
    """Issue 33 point 9: no "Expressive Narrator" in Chinese, no 少女 alone in English."""
    from app.ui.form_sound import VOICE_NAMES

    window = make_window()
    combo = voice_form(gui, window).sound.voice
    shown_names = {
        combo.itemData(i): combo.itemText(i)
        for i in range(combo.count())
        if combo.itemData(i) in VOICE_NAMES
    }
    assert set(shown_names) == set(VOICE_NAMES), shown_names
    for vid, name in shown_names.items():
        assert name.isascii() == (lang == "en"), (vid, name)


def test_a_refused_voice_id_is_said_in_the_designers_language(gui, make_window, lang):
    """Issue 33 point 9: the voice id's refusal was English in the Chinese window."""
    window = make_window()
    form = voice_form(gui, window)
    edit = form.sound.voice.lineEdit()
    edit.setText("")
    form.validate()
    empty = form.error.text()
    edit.setText("my\u200bvoice")
    form.validate()
    hidden = form.error.text()
    assert "U+200B" in hidden
    if lang == "zh_CN":
        assert "语音 ID" in empty and "不可见字符" in hidden, (empty, hidden)
    else:
        assert empty.endswith("Choose a voice, or type a voice id."), empty
        assert "invisible character" in hidden
    assert "English_expressive_narrator" not in empty + hidden
