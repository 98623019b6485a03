"""Voice design: a slot of kind ``voice`` (DESIGN.md "Voice design"; MINIMAX_API.md "Voices").

``POST /v1/voice_design`` ``{"prompt", "preview_text", "voice_id"}`` → ``{"voice_id",
"trial_audio" (hex), "base_resp"}``: synchronous like music. Two fields are the designer's:

* ``prompt`` — the description of the voice (required, not blank; MiniMax documents no limit);
* ``preview_text`` — the words of the trial recording (required, not blank, at most
  :data:`PREVIEW_TEXT_MAX` characters, counted as Unicode code points).

The third, ``voice_id``, is never the designer's: it is :func:`voice_id_for` the slot's
idempotency key, so the same slot names the same voice on every machine and store of its tenant
and user, and a lost answer is settled by exact evidence (``get_voice`` lists the id or not).
It is not a parameter and never enters the fingerprint (it follows from the key).

The custom voice id rules (MiniMax's voice clone reference; voice design takes "a custom voice
id" with the same rules): 8 to 256 characters, the first a letter, then letters, digits, ``-``
and ``_``, not ending in ``-`` or ``_``. Slate's ids use letters and digits only, so every
reading of those rules holds (the source: docs/DECISIONS.md "Designed voice ids").
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Mapping
from typing import Any, Final

from app.domain.errors import Rule, ValidationError

VOICE: Final = "voice"
VOICE_DESIGN_PATH: Final = "/v1/voice_design"
GET_VOICE_PATH: Final = "/v1/get_voice"
#: The price table's name for a voice design (MiniMax's request names no model).
PRICE_MODEL: Final = "voice-design"
FIELDS: Final = ("prompt", "preview_text")
PREVIEW_TEXT_MAX: Final = 500
#: The answer MiniMax gives a create whose ``voice_id`` exists already: for a slot's own id, the
#: evidence that an earlier create of this slot made the voice (never a failure).
DUPLICATE_VOICE_ID: Final = 2039
#: MiniMax deletes a designed or cloned voice left unused for this many days.
UNUSED_DAYS: Final = 7

#: MiniMax's custom voice id rules (see the module's docstring).
VOICE_ID_MIN: Final = 8
VOICE_ID_MAX: Final = 256
VOICE_ID_RULE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_-]{6,254}[A-Za-z0-9]")
#: What every derived id starts with: a letter first, a digit in it whatever the hash (some
#: readings of the rule want both), and the derivation's version.
VOICE_ID_PREFIX: Final = "slatev1"
_VOICE_ID_HEX: Final = 40  # 160 bits of the key's hash


def normalize(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A voice design's parameters: the description and the preview text, byte-exact, plus the
    price table's name (a constant). Every refusal names its field."""
    for name in raw:
        if name not in FIELDS:
            raise ValidationError(
                name, f"is not a parameter of a voice design; known: {', '.join(FIELDS)}"
            )
    prompt = _text(raw.get("prompt"), "prompt", "the description of the voice to design")
    preview = _text(raw.get("preview_text"), "preview_text", "the words the trial recording speaks")
    if len(preview) > PREVIEW_TEXT_MAX:
        raise ValidationError(
            "preview_text",
            f"is {len(preview):,} characters; the limit is {PREVIEW_TEXT_MAX}",
            Rule.TOO_LONG,
            count=len(preview),
            limit=PREVIEW_TEXT_MAX,
        )
    return {"model": PRICE_MODEL, "prompt": prompt, "preview_text": preview}


def _text(value: object, field: str, what: str) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError(field, "must be text")
    if not value.strip():
        raise ValidationError(field, f"is required: {what}", Rule.REQUIRED)
    return value


def voice_id_for(idempotency_key: str) -> str:
    """The voice id a voice slot sends: a pure function of its idempotency key (which holds
    tenant, user and RequestId only as digests), so never the RequestId in clear, the same on
    every machine and store, and another for another tenant, user or RequestId."""
    if not idempotency_key.startswith(f"{VOICE}:"):
        raise ValueError("a voice id is derived from a voice slot's idempotency key")
    digest = hashlib.sha256(f"slate-voice-id:{idempotency_key}".encode()).hexdigest()
    return VOICE_ID_PREFIX + digest[:_VOICE_ID_HEX]


def is_valid_voice_id(voice_id: str) -> bool:
    """Within MiniMax's documented custom voice id rules."""
    return VOICE_ID_RULE.fullmatch(voice_id) is not None


def design_body(params: Mapping[str, Any], voice_id: str) -> dict[str, Any]:
    """The ``/v1/voice_design`` body: what MiniMax documents, nothing else."""
    return {
        "prompt": params["prompt"],
        "preview_text": params["preview_text"],
        "voice_id": voice_id,
    }


# -- the 7-day clock ------------------------------------------------------------------------
def deleted_after(made: str | None, last_used: str | None) -> str | None:
    """The day (``YYYY-MM-DD``) after which MiniMax deletes a designed or cloned voice left
    unused: :data:`UNUSED_DAYS` after its last use, else after it was made (the later of the two
    where both are known: clocks disagree, and a voice is never used before it is made); None
    when neither is known."""
    known = [d for d in (made, last_used) if d]
    if not known:
        return None
    base = max(known)
    return (dt.date.fromisoformat(base) + dt.timedelta(days=UNUSED_DAYS)).isoformat()


def check_not_deleted(voice: str, made: str | None, last_used: str | None, today: str) -> None:
    """A speech line may not use a designed or cloned voice past its :func:`deleted_after` day
    (``today`` as ``YYYY-MM-DD``): MiniMax has deleted it, so the create is refused here, before
    anything is sent, naming the day (``voice``)."""
    gone = deleted_after(made, last_used)
    if gone is None or today <= gone:
        return
    since = f"last used {last_used}" if last_used else f"made {made}"
    raise ValidationError(
        "voice",
        f"{voice} was deleted after {gone}: MiniMax deletes a designed or cloned voice unused "
        f"for {UNUSED_DAYS} days ({since}); design it again or choose another voice",
        Rule.VOICE_DELETED,
        voice=voice,
        deleted_after=gone,
        days=UNUSED_DAYS,
        made=made,
        last_used=last_used,
    )


__all__ = [
    "DUPLICATE_VOICE_ID",
    "PREVIEW_TEXT_MAX",
    "UNUSED_DAYS",
    "VOICE",
    "check_not_deleted",
    "deleted_after",
    "design_body",
    "is_valid_voice_id",
    "normalize",
    "voice_id_for",
]
