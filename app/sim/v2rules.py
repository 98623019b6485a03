"""MiniMax video V2 (MiniMax-H3, MiniMax-H3-Max) as MINIMAX_API.md documents it: the create body,
its content items and every input limit, the list query, output sizes and ``usage``.

Written from the protocol description, independently of Slate's own adapter and parameter
rules. A refusal raises :class:`V2Error` with the HTTP status and error class MiniMax uses.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping
from urllib.parse import parse_qs, urlsplit

from app.sim.probe import Media, ProbeError, probe_av, probe_image

#: status → (error type, internal code)
ERROR_CLASSES: dict[int, tuple[str, int]] = {
    400: ("bad_request_error", 2013),
    401: ("authorized_error", 1004),
    402: ("insufficient_balance_error", 1008),
    422: ("unprocessable_entity_error", 1026),
    429: ("rate_limit_error", 1002),
    500: ("server_error", 1000),
    529: ("overloaded_error", 1000),
    404: ("not_found_error", 2013),
    405: ("bad_request_error", 2013),
}
#: internal code → HTTP status, for faults that answer a V1 code on V2.
STATUS_FOR_CODE: dict[int, int] = {
    1000: 500,
    1001: 500,
    1013: 500,
    1024: 500,
    1033: 500,
    1002: 429,
    1039: 429,
    2045: 429,
    2056: 429,
    1004: 401,
    2049: 401,
    1008: 402,
    1028: 402,
    1030: 402,
    1026: 422,
    1027: 422,
    1042: 422,
    2013: 400,
    2038: 400,
    2061: 400,
}


class V2Error(Exception):
    def __init__(self, status: int, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.type, default_code = ERROR_CLASSES.get(status, ("server_error", 1000))
        self.code = default_code if code is None else code
        self.message = message

    def body(self, request_id: str) -> dict[str, Any]:
        return {
            "type": "error",
            "error": {
                "type": self.type,
                "message": f"{self.message} ({self.code})",
                "http_code": str(self.status),
            },
            "request_id": request_id,
        }


def bad(message: str) -> V2Error:
    return V2Error(400, f"invalid params, {message}")


@dataclass(frozen=True)
class V2Model:
    resolutions: tuple[str, ...]
    durations: range
    last_frame_alone: bool
    expansion: bool


MODELS: dict[str, V2Model] = {
    "MiniMax-H3": V2Model(("768P", "2K"), range(4, 16), last_frame_alone=True, expansion=False),
    "MiniMax-H3-Max": V2Model(
        ("480P", "768P"), range(5, 16), last_frame_alone=False, expansion=True
    ),
}
#: The short side of the output per resolution (the long side follows the ratio).
SHORT_SIDE = {"480P": 480, "768P": 768, "2K": 1440}
RATIOS: dict[str, float] = {
    "21:9": 21 / 9,
    "16:9": 16 / 9,
    "4:3": 4 / 3,
    "1:1": 1.0,
    "3:4": 3 / 4,
    "9:16": 9 / 16,
}
EXPANSION_MODES = ("disabled", "balanced", "quality")
STATUS_WORDS = ("queued", "running", "succeeded", "failed", "cancelled")
TASK_TYPES = ("generation", "h3_context_ir", "regeneration")
#: Fields of V1 bodies that V2 does not have: sending one is refused (with a hint).
V1_ONLY_FIELDS = {
    "prompt": "put the prompt in a content item of type text",
    "prompt_optimizer": "V2 has no prompt optimizer switch (H3-Max: extra.prompt_expansion_mode)",
    "first_frame_image": "use a content item of type image_url with role first_frame",
    "last_frame_image": "use a content item of type image_url with role last_frame",
    "subject_reference": "use content items with role reference_image",
    "aigc_watermark": "V2 has no watermark switch",
    "fast_pretreatment": "V2 has no fast_pretreatment",
}
ROLES = {
    "image_url": ("first_frame", "last_frame", "reference_image"),
    "video_url": ("reference_video",),
    "audio_url": ("reference_audio",),
}
FRAME_ROLES = ("first_frame", "last_frame")
REFERENCE_ROLES = ("reference_image", "reference_video", "reference_audio")

TEXT_MAX = 7000
MAX_IMAGES, MAX_VIDEOS, MAX_AUDIO, MAX_FILES = 9, 3, 3, 12
MAX_BODY = 64 * 1024 * 1024
IMAGE_MAX_BYTES = 30 * 1024 * 1024
IMAGE_FORMATS = ("jpeg", "png", "webp", "heic", "heif")
#: data URL subtypes per kind: images as documented; video and audio as MiniMax's CLI sends them
#: for local files (it rewrites ``audio/mpeg`` to ``audio/mp3``).
DATA_URL_FORMATS = {
    "image": ("jpg", "jpeg", "png", "webp", "heic", "heif"),
    "video": ("mp4", "quicktime"),
    "audio": ("mp3", "wav"),
}
SIDE_MIN, SIDE_MAX = 256, 5760
ASPECT_MIN, ASPECT_MAX = 0.4, 2.5
VIDEO_MAX_BYTES = 50 * 1024 * 1024
AUDIO_MAX_BYTES = 15 * 1024 * 1024
CLIP_MIN, CLIP_MAX = 2.0, 15.0
TOTAL_MAX_SECONDS = 15.0
FPS_MIN, FPS_MAX = 23.976, 60.0
#: Public https inputs cannot be fetched from loopback: their length is assumed to be this.
ASSUMED_URL_SECONDS = 5.0
FILE_LIFETIME = 7 * 86400
TASK_WINDOW = 7 * 86400
PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX = 10, 100
UPLOAD_PURPOSE = "video_generation_input"

_DATA_URL = re.compile(r"data:([A-Za-z]+)/([A-Za-z0-9.+-]+);base64,(.*)", re.DOTALL)
_MM_FILE = re.compile(r"mm_file://(\d{1,20})")


def even(x: float) -> int:
    return max(2, int(round(x / 2)) * 2)


def output_size(resolution: str, aspect: float) -> tuple[int, int]:
    """Pixel size of an output: the short side is the resolution's, the long side follows."""
    short = SHORT_SIDE[resolution]
    if aspect >= 1:
        return even(short * aspect), short
    return short, even(short / aspect)


