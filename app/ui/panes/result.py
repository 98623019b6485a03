"""The right pane: verified media first (video plays in place, images as thumbnails), the file's
path and SHA-256, then the slot's history with each raw provider response expandable."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path
from typing import Any

from app.domain.states import State
from app.service.results import HistoryEvent
from app.service.views import MediaView, TaskView
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QDesktopServices,
    QHBoxLayout,
    QImage,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPixmap,
    QPushButton,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QTextLayout,
    QTextOption,
    QStyleOptionViewItem,
    QSplitter,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QUrl,
    QVBoxLayout,
    QWidget,
    Qt,
    Signal,
    multimedia,
    multimedia_error,
    translate,
)

THUMB = 160

EVENT_WORDS = {
    "submitted": QT_TRANSLATE_NOOP("Event", "slot claimed, create about to be sent"),
    "create_sent": QT_TRANSLATE_NOOP("Event", "create request sent"),
    "created": QT_TRANSLATE_NOOP("Event", "created at the provider"),
    "status": QT_TRANSLATE_NOOP("Event", "status"),
    "unknown": QT_TRANSLATE_NOOP("Event", "outcome unknown"),
    "rejected": QT_TRANSLATE_NOOP("Event", "refused by the provider"),
    "rate_limited": QT_TRANSLATE_NOOP("Event", "rate limited, waiting"),
    "conflict": QT_TRANSLATE_NOOP("Event", "conflict: other parameters refused"),
    "replayed": QT_TRANSLATE_NOOP("Event", "asked again: answered from the record"),
    "downloaded": QT_TRANSLATE_NOOP("Event", "downloaded"),
    "verified": QT_TRANSLATE_NOOP("Event", "media verified"),
    "verification_failed": QT_TRANSLATE_NOOP("Event", "verification failed"),
    "query_failed": QT_TRANSLATE_NOOP("Event", "query failed"),
    "recovered": QT_TRANSLATE_NOOP("Event", "recovered"),
    "declared_failed": QT_TRANSLATE_NOOP("Event", "declared failed"),
    "exported": QT_TRANSLATE_NOOP("Event", "exported"),
    "quota_refused": QT_TRANSLATE_NOOP("Event", "refused: daily quota used up"),
}


#: Events whose stored detail only repeats the event's name.
QUIET_DETAILS = {"submitted", "create_sent", "replayed"}


def load_thumbnail(path: str, size: int = THUMB) -> QImage:
    """Decode and scale an image (a worker thread may call this: QImage, not QPixmap)."""
    img = QImage(path)
    if img.isNull():
        return img
    return img.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)


def load_video_poster(path: str, size: int = 480) -> QImage:
    """The first frame of a video, decoded with PyAV (a worker thread calls this)."""
    try:
        import av

        with av.open(path) as container:
            for frame in container.decode(video=0):
                rgb = frame.reformat(format="rgb24")
                plane = rgb.planes[0]
                img = QImage(bytes(plane), rgb.width, rgb.height, plane.line_size,
                             QImage.Format.Format_RGB888).copy()
                return img.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatio,
                                  Qt.TransformationMode.SmoothTransformation)
    except Exception:  # noqa: BLE001 - a poster is a nicety; the player still works
        pass
    return QImage()


class WrappingDelegate(QStyledItemDelegate):
    """Rows as tall as their text wrapped at the view's width: an event is read whole, not cut
    off with "…" (QTreeView measures rows without knowing the column width)."""

    def __init__(self, view: QTreeWidget) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: Any) -> QSize:  # noqa: N802 - Qt override
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        depth = 0
        parent = index.parent()
        while parent.isValid():
            depth += 1
            parent = parent.parent()
        levels = depth + (1 if self.view.rootIsDecorated() else 0)
        margin = self.view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.view) + 1
        width = max(80, self.view.columnWidth(0) - self.view.indentation() * levels - 2 * margin - 1)
        # Lay the text out as the style will paint it (QTextLayout, word wrap): line heights then
        # include fallback fonts (CJK glyphs are taller than the UI font's own metrics say).
        layout = QTextLayout(opt.text, opt.font)
        text_option = QTextOption()
        text_option.setWrapMode(QTextOption.WrapMode.WordWrap)
        layout.setTextOption(text_option)
        height = 0
        layout.beginLayout()
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            height += math.ceil(line.height())
        layout.endLayout()
        return QSize(width, height + 6 + 4)  # the stylesheet's item padding (3 px × 2), and air


class EventTree(QTreeWidget):
    """The history timeline: rows re-measured when the panel's width changes."""

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.scheduleDelayedItemsLayout()


