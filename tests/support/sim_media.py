"""Real input media for the demo provider's tests: images (Pillow), video clips and audio
(PyAV), as bytes or data URLs. Small and made on the fly, never fetched."""

from __future__ import annotations

import base64
import io
import math
import struct
from fractions import Fraction
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=64)
def image_bytes(
    width: int, height: int, fmt: str = "PNG", color: tuple[int, int, int] = (30, 90, 160)
) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buf, fmt)
    return buf.getvalue()


def data_url(data: bytes, subtype: str = "png") -> str:
    return f"data:image/{subtype};base64,{base64.b64encode(data).decode()}"


def image_url(
    width: int = 640, height: int = 480, fmt: str = "PNG", subtype: str | None = None
) -> str:
    return data_url(image_bytes(width, height, fmt), subtype or fmt.lower())


def heif_bytes(width: int, height: int, brand: bytes = b"heic") -> bytes:
    """The boxes a HEIC file starts with (ftyp, and an ``ispe`` property holding the size)."""
    ftyp = struct.pack(">I", 24) + b"ftyp" + brand + struct.pack(">I", 0) + b"mif1" + brand
    ispe = struct.pack(">I", 20) + b"ispe" + b"\0\0\0\0" + struct.pack(">II", width, height)
    meta = struct.pack(">I", 8 + len(ispe)) + b"iprp" + ispe
    return ftyp + meta + b"\0" * 64


@lru_cache(maxsize=32)
def video_bytes(
    seconds: float = 3.0,
    fps: int | Fraction = 24,
    size: tuple[int, int] = (320, 240),
    codec: str = "libx264",
    container: str = "mp4",
    audio: bool = True,
) -> bytes:
    import av

    buf = io.BytesIO()
    out = av.open(buf, "w", format=container)
    stream = out.add_stream(codec, rate=fps)
    stream.width, stream.height, stream.pix_fmt = size[0], size[1], "yuv420p"
    if codec == "libx264":
        stream.options = {"preset": "ultrafast"}
    elif codec == "libx265":
        stream.options = {"preset": "ultrafast", "x265-params": "log-level=none"}
    sound = _audio_stream(out, "aac") if audio else None
    frame = av.VideoFrame(size[0], size[1], "rgb24")
    frame.planes[0].update(bytes((40, 120, 200)) * (size[0] * size[1]))
    frame = frame.reformat(format="yuv420p")
    frames = int(round(seconds * float(fps)))
    for i in range(frames):
        frame.pts = i
        frame.time_base = 1 / Fraction(fps)
        for packet in stream.encode(frame):
            out.mux(packet)
    for packet in stream.encode():
        out.mux(packet)
    if sound is not None:
        _encode_audio(out, sound, seconds)
    out.close()
    return buf.getvalue()


def _audio_stream(out, codec: str):  # type: ignore[no-untyped-def]
    stream = out.add_stream(codec, rate=48000 if codec != "libmp3lame" else 44100)
    stream.layout = "stereo"
    return stream


def _encode_audio(out, stream, seconds: float) -> None:  # type: ignore[no-untyped-def]
    import av

    rate = stream.codec_context.sample_rate
    samples = int(rate * seconds)
    tone = b"".join(struct.pack("<hh", int(2000 * math.sin(i / 8)), 0) for i in range(400))
    pcm = (tone * (samples // 400 + 1))[: samples * 4]
    frame = av.AudioFrame(format="s16", layout="stereo", samples=samples)
    frame.planes[0].update(pcm)
    frame.sample_rate = rate
    frame.pts = 0
    frame.time_base = Fraction(1, rate)
    for packet in stream.encode(frame):
        out.mux(packet)
    for packet in stream.encode():
        out.mux(packet)


@lru_cache(maxsize=16)
def audio_bytes(seconds: float = 3.0, fmt: str = "wav") -> bytes:
    import av

    buf = io.BytesIO()
    out = av.open(buf, "w", format=fmt)
    _encode_audio(out, _audio_stream(out, "pcm_s16le" if fmt == "wav" else "libmp3lame"), seconds)
    out.close()
    return buf.getvalue()


@lru_cache(maxsize=4)
def vp9_opus_bytes(seconds: float = 3.0, size: tuple[int, int] = (160, 96)) -> bytes:
    """An MP4 with VP9 video and Opus sound (libvpx and libopus: encoders only PyAV's full
    wheel has; the bundle reads such files with FFmpeg's own decoders)."""
    import av

    buf = io.BytesIO()
    with av.open(buf, "w", format="mp4") as out:
        video = out.add_stream("libvpx-vp9", rate=24)
        video.width, video.height, video.pix_fmt = size[0], size[1], "yuv420p"
        video.options = {"deadline": "realtime", "cpu-used": "8"}
        sound = out.add_stream("libopus", rate=48000)
        sound.layout = "stereo"
        frame = av.VideoFrame(size[0], size[1], "yuv420p")
        for i in range(int(seconds * 24)):
            frame.pts, frame.time_base = i, Fraction(1, 24)
            for packet in video.encode(frame):
                out.mux(packet)
        for packet in video.encode():
            out.mux(packet)
        _encode_audio(out, sound, seconds)
    return buf.getvalue()


def reference_files(folder: Path) -> list[Path]:
    """Reference media of every kind the demo provider probes, made with the real encoders:
    H.265/AAC MP4, H.264/AAC MOV, VP9/Opus MP4, MP3, WAV (3 s each)."""
    made = {
        "hevc-aac.mp4": video_bytes(3.0, codec="libx265"),
        "h264-aac.mov": video_bytes(3.0, container="mov"),
        "vp9-opus.mp4": vp9_opus_bytes(3.0),
        "tone.mp3": audio_bytes(3.0, "mp3"),
        "tone.wav": audio_bytes(3.0, "wav"),
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in made.items():
        (folder / name).write_bytes(data)
    return [folder / name for name in made]
