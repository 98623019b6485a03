"""The gallery's thumbnails are made in worker processes (never a thread of the app, which would
share the UI thread's interpreter lock), a worker that dies costs one thumbnail and the pool goes
on, the threaded fallback still works, and thumbnails arriving together are handed to the grid
together (one ``dataChanged`` per run of adjacent rows, a bounded number per frame)."""

from __future__ import annotations

import hashlib
import os
import signal
import sys
import time
from pathlib import Path

from app.ui.controller import Controller
from app.ui.gallery import model as gallery_model
from app.ui.gallery import thumbs
from app.ui.gallery.model import GalleryModel, thumb_request
from app.ui.gallery.thumbs import (
    DecoderPool,
    ThumbCache,
    ThumbLoader,
    ThumbRequest,
    processes_wanted,
)
from app.ui.qt import QImage, QtCore, QtGui
from tests.gui.gallery_data import PaintRegions, add_image_results, gallery_shown, png
from tests.support.fixtures import ROOT


def _requests(tmp_path, n, size=(300, 200)):
    reqs = []
    for i in range(n):
        path = tmp_path / "media" / f"{i}.png"
        sha, nbytes = png(path, i, size)
        reqs.append(ThumbRequest(str(path), sha, nbytes, "image"))
    return reqs


def test_thumbnails_are_made_in_worker_processes_not_in_the_app(gui, tmp_path):
    reqs = _requests(tmp_path, 4)
    cache = ThumbCache(tmp_path / "cache", edge=64)
    loader = ThumbLoader(cache, processes=True)
    try:
        assert loader.pool is not None and cache.pool is loader.pool
        got: dict[str, QImage] = {}
        loader.ready.connect(lambda key, img: got.__setitem__(key, img))
        for r in reqs:
            loader.request(r)
        gui.until(lambda: len(got) == 4, what="thumbnails")
        assert all(
            not img.isNull() and max(img.width(), img.height()) == 64 for img in got.values()
        )
        assert cache.decodes == 4 and cache.hits == 0
        assert cache.made_by and os.getpid() not in cache.made_by
        assert cache.made_by <= set(loader.pool.pids())
        assert all(cache.file_for(r).is_file() for r in reqs)  # the disk cache as before
        # a cache given to the loader later (a second gallery) uses the same workers
        other = ThumbCache(tmp_path / "other", edge=64)
        loader.cache = other
        assert other.pool is loader.pool
    finally:
        loader.close()


def test_the_workers_start_unasked_a_moment_after_the_loader_not_with_it(
    gui, tmp_path, monkeypatch
):
    monkeypatch.setattr(thumbs, "WARM_START", 0.1)
    quick = ThumbLoader(ThumbCache(tmp_path / "a"), processes=True)
    assert not quick.pool.started  # a window closed at once spawned nothing
    quick.close()
    # the loader's threads ended: the one that starts the workers is gone, and did not
    gui.until(lambda: not any(t.is_alive() for t in quick._threads), what="threads ended")
    assert not quick.pool.started
    loader = ThumbLoader(ThumbCache(tmp_path / "b"), processes=True)
    try:
        gui.until(lambda: loader.pool.started and len(loader.pool.pids()) == 2, what="workers")
    finally:
        loader.close()


def _parked_until_warned(loader: ThumbLoader) -> bool:
    """The loader's first thread is blocked in the condition wait that has no timeout and ends
    on the warning (``_warm``): only ``warm_soon``, a request or ``close`` wakes it."""
    frame = sys._current_frames().get(loader._threads[0].ident or -1)
    if frame is None or frame.f_code.co_name != "wait":  # not (yet) blocked in Condition.wait
        return False
    caller = frame.f_back
    if caller is None or caller.f_code.co_name != "wait_for":
        return False
    predicate = caller.f_locals.get("predicate")
    untimed = caller.f_locals.get("timeout") is None
    return untimed and predicate is not None and "_warm" in predicate.__code__.co_names


def test_a_windows_workers_wait_for_its_start_to_be_done(gui, tmp_path, monkeypatch):
    """The app's window makes its loader with ``warm=False``: on a busy machine the window's
    start can outlast WARM_START, and the workers' spawn then competed with its first paint
    (the start-up import guard saw multiprocessing before the first Show). They start a
    moment after ``warm_soon`` (the window's ``finish_start``), or at a first request."""
    monkeypatch.setattr(thumbs, "WARM_START", 0.0)  # a warned loader's workers start at once
    loader = ThumbLoader(ThumbCache(tmp_path / "a"), processes=True, warm=False)
    try:
        # the thread that starts the workers waits, with no deadline, for the warning or a
        # request: parked there, it starts nothing until warm_soon
        gui.until(lambda: _parked_until_warned(loader), what="the starter parked")
        assert not loader.pool.started
        loader.warm_soon()
        gui.until(lambda: loader.pool.started and len(loader.pool.pids()) == 2, what="workers")
    finally:
        loader.close()


