"""Words said outside widgets are translated too: the slot pane's reasons (app.present.words, which
marks them without Qt) and the settings module's messages, all found in the shipped zh_CN file."""

from __future__ import annotations

import re

from app.domain.states import Action
from app.present import words
from app.ui import current, settings
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


def test_the_qt_free_reader_says_what_qts_translator_says():
    """The command line reads slate_zh_CN.ts itself (app.present.translations); the window loads
    the compiled .qm into Qt. Every message of the file is said alike by both — so a .qm left
    uncompiled after a hand edit of the .ts shows here too."""
    import xml.etree.ElementTree as ET

    from app.present.translations import translations_dir, translator
    from app.ui.qt import QTranslator

    qt = QTranslator()
    assert qt.load(str(translations_dir() / "slate_zh_CN.qm"))
    ours = translator("zh_CN")
    root = ET.parse(translations_dir() / "slate_zh_CN.ts").getroot()
    asked = [
        (context.findtext("name") or "", source)
        for context in root.iter("context")
        for message in context.iter("message")
        if (source := message.findtext("source")) is not None
    ]
    assert len(asked) > 900
    differ = [(c, s) for c, s in asked if ours(c, s) != (qt.translate(c, s) or s)]
    assert differ == []
