"""Media widgets and decoders: image thumbnails and video posters (decoded off the UI thread by
the controller's worker), and a video view that plays in place.

Decoders return ``QImage`` (a worker thread may make one; a ``QPixmap`` only the UI thread).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Any

from app.ui.qt import (
    QHBoxLayout,
    QImage,
    QLabel,
    QPixmap,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QUrl,
    QVBoxLayout,
    QWidget,
    Qt,
    media_player,
    multimedia,
    say_if_no_playback,
    stop_player,
)

THUMB = 160


def load_thumbnail(path: str, size: int = THUMB) -> QImage:
    """Decode and scale an image (a worker thread may call this: QImage, not QPixmap)."""
    img = QImage(path)
    if img.isNull():
        return img
    return img.scaled(
        size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
    )


#: Posters made lately, by file (path, inode, size, change time) and size asked, newest last:
#: a slot shown again, or in both panes, is not decoded and scaled again (a 2K video's poster
#: costs ~80 ms of CPU, most of it the smooth scaling).
_posters: OrderedDict[tuple[str, int, int, int, int], QImage] = OrderedDict()
_posters_lock = threading.Lock()
POSTERS_KEPT = 16


def load_video_poster(path: str, size: int = 480) -> QImage:
    """The first frame of a video, decoded with PyAV (a worker thread calls this), scaled to fit
    ``size``; made once per file and size while it is among the last :data:`POSTERS_KEPT`."""
    try:
        st = os.stat(path)
    except OSError:
        return QImage()
    key = (path, st.st_ino, st.st_size, st.st_mtime_ns, size)
    with _posters_lock:
        kept = _posters.get(key)
        if kept is not None:
            _posters.move_to_end(key)
            return QImage(kept)  # shares the pixels; neither is ever painted on
    img = _decode_poster(path, size)
    if not img.isNull():
        with _posters_lock:
            _posters[key] = img
            while len(_posters) > POSTERS_KEPT:
                _posters.popitem(last=False)
    return QImage(img)


def _decode_poster(path: str, size: int) -> QImage:
    try:
        import av

        with av.open(path) as container:
            for frame in container.decode(video=0):
                rgb = frame.reformat(format="rgb24")
                plane = rgb.planes[0]
                img = QImage(
                    bytes(plane),
                    rgb.width,
                    rgb.height,
                    plane.line_size,
                    QImage.Format.Format_RGB888,
                ).copy()
                return img.scaled(
                    size,
                    size,
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
    except Exception:  # noqa: BLE001 - a poster is a nicety; the player still works
        pass
    return QImage()


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
        # the pane decides the poster's width, never the picture shown: a poster fitted to a wide
        # window would otherwise keep the pane that wide when the window shrinks (cut on the right)
        self.poster.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
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
        self._playback_checked = False  # Qt's multimedia loads when a video is first shown

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._playback_checked:
            self._playback_checked = True
            say_if_no_playback(
                self.play_button, self.note, self.tr("Video playback is not available here: %1")
            )

    def _ensure_player(self) -> Any:
        if self.player is None:
            mm = multimedia()
            if mm is None:
                return None
            qm, qmw = mm
            self.player, self.audio = media_player(self)  # the system's default device
            self.video_widget = qmw.QVideoWidget()
            self.video_widget.setObjectName("videoWidget")
            self.stack.addWidget(self.video_widget)
            self.player.setVideoOutput(self.video_widget)
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
        self.poster.setPixmap(
            QPixmap.fromImage(
                image.scaled(
                    size,
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )
        )

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
            stop_player(self.player)
