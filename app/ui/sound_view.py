"""A sound result: its waveform, play/pause and scrubbing.

:func:`waveform_peaks` decodes the file with PyAV (imported when first called) and keeps the
loudest sample of each of ``buckets`` slices: a worker thread runs it (the controller's
``call``), never the UI thread. :class:`SoundView` draws those peaks
(:class:`WaveformView`), plays the file through ``QMediaPlayer`` + ``QAudioOutput``
(:func:`app.ui.qt.media_player`, made on the first Play) and scrubs where the waveform is
clicked or dragged, or with the arrow keys.
"""

from __future__ import annotations

import html
import threading
from typing import Any

from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QColor,
    QHBoxLayout,
    QLabel,
    QObject,
    QPainter,
    QPushButton,
    QSizePolicy,
    QUrl,
    QVBoxLayout,
    QWidget,
    Qt,
    Signal,
    media_player,
    multimedia,
    say_if_no_playback,
    translate,
    stop_player,
)

BUCKETS = 600
#: A summary shows this much of a long text or lyrics (the slot keeps it all).
SUMMARY_MAX = 600


#: The waveform is read at this rate, mono; each slice the eye sees is at least 8 samples (2 ms)
#: and at most 4096 (a second): about two slices per bucket, so a long narration is as cheap to
#: draw as a short line (what costs is the decode, in PyAV's C code).
PEAK_RATE = 4000
SLICE_MIN, SLICE_MAX = 8, 4096


