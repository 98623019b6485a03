"""The words in the user's language, without Qt: the language asked for, and a ``translate``
that reads Slate's own translation file.

Translations are kept by hand in ``resources/translations/slate_<lang>.ts`` (Qt Linguist's XML:
contexts, each with source texts and their translations). The window loads the compiled ``.qm``
into Qt's translator for its widgets; everything said outside widgets — the command line above
all — is translated here from the same ``.ts``, read once on first use with the standard
library's XML parser and looked up by (context, source text), as Qt's translator does for a
message without a disambiguating comment. A language with no file, or a file that cannot be
read, leaves the English words as they are.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import cache
from importlib.resources import files
from pathlib import Path

#: ``translate(context, text)``: the words of ``text`` in the language asked for.
Translate = Callable[[str, str], str]


def plain(_context: str, text: str) -> str:
    """English: the source text as it is."""
    return text


def resources_dir() -> Path:
    """The files Slate ships (the top-level ``resources/`` folder, installed as the package
    ``app.resources``), as a path on disk."""
    try:
        return Path(str(files("app.resources")))
    except ModuleNotFoundError:
        # A source checkout run without (re)installing, e.g. PYTHONPATH=. python -m app: the
        # package mapping lives in the installed metadata, the folder is right here.
        return Path(__file__).resolve().parents[2] / "resources"


def translations_dir() -> Path:
    return resources_dir() / "translations"


def language(lang: str | None, environ: Mapping[str, str] | None = None) -> str:
    """``lang`` (``--lang``), else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``): ``en``
    or e.g. ``zh_CN``."""
    environ = os.environ if environ is None else environ
    name = lang or environ.get("LC_ALL") or environ.get("LC_MESSAGES") or environ.get("LANG")
    name = (name or "en").split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if name in ("C", "POSIX", ""):
        return "en"
    if name in ("zh", "zh_Hans", "zh_Hans_CN", "zh_SG"):
        return "zh_CN"
    return name


#: Translations Qt's ``lrelease`` leaves out of the compiled file, so they are left out here.
_DROPPED = frozenset({"vanished", "obsolete"})


def read_ts(path: Path) -> dict[tuple[str, str], str]:
    """A ``.ts`` file's translations by (context, source text). Messages with a disambiguating
    ``<comment>`` are not found by (context, source) in Qt either, and are left out; so are
    empty, vanished and obsolete translations."""
    import xml.etree.ElementTree as ET  # read on first use: the window's start needs no XML

    found: dict[tuple[str, str], str] = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source")
            translation = message.find("translation")
            if source is None or translation is None or message.find("comment") is not None:
                continue
            if translation.get("type") in _DROPPED or not translation.text:
                continue
            found.setdefault((name, source), translation.text)
    return found


@cache
def catalog(lang: str) -> Mapping[tuple[str, str], str]:
    """The translations of ``lang`` (read once); empty where Slate has none."""
    from xml.etree.ElementTree import ParseError

    path = translations_dir() / f"slate_{lang}.ts"
    try:
        return read_ts(path)
    except (OSError, ParseError):
        return {}


def translator(lang: str) -> Translate:
    """``translate(context, text)`` for ``lang``: English, or a language Slate has no words
    in, says the English words as they are."""
    if lang.startswith("en"):
        return plain
    words = catalog(lang)
    if not words:
        return plain

    def translate(context: str, text: str) -> str:
        return words.get((context, text), text)

    return translate


__all__ = [
    "Translate",
    "catalog",
    "language",
    "plain",
    "read_ts",
    "resources_dir",
    "translations_dir",
    "translator",
]
