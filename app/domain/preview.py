"""A voice's preview as a speech slot (DESIGN.md "Voice design": "Preview of a system voice: a
short speech slot (price first; same voice and text → replay)").

A preview is an ordinary speech slot whose RequestId follows from what it says and how:
``preview:voice:<voice>:<digest>`` — ``<voice>`` the voice id made RequestId-safe (characters
outside ``A-Z a-z 0-9 . _ -`` become ``-``, at most :data:`VOICE_PART_MAX` of them) so a
designer reading the history sees whose preview it is, and ``<digest>`` 16 hex digits of the
SHA-256 of the voice id, the model and the text exactly (the voice part alone may be lossy).
So the same voice, model and text name the same slot (a replay, never a second call), and
another text or model another slot. The tenant and user scope it like any slot.

A designed voice's preview is its trial recording (kept with its voice slot), not a speech
slot: the service decides that (:mod:`app.service.preview`).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Final

from app.domain import naming
from app.domain.errors import Rule, ValidationError
from app.domain.params_sound import DEFAULT_SPEECH_MODEL, SYSTEM_VOICES
from app.domain.slots import validate_request_id

#: What every preview's RequestId starts with.
PREFIX: Final = naming.PREVIEW_PREFIX
#: How much of the voice id the RequestId shows (the digest tells voices apart anyway).
VOICE_PART_MAX: Final = 60
_DIGEST_HEX: Final = 16
_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._-]+")

#: The words a preview speaks when none are given, by the voice's language.
DEFAULT_TEXTS: Final = {
    "en": "Hello! This is how I sound when I read your words aloud.",
    "zh": "你好！这就是我朗读你的文字时的声音。",
}
#: Voice ids of MiniMax's Chinese system voices that name no language (``female-shaonv``).
_CHINESE_LEGACY: Final = re.compile(r"(male|female|presenter|audiobook|clever|cute|lovely)[-_]")
_HAN: Final = re.compile(r"[\u3400-\u9fff]")
#: The documented system voices' languages, read from their documented names (``少女`` → zh).
_DOCUMENTED: Final = {vid: "zh" if _HAN.search(name) else "en" for vid, name in SYSTEM_VOICES}


def language_of(voice: str) -> str:
    """The language a voice speaks: a documented system voice's by its documented name; else as
    its id says it (``Chinese (Mandarin)_News_Anchor``, ``Cantonese_…`` and MiniMax's older ids
    such as ``female-shaonv`` → ``zh``); else ``en``."""
    if voice in _DOCUMENTED:
        return _DOCUMENTED[voice]
    head = voice.split("_", 1)[0].casefold()
    if head.startswith(("chinese", "cantonese")) or _CHINESE_LEGACY.match(voice):
        return "zh"
    return "en"


def default_text(voice: str) -> str:
    """The preview's words when none are given: in the voice's own language
    (:func:`language_of`), never the window's — a Chinese voice reading an English line (or the
    reverse) is not how it sounds, and the words name the preview's slot."""
    return DEFAULT_TEXTS[language_of(voice)]


def check_voice(voice: object) -> str:
    """The voice to preview, or raise naming ``voice``."""
    if not isinstance(voice, str) or not voice.strip():
        raise ValidationError("voice", "is required: the voice to hear", Rule.REQUIRED)
    return voice


def request_id(voice: str, text: str, model: str = DEFAULT_SPEECH_MODEL) -> str:
    """The RequestId of the preview of ``voice`` saying ``text`` with ``model``."""
    part = _UNSAFE.sub("-", voice).strip("-.")[:VOICE_PART_MAX].strip("-.") or "voice"
    digest = hashlib.sha256(f"{voice}\x00{model}\x00{text}".encode()).hexdigest()
    return validate_request_id(f"{PREFIX}{part}:{digest[:_DIGEST_HEX]}")


def is_preview(request_id: object) -> bool:
    return isinstance(request_id, str) and request_id.startswith(PREFIX)


def params(voice: str, text: str, model: str = DEFAULT_SPEECH_MODEL) -> dict[str, Any]:
    """The speech slot's parameters (the rest take speech's defaults)."""
    return {"text": text, "voice": voice, "model": model}


__all__ = [
    "DEFAULT_TEXTS",
    "PREFIX",
    "check_voice",
    "default_text",
    "is_preview",
    "language_of",
    "params",
    "request_id",
]
