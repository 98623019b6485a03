"""Figures 4, 5 and 8: the desktop app on the 100,000-slot / 1,000,000-event store.

The parent builds (or reuses) the cached store (:mod:`tests.bench.bigstore`), then starts the
real app in a child process, offscreen, exactly as ``slate gui`` does (``app.cli.main``), with
a clean settings folder and the demo provider. The child watches the main window through its
public classes only (``MainWindow``, its ``SlotTreeModel``, ``SlotBrowser`` and ``CurrentSlot``;
nothing in ``app/ui`` is changed) and reports:

* **cold start** — from the parent's ``Popen`` to the first rows of the slot tree on screen:
  inserted while the window is visible, or — when the page read ahead from the file was in
  before the window was shown — the tree's first paint (the project groups, newest first);
  and, right after, the newest project's newest day opened down to its first slot rows (two
  more SQL pages).
* **first rows** — inside the app: from the window's creation to its first tree rows.
* **filter by text** — typing into the search box and applying (the 250 ms debounce is
  skipped and reported as a constant) until the filtered tree's first rows are in (a text
  that matches about 5 % of the prompts), or the tree is known to be empty (a text that
  matches nothing: the worst case, every row is read).
* **slot history** — selecting a slot until its record and events (10 here) arrived.
* **RSS** — the process's resident memory after all that (and the peak, ``ru_maxrss``).
* **the floor** — the same clock for a bare Qt window (import PySide6, a ``QApplication``, a
  main window holding a tree view, shown, a row inserted), started between Slate's runs: what
  any PySide6 app pays on this machine at this moment (``cold_start_floor_s``), and Slate's
  cold start over it (``cold_start_over_floor``).

The child closes its window at the end, so the app shuts down as a user would close it.

``python -m tests.bench.gui [--slots 100000] [--runs 3]`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

from tests.bench.common import ROOT, app_env, child_env, compiled, emit, last_json

DEBOUNCE_MS = 250


# ---------------------------------------------------------------------------------------- child
def _first_paint_filter(seen: Callable[[], None]) -> Any:
    """An event filter calling ``seen`` at the first Paint event of the widget it watches."""
    from app.ui.qt import QEvent, QObject

    class FirstPaint(QObject):
        def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint:
                obj.removeEventFilter(self)
                seen()
            return False

    return FirstPaint()


class Probe:
    """Watches one MainWindow through its public signals."""

    def __init__(self, facts: dict[str, Any]) -> None:
        self.facts = facts
        self.window: Any = None
        self.out: dict[str, Any] = {}
        self.t_window: float | None = None
        self.first_rows = asyncio.Event()
        self._painted: Any = None

    def attach(self, window: Any) -> None:
        self.window = window
        self.t_window = time.time()
        if window.model.rowCount():  # in with the window (read ahead): seen at its first paint
            self._painted = _first_paint_filter(self._first)
            window.browser.tree.viewport().installEventFilter(self._painted)
        else:
            window.model.rowsInserted.connect(self._rows)
        asyncio.get_event_loop().create_task(self.script())

    def _rows(self, parent: Any, _first: int, _last: int) -> None:
        if not parent.isValid() and self.window.isVisible():
            self._first()

    def _first(self) -> None:
        """The first rows are on screen: inserted while the window is shown, or the slot tree's
        first paint when they were in before the window was shown."""
        if "t_first_rows" not in self.out:
            self.out["t_first_rows"] = time.time()
            self.first_rows.set()

    async def wait_for(
        self, signal: Any, check: Callable[..., bool], timeout: float = 60.0
    ) -> float:
        """Seconds until ``signal`` fires with arguments that pass ``check``."""
        loop = asyncio.get_event_loop()
        fut: asyncio.Future[float] = loop.create_future()

        def on(*args: Any) -> None:
            if not fut.done() and check(*args):
                fut.set_result(time.perf_counter())

        signal.connect(on)
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            signal.disconnect(on)

    async def open_first(self, parent: Any) -> float:
        """Fetch the first child page of ``parent`` (what expanding it does); seconds taken."""
        model = self.window.model
        if model.rowCount(parent) > 0:
            return 0.0
        t0 = time.perf_counter()
        waiter = asyncio.ensure_future(
            self.wait_for(
                model.rowsInserted,
                lambda p, *_: (
                    p == parent or (p.isValid() and p.internalPointer() is parent.internalPointer())
                ),
            )
        )
        await asyncio.sleep(0)
        if model.canFetchMore(parent):
            model.fetchMore(parent)
        t1 = await waiter
        return t1 - t0

    async def apply_text(self, text: str) -> dict[str, Any]:
        """Type ``text`` into the search box and apply it; time to rows (or to an empty tree)."""
        from app.ui.qt import QModelIndex

        w = self.window
        model = w.model
        root = QModelIndex()
        t0 = time.perf_counter()
        rows = asyncio.ensure_future(
            self.wait_for(model.rowsInserted, lambda p, *_: not p.isValid())
        )
        idle = asyncio.ensure_future(self.wait_for(model.loadingChanged, lambda busy: not busy))
        w.browser.search.setText(text)
        w.browser.apply_filter()
        await asyncio.sleep(0)
        if model.canFetchMore(root):
            model.fetchMore(root)
        await asyncio.wait({rows, idle}, return_when=asyncio.FIRST_COMPLETED, timeout=60)
        # "idle" may fire first for the reset itself; wait until the load really ended.
        while not rows.done() and model.loading:
            await asyncio.wait({rows}, timeout=0.005)
        t1 = time.perf_counter()
        for f in (rows, idle):
            f.cancel()
        out: dict[str, Any] = {"ms": round((t1 - t0) * 1000, 2), "groups": model.rowCount(root)}
        if model.rowCount(root):
            project = model.index(0, 0, root)
            a = await self.open_first(project)
            day = model.index(0, 0, project)
            b = await self.open_first(day) if day.isValid() else 0.0
            out["to_slots_ms"] = round((t1 - t0 + a + b) * 1000, 2)
            out["slots_shown"] = model.rowCount(day) if day.isValid() else 0
        return out

    async def script(self) -> None:
        import psutil

        from app.ui.qt import QModelIndex

        w = self.window
        model = w.model
        try:
            await asyncio.wait_for(self.first_rows.wait(), 120)
            out = self.out
            out["first_rows_in_app_ms"] = round(
                (out["t_first_rows"] - (self.t_window or 0)) * 1000, 2
            )
            root = QModelIndex()
            out["projects_shown"] = model.rowCount(root)
            project = model.index(0, 0, root)
            a = await self.open_first(project)
            day = model.index(0, 0, project)
            b = await self.open_first(day)
            out["t_first_slots"] = time.time()
            out["first_slots_after_rows_ms"] = round((a + b) * 1000, 2)
            out["slots_shown"] = model.rowCount(day)
            out["rss_after_first_rows_mb"] = round(psutil.Process().memory_info().rss / 2**20, 1)
            # the start's own work done (the service built, its first status round, resume
            # sweep and the gallery's first page): the filter is timed alone, not beside it
            await w.controller.runner.settled(60)
            out["filter_hit"] = await self.apply_text(self.facts["search_hit"])
            out["filter_miss"] = await self.apply_text(self.facts["search_miss"])
            out["filter_clear"] = await self.apply_text("")
            # A slot's record and history (the right pane).
            project = model.index(0, 0, root)
            await self.open_first(project)
            day = model.index(0, 0, project)
            await self.open_first(day)
            slot = model.index(0, 0, day)
            from app.ui.models import RequestIdRole

            rid = slot.data(RequestIdRole)
            t0 = time.perf_counter()
            loaded = asyncio.ensure_future(
                self.wait_for(w.controller.slotLoaded, lambda r, *_: r == rid)
            )
            await asyncio.sleep(0)
            w.select(rid)
            t1 = await loaded
            out["history_ms"] = round((t1 - t0) * 1000, 2)
            out["history_events"] = len(w.slot.events)
            await asyncio.sleep(0.5)
            out["rss_mb"] = round(psutil.Process().memory_info().rss / 2**20, 1)
            out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        except Exception as exc:  # noqa: BLE001 - report, then close the window anyway
            self.out["error"] = f"{type(exc).__name__}: {exc}"
        finally:
            w.close()


def child(facts: dict[str, Any]) -> dict[str, Any]:
    t_main = time.time()
    # started as `python -m app` starts (app/__main__.py): the command line's modules load with
    # the cycle collector off and are then frozen; the window's modules load with automatic
    # collection off too (the app's MainThreadCollector turns it off before they are imported)
    gc.disable()
    try:
        import app.cli

        app.cli.FREEZE_LOADED = True
        gc.freeze()
        from app.ui import window as window_mod
    finally:
        gc.enable()

    probe = Probe(facts)
    original = window_mod.MainWindow.__init__

    def init(self: Any, *args: Any, **kw: Any) -> None:
        original(self, *args, **kw)
        probe.attach(self)

    window_mod.MainWindow.__init__ = init  # type: ignore[method-assign]
    from app.cli import main

    rc = main(["gui"])
    out = probe.out
    out["rc"] = rc
    out["t_main"] = t_main
    out["t_window"] = probe.t_window
    out["t_exit"] = time.time()
    return out


#: The floor: a bare PySide6 window with a tree, timed as Slate is (from the parent's spawn to
#: the first row inserted while the window is shown).
FLOOR = r"""
import json, sys, time
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QMainWindow, QTreeView

