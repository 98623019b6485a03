"""Making one thumbnail, without Qt: read it back from the disk cache, or decode the media (images
with Pillow, video posters with PyAV), scale it to the cache's edge and write the cache file.

The results gallery runs :func:`thumbnail` in worker *processes* (see
:class:`app.ui.gallery.thumbs.DecoderPool`): decoders running as threads of the app share its
interpreter lock with the UI thread, and every Python step between their C calls delayed the
grid's painting (scrolling lag p99 22-48 ms with two decoder threads, 5 ms without them). This
module therefore imports neither Qt nor anything of the app's UI: a worker process starts with
Pillow, PyAV and :mod:`app.files` only (cache files are owner-only, as all of Slate's). The
answer is the small picture's raw bytes, which the app wraps in a ``QImage``.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Any

from app.files import PRIVATE_DIR, PRIVATE_FILE, open_private, private_dir, tighten

log = logging.getLogger(__name__)

#: What :func:`thumbnail` answers: (outcome, width, height, mode, pixels, bytes written, pid).
#: outcome: ``"hit"`` (read from the cache), ``"decoded"``, ``"none"`` (the media could not be
#: decoded) or ``"missing"`` (no such file).
Answer = tuple[str, int, int, str, bytes, int, int]


#: Seconds between a decoder process's checks that the app that started it is still running
PARENT_CHECK = 1.0


def init_worker(nice: int, parent: int | None = None) -> None:
    """A decoder process: below the app's priority, its imports done before the first request,
    and gone within :data:`PARENT_CHECK` seconds of its app (``parent``, the app's process id)
    however the app ended: a pool's worker holds both ends of its own queue, so an app killed
    or crashed would otherwise leave it waiting for work for ever."""
    if parent is not None:
        _end_with(parent)
    try:
        os.nice(nice)
    except (AttributeError, OSError):
        pass
    warm()


def _end_with(parent: int) -> None:
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)  # nothing of the app's to finish: a thumbnail is written, then renamed

    threading.Thread(target=watch, name="app-watch", daemon=True).start()


def warm() -> int:
    """Import the decoders (the first poster otherwise paid ~200 ms for ``import av``)."""
    try:
        import av  # noqa: F401
        from PIL import Image, ImageOps, JpegImagePlugin, PngImagePlugin  # noqa: F401

        Image.init()
    except ImportError:
        pass
    return os.getpid()


def read_image(path: str, edge: int) -> Any:
    """A Pillow image scaled to ``edge`` on its longer side, in RGB or RGBA."""
    from PIL import Image, ImageOps

    with Image.open(path) as img:
        img.draft("RGB", (edge, edge))  # JPEG: decode at a fraction of the size
        img = ImageOps.exif_transpose(img)
        img.thumbnail((edge, edge), Image.Resampling.BILINEAR, reducing_gap=2.0)
        return img.copy() if img.mode in ("RGB", "RGBA") else img.convert("RGBA")


def read_poster(path: str, edge: int, frames: int = 48) -> Any:
    """A video's first good frame (the first that is not near black, within ``frames``; else the
    first decodable one) as a Pillow image scaled to ``edge``; None when no frame decodes."""
    import av

    first: Any = None
    with av.open(path) as container:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        for i, frame in enumerate(container.decode(stream)):
            height = max(2, 64 * frame.height // max(1, frame.width))
            small = frame.reformat(width=64, height=height, format="gray")
            data = bytes(small.planes[0])
            mean = sum(data) / max(1, len(data))
            if first is None or mean > 12:
                first = frame
            if mean > 12 or i >= frames:
                break
    if first is None:
        return None
    w, h = first.width, first.height
    scale = min(1.0, edge / max(w, h))
    tw, th = max(2, int(w * scale) // 2 * 2), max(2, int(h * scale) // 2 * 2)
    return first.reformat(width=tw, height=th, format="rgb24").to_image()


def _rgb(img: Any) -> Any:
    if img.mode in ("RGB", "RGBA"):
        return img
    return img.convert("RGBA" if "A" in img.getbands() or img.mode == "P" else "RGB")


def _answer(outcome: str, img: Any, written: int = 0) -> Answer:
    if img is None:
        return (outcome, 0, 0, "", b"", written, os.getpid())
    img = _rgb(img)
    return (outcome, img.width, img.height, img.mode, img.tobytes(), written, os.getpid())


def read_cached(target: str) -> Any:
    """The cached thumbnail at ``target`` (its use time touched), or None."""
    if not os.path.exists(target):
        return None
    try:
        from PIL import Image

        with Image.open(target) as pic:
            pic.load()
            img = _rgb(pic)
            img = img.copy() if img is pic else img
    except Exception:  # noqa: BLE001 - a damaged cache file is made again
        return None
    _tighten(Path(target))  # one an older Slate wrote under the umask (0644, folders 0755)
    try:
        os.utime(target)  # least recently *used* is what pruning removes
    except OSError:
        pass
    return img


def _private_folders(folder: Path) -> None:
    """``folder`` and every missing folder above it created owner-only (0700, whatever the
    umask); the shard folder and the cache's own folder tightened when found wider."""
    missing: list[Path] = []
    p = folder
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    for p in reversed(missing):
        private_dir(p)
    for p in (folder, folder.parent):  # ``<cache>/<sha[:2]>`` and ``<cache>``: Slate's own
        tighten(p, PRIVATE_DIR)


def _tighten(target: Path) -> None:
    if tighten(target, PRIVATE_FILE):
        for p in (target.parent, target.parent.parent):
            tighten(p, PRIVATE_DIR)


def store(target: str, pic: Any) -> int:
    """Write ``pic`` to ``target`` atomically, owner-only like every file of Slate's (the
    thumbnails show the user's media); the bytes written (0 when it could not be)."""
    path = Path(target)
    try:
        _private_folders(path.parent)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        with os.fdopen(open_private(tmp, os.O_WRONLY | os.O_TRUNC), "wb") as out:
            pic.save(out, "PNG", compress_level=1)
        os.replace(tmp, path)
        return path.stat().st_size
    except OSError as exc:
        log.info("thumbnail cache not written: %s", exc)
        return 0


def thumbnail(path: str, kind: str, target: str, edge: int) -> Answer:
    """The thumbnail of the media at ``path`` (``kind`` "image" or "video"): read back from the
    cache file ``target``, else decoded, scaled to ``edge`` and written there."""
    img = read_cached(target)
    if img is not None:
        return _answer("hit", img)
    if not os.path.isfile(path):
        return _answer("missing", None)
    try:
        pic = read_poster(path, edge) if kind == "video" else read_image(path, edge)
    except Exception as exc:  # noqa: BLE001 - a damaged file shows as "cannot show"
        log.info("no thumbnail for %s: %s", path, exc)
        return _answer("none", None)
    if pic is None:
        return _answer("none", None)
    pic = _rgb(pic)
    written = store(target, pic)
    return _answer("decoded", pic, written)
