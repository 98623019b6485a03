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
from app.service.inputs import image_file_data_url

log = logging.getLogger(__name__)


class Role(str, Enum):
    """Where a result goes in the new draft."""

    FIRST_FRAME = "first_frame"
    LAST_FRAME = "last_frame"
    REFERENCE = "subject_reference"

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


__all__ = ["Role", "frame_data_url", "is_video", "last_frame_png", "media_path"]
