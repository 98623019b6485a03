"""Real media for the demo provider: PNG images drawn with Qt and MP4 videos encoded with PyAV.

Media are a pure function of their parameters, so any process can serve any task. Rendering is
serialized by one lock (QPainter on QImage is safe off the GUI thread, but fonts need a
QGuiApplication; without one, a plain pattern is drawn without Qt text).

V2 videos (MiniMax-H3) are 24 fps H.264 with a stereo AAC track. They are made cheaply: one
distinct picture per second, drawn straight into the video frame's plane, converted to YUV once
and handed to x264 24 times (ultrafast, one thread, a constant quantizer: no look-ahead analysis,
and a repeat codes as one skipped slice); the audio is a quiet two-tone signal, the same for
every clip of a length, so its AAC packets (FFmpeg's fast coder) are encoded once per length and
muxed again. Results are cached by parameters in memory and, when a cache folder is given, on
disk (shared by the processes of one data dir).
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import random
import struct
import threading
import zlib
from collections import OrderedDict
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

_render_lock = threading.Lock()
_cache_lock = threading.Lock()
_cache: "OrderedDict[tuple, bytes]" = OrderedDict()
_CACHE_BYTES = 64 * 1024 * 1024


def ensure_qt_app() -> bool:
    """Make sure a Qt application exists (offscreen); only creates one on the main thread."""
    try:
        from PySide6.QtCore import QCoreApplication
        from PySide6.QtGui import QGuiApplication
    except ImportError:  # pragma: no cover - PySide6 is a dependency
        return False
    app = QCoreApplication.instance()
    if app is not None:
        return isinstance(app, QGuiApplication)
    if threading.current_thread() is not threading.main_thread():
        return False
    from PySide6.QtWidgets import QApplication

    # A QApplication (not only QGuiApplication) so widget code in the same process still works.
    global _app
    _app = QApplication(["slate-sim", "-platform", "offscreen"])
    return True


_app = None


def _qt_ready() -> bool:
    try:
        from PySide6.QtGui import QGuiApplication
    except ImportError:  # pragma: no cover
        return False
    return QGuiApplication.instance() is not None and isinstance(
        QGuiApplication.instance(), QGuiApplication
    )


def _color(seed: bytes) -> tuple[int, int, int]:
    return 40 + seed[0] % 120, 40 + seed[1] % 120, 60 + seed[2] % 140


def _cached(key: tuple, make, cache_dir: Path | None = None) -> bytes:  # type: ignore[no-untyped-def]
    """``make()``'s bytes for ``key``: kept in this process's memory and, given ``cache_dir``,
    in a file there that every process naming the folder reads instead of rendering again."""
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    data = make() if cache_dir is None else _from_disk(key, cache_dir, make)
    with _cache_lock:
        _cache[key] = data
        total = sum(len(v) for v in _cache.values())
        while total > _CACHE_BYTES and len(_cache) > 1:
            _, old = _cache.popitem(last=False)
            total -= len(old)
    return data


def _from_disk(key: tuple, cache_dir: Path, make) -> bytes:  # type: ignore[no-untyped-def]
    """The file of ``key`` in ``cache_dir``, or ``make()``'s bytes written there whole (a
    private temporary file renamed into place: a reader never sees half of one). The renderer
    is part of the name: a process without a Qt application draws other (text-less) pictures,
    and never reads one a Qt process drew, nor the other way round."""
    name = hashlib.sha256(repr((key, _qt_ready())).encode("utf-8")).hexdigest()[:32]
    path = cache_dir / f"{name}.{key[0]}"
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = make()
    try:
        from app.files import private_dir

        private_dir(path.parent)
        tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        pass
    return data


def _draw(
    width: int,
    height: int,
    title: str,
    prompt: str,
    seed: bytes,
    progress: float | None,
    image=None,
):
    """Draw one frame into ``image`` (an RGB888 QImage of that size; a new one if None) and
    return it. Caller holds the render lock."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen

    if image is None:
        image = QImage(width, height, QImage.Format.Format_RGB888)
    r, g, b = _color(seed)
    image.fill(QColor(r, g, b))
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(QRect(0, 0, width, max(8, height // 10)), QColor(20, 20, 20))
        font = QFont()
        font.setPixelSize(max(10, height // 16))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor(255, 200, 0))
        painter.drawText(
            QRect(width // 40, 0, width, max(8, height // 10)),
            int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft),
            f"DEMO 演示 · {title}",  # read in either language of the window
        )
        body = QFont()
        body.setPixelSize(max(8, height // 24))
        painter.setFont(body)
        painter.setPen(QColor(255, 255, 255))
        text = prompt if len(prompt) <= 600 else prompt[:600] + "…"
        margin = width // 20
        painter.drawText(
            QRect(margin, height // 8, width - 2 * margin, height * 3 // 4),
            int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap),
            text,
        )
        if progress is not None:
            bar_h = max(6, height // 40)
            painter.fillRect(QRect(0, height - bar_h, width, bar_h), QColor(0, 0, 0))
            painter.fillRect(
                QRect(0, height - bar_h, int(width * progress), bar_h), QColor(255, 200, 0)
            )
        painter.setPen(QPen(QColor(255, 200, 0), max(2, height // 200)))
        painter.drawRect(QRect(1, 1, width - 3, height - 3))
    finally:
        painter.end()
    return image


def _rgb_png(width: int, height: int, rows: bytes) -> bytes:
    """An 8-bit RGB PNG of ``rows`` (each a filter byte 0 and ``width`` pixels), deflated at
    zlib's level 1: for these flat pictures a third of level 6's CPU for a file about half as
    big again. Qt's writer (libpng) tries every row filter on every row: twice the CPU."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_box(b"IHDR", ihdr)
        + _png_box(b"IDAT", zlib.compress(rows, 1))
        + _png_box(b"IEND", b"")
    )


def _plain_png(width: int, height: int, seed: bytes) -> bytes:
    """A PNG without Qt (no text): used when no Qt application can exist here."""
    r, g, b = _color(seed)
    row = b"\x00" + bytes((r, g, b)) * width
    band = b"\x00" + bytes((255, 200, 0)) * width
    return _rgb_png(
        width, height, b"".join(band if y < max(8, height // 10) else row for y in range(height))
    )


def _image_png(image) -> bytes:  # type: ignore[no-untyped-def]
    """The PNG of an RGB888 QImage: its rows, each behind a filter byte 0."""
    width, height, stride = image.width(), image.height(), image.bytesPerLine()
    raw = memoryview(image.constBits())
    line = width * 3
    return _rgb_png(
        width,
        height,
        b"".join(b"\x00" + raw[y * stride : y * stride + line] for y in range(height)),
    )


def _seed(*parts: object) -> bytes:
    return hashlib.sha256(repr(parts).encode("utf-8")).digest()


def render_png(
    width: int,
    height: int,
    prompt: str,
    *,
    index: int = 0,
    seed: int | None = None,
    cache_dir: Path | None = None,
) -> bytes:
    """A PNG of ``width``x``height`` showing the prompt and a DEMO mark (in both languages)."""
    key = ("png", width, height, prompt, index, seed)

    def make() -> bytes:
        digest = _seed(prompt, index, seed)
        if not _qt_ready():
            return _plain_png(width, height, digest)
        with _render_lock:
            return _image_png(_draw(width, height, f"#{index + 1}", prompt, digest, None))

    return _cached(key, make, cache_dir)


def render_mp4(
    width: int,
    height: int,
    duration: int,
    prompt: str,
    *,
    fps: int = 2,
    seed: int | None = None,
    cache_dir: Path | None = None,
) -> bytes:
    """A playable H.264 MP4 of ``width``x``height`` lasting ``duration`` s (low frame rate)."""
    key = ("mp4", width, height, duration, prompt, fps, seed)
    return _cached(key, lambda: _encode_mp4(width, height, duration, prompt, fps, seed), cache_dir)


def _encode_mp4(
    width: int, height: int, duration: int, prompt: str, fps: int, seed: int | None
) -> bytes:
    import av

    digest = _seed(prompt, seed)
    frames = max(1, int(duration * fps))
    buf = io.BytesIO()
    with _render_lock:
        use_qt = _qt_ready()
        container = av.open(buf, "w", format="mp4")
        try:
            stream = container.add_stream("libx264", rate=fps)
            stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
            stream.options = _x264_options(35, "keyint=250")  # x264's default GOP
            for i in range(frames):
                frame = _frame_rgb(
                    width, height, f"{duration}s", prompt, digest, (i + 1) / frames, use_qt
                )
                frame.pts = i
                for packet in stream.encode(frame):
                    container.mux(packet)
            for packet in stream.encode():
                container.mux(packet)
        finally:
            container.close()
    return buf.getvalue()


#: V2 output: frames per second, audio sample rate.
V2_FPS = 24
AUDIO_RATE = 48_000


def _x264_options(qp: int, params: str) -> dict[str, str]:
    """libx264 settings for demo clips: the fastest preset on one thread (renders are serialized
    and the machine's cores busy elsewhere) and a constant quantizer, which needs none of the
    look-ahead analysis CRF runs on every frame (a repeated picture then codes as skips only).
    ``qp`` is the CRF it replaces: a key frame comes out the same size."""
    return {
        "preset": "ultrafast",
        "tune": "stillimage",
        "qp": str(qp),
        "x264-params": f"{params}:scenecut=0:rc-lookahead=0:aq-mode=0:threads=1",
    }


@lru_cache(maxsize=1)
def _tone_second() -> bytes:
    """One second of interleaved stereo s16: 480 Hz left, 600 Hz right, about -20 dBFS."""
    block = bytearray()
    for i in range(400):  # 400 samples hold whole periods of both tones
        left = int(3000 * math.sin(2 * math.pi * 480 * i / AUDIO_RATE))
        right = int(3000 * math.sin(2 * math.pi * 600 * i / AUDIO_RATE))
        block += struct.pack("<hh", left, right)
    return bytes(block) * (AUDIO_RATE // 400)


def render_mp4_v2(
    width: int,
    height: int,
    duration: int,
    title: str,
    prompt: str,
    *,
    seed: int | None = None,
    cache_dir: Path | None = None,
) -> bytes:
    """A 24 fps H.264 MP4 of ``width``x``height`` and ``duration`` s with stereo AAC audio."""
    key = ("mp4v2", width, height, duration, title, prompt, seed)
    return _cached(
        key, lambda: _encode_mp4_v2(width, height, duration, title, prompt, seed), cache_dir
    )


def _frame_rgb(
    width: int, height: int, title: str, prompt: str, digest: bytes, progress: float, use_qt: bool
):  # type: ignore[no-untyped-def]
    """An rgb24 video frame of the picture: drawn by Qt into a buffer laid out as the frame's
    plane (its line size, the padding zero), so it is copied in whole, never row by row."""
    import av

    frame = av.VideoFrame(width, height, "rgb24")
    plane = frame.planes[0]
    line = plane.line_size
    if use_qt:
        from PySide6.QtGui import QImage

        raw = bytearray(line * height)
        _draw(
            width,
            height,
            title,
            prompt,
            digest,
            progress,
            QImage(raw, width, height, line, QImage.Format.Format_RGB888),
        )
    else:
        raw = bytearray((bytes(_color(digest)) * width).ljust(line, b"\0") * height)
    plane.update(raw)
    return frame


@lru_cache(maxsize=16)
def _tone_packets(duration: int) -> tuple[tuple[bytes, int, int, int], ...]:
    """The AAC packets of ``duration`` s of :func:`_tone_second` (data, pts, dts, duration, in
    samples), as the clip's own audio stream would encode them: every clip of a length has the
    same sound, so it is encoded once per length and its packets muxed into each clip."""
    import av

    audio = av.CodecContext.create("aac", "w")
    _aac_settings(audio)
    pcm = av.AudioFrame(format="s16", layout="stereo", samples=AUDIO_RATE * duration)
    pcm.planes[0].update(_tone_second() * duration)
    pcm.sample_rate = AUDIO_RATE
    pcm.pts = 0
    pcm.time_base = Fraction(1, AUDIO_RATE)
    return tuple(
        (bytes(p), p.pts, p.dts, p.duration) for p in [*audio.encode(pcm), *audio.encode(None)]
    )


def _aac_settings(audio) -> None:  # type: ignore[no-untyped-def]
    """Stereo AAC at 48 kHz, 48 kb/s, FFmpeg's fast coder (a quarter of the default's CPU)."""
    audio.format = "fltp"
    audio.sample_rate = AUDIO_RATE
    audio.layout = "stereo"
    audio.bit_rate = 48_000
    audio.options = {"aac_coder": "fast"}


def _encode_mp4_v2(
    width: int, height: int, duration: int, title: str, prompt: str, seed: int | None
) -> bytes:
    import av

    digest = _seed(prompt, seed, "v2")
    buf = io.BytesIO()
    with _render_lock:
        use_qt = _qt_ready()
        container = av.open(buf, "w", format="mp4")
        try:
            video = container.add_stream("libx264", rate=V2_FPS)
            video.width, video.height, video.pix_fmt = width, height, "yuv420p"
            video.options = _x264_options(40, f"keyint={V2_FPS * 5}")
            audio = container.add_stream("aac", rate=AUDIO_RATE)
            _aac_settings(audio.codec_context)
            for second in range(duration):
                rgb = _frame_rgb(
                    width, height, title, prompt, digest, (second + 1) / duration, use_qt
                )
                yuv = rgb.reformat(format="yuv420p")
                for i in range(second * V2_FPS, (second + 1) * V2_FPS):
                    yuv.pts = i
                    yuv.time_base = Fraction(1, V2_FPS)
                    for packet in video.encode(yuv):
                        container.mux(packet)
            for packet in video.encode():
                container.mux(packet)
            for data, pts, dts, length in _tone_packets(duration):
                packet = av.Packet(data)
                packet.pts, packet.dts, packet.duration = pts, dts, length
                packet.time_base = Fraction(1, AUDIO_RATE)
                packet.is_keyframe = True
                packet.stream = audio
                container.mux(packet)
        finally:
            container.close()
    return buf.getvalue()


# -- the undecodable_media fault ------------------------------------------------------------
def _png_box(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


@lru_cache(maxsize=1)
def bomb_png(side: int = 13300) -> bytes:
    """A grey PNG claiming side×side pixels that compresses to a few hundred kB."""
    z = zlib.compressobj(9)
    row = b"\0" * (side + 1)
    idat = b"".join(z.compress(row) for _ in range(side)) + z.flush()
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_box(b"IHDR", ihdr)
        + _png_box(b"IDAT", idat)
        + _png_box(b"IEND", b"")
    )


def tiny_png() -> bytes:
    """A real PNG of 1×1 pixels (the shape of no request)."""
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_box(b"IHDR", ihdr)
        + _png_box(b"IDAT", zlib.compress(b"\0\0\0\0"))
        + _png_box(b"IEND", b"")
    )


def spoiled_media(data: bytes, content_type: str, rng: random.Random) -> bytes:
    """Media that does not decode as asked: an MP4 whose frames are garbage (its container —
    streams, sizes, duration — intact), or a 1×1 PNG, or a decompression bomb; a sound cut to
    its first bytes."""
    if content_type.startswith("audio/"):
        return data[: min(len(data), 48)]
    if content_type == "video/mp4":
        at = data.find(b"mdat")
        if at < 4:
            return data[: len(data) // 2]
        size = int.from_bytes(data[at - 4 : at], "big") - 8
        start = at + 4
        return data[:start] + b"\xff" * max(size, 0) + data[start + max(size, 0) :]
    return bomb_png() if rng.random() < 0.5 else tiny_png()
