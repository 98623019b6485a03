"""Verified media: download, check, and store content-addressed under tenant and slot.

Nothing is called a success here unless: HTTP 200, the declared size arrived in full, the
bytes carry a real PNG/JPEG/WebP/MP4 signature and decode, and a video is what
:class:`VideoCheck` asks — the width and height the provider reported (V1), or, where the
provider reports only "768P"/"2K" (V2), the size as asked (short side and aspect), the length and
the stereo track MiniMax-H3 makes. :func:`verify_video` is the one function that checks a
video. Files are named by their SHA-256; a provider-chosen name never becomes a path.
"""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.domain import params_h3image as h3image
from app.domain.errors import ValidationError
from app.files import private_dir
from app.providers.base import Provider, ProviderError, download_status_error

SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png", ".png"),
    (b"\xff\xd8\xff", "image/jpeg", ".jpg"),
)
MAX_IMAGE_BYTES = 64 * 1024 * 1024
MAX_VIDEO_BYTES = 2 * 1024 * 1024 * 1024
#: How far a video may stray from what was asked: the long side is rounded by the provider,
#: and the container's length includes the audio encoder's padding.
ASPECT_TOLERANCE = 0.02
SECONDS_TOLERANCE = 0.5
#: How far from the middle, and from the end, a decoded frame may be (beyond two frames' time).
FRAME_SLACK_SECONDS = 0.5