# ---------------------------------------------------------------------------- input media


def check_image(media: Media, where: str, size: int | None = None) -> None:
    """Image limits: format, bytes, sides, aspect (MINIMAX_API.md "Input limits")."""
    if media.format not in IMAGE_FORMATS:
        raise bad(
            f"{where}: {media.format.upper() or 'this'} images are not supported "
            "(JPG, JPEG, PNG, WEBP, HEIC, HEIF)"
        )
    if size is not None and size > IMAGE_MAX_BYTES:
        raise bad(f"{where}: the image is {size / 1048576:.1f} MB; at most 30 MB")
    w, h = media.width or 0, media.height or 0
    if not (SIDE_MIN <= w <= SIDE_MAX and SIDE_MIN <= h <= SIDE_MAX):
        raise bad(f"{where}: the image is {w}x{h} px; each side must be {SIDE_MIN}-{SIDE_MAX} px")
    aspect = w / h
    if not ASPECT_MIN <= aspect <= ASPECT_MAX:
        raise bad(
            f"{where}: the image's aspect ratio (width/height) is {aspect:.2f}; "
            f"it must be within {ASPECT_MIN}-{ASPECT_MAX}"
        )


def check_video(media: Media, where: str, size: int | None = None) -> None:
    if media.kind != "video" or media.format not in ("mp4", "mov"):
        raise bad(f"{where}: reference videos must be MP4 or MOV")
    if media.video_codec not in ("h264", "hevc"):
        raise bad(f"{where}: the video codec {media.video_codec} is not H.264 or H.265")
    if media.audio_codec is not None and media.audio_codec not in ("aac", "mp3", "mp3float"):
        raise bad(f"{where}: the video's audio codec {media.audio_codec} is not AAC or MP3")
    if size is not None and size > VIDEO_MAX_BYTES:
        raise bad(f"{where}: the video is {size / 1048576:.1f} MB; at most 50 MB")
    _check_length(media, where, "video")
    fps = media.fps or 0.0
    if not FPS_MIN - 0.001 <= fps <= FPS_MAX + 0.001:
        raise bad(f"{where}: the video has {fps:.3f} fps; it must be within 23.976-60 fps")


