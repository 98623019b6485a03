"""Generation parameters, validated before any request and normalized for the fingerprint.

``normalize(kind, raw)`` applies defaults and checks every rule in DESIGN.md ("Parameters"),
raising :class:`ValidationError` naming the field. Which protocol a video speaks follows from
its model (:mod:`app.domain.protocols`): MiniMax-H3 and H3-Max go to
:mod:`app.domain.params_v2`, every other model and images follow the V1 rules here.

The V1 normalized dict holds every field the kind knew when Slate first shipped (unset
optionals as ``None``), so omitting a default equals stating it. Fields added since
(``fast_pretreatment``, image ``width``/``height``) enter it only when stated — their absence is
their default — so the fingerprint of a slot made before they existed never changes.
``request_body(kind, params)`` turns normalized V1 params into the MiniMax JSON body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping
from urllib.parse import urlsplit

from app.domain import derived, enhance, params_h3image, params_sound, params_v2, params_voice
from app.domain.errors import Rule, ValidationError
from app.domain.params_v2 import MediaFacts
from app.domain.protocols import V2, protocol_for
from app.domain.slots import Kind, unknown_kind

VIDEO_PROMPT_MAX = 2000
IMAGE_PROMPT_MAX = 1500
DEFAULT_VIDEO_MODEL = "MiniMax-Hailuo-2.3"
DEFAULT_IMAGE_MODEL = "image-01"
DEFAULT_SECONDS = 6  # a legacy (V1) video's duration when none is given
DEFAULT_ASPECT_RATIO = "1:1"  # an image's when neither a ratio nor a size is given
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
    last_frame_resolutions: tuple[str, ...] = ()  # with a last frame (first+last), only these
    needs_subject: bool = False
    allows_first_frame: bool = True
    fast_pretreatment: bool = False  # shortens prompt optimization (Hailuo-2.3, 2.3-Fast, 02)
    sends_duration: bool = True  # S2V-01 has no duration or resolution fields


VIDEO_MODELS: dict[str, VideoModelRule] = {
    "MiniMax-Hailuo-2.3": VideoModelRule(
        resolutions={6: ("768P", "1080P"), 10: ("768P",)},
        default_resolution={6: "1080P", 10: "768P"},
        fast_pretreatment=True,
    ),
    "MiniMax-Hailuo-2.3-Fast": VideoModelRule(
        resolutions={6: ("768P", "1080P"), 10: ("768P",)},
        default_resolution={6: "1080P", 10: "768P"},
        needs_first_frame=True,
        fast_pretreatment=True,
    ),
    "MiniMax-Hailuo-02": VideoModelRule(
        resolutions={6: ("512P", "768P", "1080P"), 10: ("512P", "768P")},
        default_resolution={6: "768P", 10: "768P"},
        first_frame_only_resolutions=("512P",),
        allows_last_frame=True,
        last_frame_resolutions=("768P", "1080P"),
        fast_pretreatment=True,
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
        resolutions={6: ("720P",)},
        default_resolution={6: "720P"},
        needs_subject=True,
        allows_first_frame=False,
        sends_duration=False,
    ),
}

VIDEO_FIELDS = (
    "model",
    "prompt",
    "duration",
    "resolution",
    "prompt_optimizer",
    "first_frame_image",
    "last_frame_image",
    "subject_reference",
    "fast_pretreatment",
)
IMAGE_FIELDS = (
    "model",
    "prompt",
    "aspect_ratio",
    "n",
    "seed",
    "response_format",
    "prompt_optimizer",
    "subject_reference",
    "width",
    "height",
)
#: image-01's explicit pixel size (``width`` and ``height`` together).
IMAGE_SIDE_MIN, IMAGE_SIDE_MAX, IMAGE_SIDE_STEP = 512, 2048, 8

#: V1 frames and subject images (first/last frame, S2V-01's face): MINIMAX_API.md "Frames".
FRAME_FORMATS = ("jpeg", "png", "webp")
FRAME_MAX_BYTES = 20 * 1024 * 1024  # less than 20 MB
FRAME_SHORT_SIDE_MIN = 300  # more than 300 px
FRAME_ASPECT_MIN, FRAME_ASPECT_MAX = 2 / 5, 5 / 2
#: image-01's subject reference: JPG/PNG up to 10 MB.
IMAGE_SUBJECT_FORMATS = ("jpeg", "png")
IMAGE_SUBJECT_MAX_BYTES = 10 * 1024 * 1024
_DATA_URL = re.compile(r"data:image/(png|jpeg|jpg|webp);base64,[A-Za-z0-9+/=\s]+", re.S)


def _frame(value: object, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValidationError(
            field, "must be an https:// URL or a data:image/...;base64 URL", Rule.SOURCE
        )
    if value.startswith("https://") and len(value) > len("https://"):
        if any(c.isspace() for c in value):
            raise ValidationError(field, "a URL must not contain spaces", Rule.SOURCE)
        try:
            host = urlsplit(value).hostname
        except ValueError:
            raise ValidationError(field, "is not a valid URL", Rule.SOURCE) from None
        if not host:
            raise ValidationError(field, "the URL has no host (https://HOST/...)", Rule.SOURCE)
        return value
    if value.startswith("data:"):
        if not _DATA_URL.fullmatch(value):
            raise ValidationError(
                field,
                "a data URL must be data:image/png|jpeg|webp;base64,<base64 data>",
                Rule.SOURCE,
            )
        return value
    if value.startswith("http://"):
        raise ValidationError(
            field, "plain http:// is not accepted; use https:// or a data URL", Rule.PLAIN_HTTP
        )
    raise ValidationError(
        field, "must be an https:// URL or a data:image/...;base64 URL", Rule.SOURCE
    )


def check_frame(facts: MediaFacts, field: str, *, image_subject: bool = False) -> None:
    """A V1 frame or subject image read from a data URL or a local file: format, bytes, short
    side and aspect (image-01's subject reference: JPG/PNG up to 10 MB)."""
    what = facts.name or "the image"
    formats = IMAGE_SUBJECT_FORMATS if image_subject else FRAME_FORMATS
    if facts.kind != "image" or facts.format not in formats:
        names = " or ".join(f.upper() for f in formats)
        raise ValidationError(
            field,
            f"{what}: {facts.format.upper() or 'this'} is not accepted here; use {names}",
            Rule.FORMAT,
            name=facts.name or "",
            format=facts.format.upper(),
            allowed=names,
        )
    if image_subject:
        if facts.bytes > IMAGE_SUBJECT_MAX_BYTES:
            raise ValidationError(
                field,
                f"{what} is {facts.bytes / 1048576:.1f} MB; a subject "
                "reference may be at most 10 MB",
                Rule.TOO_LARGE,
                name=facts.name or "",
                size=f"{facts.bytes / 1048576:.1f}",
                limit=IMAGE_SUBJECT_MAX_BYTES // 1048576,
            )
        return
    if facts.bytes >= FRAME_MAX_BYTES:
        raise ValidationError(
            field,
            f"{what} is {facts.bytes / 1048576:.1f} MB; frames must be smaller than 20 MB",
            Rule.TOO_LARGE,
            name=facts.name or "",
            size=f"{facts.bytes / 1048576:.1f}",
            limit=FRAME_MAX_BYTES // 1048576,
        )
    w, h = facts.width or 0, facts.height or 0
    if min(w, h) <= FRAME_SHORT_SIDE_MIN:
        raise ValidationError(
            field,
            f"{what} is {w}×{h} px; the short side must be more than {FRAME_SHORT_SIDE_MIN} px",
            Rule.SHORT_SIDE,
            name=facts.name or "",
            width=w,
            height=h,
            low=FRAME_SHORT_SIDE_MIN,
        )
    aspect = w / h
    if not FRAME_ASPECT_MIN - 1e-9 <= aspect <= FRAME_ASPECT_MAX + 1e-9:
        raise ValidationError(
            field,
            f"{what} has an aspect ratio (width/height) of "
            f"{aspect:.2f}; frames must be within 2:5 and 5:2",
            Rule.ASPECT,
            name=facts.name or "",
            aspect=f"{aspect:.2f}",
            low="2:5",
            high="5:2",
        )


#: The V1 fields that hold images, and whether they are image-01 subject references.
FRAME_IMAGE_FIELDS = ("first_frame_image", "last_frame_image", "subject_reference")


def _prompt(value: object, limit: int, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError("prompt", "must be text")
    if required and not value.strip():
        raise ValidationError("prompt", "is required", Rule.REQUIRED)
    if len(value) > limit:
        raise ValidationError(
            "prompt",
            f"is {len(value)} characters; the limit is {limit}",
            Rule.TOO_LONG,
            count=len(value),
            limit=limit,
        )
    return value


def _bool(value: object, field: str, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    raise ValidationError(field, "must be true or false")


def _int(value: object, field: str) -> int:
    if isinstance(value, bool):
        raise ValidationError(field, "must be a whole number", Rule.WHOLE_NUMBER)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.strip()):
        return int(value.strip())
    raise ValidationError(field, "must be a whole number", Rule.WHOLE_NUMBER)


def _unknown_fields(raw: Mapping[str, Any], known: tuple[str, ...]) -> None:
    for name in raw:
        if name not in known:
            raise ValidationError(
                name, f"is not a parameter of this kind; known: {', '.join(known)}"
            )


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
    if derived.is_regeneration(raw):
        return derived.normalize_regeneration(raw)
    if protocol_for("video", raw.get("model")) == V2:
        return params_v2.normalize(raw)
    _unknown_fields(raw, VIDEO_FIELDS)
    model = raw.get("model") or DEFAULT_VIDEO_MODEL
    if model not in VIDEO_MODELS:
        raise ValidationError(
            "model", f"{model!r} is not a video model; known: {', '.join(VIDEO_MODELS)}"
        )
    rule = VIDEO_MODELS[model]
    duration = DEFAULT_SECONDS if raw.get("duration") is None else _int(raw["duration"], "duration")
    if duration not in rule.resolutions:
        allowed = " or ".join(f"{d} s" for d in rule.resolutions)
        raise ValidationError(
            "duration",
            f"{duration} s is not offered by {model}; use {allowed}",
            Rule.NOT_OFFERED,
            value=f"{duration} s",
            model=model,
            instead=" / ".join(f"{d} s" for d in rule.resolutions),
        )
    first = raw.get("first_frame_image") or None
    last = raw.get("last_frame_image") or None
    if first is not None:
        if not rule.allows_first_frame:
            raise ValidationError(
                "first_frame_image",
                f"{model} does not take a first frame",
                Rule.NOT_TAKEN,
                model=model,
            )
        first = _frame(first, "first_frame_image")
    elif rule.needs_first_frame:
        raise ValidationError(
            "first_frame_image", f"{model} requires a first frame image", Rule.REQUIRED, model=model
        )
    if last is not None:
        if not rule.allows_last_frame:
            raise ValidationError(
                "last_frame_image",
                f"{model} does not take a last frame",
                Rule.NOT_TAKEN,
                model=model,
            )
        if first is None:
            raise ValidationError(
                "last_frame_image", "a last frame needs a first frame too", Rule.NEEDS_FIRST_FRAME
            )
        last = _frame(last, "last_frame_image")
    fast = _bool(raw.get("fast_pretreatment"), "fast_pretreatment", False)
    if fast and not rule.fast_pretreatment:
        raise ValidationError(
            "fast_pretreatment",
            f"has an effect on MiniMax-Hailuo-2.3, 2.3-Fast and 02 only, not {model}",
            Rule.NOT_TAKEN,
            model=model,
        )
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
                "resolution",
                "10 s at 1080P is not offered; use 768P for 10 s, or 6 s for 1080P",
                Rule.NOT_OFFERED,
                value=f"{resolution} · {duration} s",
                model=model,
                instead="768P · 10 s / 1080P · 6 s",
            )
        raise ValidationError(
            "resolution",
            f"{resolution} is not offered by {model} at {duration} s; "
            f"use {' or '.join(allowed_res)}",
            Rule.NOT_OFFERED,
            value=f"{resolution} · {duration} s",
            model=model,
            instead=" / ".join(allowed_res),
        )
    if resolution in rule.first_frame_only_resolutions and first is None:
        raise ValidationError(
            "resolution",
            f"{resolution} needs a first frame image with {model}",
            Rule.NEEDS_FIRST_FRAME,
            value=resolution,
            model=model,
            instead=" / ".join(rule.last_frame_resolutions),
        )
    if last is not None and resolution not in rule.last_frame_resolutions:
        raise ValidationError(
            "resolution",
            f"{model} with first and last frame makes "
            f"{' or '.join(rule.last_frame_resolutions)}, not {resolution}",
            Rule.NOT_OFFERED,
            value=resolution,
            model=model,
            instead=" / ".join(rule.last_frame_resolutions),
        )
    subject = _subject_reference(raw.get("subject_reference"), "video")
    if subject is not None and not rule.needs_subject:
        raise ValidationError(
            "subject_reference",
            f"{model} does not take a subject reference",
            Rule.NOT_TAKEN,
            model=model,
        )
    if subject is None and rule.needs_subject:
        raise ValidationError(
            "subject_reference", f"{model} requires a subject reference", Rule.REQUIRED, model=model
        )
    prompt = _prompt(raw.get("prompt"), VIDEO_PROMPT_MAX, required=first is None)
    out: dict[str, Any] = {
        "model": model,
        "prompt": prompt,
        "duration": duration,
        "resolution": resolution,
        "prompt_optimizer": _bool(raw.get("prompt_optimizer"), "prompt_optimizer", True),
        "first_frame_image": first,
        "last_frame_image": last,
        "subject_reference": subject,
    }
    if fast:
        out["fast_pretreatment"] = True
    return out


def normalize_image(raw: Mapping[str, Any]) -> dict[str, Any]:
    if params_h3image.is_h3_image(raw.get("model")):
        return params_h3image.normalize(raw)
    _unknown_fields(raw, IMAGE_FIELDS)
    model = raw.get("model") or DEFAULT_IMAGE_MODEL
    if model not in IMAGE_MODELS:
        raise ValidationError(
            "model",
            f"{model!r} is not an image model; known: "
            f"{', '.join((*IMAGE_MODELS, *params_h3image.MODELS))}",
        )
    size = _image_size(raw, model)
    ratio = raw.get("aspect_ratio") or (None if size else DEFAULT_ASPECT_RATIO)
    if size and ratio is not None:
        raise ValidationError(
            "aspect_ratio",
            "give aspect_ratio or width and height, not both "
            "(MiniMax would ignore width and height)",
        )
    if ratio is not None and ratio not in ASPECT_RATIOS:
        raise ValidationError(
            "aspect_ratio",
            f"{ratio!r} is not offered; use one of {' '.join(ASPECT_RATIOS)}",
            Rule.NOT_OFFERED,
            value=ratio,
            model=model,
        )
    if ratio == "21:9" and model == "image-01-live":
        raise ValidationError(
            "aspect_ratio",
            "21:9 is offered by image-01 only",
            Rule.NOT_OFFERED,
            value="21:9",
            model=model,
        )
    n = 1 if raw.get("n") is None else _int(raw["n"], "n")
    if not 1 <= n <= 9:
        raise ValidationError(
            "n", f"is {n}; ask for 1 to 9 images", Rule.OUT_OF_RANGE, low=1, high=9
        )
    seed = None if raw.get("seed") is None else _int(raw["seed"], "seed")
    if seed is not None and not 0 <= seed <= SEED_MAX:
        raise ValidationError(
            "seed", f"must be between 0 and {SEED_MAX}", Rule.OUT_OF_RANGE, low=0, high=SEED_MAX
        )
    fmt = raw.get("response_format") or "url"
    if fmt not in ("url", "base64"):
        raise ValidationError("response_format", "must be url or base64")
    out: dict[str, Any] = {
        "model": model,
        "prompt": _prompt(raw.get("prompt"), IMAGE_PROMPT_MAX, required=True),
        "aspect_ratio": ratio,
        "n": n,
        "seed": seed,
        "response_format": fmt,
        "prompt_optimizer": _bool(raw.get("prompt_optimizer"), "prompt_optimizer", False),
        "subject_reference": _subject_reference(raw.get("subject_reference"), "image"),
    }
    if size:
        out["width"], out["height"] = size
    return out


def _image_size(raw: Mapping[str, Any], model: str) -> tuple[int, int] | None:
    """image-01's ``width`` and ``height``: both or neither, 512–2048 px, multiples of 8."""
    w, h = raw.get("width"), raw.get("height")
    if w in (None, "") and h in (None, ""):
        return None
    if w in (None, "") or h in (None, ""):
        missing = "height" if h in (None, "") else "width"
        raise ValidationError(missing, "width and height go together")
    if model != "image-01":
        raise ValidationError(
            "width", f"width and height are offered by image-01 only, not {model}"
        )
    size = []
    for name, value in (("width", w), ("height", h)):
        px = _int(value, name)
        if not IMAGE_SIDE_MIN <= px <= IMAGE_SIDE_MAX or px % IMAGE_SIDE_STEP:
            raise ValidationError(
                name,
                f"is {px}; use {IMAGE_SIDE_MIN}–{IMAGE_SIDE_MAX} px in steps of {IMAGE_SIDE_STEP}",
            )
        size.append(px)
    return size[0], size[1]


#: What no text parameter may hold, on any store: NUL (PostgreSQL's text and JSON cannot hold
#: it — it was stored as U+FFFD and the create, built from the stored parameters, sent MiniMax
#: other text than was fingerprinted) and lone surrogates (no UTF-8 form at all; they arrive as
#: undecodable bytes of a command line).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _unstorable(value: object) -> str | None:
    if isinstance(value, str):
        found = _UNSTORABLE.search(value)
        return found.group() if found else None
    if isinstance(value, Mapping):
        items: Iterable[object] = (*value.keys(), *value.values())
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return None
    return next((c for c in map(_unstorable, items) if c is not None), None)


def check_storable_text(raw: Mapping[str, Any]) -> None:
    """Refuse, naming the field, any text parameter (prompt, text, lyrics, a voice, a URL …)
    holding a character a store cannot keep exactly: every store then keeps, fingerprints and
    sends the same text, SQLite and PostgreSQL alike."""
    for name, value in raw.items():
        bad = _unstorable(value)
        if bad is not None:
            what = "a NUL character" if bad == "\x00" else f"the lone surrogate U+{ord(bad):04X}"
            raise ValidationError(
                str(name), f"holds {what}, which no text sent or stored may hold; remove it"
            )


def normalize(kind: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate and apply defaults. Raises ValidationError naming the field."""
    check_storable_text(raw)
    if kind == "video":
        return normalize_video(raw)
    if kind == "image":
        return normalize_image(raw)
    if kind == enhance.KIND:
        return enhance.normalize(raw)
    if params_sound.is_sound(kind):
        return params_sound.normalize(kind, raw)
    if kind == params_voice.VOICE:
        return params_voice.normalize(raw)
    raise unknown_kind(kind)


def request_body(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The MiniMax V1 JSON body for normalized V1 params (unset optionals left out; S2V-01 has
    no duration or resolution fields). V2 bodies: :func:`app.domain.params_v2.request_body`;
    MiniMax-H3-Image: :func:`app.domain.params_h3image.request_body`."""
    body = {k: v for k, v in params.items() if v is not None}
    if kind == "video":
        rule = VIDEO_MODELS.get(str(params.get("model")))
        if rule is not None and not rule.sends_duration:
            body.pop("duration", None)
            body.pop("resolution", None)
    return body


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
