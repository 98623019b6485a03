"""Video verification (app.service.media.verify_video) on real MP4 files: the size as reported
(V1) or as asked (V2: short side and aspect), the length, and the stereo track H3 makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.service.media import VerificationFailed, VideoCheck, verify_video
from tests.support.sim_media import video_bytes


def mp4(tmp_path: Path, name: str = "v.mp4", **kw: object) -> Path:
    path = tmp_path / name
    path.write_bytes(video_bytes(**kw))  # type: ignore[arg-type]
    return path


def test_a_video_as_asked_passes(tmp_path):
    path = mp4(tmp_path, seconds=2.0, size=(512, 288))
    got = verify_video(
        path, VideoCheck(short_side=288, aspect=16 / 9, seconds=2.0, audio_channels=2)
    )
    assert (got.width, got.height, got.audio_channels) == (512, 288, 2)
    assert got.duration == pytest.approx(2.0, abs=0.1)
    assert verify_video(path, None).width == 512
    assert verify_video(path, VideoCheck(size=(512, 288))).height == 288


@pytest.mark.parametrize(
    ("check", "words"),
    [
        (VideoCheck(size=(516, 288)), "the provider reported 516×288"),
        (VideoCheck(short_side=768), "short side of 768 px"),
        (VideoCheck(short_side=288, aspect=21 / 9), "the aspect asked is 2.333"),
        (VideoCheck(short_side=288, aspect=9 / 16), "the aspect asked is 0.562"),
        (VideoCheck(seconds=6.0), "lasts 2.0"),
    ],
)
def test_a_video_other_than_asked_is_refused(tmp_path, check, words):
    path = mp4(tmp_path, seconds=2.0, size=(512, 288))
    with pytest.raises(VerificationFailed, match=words):
        verify_video(path, check)


def test_a_silent_video_is_refused_where_the_model_makes_sound(tmp_path):
    path = mp4(tmp_path, seconds=2.0, size=(320, 240), audio=False)
    assert verify_video(path, VideoCheck(seconds=2.0)).audio_channels == 0  # V1: no sound asked
    with pytest.raises(VerificationFailed, match="no sound track"):
        verify_video(path, VideoCheck(audio_channels=2))