def check_audio(media: Media, where: str, size: int | None = None) -> None:
    if media.kind != "audio" or media.format not in ("wav", "mp3"):
        raise bad(f"{where}: reference audio must be WAV or MP3")
    if size is not None and size > AUDIO_MAX_BYTES:
        raise bad(f"{where}: the audio is {size / 1048576:.1f} MB; at most 15 MB")
    _check_length(media, where, "audio")


def _check_length(media: Media, where: str, what: str) -> None:
    seconds = media.seconds or 0.0
    if not CLIP_MIN - 0.001 <= seconds <= CLIP_MAX + 0.001:
        raise bad(f"{where}: the {what} lasts {seconds:.2f} s; each clip must last 2-15 s")


def check_upload(data: bytes, where: str = "file") -> Media:
    """An upload for ``video_generation_input``: an image, a video or an audio clip in limits."""
    try:
        image = probe_image(data)
        if image is not None:
            check_image(image, where, len(data))
            return image
        media = probe_av(data)
    except ProbeError as exc:
        raise bad(f"{where}: {exc}") from None
    if media.kind == "video":
        check_video(media, where, len(data))
    else:
        check_audio(media, where, len(data))
    return media


# ---------------------------------------------------------------------------- URLs


def _public_https(url: str, where: str) -> None:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.scheme != "https" or not host:
        raise bad(f"{where} must be a public https URL, mm_file://ID or a data:image URL")
    if host == "localhost" or host.endswith(".localhost"):
        raise bad(f"{where} must be a public https URL (not {host})")
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return
    if not address.is_global:
        raise bad(f"{where} must be a public https URL (not {host})")


def decode_data_url(url: str, where: str, kind: str = "image") -> bytes:
    """The bytes of a ``data:<kind>/<format>;base64,…`` URL (format lowercase and known)."""
    match = _DATA_URL.fullmatch(url)
    if match is None:
        raise bad(f"{where} is not a data:{kind}/<format>;base64,... URL")
    family, fmt = match.group(1), match.group(2)
    if family.lower() != kind:
        raise bad(f"{where}: a {kind}_url item needs a data:{kind}/... URL, not data:{family}/")
    if f"{family}/{fmt}" != f"{family}/{fmt}".lower():
        raise bad(f"{where}: the data URL's format must be lowercase ({kind}/{fmt.lower()})")
    known = DATA_URL_FORMATS[kind]
    if fmt not in known:
        raise bad(f"{where}: data:{kind}/{fmt} is not supported ({', '.join(known)})")
    limit = {"image": IMAGE_MAX_BYTES, "video": VIDEO_MAX_BYTES, "audio": AUDIO_MAX_BYTES}[kind]
    payload = re.sub(r"\s+", "", match.group(3))
    if len(payload) * 3 // 4 > limit + 3:
        raise bad(f"{where}: the {kind} is larger than {limit // 1048576} MB")
    try:
        return base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise bad(f"{where}: the data URL is not valid base64") from None


@dataclass
class Item:
    kind: str  # image | video | audio
    role: str
    source: str  # https | mm_file | data
    media: Media | None  # None when the sim cannot see it (public https)

    @property
    def seconds(self) -> float:
        if self.media is not None and self.media.seconds is not None:
            return self.media.seconds
        return ASSUMED_URL_SECONDS


FileLookup = Callable[[int], "Mapping[str, Any] | None"]


