"""A window probe for tests that drive the real app from outside (Xvfb + xdotool).

Enabled only by ``SLATE_GUI_PROBE=FILE``: the app then appends JSON lines to FILE, polling every
100 ms — ``shown`` once the main window is exposed on its platform (with the platform name and
the native window id the display server knows), ``rows`` once the slot tree has its first rows
on a visible window, ``widgets`` (the screen rectangles of the named widgets a test clicks)
whenever they move, ``poster`` when the video poster shows a decoded frame, and ``player``
whenever the video player's state changes (playback state, media status, audio and video
tracks, the audio output device, the position once it passes a second), ``checked`` (which of
the named checkable buttons are checked), ``enabled`` (which of the named buttons can be
clicked), ``fields`` (what the named edits hold: a line's or a prompt's text, a slider's value,
a combo box's current text), ``why`` (the words beside a grey Create) and ``menu`` (the texts of an open popup
menu's actions, ``None`` once it closes) whenever they change, so a test waits for what its
click did instead of sleeping. It reads only object names and public Qt state, so it holds no
knowledge of the window's internals and changes nothing in the app.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.ui.qt import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGuiApplication,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QSlider,
    QTimer,
    QWidget,
    multimedia,
)

#: object names whose screen rectangles are reported (stable names, checked by the GUI tests).
WIDGETS = (
    "slotList",
    "requestIdEdit",
    "promptEdit",
    "createButton",
    "imageRadio",
    "videoRadio",
    "newDraftButton",
    "playButton",
    "durationSlider",
    "ratioCombo",
    "useAsButton",
    "newSlotButton",
    "notNowButton",
)


def _field(widget: QWidget) -> Any:
    """What an edit holds, or None for a widget that is not one."""
    if isinstance(widget, QLineEdit):
        return widget.text()
    if isinstance(widget, QPlainTextEdit):
        return widget.toPlainText()
    if isinstance(widget, QSlider):
        return widget.value()
    if isinstance(widget, QComboBox):
        return widget.currentText()
    return None


def _shown(root: QWidget, cls: type, name: str) -> Any:
    """The visible widget of that class and object name (several may exist; one is on screen)."""
    for child in root.findChildren(cls, name):
        if child.isVisible():
            return child
    return None


class Probe:
    def __init__(self, window: QWidget, path: str) -> None:
        self.window = window
        self.path = Path(path)
        self.sent: set[str] = set()
        self.last_widgets: dict[str, list[int]] | None = None
        self.last_poster: list[int] | None = None
        self.last_player: dict[str, Any] | None = None
        self.last_checked: dict[str, bool] | None = None
        self.last_enabled: dict[str, bool] | None = None
        self.last_fields: dict[str, Any] | None = None
        self.last_why: str | None = None
        self.last_menu: list[str] | None = None
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
        checked: dict[str, bool] = {}
        enabled: dict[str, bool] = {}
        fields: dict[str, Any] = {}
        for name in WIDGETS:
            child = _shown(w, QWidget, name)
            if child is not None:
                top_left = child.mapToGlobal(child.rect().topLeft())
                widgets[name] = [top_left.x(), top_left.y(), child.width(), child.height()]
                if isinstance(child, QAbstractButton):
                    enabled[name] = child.isEnabled()
                    if child.isCheckable():
                        checked[name] = child.isChecked()
                held = _field(child)
                if held is not None:
                    fields[name] = held
        if widgets != self.last_widgets:
            self.last_widgets = widgets
            self.write("widgets", widgets=widgets)
        if checked != self.last_checked:
            self.last_checked = checked
            self.write("checked", checked=checked)
        if enabled != self.last_enabled:
            self.last_enabled = enabled
            self.write("enabled", enabled=enabled)
        if fields != self.last_fields:
            self.last_fields = fields
            self.write("fields", fields=fields)
        why = _shown(w, QLabel, "createWhy")  # why Create is off, as the window says it
        why_text = why.text() if why is not None else ""
        if why_text != (self.last_why or ""):
            self.last_why = why_text
            self.write("why", text=why_text)
        self.poll_menu()
        self.poll_video(w)

    def poll_menu(self) -> None:
        popup = QApplication.activePopupWidget()
        menu = (
            [a.text() for a in popup.actions() if a.isVisible() and not a.isSeparator()]
            if isinstance(popup, QMenu)
            else None
        )
        if menu != self.last_menu:
            self.last_menu = menu
            self.write("menu", actions=menu)

    def poll_video(self, w: QWidget) -> None:
        poster = _shown(w, QLabel, "videoPoster")
        if poster is not None:
            pixmap = poster.pixmap()
            size = [pixmap.width(), pixmap.height()] if not pixmap.isNull() else None
            if size is not None and size != self.last_poster:
                self.last_poster = size
                self.write("poster", size=size)
        view = _shown(w, QWidget, "videoView")  # the one on screen (a pane may hide another)
        mm = multimedia() if view is not None else None
        player = getattr(view, "player", None) if mm is not None else None
        if player is None:
            return
        output = player.audioOutput()
        device = output.device() if output is not None else None
        state = {
            "state": player.playbackState().name,
            "status": player.mediaStatus().name,
            "has_audio": player.hasAudio(),
            "has_video": player.hasVideo(),
            "audio_output": None if device is None or device.isNull() else device.description(),
            "muted": None if output is None else output.isMuted(),
            "error": player.errorString(),
            "past_1s": player.position() >= 1000,
        }
        if state != self.last_player:
            self.last_player = state
            self.write("player", position=player.position(), **state)


def attach(window: QWidget, path: str) -> Probe:
    probe = Probe(window, path)
    window.setProperty("slateProbe", True)
    window._slate_probe = probe  # type: ignore[attr-defined] - kept alive with the window
    return probe
