"""``slate submit --kind music|speech``: the options as parameters (DESIGN.md "Sound").

``--lyrics-file`` and ``--text-file`` give the file's text exactly (UTF-8), never its path; a
file that cannot be read, is no regular file (a FIFO, ``/dev/zero``) or is larger than the
field's limit allows (3,500 lyrics characters, 1,000,000 speech characters, × 4 bytes) is refused
naming the field (``lyrics``, ``text``) before anything is stored or sent. Options of another kind given with music or speech are refused by the domain
(``normalize``), naming them. Every rule lives in :mod:`app.domain.params_sound`.
"""

from __future__ import annotations

import argparse
from typing import Any

from app.domain.errors import ValidationError
from app.domain.params_sound import ASYNC_TEXT_MAX, LYRICS_MAX
from app.service.inputs import read_text_file

#: Options a music or speech slot does not take (given, they are refused naming them).
_FOREIGN = (
    "duration",
    "resolution",
    "first_frame",
    "last_frame",
    "ratio",
    "reference_image",
    "reference_video",
    "reference_audio",
    "prompt_expansion",
    "fast_pretreatment",
    "aspect_ratio",
    "width",
    "height",
    "n",
    "size",
    "area",
    "prompt_optimizer",
    "subject_reference",
    "response_format",
)
_MUSIC_ONLY = ("lyrics", "lyrics_file", "instrumental", "lyrics_optimizer", "bitrate")
_SPEECH_ONLY = (
    "text",
    "text_file",
    "voice",
    "speed",
    "volume",
    "pitch",
    "emotion",
    "channels",
    "language_boost",
)


#: The most characters each file's field may hold (DESIGN.md "Sound"): the file's byte cap
#: follows from it (:func:`app.service.inputs.text_file_cap`).
FILE_CHARS = {"lyrics": LYRICS_MAX, "text": ASYNC_TEXT_MAX}


def read_text(path: str, field: str) -> str:
    """A text file's content exactly (UTF-8; a leading byte-order mark is not part of it): a
    regular file of at most the field's documented limit × 4 bytes, never a FIFO or a device
    (:func:`app.service.inputs.read_text_file`)."""
    return read_text_file(path, field, FILE_CHARS[field])


def _one_of(ns: argparse.Namespace, inline: str, file: str, field: str) -> str | None:
    value, path = getattr(ns, inline, None), getattr(ns, file, None)
    if value is not None and path is not None:
        raise ValidationError(field, f"give --{field} or --{field}-file, not both")
    return read_text(path, field) if path is not None else value


def submit_params(ns: argparse.Namespace) -> dict[str, Any]:
    """The parameters a music or speech ``submit`` states (unstated ones: the defaults)."""
    kind = ns.kind
    foreign = _FOREIGN + (_SPEECH_ONLY if kind == "music" else _MUSIC_ONLY)
    raw: dict[str, Any] = {
        name: getattr(ns, name) for name in foreign if getattr(ns, name, None) is not None
    }
    raw.update(
        {
            "model": ns.model,
            "format": ns.format,
            "sample_rate": ns.sample_rate,
        }
    )
    if kind == "music":
        raw.update(
            prompt=ns.prompt,
            lyrics=_one_of(ns, "lyrics", "lyrics_file", "lyrics"),
            instrumental=ns.instrumental,
            lyrics_optimizer=ns.lyrics_optimizer,
            bitrate=ns.bitrate,
            seed=ns.seed,
        )
    else:
        if ns.prompt is not None:
            raw["prompt"] = ns.prompt  # refused by the domain: speech takes --text
        if ns.seed is not None:
            raw["seed"] = ns.seed
        raw.update(
            text=_one_of(ns, "text", "text_file", "text"),
            voice=ns.voice,
            speed=ns.speed,
            volume=ns.volume,
            pitch=ns.pitch,
            emotion=ns.emotion,
            channels=ns.channels,
            language_boost=ns.language_boost,
        )
    return {k: v for k, v in raw.items() if v is not None}
