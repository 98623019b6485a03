"""``python -m app.sim --port 0`` and ``slate sim``: print its address, serves, stops on Ctrl+C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import web

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(60)


def _start(args: list[str]) -> tuple[subprocess.Popen[str], dict]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.kill()
        raise AssertionError(
            f"no address printed; stderr: {proc.stderr.read() if proc.stderr else ''}"
        )
    return proc, json.loads(line)


def _exercise(base_url: str) -> None:
    auth = {"Authorization": "Bearer any-key"}
    with web.Client(base_url=base_url, timeout=10) as client:
        assert client.get("/_sim/health").json()["demo"] is True
        r = client.post(
            "/v1/video_generation",
            json={"model": "MiniMax-Hailuo-2.3", "prompt": "p"},
            headers=auth,
        )
        task_id = r.json()["task_id"]
        assert r.json()["base_resp"]["status_code"] == 0 and task_id
        r = client.get("/v1/query/video_generation", params={"task_id": task_id}, headers=auth)
        assert r.json()["status"] in {"Preparing", "Queueing", "Processing", "Success"}
        r = client.get("/v1/files/retrieve", params={"file_id": "1"}, headers=auth)
        assert r.json()["base_resp"]["status_code"] == 2013
        r = client.post(
            "/v1/image_generation", json={"model": "image-01", "prompt": "p"}, headers=auth
        )
        url = r.json()["data"]["image_urls"][0]
        assert client.get(url).content.startswith(b"\x89PNG")
        r = client.post("/v1/video_generation", json={"model": "MiniMax-Hailuo-2.3", "prompt": "p"})
        assert r.status_code == 200 and r.json()["base_resp"]["status_code"] == 1004


def _stop(proc: subprocess.Popen[str]) -> int:
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_python_m_app_sim_serves_and_stops_on_sigint() -> None:
    proc, hello = _start(
        [
            sys.executable,
            "-m",
            "app.sim",
            "--port",
            "0",
            "--latency",
            "0.5",
            "--fault",
            "rate_limit=0",
        ]
    )
    try:
        assert hello["outcome"] == "ok" and hello["port"] > 0
        assert hello["base_url"] == f"http://127.0.0.1:{hello['port']}"
        _exercise(hello["base_url"])
    finally:
        code = _stop(proc)
    assert code == 0, proc.stderr.read() if proc.stderr else ""


def test_sigterm_also_stops_cleanly() -> None:
    proc, hello = _start([sys.executable, "-m", "app.sim", "--port", "0"])
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0


def test_bad_fault_is_invalid() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-m", "app.sim", "--fault", "nonsense=1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 2 and json.loads(out.stdout)["outcome"] == "invalid"


def test_slate_sim_command() -> None:
    proc, hello = _start([sys.executable, "-m", "app", "--json", "sim", "--port", "0"])
    try:
        assert hello["outcome"] == "ok"
        _exercise(hello["base_url"])
    finally:
        code = _stop(proc)
    assert code == 0


def test_two_processes_share_tasks_through_state_file(tmp_path: Path) -> None:
    """Short-lived processes on one data dir each embed a sim: any of them answers for any task."""
    import time

    state = str(tmp_path / "demo.sqlite3")
    a, hello_a = _start([sys.executable, "-m", "app.sim", "--state", state, "--latency", "0.3"])
    b, hello_b = _start([sys.executable, "-m", "app.sim", "--state", state, "--latency", "0.3"])
    auth = {"Authorization": "Bearer k"}
    try:
        with web.Client(timeout=10, headers=auth) as client:
            r = client.post(
                hello_a["base_url"] + "/v1/video_generation",
                json={"model": "MiniMax-Hailuo-2.3", "prompt": "shared", "resolution": "768P"},
            )
            task_id = r.json()["task_id"]
            deadline = time.monotonic() + 10
            while True:
                q = client.get(
                    hello_b["base_url"] + "/v1/query/video_generation", params={"task_id": task_id}
                ).json()
                if q["status"] == "Success" or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            assert q["status"] == "Success" and (q["video_width"], q["video_height"]) == (1366, 768)
            f = client.get(
                hello_b["base_url"] + "/v1/files/retrieve", params={"file_id": q["file_id"]}
            ).json()
            video = web.get(f["file"]["download_url"], timeout=10)
            assert video.status_code == 200 and len(video.content) == f["file"]["bytes"]
            shared = client.get(hello_b["base_url"] + "/_sim/stats").json()["shared"]
            assert shared["made_by_prompt"] == {"shared": 1}
    finally:
        assert _stop(a) == 0
        assert _stop(b) == 0


def test_slate_sim_answers_tls_with_the_certificate_it_names(tmp_path: Path) -> None:
    import ssl

    proc, hello = _start(
        [
            sys.executable,
            "-m",
            "app",
            "--json",
            "sim",
            "--port",
            "0",
            "--tls-dir",
            str(tmp_path / "tls"),
        ]
    )
    try:
        cert = Path(hello["tls_cert"])
        assert cert == tmp_path / "tls" / "demo-cert.pem" and cert.is_file()
        trust = ssl.create_default_context(cafile=str(cert))
        secure = hello["base_url"].replace("http://", "https://")
        assert web.get(secure + "/_sim/health", verify=trust).json()["demo"] is True
        _exercise(hello["base_url"])
    finally:
        assert _stop(proc) == 0
    assert cert.is_file()  # kept in --tls-dir for the next run
    proc, hello = _start([sys.executable, "-m", "app.sim", "--port", "0", "--no-tls"])
    try:
        assert hello["tls_cert"] is None
    finally:
        assert _stop(proc) == 0
