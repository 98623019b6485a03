"""The installable app: ``packaging/build`` makes the bundle and the tarball, and the unpacked
tarball works on its own — no virtualenv, no checkout, a clean environment: ``--version``,
``--json list`` in a fresh data dir, and its window on a real X server (screenshot checked).
The metadata passes ``desktop-file-validate`` and ``appstreamcli validate``, also as installed.

Build time, size and start-up figures are measured by ``python -m tests.bench.bundle``
(docs/BENCHMARKS.md, "Bundle"), not asserted here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures import ROOT
from tests.xserver import XServer, close_window, colours, region, start_xvfb

APP_ID = "io.slate.Slate"
SCREENSHOTS = ROOT / "tests" / "screenshots"


def need(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.fail(
            f"{tool} is not installed: apt-get install {package} (.ci/run installs it)",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Iterator[dict[str, Path]]:
    need("desktop-file-validate", "desktop-file-utils")
    need("appstreamcli", "appstream")
    need("strip", "binutils")
    work = tmp_path_factory.mktemp("bundle")
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}
    env.update(
        SLATE_DIST=str(work / "dist"), SLATE_BUILD=str(work / "build"), PYTHON=sys.executable
    )
    started = time.monotonic()
    proc = subprocess.run(
        ["bash", "packaging/build"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    summary = proc.stdout.strip().splitlines()[-1]
    print(f"\nbundle built in {time.monotonic() - started:.0f} s: {summary}")
    tarballs = list((work / "dist").glob("slate-*-linux-*.tar.gz"))
    assert len(tarballs) == 1, tarballs
    unpacked = work / "unpacked"
    with tarfile.open(tarballs[0]) as tar:
        tar.extractall(unpacked, filter="tar")
    (top,) = unpacked.iterdir()
    yield {"tarball": tarballs[0], "top": top, "exe": top / "slate" / "slate", "work": work}
    shutil.rmtree(work, ignore_errors=True)  # ~900 MB: build folder, bundle, unpacked copy


def clean_env(home: Path, **more: str) -> dict[str, str]:
    """What a fresh desktop session has: no virtualenv, no PYTHONPATH, no test settings."""
    env = {
        "HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
    }
    env.update(more)
    return env


def run(
    exe: Path, env: dict[str, str], *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(exe), *args], env=env, cwd=env["HOME"], capture_output=True, text=True, timeout=timeout
    )


def test_tarball_holds_app_launcher_metadata_and_icon(built, tmp_path):
    top = built["top"]
    assert built["exe"].is_file() and built["exe"].stat().st_mode & 0o111
    desktop = top / "share" / "applications" / f"{APP_ID}.desktop"
    metainfo = top / "share" / "metainfo" / f"{APP_ID}.metainfo.xml"
    icons = list((top / "share" / "icons" / "hicolor").glob(f"*/apps/{APP_ID}.*"))
    assert desktop.is_file() and metainfo.is_file() and icons, list(top.rglob("*"))[:20]
    assert (
        subprocess.run(
            ["desktop-file-validate", str(desktop)], capture_output=True, text=True
        ).stdout
        == ""
    )
    check = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(metainfo)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
    # the installer: links the command, writes a launcher that starts this bundle, copies the icon
    prefix = tmp_path / "prefix"
    res = subprocess.run(
        ["sh", str(top / "install.sh")],
        env={"HOME": str(tmp_path), "PREFIX": str(prefix), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    assert (prefix / "bin" / "slate").resolve() == built["exe"].resolve()
    installed = prefix / "share" / "applications" / f"{APP_ID}.desktop"
    assert f"Exec={built['exe']} gui" in installed.read_text()
    assert (
        subprocess.run(
            ["desktop-file-validate", str(installed)], capture_output=True, text=True
        ).stdout
        == ""
    )
    assert list((prefix / "share" / "icons" / "hicolor").glob(f"*/apps/{APP_ID}.*"))


def test_bundle_alone_version_list_and_doctor(built, tmp_path):
    exe = built["exe"]
    env = clean_env(tmp_path, SLATE_DATA_DIR=str(tmp_path / "fresh-data"))
    version = run(exe, env, "--version")
    assert version.returncode == 0 and version.stdout.strip() == "slate 0.1.0", version.stderr
    listed = run(exe, env, "--json", "list")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert out["outcome"] == "ok" and out["slots"] == [] and out["count"] == 0
    # a video through the embedded demo provider: PyAV encodes it there and verifies it here
    video = run(exe, {**env, "SLATE_DEMO_STAGE_SECONDS": "0.1"}, "--json", "submit",
                "--request-id", "article:20260816:bundle:scene-01", "--kind", "video",
                "--prompt", "tide eye", "--resolution", "768P", "--wait")
    task = json.loads(video.stdout)["task"]
    assert video.returncode == 0 and task["state"] == "success", video.stdout + video.stderr
    assert task["media"][0]["content_type"] == "video/mp4"
    assert abs(task["media"][0]["duration"] - 6) < 0.5
    # the Python, Qt and plugins that ran are the bundle's own
    doctor = json.loads(
        run(exe, {**env, "QT_QPA_PLATFORM": "offscreen"}, "--json", "doctor").stdout
    )
    plugin = doctor["qt"]["checks"][0]["plugin"]
    assert plugin.startswith(str(exe.parent / "_internal" / "PySide6")), plugin
    assert doctor["store"]["revision"] is not None  # `list` migrated the store with bundled Alembic


def test_bundle_window_on_a_real_x_server(built, tmp_path):
    server: XServer = start_xvfb(tmp_path)
    exe = built["exe"]
    data = tmp_path / "data"
    probe = tmp_path / "probe.jsonl"
    env = clean_env(tmp_path, SLATE_DATA_DIR=str(data), SLATE_DEMO_STAGE_SECONDS="0.1")
    rid = "article:20260816:bundle:still-01"
    try:
        made = run(
            exe,
            env,
            "--json",
            "submit",
            "--request-id",
            rid,
            "--kind",
            "image",
            "--prompt",
            "a lighthouse, from the bundle",
            "--wait",
        )
        assert made.returncode == 0, made.stdout + made.stderr
        app = subprocess.Popen(
            [str(exe), "gui", "--select", rid, "--lang", "en"],
            env={**env, "DISPLAY": server.display, "SLATE_GUI_PROBE": str(probe)},
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            events = wait_events(probe, app, {"shown", "rows"})
            assert events["shown"]["platform"] == "xcb"
            rect = events["shown"]["rect"]
            deadline = time.monotonic() + 30
            shot = server.screenshot()
            while colours(shot, region(rect)) < 300 and time.monotonic() < deadline:
                time.sleep(0.3)
                shot = server.screenshot()
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shot.save(SCREENSHOTS / "bundle-xvfb.png")
            assert colours(shot, region(rect)) >= 300, "the bundle's window looks blank"
            assert colours(shot) > colours(shot, region(rect)) - 1
            close_window(server.display, events["shown"]["window_id"])
            _out, err = app.communicate(timeout=60)
        finally:
            if app.poll() is None:
                app.kill()
                app.communicate()
        assert app.returncode == 0, err[-3000:]
    finally:
        server.stop()


def wait_events(probe: Path, app: subprocess.Popen, names: set[str], timeout: float = 90) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = {}
        if probe.exists():
            for line in probe.read_text().splitlines():
                ev = json.loads(line)
                found.setdefault(ev["event"], ev)
        if names <= set(found):
            return found
        if app.poll() is not None:
            _out, err = app.communicate()
            raise AssertionError(f"the bundle's app ended ({app.returncode}): {err[-3000:]}")
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {names}")
