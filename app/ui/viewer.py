"""The viewer (lightbox): one result large — an image with zoom, fit, 1:1 and pan, or a video
with sound, play/pause, scrubbing and volume — stepping through the gallery's current order
(← / →, Esc closes), with a compact caption (slot, prompt, parameters) and the technical details
(path, SHA-256, size) behind a "Details" disclosure.

The parts are reused by :mod:`app.ui.compare`: :class:`ImageCanvas` (a ``QGraphicsView`` whose
zoom and centre can be read and applied, for synchronized compare) and :class:`VideoPlayer`
(``QMediaPlayer`` with a ``QAudioOutput``). Images are decoded in a worker thread; the tile's
thumbnail shows at once meanwhile.
"""

from __future__ import annotations

import threading
from typing import Any

from app.domain.listing import ResultRow
from app.ui.dragout import DragOut, gallery_files
from app.ui.gallery.model import GalleryModel, is_sound, is_video, scene_label
from app.ui.sound_view import PeakReader, SoundView
from app.ui.gallery.pane import ResultRef, duration_text, ref_of, use_choices
from app.ui.picks import PickActions, PickBar
from app.ui.qt import (
    QColor,
    QDialog,
    QHBoxLayout,
    QImage,
    QKeySequence,
    QLabel,
    QObject,
    QPixmap,
    QPushButton,
    QShortcut,
    QStackedWidget,
    Qt,
    QtGui,
    QToolButton,
    QtWidgets,
    QUrl,
    QVBoxLayout,
    QWidget,
    Signal,
    media_player,
    multimedia,
    multimedia_error,
    stop_player,
)

MIN_ZOOM, MAX_ZOOM = 0.02, 32.0


class ImageDecoder(QObject):
    """Decodes one full image in a worker thread; :attr:`ready` on the UI thread."""

    ready = Signal(str, QImage)  # path, image

    def decode(self, path: str) -> None:
        def work() -> None:
            img = QtGui.QImageReader(path)
            img.setAutoTransform(True)
            image = img.read()
            try:
                self.ready.emit(path, image)
            except RuntimeError:  # the viewer went away meanwhile
                pass

        threading.Thread(target=work, name="viewer-decode", daemon=True).start()


