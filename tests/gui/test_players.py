"""Closing a compare view never hangs the app: two players with sound, stopped from Python.

Qt's audio thread and the main thread (holding the GIL) could wait on each other for ever
(``app.ui.qt.media_player`` says how). The churn runs in its own process, since a hang cannot be
interrupted from inside: made the plain way, the players hung within 3 or 4 rounds here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.sim.media import render_mp4_v2

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 30


def test_two_players_started_and_stopped_over_and_over_never_hang(tmp_path):
    video = tmp_path / "clip.mp4"
    video.write_bytes(render_mp4_v2(320, 180, 3, "clip", "waves", seed=1))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tests.gui.player_churn", str(video), str(ROUNDS)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=150,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        last = out.strip().splitlines()[-1:] or ["no round finished"]
        raise AssertionError(f"the players hung after {last[0]}") from None
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-2:] == ["round", str(ROUNDS)]


@pytest.mark.qt_log_ignore(
    r".*No RHI backend\. Using CPU conversion\.",
    r"PulseAudioService: pa_context_connect\(\) failed",
    r"No audio device detected",
)
def test_stop_player_stops_at_once_with_the_gil_free(qapp, qtbot, tmp_path):
    """``stop_player`` returns with the player stopped (and its file let go), and the slot it
    calls runs without the GIL: a Python thread keeps running while a slot called through
    ``call_released`` is busy (a dialog's ``exec``, closed by a timer 200 ms later)."""
    import threading

    from app.ui.qt import QDialog, QTimer, QUrl, call_released, media_player, multimedia
    from app.ui.qt import stop_player

    video = tmp_path / "clip.mp4"
    video.write_bytes(render_mp4_v2(320, 180, 3, "clip", "waves", seed=1))
    qm = multimedia()[0]
    player, _audio = media_player(qapp)
    try:
        player.setSource(QUrl.fromLocalFile(str(video)))
        player.play()
        playing = qm.QMediaPlayer.PlaybackState.PlayingState
        qtbot.waitUntil(lambda: player.playbackState() == playing, timeout=30_000)
        stop_player(player, unload=False)
        assert player.playbackState() == qm.QMediaPlayer.PlaybackState.StoppedState
        assert player.source() == QUrl.fromLocalFile(str(video))
        player.play()
        qtbot.waitUntil(lambda: player.playbackState() == playing, timeout=30_000)
        stop_player(player)
        assert player.playbackState() == qm.QMediaPlayer.PlaybackState.StoppedState
        assert player.source().isEmpty()
    finally:
        player.deleteLater()

    counted, done = [0], threading.Event()

    def count() -> None:
        while not done.is_set():
            counted[0] += 1

    dialog = QDialog()
    thread = threading.Thread(target=count)
    thread.start()
    try:
        QTimer.singleShot(200, dialog.reject)
        before = counted[0]
        call_released(dialog, "exec")
        during = counted[0] - before
    finally:
        done.set()
        thread.join()
        dialog.deleteLater()
    assert during > 1000, during  # the thread ran while the slot did
