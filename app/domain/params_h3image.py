"""MiniMax-H3-Image (and its Highspeed variant): rules, defaults, every limit, the body and the
size an answer must have.

A request is a generation (``POST /v1/images/generations``) without references and an edit
(``POST /v1/images/edits``) with 1–16 of them. The size is either ``size`` (``WxH``: area
655,360–20,000,000 px, aspect 1:3 to 3:1) or ``aspect_ratio`` (``X:Y`` within 1:3–3:1) with
``area`` (1K, 2K, 4K); Slate's defaults state ``aspect_ratio`` 1:1, ``area`` 1K, ``n`` 1, so the
provider's own defaults (``auto``) never decide a slot's output. Facts and what was decided:
MINIMAX_API.md "Image — MiniMax-H3-Image" and docs/DECISIONS.md "MiniMax-H3-Image".

References arrive (from the service) as an ``https://`` URL, as :class:`MediaFacts` of a local
file or data URL, or as ``{"request_id": RID, ...facts}`` (the verified result of another slot).
The normalized item keeps what the fingerprint must see: the URL, or the content's SHA-256,
size and format (never a path), plus the source slot's RequestId where one was named.

Every refusal is a :class:`ValidationError` naming the CLI option's field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final
from urllib.parse import urlsplit

from app.domain.errors import ValidationError
from app.domain.params_v2 import MediaFacts

MODELS: Final = ("MiniMax-H3-Image", "MiniMax-H3-Image-Highspeed")
FIELDS: Final = (
    "model",
    "prompt",
    "size",
    "aspect_ratio",
    "area",
    "n",
    "reference_image",
    "disable_prompt_enhanced",
)
GENERATIONS: Final = "/v1/images/generations"
EDITS: Final = "/v1/images/edits"

PROMPT_MAX = 32_000
N_MIN, N_MAX = 1, 10
REFERENCES_MAX = 16
AREAS: Final = ("1K", "2K", "4K")
#: The pixel area each ``area`` word stands for (a square of 1024, 2048, 4096 px): what the
#: demo provider renders and what the estimate would count; the check of an answer is its
#: aspect only (MiniMax rounds the sides).
AREA_PIXELS: Final = {"1K": 1024 * 1024, "2K": 2048 * 2048, "4K": 4096 * 4096}
SIZE_AREA_MIN, SIZE_AREA_MAX = 655_360, 20_000_000
ASPECT_MIN, ASPECT_MAX = Fraction(1, 3), Fraction(3, 1)
DEFAULT_ASPECT_RATIO, DEFAULT_AREA = "1:1", "1K"
#: Reference images (Comfy Router's schema of MiniMax's endpoint): JPEG, PNG, WEBP, HEIC or
#: HEIF, each side 128–8192 px, the long side at most 4 × the short one. No byte limit is
#: published; Slate holds them to V2's 30 MB per image (docs/DECISIONS.md).
REFERENCE_FORMATS: Final = ("jpeg", "png", "webp", "heic", "heif")
REFERENCE_SIDE_MIN, REFERENCE_SIDE_MAX = 128, 8192
REFERENCE_LONG_OVER_SHORT = 4
REFERENCE_MAX_BYTES = 30 * 1024 * 1024

_SIZE = re.compile(r"\s*(\d{1,6})\s*[xX×]\s*(\d{1,6})\s*")
_RATIO = re.compile(r"\s*(\d{1,3})\s*:\s*(\d{1,3})\s*")


def is_h3_image(model: object) -> bool:
    return isinstance(model, str) and model in MODELS


def _int(value: object, field: str) -> int:
    if isinstance(value, bool):
        raise ValidationError(field, "must be a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    raise ValidationError(field, "must be a whole number")


def parse_size(value: object) -> tuple[int, int]:
    """``WxH`` within the area and aspect limits."""
    if not isinstance(value, str) or not _SIZE.fullmatch(value):
        raise ValidationError("size", "must be WIDTHxHEIGHT in pixels, e.g. 2048x1152")
    m = _SIZE.fullmatch(value)
    assert m is not None
    w, h = int(m.group(1)), int(m.group(2))
    if w <= 0 or h <= 0:
        raise ValidationError("size", "width and height must be more than 0")
    area = w * h
    if not SIZE_AREA_MIN <= area <= SIZE_AREA_MAX:
        raise ValidationError(
            "size",
            f"{w}x{h} is {area:,} px; the area must be {SIZE_AREA_MIN:,}–{SIZE_AREA_MAX:,} px",
        )
    if not ASPECT_MIN <= Fraction(w, h) <= ASPECT_MAX:
        raise ValidationError("size", f"{w}x{h} is outside the aspect range 1:3 to 3:1")
    return w, h


def parse_ratio(value: object) -> tuple[int, int]:
    """``X:Y`` within 1:3 and 3:1."""
    if not isinstance(value, str) or not _RATIO.fullmatch(value):
        raise ValidationError("aspect_ratio", "must be X:Y, e.g. 16:9")
    m = _RATIO.fullmatch(value)
    assert m is not None
    a, b = int(m.group(1)), int(m.group(2))
    if a == 0 or b == 0:
        raise ValidationError("aspect_ratio", "both sides of X:Y must be more than 0")
    if not ASPECT_MIN <= Fraction(a, b) <= ASPECT_MAX:
        raise ValidationError("aspect_ratio", f"{a}:{b} is outside 1:3 to 3:1")
    return a, b


def check_reference(facts: MediaFacts, field: str = "reference_image") -> None:
    """A local reference image (file, data URL or another slot's result): format, bytes, sides
    and the long-to-short ratio."""
    what = facts.name or "the image"
    if facts.kind != "image" or facts.format not in REFERENCE_FORMATS:
        raise ValidationError(
            field,
            f"{what}: {facts.format.upper() or 'this'} is not accepted; use JPEG, PNG, WEBP, "
            "HEIC or HEIF",
        )
    if facts.bytes > REFERENCE_MAX_BYTES:
        raise ValidationError(
            field, f"{what} is {facts.bytes / 1048576:.1f} MB; a reference may be at most 30 MB"
        )
    w, h = facts.width or 0, facts.height or 0
    if not (
        REFERENCE_SIDE_MIN <= w <= REFERENCE_SIDE_MAX
        and REFERENCE_SIDE_MIN <= h <= REFERENCE_SIDE_MAX
    ):
        raise ValidationError(
            field,
            f"{what} is {w}×{h} px; each side must be {REFERENCE_SIDE_MIN}–{REFERENCE_SIDE_MAX} px",
        )
    if max(w, h) > REFERENCE_LONG_OVER_SHORT * min(w, h):
        raise ValidationError(
            field, f"{what} is {w}×{h} px; the long side may be at most 4 × the short side"
        )


def _url(value: str, field: str) -> str:
    if value.startswith("http://"):
        raise ValidationError(
            field, "plain http:// is not accepted; use https://, a file or a slot"
        )
    if not value.startswith("https://") or any(c.isspace() for c in value):
        raise ValidationError(field, "must be an https:// URL, a local file or a slot's RequestId")
    try:
        host = urlsplit(value).hostname
    except ValueError:
        raise ValidationError(field, "is not a valid URL") from None
    if not host:
        raise ValidationError(field, "the URL has no host (https://HOST/...)")
    return value


def _reference(value: object, field: str) -> dict[str, Any]:
    if isinstance(value, MediaFacts):
        check_reference(value, field)
        return value.item()
    if isinstance(value, Mapping):
        item = dict(value)
        if "url" in item and len(item) == 1 and isinstance(item["url"], str):
            return {"url": _url(item["url"], field)}
        if isinstance(item.get("sha256"), str) and isinstance(item.get("format"), str):
            return item  # already normalized (a stored slot's parameters)
        raise ValidationError(field, "is not a reference image")
    if isinstance(value, str) and value:
        return {"url": _url(value, field)}
    raise ValidationError(field, "must be an https:// URL, a local file or a slot's RequestId")


def normalize(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate an H3-Image create and apply Slate's defaults."""
    for name in raw:
        if name not in FIELDS:
            raise ValidationError(
                name, f"is not a parameter of MiniMax-H3-Image; known: {', '.join(FIELDS)}"
            )
    model = raw.get("model")
    if not is_h3_image(model):
        raise ValidationError("model", f"must be one of {', '.join(MODELS)}")
    prompt = raw.get("prompt")
    if prompt is None:
        prompt = ""
    if not isinstance(prompt, str):
        raise ValidationError("prompt", "must be text")
    if not prompt.strip():
        raise ValidationError("prompt", "is required")
    if len(prompt) > PROMPT_MAX:
        raise ValidationError("prompt", f"is {len(prompt)} characters; the limit is {PROMPT_MAX}")
    n = 1 if raw.get("n") in (None, "") else _int(raw["n"], "n")
    if not N_MIN <= n <= N_MAX:
        raise ValidationError("n", f"is {n}; ask for {N_MIN} to {N_MAX} images")
    size_raw = raw.get("size") or None
    ratio_raw = raw.get("aspect_ratio") or None
    area_raw = raw.get("area") or None
    size: str | None = None
    ratio: str | None = None
    area: str | None = None
    if size_raw is not None:
        if ratio_raw is not None:
            raise ValidationError("aspect_ratio", "give size or aspect_ratio and area, not both")
        if area_raw is not None:
            raise ValidationError("area", "give size or aspect_ratio and area, not both")
        w, h = parse_size(size_raw)
        size = f"{w}x{h}"
    else:
        a, b = parse_ratio(ratio_raw or DEFAULT_ASPECT_RATIO)
        ratio = f"{a}:{b}"
        area = str(area_raw or DEFAULT_AREA).strip().upper()
        if area not in AREAS:
            raise ValidationError("area", f"{area_raw!r} is not offered; use 1K, 2K or 4K")
    refs_raw = raw.get("reference_image")
    if refs_raw in (None, "", []):
        refs_list: list[Any] = []
    elif isinstance(refs_raw, (list, tuple)):
        refs_list = list(refs_raw)
    else:
        refs_list = [refs_raw]
    if len(refs_list) > REFERENCES_MAX:
        raise ValidationError(
            "reference_image",
            f"{len(refs_list)} references given; an edit takes 1 to {REFERENCES_MAX}",
        )
    refs = [_reference(v, "reference_image") for v in refs_list]
    disable = raw.get("disable_prompt_enhanced")
    if disable is None:
        disable = False
    if not isinstance(disable, bool):
        raise ValidationError("disable_prompt_enhanced", "must be true or false")
    return {
        "model": model,
        "prompt": prompt,
        "n": n,
        "size": size,
        "aspect_ratio": ratio,
        "area": area,
        "reference_image": refs,
        "disable_prompt_enhanced": disable,
    }


def endpoint(params: Mapping[str, Any]) -> str:
    """Generations without references, edits with them."""
    return EDITS if params.get("reference_image") else GENERATIONS


def request_body(params: Mapping[str, Any], sources: Mapping[str, str]) -> dict[str, Any]:
    """The JSON body. ``sources`` maps each local reference's SHA-256 to its data URL. Images
    come back as URLs (downloaded and verified at once)."""
    body: dict[str, Any] = {
        "model": params["model"],
        "prompt": params["prompt"],
        "n": params["n"],
        "response_format": "url",
    }
    if params.get("size"):
        body["size"] = params["size"]
    else:
        body["aspect_ratio"] = params["aspect_ratio"]
        body["area"] = params["area"]
    if params.get("disable_prompt_enhanced"):
        body["disable_prompt_enhanced"] = True
    refs = params.get("reference_image") or []
    if refs:
        body["images"] = [
            {"image_url": item.get("url") or sources[item["sha256"]]} for item in refs
        ]
    return body


def output_size(params: Mapping[str, Any]) -> tuple[int, int] | None:
    """The exact size an answer must have (``size`` given), else None (the aspect is checked)."""
    size = params.get("size")
    return parse_size(size) if isinstance(size, str) else None


def largest_output(params: Mapping[str, Any]) -> int | None:
    """The pixels one image of this request stands for: ``size``'s area, else the ``area``
    word's (MiniMax rounds the sides, so an answer may be a little more). None when the
    parameters name neither (not an H3-Image request)."""
    size = params.get("size")
    if isinstance(size, str) and size:
        w, h = parse_size(size)
        return w * h
    area = params.get("area")
    if isinstance(area, str) and area in AREA_PIXELS:
        return AREA_PIXELS[area]
    return None


def area_size(ratio: str, area: str) -> tuple[int, int]:
    """The size the demo provider renders for ``aspect_ratio`` + ``area`` (sides in steps of
    16, the area about the word's square)."""
    a, b = parse_ratio(ratio)
    pixels = AREA_PIXELS[area]
    w = math.sqrt(pixels * a / b)
    h = w * b / a
    return max(16, round(w / 16) * 16), max(16, round(h / 16) * 16)


def reference_count(params: Mapping[str, Any]) -> int:
    return len(params.get("reference_image") or [])
