"""``QT_TRANSLATE_NOOP`` without Qt: pure-Python modules mark their sentences with it."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Mark ``text`` for translation in ``context`` (lupdate reads these calls) without Qt."""
    return text
