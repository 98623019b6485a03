"""What an input file really is: images with Pillow (HEIC/HEIF from their ``ispe`` box), video
and audio with PyAV. The demo provider checks uploads and data URLs with it, as MiniMax does.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass

#: ISO-BMFF brands of HEIF images (HEIC is HEIF with HEVC coding).
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


@dataclass(frozen=True)
class Media:
    kind: str  # "image" | "video" | "audio"
    format: str  # jpeg png webp heic heif | mp4 mov | wav mp3
    width: int | None = None
    height: int | None = None
    seconds: float | None = None
    fps: float | None = None
    video_codec: str | None = None
    audio_codec: str | None = None

    @property
    def aspect(self) -> float | None:
        if self.width and self.height:
            return self.width / self.height
        return None


class ProbeError(ValueError):
    """The bytes are not a readable file of a known kind (the message says why)."""


def probe_image(data: bytes) -> Media | None:
    """An image's format and pixel size, or ``None`` when the bytes are not an image at all.

    JPEG, PNG and WebP are decoded in full (a truncated file raises :class:`ProbeError`); HEIC and
    HEIF are read from their boxes (no decoder here), other images are reported by Pillow's name.
    """
    heif = _heif_size(data)
    if heif is not None:
        return heif
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        return None
    except Exception as exc:  # noqa: BLE001 - any reader failure means "not readable"
        raise ProbeError(f"the image cannot be read ({type(exc).__name__})") from None
    fmt = (image.format or "").lower()
    if fmt == "mpo":  # a camera JPEG with several pictures is still a JPEG
        fmt = "jpeg"
    width, height = image.size
    if fmt in ("jpeg", "png", "webp") and width * height <= 60_000_000:
        try:
            image.load()
        except Exception as exc:  # noqa: BLE001
            raise ProbeError(f"the {fmt.upper()} image is damaged ({type(exc).__name__})") from None
    return Media("image", fmt, width, height)


def _heif_size(data: bytes) -> Media | None:
    if len(data) < 16 or data[4:8] != b"ftyp":
        return None
    size = struct.unpack(">I", data[:4])[0]
    brands = {data[8:12]} | {data[i : i + 4] for i in range(16, min(size, len(data)), 4)}
    if not brands & _HEIF_BRANDS or data[8:12] in (
        b"qt  ",
        b"isom",
        b"mp42",
        b"mp41",
        b"M4V ",
        b"avif",
        b"avis",
    ):
        return None
    fmt = "heic" if brands & {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx"} else "heif"
    at = data.find(b"ispe", 0, 1 << 20)
    if at < 0 or at + 16 > len(data):
        raise ProbeError(f"the {fmt.upper()} image has no size (ispe) box")
    width, height = struct.unpack(">II", data[at + 8 : at + 16])
    if not width or not height:
        raise ProbeError(f"the {fmt.upper()} image declares a zero size")
    return Media("image", fmt, width, height)


def probe_av(data: bytes) -> Media:
    """A video or audio file's container, codecs, length and frame rate (PyAV)."""
    import av

    try:
        container = av.open(io.BytesIO(data), "r")
    except Exception as exc:  # noqa: BLE001 - FFmpeg raises many kinds
        raise ProbeError(f"not a readable video or audio file ({type(exc).__name__})") from None
    try:
        names = set(container.format.name.split(","))
        video = container.streams.video[0] if container.streams.video else None
        audio = container.streams.audio[0] if container.streams.audio else None
        seconds = _seconds(container, video or audio)
        if video is not None:
            if not names & {"mp4", "mov"}:
                raise ProbeError(f"video container {container.format.name} is not MP4 or MOV")
            fmt = "mov" if data[8:12] == b"qt  " else "mp4"
            rate = video.average_rate or video.guessed_rate
            fps = float(rate) if rate else None
            return Media(
                "video",
                fmt,
                video.codec_context.width,
                video.codec_context.height,
                seconds,
                fps,
                video.codec_context.name,
                audio.codec_context.name if audio is not None else None,
            )
        if audio is not None:
            fmt = "wav" if "wav" in names else "mp3" if "mp3" in names else container.format.name
            if fmt == "mp3":  # FFmpeg's MP3 probe accepts noise: insist on a decodable frame
                try:
                    next(iter(container.decode(audio)))
                except Exception:  # noqa: BLE001
                    raise ProbeError("not a readable MP3 file") from None
            return Media("audio", fmt, seconds=seconds, audio_codec=audio.codec_context.name)
        raise ProbeError("the file has neither a video nor an audio stream")
    finally:
        container.close()


def _seconds(container, stream) -> float | None:  # type: ignore[no-untyped-def]
    if container.duration:
        return container.duration / 1_000_000
    if stream is not None and stream.duration and stream.time_base:
        return float(stream.duration * stream.time_base)
    return None


def probe(data: bytes) -> Media:
    """An image first, else video or audio; :class:`ProbeError` if the bytes are neither."""
    image = probe_image(data)
    if image is not None:
        return image
    return probe_av(data)
