"""Where the result will be, while it is being made (issue 35): a frame of the result's own shape
(16:9 for a 16:9 video, square for a square image, a wide strip for a sound) filled as far as the
banner's progress says, with the prompt large inside it — the room the result will take, never
a form of fields. The banner above keeps the state and the time; this only draws what it is told:
the task's kind and parameters, and the banner's progress (``set_progress``).
"""

from __future__ import annotations

import re
from typing import Any

from app.ui.qt import (
    QColor,
    QLabel,
    QPainter,
    QPen,
    QRectF,
    QSizePolicy,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)
from app.ui.style import current

#: Width over height of a sound's frame (a waveform's strip).
SOUND_SHAPE = 4.0


def expected_shape(kind: str, params: dict[str, Any]) -> float:
    """Width over height of the result a task of ``kind`` with ``params`` will have."""
    if kind in ("music", "speech", "voice"):
        return SOUND_SHAPE
    size = str(params.get("size") or "")
    m = re.fullmatch(r"(\d+)\s*[x×*]\s*(\d+)", size)
    if m and int(m.group(2)) > 0:
        return int(m.group(1)) / int(m.group(2))
    for key in ("ratio", "aspect_ratio"):
        m = re.fullmatch(r"(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)", str(params.get(key) or ""))
        if m and float(m.group(2)) > 0:
            return float(m.group(1)) / float(m.group(2))
    return 16 / 9 if kind == "video" else 1.0


class RunningCanvas(QWidget):
    """The frame of the result to come, with the prompt in it and the progress filling it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("runningCanvas")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(160)
        self.shape = 16 / 9
        self.value, self.maximum = 0, 0  # maximum 0: moving, nothing to measure against
        self._sweep = 0.0
        self.what = QLabel(objectName="runningWhat", alignment=Qt.AlignmentFlag.AlignCenter)
        self.what.setWordWrap(True)
        self.what.setProperty("tone", "muted")
        self.prompt = QLabel(objectName="runningPrompt", alignment=Qt.AlignmentFlag.AlignCenter)
        self.prompt.setWordWrap(True)
        self.prompt.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.prompt.font()
        font.setPointSizeF(font.pointSizeF() * 1.45)
        self.prompt.setFont(font)
        box = QVBoxLayout(self)
        box.setContentsMargins(48, 32, 48, 32)
        box.addStretch(1)
        box.addWidget(self.prompt)
        box.addWidget(self.what)
        box.addStretch(1)
        self._timer = QTimer(self, interval=60)  # the sweep of a task with no estimate
        self._timer.timeout.connect(self._step)

    def set_task(self, kind: str, params: dict[str, Any], what: str) -> None:
        self.shape = expected_shape(kind, params)
        text = str(params.get("prompt") or params.get("text") or params.get("lyrics") or "")
        self.prompt.setText(text if len(text) <= 400 else text[:399] + "…")
        self.prompt.setVisible(bool(text))
        self.what.setText(what)
        self.setAccessibleName(what)
        self.update()

    def set_progress(self, value: int, maximum: int) -> None:
        """The banner's bar: ``value`` of ``maximum`` (maximum 0: moving, no estimate)."""
        if (value, maximum) == (self.value, self.maximum):
            return
        self.value, self.maximum = value, maximum
        self._run_timer()
        self.update()

    def _run_timer(self) -> None:
        on = self.isVisible() and self.maximum == 0
        if on and not self._timer.isActive():
            self._timer.start()
        elif not on:
            self._timer.stop()

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self._run_timer()

    def hideEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().hideEvent(event)
        self._timer.stop()

    def _step(self) -> None:
        self._sweep = (self._sweep + 0.012) % 1.0
        self.update()

    def frame(self) -> QRectF:
        """The result's shape, as large as the widget allows, centred."""
        room = QRectF(self.rect()).adjusted(8, 8, -8, -8)
        w = min(room.width(), room.height() * self.shape)
        h = w / self.shape
        return QRectF(room.center().x() - w / 2, room.center().y() - h / 2, w, h)

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        t = current()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        box = self.frame()
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(t.paper))
        p.drawRoundedRect(box, 10, 10)
        fill = QColor(t.banner_running)
        p.setBrush(fill)
        if self.maximum > 0:  # as far as the estimate says, from the left
            part = QRectF(box)
            part.setWidth(box.width() * min(1.0, self.value / self.maximum))
            p.setClipRect(part)
            p.drawRoundedRect(box, 10, 10)
            p.setClipping(False)
        else:  # no estimate: a band that moves across, so the wait visibly lives
            band = box.width() * 0.25
            x = box.left() - band + (box.width() + band) * self._sweep
            p.setClipRect(box)
            p.drawRoundedRect(QRectF(x, box.top(), band, box.height()), 10, 10)
            p.setClipping(False)
        pen = QPen(QColor(t.line))
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setWidthF(1.5)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(box.adjusted(0.75, 0.75, -0.75, -0.75), 10, 10)
        p.end()
