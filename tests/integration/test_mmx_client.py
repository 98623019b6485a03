"""MiniMax's own CLI (mmx, from npm) against `slate sim`: the demo provider is checked by a client
Slate did not write, as MiniMax's documentation describes it — images (URL and base64, sizes,
several), Hailuo and MiniMax-H3 videos (text, a local first frame, first + last frame), an
asynchronous create queried by task id, and the download of every result.

mmx is installed once per machine into a cache folder (``SLATE_TEST_MMX_DIR``, default
``~/.cache/slate-tests/mmx-VERSION``) with npm; `.ci/run` installs Node.js when it is missing.
Without Node.js the tests FAIL saying what to install — never skipped.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import av
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
MMX_VERSION = "1.0.27"
pytestmark = pytest.mark.timeout(300)


def _mmx_dir() -> Path:
    default = Path.home() / ".cache" / "slate-tests" / f"mmx-{MMX_VERSION}"
    return Path(os.environ.get("SLATE_TEST_MMX_DIR") or default)


@pytest.fixture(scope="session")
def mmx_bin() -> Path:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.fail(
            "these tests run MiniMax's CLI: install Node.js and npm (apt-get install nodejs npm)"
        )
    root = _mmx_dir()
    root.mkdir(parents=True, exist_ok=True)
    binary = root / "node_modules" / ".bin" / "mmx"
    with open(root / ".lock", "w") as lock:  # one install at a time (parallel test workers)
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not binary.exists():
            proc = subprocess.run(
                [npm, "install", "--prefix", str(root), "--no-audit", "--no-fund",
                 f"mmx-cli@{MMX_VERSION}"],
                capture_output=True, text=True, timeout=280, check=False,
            )  # fmt: skip
            assert proc.returncode == 0 and binary.exists(), (
                f"npm could not install mmx-cli@{MMX_VERSION}: {proc.stderr[-2000:]}"
            )
    return binary


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[dict[str, Any]]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "--json", "sim", "--port", "0", "--latency", "0.3",
         "--data-dir", str(tmp_path / "simdata")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.kill()
        raise AssertionError(
            f"slate sim printed nothing: {proc.stderr.read() if proc.stderr else ''}"
        )
    hello = json.loads(line)
    assert hello["outcome"] == "ok" and hello["tls_cert"], hello
    try:
        yield hello
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        finally:
            if proc.poll() is None:
                proc.kill()


class Mmx:
    def __init__(self, binary: Path, sim: dict[str, Any], home: Path) -> None:
        self.binary = binary
        self.base_url = sim["base_url"]
        home.mkdir(parents=True, exist_ok=True)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "CI": "1",  # no update check on the internet
            "MINIMAX_REGION": "global",  # no probing of MiniMax's hosts
            "NODE_EXTRA_CA_CERTS": sim["tls_cert"],  # mmx rewrites download links to https
        }

    def __call__(self, *args: str, timeout: float = 180) -> dict[str, Any]:
        proc = subprocess.run(
            [str(self.binary), "--api-key", "any-key", "--base-url", self.base_url,
             "--non-interactive", "--output", "json", "--no-color", *args],
            env=self.env, capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
        assert proc.returncode == 0, (
            f"mmx {' '.join(args)}: {proc.stdout[-2000:]} {proc.stderr[-2000:]}"
        )
        # mmx may print a "[Model: …]" line before its JSON
        start = proc.stdout.index("{")
        out: dict[str, Any] = json.loads(proc.stdout[start:])
        return out


@pytest.fixture
def mmx(mmx_bin: Path, sim: dict[str, Any], tmp_path: Path) -> Mmx:
    return Mmx(mmx_bin, sim, tmp_path / "home")


def _png(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        im.verify()
    with Image.open(path) as im:
        return im.size


def _video_seconds(path: Path) -> float:
    with av.open(str(path)) as c:
        stream = c.streams.video[0]
        assert next(c.decode(stream), None) is not None  # a frame decodes (one is enough)
        return float(c.duration or 0) / av.time_base


def test_mmx_makes_images_by_url_by_base64_and_at_a_size(mmx: Mmx, tmp_path: Path) -> None:
    out = mmx("image", "generate", "--prompt", "a cat on a roof", "--out", str(tmp_path / "a.jpg"))
    assert out["saved"] == [str(tmp_path / "a.jpg")]
    assert _png(tmp_path / "a.jpg") == (1024, 1024)  # image-01's default 1:1
    out = mmx("image", "generate", "--prompt", "a cat", "--response-format", "base64",
              "--out-dir", str(tmp_path / "b64"))  # fmt: skip
    assert len(out["saved"]) == 1 and _png(Path(out["saved"][0])) == (1024, 1024)
    out = mmx("image", "generate", "--prompt", "wide", "--width", "1920", "--height", "1080",
              "--n", "2", "--out-dir", str(tmp_path / "wide"))  # fmt: skip
    assert len(out["saved"]) == 2
    assert {_png(Path(p)) for p in out["saved"]} == {(1920, 1080)}


def test_mmx_makes_and_downloads_hailuo_videos(mmx: Mmx, tmp_path: Path) -> None:
    still = tmp_path / "still.png"
    mmx("image", "generate", "--prompt", "first frame", "--out", str(still))
    out = mmx("video", "generate", "--prompt", "waves at dusk", "--poll-interval", "1",
              "--download", str(tmp_path / "t2v.mp4"))  # fmt: skip
    assert out["status"] == "Success" and out["task_id"] and out["file_id"]
    assert _video_seconds(tmp_path / "t2v.mp4") > 0
    out = mmx("video", "generate", "--prompt", "walk forward", "--image", str(still),
              "--last-frame", str(still), "--poll-interval", "1",
              "--download", str(tmp_path / "sef.mp4"))  # fmt: skip
    assert out["status"] == "Success"
    assert _video_seconds(tmp_path / "sef.mp4") > 0


def test_mmx_makes_h3_videos_and_queries_an_async_one(mmx: Mmx, tmp_path: Path) -> None:
    still = tmp_path / "still.png"
    mmx("image", "generate", "--prompt", "first frame", "--out", str(still))
    out = mmx("video", "generate", "--model", "MiniMax-H3", "--prompt", "the subject walks",
              "--image", str(still), "--duration", "4", "--poll-interval", "1",
              "--download", str(tmp_path / "i2v.mp4"))  # fmt: skip
    assert out["status"] == "succeeded" and out["task_id"]
    assert 3.5 <= _video_seconds(tmp_path / "i2v.mp4") <= 4.5
    made = mmx("video", "generate", "--model", "MiniMax-H3", "--prompt", "later", "--async")
    task_id = made.get("taskId") or made.get("task_id")
    assert task_id
    got = mmx("video", "task", "get", "--task-id", str(task_id), "--model", "MiniMax-H3")
    assert got["task_id"] == str(task_id) and got["model"] == "MiniMax-H3"
    assert got["status"] in {"queued", "running", "succeeded"}, got  # V2 status words