def test_a_worker_that_dies_costs_one_thumbnail_and_the_pool_starts_again(tmp_path):
    reqs = _requests(tmp_path, 3)
    cache = ThumbCache(tmp_path / "cache", edge=64)
    pool = DecoderPool(2)
    cache.pool = pool
    try:
        assert not cache.get(reqs[0]).isNull()
        pids = pool.pids()
        assert len(pids) == 2
        for pid in pids:  # as a decoder crashing on a hostile file would
            os.kill(pid, signal.SIGKILL)
        assert cache.get(reqs[1]).isNull()  # that one is lost ("cannot show")...
        assert pool.restarts == 1
        img = cache.get(reqs[2])  # ...and the next one is made by new workers
        assert not img.isNull() and max(img.width(), img.height()) == 64
        assert set(pool.pids()).isdisjoint(pids)
    finally:
        pool.close()
    assert cache.get(reqs[1]).isNull()  # a closed pool answers nothing, never hangs


def test_without_processes_the_loader_threads_decode_as_before(gui, tmp_path, monkeypatch):
    reqs = _requests(tmp_path, 2)
    cache = ThumbCache(tmp_path / "cache", edge=64)
    loader = ThumbLoader(cache, processes=False)
    try:
        assert loader.pool is None and cache.pool is None
        got: dict[str, QImage] = {}
        loader.ready.connect(lambda key, img: got.__setitem__(key, img))
        for r in reqs:
            loader.request(r)
        gui.until(lambda: len(got) == 2, what="thumbnails")
        assert cache.made_by == {os.getpid()} and cache.decodes == 2
    finally:
        loader.close()
    monkeypatch.delenv("SLATE_THUMB_PROCESSES", raising=False)
    assert processes_wanted()
    monkeypatch.setenv("SLATE_THUMB_PROCESSES", "0")
    assert not processes_wanted()
    monkeypatch.delenv("SLATE_THUMB_PROCESSES")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert not processes_wanted()  # a bundle's entry point does not serve spawned children


def _picture(seed: int) -> QImage:
    img = QImage(32, 18, QImage.Format.Format_RGB888)
    img.fill(0x102030 + seed)
    return img


def test_thumbnails_arriving_together_are_one_hand_off(gui, tmp_path, monkeypatch):
    add_image_results(gui.service, tmp_path, 40)
    controller = Controller(gui.service)
    loader = ThumbLoader(ThumbCache(tmp_path / "cache"), processes=False)
    model = GalleryModel(controller, loader)
    try:
        model.reload()
        gui.until(lambda: model.started and not model.loading, what="first page")
        assert model.rowCount() == 40
        changed: list[tuple[int, int]] = []
        model.dataChanged.connect(lambda a, b, roles: changed.append((a.row(), b.row())))
        keys = [thumb_request(model.row_at(i)).key for i in range(40)]
        # rows 0-9 and 20-24 arrive within one frame (the grid's repaint comes once)
        for i in [*range(10), *range(20, 25)]:
            loader.ready.emit(keys[i], _picture(i))
        assert changed == [] and model.thumbs_shown() == 0  # not yet: one hand-off per frame
        gui.until(lambda: model.thumbs_shown() == 15, what="hand-off")
        assert sorted(changed) == [(0, 9), (20, 24)]  # one signal per run of adjacent rows
        assert model.handoffs == 2
        # a burst larger than a frame's batch is spread over frames
        changed.clear()
        monkeypatch.setattr(gallery_model, "HANDOFF_BATCH", 4)
        for i in range(30, 40):
            loader.ready.emit(keys[i], _picture(i))
        gui.until(lambda: model.thumbs_shown() == 25, what="hand-offs")
        assert sorted(changed) == [(30, 33), (34, 37), (38, 39)]
        # a thumbnail that could not be made shows "cannot show", without a new request
        loader.ready.emit(keys[10], QImage())
        gui.until(lambda: model.thumb_failed(model.row_at(10)), what="failed")
        assert model.thumbnail(model.row_at(10)) is None and loader.pending() == 0
    finally:
        loader.close()
        gui.run(controller.aclose())


QRegion = QtGui.QRegion


