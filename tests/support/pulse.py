"""A sound server for tests: PulseAudio on a private socket with one null sink, whose monitor
records what an app played (``parec``). Clients find it through ``PULSE_SERVER``.

Missing tools fail the test loudly with the Debian package to install; nothing is skipped.
"""

from __future__ import annotations

import math
import struct
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tests.support.tools import need

SINK = "slate_null"
RATE = 48_000


@dataclass
class PulseServer:
    folder: Path
    proc: subprocess.Popen[bytes]

    @property
    def server(self) -> str:
        return f"unix:{self.folder / 'native'}"

    def env(self) -> dict[str, str]:
        return {"PULSE_SERVER": self.server, "HOME": str(self.folder), "PATH": "/usr/bin:/bin"}

    def pactl(self, *args: str) -> str:
        proc = subprocess.run(
            [need("pactl"), *args], env=self.env(), capture_output=True, text=True, timeout=30
        )
        if proc.returncode != 0:
            raise AssertionError(f"pactl {' '.join(args)} failed: {proc.stderr}")
        return proc.stdout

    def record(self, seconds: float) -> list[int]:
        """``seconds`` of what the null sink plays: interleaved stereo 16-bit samples."""
        rec = subprocess.Popen(
            [
                need("parec"),
                "-d",
                f"{SINK}.monitor",
                "--format=s16le",
                f"--rate={RATE}",
                "--channels=2",
                "--raw",
            ],
            env=self.env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        time.sleep(seconds)
        rec.terminate()
        out, _err = rec.communicate(timeout=10)
        count = len(out) // 2
        return list(struct.unpack(f"<{count}h", out[: count * 2]))

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def rms(samples: list[int]) -> float:
    return math.sqrt(sum(s * s for s in samples) / len(samples)) if samples else 0.0


def start_pulse(tmp: Path) -> PulseServer:
    folder = tmp / "pulse"
    folder.mkdir()
    proc = subprocess.Popen(
        [
            need("pulseaudio"),
            "-n",
            "--daemonize=no",
            "--exit-idle-time=-1",
            "--use-pid-file=no",
            "--disable-shm=yes",
            "--log-target=stderr",
            "-L",
            f"module-native-protocol-unix auth-anonymous=1 socket={folder / 'native'}",
            "-L",
            f"module-null-sink sink_name={SINK} rate={RATE}",
        ],
        env={"HOME": str(folder), "XDG_RUNTIME_DIR": str(folder), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL,
        stderr=(folder / "log").open("wb"),
    )
    server = PulseServer(folder, proc)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"pulseaudio ended: {(folder / 'log').read_text()[-2000:]}")
        probe = subprocess.run(
            [need("pactl"), "info"], env=server.env(), capture_output=True, timeout=30
        )
        if probe.returncode == 0:
            return server
        time.sleep(0.1)
    server.stop()
    raise AssertionError(f"pulseaudio did not answer: {(folder / 'log').read_text()[-2000:]}")
