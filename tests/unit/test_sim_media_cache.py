"""The demo provider's media cache folder: a picture or a video rendered once is read back by
every process that names the folder (media are a pure function of their parameters), whole or
not at all; without a folder, only this process's memory keeps them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.sim import SimConfig, media
from app.sim.server import SimServer


def _never(*a: Any, **kw: Any) -> bytes:
    raise AssertionError("rendered again")


@pytest.mark.parametrize("kind", ["png", "mp4", "mp4v2"])
def test_media_rendered_once_are_read_from_the_folder(
    qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    render = {
        "png": lambda: media.render_png(64, 48, "a kite", index=1, seed=3, cache_dir=tmp_path),
        "mp4": lambda: media.render_mp4(64, 48, 1, "a kite", seed=3, cache_dir=tmp_path),
        "mp4v2": lambda: media.render_mp4_v2(
            64, 48, 1, "MiniMax-H3 · 768P · 1s", "a kite", seed=3, cache_dir=tmp_path
        ),
    }[kind]
    made = render()
    (kept,) = tmp_path.iterdir()
    assert kept.read_bytes() == made and kept.stat().st_mode & 0o777 == 0o600
    media._cache.clear()  # another process: nothing in memory
    for name in ("_image_png", "_encode_mp4", "_encode_mp4_v2"):
        monkeypatch.setattr(media, name, _never)
    assert render() == made
    assert [p.name for p in tmp_path.iterdir()] == [kept.name]  # no temporary file left


def test_without_a_folder_nothing_is_written(qapp: Any, tmp_path: Path) -> None:
    media._cache.clear()
    data = media.render_png(32, 24, "a kite", seed=5)
    assert data.startswith(b"\x89PNG") and list(tmp_path.iterdir()) == []


def test_the_folder_named_comes_before_the_state_files(tmp_path: Path) -> None:
    named = SimServer(SimConfig(media_cache=tmp_path / "shared", state_path=tmp_path / "s.db"))
    beside = SimServer(SimConfig(state_path=tmp_path / "t.db"))
    memory = SimServer(SimConfig())
    try:
        assert named.media_cache == tmp_path / "shared"
        assert beside.media_cache == tmp_path / "demo-media-cache"
        assert memory.media_cache is None
    finally:
        for sim in (named, beside, memory):
            sim.stop()


def test_a_process_without_qt_never_reads_what_qt_drew(
    qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = media.render_png(64, 48, "a kite", seed=9, cache_dir=tmp_path)
    media._cache.clear()
    monkeypatch.setattr(media, "_qt_ready", lambda: False)  # another process: no Qt app
    plain = media.render_png(64, 48, "a kite", seed=9, cache_dir=tmp_path)
    assert plain != drawn and plain == media._plain_png(64, 48, media._seed("a kite", 0, 9))
    assert len(list(tmp_path.iterdir())) == 2


def test_a_sound_rendered_once_is_read_from_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A song or a speech is the same bytes for the same format, length, rate, channels and
    seed: a second sim naming the folder (another test, another worker) reads it, and a spoiled
    answer is still spoiled from the kept bytes."""
    from app.sim import sound

    first, second = (SimServer(SimConfig(media_cache=tmp_path)) for _ in range(2))
    try:
        record = {"format": "mp3", "seconds": 1.0, "sample_rate": 32000, "channels": 1, "seed": 7}
        made = sound.sound_bytes(first, dict(record))
        (kept,) = tmp_path.iterdir()
        assert kept.read_bytes() == made and kept.name.endswith(".sound")
        media._cache.clear()  # another process: nothing in memory
        monkeypatch.setattr(sound, "render_sound", _never)
        assert sound.sound_bytes(second, dict(record)) == made
        assert sound.sound_bytes(second, {**record, "spoiled": True}) == sound.spoil_sound(made)
        with pytest.raises(AssertionError, match="rendered again"):
            sound.sound_bytes(second, {**record, "seed": 8})  # another seed: made anew
    finally:
        first.stop()
        second.stop()
