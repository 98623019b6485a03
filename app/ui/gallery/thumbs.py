"""Thumbnails for the results gallery: a bounded disk cache, content-addressed by the media's
SHA-256 and byte size (and the thumbnail's edge), and a loader that decodes off the UI thread.

* :class:`ThumbCache` — blocking, thread-safe: ``get(...)`` answers from disk or decodes (images
  with Pillow, video posters with PyAV — the first frame that is not black; see
  :mod:`app.ui.gallery.decode`), writes the PNG atomically, and prunes the least recently used
  files once the cache grows past its bound.
* :class:`DecoderPool` — the worker processes that do that work for the loader, so no decoder
  shares the UI thread's interpreter lock.
* :class:`ThumbLoader` — a ``QObject`` with a few threads that hand requests to the pool; the
  newest request is served first (the tiles the designer is looking at), a request already
  queued or in flight is not repeated, and the answer comes back on the UI thread as
  :attr:`ThumbLoader.ready`.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from concurrent.futures import CancelledError
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from app.ui.gallery import decode
from app.ui.qt import QImage, QObject, Signal

if TYPE_CHECKING:  # multiprocessing loads with the first pool, not with the window
    from concurrent.futures import ProcessPoolExecutor

log = logging.getLogger(__name__)

#: The edge of a cached thumbnail (the longer side), in pixels.
THUMB_EDGE = 256
#: The cache's bound on disk.
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
#: How much lower the decoder threads run than the UI thread (Linux, per thread), when they
#: decode themselves (no worker processes).
NICE = 5
#: How much lower the decoder processes run. They share no interpreter lock with the UI thread,
#: so only a little: at nice 5 other programs' load starved them (first screen of thumbnails
#: 190-1,350 ms at load 4-5, against 150-195 ms at nice 0) with no gain in scrolling lag.
WORKER_NICE = 2
#: The interpreter's thread switch interval while thumbnails are decoded (seconds).
SWITCH_INTERVAL = 0.001
#: How long after the loader is made its worker processes start unasked (seconds).
WARM_START = 1.0


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
    img = decode._rgb(img)
    return _qimage(img.width, img.height, img.mode, img.tobytes())


def _qimage(width: int, height: int, mode: str, data: bytes) -> QImage:
    if not width or not height:
        return QImage()
    fmt = QImage.Format.Format_RGBA8888 if mode == "RGBA" else QImage.Format.Format_RGB888
    return QImage(data, width, height, len(data) // height, fmt).copy()


_read_image = decode.read_image
_read_poster = decode.read_poster


def decode_image(path: str, edge: int) -> QImage:
    """An image scaled to ``edge`` on its longer side (a worker thread calls this)."""
    return to_qimage(decode.read_image(path, edge))


def decode_poster(path: str, edge: int, *, frames: int = 48) -> QImage:
    """A video's first good frame (the first that is not near black, within ``frames``; else the
    first decodable one), decoded with PyAV and scaled to ``edge``."""
    img = decode.read_poster(path, edge, frames)
    return QImage() if img is None else to_qimage(img)


def processes_wanted() -> bool:
    """Whether thumbnails are made in worker processes: yes, unless ``SLATE_THUMB_PROCESSES=0``
    or the app is a frozen bundle (whose entry point does not serve ``multiprocessing``'s
    spawned children; it decodes in threads as before)."""
    if os.environ.get("SLATE_THUMB_PROCESSES", "").strip() == "0":
        return False
    return not getattr(sys, "frozen", False)


class DecoderPool:
    """Worker processes that make thumbnails (:func:`app.ui.gallery.decode.thumbnail`), started
    (spawned: never a fork of the Qt process) and warmed up at once, below the app's priority. A
    worker that dies (a decoder crashing on a hostile file) costs that one thumbnail: the pool is
    made anew and the app goes on."""

    def __init__(self, workers: int = 2, *, nice: int = WORKER_NICE, start: bool = True) -> None:
        self.workers = workers
        self.nice = nice
        self.restarts = 0
        self._lock = threading.Lock()
        self._closed = False
        self._executor: ProcessPoolExecutor | None = None
        if start:
            self.start()

    def start(self) -> None:
        """Start the workers now (else the first thumbnail does)."""
        with self._lock:
            if self._executor is None and not self._closed:
                self._executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        ctx = multiprocessing.get_context("spawn")
        ex = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=ctx,
            initializer=decode.init_worker,
            initargs=(self.nice, os.getpid()),
        )
        for _ in range(self.workers):  # every worker starts and imports its decoders now
            ex.submit(decode.warm)
        return ex

    @property
    def started(self) -> bool:
        return self._executor is not None

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and benchmarks)."""
        procs = getattr(self._executor, "_processes", None) or {}
        return [p.pid for p in list(procs.values()) if p.pid is not None]

    def thumbnail(self, path: str, kind: str, target: str, edge: int) -> decode.Answer | None:
        """Blocks the calling (loader) thread, not the interpreter, until a worker answers;
        None when the worker died or the pool is closed."""
        with self._lock:
            if self._closed:
                return None
            if self._executor is None:
                self._executor = self._start()
            ex = self._executor
        from concurrent.futures.process import BrokenProcessPool

        try:
            return ex.submit(decode.thumbnail, path, kind, target, edge).result()
        except BrokenProcessPool:
            log.warning("a thumbnail worker died on %s; starting the workers again", path)
            with self._lock:
                if self._executor is ex and not self._closed:
                    self.restarts += 1
                    self._executor = self._start()
                    ex.shutdown(wait=False, cancel_futures=True)
            return None
        except (CancelledError, RuntimeError):  # closed meanwhile
            return None

    def close(self) -> None:
        """Stop the workers, without waiting for their work (only for the terminated processes
        to be gone): a thumbnail cut short is made again the next time it is asked for (each is written to a temporary file, then renamed). Python
        waits at exit for every worker of a pool that was merely shut down, and a worker still
        starting — spawned below the app's priority — can take minutes on a busy machine: a
        ``--describe`` run once waited 180 s there after it had answered."""
        with self._lock:
            self._closed = True
            ex = self._executor
        if ex is not None:
            workers = list((getattr(ex, "_processes", None) or {}).values())
            answers = getattr(ex, "_result_queue", None)  # shutdown() lets go of it
            ex.shutdown(wait=False, cancel_futures=True)
            for proc in workers:
                if proc.is_alive():
                    proc.terminate()
            _let_the_reader_go(answers, workers)


