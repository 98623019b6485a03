"""The command line's own words for people (the JSON never changes with them): the sentences
only a terminal says.

Words the app says too come from ``app.present`` (Qt-free), and every word is translated from
the app's own translation file by :func:`app.present.translations.translator` for ``--lang`` or
the locale: no run of the command line imports Qt.
"""

from __future__ import annotations

from app.present.noop import QT_TRANSLATE_NOOP
from app.present.translations import Translate

CONTEXT = "Cli"

# -- what only a terminal says ------------------------------------------------------------------
DOWNLOADING_OF = QT_TRANSLATE_NOOP("Cli", "%1 of %2")


def say(translate: Translate, text: str, *args: object) -> str:
    """``text`` translated, ``%1``, ``%2``… filled in."""
    out = translate(CONTEXT, text)
    for i, arg in enumerate(args, 1):
        out = out.replace(f"%{i}", str(arg))
    return out


__all__ = ["DOWNLOADING_OF", "say"]
