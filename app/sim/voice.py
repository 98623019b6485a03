"""The demo provider's voice design (MINIMAX_API.md "Voices"; MiniMax's voice design reference),
V1 style: HTTP 200 with ``base_resp``.

* ``POST /v1/voice_design`` ``{"prompt" (required), "preview_text" (required, ≤ 500
  characters), "voice_id" (optional: a custom id; without one MiniMax makes
  ``ttv-voice-<time>-<random>``)}`` → ``{"trial_audio": hex, "voice_id", "base_resp"}``. A
  custom id must follow MiniMax's custom voice id rules (8–256 characters, a letter first,
  letters, digits, ``-`` and ``_``, not ending in ``-`` or ``_``): else 2013. An id that exists
  already is answered 2039 ("duplicate voice id"), nothing made.
* The designed voices are listed by ``get_voice`` (``voice_generation``): ``voice_id``,
  ``description`` (a list: the prompt), ``created_time`` (``YYYY-MM-DD``).

The sim's own reading of MiniMax's documentation: it imports nothing of Slate's domain. The
trial recording is real MP3 (PyAV), as long as the preview text would be read.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
import uuid
import zlib
from typing import Any

from app.sim.rules import ApiError, invalid

VOICE_DESIGN = "/v1/voice_design"
PREVIEW_MAX = 500
DUPLICATE = 2039
DUPLICATE_MESSAGE = "duplicate voice id"
CUSTOM_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{6,254}[A-Za-z0-9]")
TRIAL_RATE = 32000


def validate_design(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise invalid("the body must be a JSON object")
    prompt = body.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise invalid("prompt is required")
    preview = body.get("preview_text")
    if not isinstance(preview, str) or not preview.strip():
        raise invalid("preview_text is required")
    if len(preview) > PREVIEW_MAX:
        raise invalid(f"preview_text exceeds {PREVIEW_MAX} characters")
    voice_id = body.get("voice_id")
    if voice_id is not None and (
        not isinstance(voice_id, str) or not CUSTOM_ID.fullmatch(voice_id)
    ):
        raise invalid(
            "voice_id must be 8-256 characters, start with a letter, hold letters, digits, - "
            "and _, and not end with - or _"
        )
    return {"prompt": prompt, "preview_text": preview, "voice_id": voice_id}


class VoiceBook:
    """Designed voices, by id (the demo provider's own process)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.voices: dict[str, dict[str, Any]] = {}


def book(sim: Any) -> VoiceBook:
    got = getattr(sim, "_voice_book", None)
    if got is None:
        with sim._lock:
            got = getattr(sim, "_voice_book", None)
            if got is None:
                got = sim._voice_book = VoiceBook()
    return got


def designed(sim: Any) -> list[dict[str, Any]]:
    """``get_voice``'s ``voice_generation`` list."""
    shelf = book(sim)
    with shelf.lock:
        return [
            {
                "voice_id": v["voice_id"],
                "description": [v["prompt"]],
                "created_time": v["created_time"],
            }
            for v in shelf.voices.values()
        ]


def make_voice(sim: Any, handler: Any, params: dict[str, Any], render: Any, seconds: float) -> None:
    """Register the voice (2039 when its id exists), make the trial recording, count the create,
    then answer (faults that strike after the making may lose the answer)."""
    shelf = book(sim)
    now = sim.now()
    voice_id = params["voice_id"] or (
        f"ttv-voice-{dt.datetime.fromtimestamp(now, dt.timezone.utc):%Y%m%d%H%M%S}"
        f"{uuid.uuid4().hex[:2]}-{uuid.uuid4().hex[:8]}"
    )
    with shelf.lock:
        if voice_id in shelf.voices:
            duplicate = True
        else:
            duplicate = False
            shelf.voices[voice_id] = {
                "voice_id": voice_id,
                "prompt": params["prompt"],
                "created_time": dt.datetime.fromtimestamp(now, dt.timezone.utc).date().isoformat(),
            }
    if duplicate:
        sim._count_create("voice", params["prompt"], made=False)
        raise ApiError(DUPLICATE, DUPLICATE_MESSAGE)
    seed = zlib.crc32(f"{voice_id}\0{params['preview_text']}".encode())
    data = render("mp3", seconds, TRIAL_RATE, 1, seed=seed)
    sim._count_create("voice", params["prompt"], made=True)
    handler._after_create(task_id=voice_id)
    trace_id = uuid.uuid4().hex
    handler._json(
        {
            "trial_audio": data.hex(),
            "voice_id": voice_id,
            "trace_id": trace_id,
            "base_resp": {"status_code": 0, "status_msg": "success"},
        }
    )
    sim._served_media(data, params["prompt"])
    sim._answered(params["prompt"], trace_id)


__all__ = ["VOICE_DESIGN", "designed", "make_voice", "validate_design"]