class VideoView(QWidget):
    """A poster with a play button; playing swaps in a QVideoWidget driven by a QMediaPlayer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("videoView")
        self.path: str | None = None
        self._poster_image: QImage | None = None
        self.player: Any = None
        self.audio: Any = None
        self.video_widget: Any = None
        self.stack = QStackedWidget()
        self.poster = QLabel(alignment=Qt.AlignmentFlag.AlignCenter, objectName="videoPoster")
        self.poster.setMinimumHeight(160)
        self.poster.setStyleSheet("background: #1f2328; color: #c9d1d9; border-radius: 6px;")
        self.stack.addWidget(self.poster)
        self.play_button = QPushButton(self.tr("▶ Play"), objectName="playButton")
        self.play_button.setAccessibleName(self.tr("Play video"))
        self.note = QLabel(objectName="hint")
        self.note.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.play_button)
        row.addWidget(self.note, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.stack, 1)
        box.addLayout(row)
        self.play_button.clicked.connect(self.toggle)
        mm = multimedia()
        if mm is None:
            self.play_button.setEnabled(False)
            self.note.setText(self.tr("Video playback is not available here: %1").replace(
                "%1", multimedia_error() or ""))

    def _ensure_player(self) -> Any:
        if self.player is None:
            mm = multimedia()
            if mm is None:
                return None
            qm, qmw = mm
            self.player = qm.QMediaPlayer(self)
            self.video_widget = qmw.QVideoWidget()
            self.video_widget.setObjectName("videoWidget")
            self.stack.addWidget(self.video_widget)
            self.player.setVideoOutput(self.video_widget)
            # Qt 6 plays no sound without an audio output: the system's default device
            self.audio = qm.QAudioOutput(self)
            self.player.setAudioOutput(self.audio)
            self.player.setLoops(qm.QMediaPlayer.Loops.Infinite)
            self.player.playbackStateChanged.connect(self._state_changed)
            self.player.errorOccurred.connect(lambda _e, msg: self.note.setText(msg))
        return self.player

    def set_video(self, path: str | None, poster: QImage | None = None) -> None:
        self.stop()
        self.path = path
        self.stack.setCurrentWidget(self.poster)
        self._poster_image = None
        if poster is not None and not poster.isNull():
            self.set_poster(poster)
        else:
            self.poster.setPixmap(QPixmap())
            self.poster.setText(self.tr("Video") if path else "")
        self.play_button.setText(self.tr("▶ Play"))

    def set_poster(self, poster: QImage) -> None:
        """Show the first frame whole (letterboxed), never cropped, at the pane's size."""
        if not poster.isNull():
            self._poster_image = poster
            self._fit_poster()

    def _fit_poster(self) -> None:
        image = getattr(self, "_poster_image", None)
        if image is None:
            return
        size = self.poster.contentsRect().size()
        if size.width() < 8 or size.height() < 8:
            size = image.size()
        self.poster.setPixmap(QPixmap.fromImage(image.scaled(
            size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)))

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_poster()

    def toggle(self) -> None:
        player = self._ensure_player()
        if player is None or not self.path:
            return
        qm = multimedia()[0]  # type: ignore[index]
        if player.playbackState() == qm.QMediaPlayer.PlaybackState.PlayingState:
            player.pause()
            return
        if player.source() != QUrl.fromLocalFile(self.path):
            player.setSource(QUrl.fromLocalFile(self.path))
        self.stack.setCurrentWidget(self.video_widget)
        player.play()

    def _state_changed(self, state: Any) -> None:
        qm = multimedia()[0]  # type: ignore[index]
        playing = state == qm.QMediaPlayer.PlaybackState.PlayingState
        self.play_button.setText(self.tr("❚❚ Pause") if playing else self.tr("▶ Play"))

    def stop(self) -> None:
        if self.player is not None:
            self.player.stop()
            self.player.setSource(QUrl())


