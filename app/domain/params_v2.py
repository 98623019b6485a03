"""Generation parameters of MiniMax-H3 and H3-Max (the V2 protocol): rules, defaults, every input
limit of MINIMAX_API.md, the request body, and what the output must look like.

:func:`normalize` takes the raw parameters (the command line's and a shot list's names) and
returns the normalized, fingerprinted form::

    {"model", "prompt", "duration", "resolution", "ratio", "prompt_expansion", "content"}

``content`` lists the media items in a fixed order (first frame, last frame, reference images,
videos, audio), each ``{"type", "role"}`` plus either ``"url"`` (an ``https://`` or
``mm_file://`` reference, compared as written) or the facts of local content — a file or a
``data:`` URL, probed by the service — ``"sha256", "bytes", "format"`` and, where they apply,
``"width", "height", "seconds"``. Local content enters the fingerprint by its SHA-256, never by
its path or file name: the same picture from another folder is the same intent. The prompt stays
a top-level field (the text item is built from it when the body is made).

Local content arrives as :class:`MediaFacts` (``app/service/inputs.py`` reads and probes it);
this module never reads a file. Every refusal is a :class:`ValidationError` naming its field.
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Final, Mapping, Sequence
from urllib.parse import urlsplit

from app.domain.errors import Rule, ValidationError
from app.domain.protocols import V2_MODELS


@dataclass(frozen=True)
class V2ModelRule:
    resolutions: tuple[str, ...]
    min_seconds: int
    max_seconds: int
    last_frame_alone: bool  # a last frame without a first frame
    prompt_expansion: bool  # extra.prompt_expansion_mode


MODELS: dict[str, V2ModelRule] = {
    "MiniMax-H3": V2ModelRule(("768P", "2K"), 4, 15, last_frame_alone=True, prompt_expansion=False),
    # The faster variant. Reference support is contradicted between MiniMax's pages; MiniMax's
    # price table bills H3-Max images beyond the first two, which only references reach.
    "MiniMax-H3-Max": V2ModelRule(
        ("480P", "768P"), 5, 15, last_frame_alone=False, prompt_expansion=True
    ),
}
assert tuple(MODELS) == V2_MODELS

DEFAULT_DURATION: Final = 6
DEFAULT_RESOLUTION: Final = "768P"
DEFAULT_RATIO: Final = "16:9"
DEFAULT_EXPANSION: Final = "balanced"
RATIOS: dict[str, float] = {
    "21:9": 21 / 9,
    "16:9": 16 / 9,
    "4:3": 4 / 3,
    "1:1": 1.0,
    "3:4": 3 / 4,
    "9:16": 9 / 16,
}
ADAPTIVE: Final = "adaptive"
EXPANSION_MODES = ("disabled", "balanced", "quality")
PROMPT_MAX: Final = 7000

#: Input limits (MINIMAX_API.md "Video V2").
IMAGE_FORMATS = ("jpeg", "png", "webp", "heic", "heif")
IMAGE_MAX_BYTES: Final = 30 * 1024 * 1024
SIDE_MIN, SIDE_MAX = 256, 5760
ASPECT_MIN, ASPECT_MAX = 0.4, 2.5
VIDEO_FORMATS = ("mp4", "mov")
VIDEO_CODECS = ("h264", "hevc")
VIDEO_AUDIO_CODECS = ("aac", "mp3", "mp3float")
VIDEO_MAX_BYTES: Final = 50 * 1024 * 1024
AUDIO_FORMATS = ("wav", "mp3")
AUDIO_MAX_BYTES: Final = 15 * 1024 * 1024
CLIP_MIN, CLIP_MAX = 2.0, 15.0
TOTAL_SECONDS_MAX: Final = 15.0
FPS_MIN, FPS_MAX = 23.976, 60.0
MAX_IMAGES, MAX_VIDEOS, MAX_AUDIO, MAX_FILES = 9, 3, 3, 12
BODY_MAX: Final = 64 * 1024 * 1024

#: How local content travels (see :func:`plan_body`): an image of at most this many bytes goes
#: inline as a ``data:`` URL while the inline part of the body stays under the budget; anything
#: else is uploaded first (``/v1/files/upload`` → ``mm_file://ID``). Video and audio are always
#: uploaded: MiniMax documents data URLs for images only.
INLINE_IMAGE_MAX: Final = 5 * 1024 * 1024
INLINE_BUDGET: Final = 24 * 1024 * 1024

#: Output: the short side per resolution (the long side follows the aspect), 24 fps, stereo.
SHORT_SIDE = {"480P": 480, "768P": 768, "2K": 1440}

MEDIA_FIELDS: dict[str, tuple[str, str]] = {  # raw field → (item type, role)
    "first_frame_image": ("image_url", "first_frame"),
    "last_frame_image": ("image_url", "last_frame"),
    "reference_image": ("image_url", "reference_image"),
    "reference_video": ("video_url", "reference_video"),
    "reference_audio": ("audio_url", "reference_audio"),
}
FRAME_FIELDS = ("first_frame_image", "last_frame_image")
REFERENCE_FIELDS = ("reference_image", "reference_video", "reference_audio")
FIELDS = ("model", "prompt", "duration", "resolution", "ratio", "prompt_expansion", *MEDIA_FIELDS)
#: V1 parameters a V2 model does not have, with what to use instead.
V1_ONLY: dict[str, str] = {
    "prompt_optimizer": "V2 has no prompt optimizer switch (MiniMax-H3-Max: prompt_expansion)",
    "subject_reference": "use reference_image",
    "fast_pretreatment": "V2 has no fast_pretreatment",
    "aspect_ratio": "video on V2 takes ratio",
}
KIND_OF_TYPE = {"image_url": "image", "video_url": "video", "audio_url": "audio"}
_MM_FILE = re.compile(r"mm_file://[0-9]{1,20}")


@dataclass(frozen=True)
class MediaFacts:
    """What the service found in one piece of local content (a file or a ``data:`` URL).

    ``name`` is for messages only (the file's name, or "data URL"); it never enters the
    normalized parameters. ``kind`` is ``image``, ``video`` or ``audio``."""

    kind: str
    sha256: str
    bytes: int
    format: str
    name: str = ""
    width: int | None = None
    height: int | None = None
    seconds: float | None = None
    fps: float | None = None
    video_codec: str | None = None
    audio_codec: str | None = None

    def item(self) -> dict[str, Any]:
        """The normalized item's content fields (what the fingerprint sees)."""
        out: dict[str, Any] = {"sha256": self.sha256, "bytes": self.bytes, "format": self.format}
        if self.kind in ("image", "video"):
            out["width"], out["height"] = self.width, self.height
        if self.kind in ("video", "audio"):
            out["seconds"] = None if self.seconds is None else round(self.seconds, 3)
        return out


# -- small readers --------------------------------------------------------------------------
def _int(value: object, field: str) -> int:
    if isinstance(value, bool):
        raise ValidationError(field, "must be a whole number", Rule.WHOLE_NUMBER)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.strip()):
        return int(value.strip())
    raise ValidationError(field, "must be a whole number", Rule.WHOLE_NUMBER)


