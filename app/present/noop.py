"""Marking a sentence for translation without Qt: ``noop(context, text)`` returns ``text``.

The words are translated by hand in ``resources/translations/slate_zh_CN.ts`` (context and
source text → translation); the marks say which context a sentence is looked up in. The
``QT_TRANSLATE_NOOP`` spelling stays for the modules that have always used it.
"""

from __future__ import annotations


def noop(context: str, text: str) -> str:
    """Mark ``text`` for translation in ``context``: the text itself, untranslated."""
    return text


#: The same mark under the name Qt's tools know.
QT_TRANSLATE_NOOP = noop

__all__ = ["QT_TRANSLATE_NOOP", "noop"]
