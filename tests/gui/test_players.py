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