def _media_item(
    kind: str, url: Any, where: str, files: FileLookup, now: float
) -> tuple[str, Media | None]:
    if not isinstance(url, str) or not url:
        raise bad(f"{where} is required")
    if url.startswith("mm_file://"):
        match = _MM_FILE.fullmatch(url)
        if match is None:
            raise bad(f"{where}: mm_file:// must be followed by a file id")
        record = files(int(match.group(1)))
        if record is None:
            raise bad(f"{where}: file {match.group(1)} not found")
        if now - float(record["created_at"]) > FILE_LIFETIME:
            raise bad(f"{where}: file {match.group(1)} has expired (uploads are kept 7 days)")
        if record.get("purpose") != UPLOAD_PURPOSE:
            raise bad(
                f"{where}: file {match.group(1)} was not uploaded with purpose={UPLOAD_PURPOSE}"
            )
        info = dict(record.get("info") or {})
        if info.get("kind") != kind:
            raise bad(
                f"{where}: file {match.group(1)} holds {info.get('kind', 'no media')}, not {kind}"
            )
        info.pop("kind", None)
        return "mm_file", Media(kind, **info)
    if url.startswith("data:"):
        data = decode_data_url(url, where, kind)
        try:
            media = probe_image(data) if kind == "image" else probe_av(data)
        except ProbeError as exc:
            raise bad(f"{where}: {exc}") from None
        if media is None:
            raise bad(f"{where}: the data URL does not hold an image")
        {"image": check_image, "video": check_video, "audio": check_audio}[kind](
            media, where, len(data)
        )
        return "data", media
    _public_https(url, where)
    return "https", None


# ---------------------------------------------------------------------------- create


