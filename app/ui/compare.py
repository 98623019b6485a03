"""Compare two results side by side: A and B, each with its slot and parameters under it.

Images zoom and pan together (what one side shows, the other shows at the same place and
scale); videos play and pause together, and scrubbing one moves the other.
"""

from __future__ import annotations

from typing import Any

from app.domain.listing import ResultRow
from app.ui.gallery.model import GalleryModel, is_video, scene_label
from app.ui.qt import (
    QDialog,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QPushButton,
    QShortcut,
    Qt,
    QtWidgets,
    QVBoxLayout,
    QWidget,
)
from app.ui.viewer import ResultStage, parameter_words


class ComparePanel(QWidget):
    """One side: its letter, the result large, and a one-line caption."""

    def __init__(self, letter: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stage = ResultStage()
        self.heading = QLabel(objectName="compareHeading")
        self.heading.setStyleSheet("font-weight: 600;")
        self.caption = QLabel(objectName="hint")
        self.caption.setWordWrap(True)
        self.letter = letter
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.heading)
        box.addWidget(self.stage, 1)
        box.addWidget(self.caption)

    def show_row(self, row: ResultRow, model: GalleryModel) -> None:
        self.heading.setText(f"{self.letter} · {scene_label(row)}")
        self.heading.setToolTip(row.request_id)
        prompt = (row.prompt or "").strip()
        if len(prompt) > 140:
            prompt = prompt[:139] + "…"
        self.caption.setText(f"{parameter_words(row)}\n{prompt}")
        self.stage.show_row(row, model.thumbnail(row))


class CompareView(QDialog):
    """Two results side by side, zoom/pan and playback kept in step."""

    def __init__(self, model: GalleryModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareView")
        self.setWindowTitle(self.tr("Compare"))
        self.model = model
        self.a = ComparePanel("A")
        self.b = ComparePanel("B")
        self._syncing = False
        self.title = QLabel(self.tr("Compare"), objectName="viewerTitle")
        self.title.setStyleSheet("font-size: 15px; font-weight: 600;")
        self.hint = QLabel(objectName="hint")
        self.fit_button = QPushButton(self.tr("Fit"), objectName="compareFit")
        self.actual_button = QPushButton("1:1", objectName="compareActual")
        self.actual_button.setAccessibleName(self.tr("Actual size"))
        self.play_button = QPushButton(self.tr("▶ Play both"), objectName="comparePlay")
        self.swap_button = QPushButton(self.tr("Swap A and B"), objectName="compareSwap")
        self.close_button = QPushButton(self.tr("Close"), objectName="compareClose")
        self.close_button.setToolTip(self.tr("Close (Esc)"))
        top = QHBoxLayout()
        top.setSpacing(6)
        top.addWidget(self.title)
        top.addWidget(self.hint, 1)
        for w in (
            self.fit_button,
            self.actual_button,
            self.play_button,
            self.swap_button,
            self.close_button,
        ):
            top.addWidget(w)
            w.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        split = QtWidgets.QSplitter(Qt.Orientation.Horizontal, objectName="compareSplitter")
        split.addWidget(self.a)
        split.addWidget(self.b)
        split.setChildrenCollapsible(False)
        box = QVBoxLayout(self)
        box.setSizeConstraint(QtWidgets.QLayout.SizeConstraint.SetNoConstraint)
        self.setMinimumSize(640, 400)
        box.setContentsMargins(10, 10, 10, 10)
        box.addLayout(top)
        box.addWidget(split, 1)
        ca, cb = self.a.stage.canvas, self.b.stage.canvas
        ca.viewChanged.connect(lambda: self._sync(ca, cb))
        cb.viewChanged.connect(lambda: self._sync(cb, ca))
        va, vb = self.a.stage.video, self.b.stage.video
        va.playingChanged.connect(lambda on: self._sync_play(on, vb))
        vb.playingChanged.connect(lambda on: self._sync_play(on, va))
        va.position.sliderMoved.connect(vb.seek)
        vb.position.sliderMoved.connect(va.seek)
        self.fit_button.clicked.connect(ca.fit)
        self.actual_button.clicked.connect(ca.actual_size)
        self.play_button.clicked.connect(self.toggle_play)
        self.swap_button.clicked.connect(self.swap)
        self.close_button.clicked.connect(self.close)
        self.rows: tuple[int, int] = (-1, -1)
        QShortcut(QKeySequence("F"), self, ca.fit)
        QShortcut(QKeySequence("1"), self, ca.actual_size)
        QShortcut(QKeySequence("Space"), self, self.toggle_play)
        model.modelReset.connect(self.close)
        model.dataChanged.connect(self._row_changed)

    def _row_changed(self, top: Any, bottom: Any, _roles: Any = None) -> None:
        for panel, i in ((self.a, self.rows[0]), (self.b, self.rows[1])):
            if top.row() <= i <= bottom.row():
                row = self.model.row_at(i)
                if row is not None:
                    panel.stage.thumb_arrived(self.model.thumbnail(row, ask=False))

    def show_pair(self, a: int, b: int) -> bool:
        ra, rb = self.model.row_at(a), self.model.row_at(b)
        if ra is None or rb is None:
            return False
        self.rows = (a, b)
        self.a.show_row(ra, self.model)
        self.b.show_row(rb, self.model)
        videos = is_video(ra) and is_video(rb)
        self.play_button.setVisible(is_video(ra) or is_video(rb))
        images = not is_video(ra) and not is_video(rb)
        self.fit_button.setVisible(images)
        self.actual_button.setVisible(images)
        if images:
            self.hint.setText(self.tr("Zoom and pan move both sides together."))
        elif videos:
            self.hint.setText(self.tr("Play, pause and scrub move both sides together."))
        else:
            self.hint.setText("")
        return True

    def swap(self) -> None:
        self.show_pair(self.rows[1], self.rows[0])

    def _sync(self, source: Any, target: Any) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            if source.fit_mode:
                target.fit()
            else:
                target.apply_state(*source.view_state())
        finally:
            self._syncing = False

    def _sync_play(self, playing: bool, other: Any) -> None:
        words = self.tr("❚❚ Pause both") if playing else self.tr("▶ Play both")
        self.play_button.setText(words)
        if self._syncing or other.playing() == playing:
            return
        self._syncing = True
        try:
            other.play() if playing else other.pause()
        finally:
            self._syncing = False

    def toggle_play(self) -> None:
        va, vb = self.a.stage.video, self.b.stage.video
        if va.playing() or vb.playing():
            va.pause()
            vb.pause()
        else:
            va.play()
            vb.play()

    def done(self, result: int) -> None:
        self.a.stage.stop()
        self.b.stage.stop()
        super().done(result)

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        self.a.stage.stop()
        self.b.stage.stop()
        super().closeEvent(event)