class HistoryPanel(QWidget):
    """Media, file facts and the timeline of one slot. Asks the controller to decode images."""

    openFolder = Signal(str)

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyPanel")
        self.setAccessibleName(self.tr("Result and history"))
        self.controller = controller
        self._media: list[MediaView] = []
        self._token = 0

        self.media_title = QLabel(self.tr("RESULT"), objectName="paneTitle")
        self.media_stack = QStackedWidget()
        self.empty_media = QLabel(self.tr("No verified media yet."), objectName="hint",
                                  alignment=Qt.AlignmentFlag.AlignCenter)
        self.empty_media.setWordWrap(True)
        self.thumbs = QListWidget(objectName="thumbnailList")
        self.thumbs.setViewMode(QListWidget.ViewMode.IconMode)
        self.thumbs.setIconSize(QSize(THUMB, THUMB))
        self.thumbs.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.thumbs.setMovement(QListWidget.Movement.Static)
        self.thumbs.setSpacing(6)
        self.thumbs.setAccessibleName(self.tr("Images"))
        self.video = VideoView()
        for w in (self.empty_media, self.thumbs, self.video):
            self.media_stack.addWidget(w)
        self.file_info = QLabel(objectName="fileInfo")
        self.file_info.setWordWrap(True)
        self.file_info.setTextFormat(Qt.TextFormat.RichText)
        self.file_info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton(self.tr("Open"), objectName="openButton")
        self.folder_button = QPushButton(self.tr("Show in folder"), objectName="folderButton")
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.folder_button)
        buttons.addStretch(1)

        self.history_title = QLabel(self.tr("HISTORY"), objectName="paneTitle")
        self.events = EventTree(objectName="historyTree")
        self.events.setHeaderHidden(True)
        self.events.setColumnCount(1)
        self.events.setWordWrap(True)
        self.events.setUniformRowHeights(False)
        self.events.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.events.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.events.setItemDelegate(WrappingDelegate(self.events))
        self.events.setAccessibleName(self.tr("History"))

        top = QWidget()
        tbox = QVBoxLayout(top)
        tbox.setContentsMargins(0, 0, 0, 0)
        tbox.addWidget(self.media_title)
        tbox.addWidget(self.media_stack, 1)
        tbox.addWidget(self.file_info)
        tbox.addLayout(buttons)
        bottom = QWidget()
        bbox = QVBoxLayout(bottom)
        bbox.setContentsMargins(0, 0, 0, 0)
        bbox.addWidget(self.history_title)
        bbox.addWidget(self.events, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical, objectName="historySplitter")
        self.splitter.addWidget(top)
        self.splitter.addWidget(bottom)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.splitter)

        self.open_button.clicked.connect(self._open_file)
        self.folder_button.clicked.connect(self._open_folder)
        self.thumbs.itemActivated.connect(lambda item: self._open_path(item.data(Qt.ItemDataRole.UserRole)))
        self.show_slot(None, [])

    # -- content ----------------------------------------------------------------------------
    def show_slot(self, task: TaskView | None, events: list[HistoryEvent]) -> None:
        self._show_media(task)
        self._show_events(events)

    def _show_media(self, task: TaskView | None) -> None:
        media = list(task.media) if task is not None and task.state is State.SUCCESS else []
        same = [m.sha256 for m in media] == [m.sha256 for m in self._media]
        self._media = media
        # Open and Show in folder exist only where there is a file to open (hidden, not greyed out).
        self.open_button.setVisible(bool(media))
        self.folder_button.setVisible(bool(media))
        if not media:
            self._token += 1
            self.video.set_video(None)
            self.thumbs.clear()
            self.media_stack.setCurrentWidget(self.empty_media)
            self.file_info.setText("")
            if task is None:
                self.empty_media.setText(self.tr("Pick a slot on the left, or start a new one."))
            elif task.state is State.FAIL:
                self.empty_media.setText(self.tr("No verified media: this slot failed."))
            else:
                self.empty_media.setText(self.tr("Media appear here once they are downloaded and verified."))
            return
        self.file_info.setText("<br>".join(self._describe(m) for m in media[:2])
                               + (f"<br>… +{len(media) - 2}" if len(media) > 2 else ""))
        self.file_info.setToolTip("\n\n".join(f"{m.path}\nSHA-256 {m.sha256}" for m in media))
        if same:
            return
        self._token += 1
        token = self._token
        if media[0].content_type.startswith("video/"):
            self.media_stack.setCurrentWidget(self.video)
            self.video.set_video(media[0].path)
            path = media[0].path
            self.controller.call(load_video_poster, path,
                                 done=lambda img: token == self._token and self.video.set_poster(img))
            return
        self.video.set_video(None)
        self.media_stack.setCurrentWidget(self.thumbs)
        self.thumbs.clear()
        for i, m in enumerate(media, 1):
            item = QListWidgetItem(f"{i} · {m.width}×{m.height}" if m.width else str(i))
            item.setData(Qt.ItemDataRole.UserRole, m.path)
            item.setToolTip(f"{m.path}\nSHA-256 {m.sha256}")
            item.setSizeHint(QSize(THUMB + 16, THUMB + 28))
            self.thumbs.addItem(item)

            def show(img: QImage, item: QListWidgetItem = item) -> None:
                if token == self._token and not img.isNull():
                    item.setIcon(QPixmap.fromImage(img))

            self.controller.call(load_thumbnail, m.path, done=show)

    def _describe(self, m: MediaView) -> str:
        from html import escape

        dims = f"{m.width}×{m.height}" if m.width and m.height else ""
        size = f"{m.bytes / 1024 / 1024:.1f} MB" if m.bytes >= 1024 * 1024 else f"{m.bytes / 1024:.0f} KB"
        dur = f" · {m.duration:g} s" if m.duration else ""
        path = m.path if len(m.path) <= 64 else m.path[:28] + "…" + m.path[-34:]
        return (f"<b>{escape(m.content_type)}</b> · {dims}{dur} · {size}<br>"
                f"<span style='color:#6b7280'>{escape(path)}</span><br>"
                f"<span style='font-family:monospace; font-size:9pt; color:#6b7280'>SHA-256 "
                f"{m.sha256[:32]}<br>{'&nbsp;' * 8}{m.sha256[32:]}</span>")

    def _show_events(self, events: list[HistoryEvent]) -> None:
        self.events.clear()
        if not events:
            self.events.addTopLevelItem(QTreeWidgetItem([self.tr("Nothing has happened in this slot yet.")]))
            return
        for e in events:
            when = dt.datetime.fromtimestamp(e.at).strftime("%H:%M:%S")
            word = translate("Event", EVENT_WORDS[e.event]) if e.event in EVENT_WORDS else e.event
            text = f"{when}  {word}"
            if e.detail and e.event not in QUIET_DETAILS:
                text += f": {e.detail}"
            item = QTreeWidgetItem([text])
            item.setToolTip(0, dt.datetime.fromtimestamp(e.at).isoformat(timespec="seconds"))
            data = e.data
            if data:
                raw = QTreeWidgetItem([json.dumps(data, indent=2, ensure_ascii=False, default=str)[:4000]])
                raw.setForeground(0, Qt.GlobalColor.darkGray)
                font = raw.font(0)
                font.setFamily("monospace")
                font.setPointSizeF(max(font.pointSizeF() - 1, 7))
                raw.setFont(0, font)
                item.addChild(raw)
            self.events.addTopLevelItem(item)
        self.events.scrollToBottom()

    # -- buttons ------------------------------------------------------------------------------
    def _open_path(self, path: str | None) -> None:
        if path:
            QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def _open_file(self) -> None:
        if self._media:
            self._open_path(self._media[0].path)

    def _open_folder(self) -> None:
        if self._media:
            folder = str(Path(self._media[0].path).parent)
            self.openFolder.emit(folder)
            QDesktopServices.openUrl(QUrl.fromLocalFile(folder))