def test_an_arrived_picture_repaints_only_its_tile(gui, make_window, tmp_path):
    window = gallery_shown(gui, make_window, tmp_path, 30)
    model, view = window.gallery_model, window.gallery.view
    paints = PaintRegions()
    view.viewport().installEventFilter(paints)
    rows = window.gallery.visible_rows()
    assert len(rows) >= 8
    keys = [thumb_request(model.row_at(i)).key for i in (rows[2], rows[3])]
    for key in keys:  # two adjacent tiles get new pictures in one hand-off
        window.thumbs.ready.emit(key, _picture(7))
    gui.until(lambda: paints.regions, what="repaint")
    gui.drained(view)  # both tiles' repaints done
    damaged = QRegion()
    for r in paints.regions:
        damaged += r
    tiles = QRegion(view.visualRect(model.index(rows[2]))) + QRegion(
        view.visualRect(model.index(rows[3]))
    )
    assert damaged == tiles  # not the whole viewport
    view.viewport().removeEventFilter(paints)


def test_opening_the_gallery_reads_its_first_page_once(gui, make_window, tmp_path):
    add_image_results(gui.service, tmp_path, 5)
    window = make_window()
    reader = window.gallery_model.controller.reader
    reads: list[object] = []
    real = reader.results

    def counting(*args, **kw):
        reads.append(args)
        return real(*args, **kw)

    reader.results = counting
    try:
        window.show_gallery(True)
        model = window.gallery_model
        gui.until(lambda: model.started and not model.loading and model.rowCount() == 5)
        gui.quiet(window)  # the window's reads done: a second one would have been made
        assert len(reads) == 1  # the window's reload and its scope did not both read it
    finally:
        del reader.results


def test_the_next_page_is_read_before_the_bottom_is_reached(
    gui, make_window, tmp_path, monkeypatch
):
    add_image_results(gui.service, tmp_path, 200)
    monkeypatch.setattr(gallery_model, "FIRST_PAGE", 150)
    window = make_window()
    window.resize(1360, 820)
    window.show()
    window.gallery_model.page = 150
    window.show_gallery(True)
    model, view = window.gallery_model, window.gallery.view
    gui.until(lambda: model.started and not model.loading, what="first page")
    first = model.rowCount()
    bar = view.verticalScrollBar()
    gui.until(lambda: bar.maximum() > 3 * view.viewport().height(), what="layout")
    # one screen down: nothing more is read yet
    bar.setValue(view.viewport().height())
    gui.quiet(window)  # what the scroll started is done
    assert model.rowCount() == first
    # two screens before the bottom (not at it): the next page comes
    ahead = 2 * view.viewport().height() - 10
    bar.setValue(bar.maximum() - ahead)
    assert bar.value() < bar.maximum()
    gui.until(lambda: model.rowCount() > first and not model.loading, what="next page")


def _mode(path) -> int:
    return os.stat(path).st_mode & 0o777


def test_thumbnails_are_private_whatever_the_umask(tmp_path, monkeypatch):
    """Issue 24, point 13: thumbnails were 0644 in 0755 folders under umask 022 (the media they
    show are 0600) — in the data dir's cache and in the platform's (``~/.cache/Slate``). Now
    owner-only (0600/0700) in both, made by a decoder process or in the calling thread, and a
    thumbnail an older Slate left readable is tightened when it is read back."""
    import platformdirs

    data = tmp_path / "data"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(data))
    reqs = _requests(tmp_path, 3)
    old = os.umask(0o022)
    try:
        platform = thumbs.default_cache_dir(data)  # the default data dir: the platform's cache
        assert platform == tmp_path / "xdg-cache" / "Slate" / "thumbnails"
        own = thumbs.default_cache_dir(tmp_path / "chosen")  # a chosen data dir: a cache in it
        assert own == tmp_path / "chosen" / "cache" / "thumbnails"
        pool = DecoderPool(1)
        try:
            for where, pooled in ((platform, None), (own, None), (own, pool)):
                cache = ThumbCache(where, edge=64)
                cache.pool = pooled
                req = reqs[2] if pooled else reqs[0 if where == platform else 1]
                assert not cache.get(req).isNull()
                f = cache.file_for(req)
                assert _mode(f) == 0o600, (where, oct(_mode(f)))
                assert _mode(f.parent) == 0o700 and _mode(where) == 0o700, where
                assert _mode(where.parent) == 0o700, where.parent  # Slate/ or cache/, made here
        finally:
            pool.close()
        # a cache file and its folders as an older Slate left them, read back: tightened
        cache = ThumbCache(own, edge=64)
        f = cache.file_for(reqs[1])
        os.chmod(f, 0o644)
        os.chmod(f.parent, 0o755)
        os.chmod(own, 0o755)
        assert not cache.get(reqs[1]).isNull() and cache.hits == 1
        assert (_mode(f), _mode(f.parent), _mode(own)) == (0o600, 0o700, 0o700)
    finally:
        os.umask(old)


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper has ended)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return not any(ln.startswith("State:\tZ") for ln in status)
    except FileNotFoundError:
        return False


