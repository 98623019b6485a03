"""Chaining: a result of one slot becomes an input of the next, without an export round-trip.

:class:`Role` names where a result goes in the new draft (first frame, last frame, subject
reference). :func:`frame_data_url` turns a result file into the ``data:image/...`` URL the form
takes: an image as it is, a video as its **last frame** (decoded with PyAV; video → video
continuity). It reads files and decodes video, so it runs in the controller's worker thread,
never on the UI thread. The window's :meth:`~app.ui.window.MainWindow.use_result_as` is the one
entry point (the gallery's context menus call it too).
"""

from __future__ import annotations

import logging
import mimetypes
import os
import tempfile
from enum import Enum
from pathlib import Path
from typing import Any

from app.domain.errors import Rule, ValidationError
from app.domain.protocols import V2, V2_MODELS, protocol_for
from app.service.inputs import image_file_data_url

log = logging.getLogger(__name__)


class Role(str, Enum):
    """Where a result goes in the new draft."""

    FIRST_FRAME = "first_frame"
    LAST_FRAME = "last_frame"
    REFERENCE = "subject_reference"
    #: an image result edited: a MiniMax-H3-Image draft with it as its reference
    EDIT = "edit"
    AUDIO = "reference_audio"  # a sound: the soundtrack / reference audio of a MiniMax-H3 draft

    def __str__(self) -> str:
        return self.value


def is_video(path: str, content_type: str | None = None) -> bool:
    if content_type:
        return content_type.startswith("video/")
    mime = mimetypes.guess_type(path)[0] or ""
    return mime.startswith("video/")


def media_path(media: Any) -> tuple[str, str | None]:
    """``(path, content_type)`` of a :class:`~app.service.views.MediaView`, or of a plain path."""
    if isinstance(media, (str, os.PathLike)):
        return str(media), None
    return str(media.path), getattr(media, "content_type", None)


def last_frame_png(video: str, out: str) -> None:
    """Write the last frame of ``video`` to ``out`` as PNG (PyAV; a worker thread calls this)."""
    import av

    last = None
    with av.open(video) as container:
        stream = container.streams.video[0]
        # Seek close to the end first (a long video need not be decoded whole), then decode
        # what is left; without a duration, decode from the start.
        duration = container.duration  # microseconds (av.time_base), or None
        if duration and duration > 2_000_000:
            try:
                container.seek(duration - 1_500_000, backward=True, any_frame=False)
            except (av.FFmpegError, OSError):
                container.seek(0)
        for frame in container.decode(stream):
            last = frame
        if last is None and duration:  # the seek overshot: decode from the start
            container.seek(0)
            for frame in container.decode(stream):
                last = frame
    if last is None:
        raise ValidationError(
            "video",
            f"{Path(video).name} has no video frame",
            Rule.UNREADABLE,
            name=Path(video).name,
            wanted="video",
        )
    last.to_image().save(out, "PNG")


def frame_data_url(path: str, content_type: str | None = None) -> str:
    """The image to feed a draft with: the image file itself, or a video's last frame (worker
    thread). Raises :class:`ValidationError` when the file cannot be used."""
    if not is_video(path, content_type):
        return image_file_data_url(path, "image")
    with tempfile.TemporaryDirectory(prefix="slate-frame-") as tmp:
        out = str(Path(tmp) / f"{Path(path).stem}-last-frame.png")
        try:
            last_frame_png(path, out)
        except ValidationError:
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged file is said, in words
            log.info("last frame of %s: %s", path, exc)
            raise ValidationError(
                "video",
                f"{Path(path).name}: the last frame could not be read (is it a video?)",
                Rule.UNREADABLE,
                name=Path(path).name,
                wanted="video",
            ) from None
        return image_file_data_url(out, "image")


def is_sound(path: str, content_type: str | None = None) -> bool:
    if content_type:
        return content_type.startswith("audio/")
    return (mimetypes.guess_type(path)[0] or "").startswith("audio/")


def h3_model(model: str | None) -> str:
    """The MiniMax-H3 model a draft fed with a sound uses: the user's, if it is one."""
    return model if protocol_for("video", model) == V2 and model else V2_MODELS[0]


def _seconds(path: str) -> float | None:
    import av

    with av.open(path) as container:
        stream = container.streams.audio[0]
        if stream.duration is not None and stream.time_base is not None:
            return float(stream.duration * stream.time_base)
        if container.duration:
            return container.duration / 1_000_000
    return None


def trim_to_wav(path: str, out: str, seconds: float) -> None:
    """Write the first ``seconds`` of ``path`` to ``out`` as 16-bit WAV (PyAV; a worker)."""
    import av

    with av.open(path) as src, av.open(out, "w", format="wav") as dst:
        audio = src.streams.audio[0]
        rate = audio.rate or 44100
        layout = "stereo" if (audio.channels or 1) > 1 else "mono"
        stream = dst.add_stream("pcm_s16le", rate=rate)
        stream.layout = layout  # type: ignore[union-attr]
        resampler = av.AudioResampler(format="s16", layout=layout, rate=rate)
        left = int(seconds * rate)
        for frame in src.decode(audio):
            for part in resampler.resample(frame):
                if left <= 0:
                    break
                if part.samples > left:  # the last frame: only what is left of it
                    data = bytes(part.planes[0])[: left * 2 * len(part.layout.channels)]
                    part = _cut(part, data, left)
                left -= part.samples
                for packet in stream.encode(part):  # type: ignore[union-attr]
                    dst.mux(packet)
            if left <= 0:
                break
        for packet in stream.encode(None):  # type: ignore[union-attr]
            dst.mux(packet)


def _cut(frame: Any, data: bytes, samples: int) -> Any:
    import av

    out = av.AudioFrame(format="s16", layout=frame.layout.name, samples=samples)
    out.planes[0].update(data)
    out.sample_rate = frame.sample_rate
    out.pts = frame.pts
    return out


def reference_audio(path: str, content_type: str | None = None) -> tuple[str, float | None]:
    """The file a sound result goes into a MiniMax-H3 draft as: itself when H3 takes it (WAV or
    MP3 of at most :data:`~app.domain.params_v2.CLIP_MAX` s), else its first CLIP_MAX seconds
    as WAV in a temporary folder; with the length it was trimmed to (None: not trimmed). A worker
    thread runs this. Raises :class:`ValidationError` when the file cannot be read."""
    from app.domain.params_v2 import AUDIO_FORMATS, CLIP_MAX

    name = Path(path).name
    try:
        seconds = _seconds(path)
    except Exception as exc:  # noqa: BLE001 - a damaged file is said, in words
        log.info("length of %s: %s", path, exc)
        raise ValidationError("reference_audio", f"{name} could not be read as a sound") from None
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt in AUDIO_FORMATS and (seconds is None or seconds <= CLIP_MAX):
        return path, None
    keep = min(seconds or CLIP_MAX, CLIP_MAX)
    out = str(Path(tempfile.mkdtemp(prefix="slate-audio-")) / f"{Path(path).stem}-{keep:g}s.wav")
    try:
        trim_to_wav(path, out, keep)
    except Exception as exc:  # noqa: BLE001
        log.info("trim %s: %s", path, exc)
        raise ValidationError("reference_audio", f"{name} could not be trimmed") from None
    return out, keep if seconds is not None and seconds > CLIP_MAX else None


__all__ = [
    "Role",
    "frame_data_url",
    "h3_model",
    "is_sound",
    "is_video",
    "last_frame_png",
    "media_path",
    "reference_audio",
    "trim_to_wav",
]