app = QApplication([])
window = QMainWindow()
tree = QTreeView()
model = QStandardItemModel()
tree.setModel(model)
window.setCentralWidget(tree)
seen = {}
model.rowsInserted.connect(lambda *_: window.isVisible() and seen.setdefault("t", time.time()))
window.show()
model.appendRow(QStandardItem("first"))
app.processEvents()
print(json.dumps({"t_first_rows": seen.get("t")}))
"""


def floor_run(timeout: float) -> float | None:
    """Seconds from spawn to the bare window's first row (None when it failed)."""
    t_spawn = time.time()
    proc = subprocess.run(
        [sys.executable, "-c", FLOOR],
        cwd=ROOT,
        env=child_env({}),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    try:
        t = last_json(proc.stdout).get("t_first_rows")
    except ValueError:
        return None
    return round(t - t_spawn, 3) if isinstance(t, (int, float)) else None


# ---------------------------------------------------------------------------------------- parent
def one_run(facts: dict[str, Any], timeout: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="slate-bench-gui-") as tmp:
        env = app_env(tmp, facts["data_dir"], facts["store"], facts["tenant"], facts["user"])
        t_spawn = time.time()
        proc = subprocess.run(
            [sys.executable, "-m", "tests.bench.gui", "--child", json.dumps(facts)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    try:
        out = last_json(proc.stdout)
    except ValueError:
        return {
            "error": f"the app exited {proc.returncode} without a report",
            "stderr_tail": proc.stderr[-2000:],
        }
    if "t_first_rows" in out:
        out["cold_start_s"] = round(out["t_first_rows"] - t_spawn, 3)
        out["interpreter_and_imports_s"] = round(out["t_main"] - t_spawn, 3)
        out["to_window_s"] = round((out["t_window"] or t_spawn) - t_spawn, 3)
    if "t_first_slots" in out:
        out["cold_start_to_slots_s"] = round(out["t_first_slots"] - t_spawn, 3)
    for k in [k for k in out if k.startswith("t_")]:
        out.pop(k)
    if proc.returncode != 0:
        out.setdefault("error", f"the app exited {proc.returncode}")
        out["stderr_tail"] = proc.stderr[-2000:]
    return out


def _median(runs: list[dict[str, Any]], *path: str) -> float | None:
    vals = []
    for r in runs:
        v: Any = r
        for p in path:
            v = v.get(p) if isinstance(v, dict) else None
        if isinstance(v, (int, float)):
            vals.append(float(v))
    return round(statistics.median(vals), 3) if vals else None


def parent(ns: argparse.Namespace) -> dict[str, Any]:
    from tests.bench.bigstore import build

    facts = build(ns.slots, ns.events_per_slot)
    compiled()
    runs, floors = [], []
    for _ in range(ns.runs):  # interleaved: the floor is measured in the same minutes
        floors.append(floor_run(ns.timeout))
        runs.append(one_run(facts, ns.timeout))
    ok = [r for r in runs if "error" not in r]
    floor = statistics.median(f for f in floors if f is not None) if any(floors) else None
    cold = _median(ok, "cold_start_s")
    rss = [r["rss_mb"] for r in ok if "rss_mb" in r]
    return {
        "store": {k: facts[k] for k in ("slots", "events", "bytes", "build_s", "cached")},
        "runs": runs,
        "cold_start_s": cold,
        "cold_start_floor_s": floor,
        "cold_start_floors_s": floors,
        "cold_start_over_floor": round(cold / floor, 2) if cold and floor else None,
        "cold_start_to_slots_s": _median(ok, "cold_start_to_slots_s"),
        "first_rows_ms": _median(ok, "first_rows_in_app_ms"),
        "first_slots_after_rows_ms": _median(ok, "first_slots_after_rows_ms"),
        "filter_text_ms": _median(ok, "filter_hit", "ms"),
        "filter_text_to_slots_ms": _median(ok, "filter_hit", "to_slots_ms"),
        "filter_text_no_match_ms": _median(ok, "filter_miss", "ms"),
        "filter_clear_ms": _median(ok, "filter_clear", "ms"),
        "history_ms": _median(ok, "history_ms"),
        "rss_mb": max(rss) if rss else None,
        "peak_rss_mb": max((r["peak_rss_mb"] for r in ok if "peak_rss_mb" in r), default=None),
        "search_debounce_ms": DEBOUNCE_MS,
        "errors": [r["error"] for r in runs if "error" in r],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    p.add_argument("--slots", type=int, default=100_000)
    p.add_argument("--events-per-slot", type=int, default=10)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--timeout", type=float, default=180.0)
    ns = p.parse_args(argv)
    if ns.child is not None:
        emit(child(json.loads(ns.child)))
        return 0
    emit(parent(ns))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