def validate_create(body: Any, files: FileLookup, now: float) -> dict[str, Any]:
    """Check a ``POST /v2/video_generation`` body; return what the task needs."""
    if not isinstance(body, dict):
        raise bad("the body must be a JSON object")
    for name, hint in V1_ONLY_FIELDS.items():
        if name in body:
            raise bad(f"{name} is not a field of /v2/video_generation: {hint}")
    model_name = body.get("model")
    if not isinstance(model_name, str) or not model_name:
        raise bad("model is required (MiniMax-H3 or MiniMax-H3-Max)")
    model = MODELS.get(model_name)
    if model is None:
        raise bad(f"model {model_name} is not supported (MiniMax-H3, MiniMax-H3-Max)")

    content = body.get("content")
    if not isinstance(content, list) or not content:
        raise bad("content is required: a list of items with one text item")
    texts: list[str] = []
    items: list[Item] = []
    roleless: list[int] = []
    for i, raw in enumerate(content):
        where = f"content[{i}]"
        if not isinstance(raw, dict):
            raise bad(f"{where} must be an object")
        kind = raw.get("type")
        role = raw.get("role")
        if kind == "text":
            if role is not None:
                raise bad(f"{where}.role: text items take no role")
            text = raw.get("text")
            if not isinstance(text, str):
                raise bad(f"{where}.text must be a string")
            texts.append(text)
            continue
        if kind not in ROLES:
            raise bad(f"{where}.type {kind!r} is not one of text, image_url, video_url, audio_url")
        if role is None:
            if kind == "image_url":
                roleless.append(len(items))
                role = ""
            else:
                role = ROLES[kind][0]
        elif role not in ROLES[kind]:
            raise bad(
                f"{where}.role {role!r} is not valid for {kind} (use {', '.join(ROLES[kind])})"
            )
        holder = raw.get(kind)
        if not isinstance(holder, dict):
            raise bad(f"{where}.{kind} must be an object with a url")
        source, media = _media_item(
            kind.split("_")[0], holder.get("url"), f"{where}.{kind}.url", files, now
        )
        items.append(Item(kind.split("_")[0], role, source, media))

    if len(texts) != 1:
        raise bad(f"content must hold exactly one text item (found {len(texts)})")
    prompt = texts[0]
    if not prompt.strip():
        raise bad("the text item must not be empty")
    if len(prompt) > TEXT_MAX:
        raise bad(f"the text item has {len(prompt)} characters; at most {TEXT_MAX}")

    if len(roleless) > 1:
        raise bad(
            "several images have no role: give each image a role "
            "(first_frame, last_frame, reference_image)"
        )
    for index in roleless:  # a lone image without a role is the first frame
        items[index].role = "first_frame"

    images = [it for it in items if it.kind == "image"]
    videos = [it for it in items if it.kind == "video"]
    audio = [it for it in items if it.kind == "audio"]
    if len(images) > MAX_IMAGES:
        raise bad(f"content has {len(images)} images; at most {MAX_IMAGES}")
    if len(videos) > MAX_VIDEOS:
        raise bad(f"content has {len(videos)} videos; at most {MAX_VIDEOS}")
    if len(audio) > MAX_AUDIO:
        raise bad(f"content has {len(audio)} audio clips; at most {MAX_AUDIO}")
    if len(items) > MAX_FILES:
        raise bad(f"content has {len(items)} media files; at most {MAX_FILES}")

    roles = [it.role for it in items]
    frames = [r for r in roles if r in FRAME_ROLES]
    references = [r for r in roles if r in REFERENCE_ROLES]
    if frames and references:
        raise bad(
            "frame roles (first_frame, last_frame) and reference roles cannot be mixed "
            "in one request"
        )
    for role in FRAME_ROLES:
        if roles.count(role) > 1:
            raise bad(f"content has {roles.count(role)} items with role {role}; at most one")
    if audio and not any(r in ("reference_image", "reference_video") for r in roles):
        raise bad("reference audio needs at least one reference image or reference video")
    if "last_frame" in roles and "first_frame" not in roles and not model.last_frame_alone:
        raise bad(f"{model_name} needs a first_frame with a last_frame")

    video_seconds = sum(it.seconds for it in videos)
    audio_seconds = sum(it.seconds for it in audio)
    if video_seconds > TOTAL_MAX_SECONDS + 0.001:
        raise bad(f"the reference videos last {video_seconds:.2f} s in total; at most 15 s")
    if audio_seconds > TOTAL_MAX_SECONDS + 0.001:
        raise bad(f"the reference audio lasts {audio_seconds:.2f} s in total; at most 15 s")

    resolution = body.get("resolution")
    if not isinstance(resolution, str) or not resolution:
        raise bad(f"resolution is required ({', '.join(model.resolutions)} for {model_name})")
    resolution = resolution.strip().upper()
    if resolution not in model.resolutions:
        raise bad(
            f"resolution {resolution} is not supported by {model_name} "
            f"(use {', '.join(model.resolutions)})"
        )
    duration = body.get("duration")
    if duration is None:
        raise bad(
            f"duration is required ({model.durations.start}-{model.durations.stop - 1} s "
            f"for {model_name})"
        )
    if isinstance(duration, bool) or not isinstance(duration, int):
        raise bad("duration must be an integer number of seconds")
    if duration not in model.durations:
        raise bad(
            f"duration {duration} is not supported by {model_name} "
            f"({model.durations.start}-{model.durations.stop - 1} s)"
        )

    ratio = body.get("ratio")
    if ratio is None:
        ratio = "adaptive"
    if not isinstance(ratio, str) or (ratio != "adaptive" and ratio not in RATIOS):
        raise bad(f"ratio {ratio!r} is not supported (adaptive, {', '.join(RATIOS)})")
    visual = [it for it in items if it.kind in ("image", "video")]
    if not visual and ratio == "adaptive":
        raise bad(
            "a request without images or videos must name a concrete ratio "
            f"({', '.join(RATIOS)}), not adaptive"
        )

    expansion = None
    extra = body.get("extra")
    if extra is not None:
        if not isinstance(extra, dict):
            raise bad("extra must be an object")
        mode = extra.get("prompt_expansion_mode")
        if mode is not None:
            if not model.expansion:
                raise bad(
                    f"extra.prompt_expansion_mode is supported by MiniMax-H3-Max only, "
                    f"not {model_name}"
                )
            if mode not in EXPANSION_MODES:
                raise bad(
                    f"extra.prompt_expansion_mode {mode!r} is not one of "
                    f"{', '.join(EXPANSION_MODES)}"
                )
            expansion = mode
    if model.expansion and expansion is None:
        expansion = "balanced"

    callback = body.get("callback_url")
    if callback is not None:
        parts = urlsplit(callback) if isinstance(callback, str) else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            raise bad("callback_url must be an http(s) URL")

    if frames:
        modality = (
            "first_last_frame"
            if len(frames) == 2
            else "first_frame"
            if "first_frame" in frames
            else "last_frame"
        )
        order = sorted(
            (it for it in items if it.role in FRAME_ROLES),
            key=lambda it: FRAME_ROLES.index(it.role),
        )
        follow = order[0].media.aspect if order[0].media is not None else None
    elif references:
        modality = "reference"
        follow = next(
            (it.media.aspect for it in images + videos if it.media is not None and it.media.aspect),
            None,
        )
    else:
        modality, follow = "text", None
    if frames and follow is not None:
        aspect = follow  # the output follows the frame image; ratio is ignored
    elif ratio != "adaptive":
        aspect = RATIOS[ratio]
    else:
        aspect = follow or RATIOS["16:9"]
    width, height = output_size(resolution, aspect)
    return {
        "model": model_name,
        "prompt": prompt,
        "resolution": resolution,
        "duration": duration,
        "ratio": ratio,
        "width": width,
        "height": height,
        "modality": modality,
        "prompt_expansion_mode": expansion,
        "callback_url": callback,
        "input_image_count": len(images),
        "input_video_seconds": round(video_seconds, 3),
        "input_audio_seconds": round(audio_seconds, 3),
        "inputs": [{"kind": it.kind, "role": it.role, "source": it.source} for it in items],
    }