def waveform_peaks(path: str, buckets: int = BUCKETS) -> tuple[float, ...]:
    """The loudest sample (0..1) of each of ``buckets`` equal slices of the sound (a worker
    thread calls this; an undecodable file gives no peaks). Decoded with PyAV, resampled to
    mono 16-bit at :data:`PEAK_RATE`."""
    try:
        import av
    except ImportError:
        return ()
    slices: list[int] = []
    try:
        with av.open(path) as container:
            stream = container.streams.audio[0]
            resampler = av.AudioResampler(format="s16", layout="mono", rate=PEAK_RATE)
            seconds = (container.duration or 0) / 1_000_000
            step = int(min(SLICE_MAX, max(SLICE_MIN, seconds * PEAK_RATE / (2 * buckets))))
            carry = b""
            for frame in container.decode(stream):
                for out in resampler.resample(frame):
                    carry += bytes(out.planes[0])[: out.samples * 2]
                    whole = len(carry) - len(carry) % (step * 2)
                    samples = memoryview(carry[:whole]).cast("h")
                    for i in range(0, len(samples), step):
                        part = samples[i : i + step]
                        slices.append(max(max(part), -min(part)))
                    carry = carry[whole:]
            if len(carry) >= 2:
                part = memoryview(carry[: len(carry) - len(carry) % 2]).cast("h")
                slices.append(max(max(part), -min(part)))
    except Exception:  # noqa: BLE001 - a waveform is a nicety; the player still tries
        return ()
    if not slices:
        return ()
    n = min(buckets, len(slices))
    peaks = [max(slices[i * len(slices) // n : (i + 1) * len(slices) // n]) for i in range(n)]
    top = max(peaks) or 1
    return tuple(min(1.0, p / top) for p in peaks)


def clock(ms: int) -> str:
    s = max(0, int(ms // 1000))
    return f"{s // 60}:{s % 60:02d}"


class WaveformView(QWidget):
    """The peaks as bars, the part played darker; a click or a drag scrubs (``scrubbed``: the
    fraction 0..1), and so do the arrow keys (a tenth, or Home and End)."""

    scrubbed = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("waveform")
        self.peaks: tuple[float, ...] = ()
        self.progress = 0.0
        self.setMinimumHeight(72)
        self.setMaximumHeight(120)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setAccessibleName(self.tr("Waveform: click to play from there"))

    def set_peaks(self, peaks: tuple[float, ...]) -> None:
        self.peaks = tuple(peaks)
        self.update()

    def set_progress(self, fraction: float) -> None:
        self.progress = max(0.0, min(1.0, fraction))
        self.update()

    def _scrub_at(self, x: float) -> None:
        width = max(1, self.width())
        fraction = max(0.0, min(1.0, x / width))
        self.set_progress(fraction)
        self.scrubbed.emit(fraction)

    def mousePressEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            self._scrub_at(event.position().x())

    def mouseMoveEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._scrub_at(event.position().x())

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        key = event.key()
        steps = {Qt.Key.Key_Left: -0.1, Qt.Key.Key_Right: 0.1}
        if key in steps:
            fraction = self.progress + steps[key]
        elif key == Qt.Key.Key_Home:
            fraction = 0.0
        elif key == Qt.Key.Key_End:
            fraction = 1.0
        else:
            super().keyPressEvent(event)
            return
        self._scrub_at(max(0.0, min(1.0, fraction)) * self.width())

    def paintEvent(self, _event: Any) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#1f2328"))
        w, h = self.width(), self.height()
        mid = h / 2
        if not self.peaks:
            p.setPen(QColor("#57606a"))
            p.drawLine(0, int(mid), w, int(mid))
        else:
            # one bar every 3 px (2 px wide), each the loudest peak of the slices it covers
            bars = max(1, w // 3)
            n = len(self.peaks)
            played = self.progress * w
            for b in range(bars):
                lo, hi = b * n // bars, max(b * n // bars + 1, (b + 1) * n // bars)
                peak = max(self.peaks[lo:hi])
                x = b * 3
                half = max(1.0, peak * (h / 2 - 8))
                color = "#f0a93b" if x < played else "#8b949e"
                p.fillRect(x, int(mid - half), 2, max(2, int(2 * half)), QColor(color))
        p.setPen(QColor("#ffffff"))
        x = int(self.progress * w)
        p.drawLine(x, 0, x, h)
        if self.hasFocus():
            p.setPen(QColor("#58a6ff"))
            p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        p.end()


class SoundView(QWidget):
    """A song or a voice line: waveform, play/pause (Space on the button), time, scrubbing."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("soundView")
        self.path: str | None = None
        self.seconds: float | None = None
        self.player: Any = None
        self.audio: Any = None
        self._pending: float | None = None  # a scrub before the file was loaded
        self.waveform = WaveformView()
        self.play_button = QPushButton(self.tr("▶ Play"), objectName="soundPlayButton")
        self.play_button.setAccessibleName(self.tr("Play sound"))
        self.time = QLabel(objectName="soundTime")
        self.note = QLabel(objectName="hint")
        self.note.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.play_button)
        row.addWidget(self.time)
        row.addWidget(self.note, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.waveform, 1)
        box.addLayout(row)
        box.addStretch(0)
        self.play_button.clicked.connect(self.toggle)
        self.waveform.scrubbed.connect(self.scrub)
        self._playback_checked = False  # Qt's multimedia loads when a sound is first shown

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._playback_checked:
            self._playback_checked = True
            say_if_no_playback(
                self.play_button, self.note, self.tr("Sound playback is not available here: %1")
            )

    def set_sound(self, path: str | None, seconds: float | None = None) -> None:
        self.stop()
        self.path = path
        self.seconds = seconds
        self._pending = None
        self.waveform.set_peaks(())
        self.waveform.set_progress(0.0)
        self._say_time(0, int((seconds or 0) * 1000))
        self.play_button.setText(self.tr("▶ Play"))

    def set_peaks(self, peaks: tuple[float, ...]) -> None:
        self.waveform.set_peaks(peaks)

    def _ensure_player(self) -> Any:
        if self.player is None:
            if multimedia() is None:
                return None
            self.player, self.audio = media_player(self)
            self.player.playbackStateChanged.connect(self._state_changed)
            self.player.positionChanged.connect(self._position_changed)
            self.player.durationChanged.connect(self._duration_changed)
            self.player.errorOccurred.connect(lambda _e, msg: self.note.setText(msg))
        return self.player

    def _load(self) -> Any:
        player = self._ensure_player()
        if player is not None and self.path and player.source() != QUrl.fromLocalFile(self.path):
            player.setSource(QUrl.fromLocalFile(self.path))
        return player

    def toggle(self) -> None:
        """Play, or pause when playing."""
        player = self._load()
        if player is None or not self.path:
            return
        qm = multimedia()[0]  # type: ignore[index]
        if player.playbackState() == qm.QMediaPlayer.PlaybackState.PlayingState:
            player.pause()
        else:
            player.play()

    def is_playing(self) -> bool:
        if self.player is None:
            return False
        qm = multimedia()[0]  # type: ignore[index]
        return bool(self.player.playbackState() == qm.QMediaPlayer.PlaybackState.PlayingState)

    def scrub(self, fraction: float) -> None:
        """Move to ``fraction`` (0..1) of the sound (kept until the length is known)."""
        player = self._load()
        if player is None:
            return
        length = player.duration() or int((self.seconds or 0) * 1000)
        if length <= 0:
            self._pending = fraction
            return
        player.setPosition(int(fraction * length))

    def _duration_changed(self, ms: int) -> None:
        if ms > 0 and self._pending is not None:
            fraction, self._pending = self._pending, None
            self.player.setPosition(int(fraction * ms))
        self._say_time(self.player.position(), ms)

    def _position_changed(self, ms: int) -> None:
        length = self.player.duration() or int((self.seconds or 0) * 1000)
        if length > 0:
            self.waveform.set_progress(ms / length)
        self._say_time(ms, length)

    def _say_time(self, ms: int, length: int) -> None:
        self.time.setText(f"{clock(ms)} / {clock(length)}" if length else clock(ms))

    def _state_changed(self, _state: Any) -> None:
        playing = self.is_playing()
        self.play_button.setText(self.tr("❚❚ Pause") if playing else self.tr("▶ Play"))
        self.play_button.setAccessibleName(
            self.tr("Pause sound") if playing else self.tr("Play sound")
        )

    def stop(self) -> None:
        if self.player is not None:
            stop_player(self.player)


class PeakReader(QObject):
    """Reads a sound's waveform in a worker thread; :attr:`ready` on the UI thread (for views
    without the controller's worker: the gallery's viewer)."""

    ready = Signal(str, object)  # path, peaks

    def read(self, path: str) -> None:
        def work() -> None:
            peaks = waveform_peaks(path)
            try:
                self.ready.emit(path, peaks)
            except RuntimeError:  # the view went away meanwhile
                pass

        threading.Thread(target=work, name="waveform", daemon=True).start()


def _tr(text: str) -> str:
    return translate("SoundView", text)


def sound_summary(kind: str, p: dict[str, Any]) -> str:
    """A stored song's or voice line's parameters, read-only (rich text): what it is, model,
    voice or vocals, format; then its style and lyrics, or its text."""
    if kind == "music":
        vocals = (
            QT_TRANSLATE_NOOP("SoundView", "instrumental")
            if p.get("instrumental")
            else QT_TRANSLATE_NOOP("SoundView", "lyrics by MiniMax")
            if p.get("lyrics_optimizer")
            else QT_TRANSLATE_NOOP("SoundView", "with lyrics")
        )
        parts = [
            _tr(QT_TRANSLATE_NOOP("SoundView", "Song")),
            str(p.get("model") or ""),
            _tr(vocals),
        ]
        body = [str(p.get("prompt") or "")]
        if p.get("lyrics"):
            body.append(str(p["lyrics"]))
    elif kind == "voice":  # a designed voice: its description, then what its trial reads
        parts = [_tr(QT_TRANSLATE_NOOP("SoundView", "Designed voice"))]
        body = [str(p.get("prompt") or ""), str(p.get("preview_text") or "")]
    else:
        n = len(str(p.get("text") or ""))
        parts = [
            _tr(QT_TRANSLATE_NOOP("SoundView", "Voice line")),
            str(p.get("model") or ""),
            str(p.get("voice") or ""),
            f"{float(p.get('speed') or 1):g}×",
            _tr(QT_TRANSLATE_NOOP("SoundView", "%1 characters")).replace("%1", f"{n:,}"),
        ]
        body = [str(p.get("text") or "")]
    if p.get("format"):
        parts.append(str(p["format"]))
    line = " · ".join(x for x in parts if x)
    shown = [b if len(b) <= SUMMARY_MAX else b[:SUMMARY_MAX] + "…" for b in body if b]
    text = "<br>".join(html.escape(b).replace("\n", "<br>") for b in shown)
    return f"<b>{html.escape(line)}</b><br><span style='color:#374151'>{text}</span>"


def show_sound(view: SoundView, media: Any, controller: Any, current: Any) -> None:
    """Put a verified sound (a MediaView) into ``view`` and have its waveform read in the
    controller's worker thread; ``current()`` says whether the view still shows it."""
    view.set_sound(media.path, media.duration)
    controller.call(
        waveform_peaks, media.path, done=lambda peaks: current() and view.set_peaks(peaks)
    )


__all__ = ["PeakReader", "SoundView", "WaveformView", "clock", "show_sound", "waveform_peaks"]
