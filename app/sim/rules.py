"""Request validation as MiniMax documents it, written independently of ``app.domain.params``.

A refused request raises :class:`ApiError` with MiniMax's code (2013 "invalid params" for bad
fields). Sizes follow MiniMax: image-01 sizes per aspect ratio, and 16:9 video frames per
resolution (720P 1280x720, 768P 1366x768, 1080P 1920x1080, 512P 912x512). Frame images given
as data URLs are decoded and checked (JPG/PNG/WebP, < 20 MB, short side > 300 px, aspect 2:5 to
5:2); public URLs cannot be fetched from loopback and are taken as they are.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

from app.sim.probe import ProbeError, probe_image


class ApiError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def invalid(message: str) -> ApiError:
    return ApiError(2013, f"invalid params, {message}")


@dataclass(frozen=True)
class VideoModel:
    durations: dict[int, tuple[str, ...]]  # duration → resolutions
    default_resolution: str
    first_frame: str  # "required" | "optional" | "no"
    last_frame: bool = False
    subject: bool = False
    first_frame_only: tuple[str, ...] = ()  # resolutions offered only for image-to-video


_HAILUO_23 = {6: ("768P", "1080P"), 10: ("768P",)}
VIDEO_MODELS: dict[str, VideoModel] = {
    "MiniMax-Hailuo-2.3": VideoModel(_HAILUO_23, "768P", "optional"),
    "MiniMax-Hailuo-2.3-Fast": VideoModel(_HAILUO_23, "768P", "required"),
    "MiniMax-Hailuo-02": VideoModel(
        {6: ("512P", "768P", "1080P"), 10: ("512P", "768P")},
        "768P",
        "optional",
        last_frame=True,
        first_frame_only=("512P",),
    ),
    "T2V-01-Director": VideoModel({6: ("720P",)}, "720P", "no"),
    "T2V-01": VideoModel({6: ("720P",)}, "720P", "no"),
    "I2V-01-Director": VideoModel({6: ("720P",)}, "720P", "required"),
    "I2V-01-live": VideoModel({6: ("720P",)}, "720P", "required"),
    "I2V-01": VideoModel({6: ("720P",)}, "720P", "required"),
    "S2V-01": VideoModel({6: ("720P",)}, "720P", "no", subject=True),
}

VIDEO_SIZES: dict[str, tuple[int, int]] = {
    "512P": (912, 512),
    "720P": (1280, 720),
    "768P": (1366, 768),
    "1080P": (1920, 1080),
}

IMAGE_MODELS = ("image-01", "image-01-live")
IMAGE_SIZES: dict[str, tuple[int, int]] = {
    "1:1": (1024, 1024),
    "16:9": (1280, 720),
    "4:3": (1152, 864),
    "3:2": (1248, 832),
    "2:3": (832, 1248),
    "3:4": (864, 1152),
    "9:16": (720, 1280),
    "21:9": (1344, 576),
}
VIDEO_PROMPT_MAX = 2000
IMAGE_PROMPT_MAX = 1500

_DATA_URL = re.compile(r"data:image/[a-zA-Z0-9.+-]+;base64,([A-Za-z0-9+/=\r\n]+)")
FRAME_MAX_BYTES = 20 * 1024 * 1024
SUBJECT_MAX_BYTES = 10 * 1024 * 1024


def _decoded(value: str, name: str, limit: int) -> bytes:
    match = _DATA_URL.fullmatch(value)
    if not match:
        raise invalid(f"{name} is not a valid data:image/...;base64 URL")
    payload = re.sub(r"\s+", "", match.group(1))
    if len(payload) * 3 // 4 > limit + 3:
        raise invalid(f"{name} is larger than {limit // 1048576} MB")
    try:
        return base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise invalid(f"{name} is not valid base64") from None


def _image_ref(value: Any, name: str, *, subject: bool = False) -> str:
    """A frame (or image-01 subject) image: a public URL as it is, a data URL decoded, checked."""
    if not isinstance(value, str) or not value:
        raise invalid(f"{name} must be a public image URL or a base64 data URL")
    if value.startswith(("http://", "https://")):
        return value
    if not value.startswith("data:"):
        raise invalid(f"{name} must be a public image URL or a base64 data URL")
    limit = SUBJECT_MAX_BYTES if subject else FRAME_MAX_BYTES
    data = _decoded(value, name, limit)
    try:
        media = probe_image(data)
    except ProbeError as exc:
        raise invalid(f"{name}: {exc}") from None
    formats = ("jpeg", "png") if subject else ("jpeg", "png", "webp")
    if media is None or media.format not in formats:
        shown = "JPG or PNG" if subject else "JPG, PNG or WebP"
        found = media.format.upper() if media is not None else "not an image"
        raise invalid(f"{name} must be a {shown} image ({found})")
    if len(data) >= limit + (1 if subject else 0):
        raise invalid(
            f"{name} is {len(data) / 1048576:.1f} MB; "
            f"{'at most 10' if subject else 'less than 20'} MB"
        )
    if subject:
        return value
    w, h = media.width or 0, media.height or 0
    if min(w, h) <= 300:
        raise invalid(f"{name} is {w}x{h} px; its short side must be longer than 300 px")
    if not 0.4 <= w / h <= 2.5:
        raise invalid(f"{name} has aspect ratio {w}:{h}; it must be within 2:5 and 5:2")
    return value


def _bool(body: dict[str, Any], name: str) -> None:
    if name in body and body[name] is not None and not isinstance(body[name], bool):
        raise invalid(f"{name} must be a boolean")


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise invalid(f"{name} must be an integer")
    return value


def _subject_video(subject: Any, model_name: str) -> None:
    """S2V-01: ``[{"type": "character", "image": [one face image]}]``."""
    if not isinstance(subject, list) or not subject:
        raise invalid(f"subject_reference is required for {model_name}")
    if len(subject) != 1 or not isinstance(subject[0], dict):
        raise invalid("subject_reference must hold exactly one character reference")
    ref = subject[0]
    if ref.get("type", "character") != "character":
        raise invalid("subject_reference type must be character")
    images = ref.get("image")
    if not isinstance(images, list) or len(images) != 1:
        raise invalid("subject_reference image must be a list with exactly one face image")
    _image_ref(images[0], "subject_reference.image")


def validate_video(body: Any) -> dict[str, Any]:
    """Check a ``/v1/video_generation`` body; return what the task needs."""
    if not isinstance(body, dict):
        raise invalid("the body must be a JSON object")
    model_name = body.get("model")
    if not isinstance(model_name, str) or not model_name:
        raise invalid("model is required")
    model = VIDEO_MODELS.get(model_name)
    if model is None:
        raise invalid(f"model {model_name} is not supported")
    prompt = body.get("prompt")
    if prompt is None:
        prompt = ""
    if not isinstance(prompt, str):
        raise invalid("prompt must be a string")
    if len(prompt) > VIDEO_PROMPT_MAX:
        raise invalid(f"prompt exceeds {VIDEO_PROMPT_MAX} characters")
    for name in ("prompt_optimizer", "fast_pretreatment", "aigc_watermark"):
        _bool(body, name)

    first = body.get("first_frame_image") or None
    last = body.get("last_frame_image") or None
    if first is not None:
        if model.first_frame == "no":
            raise invalid(f"first_frame_image is not supported by {model_name}")
        first = _image_ref(first, "first_frame_image")
    elif model.first_frame == "required":
        raise invalid(f"first_frame_image is required for {model_name}")
    if last is not None:
        if not model.last_frame:
            raise invalid(f"last_frame_image is not supported by {model_name}")
        last = _image_ref(last, "last_frame_image")
    if last is not None and first is None:
        raise invalid("last_frame_image needs a first_frame_image (first and last frame mode)")
    subject = body.get("subject_reference")
    if model.subject:
        _subject_video(subject, model_name)
    elif subject not in (None, []):
        raise invalid(f"subject_reference is not supported by {model_name}")
    if not prompt.strip() and first is None and last is None:
        raise invalid("prompt is required when no first frame is given")

    if (
        model.subject
    ):  # S2V-01 has no duration or resolution: 6 s at 720P (stating those is harmless)
        for name, fixed in (("duration", 6), ("resolution", "720P")):
            value = body.get(name)
            if value is not None and str(value).upper() != str(fixed):
                raise invalid(f"{model_name} has no {name} field (its videos are 6 s at 720P)")
    duration = 6 if body.get("duration") is None else _int(body["duration"], "duration")
    if duration not in model.durations:
        offered = ", ".join(str(d) for d in model.durations)
        raise invalid(
            f"duration {duration} is not supported by {model_name} (supported: {offered})"
        )
    resolution = body.get("resolution") or model.default_resolution
    if not isinstance(resolution, str):
        raise invalid("resolution must be a string")
    resolution = resolution.upper()
    if resolution not in model.durations[duration]:
        if any(resolution in res for res in model.durations.values()):
            raise invalid(
                f"resolution {resolution} does not support duration {duration}s for {model_name}"
            )
        raise invalid(f"resolution {resolution} is not supported by {model_name}")
    if resolution in model.first_frame_only and first is None:
        raise invalid(f"{resolution} is only supported for image-to-video (first_frame_image)")
    if last is not None and resolution in model.first_frame_only:
        raise invalid(f"{resolution} is not supported for first and last frame (use 768P or 1080P)")
    callback = body.get("callback_url")
    if callback is not None and not isinstance(callback, str):
        raise invalid("callback_url must be a string")
    width, height = VIDEO_SIZES[resolution]
    return {
        "model": model_name,
        "prompt": prompt,
        "duration": duration,
        "resolution": resolution,
        "width": width,
        "height": height,
        "first_frame": first is not None,
        "last_frame": last is not None,
    }


def validate_image(body: Any) -> dict[str, Any]:
    """Check a ``/v1/image_generation`` body; return what the images need."""
    if not isinstance(body, dict):
        raise invalid("the body must be a JSON object")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise invalid("model is required")
    if model not in IMAGE_MODELS:
        raise invalid(f"model {model} is not supported")
    prompt = body.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise invalid("prompt is required")
    if len(prompt) > IMAGE_PROMPT_MAX:
        raise invalid(f"prompt exceeds {IMAGE_PROMPT_MAX} characters")
    _bool(body, "prompt_optimizer")
    _bool(body, "aigc_watermark")
    aspect = body.get("aspect_ratio")
    width_raw, height_raw = body.get("width"), body.get("height")
    if aspect is not None:
        if aspect not in IMAGE_SIZES:
            raise invalid(f"aspect_ratio {aspect} is not supported")
        width, height = IMAGE_SIZES[aspect]
    elif width_raw is not None or height_raw is not None:
        if model != "image-01":
            raise invalid("width and height are only supported by image-01")
        if width_raw is None or height_raw is None:
            raise invalid("width and height must be set together")
        width, height = _int(width_raw, "width"), _int(height_raw, "height")
        for name, v in (("width", width), ("height", height)):
            if not 512 <= v <= 2048 or v % 8:
                raise invalid(f"{name} must be within [512, 2048] and a multiple of 8")
        aspect = f"{width}x{height}"
    else:
        aspect = "1:1"
        width, height = IMAGE_SIZES[aspect]
    n = 1 if body.get("n") is None else _int(body["n"], "n")
    if not 1 <= n <= 9:
        raise invalid("n must be within [1, 9]")
    fmt = body.get("response_format") or "url"
    if fmt not in ("url", "base64"):
        raise invalid("response_format must be url or base64")
    seed = body.get("seed")
    if seed is not None:
        seed = _int(seed, "seed")
    subject = body.get("subject_reference")
    if subject not in (None, []):
        if not isinstance(subject, list):
            raise invalid("subject_reference must be an array")
        for ref in subject:
            if not isinstance(ref, dict) or ref.get("type", "character") != "character":
                raise invalid("subject_reference type must be character")
            _image_ref(ref.get("image_file"), "subject_reference.image_file", subject=True)
    return {
        "model": model,
        "prompt": prompt,
        "aspect_ratio": aspect,
        "width": width,
        "height": height,
        "n": n,
        "response_format": fmt,
        "seed": seed,
    }