def test_the_workers_end_with_the_app_however_it_ends(tmp_path):
    """An app killed outright (``kill -9``, a crash, a watchdog's exit) leaves no decoder
    process behind: each notices within a second or so that its app is gone. A pool's worker
    holds both ends of its own queue, so it would otherwise wait for work for ever — and hold
    the app's stdout and stderr open for whoever reads them."""
    import subprocess
    import time

    app = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time\nfrom app.ui.gallery.thumbs import DecoderPool\npool = DecoderPool(2)\n"
            "pool.start()\ndeadline = time.monotonic() + 60\n"
            "while len(pool.pids()) < 2 and time.monotonic() < deadline: time.sleep(0.05)\n"
            "print(*pool.pids(), flush=True)\ntime.sleep(600)\n",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert app.stdout is not None
        pids = [int(p) for p in app.stdout.readline().split()]
        assert len(pids) == 2 and all(_alive(p) for p in pids), pids
    finally:
        app.kill()
        app.wait(30)
    deadline = time.monotonic() + 60  # bounds a hang only: they end within PARENT_CHECK
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in pids if _alive(p)], "decoder processes outlived their app"


def test_a_cached_thumbnail_is_read_back_in_the_app_as_the_worker_answers_it(gui, tmp_path):
    """A thumbnail already in the disk cache is read in the loader's thread (no round trip to a
    worker process): the same picture, in the same format, as the worker's answer."""
    from PIL import Image

    reqs = _requests(tmp_path, 2)
    clear = tmp_path / "media" / "alpha.png"  # a picture with transparency stays RGBA
    img = Image.new("RGBA", (120, 80), (10, 200, 30, 90))
    img.putpixel((5, 5), (255, 255, 255, 0))
    img.save(clear, "PNG")
    data = clear.read_bytes()
    reqs.append(ThumbRequest(str(clear), hashlib.sha256(data).hexdigest(), len(data), "image"))
    threaded = ThumbCache(tmp_path / "cache", edge=64)  # no pool: Pillow reads it back
    made = [threaded.get(r) for r in reqs]
    answered = [threaded.get(r) for r in reqs]
    assert threaded.decodes == 3 and threaded.hits == 3
    pool = DecoderPool(1)
    try:
        cache = ThumbCache(tmp_path / "cache", edge=64)
        cache.pool = pool
        read = [cache.get(r) for r in reqs]
    finally:
        pool.close()
    assert cache.hits == 3 and cache.decodes == 0 and not cache.made_by  # no worker asked
    for a, b, c in zip(made, answered, read, strict=True):
        assert not c.isNull() and c.format() == b.format() == a.format() and c == b == a
    assert read[-1].format() == QImage.Format.Format_RGBA8888
    assert read[0].format() == QImage.Format.Format_RGB888
    cache.file_for(reqs[0]).write_bytes(b"not a png")
    assert cache.read_back(reqs[0]) is None  # a damaged file: the worker makes it again


def _recording(folder: Path, made: list[str]) -> ThumbCache:
    """A cache that makes a plain picture for each request and notes its path in ``made``."""

    class Recording(ThumbCache):
        def get(self, req: ThumbRequest) -> QImage:
            made.append(req.path)
            return _picture(len(made))

    return Recording(folder)


def test_requests_in_a_batch_are_served_when_it_ends_the_first_asked_first(gui, tmp_path):
    """A paint asks for a screen of pictures in one batch: the loader's threads are not woken
    for each, and they serve them in the order asked, as if each had been served at once."""
    served: list[str] = []
    loader = ThumbLoader(_recording(tmp_path / "cache", served), workers=1, processes=False)
    try:
        got: list[str] = []
        loader.ready.connect(lambda key, img: got.append(key))
        reqs = [ThumbRequest(f"/media/{i}.png", f"{i:064x}", 100 + i, "image") for i in range(5)]
        loader.request(reqs[0])  # the thread has started and waits for work
        gui.until(lambda: len(got) == 1, what="the first thumbnail")
        with loader.batch():
            for r in reqs[1:]:
                loader.request(r)
            with loader.batch():  # nested: the outer one serves them
                loader.request(reqs[1])
            assert loader.pending() == 4 and served == [reqs[0].path]
        gui.until(lambda: len(got) == 5, what="the batch")
        assert served == [r.path for r in reqs]
    finally:
        loader.close()


