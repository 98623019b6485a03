"""Switching the language again and again keeps only the translators in use: the ones taken
out are freed, not left as children of the application (two more at every switch)."""

from __future__ import annotations

import gc

from app.ui.language import install_translations
from app.ui.qt import QApplication, QEvent, QTranslator


def _translators(app) -> int:
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    return len(app.findChildren(QTranslator))


def test_switching_languages_keeps_only_the_translators_in_use(qapp):
    install_translations(qapp, "en")
    base = _translators(qapp)
    try:
        install_translations(qapp, "zh_CN")
        chinese = _translators(qapp)
        assert chinese > base  # Slate's and Qt's words in Chinese
        for lang in ("en", "zh_CN", "en", "zh_CN"):
            install_translations(qapp, lang)
        assert _translators(qapp) == chinese
        install_translations(qapp, "en")
        assert _translators(qapp) == base
    finally:
        install_translations(qapp, "en")
