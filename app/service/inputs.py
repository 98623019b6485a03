"""Inputs from the user's disk and from ``data:`` URLs: read, decoded and probed here, before
anything is stored or sent. The CLI and the GUI both read files through this module.

* V1 frames and subject images: a local PNG, JPEG or WebP file becomes a ``data:`` URL
  (:func:`image_option`, as Slate always did, so a scripted slot keeps its fingerprint); every
  data URL of a V1 request is decoded and checked (:func:`check_v1_images`: the image it claims
  to be, format, < 20 MB, short side > 300 px, aspect 2:5–5:2).
* V2 (MiniMax-H3) media: a local file or a data URL becomes :class:`MediaFacts` (by SHA-256; the
  path never enters the fingerprint) plus a :class:`LocalInput` that the create reads again
  (:func:`prepare_v2`). Images are probed with Pillow; HEIC/HEIF, which this Pillow cannot
  decode, are read from their ``ispe`` box (format and pixel size; the pixels are not decoded);
  video and audio with PyAV (container, codecs, length, frame rate).

The limits themselves are domain rules (:mod:`app.domain.params`, :mod:`app.domain.params_v2`);
this module only finds the facts. Every refusal is a :class:`ValidationError` naming its field.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import mimetypes
import os
import re
import stat
import struct
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterator, Mapping

from app.domain.errors import Rule, ValidationError
from app.domain.params import FRAME_IMAGE_FIELDS, check_frame
from app.domain.params_v2 import MEDIA_FIELDS, REFERENCE_FIELDS, MediaFacts

MAX_IMAGE_FILE_BYTES = 20 * 1024 * 1024
IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp")
#: Largest input read at all (the largest V2 input, a 50 MB video, with room to say how large).
MAX_READ_BYTES = 64 * 1024 * 1024
#: Pixels decoded to prove an image is whole; larger ones are refused by their size anyway.
DECODE_PIXELS_MAX = 5760 * 5760

_DATA_URL = re.compile(r"data:([A-Za-z]+)/([A-Za-z0-9.+-]+);base64,(.*)", re.DOTALL)
#: What a data URL's declared type may be, per kind, and the probed format it must hold.
DATA_URL_TYPES: dict[str, dict[str, tuple[str, ...]]] = {
    "image": {
        "png": ("png",),
        "jpeg": ("jpeg",),
        "jpg": ("jpeg",),
        "webp": ("webp",),
        "heic": ("heic", "heif"),
        "heif": ("heic", "heif"),
    },
    "video": {"mp4": ("mp4", "mov"), "quicktime": ("mov", "mp4")},
    "audio": {"mp3": ("mp3",), "wav": ("wav",)},
}
#: The data URL type a probed format travels as.
WIRE_TYPE = {
    "jpeg": "jpeg",
    "png": "png",
    "webp": "webp",
    "heic": "heic",
    "heif": "heif",
    "mp4": "mp4",
    "mov": "quicktime",
    "wav": "wav",
    "mp3": "mp3",
}
_HEIF_BRANDS = {
    b"heic",
    b"heix",
    b"heim",
    b"heis",
    b"hevc",
    b"hevx",
    b"hevm",
    b"hevs",
    b"mif1",
    b"msf1",
    b"heif",
}
_HEVC_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx"}
_NOT_HEIF = {b"qt  ", b"isom", b"mp42", b"mp41", b"M4V ", b"avif", b"avis"}


# -- V1: local image files as data URLs --------------------------------------------------------
def image_file_data_url(path: str | Path, field: str) -> str:
    """A local PNG, JPEG or WebP file (at most 20 MB) as ``data:image/...;base64,...``.

    The type comes from the file's name: the data URL — and with it the slot's fingerprint —
    stays what it always was for the same file (:func:`check_v1_images` then insists the
    content is that image). Raises :class:`ValidationError` naming ``field``.
    """
    p = Path(path).expanduser()
    if not p.is_file():
        raise ValidationError(
            field,
            f"{str(path)!r} is neither an https:// URL, a data: URL nor an image file",
            Rule.NO_FILE,
            name=p.name,
        )
    mime = mimetypes.guess_type(p.name)[0] or ""
    if mime not in IMAGE_TYPES:
        raise ValidationError(
            field,
            f"{p.name}: only PNG, JPEG or WebP images",
            Rule.FORMAT,
            name=p.name,
            format=p.suffix.lstrip(".").upper(),
            allowed="PNG, JPEG, WebP",
        )
    try:
        if p.stat().st_size > MAX_IMAGE_FILE_BYTES:
            raise ValidationError(
                field,
                f"{p.name} is larger than 20 MB",
                Rule.TOO_LARGE,
                name=p.name,
                size=f"{p.stat().st_size / 1048576:.1f}",
                limit=MAX_IMAGE_FILE_BYTES >> 20,
            )
        data = p.read_bytes()
    except OSError as exc:
        raise ValidationError(
            field, f"{p.name}: {exc.strerror or exc}", Rule.UNREADABLE, name=p.name, wanted="image"
        ) from None
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def image_option(value: str | None, field: str) -> str | None:
    """An image option as given: an ``https://`` (or ``http://``, refused later with its
    reason) or ``data:`` URL stays as it is; anything else is a local file to read."""
    if value is None or value == "":
        return None
    if value.startswith(("https://", "http://", "data:")):
        return value
    return image_file_data_url(value, field)


# -- text files (``--text-file``, ``--lyrics-file``) --------------------------------------------
#: The widest a character is in UTF-8: a file of N characters holds at most N × 4 bytes.
UTF8_MAX_BYTES_PER_CHAR = 4
_BOM = b"\xef\xbb\xbf"


def text_file_cap(max_chars: int) -> int:
    """The most bytes a text file of at most ``max_chars`` characters can hold: ``max_chars``
    × 4 (UTF-8's widest character) plus a byte-order mark's 3 bytes."""
    return max_chars * UTF8_MAX_BYTES_PER_CHAR + len(_BOM)


def read_text_file(path: str | Path, field: str, max_chars: int) -> str:
    """A text file's content exactly (UTF-8; a leading byte-order mark is not part of it), read
    as a reference file is: a regular file only, of at most :func:`text_file_cap` bytes. The
    file is opened without blocking (a FIFO never holds the command) and checked on the open
    descriptor (a device such as ``/dev/zero`` is refused before a byte is read); at most one
    byte past the cap is ever read, whatever the file claims. Raises :class:`ValidationError`
    naming ``field``."""
    shown = str(path)
    p = Path(path).expanduser()
    cap = text_file_cap(max_chars)
    limit = (
        f"{cap:,} bytes ({max_chars:,} characters × {UTF8_MAX_BYTES_PER_CHAR} bytes, "
        "UTF-8's widest)"
    )
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise ValidationError(
            field, f"cannot read {shown}: {exc.strerror or exc}", Rule.NO_FILE, name=p.name
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValidationError(
                field,
                f"{shown} is not a regular file; give a text file",
                Rule.NO_FILE,
                name=p.name,
            )
        if info.st_size > cap:
            raise ValidationError(
                field,
                f"{shown} is {info.st_size:,} bytes; a {field} file may be at most {limit}",
            )
        chunks: list[bytes] = []
        got = 0
        while got <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise ValidationError(
            field, f"cannot read {shown}: {exc.strerror or exc}", Rule.UNREADABLE, name=p.name
        ) from None
    finally:
        os.close(fd)
    if got > cap:  # grew after the check
        raise ValidationError(field, f"{shown} holds more than {limit}")
    try:
        return b"".join(chunks).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(field, f"{shown} is not UTF-8 text") from None


# -- probing ------------------------------------------------------------------------------------
def _heif(data: bytes, name: str) -> MediaFacts | None:
    """A HEIC/HEIF image's format and size from its ``ftyp`` brands and ``ispe`` box."""
    if len(data) < 16 or data[4:8] != b"ftyp" or data[8:12] in _NOT_HEIF:
        return None
    size = struct.unpack(">I", data[:4])[0]
    brands = {data[8:12]} | {data[i : i + 4] for i in range(16, min(size, len(data)), 4)}
    if not brands & _HEIF_BRANDS:
        return None
    fmt = "heic" if brands & _HEVC_BRANDS else "heif"
    at = data.find(b"ispe", 0, 1 << 20)
    if at < 0 or at + 16 > len(data):
        raise ValueError(f"the {fmt.upper()} image has no size (ispe) box")
    width, height = struct.unpack(">II", data[at + 8 : at + 16])
    if not width or not height:
        raise ValueError(f"the {fmt.upper()} image declares a zero size")
    return MediaFacts("image", _sha(data), len(data), fmt, name, width, height)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def probe_image(data: bytes, name: str) -> MediaFacts | None:
    """An image's format and pixel size (None when the bytes are no image at all). JPEG, PNG
    and WebP within :data:`DECODE_PIXELS_MAX` are decoded in full: a damaged file raises."""
    heif = _heif(data, name)
    if heif is not None:
        return heif
    from PIL import Image, UnidentifiedImageError

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
        except UnidentifiedImageError:
            return None
        except Image.DecompressionBombError:
            raise ValueError("the image has more pixels than any input may have") from None
        except Exception as exc:  # noqa: BLE001 - any reader failure means "not readable"
            raise ValueError(f"the image cannot be read ({type(exc).__name__})") from None
        fmt = (image.format or "").lower()
        if fmt == "mpo":  # a camera JPEG with several pictures is still a JPEG
            fmt = "jpeg"
        width, height = image.size
        if fmt in ("jpeg", "png", "webp") and width * height <= DECODE_PIXELS_MAX:
            try:
                image.load()
            except Exception as exc:  # noqa: BLE001
                raise ValueError(
                    f"the {fmt.upper()} image is damaged ({type(exc).__name__})"
                ) from None
    return MediaFacts("image", _sha(data), len(data), fmt, name, width, height)


def probe_av(data: bytes, name: str) -> MediaFacts:
    """A video or audio file's container, codecs, length and frame rate (PyAV)."""
    import av

    try:
        container = av.open(io.BytesIO(data), "r")
    except Exception as exc:  # noqa: BLE001 - FFmpeg raises many kinds
        raise ValueError(f"not a readable video or audio file ({type(exc).__name__})") from None
    try:
        names = set(container.format.name.split(","))
        video = container.streams.video[0] if container.streams.video else None
        audio = container.streams.audio[0] if container.streams.audio else None
        seconds = _seconds(container, video or audio)
        if video is not None:
            fmt = (
                ("mov" if data[8:12] == b"qt  " else "mp4")
                if names & {"mp4", "mov"}
                else container.format.name.split(",")[0]
            )
            rate = video.average_rate or video.guessed_rate
            return MediaFacts(
                "video",
                _sha(data),
                len(data),
                fmt,
                name,
                video.codec_context.width,
                video.codec_context.height,
                seconds,
                float(rate) if rate else None,
                video.codec_context.name,
                audio.codec_context.name if audio is not None else None,
            )
        if audio is not None:
            fmt = (
                "wav"
                if "wav" in names
                else "mp3"
                if "mp3" in names
                else container.format.name.split(",")[0]
            )
            if fmt == "mp3":  # FFmpeg's MP3 probe accepts noise: insist on a decodable frame
                try:
                    next(iter(container.decode(audio)))
                except Exception:  # noqa: BLE001
                    raise ValueError("not a readable MP3 file") from None
            return MediaFacts(
                "audio",
                _sha(data),
                len(data),
                fmt,
                name,
                seconds=seconds,
                audio_codec=audio.codec_context.name,
            )
        raise ValueError("the file has neither a video nor an audio stream")
    finally:
        container.close()


def _seconds(container: Any, stream: Any) -> float | None:
    if container.duration:
        return float(container.duration / 1_000_000)
    if stream is not None and stream.duration and stream.time_base:
        return float(stream.duration * stream.time_base)
    return None


KIND_WORDS = {
    "image": "image (JPG, PNG, WebP, HEIC/HEIF)",
    "video": "video (MP4, MOV)",
    "audio": "audio clip (WAV, MP3)",
}


def probe(data: bytes, kind: str, name: str, field: str) -> MediaFacts:
    """The facts of ``data`` as an input of ``kind``; ValidationError naming ``field``."""
    shown = "" if name.startswith("the data:") else name  # a data URL has no name of its own
    try:
        if kind == "image":
            facts = probe_image(data, name)
        else:
            if probe_image(data, name) is not None:
                raise ValueError(f"it is an image, not a {kind}")
            facts = probe_av(data, name)
    except ValueError as exc:
        raise ValidationError(
            field, f"{name}: {exc}", Rule.UNREADABLE, name=shown, wanted=kind
        ) from None
    if facts is None:
        raise ValidationError(
            field,
            f"{name} is not a readable {KIND_WORDS[kind]}",
            Rule.UNREADABLE,
            name=shown,
            wanted=kind,
        )
    if facts.kind != kind:
        raise ValidationError(
            field,
            f"{name} is {facts.kind}, not {KIND_WORDS[kind]}",
            Rule.WRONG_KIND,
            name=shown,
            kind=facts.kind,
            wanted=kind,
        )
    return facts


# -- local content ------------------------------------------------------------------------------
class InputChanged(Exception):
    """A file changed between the check and the create: the create is not sent."""


@dataclass(frozen=True)
class LocalInput:
    """One piece of checked local content: its facts, and where its bytes are (a file that is
    read again and compared by SHA-256 before it is sent, or the bytes of a data URL; neither
    for a pruned reference known by its facts only, which can never be sent)."""

    facts: MediaFacts
    path: Path | None = None
    data: bytes | None = None

    def read(self) -> bytes:
        if self.data is not None:
            return self.data
        if self.path is None:  # only facts are known (a pruned reference replayed)
            raise InputChanged(f"{self.facts.name or 'the input'} is no longer on this machine")
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise InputChanged(
                f"{self.path.name} can no longer be read: {exc.strerror or exc}"
            ) from None
        if _sha(data) != self.facts.sha256:
            raise InputChanged(f"{self.path.name} changed after it was checked")
        return data

    def data_url(self) -> str:
        kind, fmt = self.facts.kind, WIRE_TYPE.get(self.facts.format, self.facts.format)
        return f"data:{kind}/{fmt};base64,{base64.b64encode(self.read()).decode('ascii')}"

    @property
    def filename(self) -> str:
        if self.path is not None:
            return self.path.name
        return f"input.{self.facts.format}"


def decode_data_url(url: str, kind: str, field: str) -> tuple[str, bytes]:
    """(declared subtype, bytes) of a ``data:<kind>/<type>;base64,…`` URL."""
    match = _DATA_URL.fullmatch(url)
    if match is None:
        raise ValidationError(
            field,
            f"a data URL must be data:{kind}/<type>;base64,<data>",
            Rule.UNREADABLE,
            wanted=kind,
        )
    family, subtype = match.group(1), match.group(2)
    if family.lower() != kind:
        raise ValidationError(
            field,
            f"expects data:{kind}/..., not data:{family}/...",
            Rule.WRONG_KIND,
            kind=family.lower(),
            wanted=kind,
        )
    known = DATA_URL_TYPES[kind]
    if f"{family}/{subtype}" != f"{family}/{subtype}".lower():
        raise ValidationError(
            field,
            f"the data URL's type must be lowercase ({kind}/{subtype.lower()})",
            Rule.UNREADABLE,
            wanted=kind,
        )
    if subtype not in known:
        raise ValidationError(
            field,
            f"data:{kind}/{subtype} is not accepted; use {', '.join(known)}",
            Rule.FORMAT,
            format=subtype.upper(),
            allowed=", ".join(known).upper(),
        )
    payload = re.sub(r"\s+", "", match.group(3))
    if len(payload) * 3 // 4 > MAX_READ_BYTES:
        raise ValidationError(
            field,
            f"the data URL holds more than {MAX_READ_BYTES >> 20} MB",
            Rule.TOO_LARGE,
            size=f"{len(payload) * 3 / 4 / 1048576:.1f}",
            limit=MAX_READ_BYTES >> 20,
        )
    try:
        return subtype, base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError(
            field, "the data URL is not valid base64", Rule.UNREADABLE, wanted=kind
        ) from None


def from_data_url(url: str, kind: str, field: str) -> LocalInput:
    """Decode a data URL and prove it holds the media it declares."""
    subtype, data = decode_data_url(url, kind, field)
    if not data:
        raise ValidationError(field, "the data URL is empty", Rule.UNREADABLE, wanted=kind)
    facts = probe(data, kind, f"the data:{kind}/{subtype} URL", field)
    if facts.format not in DATA_URL_TYPES[kind][subtype]:
        raise ValidationError(
            field, f"the data URL says {kind}/{subtype} but holds {facts.format.upper()} data"
        )
    return LocalInput(facts, data=data)


def from_file(value: str, kind: str, field: str) -> LocalInput:
    """Read and probe a local file."""
    path = Path(value).expanduser()
    if not path.is_file():
        raise ValidationError(
            field,
            f"{value!r} is neither an https:// URL, mm_file://ID, a data: URL nor a file",
            Rule.NO_FILE,
            name=path.name,
        )
    try:
        if path.stat().st_size > MAX_READ_BYTES:
            raise ValidationError(
                field,
                f"{path.name} is larger than {MAX_READ_BYTES >> 20} MB",
                Rule.TOO_LARGE,
                name=path.name,
                size=f"{path.stat().st_size / 1048576:.1f}",
                limit=MAX_READ_BYTES >> 20,
            )
        data = path.read_bytes()
    except OSError as exc:
        raise ValidationError(
            field,
            f"{path.name}: {exc.strerror or exc}",
            Rule.UNREADABLE,
            name=path.name,
            wanted=kind,
        ) from None
    if not data:
        raise ValidationError(
            field, f"{path.name} is empty", Rule.UNREADABLE, name=path.name, wanted=kind
        )
    return LocalInput(probe(data, kind, path.name, field), path=path.resolve())


def _is_remote(value: str) -> bool:
    return value.startswith(("https://", "http://", "mm_file://"))


def prepare_v2(raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, LocalInput]]:
    """Replace each local file and data URL among the V2 media fields by its
    :class:`MediaFacts`; return the new raw parameters and the local content by SHA-256."""
    out = dict(raw)
    local: dict[str, LocalInput] = {}
    for field, (item_type, _role) in MEDIA_FIELDS.items():
        value = raw.get(field)
        if value is None or value == "" or value == []:
            continue
        many = isinstance(value, (list, tuple))
        values = list(value) if many else [value]
        kind = item_type.split("_")[0]
        new: list[Any] = []
        for v in values:
            if isinstance(v, str) and v and not _is_remote(v):
                got = (
                    from_data_url(v, kind, field)
                    if v.startswith("data:")
                    else from_file(v, kind, field)
                )
                local.setdefault(got.facts.sha256, got)
                v = got.facts
            new.append(v)
        out[field] = new if (many or field in REFERENCE_FIELDS) else new[0]
    return out, local


# -- V1: data URLs are the images they claim ----------------------------------------------------
def _data_urls(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if value.startswith("data:"):
            yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _data_urls(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _data_urls(v)


def check_v1_images(kind: str, raw: Mapping[str, Any]) -> None:
    """Decode every data URL of a V1 request's frames and subject references and check it
    (MINIMAX_API.md: frames JPG/PNG/WebP < 20 MB, short side > 300 px, aspect 2:5–5:2;
    image-01's subject JPG/PNG ≤ 10 MB). Malformed data URLs are left to the parameter rules,
    which name what is wrong."""
    for field in FRAME_IMAGE_FIELDS:
        for url in _data_urls(raw.get(field)):
            match = _DATA_URL.fullmatch(url)
            if match is None or match.group(2) not in DATA_URL_TYPES["image"]:
                continue
            got = from_data_url(url, "image", field)
            facts = replace(got.facts, name="the image")
            check_frame(facts, field, image_subject=(kind == "image"))