def test_a_picture_on_its_way_is_not_made_again_when_asked_meanwhile(gui, tmp_path):
    """A tile repainted before its picture reached the UI thread asks again: the loader does
    not make it a second time, and answers it once."""
    made: list[str] = []
    loader = ThumbLoader(_recording(tmp_path / "cache", made), workers=1, processes=False)
    try:
        got: list[str] = []
        loader.ready.connect(lambda key, img: got.append(key))
        req = ThumbRequest("/media/0.png", f"{0:064x}", 100, "image")
        loader.request(req)
        deadline = time.monotonic() + 30
        while not (made and loader._sent) and time.monotonic() < deadline:
            time.sleep(0.001)  # made, not yet delivered: the UI thread's events not run
        assert made == [req.path] and got == [] and loader.pending() == 1
        loader.request(req)  # its tile painted again meanwhile
        gui.until(lambda: got, what="the picture")
        gui.until(lambda: loader.pending() == 0, what="the request done")
        assert made == [req.path] and got == [req.key] and loader.pending() == 0
    finally:
        loader.close()


def test_a_new_scope_drops_the_old_rows_pictures_not_yet_begun(gui, tmp_path):
    add_image_results(gui.service, tmp_path, 6)
    controller = Controller(gui.service)
    loader = ThumbLoader(ThumbCache(tmp_path / "cache"), workers=0, processes=False)
    model = GalleryModel(controller, loader)
    try:
        model.reload()
        gui.until(lambda: model.started and not model.loading, what="first page")
        for i in range(6):
            assert model.thumbnail(model.row_at(i)) is None  # asked (no thread serves them)
        assert loader.pending() == 6
        model.reload()
        assert loader.pending() == 0
        gui.until(lambda: model.started and not model.loading, what="first page again")
        assert model.thumbnail(model.row_at(0)) is None and loader.pending() == 1
    finally:
        loader.close()
        gui.run(controller.aclose())


def test_a_new_filters_first_screen_is_asked_for_before_the_grid_paints(gui, make_window, tmp_path):
    """The pictures of the tiles a filter's first page puts on screen are asked for when the
    page arrives, before the grid's first paint of it asks for them."""
    window = gallery_shown(gui, make_window, tmp_path, 30)
    model = window.gallery_model
    loader = model.loader
    view = window.gallery.view
    asked: list[str] = []
    real = loader.request

    def recording(req: ThumbRequest) -> None:
        asked.append(req.key)
        real(req)

    loader.request = recording
    at_paint: list[list[str]] = []

    class Paints(QtCore.QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QtCore.QEvent.Type.Paint and model.rowCount() and not at_paint:
                at_paint.append(list(asked))
            return False

    paints = Paints()
    view.viewport().installEventFilter(paints)
    try:
        model.forget_pictures()
        window.gallery.filters.set_values(None, 0, None)
        model.reload()
        gui.until(lambda: model.started and window.gallery.pictures_shown(), what="pictures")
        on_screen = {thumb_request(model.row_at(i)).key for i in window.gallery.visible_rows()}
        assert on_screen and at_paint
        assert on_screen <= set(at_paint[0])  # every one asked before the first paint
    finally:
        view.viewport().removeEventFilter(paints)
        del loader.request


def test_a_half_written_answer_does_not_keep_the_app_from_ending(tmp_path):
    """A worker ended while it wrote its answer (a close that terminates it at that moment)
    left half a message in the answers' pipe: the pool's manager thread waited for the rest
    for ever, and the process (the app, a test worker, ``--describe``) for that thread at exit.
    Closing the pool lets that thread end."""
    import struct

    pool = DecoderPool(1)
    reqs = _requests(tmp_path, 1)
    cache = ThumbCache(tmp_path / "cache", edge=64)
    cache.pool = pool
    try:
        assert not cache.get(reqs[0]).isNull()  # the worker is up and has answered
        ex = pool._executor
        assert ex is not None
        manager = ex._executor_manager_thread
        assert manager is not None and manager.is_alive()
        # what a worker killed mid-answer leaves: a length, then only part of the bytes
        os.write(ex._result_queue._writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)
    finally:
        pool.close()
    manager.join(30)  # bounds a hang only
    assert not manager.is_alive(), "the pool's manager thread still waits for the answer's rest"