def _let_the_reader_go(answers: Any, workers: list[Any]) -> None:
    """A worker ended while it wrote its answer leaves half a message in the answers' pipe, and
    the pool's manager thread then waits for the rest for ever in ``recv`` — and Python waits
    for that thread at exit: the app (or a ``--describe`` run) never ends. Once the workers are
    gone, this process's own copy of the pipe's writing end is closed: the reader then meets the
    pipe's end, the manager takes the pool for broken, and its thread ends."""
    for proc in workers:
        proc.join(5)
        if proc.is_alive():
            proc.kill()
            proc.join(5)
    writer = getattr(answers, "_writer", None)
    if writer is not None:
        try:
            writer.close()
        except OSError:
            pass


class ThumbCache:
    """Thumbnails on disk, ``<dir>/<sha[:2]>/<sha256>-<bytes>-<edge>.png``, bounded in bytes.

    With a :attr:`pool` the reading, decoding and writing happen in its worker processes (the
    calling thread only waits); without one, in the calling thread."""

    def __init__(
        self, directory: Path | str, *, edge: int = THUMB_EDGE, max_bytes: int = DEFAULT_MAX_BYTES
    ) -> None:
        self.dir = Path(directory)
        self.edge = edge
        self.max_bytes = max_bytes
        self.pool: DecoderPool | None = None
        self._lock = threading.Lock()
        self.decodes = 0  # thumbnails decoded from media (cache misses)
        self.hits = 0  # thumbnails read back from the disk cache
        self.made_by: set[int] = set()  # the process ids that made them
        self._written = 0
        self._since_prune = 0

    def file_for(self, req: ThumbRequest) -> Path:
        return self.dir / req.sha256[:2] / f"{req.key}-{self.edge}.png"

    def cached(self, req: ThumbRequest) -> QImage | None:
        img = decode.read_cached(str(self.file_for(req)))
        if img is None:
            return None
        with self._lock:
            self.hits += 1
        return to_qimage(img)

    def read_back(self, req: ThumbRequest) -> QImage | None:
        """The thumbnail of ``req`` when it is in the disk cache, read in this thread with Qt's
        PNG reader (its use time touched), as the worker would answer it; None when it is not
        there or cannot be read (then the worker makes it again)."""
        target = self.file_for(req)
        if not target.exists():
            return None
        img = QImage(str(target))
        if img.isNull():
            return None
        fmt = (
            QImage.Format.Format_RGBA8888 if img.hasAlphaChannel() else QImage.Format.Format_RGB888
        )
        img = img.convertToFormat(fmt)
        decode._tighten(target)  # as the worker does (read_cached)
        try:
            os.utime(target)  # least recently *used* is what pruning removes
        except OSError:
            pass
        with self._lock:
            self.hits += 1
        return img

    def get(self, req: ThumbRequest) -> QImage:
        """The thumbnail of ``req`` (a null image when the file cannot be decoded). One already
        in the disk cache is read here (a small PNG: no round trip to a worker process, which
        cost the first screen of a filter most of its time on a busy machine)."""
        pool = self.pool
        if pool is not None:
            found = self.read_back(req)
            if found is not None:
                return found
        target = str(self.file_for(req))
        path = os.path.abspath(req.path)
        answer = (
            pool.thumbnail(path, req.kind, target, self.edge)
            if pool is not None
            else decode.thumbnail(path, req.kind, target, self.edge)
        )
        if answer is None:
            return QImage()
        outcome, width, height, mode, data, written, pid = answer
        with self._lock:
            self.made_by.add(pid)
            if outcome == "hit":
                self.hits += 1
            elif outcome == "decoded":
                self.decodes += 1
        if written:
            self._account(written)
        return _qimage(width, height, mode, data)

    def _account(self, size: int) -> None:
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
    """Makes thumbnails off the UI thread; newest request first; answers on the UI thread.

    Its threads hand the work to a :class:`DecoderPool` of worker processes (unless
    :func:`processes_wanted` says no, or ``processes=False``: then they decode themselves)."""

    ready = Signal(str, QImage)  # key, image (null: cannot be shown)
    _answered = Signal(str, QImage)  # from a loader thread, said as ``ready`` on the UI thread

    def __init__(
        self,
        cache: ThumbCache,
        *,
        workers: int = 2,
        backlog: int = 400,
        processes: bool | None = None,
        warm: bool = True,
        parent: QObject | None = None,
    ) -> None:
        """``warm=False``: the worker processes wait for :meth:`warm_soon` (the window, once
        its start is done) or a first request, not only the loader's age."""
        super().__init__(parent)
        # A waiting UI thread gets the interpreter lock within 1 ms instead of Python's default
        # 5 ms while the loader's threads run Python code between their C calls (latency over
        # throughput, what a desktop app wants).
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
        if processes is None:
            processes = processes_wanted()
        # The workers start a moment after the loader (a window that never shows its gallery
        # spawns nothing) or at the first request, whichever comes first.
        self.pool = DecoderPool(workers, start=False) if processes else None
        self.cache = cache
        self.backlog = backlog
        self._queue: OrderedDict[str, ThumbRequest] = OrderedDict()  # newest last
        self._running: set[str] = set()
        #: made, on their way to the UI thread: asked again meanwhile (a tile repainted before
        #: its picture came), they are not made twice
        self._sent: set[str] = set()
        self._answered.connect(self._deliver)  # queued: the loader lives on the UI thread
        self._cv = threading.Condition()
        self._closed = False
        self._warm = warm  # the workers may start WARM_START after this
        self._held: list[str] | None = None  # the requests of a batch (not yet served)
        self._threads = [
            threading.Thread(target=self._work, name=f"thumbs-{i}", daemon=True)
            for i in range(workers)
        ]
        for t in self._threads:
            t.start()

    @property
    def cache(self) -> ThumbCache:
        return self._cache

    @cache.setter
    def cache(self, cache: ThumbCache) -> None:
        """The cache the loader fills (its work goes to the loader's worker processes)."""
        if self.pool is not None and cache.pool is None:
            cache.pool = self.pool
        self._cache = cache

    def warm_soon(self) -> None:
        """Let the worker processes start a moment from now (a window's start is done: they
        never compete with its first paint)."""
        with self._cv:
            self._warm = True
            self._cv.notify_all()

    def request(self, req: ThumbRequest) -> None:
        with self._cv:
            if self._closed or req.key in self._running or req.key in self._sent:
                return
            self._queue.pop(req.key, None)
            self._queue[req.key] = req  # to the front of the line
            while len(self._queue) > self.backlog:  # long scrolled past: asked again if seen
                self._queue.popitem(last=False)
            if self._held is not None:
                self._held.append(req.key)
            else:
                self._cv.notify()

    def drop_queued(self) -> int:
        """Forget the requests not yet begun (those in flight finish): the tiles that asked for
        them are gone, and a new screen's pictures need not wait behind them. How many."""
        with self._cv:
            dropped = len(self._queue)
            self._queue.clear()
            return dropped

    @contextmanager
    def batch(self) -> Iterator[None]:
        """The requests made inside are served when it ends, in the order they would have been
        (the first asked first, as if each had been served at once): a paint asking for a
        screen of tiles is not interrupted by the loader's threads waking up for each one, and
        taking the interpreter lock from it, as it goes."""
        if self._held is not None:  # inside another batch: that one serves them
            yield
            return
        with self._cv:
            self._held = []
        try:
            yield
        finally:
            with self._cv:
                held, self._held = self._held, None
                for key in reversed(held):  # the first asked ends newest: served first
                    if key in self._queue:
                        self._queue.move_to_end(key)
                if held:
                    self._cv.notify_all()

    def pending(self) -> int:
        """Requests not yet answered on the UI thread (queued, being made, on their way)."""
        with self._cv:
            return len(self._queue) + len(self._running) + len(self._sent)

    def _deliver(self, key: str, image: QImage) -> None:
        with self._cv:
            self._sent.discard(key)
        self.ready.emit(key, image)

    def _work(self) -> None:
        # the UI thread comes first when the cores are busy (Linux: per thread); beside worker
        # processes a thread only reads back cached thumbnails, as little below as they are
        # (at NICE, other programs' load starved those reads as it had starved the workers)
        nice = NICE if self.pool is None else WORKER_NICE
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
        except (AttributeError, OSError):
            pass
        if self.pool is None:  # first imports are slow: done before the first request
            decode.warm()
        elif threading.current_thread() is self._threads[0]:
            with self._cv:
                self._cv.wait_for(lambda: self._queue or self._closed or self._warm)
                self._cv.wait_for(lambda: self._queue or self._closed, timeout=WARM_START)
                closed = self._closed
            if not closed:
                self.pool.start()
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
                    self._sent.add(key)
            if not closed:
                try:
                    self._answered.emit(key, img)
                except RuntimeError:  # the loader was deleted meanwhile
                    return

    def close(self, timeout: float = 2.0) -> None:
        with self._cv:
            self._closed = True
            self._queue.clear()
            self._cv.notify_all()
        if self.pool is not None:
            self.pool.close()
        for t in self._threads:
            t.join(timeout)
