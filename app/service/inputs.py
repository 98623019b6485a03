"""Inputs from the user's disk: a local image file becomes a ``data:`` URL, the form MiniMax
takes for frames and subject references. The CLI and the GUI both read files through here."""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path

from app.domain.errors import ValidationError

MAX_IMAGE_FILE_BYTES = 20 * 1024 * 1024
IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp")


def image_file_data_url(path: str | Path, field: str) -> str:
    """A local PNG, JPEG or WebP file (at most 20 MB) as ``data:image/...;base64,...``.

    The type comes from the file's name: the data URL — and with it the slot's fingerprint —
    stays what it always was for the same file. Raises :class:`ValidationError` naming
    ``field``.
    """
    p = Path(path).expanduser()
    if not p.is_file():
        raise ValidationError(
            field, f"{str(path)!r} is neither an https:// URL, a data: URL nor an image file")
    mime = mimetypes.guess_type(p.name)[0] or ""
    if mime not in IMAGE_TYPES:
        raise ValidationError(field, f"{p.name}: only PNG, JPEG or WebP images")
    try:
        if p.stat().st_size > MAX_IMAGE_FILE_BYTES:
            raise ValidationError(field, f"{p.name} is larger than 20 MB")
        data = p.read_bytes()
    except OSError as exc:
        raise ValidationError(field, f"{p.name}: {exc.strerror or exc}") from None
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def image_option(value: str | None, field: str) -> str | None:
    """An image option as given: an ``https://`` (or ``http://``, refused later with its
    reason) or ``data:`` URL stays as it is; anything else is a local file to read."""
    if value is None or value == "":
        return None
    if value.startswith(("https://", "http://", "data:")):
        return value
    return image_file_data_url(value, field)
