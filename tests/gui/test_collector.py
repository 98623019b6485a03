"""Cycles are freed on the GUI thread only (``app.ui.app.MainThreadCollector``): a worker thread
that allocates never runs a collection that frees the wrappers of Qt objects.

Without the collector, the worker's allocations below trigger Python's automatic collection in
the worker thread, and the cycle's finalizer runs there.
"""

from __future__ import annotations

import gc
import sys
import threading
import weakref
from typing import Any

from app.ui.app import MainThreadCollector
from app.ui.qt import QObject


class _Cycle:
    def __init__(self) -> None:
        self.me = self
        self.qt = QObject()  # a Python-owned Qt object: freeing it deletes the C++ object


def _churn(n: int = 200_000) -> None:
    """Allocations enough for several automatic collections, each leaving a cycle behind."""
    for _ in range(n):
        a: list[Any] = []
        a.append(a)


def _by_a_collector() -> bool:
    """Called from a ``MainThreadCollector``'s timer (this test's or the GUI tests' own: under
    load the latter's may fire first)."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code is MainThreadCollector.check.__code__:
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


def test_a_workers_allocations_free_no_cycle_and_the_gui_thread_does(gui: Any) -> None:
    freed_in: list[str] = []
    by_collector: list[bool] = []
    collector = MainThreadCollector(interval_ms=20)

    def freed() -> None:
        freed_in.append(threading.current_thread().name)
        by_collector.append(_by_a_collector())

    try:
        assert not gc.isenabled()
        cycle = _Cycle()
        weakref.finalize(cycle, freed)
        del cycle
        worker = threading.Thread(target=_churn, name="worker")
        worker.start()
        worker.join()
        assert freed_in == [], "a collection ran in the worker thread"
        gui.until(lambda: freed_in, what="the cycle freed by the collector's timer")
        assert freed_in == [threading.main_thread().name]
        assert by_collector == [True], "freed on the GUI thread, but not by a collector's timer"
    finally:
        collector.stop()


def test_stopping_gives_back_automatic_collection(qapp: Any) -> None:
    gc.enable()
    try:
        collector = MainThreadCollector(qapp)
        assert not gc.isenabled()
        collector.stop()
        assert gc.isenabled()
    finally:
        gc.disable()  # as this GUI test's own collector has it
