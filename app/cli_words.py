"""The command line's own words for people (the JSON never changes with them): the language,
the sentences only a terminal says, and the help of every command and option.

Words the app says too come from ``app.ui.said`` and ``app.ui.words`` (pure Python) and are
translated with the app's own translations: :func:`translator` loads the shipped ``.qm`` for
``--lang`` or the locale (Qt's translator, loaded only for a language other than English, so
an English or ``--json`` run never imports Qt).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from app.ui.current import QT_TRANSLATE_NOOP

Translate = Callable[[str, str], str]
CONTEXT = "Cli"


def plain(_context: str, text: str) -> str:
    return text


def language(lang: str | None, environ: Mapping[str, str] | None = None) -> str:
    """``--lang``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``): ``en`` or e.g.
    ``zh_CN``."""
    environ = os.environ if environ is None else environ
    name = lang or environ.get("LC_ALL") or environ.get("LC_MESSAGES") or environ.get("LANG")
    name = (name or "en").split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if name in ("C", "POSIX", ""):
        return "en"
    if name in ("zh", "zh_Hans", "zh_Hans_CN", "zh_SG"):
        return "zh_CN"
    return name


def translator(lang: str) -> Translate:
    """The app's translations for ``lang`` (English, or a language Slate has no words in:
    the English words as they are)."""
    if lang.startswith("en"):
        return plain
    try:
        from PySide6.QtCore import QTranslator

        from app.ui.assets import translations_dir

        qt = QTranslator()
        if not qt.load(str(translations_dir() / f"slate_{lang}.qm")):
            return plain
    except Exception:  # noqa: BLE001 - no Qt here: English words still tell everything
        return plain

    def translate(context: str, text: str) -> str:
        return qt.translate(context, text) or text

    return translate


# -- what only a terminal says ------------------------------------------------------------------
DOWNLOADING_OF = QT_TRANSLATE_NOOP("Cli", "%1 of %2")


def say(translate: Translate, text: str, *args: object) -> str:
    """``text`` translated, ``%1``, ``%2``… filled in."""
    out = translate(CONTEXT, text)
    for i, arg in enumerate(args, 1):
        out = out.replace(f"%{i}", str(arg))
    return out


__all__ = ["language", "translator", "say", "plain"]
