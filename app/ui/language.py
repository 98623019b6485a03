"""Slate's language: its catalogue and Qt's own for a locale, installed on the application (at
start, and when Settings switches the language)."""

from __future__ import annotations

from app.ui.assets import translations_dir
from app.ui.qt import QApplication, QLibraryInfo, QLocale, QTranslator

_translators: list[QTranslator] = []


# -- language --------------------------------------------------------------------------------------
def install_translations(app: QApplication, lang: str | None = None) -> str:
    """Load Slate's and Qt's own translations for ``lang`` (default: the system locale)."""
    for t in _translators:
        app.removeTranslator(t)
        t.setParent(None)  # freed with the list below, not kept as the app's child for good
    _translators.clear()
    name = lang or QLocale.system().name()
    if name in ("zh", "zh-CN", "zh_Hans", "zh_Hans_CN"):
        name = "zh_CN"
    locale = QLocale(name)
    QLocale.setDefault(locale)
    if not name.startswith("en"):
        ours = QTranslator(app)
        if ours.load(locale, "slate", "_", str(translations_dir())):
            app.installTranslator(ours)
            _translators.append(ours)
        qt = QTranslator(app)
        if qt.load(
            locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        ):
            app.installTranslator(qt)
            _translators.append(qt)
    return name


__all__ = ["install_translations"]
