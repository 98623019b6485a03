"""A window probe for tests that drive the real app from outside (Xvfb + xdotool).

Enabled only by ``SLATE_GUI_PROBE=FILE``: the app then appends JSON lines to FILE, polling every
100 ms — ``shown`` once the main window is exposed on its platform (with the platform name and
the native window id the display server knows), ``rows`` once the slot tree has its first rows
on a visible window, and ``widgets`` (the screen rectangles of the named widgets a test clicks)
whenever they move. It reads only object names and public Qt state, so it holds no knowledge of
the window's internals and changes nothing in the app.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.ui.qt import QAbstractItemView, QGuiApplication, QTimer, QWidget

#: object names whose screen rectangles are reported (stable names, checked by the GUI tests).
WIDGETS = (
    "slotList",
    "requestIdEdit",
    "promptEdit",
    "createButton",
    "imageRadio",
    "videoRadio",
    "newDraftButton",
)


class Probe:
    def __init__(self, window: QWidget, path: str) -> None:
        self.window = window
        self.path = Path(path)
        self.sent: set[str] = set()
        self.last_widgets: dict[str, list[int]] | None = None
        self.timer = QTimer(window, interval=100)
        self.timer.timeout.connect(self.poll)
        self.timer.start()

    def write(self, event: str, **data: Any) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"event": event, **data}) + "\n")

    def poll(self) -> None:
        w = self.window
        handle = w.windowHandle()
        if not w.isVisible() or handle is None or not handle.isExposed():
            return
        if "shown" not in self.sent:
            self.sent.add("shown")
            g = w.frameGeometry()
            self.write(
                "shown",
                platform=QGuiApplication.platformName(),
                window_id=int(w.winId()),
                title=w.windowTitle(),
                rect=[g.x(), g.y(), g.width(), g.height()],
            )
        tree = w.findChild(QAbstractItemView, "slotList")
        if "rows" not in self.sent and tree is not None and tree.model() is not None:
            count = tree.model().rowCount()
            if count > 0:
                self.sent.add("rows")
                self.write("rows", count=count)
        widgets: dict[str, list[int]] = {}
        for name in WIDGETS:
            child = w.findChild(QWidget, name)
            if child is not None and child.isVisible():
                top_left = child.mapToGlobal(child.rect().topLeft())
                widgets[name] = [top_left.x(), top_left.y(), child.width(), child.height()]
        if widgets != self.last_widgets:
            self.last_widgets = widgets
            self.write("widgets", widgets=widgets)


def attach(window: QWidget, path: str) -> Probe:
    probe = Probe(window, path)
    window.setProperty("slateProbe", True)
    window._slate_probe = probe  # type: ignore[attr-defined] - kept alive with the window
    return probe
