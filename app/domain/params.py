"""Generation parameters: MiniMax v1 rules, validated before any request, normalized for the fingerprint.

``normalize(kind, raw)`` applies defaults and checks every rule in DESIGN.md ("Parameters"),
raising :class:`ValidationError` naming the field. The normalized dict holds every field the
kind knows (unset optionals as ``None``), so omitting a default equals stating it.
``request_body(kind, params)`` turns normalized params into the MiniMax JSON body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from app.domain.errors import ValidationError
from app.domain.slots import Kind

VIDEO_PROMPT_MAX = 2000
IMAGE_PROMPT_MAX = 1500
DEFAULT_VIDEO_MODEL = "MiniMax-Hailuo-2.3"
DEFAULT_IMAGE_MODEL = "image-01"
ASPECT_RATIOS = ("1:1", "16:9", "4:3", "3:2", "2:3", "3:4", "9:16", "21:9")
IMAGE_MODELS = ("image-01", "image-01-live")
SEED_MAX = 2**31 - 1


@dataclass(frozen=True)
class VideoModelRule:
    """What one video model accepts: durations per resolution and frame/subject needs."""

    resolutions: Mapping[int, tuple[str, ...]]  # duration → allowed resolutions
    default_resolution: Mapping[int, str]
    needs_first_frame: bool = False
    first_frame_only_resolutions: tuple[str, ...] = ()  # allowed only with a first frame
    allows_last_frame: bool = False
    needs_subject: bool = False
    allows_first_frame: bool = True


VIDEO_MODELS: dict[str, VideoModelRule] = {
    "MiniMax-Hailuo-2.3": VideoModelRule(
        resolutions={6: ("768P", "1080P"), 10: ("768P",)},
        default_resolution={6: "1080P", 10: "768P"},
    ),
    "MiniMax-Hailuo-2.3-Fast": VideoModelRule(
        resolutions={6: ("768P", "1080P"), 10: ("768P",)},
        default_resolution={6: "1080P", 10: "768P"},
        needs_first_frame=True,
    ),
    "MiniMax-Hailuo-02": VideoModelRule(
        resolutions={6: ("512P", "768P", "1080P"), 10: ("512P", "768P")},
        default_resolution={6: "768P", 10: "768P"},
        first_frame_only_resolutions=("512P",),
        allows_last_frame=True,
    ),
    "T2V-01-Director": VideoModelRule(
        resolutions={6: ("720P",)}, default_resolution={6: "720P"}, allows_first_frame=False
    ),
    "T2V-01": VideoModelRule(
        resolutions={6: ("720P",)}, default_resolution={6: "720P"}, allows_first_frame=False
    ),
    "I2V-01-Director": VideoModelRule(
        resolutions={6: ("720P",)}, default_resolution={6: "720P"}, needs_first_frame=True
    ),
    "I2V-01-live": VideoModelRule(
        resolutions={6: ("720P",)}, default_resolution={6: "720P"}, needs_first_frame=True
    ),
    "I2V-01": VideoModelRule(
        resolutions={6: ("720P",)}, default_resolution={6: "720P"}, needs_first_frame=True
    ),
    "S2V-01": VideoModelRule(
        resolutions={6: ("720P",)}, default_resolution={6: "720P"}, needs_subject=True,
        allows_first_frame=False,
    ),
}

VIDEO_FIELDS = (
    "model", "prompt", "duration", "resolution", "prompt_optimizer",
    "first_frame_image", "last_frame_image", "subject_reference",
)
IMAGE_FIELDS = (
    "model", "prompt", "aspect_ratio", "n", "seed", "response_format", "prompt_optimizer",
    "subject_reference",
)
_DATA_URL = re.compile(r"data:image/(png|jpeg|jpg|webp);base64,[A-Za-z0-9+/=\s]+", re.S)


def _frame(value: object, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValidationError(field, "must be an https:// URL or a data:image/...;base64 URL")
    if value.startswith("https://") and len(value) > len("https://"):
        if any(c.isspace() for c in value):
            raise ValidationError(field, "a URL must not contain spaces")
        return value
    if value.startswith("data:"):
        if not _DATA_URL.fullmatch(value):
            raise ValidationError(
                field, "a data URL must be data:image/png|jpeg|webp;base64,<base64 data>"
            )
        return value
    if value.startswith("http://"):
        raise ValidationError(field, "plain http:// is not accepted; use https:// or a data URL")
    raise ValidationError(field, "must be an https:// URL or a data:image/...;base64 URL")


def _prompt(value: object, limit: int, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError("prompt", "must be text")
    if required and not value.strip():
        raise ValidationError("prompt", "is required")
    if len(value) > limit:
        raise ValidationError("prompt", f"is {len(value)} characters; the limit is {limit}")
    return value


def _bool(value: object, field: str, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    raise ValidationError(field, "must be true or false")


def _int(value: object, field: str) -> int:
    if isinstance(value, bool):
        raise ValidationError(field, "must be a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.strip()):
        return int(value.strip())
    raise ValidationError(field, "must be a whole number")


def _unknown_fields(raw: Mapping[str, Any], known: tuple[str, ...]) -> None:
    for name in raw:
        if name not in known:
            raise ValidationError(name, f"is not a parameter of this kind; known: {', '.join(known)}")


def _subject_reference(value: object, kind: Kind) -> list[dict[str, Any]] | None:
    """Accept a list of references (MiniMax shape) or a single image string."""
    if value is None or value == [] or value == "":
        return None
    field = "subject_reference"
    if isinstance(value, str):
        if kind == "image":
            return [{"type": "character", "image_file": _frame(value, field)}]
        return [{"type": "character", "image": [_frame(value, field)]}]
    if not isinstance(value, list) or len(value) != 1 or not isinstance(value[0], Mapping):
        raise ValidationError(field, "must be one reference image (a list with one object)")
    ref = dict(value[0])
    if ref.get("type", "character") != "character":
        raise ValidationError(field, "type must be 'character'")
    if kind == "image":
        image = ref.get("image_file")
        if isinstance(image, list):
            image = image[0] if len(image) == 1 else None
        return [{"type": "character", "image_file": _frame(image, field)}]
    images = ref.get("image")
    if isinstance(images, str):
        images = [images]
    if not isinstance(images, list) or len(images) != 1:
        raise ValidationError(field, "image must be a list with exactly one picture")
    return [{"type": "character", "image": [_frame(images[0], field)]}]


def normalize_video(raw: Mapping[str, Any]) -> dict[str, Any]:
    _unknown_fields(raw, VIDEO_FIELDS)
    model = raw.get("model") or DEFAULT_VIDEO_MODEL
    if model not in VIDEO_MODELS:
        raise ValidationError("model", f"{model!r} is not a video model; known: {', '.join(VIDEO_MODELS)}")
    rule = VIDEO_MODELS[model]
    duration = 6 if raw.get("duration") is None else _int(raw["duration"], "duration")
    if duration not in rule.resolutions:
        allowed = " or ".join(f"{d} s" for d in rule.resolutions)
        raise ValidationError("duration", f"{duration} s is not offered by {model}; use {allowed}")
    first = raw.get("first_frame_image") or None
    last = raw.get("last_frame_image") or None
    if first is not None:
        if not rule.allows_first_frame:
            raise ValidationError("first_frame_image", f"{model} does not take a first frame")
        first = _frame(first, "first_frame_image")
    elif rule.needs_first_frame:
        raise ValidationError("first_frame_image", f"{model} requires a first frame image")
    if last is not None:
        if not rule.allows_last_frame:
            raise ValidationError("last_frame_image", f"{model} does not take a last frame")
        if first is None:
            raise ValidationError("last_frame_image", "a last frame needs a first frame too")
        last = _frame(last, "last_frame_image")
    resolution_raw = raw.get("resolution")
    if resolution_raw is None or resolution_raw == "":
        resolution = rule.default_resolution[duration]
    elif not isinstance(resolution_raw, str):
        raise ValidationError("resolution", "must be text such as 768P")
    else:
        resolution = resolution_raw.strip().upper()
    allowed_res = rule.resolutions[duration]
    if resolution not in allowed_res:
        if model.startswith("MiniMax-Hailuo-2.3") and duration == 10 and resolution == "1080P":
            raise ValidationError(
                "resolution", "10 s at 1080P is not offered; use 768P for 10 s, or 6 s for 1080P"
            )
        raise ValidationError(
            "resolution", f"{resolution} is not offered by {model} at {duration} s; "
            f"use {' or '.join(allowed_res)}"
        )
    if resolution in rule.first_frame_only_resolutions and first is None:
        raise ValidationError("resolution", f"{resolution} needs a first frame image with {model}")
    subject = _subject_reference(raw.get("subject_reference"), "video")
    if subject is not None and not rule.needs_subject:
        raise ValidationError("subject_reference", f"{model} does not take a subject reference")
    if subject is None and rule.needs_subject:
        raise ValidationError("subject_reference", f"{model} requires a subject reference")
    prompt = _prompt(raw.get("prompt"), VIDEO_PROMPT_MAX, required=first is None)
    return {
        "model": model,
        "prompt": prompt,
        "duration": duration,
        "resolution": resolution,
        "prompt_optimizer": _bool(raw.get("prompt_optimizer"), "prompt_optimizer", True),
        "first_frame_image": first,
        "last_frame_image": last,
        "subject_reference": subject,
    }


def normalize_image(raw: Mapping[str, Any]) -> dict[str, Any]:
    _unknown_fields(raw, IMAGE_FIELDS)
    model = raw.get("model") or DEFAULT_IMAGE_MODEL
    if model not in IMAGE_MODELS:
        raise ValidationError("model", f"{model!r} is not an image model; known: {', '.join(IMAGE_MODELS)}")
    ratio = raw.get("aspect_ratio") or "1:1"
    if ratio not in ASPECT_RATIOS:
        raise ValidationError("aspect_ratio", f"{ratio!r} is not offered; use one of {' '.join(ASPECT_RATIOS)}")
    if ratio == "21:9" and model == "image-01-live":
        raise ValidationError("aspect_ratio", "21:9 is offered by image-01 only")
    n = 1 if raw.get("n") is None else _int(raw["n"], "n")
    if not 1 <= n <= 9:
        raise ValidationError("n", f"is {n}; ask for 1 to 9 images")
    seed = None if raw.get("seed") is None else _int(raw["seed"], "seed")
    if seed is not None and not 0 <= seed <= SEED_MAX:
        raise ValidationError("seed", f"must be between 0 and {SEED_MAX}")
    fmt = raw.get("response_format") or "url"
    if fmt not in ("url", "base64"):
        raise ValidationError("response_format", "must be url or base64")
    return {
        "model": model,
        "prompt": _prompt(raw.get("prompt"), IMAGE_PROMPT_MAX, required=True),
        "aspect_ratio": ratio,
        "n": n,
        "seed": seed,
        "response_format": fmt,
        "prompt_optimizer": _bool(raw.get("prompt_optimizer"), "prompt_optimizer", False),
        "subject_reference": _subject_reference(raw.get("subject_reference"), "image"),
    }


def normalize(kind: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate and apply defaults. Raises ValidationError naming the field."""
    if kind == "video":
        return normalize_video(raw)
    if kind == "image":
        return normalize_image(raw)
    raise ValidationError("kind", "must be image or video")


def request_body(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The MiniMax JSON body for normalized params (unset optionals left out)."""
    return {k: v for k, v in params.items() if v is not None}


def units(kind: str, params: Mapping[str, Any]) -> int:
    """How much of the daily quota one create uses: images count ``n``, a video counts 1."""
    return int(params.get("n") or 1) if kind == "image" else 1


def diff(stored: Mapping[str, Any], attempted: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Fields whose values differ: ``{field: {"stored": a, "attempted": b}}``."""
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(set(stored) | set(attempted)):
        a, b = stored.get(name), attempted.get(name)
        if a != b:
            out[name] = {"stored": a, "attempted": b}
    return out
