"""Request validation as MiniMax documents it, written independently of ``app.domain.params``.

A refused request raises :class:`ApiError` with MiniMax's code (2013 "invalid params" for bad
fields). Sizes follow MiniMax: image-01 sizes per aspect ratio, and 16:9 video frames per
resolution (720P 1280x720, 768P 1366x768, 1080P 1920x1080, 512P 912x512).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


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
        {6: ("512P", "768P", "1080P"), 10: ("512P", "768P")}, "768P", "optional",
        last_frame=True, first_frame_only=("512P",),
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

_DATA_URL = re.compile(r"data:image/[a-zA-Z0-9.+-]+;base64,[A-Za-z0-9+/=\r\n]+")


def _image_ref(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise invalid(f"{name} must be a public image URL or a base64 data URL")
    if value.startswith(("http://", "https://")):
        return value
    if value.startswith("data:"):
        if not _DATA_URL.fullmatch(value):
            raise invalid(f"{name} is not a valid data:image/...;base64 URL")
        return value
    raise invalid(f"{name} must be a public image URL or a base64 data URL")


def _bool(body: dict[str, Any], name: str) -> None:
    if name in body and body[name] is not None and not isinstance(body[name], bool):
        raise invalid(f"{name} must be a boolean")


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise invalid(f"{name} must be an integer")
    return value


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
    subject = body.get("subject_reference")
    if model.subject:
        if not isinstance(subject, list) or not subject:
            raise invalid(f"subject_reference is required for {model_name}")
    elif subject not in (None, []):
        raise invalid(f"subject_reference is not supported by {model_name}")
    if not prompt.strip() and first is None and last is None:
        raise invalid("prompt is required when no first frame is given")

    duration = 6 if body.get("duration") is None else _int(body["duration"], "duration")
    if duration not in model.durations:
        offered = ", ".join(str(d) for d in model.durations)
        raise invalid(f"duration {duration} is not supported by {model_name} (supported: {offered})")
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
        raise invalid(f"{resolution} is not supported with last_frame_image")
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
            _image_ref(ref.get("image_file"), "subject_reference.image_file")
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