def _text(value: object, field: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValidationError(field, "must be text")
    return value.strip()


def _mb(n: float) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def check_url(url: str, field: str) -> str:
    """A remote reference: a public ``https://`` URL with a host, or ``mm_file://ID``."""
    if _MM_FILE.fullmatch(url):
        return url
    if url.startswith("mm_file://"):
        raise ValidationError(
            field, "mm_file:// must be followed by the uploaded file's id", Rule.SOURCE
        )
    if url.startswith("http://"):
        raise ValidationError(field, "plain http:// is not accepted; use https://", Rule.PLAIN_HTTP)
    if not url.startswith("https://"):
        raise ValidationError(
            field, "must be an https:// URL, mm_file://ID, a data: URL or a local file", Rule.SOURCE
        )
    if any(c.isspace() for c in url):
        raise ValidationError(field, "a URL must not contain spaces", Rule.SOURCE)
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        raise ValidationError(field, "is not a valid URL", Rule.SOURCE) from None
    if not host:
        raise ValidationError(field, "the URL has no host (https://HOST/...)", Rule.SOURCE)
    if host == "localhost" or host.endswith(".localhost"):
        raise ValidationError(
            field, f"must be a public https URL, not {host}", Rule.PRIVATE_ADDRESS, host=host
        )
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return url
    if not address.is_global:
        raise ValidationError(
            field, f"must be a public https URL, not {host}", Rule.PRIVATE_ADDRESS, host=host
        )
    return url


# -- limits of local content ------------------------------------------------------------------
def check_image(f: MediaFacts, field: str) -> None:
    """Format, bytes, pixel sides and aspect of an input image."""
    what = f.name or "the image"
    if f.kind != "image" or f.format not in IMAGE_FORMATS:
        raise ValidationError(
            field,
            f"{what}: {f.format.upper() or 'this'} is not an accepted "
            "image format (JPG, JPEG, PNG, WEBP, HEIC, HEIF)",
            Rule.FORMAT,
            name=f.name or "",
            format=f.format.upper(),
            allowed="JPG, PNG, WEBP, HEIC, HEIF",
        )
    if f.bytes > IMAGE_MAX_BYTES:
        raise ValidationError(
            field,
            f"{what} is {_mb(f.bytes)}; images may be at most 30 MB",
            Rule.TOO_LARGE,
            name=f.name or "",
            size=_mb(f.bytes).split()[0],
            limit=IMAGE_MAX_BYTES // 1048576,
        )
    w, h = f.width or 0, f.height or 0
    if not (SIDE_MIN <= w <= SIDE_MAX and SIDE_MIN <= h <= SIDE_MAX):
        raise ValidationError(
            field,
            f"{what} is {w}×{h} px; each side must be {SIDE_MIN}–{SIDE_MAX} px",
            Rule.SIDES,
            name=f.name or "",
            width=w,
            height=h,
            low=SIDE_MIN,
            high=SIDE_MAX,
        )
    aspect = w / h
    if not ASPECT_MIN <= aspect <= ASPECT_MAX:
        raise ValidationError(
            field,
            f"{what} has an aspect ratio (width/height) of "
            f"{aspect:.2f}; it must be within {ASPECT_MIN}–{ASPECT_MAX} "
            "(2:5 to 5:2)",
            Rule.ASPECT,
            name=f.name or "",
            aspect=f"{aspect:.2f}",
            low="2:5",
            high="5:2",
        )


def _check_clip(f: MediaFacts, field: str, what: str) -> None:
    seconds = f.seconds if f.seconds is not None else 0.0
    if not CLIP_MIN - 0.001 <= seconds <= CLIP_MAX + 0.001:
        raise ValidationError(
            field,
            f"{what} lasts {seconds:.2f} s; each clip must last {CLIP_MIN:g}–{CLIP_MAX:g} s",
            Rule.CLIP_LENGTH,
            name=f.name or "",
            seconds=f"{seconds:.2f}",
            low=f"{CLIP_MIN:g}",
            high=f"{CLIP_MAX:g}",
        )


def check_video(f: MediaFacts, field: str) -> None:
    """Container, codecs, bytes, length and frame rate of a reference video."""
    what = f.name or "the video"
    if f.kind != "video" or f.format not in VIDEO_FORMATS:
        raise ValidationError(
            field,
            f"{what}: reference videos must be MP4 or MOV",
            Rule.FORMAT,
            name=f.name or "",
            format=f.format.upper(),
            allowed="MP4, MOV",
        )
    if f.video_codec not in VIDEO_CODECS:
        raise ValidationError(
            field,
            f"{what}: the video codec {f.video_codec} is not H.264 or H.265",
            Rule.CODEC,
            name=f.name or "",
            codec=f.video_codec,
            allowed="H.264, H.265",
        )
    if f.audio_codec is not None and f.audio_codec not in VIDEO_AUDIO_CODECS:
        raise ValidationError(
            field,
            f"{what}: the sound codec {f.audio_codec} is not AAC or MP3",
            Rule.CODEC,
            name=f.name or "",
            codec=f.audio_codec,
            allowed="AAC, MP3",
        )
    if f.bytes > VIDEO_MAX_BYTES:
        raise ValidationError(
            field,
            f"{what} is {_mb(f.bytes)}; videos may be at most 50 MB",
            Rule.TOO_LARGE,
            name=f.name or "",
            size=_mb(f.bytes).split()[0],
            limit=VIDEO_MAX_BYTES // 1048576,
        )
    _check_clip(f, field, what)
    fps = f.fps or 0.0
    if not FPS_MIN - 0.001 <= fps <= FPS_MAX + 0.001:
        raise ValidationError(
            field,
            f"{what} has {fps:.3f} fps; it must be within 23.976–60 fps",
            Rule.FPS,
            name=f.name or "",
            fps=f"{fps:.3f}",
            low="23.976",
            high="60",
        )


def check_audio(f: MediaFacts, field: str) -> None:
    """Container, bytes and length of a reference audio clip."""
    what = f.name or "the audio"
    if f.kind != "audio" or f.format not in AUDIO_FORMATS:
        raise ValidationError(
            field,
            f"{what}: reference audio must be WAV or MP3",
            Rule.FORMAT,
            name=f.name or "",
            format=f.format.upper(),
            allowed="WAV, MP3",
        )
    if f.bytes > AUDIO_MAX_BYTES:
        raise ValidationError(
            field,
            f"{what} is {_mb(f.bytes)}; audio may be at most 15 MB",
            Rule.TOO_LARGE,
            name=f.name or "",
            size=_mb(f.bytes).split()[0],
            limit=AUDIO_MAX_BYTES // 1048576,
        )
    _check_clip(f, field, what)


CHECKS = {"image": check_image, "video": check_video, "audio": check_audio}


# -- normalize --------------------------------------------------------------------------------
def _values(raw: Mapping[str, Any], field: str) -> list[Any]:
    value = raw.get(field)
    if value is None or value == "" or value == []:
        return []
    if isinstance(value, (str, MediaFacts)):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if v not in (None, "")]
    raise ValidationError(field, "must be a URL, a file, or a list of them")