def usage(params: Mapping[str, Any]) -> dict[str, Any]:
    """``usage`` of a succeeded task: output seconds plus reference video seconds are billed."""
    output = int(params["duration"])
    video = params.get("input_video_seconds") or 0
    video = int(video) if float(video).is_integer() else float(video)
    audio = params.get("input_audio_seconds") or 0
    audio = int(audio) if float(audio).is_integer() else float(audio)
    return {
        "total_seconds": output + video,
        "input_seconds": video,
        "output_seconds": output,
        "input_image_count": int(params.get("input_image_count") or 0),
        "input_audio_seconds": audio,
    }


# ---------------------------------------------------------------------------- list


@dataclass
class ListQuery:
    page_num: int
    page_size: int
    status: tuple[str, ...] = ()
    model: tuple[str, ...] = ()
    task_type: tuple[str, ...] = ()
    task_ids: tuple[str, ...] | None = None


def _values(raw: dict[str, list[str]], name: str) -> list[str]:
    """Every value given for ``filter.NAME``: repeated keys, ``filter[NAME]``, ``NAME[]``,
    comma-separated values and JSON arrays."""
    out: list[str] = []
    for key in (f"filter.{name}", f"filter.{name}[]", f"filter[{name}]", f"filter[{name}][]"):
        for value in raw.get(key, []):
            text = value.strip()
            if text.startswith("["):
                try:
                    parsed = json.loads(text)
                except json.JSONDecodeError:
                    raise bad(f"filter.{name} is not a valid JSON array") from None
                if not isinstance(parsed, list):
                    raise bad(f"filter.{name} must be an array")
                out.extend(str(v).strip() for v in parsed)
            else:
                out.extend(part.strip() for part in text.split(","))
    return [v for v in out if v]


def _page_int(raw: dict[str, list[str]], name: str, default: int, high: int | None) -> int:
    values = raw.get(name)
    if not values or values[-1].strip() == "":
        return default
    text = values[-1].strip()
    if not text.isdigit():
        raise bad(f"{name} must be a whole number")
    value = int(text)
    if value < 1 or (high is not None and value > high):
        raise bad(f"{name} must be within 1-{high}" if high else f"{name} must be at least 1")
    return value


def parse_list_query(query: str) -> ListQuery:
    raw = parse_qs(query, keep_blank_values=True)
    out = ListQuery(
        page_num=_page_int(raw, "page_num", 1, None),
        page_size=_page_int(raw, "page_size", PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX),
    )
    for name, known in (
        ("status", STATUS_WORDS),
        ("model", tuple(MODELS)),
        ("task_type", TASK_TYPES),
    ):
        values = _values(raw, name)
        for value in values:
            if value not in known:
                raise bad(f"filter.{name} {value!r} is not one of {', '.join(known)}")
        setattr(out, name, tuple(values))
    given = any(
        k in raw
        for k in ("filter.task_ids", "filter.task_ids[]", "filter[task_ids]", "filter[task_ids][]")
    )
    if given:
        out.task_ids = tuple(_values(raw, "task_ids"))
    return out
