"""Words said outside widgets are translated too: the slot pane's reasons (app.ui.words, which
marks them without Qt) and the settings module's messages, all found in the shipped zh_CN file."""

from __future__ import annotations

import re

from app.domain.states import Action
from app.ui import current, settings, words
from app.ui.app import install_translations
from app.ui.qt import translate


def test_reasons_and_settings_messages_have_chinese_words(qapp):
    said = [("WhyNot", text) for text in words.WHY_NOT_WORDS.values()]
    said += [("WhyNot", text) for text in words.REFUSAL_WORDS.values()]
    said += list(words.WAIT_WORDS.values()) + list(words.BUSY_WORDS.values())
    said.append(("MainWindow", settings.NOT_A_STORE_URL))
    install_translations(qapp, "zh_CN")
    try:
        missing = [
            text
            for context, text in said
            if not re.search(r"[\u4e00-\u9fff]", translate(context, text))
        ]
        assert missing == []
        slot = current.CurrentSlot()
        slot.start_draft()
        assert re.search(
            r"[\u4e00-\u9fff]", words.why_not(slot.offer(Action.QUERY).reason, translate)
        )
    finally:
        install_translations(qapp, "en")
    assert translate("WhyNot", words.WAIT_WORDS["loading"][1]) == "Loading the slot…"
