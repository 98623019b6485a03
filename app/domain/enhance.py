"""Prompt enhancement (MiniMax-H3's Context-IR, ``POST /v2/h3_context_ir``) as a slot of kind
``prompt`` (DESIGN.md "Derived slots").

The new slot's parameters name the source slot (``enhance_of``) and hold the prompt sent, so
its fingerprint binds it to that text: the same command again is replayed (never a second paid
call), the same RequestId for another prompt is a conflict. Context-IR takes a create's
``content[]``; Slate sends the source's text item only — the source's local media are kept as
fingerprints, not as bytes, and the enhancement is of the words (docs/DECISIONS.md).

Its result is text: the enhanced prompt, stored in the slot's results (``prompt``) with the
token ``usage``; there is no media. The protocol is V2 (the answer is the task inline, or a task
id queried by V2's query path: both are handled).
"""

from __future__ import annotations

from typing import Any, Final, Mapping

from app.domain.errors import Rule, ValidationError

KIND: Final = "prompt"
MODELS: Final = ("MiniMax-H3",)
FIELDS: Final = ("model", "prompt", "enhance_of")
PROMPT_MAX: Final = 7000
#: The price table's entry (token-priced; MiniMax publishes no price for it: unknown).
PRICE_KEY: Final = "MiniMax-H3 Context-IR"


def is_enhancement(params: Mapping[str, Any]) -> bool:
    return "enhance_of" in params


def why_not_enhance(kind: str, params: Mapping[str, Any]) -> ValidationError | None:
    """Why this slot's prompt cannot be enhanced (an error naming the field), or None."""
    if kind != "video" or params.get("model") not in MODELS:
        return ValidationError(
            "source", "Context-IR enhances the prompt of a MiniMax-H3 slot only", Rule.ENHANCE_MODEL
        )
    prompt = params.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return ValidationError(
            "source", "the slot has no prompt to enhance", Rule.ENHANCE_NO_PROMPT
        )
    if len(prompt) > PROMPT_MAX:
        return ValidationError(
            "source",
            f"the prompt is longer than {PROMPT_MAX} characters",
            Rule.TOO_LONG,
            count=len(prompt),
            limit=PROMPT_MAX,
        )
    return None


def enhance_params(source_request_id: str, source: Mapping[str, Any]) -> dict[str, Any]:
    return {"model": MODELS[0], "prompt": source["prompt"], "enhance_of": source_request_id}


def normalize(raw: Mapping[str, Any]) -> dict[str, Any]:
    for name in raw:
        if name not in FIELDS:
            raise ValidationError(name, "is not a parameter of a prompt enhancement")
    if raw.get("model") not in MODELS:
        raise ValidationError("model", "Context-IR is offered for MiniMax-H3 only")
    prompt = raw.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValidationError("prompt", "is required")
    if len(prompt) > PROMPT_MAX:
        raise ValidationError("prompt", f"is {len(prompt)} characters; the limit is {PROMPT_MAX}")
    source = raw.get("enhance_of")
    if not isinstance(source, str) or not source:
        raise ValidationError("enhance_of", "is required")
    return {"model": raw["model"], "prompt": prompt, "enhance_of": source}


def request_body(params: Mapping[str, Any]) -> dict[str, Any]:
    return {"model": params["model"], "content": [{"type": "text", "text": params["prompt"]}]}
