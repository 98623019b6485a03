"""What one main window costs in CPU (issues 34 and 38): built, shown to its first paint, closed.

Offscreen, in this process, on a service wired as the GUI tests' ``gui`` fixture wires it (a
migrated SQLite store, the demo provider over loopback). Each window is made as ``make_window``
makes it (``MainWindow(controller, settings)``: a whole window), shown until its first Paint
event, then closed, deleted and its cycles freed. The figures are CPU seconds of this process
(``time.process_time``), medians after two windows of warm-up:

* **build** — ``MainWindow(...)``;
* **paint** — ``show()`` to the window's first Paint event (layouts, polish, the first paint);
* **close** — ``close()``, ``deleteLater()``, the deferred delete and a collection.

``--against PATH`` builds, alternately with this tree's window, the ``MainWindow`` of another
``app/ui/window.py`` (e.g. an older commit's, exported with ``git archive``; the rest of ``app``
is this tree's): paired in one process, the two are compared under the same load, which two
separate runs on a shared machine are not.

``python -m tests.bench.window [--windows 20] [--against PATH]`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.common import emit, ms


def _window_class(path: str | None) -> Any:
    if path is None:
        from app.ui.window import MainWindow

        return MainWindow
    spec = importlib.util.spec_from_file_location("app.ui._window_against", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.MainWindow


def _until(app: Any, fut: Any) -> None:
    while not fut.done():
        app.processEvents()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--windows", type=int, default=20, help="windows measured (per kind)")
    parser.add_argument("--against", default=None, help="another window.py, built alternately")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    import qasync

    from app.providers.minimax import MiniMaxProvider
    from app.service.slate import SlateService
    from app.sim import start_sim
    from app.store.aio import open_store
    from app.ui.controller import Controller
    from app.ui.qt import QApplication, QEvent, QObject, QSettings
    from tests.support.fixtures import SECRET, fast_sim_config, make_config, sqlite_url

    class FirstPaint(QObject):
        seen = False

        def eventFilter(self, _obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint:
                self.seen = True
            return False

    app = QApplication([])
    loop = qasync.QEventLoop(app, already_running=True)
    asyncio.set_event_loop(loop)
    tmp = Path(tempfile.mkdtemp(prefix="slate-bench-window-"))
    data = tmp / "data"
    data.mkdir()
    url = sqlite_url(data)
    sim = start_sim(fast_sim_config())
    store = open_store(url)
    provider = MiniMaxProvider(
        "sk-test-key-123456", sim.base_url, name="demo", endpoint="local", timeout=5.0
    )
    service = SlateService(make_config(data, url), store, provider, SECRET)
    kinds = {"window": _window_class(None)}
    if args.against:
        kinds["against"] = _window_class(args.against)
    order = list(kinds)
    figures: dict[str, dict[str, list[float]]] = {
        k: {"build": [], "paint": [], "close": []} for k in kinds
    }
    gc.collect()
    gc.freeze()
    for i in range((args.windows + 2) * len(order)):
        kind = order[i % len(order)]
        controller = Controller(service)
        settings = QSettings(str(tmp / f"settings-{i}.ini"), QSettings.Format.IniFormat)
        t0 = time.process_time()
        window = kinds[kind](controller, settings)
        t1 = time.process_time()
        painted = FirstPaint()
        window.installEventFilter(painted)
        window.show()
        while not painted.seen:
            app.processEvents()
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            QApplication.sendPostedEvents(None, QEvent.Type.UpdateRequest)
        t2 = time.process_time()
        window.removeEventFilter(painted)
        _until(app, asyncio.ensure_future(controller.runner.settled(30)))
        t3 = time.process_time()
        window.close()
        window.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        app.processEvents()
        del window
        gc.collect()
        t4 = time.process_time()
        _until(app, asyncio.ensure_future(controller.aclose()))
        if i >= 2 * len(order):  # the first two of each kind: warm-up
            for name, seconds in (("build", t1 - t0), ("paint", t2 - t1), ("close", t4 - t3)):
                figures[kind][name].append(seconds)
    out: dict[str, Any] = {
        kind: {name: ms(statistics.median(v)) for name, v in parts.items()}
        | {"n": len(parts["build"])}
        for kind, parts in figures.items()
    }
    if args.against:
        out["against_path"] = args.against
    sim.stop()
    _until(app, asyncio.ensure_future(provider.aclose()))
    store.close()
    # the loop's executor threads stopped here (a QThread alive at exit aborts the process), as
    # the GUI tests' qloop fixture stops a loop that Qt's own event loop was driving
    loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
    asyncio.events._set_running_loop(None)
    loop.close()
    emit(out)


if __name__ == "__main__":
    main()
