"""Two players with sound started and stopped over and over, as a compare view does.

Run as a script by ``test_players.py`` (a hang cannot be interrupted from inside the process):
``python -m tests.gui.player_churn VIDEO ROUNDS [raw]``. With ``raw`` the players are made the
plain way, without ``media_player``'s precaution, to show what the test guards against.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.ui.qt import QApplication, QtCore, QTimer, QUrl, media_player, multimedia  # noqa: E402


def wait(ms: int) -> None:
    loop = QtCore.QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def main() -> int:
    video, rounds = sys.argv[1], int(sys.argv[2])
    raw = len(sys.argv) > 3 and sys.argv[3] == "raw"
    app = QApplication([])
    qm = multimedia()[0]  # type: ignore[index]
    for i in range(rounds):
        players = []
        for _ in range(2):
            if raw:
                player, audio = qm.QMediaPlayer(app), qm.QAudioOutput(app)
                player.setAudioOutput(audio)
            else:
                player, audio = media_player(app)
            player.setSource(QUrl.fromLocalFile(video))
            players.append((player, audio))
        for player, _audio in players:
            player.play()
        wait(150)
        for player, _audio in players:  # a compare view closing: stop, from Python
            player.stop()
        for player, audio in players:
            player.deleteLater()
            audio.deleteLater()
        wait(20)
        print(f"round {i + 1}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
