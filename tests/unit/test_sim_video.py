"""The demo provider's video frames and sound: each picture drawn straight into the frame's
plane is the drawn picture, pixel for pixel, at any width; a V2 clip's AAC track is encoded once
per length and muxed into every clip of that length, whose pictures stay their own."""

from __future__ import annotations

import io
from typing import Any

import av
import pytest

from app.sim import media


@pytest.mark.parametrize("size", [(1366, 768), (333, 77), (64, 48)])
def test_a_frame_holds_exactly_the_drawn_picture(qapp: Any, size: tuple[int, int]) -> None:
    width, height = size
    digest = media._seed("a kite over the dunes")
    frame = media._frame_rgb(width, height, "6s", "a kite over the dunes", digest, 0.5, True)
    drawn = media._draw(width, height, "6s", "a kite over the dunes", digest, 0.5)
    plane, line, stride = bytes(frame.planes[0]), frame.planes[0].line_size, drawn.bytesPerLine()
    pixels = bytes(drawn.constBits())
    row = width * 3
    assert all(
        plane[y * line : y * line + row] == pixels[y * stride : y * stride + row]
        for y in range(height)
    )


def test_without_qt_a_frame_is_the_plain_colour(qapp: Any) -> None:
    digest = media._seed("x")
    frame = media._frame_rgb(333, 7, "t", "x", digest, 1.0, False)
    plane, line = bytes(frame.planes[0]), frame.planes[0].line_size
    assert all(
        plane[y * line : y * line + 333 * 3] == bytes(media._color(digest)) * 333 for y in range(7)
    )


def _tracks(data: bytes) -> tuple[list[bytes], list[bytes], int]:
    with av.open(io.BytesIO(data)) as container:
        audio = [bytes(p) for p in container.demux(audio=0) if p.size]
    with av.open(io.BytesIO(data)) as container:
        video = [bytes(p) for p in container.demux(video=0) if p.size]
    with av.open(io.BytesIO(data)) as container:
        samples = sum(f.samples for f in container.decode(audio=0))
    return audio, video, samples


def test_clips_of_one_length_share_the_sound_encoded_once(qapp: Any) -> None:
    media._tone_packets.cache_clear()
    first = media._encode_mp4_v2(64, 48, 2, "MiniMax-H3 · 768P · 2s", "a kite", 1)
    second = media._encode_mp4_v2(64, 48, 2, "MiniMax-H3 · 768P · 2s", "a boat", 1)
    assert media._tone_packets.cache_info().misses == 1
    a1, v1, n1 = _tracks(first)
    a2, v2, n2 = _tracks(second)
    assert a1 == a2 and n1 == n2 and 2 * media.AUDIO_RATE <= n1 < 2 * media.AUDIO_RATE + 1024
    assert v1 != v2  # each clip shows its own prompt
    assert len(v1) == len(v2) == 2 * media.V2_FPS


def test_the_shared_sound_is_what_the_clip_s_own_encoder_makes(qapp: Any) -> None:
    """The packets muxed from the cache are the ones an AAC stream of the clip's settings
    encodes from the tone (same coder, rate, layout and bit rate)."""
    media._tone_packets.cache_clear()
    buf = io.BytesIO()
    with av.open(buf, "w", format="mp4") as container:
        stream = container.add_stream("aac", rate=media.AUDIO_RATE)
        media._aac_settings(stream.codec_context)
        pcm = av.AudioFrame(format="s16", layout="stereo", samples=media.AUDIO_RATE)
        pcm.planes[0].update(media._tone_second())
        pcm.sample_rate = media.AUDIO_RATE
        encoded = [bytes(p) for p in [*stream.encode(pcm), *stream.encode(None)]]
    assert [data for data, *_ in media._tone_packets(1)] == encoded
