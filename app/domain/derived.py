"""Derived slots: a paid step made from another slot, itself a slot (DESIGN.md "Derived slots").

* **regenerate**: a finished 768P MiniMax-H3 slot re-rendered at 2K (``/v2/video_regeneration``
  with ``source_task_id``). The new slot is a video slot speaking V2; its parameters name the
  source slot (``regenerate_from``) and the source's provider task (``source_task_id``), and
  carry the source's prompt, duration, ratio and content facts (what the answer is verified
  against: the source's length and aspect, at 2K). Its fingerprint therefore binds it to one
  source task: the same command again is replayed, another source under the same RequestId is
  a conflict.
* **enhance**: see :mod:`app.domain.enhance`.

What a source must be to be regenerated (:func:`why_not_regenerate`) is decided here, once;
the service, the CLI and the app all ask this function. The source slot itself is never
changed: its history records what was derived from it (an event, not a change of its record).
"""

from __future__ import annotations

from typing import Any, Final, Mapping

from app.domain.errors import Rule, ValidationError
from app.domain.params_v2 import RATIOS

#: MiniMax keeps V2 tasks queryable for 7 days; a regeneration's source must be inside them.
TASK_WINDOW_SECONDS: Final = 7 * 24 * 3600
REGENERATE_FROM: Final = ("MiniMax-H3",)
SOURCE_RESOLUTION: Final = "768P"
TARGETS: Final = ("2K",)
REGENERATION_FIELDS: Final = (
    "model",
    "prompt",
    "duration",
    "resolution",
    "ratio",
    "content",
    "regenerate_from",
    "source_task_id",
)
#: The price table's entry for a regeneration (priced per output second; MiniMax's own page
#: gives no price, so the shipped table says "unknown").
REGENERATION_PRICE_KEY: Final = "MiniMax-H3 regeneration"
SUFFIX_2K: Final = ".2k"
SUFFIX_ENHANCED: Final = ".enhanced"


def is_regeneration(params: Mapping[str, Any]) -> bool:
    return bool(params.get("source_task_id")) and "regenerate_from" in params


def why_not_regenerate(
    kind: str,
    params: Mapping[str, Any],
    state: str,
    provider_task_id: str | None,
    claimed_at: float,
    now: float,
    to: str = "2K",
) -> ValidationError | None:
    """Why this slot cannot be regenerated at ``to`` (an error naming the field), or None."""
    if to not in TARGETS:
        return ValidationError("to", f"{to!r} is not offered; a regeneration makes {TARGETS[0]}")
    if kind != "video" or params.get("model") not in REGENERATE_FROM:
        return ValidationError(
            "source", "only a MiniMax-H3 video can be regenerated at 2K", Rule.REGEN_MODEL
        )
    if is_regeneration(params):
        return ValidationError(
            "source", "this slot is itself a 2K regeneration", Rule.REGEN_OF_REGEN
        )
    if params.get("resolution") != SOURCE_RESOLUTION:
        return ValidationError(
            "source",
            f"only a 768P slot can be regenerated at 2K; this one is {params.get('resolution')}",
            Rule.REGEN_RESOLUTION,
            value=params.get("resolution"),
        )
    if state != "success" or not provider_task_id:
        return ValidationError(
            "source",
            f"only a finished slot can be regenerated; this one is {state}",
            Rule.REGEN_NOT_FINISHED,
            state=state,
        )
    if now - claimed_at > TASK_WINDOW_SECONDS:
        return ValidationError(
            "source",
            "MiniMax keeps a task for 7 days only; this slot is older, so it cannot be "
            "regenerated any more",
            Rule.REGEN_TOO_OLD,
            days=7,
        )
    return None


def regeneration_params(
    source_request_id: str, source: Mapping[str, Any], source_task_id: str, to: str = "2K"
) -> dict[str, Any]:
    """The new slot's parameters, from the source slot's normalized parameters."""
    return {
        "model": source["model"],
        "prompt": source.get("prompt") or "",
        "duration": source["duration"],
        "resolution": to,
        "ratio": source.get("ratio"),
        "content": list(source.get("content") or ()),
        "regenerate_from": source_request_id,
        "source_task_id": str(source_task_id),
    }


def normalize_regeneration(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check a regeneration's parameters (as :func:`regeneration_params` makes them)."""
    for name in raw:
        if name not in REGENERATION_FIELDS:
            raise ValidationError(name, "is not a parameter of a regeneration")
    if raw.get("model") not in REGENERATE_FROM:
        raise ValidationError("model", "a regeneration is a MiniMax-H3 task")
    if raw.get("resolution") not in TARGETS:
        raise ValidationError("to", "a regeneration makes 2K")
    if not isinstance(raw.get("source_task_id"), str) or not raw["source_task_id"]:
        raise ValidationError("source_task_id", "is required")
    if not isinstance(raw.get("regenerate_from"), str) or not raw["regenerate_from"]:
        raise ValidationError("regenerate_from", "is required")
    duration = raw.get("duration")
    if isinstance(duration, bool) or not isinstance(duration, int):
        raise ValidationError("duration", "must be the source's whole seconds")
    ratio = raw.get("ratio")
    if ratio is not None and ratio not in RATIOS and ratio != "adaptive":
        raise ValidationError("ratio", f"{ratio!r} is not a MiniMax-H3 ratio")
    return {name: raw.get(name) for name in REGENERATION_FIELDS} | {
        "content": list(raw.get("content") or ())
    }


def regeneration_body(params: Mapping[str, Any]) -> dict[str, Any]:
    """The ``POST /v2/video_regeneration`` body."""
    return {"model": params["model"], "source_task_id": params["source_task_id"]}


def suggest(source_request_id: str, suffix: str) -> str:
    """The RequestId suggested for a slot derived from ``source_request_id``:
    ``…:scene-02`` → ``…:scene-02.2k`` (``.enhanced`` for an enhanced prompt)."""
    return f"{source_request_id}{suffix}"
