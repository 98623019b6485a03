"""Voice design and the voice list on the wire (MINIMAX_API.md "Voices"): V1 style, HTTP 200
with ``base_resp``.

* :func:`design` — ``POST /v1/voice_design`` ``{"prompt", "preview_text", "voice_id"}`` →
  ``{"voice_id", "trial_audio" (hex), "base_resp"}``. Synchronous; no task id. Code 2039
  ("duplicate voice id") is not an error here: the voice id Slate sends is the slot's own, so
  the answer says the voice exists already — :class:`VoiceDesigned` with ``duplicate`` set and
  no trial recording. Code 1027 (the output judged sensitive: MiniMax's safety filter
  refused the voice; a safety-blocked generation is not billed, MINIMAX_API.md "Errors in V1")
  is a definitive refusal here — nothing usable was made for this request — so it raises
  :class:`~app.providers.base.Refused` (reason ``sensitive_output``), never ``Ambiguous``. Every
  other non-zero code follows :mod:`app.providers.codes`.
* :func:`voices` — ``POST /v1/get_voice`` ``{"voice_type"}`` → the ``system_voice``,
  ``voice_cloning`` and ``voice_generation`` lists (``voice_id``, ``created_time``,
  ``description``), as :class:`ListedVoice` per group.

The raw answer kept for the record never holds the trial recording (its hex is replaced by its
length).
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from typing import Any

from app.domain.params_voice import DUPLICATE_VOICE_ID, GET_VOICE_PATH, VOICE_DESIGN_PATH
from app.domain.errors import FailReason
from app.providers.base import Ambiguous, Refused
from app.providers.codes import base_resp, v1_http, v1_raise_for_code
from app.providers.http import ApiClient

#: The voice design's answer that its output was judged sensitive: refused, nothing billed.
OUTPUT_SENSITIVE = 1027

#: ``get_voice``'s groups, by the ``voice_type`` that asks for each.
GROUPS = {
    "system": "system_voice",
    "voice_cloning": "voice_cloning",
    "voice_generation": "voice_generation",
}
VOICE_TYPES = (*GROUPS, "all")


@dataclass(frozen=True)
class VoiceDesigned:
    """A voice design's answer: the voice id MiniMax names, the trial recording's bytes (hex
    decoded), the raw answer without them. ``duplicate``: MiniMax answered 2039 (the id exists
    already; no trial recording). ``problem``: why the answer holds no usable recording."""

    voice_id: str | None
    audio: bytes | None
    raw: dict[str, Any]
    trace_id: str | None
    duplicate: bool = False
    problem: str | None = None


@dataclass(frozen=True)
class ListedVoice:
    """One voice of ``get_voice``: its id, its group, when it was made (as MiniMax writes it,
    e.g. ``2025-06-07`` or a timestamp; None when absent) and its description."""

    voice_id: str
    group: str  # system_voice | voice_cloning | voice_generation
    created_time: str | None
    description: tuple[str, ...] = ()
    name: str | None = None


def _scrubbed(raw: dict[str, Any]) -> dict[str, Any]:
    out = dict(raw)
    trial = out.get("trial_audio")
    if isinstance(trial, str) and trial and not trial.startswith(("http://", "https://")):
        out["trial_audio"] = f"<{len(trial) // 2} bytes as hex>"
    return out


async def design(
    http: ApiClient, body: dict[str, Any], hint: str, timeout: float | None
) -> VoiceDesigned:
    """Send one voice design and read its answer (``timeout``: this request's)."""
    what = "voice design"
    answer = await http.send("POST", VOICE_DESIGN_PATH, what=what, json=body, timeout=timeout)
    raw = v1_http(answer, what, hint)
    code, msg = base_resp(raw)
    trace = raw.get("trace_id") if isinstance(raw.get("trace_id"), str) else None
    trace = trace or raw.get("_trace_id")
    asked = body.get("voice_id")
    if code == DUPLICATE_VOICE_ID:
        raw.pop("_retry_after", None)
        return VoiceDesigned(asked, None, _scrubbed(raw), trace, duplicate=True)
    if code == OUTPUT_SENSITIVE:
        raw.pop("_retry_after", None)
        raise Refused(
            f"{what}: refused, code {code} ({msg or 'output judged sensitive'})",
            code=code,
            raw=_scrubbed(raw),
            reason=FailReason.SENSITIVE_OUTPUT,
        )
    v1_raise_for_code(raw, what, hint)
    kept = _scrubbed(raw)
    named = raw.get("voice_id")
    if asked is not None and named not in (None, "") and named != asked:
        # an answer naming another voice is not about this slot's create
        raise Ambiguous(
            f"{what}: the answer names voice {named!r}, not the one asked for", code=0, raw=kept
        )
    voice_id = named if isinstance(named, str) and named else asked
    trial = raw.get("trial_audio")
    if not isinstance(trial, str) or not trial.strip():
        return VoiceDesigned(voice_id, None, kept, trace, problem="the answer holds no trial audio")
    try:
        data = binascii.unhexlify(trial.strip())
    except (binascii.Error, ValueError):
        return VoiceDesigned(voice_id, None, kept, trace, problem="trial_audio is not hex")
    return VoiceDesigned(voice_id, data, kept, trace)


async def voices(http: ApiClient, hint: str, voice_type: str = "all") -> list[ListedVoice]:
    """``POST /v1/get_voice``: the voices of ``voice_type`` (system, voice_cloning,
    voice_generation or all), in MiniMax's order per group."""
    if voice_type not in VOICE_TYPES:
        raise ValueError(f"voice_type must be one of {', '.join(VOICE_TYPES)}")
    what = "voice list"
    answer = await http.send("POST", GET_VOICE_PATH, what=what, json={"voice_type": voice_type})
    raw = v1_http(answer, what, hint)
    v1_raise_for_code(raw, what, hint)
    out: list[ListedVoice] = []
    for group in GROUPS.values():
        items = raw.get(group)
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            vid = item.get("voice_id")
            if not isinstance(vid, str) or not vid:
                continue
            made = item.get("created_time")
            desc = item.get("description")
            words = tuple(str(d) for d in desc) if isinstance(desc, list) else ()
            if isinstance(desc, str) and desc:
                words = (desc,)
            name = item.get("voice_name")
            out.append(
                ListedVoice(
                    vid,
                    group,
                    None if made in (None, "") else str(made),
                    words,
                    name if isinstance(name, str) and name else None,
                )
            )
    return out


__all__ = ["ListedVoice", "VoiceDesigned", "design", "voices"]
