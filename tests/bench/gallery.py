"""The results gallery over the 100,000-slot store: first thumbnails, scrolling, the thumbnail
cache build, memory.

The parent builds (or reuses) the cached big store (:mod:`tests.bench.bigstore`), copies it into
a run folder, and gives the newest successful slots real media: a small PNG per image result
and a short H.264 MP4 per video (generated once and cached under the bench folder, content
distinct per result). Then it starts the real app in a child process, offscreen, as ``slate gui``
does, with a clean settings folder and an empty thumbnail cache. The child drives the window
through its public parts (``MainWindow.show_gallery``, ``gallery_model``, ``gallery.view``,
``thumbs``) and reports:

* **first thumbnails** — from ``show_gallery(True)`` to every tile of the first screen painted
  with its picture: with an empty cache (``cold``: decoded from the media) and again after the
  gallery is reopened with the in-memory pictures dropped (``warm``: read from the disk cache).
* **scrolling** — the grid scrolled at a steady fling (one step per 16 ms frame) until result
  1,000 is on screen, pages and thumbnails loading as it goes; the Qt event loop's lag is
  measured by a 5 ms precise timer (p50/p99/max).
* **cache build** — the thumbnails of 1,000 results made into a fresh cache by the loader's
  worker threads (how long), with the loop lag meanwhile.
* **idle lag** — the same 5 ms timer with the window idle for 3 s (``--idle-seconds``; 0.5 s in
  the ``--quick`` smoke run) before all that: on a shared, busy machine the baseline says how
  much lag is not the gallery's doing.
* **RSS** — the app process's resident memory at the end (and the peak); beside it the
  thumbnail worker processes' RSS and PSS (shared pages counted once).
* **picks and boards filters** — the results' picks and boards written beside the media
  (a favourite on every 4th result, a reject on every 7th, ratings 0–5, a board of every 3rd
  result and a sparse board of the 20 oldest), then the gallery's first page and first screen
  of pictures (warm cache) with each filter chosen in the gallery's own combo boxes: favourites,
  hide rejects, four stars or more, the board, the sparse board (its results are the oldest:
  the keyset read has to reach them).
* **tiles scaled** — how many pictures were smooth-scaled into a tile over the whole run (a
  count, steadier than the times on a busy machine: a picture scaled on every paint shows here).

``python -m tests.bench.gallery [--slots 100000] [--results 1000]`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.common import (
    ROOT,
    bench_dir,
    app_env,
    compiled,
    emit,
    last_json,
    ms,
    percentile,
)

MEDIA_VERSION = 1


# ---------------------------------------------------------------------------------------- media
def media_dir(slots: int, results: int) -> Path:
    return bench_dir() / f"gallery-media-v{MEDIA_VERSION}-{slots}x{results}"


def _write_media(db_path: Path, folder: Path, want: int) -> dict[str, Any]:
    """Media rows for the newest successful slots until ``want`` results have media; the files
    are made once (cached in ``folder``) and the rows written into ``db_path``."""
    import hashlib

    from PIL import Image

    from app.sim.media import render_mp4

    db = sqlite3.connect(str(db_path), isolation_level=None)
    rows = db.execute(
        "SELECT id, kind, params FROM tasks WHERE state = 'success' ORDER BY id DESC LIMIT ?",
        (want,),
    ).fetchall()
    folder.mkdir(parents=True, exist_ok=True)
    media: list[tuple[Any, ...]] = []
    made = 0
    now = time.time()
    for task_id, kind, params in rows:
        if len(media) >= want:
            break
        if kind == "video":
            path = folder / f"{task_id}.mp4"
            if not path.exists():
                path.write_bytes(render_mp4(256, 144, 1, f"take {task_id}", fps=2, seed=task_id))
                made += 1
            data = path.read_bytes()
            media.append(
                (
                    task_id,
                    0,
                    str(path),
                    hashlib.sha256(data).hexdigest(),
                    len(data),
                    "video/mp4",
                    256,
                    144,
                    1.0,
                    now,
                )
            )
            continue
        n = int(json.loads(params).get("n", 1))
        for pos in range(n):
            path = folder / f"{task_id}-{pos}.png"
            if not path.exists():
                seed = task_id * 7 + pos
                img = Image.new("RGB", (640, 360), (seed % 251, seed * 3 % 253, seed * 5 % 255))
                for x in range(0, 640, 16):
                    img.putpixel((x, seed % 360), (255, 255, 255))
                img.save(path, "PNG")
                made += 1
            data = path.read_bytes()
            media.append(
                (
                    task_id,
                    pos,
                    str(path),
                    hashlib.sha256(data).hexdigest(),
                    len(data),
                    "image/png",
                    640,
                    360,
                    None,
                    now,
                )
            )
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO media (task_id, position, path, sha256, bytes, content_type, "
        "width, height, duration, verified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        media,
    )
    db.execute("COMMIT")
    db.close()
    return {
        "media_rows": len(media),
        "files_made": made,
        "videos": sum(1 for m in media if m[5] == "video/mp4"),
    }


BOARD, SPARSE = "Bench board", "Sparse board"
#: the filters measured (the gallery's combo values), by name
FILTERS: dict[str, dict[str, Any]] = {
    "favourite": {"pick": "favourite"},
    "unrejected": {"pick": "unrejected"},
    "rating_4": {"min_rating": 4},
    "board": {"board": BOARD},
    "sparse_board": {"board": SPARSE},
}


def _migrated(db_path: Path) -> Path:
    """The store brought to the newest revision (a cached big store may be older), as the app
    would on opening it."""
    from app.store.engine import make_engine
    from app.store.migrate import upgrade

    engine = make_engine(f"sqlite:///{db_path}")
    try:
        upgrade(engine)
    finally:
        engine.dispose()
    return db_path


def _write_picks(db_path: Path) -> dict[str, Any]:
    """Picks and boards on the results with media (the owner of the store's slots): a
    favourite on every 4th, a reject on every 7th, ratings 0–5 in turn, the board of every 3rd
    result and the sparse board of the 20 oldest."""
    db = sqlite3.connect(str(db_path), isolation_level=None)
    results = db.execute(
        "SELECT m.task_id, m.position, t.tenant, t.user_hash FROM media m "
        "JOIN tasks t ON t.id = m.task_id ORDER BY m.task_id DESC, m.position"
    ).fetchall()
    now = time.time()
    picks, items = [], []
    db.execute("BEGIN")
    if results:
        tenant, user_hash = results[0][2], results[0][3]
        for name in (BOARD, SPARSE):
            db.execute(
                "INSERT INTO boards (tenant, user_hash, name, created_at) VALUES (?, ?, ?, ?)",
                (tenant, user_hash, name, now),
            )
        ids = dict(db.execute("SELECT name, id FROM boards").fetchall())
        for i, (task_id, pos, tenant, user_hash) in enumerate(results):
            pick = "favourite" if i % 4 == 0 else "reject" if i % 7 == 3 else None
            rating = i % 6
            if pick or rating:
                picks.append((tenant, user_hash, task_id, pos, pick, rating, now))
            if i % 3 == 0:
                items.append((ids[BOARD], task_id, pos, now))
        for task_id, pos, _t, _u in results[-20:]:
            items.append((ids[SPARSE], task_id, pos, now))
    db.executemany(
        "INSERT INTO picks (tenant, user_hash, task_id, position, pick, rating, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        picks,
    )
    db.executemany(
        "INSERT INTO board_items (board_id, task_id, position, added_at) VALUES (?, ?, ?, ?)",
        items,
    )
    db.execute("COMMIT")
    db.close()
    return {"picks": len(picks), "board_items": len(items), "results": len(results)}


# ---------------------------------------------------------------------------------------- child
class TickLag:
    """A 5 ms precise QTimer; how late each tick came."""

    def __init__(self, interval_ms: int = 5) -> None:
        from app.ui.qt import Qt, QTimer

        self.interval = interval_ms / 1000.0
        self.late: list[float] = []
        self._last: float | None = None
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.late.append(max(0.0, now - self._last - self.interval))
        self._last = now

    def start(self) -> None:
        self.late, self._last = [], None
        self.timer.start()

    def stop(self) -> dict[str, Any]:
        self.timer.stop()
        late = self.late
        return {
            "ticks": len(late),
            "p50_ms": ms(percentile(late, 50)) if late else None,
            "p99_ms": ms(percentile(late, 99)) if late else None,
            "max_ms": ms(max(late)) if late else None,
            "over_16ms": sum(1 for x in late if x > 0.016),
            "over_50ms": sum(1 for x in late if x > 0.050),
        }


class Probe:
    def __init__(self, results: int, idle_seconds: float = 3.0) -> None:
        self.results = results
        self.idle_seconds = idle_seconds
        self.out: dict[str, Any] = {}
        self.window: Any = None

    def attach(self, window: Any) -> None:
        self.window = window
        asyncio.get_event_loop().create_task(self.script())

    def visible_rows(self) -> list[int]:
        return list(self.window.gallery.visible_rows())

    def pictured(self, rows: list[int]) -> bool:
        model = self.window.gallery_model
        for i in rows:
            row = model.row_at(i)
            if row is None or row.path is None or model.thumb_failed(row):
                continue
            if model.thumbnail(row, ask=False) is None:
                return False
        return True

    async def first_thumbs(self, reload: bool = False) -> dict[str, Any]:
        w = self.window
        model = w.gallery_model
        t0 = time.perf_counter()
        w.show_gallery(True)
        if reload:
            model.reload()
        while not model.started:  # the first page is in (a next one may be on its way)
            await asyncio.sleep(0.001)
        t_rows = time.perf_counter()
        while True:
            rows = self.visible_rows()
            if rows and self.pictured(rows):
                break
            await asyncio.sleep(0.001)
        t1 = time.perf_counter()
        with_media = sum(1 for i in rows if model.row_at(i).path is not None)
        return {
            "ms": ms(t1 - t0),
            "first_page_ms": ms(t_rows - t0),
            "tiles": len(rows),
            "tiles_with_pictures": with_media,
        }

    async def scroll(self) -> dict[str, Any]:
        view = self.window.gallery.view
        model = self.window.gallery_model
        bar = view.verticalScrollBar()
        lag = TickLag()
        lag.start()
        t0 = time.perf_counter()
        frames = 0
        while True:
            rows = self.visible_rows()
            if rows and rows[-1] >= self.results:
                break
            bar.setValue(bar.value() + 180)
            frames += 1
            await asyncio.sleep(0.016)
            if time.perf_counter() - t0 > 240:
                raise TimeoutError("scrolling did not reach the target")
        out = lag.stop()
        out.update(
            {
                "results_scrolled": rows[-1],
                "rows_loaded": model.rowCount(),
                "frames": frames,
                "seconds": round(time.perf_counter() - t0, 2),
                "px_per_frame": 180,
            }
        )
        return out

    async def filtered(self) -> dict[str, Any]:
        """The first page and the first screen of pictures with each picks/boards filter chosen
        in the gallery's combo boxes (the pictures held in memory dropped each time)."""
        w = self.window
        model = w.gallery_model
        filters = w.gallery.filters
        t_wait = time.perf_counter()
        while len(w.picks.boards) < 2 and time.perf_counter() - t_wait < 30:
            await asyncio.sleep(0.01)  # the boards are read at start
        ids = {b.name: b.id for b in w.picks.boards}
        out: dict[str, Any] = {}
        for name, values in FILTERS.items():
            chosen = {"pick": None, "min_rating": 0, "board": None, **values}
            if chosen["board"] is not None:
                chosen["board"] = ids.get(chosen["board"])
            model.forget_pictures()
            t0 = time.perf_counter()
            filters.set_values(**chosen)
            filters.changed.emit()  # as a choice in the combo box says it
            await asyncio.sleep(0)
            # the first page is in: the first screen is drawn from it (a filter whose results
            # fill less than the prefetch's two screens asks for the next page at once, and
            # the pictures need not wait for it)
            while not model.started:
                await asyncio.sleep(0.001)
            t_rows = time.perf_counter()
            while True:
                rows = self.visible_rows()
                if rows and self.pictured(rows):
                    break
                if not rows and not model.rowCount() and not model.loading:
                    break  # the filter chose nothing: an empty screen
                await asyncio.sleep(0.001)
            t1 = time.perf_counter()
            out[name] = {
                "ms": ms(t1 - t0),
                "first_page_ms": ms(t_rows - t0),
                "tiles": len(rows),
                "rows_loaded": model.rowCount(),
            }
        filters.set_values(None, 0, None)
        filters.changed.emit()
        while model.loading:
            await asyncio.sleep(0.001)
        return out

    async def cache_build(self, folder: Path) -> dict[str, Any]:
        from app.ui.gallery.model import thumb_request
        from app.ui.gallery.thumbs import ThumbCache

        w = self.window
        model = w.gallery_model
        loader = w.thumbs
        while loader.pending():  # what scrolling asked for is finished first, into its cache
            await asyncio.sleep(0.005)
        cache = ThumbCache(folder)
        loader.cache = cache
        loader.backlog = 100_000
        while True:
            while model.loading:
                await asyncio.sleep(0.001)
            if model.rowCount() >= self.results or not model.canFetchMore():
                break
            model.fetchMore()
        reqs = {}
        for i in range(self.results):
            r = thumb_request(model.row_at(i))
            if r is not None:
                reqs[r.key] = r
        lag = TickLag()
        lag.start()
        t0 = time.perf_counter()
        for r in reqs.values():
            loader.request(r)
        await asyncio.sleep(0)
        while loader.pending():
            await asyncio.sleep(0.005)
        seconds = time.perf_counter() - t0
        out = lag.stop()
        out.update(
            {
                "thumbnails": len(reqs),
                "decoded": cache.decodes,
                "seconds": round(seconds, 2),
                "per_thumbnail_ms": ms(seconds / max(1, len(reqs))),
                "cache_bytes": cache.size_on_disk(),
            }
        )
        return out

    async def script(self) -> None:
        import psutil

        w = self.window
        try:
            while not w.model.started:
                await asyncio.sleep(0.01)
            # the start's own work done (the service built behind the painted window, its
            # first status round and resume): the gallery is measured alone, not beside it
            await w.controller.runner.settled(60)
            await asyncio.sleep(0.5)
            out = self.out
            # the baseline: the same loop lag with the window idle (a shared, busy machine shows
            # here what is not the gallery's doing)
            lag = TickLag()
            lag.start()
            await asyncio.sleep(self.idle_seconds)
            out["idle_lag"] = lag.stop()
            out["load_average"] = [round(x, 2) for x in os.getloadavg()]
            out["first_thumbnails_cold"] = await self.first_thumbs()
            out["scroll"] = await self.scroll()
            out["rss_after_scroll_mb"] = round(psutil.Process().memory_info().rss / 2**20, 1)
            # the window's own disk cache now holds what was seen: reopen warm
            w.show_gallery(False)
            w.gallery_model.forget_pictures()
            out["first_thumbnails_warm"] = await self.first_thumbs(reload=True)
            out["filtered"] = await self.filtered()
            out["cache_build"] = await self.cache_build(Path(tempfile.mkdtemp(prefix="thumbs-")))
            await asyncio.sleep(0.3)
            out["rss_mb"] = round(psutil.Process().memory_info().rss / 2**20, 1)
            out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
            out["workers"] = workers_memory(w.thumbs)
            # pictures smooth-scaled into a tile over the whole run (a count: steadier than time)
            out["tiles_scaled"] = getattr(w.gallery.view.itemDelegate(), "scaled", None)
        except Exception as exc:  # noqa: BLE001 - report, then close the window anyway
            import traceback

            self.out["error"] = f"{type(exc).__name__}: {exc}"
            self.out["trace"] = traceback.format_exc()[-1500:]
        finally:
            w.close()


def workers_memory(loader: Any) -> dict[str, Any]:
    """The thumbnail worker processes' memory (RSS, and PSS: shared pages counted once)."""
    import psutil

    pool = getattr(loader, "pool", None)
    pids = pool.pids() if pool is not None else []
    rss = pss = 0
    for pid in pids:
        try:
            info = psutil.Process(pid).memory_full_info()
        except (psutil.Error, OSError):
            continue
        rss += info.rss
        pss += getattr(info, "pss", info.rss)
    return {
        "processes": len(pids),
        "rss_mb": round(rss / 2**20, 1),
        "pss_mb": round(pss / 2**20, 1),
    }


def child(results: int, idle_seconds: float) -> dict[str, Any]:
    from app.ui import window as window_mod

    probe = Probe(results, idle_seconds)
    original = window_mod.MainWindow.__init__

    def init(self: Any, *args: Any, **kw: Any) -> None:
        original(self, *args, **kw)
        probe.attach(self)

    window_mod.MainWindow.__init__ = init  # type: ignore[method-assign]
    from app.cli import main

    rc = main(["gui"])
    probe.out["rc"] = rc
    return probe.out


# ---------------------------------------------------------------------------------------- parent
def parent(ns: argparse.Namespace) -> dict[str, Any]:
    from tests.bench.bigstore import build

    facts = build(ns.slots, ns.events_per_slot)
    compiled()
    # enough results with media past the last tile scrolled to (the 1,000th by default)
    want = int(ns.results * ns.media_per_result)
    with tempfile.TemporaryDirectory(prefix="slate-bench-gallery-", dir=bench_dir()) as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        db = data / "slate.sqlite3"
        t0 = time.perf_counter()
        src = sqlite3.connect(facts["path"])
        dst = sqlite3.connect(str(db))
        src.backup(dst)
        src.close()
        dst.close()
        t_copy = time.perf_counter() - t0
        t0 = time.perf_counter()
        made = _write_media(db, media_dir(ns.slots, ns.results), want)
        made["picks"] = _write_picks(_migrated(db))
        made["seconds"] = round(time.perf_counter() - t0, 2)
        env = app_env(tmp, str(data), f"sqlite:///{db}", facts["tenant"], facts["user"])
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "tests.bench.gallery",
                "--child",
                str(ns.results),
                "--idle-seconds",
                str(ns.idle_seconds),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=ns.timeout,
            check=False,
        )
        shutil.rmtree(data, ignore_errors=True)
    try:
        out = last_json(proc.stdout)
    except ValueError:
        out = {
            "error": f"the app exited {proc.returncode} without a report",
            "stderr_tail": proc.stderr[-2000:],
        }
    out["store"] = {k: facts[k] for k in ("slots", "events", "cached")}
    out["store"]["copy_s"] = round(t_copy, 2)
    out["media"] = made
    cold = out.get("first_thumbnails_cold", {})
    warm = out.get("first_thumbnails_warm", {})
    scroll = out.get("scroll", {})
    build_ = out.get("cache_build", {})
    out.update(
        {
            "first_thumbnails_ms": cold.get("ms"),
            "first_thumbnails_warm_ms": warm.get("ms"),
            "idle_lag_p99_ms": out.get("idle_lag", {}).get("p99_ms"),
            "idle_lag_max_ms": out.get("idle_lag", {}).get("max_ms"),
            "scroll_lag_p99_ms": scroll.get("p99_ms"),
            "scroll_lag_max_ms": scroll.get("max_ms"),
            "cache_build_s": build_.get("seconds"),
            "cache_build_lag_p99_ms": build_.get("p99_ms"),
            "cache_build_lag_max_ms": build_.get("max_ms"),
            "workers_rss_mb": out.get("workers", {}).get("rss_mb"),
            "workers_pss_mb": out.get("workers", {}).get("pss_mb"),
            "tiles_scaled": out.get("tiles_scaled"),
        }
    )
    filtered = out.get("filtered") or {}
    times = [f.get("ms") for f in filtered.values() if isinstance(f.get("ms"), (int, float))]
    out["filtered_first_thumbnails_ms"] = max(times) if times else None
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    p.add_argument("--slots", type=int, default=100_000)
    p.add_argument("--events-per-slot", type=int, default=10)
    p.add_argument("--results", type=int, default=1000)
    p.add_argument(
        "--media-per-result",
        type=float,
        default=2.5,
        help="results given media, per result scrolled to (the --quick run asks fewer)",
    )
    p.add_argument("--idle-seconds", type=float, default=3.0, help="the idle baseline's length")
    p.add_argument("--timeout", type=float, default=600.0)
    ns = p.parse_args(argv)
    if ns.child is not None:
        emit(child(int(ns.child), ns.idle_seconds))
        return 0
    emit(parent(ns))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