class VerificationFailed(Exception):
    """The download is not acceptable media; ``reason`` says why in plain words."""

    def __init__(self, reason: str, *, retryable: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable


@dataclass
class VerifiedMedia:
    path: Path
    sha256: str
    bytes: int
    content_type: str
    width: int | None
    height: int | None
    duration: float | None

    def row(self, data_dir: Path) -> dict[str, Any]:
        return {
            "path": str(self.path.relative_to(data_dir))
            if self.path.is_relative_to(data_dir)
            else str(self.path),
            "sha256": self.sha256,
            "bytes": self.bytes,
            "content_type": self.content_type,
            "width": self.width,
            "height": self.height,
            "duration": self.duration,
        }


def sniff(head: bytes) -> tuple[str, str] | None:
    """(content type, extension) from the first bytes, or None."""
    for sig, ctype, ext in SIGNATURES:
        if head.startswith(sig):
            return ctype, ext
    if len(head) >= 12 and head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp", ".webp"
    if len(head) >= 12 and head[4:8] == b"ftyp":
        return "video/mp4", ".mp4"
    return None


#: The most pixels an image may have before it is decoded when the request names no larger
#: size (image-01 makes at most 2048×2048; a decompression bomb of a few hundred kB can claim
#: 13300×13300 and take gigabytes).
MAX_IMAGE_PIXELS = 4096 * 4096
#: How far past the pixels asked an image of MiniMax-H3-Image may be (the provider rounds the
#: sides; 4K at 21:9 is 6256×2688 in the demo, 0.2 % over 4096², and gateways call 4K "up to
#: 20 MP") before it is taken for a bomb.
PIXEL_MARGIN = 1.5


@dataclass(frozen=True)
class ImageCheck:
    """What a generated image must be: ``size`` exactly (width and height were asked), else
    the ``aspect`` asked (``ratio`` names it, e.g. "16:9"); and at most ``max_pixels`` by its
    header before it is decoded (the largest the request may yield, with a margin)."""

    size: tuple[int, int] | None = None
    aspect: float | None = None
    ratio: str | None = None
    max_pixels: int = MAX_IMAGE_PIXELS

    @classmethod
    def of(cls, params: dict[str, Any]) -> "ImageCheck | None":
        """The check for an image slot's normalized parameters."""
        check = cls._shape(params)
        if not h3image.is_h3_image(params.get("model")):
            return check
        try:
            asked = h3image.largest_output(params)
        except ValidationError:
            asked = None
        if asked is None:
            return check
        return replace(check or cls(), max_pixels=math.ceil(asked * PIXEL_MARGIN))

    @classmethod
    def _shape(cls, params: dict[str, Any]) -> "ImageCheck | None":
        w, h, ratio = params.get("width"), params.get("height"), params.get("aspect_ratio")
        size = params.get("size")  # MiniMax-H3-Image's WxH
        if isinstance(size, str) and "x" in size:
            a, b = size.split("x", 1)
            if a.isdigit() and b.isdigit():
                w, h = int(a), int(b)
        if isinstance(ratio, str) and ":" in ratio:
            a, b = ratio.split(":", 1)
            if a.isdigit() and b.isdigit() and int(b):
                return cls(aspect=int(a) / int(b), ratio=ratio)
        if isinstance(w, int) and isinstance(h, int) and w > 0 and h > 0:
            return cls(size=(w, h))
        return None

    def hold(self, width: int, height: int) -> None:
        if self.size is not None and (width, height) != self.size:
            raise VerificationFailed(
                f"image is {width}×{height}; {self.size[0]}×{self.size[1]} was asked"
            )
        if self.aspect is not None and (
            abs(width / height - self.aspect) > ASPECT_TOLERANCE * self.aspect
        ):
            raise VerificationFailed(
                f"image is {width}×{height}; the aspect ratio asked is {self.ratio}"
            )


def probe_image(path: Path, check: ImageCheck | None = None) -> tuple[int, int]:
    """Width and height of the image at ``path``, after checking them from its header (pixel
    cap — ``check``'s, else :data:`MAX_IMAGE_PIXELS` —, ``check``) and only then decoding it
    whole."""
    from PIL import Image

    cap = MAX_IMAGE_PIXELS if check is None else check.max_pixels
    try:
        with Image.open(path) as img:
            width, height = img.size
            if width <= 0 or height <= 0:
                raise VerificationFailed(f"image claims {width}×{height} pixels")
            if width * height > cap:
                raise VerificationFailed(
                    f"image claims {width}×{height} pixels, more than the {cap} "
                    "an image of this request may have; not decoded"
                )
            if check is not None:
                check.hold(width, height)
            img.load()
            return img.size
    except VerificationFailed:
        raise
    except Exception as exc:  # noqa: BLE001 - any decoder error means "not a real image"
        raise VerificationFailed(f"image does not decode: {type(exc).__name__}: {exc}") from None


@dataclass(frozen=True)
class VideoCheck:
    """What a downloaded video must be. ``size``: exact pixels (V1 reports them); else
    ``short_side`` and, where the request fixes it, ``aspect`` (V2 reports only "768P"/"2K");
    ``seconds``: the length asked; ``audio_channels``: a sound track with at least this many
    channels (MiniMax-H3 makes stereo)."""

    size: tuple[int, int] | None = None
    short_side: int | None = None
    aspect: float | None = None
    seconds: float | None = None
    audio_channels: int | None = None


@dataclass(frozen=True)
class VideoFacts:
    width: int
    height: int
    duration: float | None
    audio_channels: int  # of the first sound track; 0 without one


def probe_video(path: Path) -> VideoFacts:
    import av

    try:
        with av.open(str(path)) as container:
            if not container.streams.video:
                raise VerificationFailed("the MP4 file has no video stream")
            stream = container.streams.video[0]
            width, height = stream.width, stream.height
            duration = None
            if container.duration is not None:
                duration = container.duration / 1_000_000
            elif stream.duration is not None and stream.time_base is not None:
                duration = float(stream.duration * stream.time_base)
            if not width or not height:
                raise VerificationFailed("the MP4 file's video stream has no dimensions")
            channels = 0
            if container.streams.audio:
                channels = int(container.streams.audio[0].codec_context.channels or 0)
            return VideoFacts(width, height, duration, channels)
    except VerificationFailed:
        raise
    except Exception as exc:  # noqa: BLE001 - any demuxer error means "not a real video"
        raise VerificationFailed(f"video does not decode: {type(exc).__name__}: {exc}") from None


def decode_frames(path: Path, duration: float | None) -> int:
    """Decode every frame of the video at ``path`` (the container alone says nothing of
    them): the first must decode, one in the middle and the last, through to the end the
    container claims. Returns how many frames decoded; VerificationFailed says what did not."""
    import av

    times: list[float] = []
    try:
        with av.open(str(path)) as container:
            stream = container.streams.video[0]
            stream.thread_type = "AUTO"
            for frame in container.decode(stream):
                if frame.time is not None:
                    times.append(float(frame.time))
    except Exception as exc:  # noqa: BLE001 - any decoder error: the frames do not decode
        said = f"after {len(times)} frame(s)" if times else "at the first frame"
        raise VerificationFailed(
            f"the video's frames do not decode ({said}: {type(exc).__name__}: {exc})"
        ) from None
    if not times:
        raise VerificationFailed("the video's frames do not decode: not one frame")
    if duration:
        step = duration / max(len(times), 1)
        slack = max(FRAME_SLACK_SECONDS, 2 * step)
        if not any(abs(t - duration / 2) <= slack for t in times):
            raise VerificationFailed(
                f"the video's frames do not decode in the middle (around {duration / 2:.2f} s)"
            )
        if max(times) < duration - slack - step:
            raise VerificationFailed(
                f"the video's frames do not decode to the end: the last "
                f"one at {max(times):.2f} s of {duration:.2f} s"
            )
    return len(times)


def verify_video(path: Path, check: VideoCheck | None) -> VideoFacts:
    """Probe the video at ``path``, decode its frames (:func:`decode_frames`) and hold it to
    ``check``; VerificationFailed says what differs."""
    got = probe_video(path)
    decode_frames(path, got.duration)
    if check is None:
        return got
    w, h = got.width, got.height
    if check.size is not None and (w, h) != tuple(check.size):
        raise VerificationFailed(
            f"video is {w}×{h}, the provider reported {check.size[0]}×{check.size[1]}"
        )
    if check.short_side is not None and min(w, h) != check.short_side:
        raise VerificationFailed(
            f"video is {w}×{h}; the resolution asked has a short side of {check.short_side} px"
        )
    if check.aspect is not None and abs(w / h - check.aspect) > ASPECT_TOLERANCE * check.aspect:
        raise VerificationFailed(
            f"video is {w}×{h} (aspect {w / h:.3f}); the aspect asked is {check.aspect:.3f}"
        )
    if check.seconds is not None:
        if got.duration is None or abs(got.duration - check.seconds) > SECONDS_TOLERANCE:
            said = "unknown" if got.duration is None else f"{got.duration:.2f} s"
            raise VerificationFailed(f"video lasts {said}; {check.seconds:g} s were asked")
    if check.audio_channels and got.audio_channels < check.audio_channels:
        found = (
            "no sound track"
            if not got.audio_channels
            else f"a {got.audio_channels}-channel sound track"
        )
        raise VerificationFailed(f"video has {found}; this model makes a stereo track")
    return got


def media_folder(data_dir: Path, tenant: str, slot_key: str) -> Path:
    return data_dir / "media" / tenant / slot_key[:2] / slot_key[:24]


def _make_folder(folder: Path) -> None:
    """The slot's media folder and the three above it (``media/<tenant>/<xx>/``, see
    :func:`media_folder`): 0700 each (media files are 0600). Folders above that Slate did not
    make are never touched: a folder outside that layout is made 0700 itself, and only the
    levels it had to create with it are."""
    above = list(folder.parents)[:3]
    ours = len(above) == 3 and above[2].name == "media"
    for each in reversed(above):
        private_dir(each, tighten_existing=ours)
    private_dir(folder)


def _finish(
    tmp: Path,
    folder: Path,
    digest: str,
    size: int,
    kind: str,
    check: VideoCheck | None,
    image_check: ImageCheck | None = None,
) -> VerifiedMedia:
    with open(tmp, "rb") as f:
        head = f.read(16)
    found = sniff(head)
    if found is None:
        raise VerificationFailed("not a PNG, JPEG, WebP or MP4 file (signature does not match)")
    ctype, ext = found
    duration: float | None = None
    if kind == "video":
        if ctype != "video/mp4":
            raise VerificationFailed(f"expected an MP4 video, got {ctype}")
        facts = verify_video(tmp, check)
        width, height, duration = facts.width, facts.height, facts.duration
    else:
        if not ctype.startswith("image/"):
            raise VerificationFailed(f"expected an image, got {ctype}")
        width, height = probe_image(tmp, image_check)
    _make_folder(folder)
    final = folder / f"{digest}{ext}"
    os.replace(tmp, final)
    return VerifiedMedia(final, digest, size, ctype, width, height, duration)


async def download_verified(
    provider: Provider,
    url: str,
    *,
    folder: Path,
    kind: str,
    declared_bytes: int | None = None,
    expect_size: tuple[int, int] | None = None,
    check: VideoCheck | None = None,
    image_check: ImageCheck | None = None,
    on_bytes: Callable[[int, int | None], None] | None = None,
) -> VerifiedMedia:
    """Download ``url`` into ``folder`` and verify it (videos against ``check``, or the
    reported ``expect_size``; images against ``image_check``). Raises VerificationFailed.
    ``on_bytes(received, total)`` hears how far the transfer is (``total``: None if unsaid)."""
    if check is None and expect_size is not None:
        check = VideoCheck(size=expect_size)
    _make_folder(folder)
    limit = MAX_VIDEO_BYTES if kind == "video" else MAX_IMAGE_BYTES
    fd, name = tempfile.mkstemp(prefix=".part-", dir=folder)
    tmp = Path(name)
    try:
        digest = hashlib.sha256()
        size = 0
        try:
            async with provider.download(url) as dl:
                if dl.status_code != 200:
                    raise download_status_error(dl.status_code) or VerificationFailed(
                        f"download answered HTTP {dl.status_code}"
                    )
                with os.fdopen(fd, "wb") as out:
                    fd = -1
                    async for chunk in dl.chunks:
                        size += len(chunk)
                        if size > limit or dl.wire_bytes() > limit:
                            raise VerificationFailed(f"download exceeds {limit} bytes")
                        digest.update(chunk)
                        out.write(chunk)
                        if on_bytes is not None:
                            on_bytes(size, dl.content_length or declared_bytes)
                    out.flush()
                    os.fsync(out.fileno())
                declared = dl.content_length
        except ProviderError as exc:
            if exc.try_later:  # nothing wrong with the media: the caller tries again later
                raise
            raise VerificationFailed(
                f"download broke off after {size} bytes: {exc.message}"
            ) from None
        if declared is not None and size != declared:
            raise VerificationFailed(f"truncated: {size} of {declared} declared bytes arrived")
        if declared_bytes and size != declared_bytes:
            raise VerificationFailed(
                f"size mismatch: {size} bytes, the provider declared {declared_bytes}"
            )
        if size == 0:
            raise VerificationFailed("download was empty")
        return _finish(tmp, folder, digest.hexdigest(), size, kind, check, image_check)
    finally:
        if fd != -1:
            os.close(fd)
        tmp.unlink(missing_ok=True)


def store_inline(
    data: bytes, *, folder: Path, kind: str, image_check: ImageCheck | None = None
) -> VerifiedMedia:
    """Verify and store bytes that arrived inline (base64 images)."""
    _make_folder(folder)
    fd, name = tempfile.mkstemp(prefix=".part-", dir=folder)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if not data:
            raise VerificationFailed("inline image was empty")
        return _finish(
            tmp, folder, hashlib.sha256(data).hexdigest(), len(data), kind, None, image_check
        )
    finally:
        tmp.unlink(missing_ok=True)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