class ImageCanvas(QtWidgets.QGraphicsView):
    """An image to zoom (wheel, + / −), fit (F), see at 1:1 (1) and pan (drag)."""

    viewChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("imageCanvas")
        self.setScene(QtWidgets.QGraphicsScene(self))
        self.item = QtWidgets.QGraphicsPixmapItem()
        self.item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.scene().addItem(self.item)
        self.setBackgroundBrush(QColor("#16181c"))
        self.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.setDragMode(QtWidgets.QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QtWidgets.QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QtWidgets.QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setRenderHint(QtGui.QPainter.RenderHint.SmoothPixmapTransform, True)
        self.fit_mode = True
        self.full_size = False  # the decoded original is shown (not the thumbnail)
        self._natural = (0, 0)  # the original's pixel size, for 1:1 while the thumbnail shows
        self.horizontalScrollBar().valueChanged.connect(lambda _v: self.viewChanged.emit())
        self.verticalScrollBar().valueChanged.connect(lambda _v: self.viewChanged.emit())

    def set_pixmap(
        self, pix: QPixmap, natural: tuple[int, int] | None = None, *, full: bool = False
    ) -> None:
        """Show ``pix``; ``natural`` is the original's size (a thumbnail is scaled up to it so
        zoom and 1:1 mean the same before and after the full image arrives)."""
        state = None if self.fit_mode else self.view_state()
        self.item.setPixmap(pix)
        self.full_size = full
        w, h = natural or (pix.width(), pix.height())
        self._natural = (w, h)
        if pix.width() > 0 and (w, h) != (pix.width(), pix.height()):
            self.item.setTransform(QtGui.QTransform.fromScale(w / pix.width(), h / pix.height()))
        else:
            self.item.setTransform(QtGui.QTransform())
        self.scene().setSceneRect(0, 0, w, h)
        if state is None:
            self.fit()
        else:
            self.apply_state(*state)

    def clear(self) -> None:
        self.item.setPixmap(QPixmap())
        self._natural = (0, 0)

    def zoom(self) -> float:
        return float(self.transform().m11())

    def fit(self) -> None:
        self.fit_mode = True
        w, h = self._natural
        if w and h:
            self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self.viewChanged.emit()

    def actual_size(self) -> None:
        """1:1 — one image pixel on one screen pixel."""
        self.fit_mode = False
        ratio = self.devicePixelRatioF() or 1.0
        self.setTransform(QtGui.QTransform.fromScale(1 / ratio, 1 / ratio))
        self.viewChanged.emit()

    def zoom_by(self, factor: float) -> None:
        target = max(MIN_ZOOM, min(MAX_ZOOM, self.zoom() * factor))
        self.fit_mode = False
        self.setTransform(QtGui.QTransform.fromScale(target, target))
        self.viewChanged.emit()

    def view_state(self) -> tuple[float, float, float]:
        """(zoom, centre x, centre y) with the centre as a fraction of the image."""
        w, h = self._natural
        c = self.mapToScene(self.viewport().rect().center())
        return (self.zoom(), c.x() / w if w else 0.5, c.y() / h if h else 0.5)

    def apply_state(self, zoom: float, cx: float, cy: float) -> None:
        self.fit_mode = False
        self.setTransform(QtGui.QTransform.fromScale(zoom, zoom))
        w, h = self._natural
        self.centerOn(cx * w, cy * h)

    def wheelEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom_by(1.25**steps)
        event.accept()

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.fit_mode:
            self.fit()


def _clock(ms: int) -> str:
    s = max(0, ms) // 1000
    return f"{s // 60}:{s % 60:02d}"


class VideoPlayer(QWidget):
    """A video with sound: play/pause (Space), a position slider to scrub, time, volume."""

    playingChanged = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("videoPlayer")
        self.path: str | None = None
        self.player: Any = None
        self.audio: Any = None
        self.play_button = QPushButton(self.tr("▶ Play"), objectName="viewerPlay")
        self.play_button.setAccessibleName(self.tr("Play or pause"))
        self.position = QtWidgets.QSlider(Qt.Orientation.Horizontal, objectName="viewerPosition")
        self.position.setAccessibleName(self.tr("Position"))
        self.time = QLabel("0:00 / 0:00", objectName="hint")
        self.volume = QtWidgets.QSlider(Qt.Orientation.Horizontal, objectName="viewerVolume")
        self.volume.setAccessibleName(self.tr("Volume"))
        self.volume.setRange(0, 100)
        self.volume.setValue(80)
        self.volume.setMaximumWidth(110)
        self.volume_label = QLabel(self.tr("Volume"), objectName="hint")
        self.note = QLabel(objectName="hint")
        self.note.setWordWrap(True)
        mm = multimedia()
        if mm is not None:
            qmw = mm[1]
            self.screen_widget: QWidget = qmw.QVideoWidget()
            self.player, self.audio = media_player(self)
            self.audio.setVolume(0.8)
            self.player.setVideoOutput(self.screen_widget)
            self.player.playbackStateChanged.connect(self._state_changed)
            self.player.positionChanged.connect(self._position_changed)
            self.player.durationChanged.connect(self._duration_changed)
            self.player.errorOccurred.connect(lambda _e, msg: self.note.setText(msg))
        else:
            self.screen_widget = QLabel(alignment=Qt.AlignmentFlag.AlignCenter)
            self.play_button.setEnabled(False)
            self.note.setText(
                self.tr("Video playback is not available here: %1").replace(
                    "%1", multimedia_error() or ""
                )
            )
        self.screen_widget.setObjectName("viewerVideo")
        self.screen_widget.setMinimumSize(160, 90)
        # the first frame until it plays (a video widget shows black before its first frame)
        self.poster = QLabel(alignment=Qt.AlignmentFlag.AlignCenter, objectName="viewerPoster")
        self.poster.setStyleSheet("background: #16181c;")
        self.poster.setMinimumSize(160, 90)
        self._poster: QPixmap | None = None
        self.screen = QStackedWidget()
        self.screen.addWidget(self.poster)
        self.screen.addWidget(self.screen_widget)
        controls = QHBoxLayout()
        controls.setSpacing(8)
        controls.addWidget(self.play_button)
        controls.addWidget(self.position, 1)
        controls.addWidget(self.time)
        controls.addWidget(self.volume_label)
        controls.addWidget(self.volume)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.screen, 1)
        box.addLayout(controls)
        box.addWidget(self.note)
        self.play_button.clicked.connect(self.toggle)
        self.position.sliderMoved.connect(self.seek)
        self.position.sliderPressed.connect(lambda: self.seek(self.position.value()))
        self.volume.valueChanged.connect(self._volume)

    def set_source(self, path: str | None, poster: QPixmap | None = None) -> None:
        self.stop()
        self.path = path
        self._poster = poster if poster is not None and not poster.isNull() else None
        self.screen.setCurrentWidget(self.poster)
        self._fit_poster()
        self.position.setRange(0, 0)
        self.time.setText("0:00 / 0:00")
        if self.player is not None:
            self.player.setSource(QUrl.fromLocalFile(path) if path else QUrl())

    def playing(self) -> bool:
        if self.player is None:
            return False
        qm = multimedia()[0]  # type: ignore[index]
        return bool(self.player.playbackState() == qm.QMediaPlayer.PlaybackState.PlayingState)

    def play(self) -> None:
        if self.player is not None and self.path:
            self.screen.setCurrentWidget(self.screen_widget)
            self.player.play()

    def set_poster(self, poster: QPixmap) -> None:
        self._poster = poster
        self._fit_poster()

    def _fit_poster(self) -> None:
        if self._poster is None:
            self.poster.setPixmap(QPixmap())
            return
        size = self.poster.size()
        self.poster.setPixmap(
            self._poster.scaled(
                size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
        )

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_poster()

    def pause(self) -> None:
        if self.player is not None:
            self.player.pause()

    def toggle(self) -> None:
        self.pause() if self.playing() else self.play()

    def seek(self, ms: int) -> None:
        if self.player is not None:
            self.player.setPosition(int(ms))

    def stop(self) -> None:
        if self.player is not None:
            stop_player(self.player, unload=False)

    def _volume(self, value: int) -> None:
        if self.audio is not None:
            self.audio.setVolume(value / 100)

    def _state_changed(self, _state: Any) -> None:
        playing = self.playing()
        self.play_button.setText(self.tr("❚❚ Pause") if playing else self.tr("▶ Play"))
        self.playingChanged.emit(playing)

    def _position_changed(self, ms: int) -> None:
        if not self.position.isSliderDown():
            self.position.setValue(int(ms))
        self.time.setText(f"{_clock(ms)} / {_clock(self.player.duration())}")

    def _duration_changed(self, ms: int) -> None:
        self.position.setRange(0, max(0, int(ms)))
        self.time.setText(f"{_clock(self.player.position())} / {_clock(ms)}")


def parameter_words(row: ResultRow) -> str:
    """The compact caption: kind · model · size · duration."""
    bits = [row.model or row.kind]
    if row.width and row.height:
        bits.append(f"{row.width}×{row.height}")
    if row.duration:
        bits.append(duration_text(row.duration))
    return " · ".join(b for b in bits if b)


class ResultStage(QWidget):
    """One result shown large: an :class:`ImageCanvas` or a :class:`VideoPlayer`, and a note when
    the result has no picture (still running, failed, file missing)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.canvas = ImageCanvas()
        self.video = VideoPlayer()
        self.sound = SoundView()  # a song or a voice line: waveform, play/pause, scrub
        self.peaks = PeakReader(self)
        self.peaks.ready.connect(self._peaks)
        self.note = QLabel(objectName="viewerNote", alignment=Qt.AlignmentFlag.AlignCenter)
        self.note.setWordWrap(True)
        self.stack = QStackedWidget()
        self.sound.waveform.setMaximumHeight(240)
        self.sound_page = QWidget()  # the sound in the middle of the stage, not at its top
        middle = QVBoxLayout(self.sound_page)
        middle.setContentsMargins(24, 0, 24, 0)
        middle.addStretch(1)
        middle.addWidget(self.sound, 3)
        middle.addStretch(1)
        for w in (self.canvas, self.video, self.sound_page, self.note):
            self.stack.addWidget(w)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.stack)
        self.row: ResultRow | None = None
        self.decoder = ImageDecoder(self)
        self.decoder.ready.connect(self._decoded)

    def show_row(self, row: ResultRow, thumb: QPixmap | None) -> None:
        self.row = row
        self.video.set_source(None)
        self.sound.set_sound(None)
        if row.path is not None and is_sound(row):
            self.stack.setCurrentWidget(self.sound_page)
            self.sound.set_sound(row.path, row.duration)
            self.peaks.read(row.path)
        elif row.path is None:
            self.canvas.clear()
            self.note.setText(self.tr("This slot has no picture yet."))
            self.stack.setCurrentWidget(self.note)
        elif is_video(row):
            self.stack.setCurrentWidget(self.video)
            self.video.set_source(row.path, thumb)
        else:
            self.stack.setCurrentWidget(self.canvas)
            natural = (row.width, row.height) if row.width and row.height else None
            if thumb is not None and not thumb.isNull():
                self.canvas.set_pixmap(thumb, natural)
            else:
                self.canvas.clear()
            self.decoder.decode(row.path)

    def thumb_arrived(self, thumb: QPixmap | None) -> None:
        """The gallery's picture of this result arrived: shown until the real thing is."""
        row = self.row
        if row is None or thumb is None or thumb.isNull():
            return
        if self.stack.currentWidget() is self.video and self.video._poster is None:
            self.video.set_poster(thumb)
        elif self.stack.currentWidget() is self.canvas and not self.canvas.full_size:
            natural = (row.width, row.height) if row.width and row.height else None
            self.canvas.set_pixmap(thumb, natural)

    def _decoded(self, path: str, image: QImage) -> None:
        if self.row is None or self.row.path != path:
            return
        if image.isNull():
            self.note.setText(self.tr("This file cannot be shown (missing or damaged)."))
            self.stack.setCurrentWidget(self.note)
            return
        self.canvas.set_pixmap(QPixmap.fromImage(image), full=True)

    def _peaks(self, path: str, peaks: tuple[float, ...]) -> None:
        if self.row is not None and self.row.path == path:
            self.sound.set_peaks(peaks)

    def stop(self) -> None:
        self.video.stop()
        self.sound.stop()


class Viewer(QDialog):
    """The lightbox over the window: the current result large, stepping through the gallery."""

    slotWanted = Signal(str)  # request_id: show this slot in the window
    compareWanted = Signal(int, int)  # rows A and B of the gallery model
    useResultWanted = Signal(str, object)  # the chaining hook, as GalleryPane's

    def __init__(self, model: GalleryModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("viewer")
        self.setWindowTitle(self.tr("Viewer"))
        self.setModal(False)
        self.model = model
        self.row_index = -1
        self.offer_use = False
        self.stage = ResultStage()
        self.title = QLabel(objectName="viewerTitle")
        self.title.setStyleSheet("font-size: 15px; font-weight: 600;")
        self.counter = QLabel(objectName="hint")
        self.prev_button = QPushButton("◀", objectName="viewerPrevious")
        self.prev_button.setAccessibleName(self.tr("Previous result"))
        self.prev_button.setToolTip(self.tr("Previous result (←)"))
        self.next_button = QPushButton("▶", objectName="viewerNext")
        self.next_button.setAccessibleName(self.tr("Next result"))
        self.next_button.setToolTip(self.tr("Next result (→)"))
        self.fit_button = QPushButton(self.tr("Fit"), objectName="viewerFit")
        self.fit_button.setToolTip(self.tr("Fit the window (Ctrl+0)"))
        self.actual_button = QPushButton("1:1", objectName="viewerActual")
        self.actual_button.setAccessibleName(self.tr("Actual size"))
        self.actual_button.setToolTip(
            self.tr("Actual size, one image pixel per screen pixel (Ctrl+1)")
        )
        self.zoom_out = QPushButton("−", objectName="viewerZoomOut")
        self.zoom_out.setAccessibleName(self.tr("Zoom out"))
        self.zoom_in = QPushButton("+", objectName="viewerZoomIn")
        self.zoom_in.setAccessibleName(self.tr("Zoom in"))
        self.zoom_label = QLabel(objectName="hint")
        self.compare_button = QPushButton(self.tr("Compare with…"), objectName="viewerCompare")
        self.compare_button.setToolTip(self.tr("Show this result beside another, side by side"))
        self.slot_button = QPushButton(self.tr("Show slot"), objectName="viewerShowSlot")
        self.close_button = QPushButton(self.tr("Close"), objectName="viewerClose")
        self.close_button.setToolTip(self.tr("Close the viewer (Esc)"))
        self.image_tools = QWidget()
        tools = QHBoxLayout(self.image_tools)
        tools.setContentsMargins(0, 0, 0, 0)
        tools.setSpacing(4)
        for w in (
            self.zoom_out,
            self.zoom_label,
            self.zoom_in,
            self.fit_button,
            self.actual_button,
        ):
            tools.addWidget(w)
        top = QHBoxLayout()
        top.setSpacing(6)
        top.addWidget(self.prev_button)
        top.addWidget(self.next_button)
        top.addWidget(self.title, 1)
        top.addWidget(self.counter)
        top.addWidget(self.image_tools)
        top.addWidget(self.compare_button)
        top.addWidget(self.slot_button)
        top.addWidget(self.close_button)
        self.caption = QLabel(objectName="viewerCaption")
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details_button = QToolButton(objectName="viewerDetailsButton")
        self.details_button.setText(self.tr("Details"))
        self.details_button.setCheckable(True)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.details = QLabel(objectName="viewerDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.hide()
        self.use_button = QPushButton(self.tr("Use in a new slot"), objectName="viewerUse")
        self.use_button.setToolTip(
            self.tr("Feed a new slot with this result: as its first frame, last frame or reference")
        )
        self.use_button.setMenu(QtWidgets.QMenu(self.use_button))
        self.use_button.setProperty("hasMenu", True)  # its arrow's own room (style.py)
        self.use_button.menu().aboutToShow.connect(
            lambda: self.fill_use_menu(self.use_button.menu())
        )
        self.use_button.hide()
        # the result drags out of here as a file (the picture itself pans when dragged)
        self.drag_handle = QToolButton(objectName="viewerDragOut")
        self.drag_handle.setText(self.tr("Drag out"))
        self.drag_handle.setToolTip(self.tr("Drag this result into another app as a file"))
        self.drag_handle.setCursor(Qt.CursorShape.OpenHandCursor)
        self.drag_out = DragOut(
            self.drag_handle, lambda _pos: gallery_files(self.model, self.row_index)
        )
        self.picks: PickActions | None = None  # marks the result (the window sets it)
        self.ask_board: Any = None
        self.pick_bar = PickBar()
        self.pick_bar.wanted.connect(self.mark)
        self.pick_bar.boardWanted.connect(self._to_board)
        self.pick_bar.hide()
        bottom = QHBoxLayout()
        bottom.addWidget(self.caption, 1)
        bottom.addWidget(self.pick_bar, 0, Qt.AlignmentFlag.AlignTop)
        bottom.addWidget(self.drag_handle, 0, Qt.AlignmentFlag.AlignTop)
        bottom.addWidget(self.use_button, 0, Qt.AlignmentFlag.AlignTop)
        bottom.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignTop)
        box = QVBoxLayout(self)
        # the window's size is its own (a layout change while shown never resizes the lightbox)
        box.setSizeConstraint(QtWidgets.QLayout.SizeConstraint.SetNoConstraint)
        self.setMinimumSize(640, 400)
        box.setContentsMargins(10, 10, 10, 10)
        box.addLayout(top)
        box.addWidget(self.stage, 1)
        box.addLayout(bottom)
        box.addWidget(self.details)

        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.fit_button.clicked.connect(self.stage.canvas.fit)
        self.actual_button.clicked.connect(self.stage.canvas.actual_size)
        self.zoom_in.clicked.connect(lambda: self.stage.canvas.zoom_by(1.25))
        self.zoom_out.clicked.connect(lambda: self.stage.canvas.zoom_by(0.8))
        self.stage.canvas.viewChanged.connect(self._say_zoom)
        self.compare_button.clicked.connect(self._compare_menu)
        self.slot_button.clicked.connect(self._show_slot)
        self.close_button.clicked.connect(self.close)
        self.details_button.toggled.connect(self._toggle_details)
        self._pending: int | None = None  # a step past the loaded rows, taken when they arrive
        model.dataChanged.connect(self._row_changed)
        model.pageLoaded.connect(self._rows_arrived)
        model.modelReset.connect(self._model_reset)
        # Keys as shortcuts (the canvas would scroll with the arrows, a focused button would
        # take Space); the buttons are for the mouse, the keys for the hand on the keyboard.
        for b in self.findChildren(QPushButton) + [self.details_button]:
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        canvas = self.stage.canvas
        for keys, fn in (
            (["Right"], lambda: self.step(1)),
            (["Left"], lambda: self.step(-1)),
            (["Ctrl+0"], canvas.fit),
            (["Ctrl+1"], canvas.actual_size),
            *(([k], lambda k=k: self.mark(k)) for k in ("F", "X", "0", "1", "2", "3", "4", "5")),
            (["+", "="], lambda: canvas.zoom_by(1.25)),
            (["-"], lambda: canvas.zoom_by(0.8)),
            (["Space"], self._space),
        ):
            for k in keys:
                QShortcut(QKeySequence(k), self, fn)

    # -- marks ---------------------------------------------------------------------------------
    def set_picks(self, picks: PickActions, ask_board: Any) -> None:
        self.picks = picks
        self.ask_board = ask_board
        picks.marked.connect(self._marked)
        self._say_marks()

    def mark(self, key: str) -> None:
        """F favourite, X reject, 1–5 rating, 0 no rating on the result shown."""
        row = self.current()
        if self.picks is not None and row is not None and row.path is not None:
            self.picks.mark_key(row.request_id, row.position, key, row.pick)

    def _marked(self, rid: str, position: int, pick: Any, rating: int) -> None:
        row = self.current()
        if row is not None and (row.request_id, row.position) == (rid, position):
            self.model.update_pick(row.task_id, position, pick, rating)
            self._say_marks()

    def _say_marks(self) -> None:
        row = self.current()
        on = self.picks is not None and row is not None and row.path is not None
        self.pick_bar.setVisible(on)
        if on and row is not None:
            self.pick_bar.show_marks(row.pick, row.rating)

    def _to_board(self) -> None:
        row = self.current()
        name = self.ask_board() if self.ask_board is not None else None
        if self.picks is not None and row is not None and name:
            self.picks.add_to_board(name, [(row.request_id, row.position)])

    def _space(self) -> None:
        if self.stage.stack.currentWidget() is self.stage.video:
            self.stage.video.toggle()

    # -- which result --------------------------------------------------------------------------
    def current(self) -> ResultRow | None:
        return self.model.row_at(self.row_index)

    def show_row(self, index: int) -> None:
        row = self.model.row_at(index)
        if row is None:
            return
        self.row_index = index
        self.stage.show_row(row, self.model.thumbnail(row))
        image = row.path is not None and not is_video(row) and not is_sound(row)
        self.image_tools.setVisible(image)
        self.title.setText(scene_label(row))
        self.title.setToolTip(row.request_id)
        prompt = (row.prompt or "").strip()
        if len(prompt) > 220:
            prompt = prompt[:219] + "…"
        self.caption.setText(
            f"<b>{_esc(row.request_id)}</b> · {_esc(parameter_words(row))}<br>{_esc(prompt)}"
        )
        self._fill_details(row)
        self._say_marks()
        self._say_use()
        self._say_position()
        self._say_zoom()
        if index >= self.model.rowCount() - 3 and self.model.canFetchMore():
            self.model.fetchMore()

    def step(self, delta: int) -> None:
        target = (self._pending if self._pending is not None else self.row_index) + delta
        if target >= self.model.rowCount() and not self.model.exhausted:
            self._pending = target
            if self.model.canFetchMore():
                self.model.fetchMore()
            return
        self._pending = None
        if 0 <= target < self.model.rowCount():
            self.show_row(target)

    def _row_changed(self, top: Any, bottom: Any, _roles: Any = None) -> None:
        if top.row() <= self.row_index <= bottom.row():
            row = self.current()
            if row is not None:
                self.stage.thumb_arrived(self.model.thumbnail(row, ask=False))

    def _rows_arrived(self, *_: Any) -> None:
        if self._pending is not None and self._pending < self.model.rowCount():
            target, self._pending = self._pending, None
            self.show_row(target)
        elif self._pending is not None and self.model.exhausted:
            self._pending = None  # past the last result: stay on it
        self._say_position()

    def _model_reset(self) -> None:
        self.row_index = -1
        self._pending = None
        self.close()

    def _say_position(self) -> None:
        n = self.model.rowCount()
        more = "+" if not self.model.exhausted else ""
        self.counter.setText(f"{self.row_index + 1} / {n}{more}")
        self.prev_button.setEnabled(self.row_index > 0)
        self.next_button.setEnabled(self.row_index < n - 1 or self.model.canFetchMore())

    def _say_zoom(self) -> None:
        canvas = self.stage.canvas
        ratio = canvas.devicePixelRatioF() or 1.0
        self.zoom_label.setText(f"{round(canvas.zoom() * ratio * 100)} %")

    def _fill_details(self, row: ResultRow) -> None:
        lines = [
            (self.tr("File"), row.path or "—"),
            (self.tr("SHA-256"), row.sha256 or "—"),
            (self.tr("Size"), f"{row.bytes:,} B" if row.bytes else "—"),
            (self.tr("Type"), row.content_type or "—"),
            (self.tr("RequestId"), row.request_id),
        ]
        self.details.setText("<br>".join(f"<b>{_esc(k)}</b>: {_esc(v)}" for k, v in lines))

    def _toggle_details(self, on: bool) -> None:
        self.details.setVisible(on)
        self.details_button.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)

    # -- actions -------------------------------------------------------------------------------
    def _show_slot(self) -> None:
        row = self.current()
        if row is not None:
            self.slotWanted.emit(row.request_id)

    def compare_menu(self) -> QtWidgets.QMenu:
        """Results near this one to compare with (built, not shown: tests read it)."""
        menu = QtWidgets.QMenu(self)
        here = self.row_index
        for i in [
            *range(here + 1, min(self.model.rowCount(), here + 9)),
            *range(here - 1, max(-1, here - 9), -1),
        ]:
            row = self.model.row_at(i)
            if row is None or row.path is None:
                continue
            act = menu.addAction(
                f"{scene_label(row)} · {row.request_id}",
                lambda j=i: self.compareWanted.emit(here, j),
            )
            pix = self.model.thumbnail(row)
            if pix is not None:
                act.setIcon(QtGui.QIcon(pix))
        if not menu.actions():
            menu.addAction(self.tr("No other result to compare with")).setEnabled(False)
        return menu

    def _compare_menu(self) -> None:
        menu = self.compare_menu()
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.compare_button.mapToGlobal(self.compare_button.rect().bottomLeft()))

    def _use_choices(self) -> tuple[ResultRef | None, list[tuple[str, str]]]:
        row = self.current()
        ref: ResultRef | None = ref_of(row) if row is not None else None
        return ref, (use_choices(ref) if self.offer_use else [])

    def fill_use_menu(self, menu: QtWidgets.QMenu) -> bool:
        """Put the chaining choices for the result on screen into ``menu`` ("Use as first
        frame / last frame / reference"; a video's last frame); False when there are none."""
        menu.clear()
        ref, choices = self._use_choices()
        for role, text in choices:
            menu.addAction(text, lambda r=role: self.useResultWanted.emit(r, ref))
        return bool(choices)

    def use_menu(self) -> QtWidgets.QMenu | None:
        """The chaining menu for the result on screen, when the window offers chaining and the
        result has a file (also the "Use in a new slot" button's menu and the context menu)."""
        menu = QtWidgets.QMenu(self)
        if not self.fill_use_menu(menu):
            menu.deleteLater()
            return None
        return menu

    def _say_use(self) -> None:
        self.use_button.setVisible(bool(self._use_choices()[1]))

    def contextMenuEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        menu = self.use_menu()
        if menu is not None:
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(event.globalPos())

    def done(self, result: int) -> None:  # closing stops the sound
        self.stage.stop()
        super().done(result)

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        self.stage.stop()
        super().closeEvent(event)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