def _item(value: object, field: str, item_type: str, role: str) -> dict[str, Any]:
    kind = KIND_OF_TYPE[item_type]
    if isinstance(value, MediaFacts):
        if value.kind != kind:
            raise ValidationError(
                field,
                f"{value.name or 'this input'} is {value.kind}, not {kind}",
                Rule.WRONG_KIND,
                name=value.name or "",
                kind=value.kind,
                wanted=kind,
            )
        CHECKS[kind](value, field)
        return {"type": item_type, "role": role, **value.item()}
    if not isinstance(value, str):
        raise ValidationError(field, "must be a URL or a file", Rule.SOURCE)
    if value.startswith("data:"):
        raise ValidationError(field, "a data: URL must be read by the service first", Rule.NOT_READ)
    return {"type": item_type, "role": role, "url": check_url(value, field)}


def normalize(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate and apply defaults for MiniMax-H3 / H3-Max. Raises ValidationError naming the
    field; nothing here reads a file or the network."""
    for name in raw:
        if name in V1_ONLY:
            raise ValidationError(
                name, f"is not a parameter of {raw.get('model')} (V2): {V1_ONLY[name]}"
            )
        if name not in FIELDS:
            raise ValidationError(
                name, f"is not a parameter of this kind; known: {', '.join(FIELDS)}"
            )
    model = raw.get("model")
    if model not in MODELS:
        raise ValidationError("model", f"{model!r} is not a V2 model; known: {', '.join(MODELS)}")
    rule = MODELS[model]

    prompt = raw.get("prompt")
    if prompt is None:
        prompt = ""
    if not isinstance(prompt, str):
        raise ValidationError("prompt", "must be text")
    if not prompt.strip():
        raise ValidationError(
            "prompt", f"is required ({model} needs a text prompt)", Rule.REQUIRED, model=model
        )
    if len(prompt) > PROMPT_MAX:
        raise ValidationError(
            "prompt",
            f"is {len(prompt)} characters; the limit is {PROMPT_MAX}",
            Rule.TOO_LONG,
            count=len(prompt),
            limit=PROMPT_MAX,
        )

    duration = (
        DEFAULT_DURATION if raw.get("duration") in (None, "") else _int(raw["duration"], "duration")
    )
    if not rule.min_seconds <= duration <= rule.max_seconds:
        raise ValidationError(
            "duration",
            f"{duration} s is not offered by {model}; use {rule.min_seconds}–{rule.max_seconds} s",
            Rule.NOT_OFFERED,
            value=f"{duration} s",
            model=model,
            instead=f"{rule.min_seconds}–{rule.max_seconds} s",
        )
    resolution = (_text(raw.get("resolution"), "resolution") or DEFAULT_RESOLUTION).upper()
    if resolution not in rule.resolutions:
        raise ValidationError(
            "resolution",
            f"{resolution} is not offered by {model}; use {' or '.join(rule.resolutions)}",
            Rule.NOT_OFFERED,
            value=resolution,
            model=model,
            instead=" / ".join(rule.resolutions),
        )

    items: list[dict[str, Any]] = []
    given: dict[str, int] = {}
    for field, (item_type, role) in MEDIA_FIELDS.items():
        values = _values(raw, field)
        if field in FRAME_FIELDS and len(values) > 1:
            raise ValidationError(field, "takes one image")
        given[field] = len(values)
        items.extend(_item(v, field, item_type, role) for v in values)

    frames = [f for f in FRAME_FIELDS if given[f]]
    references = [f for f in REFERENCE_FIELDS if given[f]]
    if frames and references:
        raise ValidationError(
            references[0],
            "references cannot be combined with a first or "
            "last frame: V2 takes frames or references, not both",
            Rule.FRAMES_OR_REFERENCES,
        )
    if given["last_frame_image"] and not given["first_frame_image"] and not rule.last_frame_alone:
        raise ValidationError(
            "last_frame_image",
            f"{model} needs a first frame with a last frame",
            Rule.NEEDS_FIRST_FRAME,
            model=model,
        )
    if given["reference_image"] > MAX_IMAGES:
        raise ValidationError(
            "reference_image",
            f"{given['reference_image']} reference images; at most {MAX_IMAGES}",
            Rule.TOO_MANY,
            count=given["reference_image"],
            limit=MAX_IMAGES,
        )
    if given["reference_video"] > MAX_VIDEOS:
        raise ValidationError(
            "reference_video",
            f"{given['reference_video']} reference videos; at most {MAX_VIDEOS}",
            Rule.TOO_MANY,
            count=given["reference_video"],
            limit=MAX_VIDEOS,
        )
    if given["reference_audio"] > MAX_AUDIO:
        raise ValidationError(
            "reference_audio",
            f"{given['reference_audio']} audio clips; at most {MAX_AUDIO}",
            Rule.TOO_MANY,
            count=given["reference_audio"],
            limit=MAX_AUDIO,
        )
    if len(items) > MAX_FILES:
        raise ValidationError(
            "content",
            f"{len(items)} media inputs; a request takes at most {MAX_FILES} files",
            Rule.TOO_MANY,
            count=len(items),
            limit=MAX_FILES,
        )
    if given["reference_audio"] and not (given["reference_image"] or given["reference_video"]):
        raise ValidationError(
            "reference_audio",
            "reference audio needs at least one reference image or reference video",
            Rule.AUDIO_ALONE,
        )
    for item_type, field, what in (
        ("video_url", "reference_video", "reference videos"),
        ("audio_url", "reference_audio", "reference audio"),
    ):
        total = sum(i.get("seconds") or 0.0 for i in items if i["type"] == item_type)
        if total > TOTAL_SECONDS_MAX + 0.001:
            raise ValidationError(
                field,
                f"the {what} last {total:.2f} s in total; at most {TOTAL_SECONDS_MAX:g} s",
                Rule.TOTAL_LENGTH,
                seconds=f"{total:.2f}",
                limit=f"{TOTAL_SECONDS_MAX:g}",
            )

    ratio = _text(raw.get("ratio"), "ratio") or DEFAULT_RATIO
    ratio = ratio.lower() if ratio.lower() == ADAPTIVE else ratio
    if ratio != ADAPTIVE and ratio not in RATIOS:
        raise ValidationError(
            "ratio",
            f"{ratio!r} is not offered; use {ADAPTIVE} or one of {' '.join(RATIOS)}",
            Rule.NOT_OFFERED,
            value=ratio,
            model=model,
        )
    visual = any(i["type"] in ("image_url", "video_url") for i in items)
    if ratio == ADAPTIVE and not visual:
        raise ValidationError(
            "ratio",
            "a request without an image or a video needs a concrete "
            f"ratio ({' '.join(RATIOS)}), not adaptive",
            Rule.ADAPTIVE_NEEDS_MEDIA,
        )

    expansion = _text(raw.get("prompt_expansion"), "prompt_expansion")
    if expansion is not None:
        if not rule.prompt_expansion:
            raise ValidationError(
                "prompt_expansion",
                f"is offered by MiniMax-H3-Max only, not {model}",
                Rule.NOT_TAKEN,
                model=model,
            )
        expansion = expansion.lower()
        if expansion not in EXPANSION_MODES:
            raise ValidationError(
                "prompt_expansion", f"{expansion!r} is not one of {', '.join(EXPANSION_MODES)}"
            )
    elif rule.prompt_expansion:
        expansion = DEFAULT_EXPANSION

    return {
        "model": model,
        "prompt": prompt,
        "duration": duration,
        "resolution": resolution,
        "ratio": ratio,
        "prompt_expansion": expansion,
        "content": items,
    }


# -- the request body -------------------------------------------------------------------------
@dataclass(frozen=True)
class BodyPlan:
    """How local content travels: inline as a data URL, or uploaded first (by SHA-256), and the
    size the request body will have."""

    inline: frozenset[str]
    upload: frozenset[str]
    body_bytes: int


_UPLOAD_URL = "mm_file://" + "0" * 20


def data_url_length(kind: str, fmt: str, size: int) -> int:
    return len(f"data:{kind}/{fmt};base64,") + 4 * math.ceil(size / 3)


def plan_body(params: Mapping[str, Any], can_upload: bool) -> BodyPlan:
    """Decide, for each piece of local content, inline or upload, and check the 64 MB body.

    With uploads (both MiniMax and the demo provider can) images up to
    :data:`INLINE_IMAGE_MAX` go inline while the inline part stays within
    :data:`INLINE_BUDGET`; the rest is uploaded. Without uploads everything goes inline.
    Raises ValidationError (``content``) when the body would exceed 64 MB."""
    inline: set[str] = set()
    upload: set[str] = set()
    lengths: dict[str, int] = {}
    used = 0
    for item in params.get("content") or ():
        sha = item.get("sha256")
        if not sha or sha in inline or sha in upload:
            continue
        kind = KIND_OF_TYPE[item["type"]]
        size = data_url_length(kind, item["format"], int(item["bytes"]))
        lengths[sha] = size
        small = kind == "image" and int(item["bytes"]) <= INLINE_IMAGE_MAX
        if not can_upload or (small and used + size <= INLINE_BUDGET):
            inline.add(sha)
            used += size
        else:
            upload.add(sha)
    placeholders = {
        sha: ("x" * lengths[sha] if sha in inline else _UPLOAD_URL) for sha in inline | upload
    }
    body_bytes = len(
        json.dumps(request_body(params, placeholders), ensure_ascii=False).encode("utf-8")
    )
    if body_bytes > BODY_MAX:
        raise ValidationError(
            "content",
            f"the request body would be {_mb(body_bytes)}; MiniMax accepts at most 64 MB",
            Rule.BODY_TOO_LARGE,
            size=_mb(body_bytes).split()[0],
            limit=BODY_MAX // 1048576,
        )
    return BodyPlan(frozenset(inline), frozenset(upload), body_bytes)


def request_body(params: Mapping[str, Any], sources: Mapping[str, str]) -> dict[str, Any]:
    """The ``POST /v2/video_generation`` body. ``sources`` maps the SHA-256 of each piece of
    local content to the URL it travels as (a data URL or ``mm_file://ID``)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": params["prompt"]}]
    for item in params.get("content") or ():
        url = item.get("url") or sources[item["sha256"]]
        content.append({"type": item["type"], item["type"]: {"url": url}, "role": item["role"]})
    body: dict[str, Any] = {
        "model": params["model"],
        "content": content,
        "resolution": params["resolution"],
        "duration": params["duration"],
        "ratio": params["ratio"],
    }
    if params.get("prompt_expansion"):
        body["extra"] = {"prompt_expansion_mode": params["prompt_expansion"]}
    return body


# -- the output ------------------------------------------------------------------------------
@dataclass(frozen=True)
class OutputExpectation:
    """What a V2 video must be: V2 reports only "768P"/"2K", so the size is checked as asked —
    the short side of the resolution and, where the request fixes it, the aspect (a concrete
    ratio; with a frame image, the image's aspect) — plus the length and a stereo track."""

    short_side: int
    aspect: float | None
    seconds: float
    audio_channels: int = 2


def _aspect(item: Mapping[str, Any]) -> float | None:
    w, h = item.get("width"), item.get("height")
    return w / h if w and h else None


def expected_output(params: Mapping[str, Any]) -> OutputExpectation:
    items = list(params.get("content") or ())
    frames = [i for i in items if i["role"] in ("first_frame", "last_frame")]
    ratio = params.get("ratio")
    aspect: float | None
    if frames:
        aspect = _aspect(frames[0])  # the output follows the frame image; ratio is ignored
    elif ratio in RATIOS:
        aspect = RATIOS[ratio]
    else:  # adaptive with references: the first reference image (else video) it can see
        visual = [i for i in items if i["type"] in ("image_url", "video_url")]
        visual.sort(key=lambda i: i["type"] != "image_url")
        aspect = next((a for a in map(_aspect, visual) if a), None)
    return OutputExpectation(SHORT_SIDE[params["resolution"]], aspect, float(params["duration"]))


def local_items(params: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
    return [i for i in params.get("content") or () if i.get("sha256")]
