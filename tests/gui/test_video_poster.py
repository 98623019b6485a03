"""A video's poster (its first frame, scaled) is decoded once per file and size: a slot shown
again, or in both panes at the same size, is not decoded and scaled again."""

from __future__ import annotations

import av

from app.sim.media import render_mp4
from app.ui import media


def opened(monkeypatch):
    calls = []
    real = av.open

    def counting(*args, **kwargs):
        if isinstance(args[0], str):  # a file read, not the demo's encoder writing to memory
            calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(av, "open", counting)
    return calls


def test_a_poster_is_decoded_once_per_file_and_size(qapp, tmp_path, monkeypatch):
    path = tmp_path / "clip.mp4"
    path.write_bytes(render_mp4(160, 90, 1, "a poster once"))
    calls = opened(monkeypatch)
    first = media.load_video_poster(str(path), 64)
    again = media.load_video_poster(str(path), 64)
    assert not first.isNull() and again == first and first.width() == 64
    assert len(calls) == 1  # shown again: not decoded again
    other = media.load_video_poster(str(path), 32)
    assert other.width() == 32 and len(calls) == 2  # another size: decoded for it
    # another file at the same path: its own poster
    path.write_bytes(render_mp4(90, 160, 1, "another file"))
    changed = media.load_video_poster(str(path), 64)
    assert len(calls) == 3 and changed.height() == 64 and changed != first


def test_a_missing_or_broken_video_has_no_poster(qapp, tmp_path):
    assert media.load_video_poster(str(tmp_path / "gone.mp4")).isNull()
    broken = tmp_path / "broken.mp4"
    broken.write_bytes(b"\x00\x00\x00\x18ftypmp42 not a video")
    assert media.load_video_poster(str(broken)).isNull()
