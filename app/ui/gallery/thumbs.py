"""Thumbnails for the results gallery: a bounded disk cache, content-addressed by the media's
SHA-256 and byte size (and the thumbnail's edge), and a loader that decodes off the UI thread.

* :class:`ThumbCache` — blocking, thread-safe: ``get(...)`` answers from disk or decodes (images
  with ``QImageReader`` scaled while reading, video posters with PyAV — the first frame that is
  not black), writes the PNG atomically, and prunes the least recently used files once the cache
  grows past its bound.
* :class:`ThumbLoader` — a ``QObject`` with a small pool of worker threads; the newest request is
  served first (the tiles the designer is looking at), a request already queued or in flight is
  not repeated, and the answer comes back on the UI thread as :attr:`ThumbLoader.ready`.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from app.ui.qt import QImage, QObject, Signal

log = logging.getLogger(__name__)

#: The edge of a cached thumbnail (the longer side), in pixels.
THUMB_EDGE = 256
#: The cache's bound on disk.
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
#: How much lower the decoder threads run than the UI thread (Linux, per thread).
NICE = 5
#: The interpreter's thread switch interval while thumbnails are decoded (seconds).
SWITCH_INTERVAL = 0.001


def default_cache_dir(data_dir: Path | None = None) -> Path:
    """The thumbnail cache folder: ``SLATE_THUMB_CACHE`` if set; the platform's cache folder for
    the default data folder; else a cache beside a data folder of its own (a second identity or a
    test never mixes its thumbnails into the user's)."""
    env = os.environ.get("SLATE_THUMB_CACHE")
    if env:
        return Path(env).expanduser()
    default_data = Path(platformdirs.user_data_dir("Slate", appauthor=False))
    if data_dir is None or Path(data_dir) == default_data:
        return Path(platformdirs.user_cache_dir("Slate", appauthor=False)) / "thumbnails"
    return Path(data_dir) / "cache" / "thumbnails"


@dataclass(frozen=True)
class ThumbRequest:
    """What a thumbnail is made from: the file, what it should hash to, and its kind."""

    path: str
    sha256: str
    bytes: int
    kind: str  # "image" or "video"

    @property
    def key(self) -> str:
        return f"{self.sha256}-{self.bytes}"


def to_qimage(img: Any) -> QImage:
    """A Pillow image as a ``QImage`` (one copy of the small thumbnail's bytes)."""
    if img.mode not in ("RGB", "RGBA"):
        img = img.convert("RGBA" if "A" in img.getbands() or img.mode == "P" else "RGB")
    fmt = QImage.Format.Format_RGBA8888 if img.mode == "RGBA" else QImage.Format.Format_RGB888
    data = img.tobytes()
    stride = len(data) // max(1, img.height)
    return QImage(data, img.width, img.height, stride, fmt).copy()


def _read_image(path: str, edge: int) -> Any:
    """A Pillow image scaled to ``edge`` on its longer side. Pillow decodes, scales and encodes
    with the interpreter lock released; Qt's image calls from Python hold it, which would stall
    the UI thread while a worker decodes."""
    from PIL import Image, ImageOps

    with Image.open(path) as img:
        img.draft("RGB", (edge, edge))  # JPEG: decode at a fraction of the size
        img = ImageOps.exif_transpose(img)
        img.thumbnail((edge, edge), Image.Resampling.BILINEAR, reducing_gap=2.0)
        return img.copy() if img.mode in ("RGB", "RGBA") else img.convert("RGBA")


def decode_image(path: str, edge: int) -> QImage:
    """An image scaled to ``edge`` on its longer side (a worker thread calls this)."""
    return to_qimage(_read_image(path, edge))


def _read_poster(path: str, edge: int, frames: int = 48) -> Any:
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


def decode_poster(path: str, edge: int, *, frames: int = 48) -> QImage:
    """A video's first good frame (the first that is not near black, within ``frames``; else the
    first decodable one), decoded with PyAV and scaled to ``edge``."""
    img = _read_poster(path, edge, frames)
    return QImage() if img is None else to_qimage(img)


class ThumbCache:
    """Thumbnails on disk, ``<dir>/<sha[:2]>/<sha256>-<bytes>-<edge>.png``, bounded in bytes."""

    def __init__(self, directory: Path | str, *, edge: int = THUMB_EDGE,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.dir = Path(directory)
        self.edge = edge
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self.decodes = 0  # thumbnails decoded from media (cache misses)
        self.hits = 0  # thumbnails read back from the disk cache
        self._written = 0
        self._since_prune = 0

    def file_for(self, req: ThumbRequest) -> Path:
        return self.dir / req.sha256[:2] / f"{req.key}-{self.edge}.png"

    def cached(self, req: ThumbRequest) -> QImage | None:
        target = self.file_for(req)
        if not target.exists():
            return None
        try:
            from PIL import Image

            with Image.open(target) as pic:
                pic.load()
                img = to_qimage(pic)
        except Exception:  # noqa: BLE001 - a damaged cache file is made again
            return None
        try:
            os.utime(target)  # least recently *used* is what pruning removes
        except OSError:
            pass
        with self._lock:
            self.hits += 1
        return img

    def get(self, req: ThumbRequest) -> QImage:
        """The thumbnail of ``req`` (a null image when the file cannot be decoded)."""
        img = self.cached(req)
        if img is not None:
            return img
        if not Path(req.path).is_file():
            return QImage()
        try:
            pic = (_read_poster(req.path, self.edge) if req.kind == "video"
                   else _read_image(req.path, self.edge))
        except Exception as exc:  # noqa: BLE001 - a damaged file shows as "cannot show"
            log.info("no thumbnail for %s: %s", req.path, exc)
            return QImage()
        with self._lock:
            self.decodes += 1
        if pic is None:
            return QImage()
        self._store(req, pic)
        return to_qimage(pic)

    def _store(self, req: ThumbRequest, pic: Any) -> None:
        target = self.file_for(req)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.{threading.get_ident()}.tmp")
            pic.save(tmp, "PNG", compress_level=1)
            os.replace(tmp, target)
            size = target.stat().st_size
        except OSError as exc:
            log.info("thumbnail cache not written: %s", exc)
            return
        with self._lock:
            self._written += size
            self._since_prune += size
            due = self._since_prune > self.max_bytes // 10
            if due:
                self._since_prune = 0
        if due:
            self.prune()

    def size_on_disk(self) -> int:
        return sum(f.stat().st_size for f in self.dir.glob("*/*.png") if f.is_file())

    def prune(self, keep_fraction: float = 0.8) -> int:
        """Remove the least recently used thumbnails while the cache is over its bound, down to
        ``keep_fraction`` of it. Returns how many files were removed."""
        files = []
        for f in self.dir.glob("*/*.png"):
            try:
                st = f.stat()
            except OSError:
                continue
            files.append((st.st_mtime, st.st_size, f))
        total = sum(s for _, s, _ in files)
        if total <= self.max_bytes:
            return 0
        files.sort()
        removed = 0
        goal = self.max_bytes * keep_fraction
        for _, size, f in files:
            if total <= goal:
                break
            try:
                f.unlink()
            except OSError:
                continue
            total -= size
            removed += 1
        return removed


class ThumbLoader(QObject):
    """Decodes thumbnails in worker threads; newest request first; answers on the UI thread."""

    ready = Signal(str, QImage)  # key, image (null: cannot be shown)

    def __init__(self, cache: ThumbCache, *, workers: int = 2, backlog: int = 400,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        # A waiting UI thread gets the interpreter lock within 1 ms instead of Python's default
        # 5 ms while the decoders run Python code between their C calls (latency over
        # throughput, what a desktop app wants).
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
        self.cache = cache
        self.backlog = backlog
        self._queue: OrderedDict[str, ThumbRequest] = OrderedDict()  # newest last
        self._running: set[str] = set()
        self._cv = threading.Condition()
        self._closed = False
        self._threads = [threading.Thread(target=self._work, name=f"thumbs-{i}", daemon=True)
                         for i in range(workers)]
        for t in self._threads:
            t.start()

    def request(self, req: ThumbRequest) -> None:
        with self._cv:
            if self._closed or req.key in self._running:
                return
            self._queue.pop(req.key, None)
            self._queue[req.key] = req  # to the front of the line
            while len(self._queue) > self.backlog:  # long scrolled past: asked again if seen
                self._queue.popitem(last=False)
            self._cv.notify()

    def pending(self) -> int:
        with self._cv:
            return len(self._queue) + len(self._running)

    def _work(self) -> None:
        try:  # the UI thread comes first when the cores are busy (Linux: per thread)
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
        except (AttributeError, OSError):
            pass
        try:  # first imports are slow: done here, before the first thumbnail is asked for
            import av  # noqa: F401
            from PIL import Image, ImageOps, JpegImagePlugin, PngImagePlugin  # noqa: F401

            Image.init()
        except ImportError:
            pass
        while True:
            with self._cv:
                while not self._queue and not self._closed:
                    self._cv.wait()
                if self._closed:
                    return
                key, req = self._queue.popitem(last=True)
                self._running.add(key)
            try:
                img = self.cache.get(req)
            except Exception:  # noqa: BLE001 - never let a worker die
                log.exception("thumbnail of %s", req.path)
                img = QImage()
            with self._cv:
                self._running.discard(key)
                closed = self._closed
            if not closed:
                try:
                    self.ready.emit(key, img)
                except RuntimeError:  # the loader was deleted meanwhile
                    return

    def close(self, timeout: float = 2.0) -> None:
        with self._cv:
            self._closed = True
            self._queue.clear()
            self._cv.notify_all()
        for t in self._threads:
            t.join(timeout)
