"""The first-run check (app/preflight.py): Qt's platform decided as Qt decides it, a missing
system library or display named in one sentence with the packages and the offscreen escape,
exit 2 — where Qt alone aborts the process."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app import preflight
from tests.support.fixtures import ROOT
from tests.support.xapp import event, wait_for
from tests.support.xserver import XServer, start_xvfb

NEEDED = b"libxcb-cursor.so.0\x00"  # the library of the original bug report (exit 134)
GONE = b"libxcb-cursor.so.9\x00"  # the same name, a version no system has


@pytest.fixture
def xserver(tmp_path: Path):
    server = start_xvfb(tmp_path)
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Sandbox:
    site: Path  # put first on PYTHONPATH: its PySide6 is the broken one
    platforms: Path


@pytest.fixture
def broken_qt(tmp_path: Path) -> Sandbox:
    """A PySide6 whose xcb plugin needs a library that is not installed.

    A farm of symlinks to the real PySide6, except ``Qt/plugins/platforms/libqxcb.so``: a copy of
    the real plugin with one DT_NEEDED entry renamed (same length). Qt finds its plugins beside
    the Qt libraries it was loaded from, so this is the only xcb plugin it knows."""
    qt = preflight.qt_root()
    assert qt is not None, "PySide6's Qt folder not found"
    real = qt.parent
    site = tmp_path / "site"
    fake = site / "PySide6"
    fake.mkdir(parents=True)
    for entry in real.iterdir():
        if entry.name != "Qt":
            (fake / entry.name).symlink_to(entry)
    (fake / "Qt").mkdir()
    for entry in qt.iterdir():
        if entry.name != "plugins":
            (fake / "Qt" / entry.name).symlink_to(entry)
    (fake / "Qt" / "plugins").mkdir()
    for entry in (qt / "plugins").iterdir():
        if entry.name != "platforms":
            (fake / "Qt" / "plugins" / entry.name).symlink_to(entry)
    platforms = fake / "Qt" / "plugins" / "platforms"
    platforms.mkdir()
    for entry in (qt / "plugins" / "platforms").iterdir():
        if entry.name != "libqxcb.so":
            (platforms / entry.name).symlink_to(entry)
    data = (qt / "plugins" / "platforms" / "libqxcb.so").read_bytes()
    assert data.count(NEEDED) == 1
    (platforms / "libqxcb.so").write_bytes(data.replace(NEEDED, GONE))
    return Sandbox(site, platforms)


def sandbox_env(base: dict[str, str], box: Sandbox) -> dict[str, str]:
    env = dict(base)
    env["PYTHONPATH"] = os.pathsep.join([str(box.site), str(ROOT)])
    return env


@pytest.mark.parametrize(
    "env, expected, source",
    [
        ({}, ["xcb"], "default"),
        ({"DISPLAY": ":0"}, ["xcb"], "default"),
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, ["wayland", "xcb"], "WAYLAND_DISPLAY"),
        ({"XDG_SESSION_TYPE": "wayland"}, ["wayland", "xcb"], "XDG_SESSION_TYPE"),
        ({"XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"}, ["xcb"], "default"),
        (
            {"QT_QPA_PLATFORM": "offscreen", "WAYLAND_DISPLAY": "w"},
            ["offscreen"],
            "QT_QPA_PLATFORM",
        ),
        ({"QT_QPA_PLATFORM": "wayland;xcb"}, ["wayland", "xcb"], "QT_QPA_PLATFORM"),
        ({"QT_QPA_PLATFORM": "xcb:nograb"}, ["xcb"], "QT_QPA_PLATFORM"),
    ],
)
def test_platform_decided_as_qt_decides(env, expected, source):
    assert preflight.platform_candidates(env) == (expected, source)


def test_qt_alone_aborts_and_slate_explains(
    xserver: XServer, broken_qt: Sandbox, slate_env, tmp_path
):
    env = sandbox_env(xserver.env(slate_env), broken_qt)
    env["XDG_CONFIG_HOME"] = str(tmp_path / "c")
    # What a newcomer met: Qt cannot load the plugin and aborts the process (SIGABRT, core dump).
    bare = subprocess.run(
        [sys.executable, "-c", "from PySide6.QtWidgets import QApplication; QApplication([])"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert bare.returncode == -6, (bare.returncode, bare.stderr)
    # Slate checks first: one sentence, exit 2, Qt never started.
    proc = subprocess.run(
        [sys.executable, "-m", "app", "gui"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    sentence = lines[0]
    assert "libxcb-cursor.so.9" in sentence and "which is not installed" in sentence
    assert f"`{preflight.debian_install_command()}` (Debian/Ubuntu)" in sentence
    assert f"`sudo dnf install -y {' '.join(preflight.FEDORA_PACKAGES)}` (Fedora)" in sentence
    assert sentence.endswith("or run it without a window with QT_QPA_PLATFORM=offscreen.")
    assert "qt.qpa" not in proc.stderr and proc.stdout == ""


def test_the_check_names_the_missing_library(xserver: XServer, broken_qt: Sandbox):
    env = {"DISPLAY": xserver.display}
    result = preflight.check(env, qt=broken_qt.platforms.parent.parent)
    assert not result.ok and result.chosen is None
    (xcb,) = result.checks
    assert xcb.plugin == str(broken_qt.platforms / "libqxcb.so")
    assert xcb.missing_libraries == ("libxcb-cursor.so.9",)
    assert xcb.display_error is None  # the display is there; only the library is missing
    # Qt tries the next library of the same name: a good one elsewhere on the plugin path wins
    good = preflight.qt_root() / "plugins" / "platforms"
    fallback = preflight.check(
        {**env, "QT_PLUGIN_PATH": str(good.parent)}, qt=broken_qt.platforms.parent.parent
    )
    assert fallback.ok and fallback.chosen.plugin == str(good / "libqxcb.so")


def test_without_ldd_the_loader_names_it(broken_qt: Sandbox, monkeypatch):
    monkeypatch.setattr(preflight.shutil, "which", lambda _name: None)
    assert preflight.missing_libraries(broken_qt.platforms / "libqxcb.so") == ["libxcb-cursor.so.9"]


def test_a_good_plugin_and_display_pass(xserver: XServer):
    result = preflight.check({"DISPLAY": xserver.display})
    assert result.ok and result.chosen is not None and result.chosen.platform == "xcb"
    assert result.sentence() is None
    out = io.StringIO()
    assert preflight.gate({"DISPLAY": xserver.display}, stream=out) is None
    assert out.getvalue() == ""  # a real window: nothing to say


def test_wayland_without_compositor_falls_back_to_xcb(xserver: XServer, tmp_path):
    env = {
        "WAYLAND_DISPLAY": "slate-test-none",
        "XDG_RUNTIME_DIR": str(tmp_path),
        "DISPLAY": xserver.display,
    }
    result = preflight.check(env)
    wayland, xcb = result.checks
    assert wayland.platform == "wayland" and wayland.display_error is not None
    assert result.ok and result.chosen is xcb


def test_unknown_platform_plugin():
    result = preflight.check({"QT_QPA_PLATFORM": "nosuch"})
    text = result.sentence()
    assert text is not None and "no platform plugin named 'nosuch'" in text and "xcb" in text


def test_offscreen_says_no_window_is_shown(slate_env, tmp_path):
    out = io.StringIO()
    assert preflight.gate({"QT_QPA_PLATFORM": "offscreen"}, stream=out) is None
    assert "no window" in out.getvalue() or "without a window" in out.getvalue()
    quiet = io.StringIO()
    assert (
        preflight.gate({"QT_QPA_PLATFORM": "offscreen"}, stream=quiet, quiet_no_window=True) is None
    )
    assert quiet.getvalue() == ""
    # the real app: the first thing on stderr says so, and the app keeps running
    probe = tmp_path / "probe.jsonl"
    env = dict(
        slate_env,
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=str(tmp_path / "c"),
        SLATE_GUI_PROBE=str(probe),
    )
    app = subprocess.Popen(
        [sys.executable, "-m", "app", "gui"],
        env=env,
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert app.stderr is not None
        first = app.stderr.readline()
        assert first.startswith("slate: QT_QPA_PLATFORM=offscreen: Slate runs without a window")
        # it goes on to show its (offscreen) window, and runs on
        wait_for("the window shown", lambda: event(probe, "shown"), app)
        assert app.poll() is None
    finally:
        app.terminate()
        app.wait(30)


def test_doctor_reports_the_plugin_and_its_libraries(
    xserver: XServer, broken_qt: Sandbox, slate_env
):
    from tests.support.fixtures import run_slate

    good = run_slate(xserver.env(slate_env), "doctor")
    assert good.code == 0, good.out
    qt = good.out["qt"]
    assert qt["platform"] == "xcb" and qt["ok"] is True and qt["shows_window"] is True
    assert qt["checks"][0]["display"] == xserver.display and qt["checks"][0]["display_ok"] is True
    broken = run_slate(sandbox_env(xserver.env(slate_env), broken_qt), "doctor")
    assert broken.code == 2 and broken.out["outcome"] == "invalid"
    check = broken.out["qt"]["checks"][0]
    assert check["libraries_ok"] is False and check["missing_libraries"] == ["libxcb-cursor.so.9"]
    assert any("libxcb-cursor.so.9" in p and "apt-get install" in p for p in broken.out["problems"])
    # no display: the command line still works, so it is a note, not a problem
    headless = {k: v for k, v in slate_env.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    res = run_slate(headless, "doctor")
    assert res.code == 0 and res.out["qt"]["ok"] is False
    assert res.out["qt"]["checks"][0]["display_ok"] is False
    assert any("cannot open a window here" in n for n in res.out["notes"])


def test_a_plugin_that_loads_is_not_read_with_ldd(broken_qt: Sandbox, monkeypatch):
    """At every start the platform plugin is first tried by this process's loader: one that
    loads costs no ``ldd`` process; one that does not is read with ``ldd`` (every library it
    misses named). Counted: the processes started."""
    started: list[list[str]] = []
    real_run = preflight.subprocess.run

    def run(args: list[str], **kw: Any) -> Any:
        started.append(list(args))
        return real_run(args, **kw)

    monkeypatch.setattr(preflight.subprocess, "run", run)
    good = preflight.qt_root() / "plugins" / "platforms" / "libqoffscreen.so"
    assert preflight.missing_libraries(good) == []
    assert started == []
    broken = broken_qt.platforms / "libqxcb.so"
    assert preflight.missing_libraries(broken) == ["libxcb-cursor.so.9"]
    assert [Path(a[0]).name for a in started] == ["ldd"]
    # another library path than this process's: the loader here cannot tell, ldd is asked
    elsewhere = {"LD_LIBRARY_PATH": str(broken_qt.platforms)}
    assert preflight.missing_libraries(good, elsewhere) == []
    assert [Path(a[0]).name for a in started] == ["ldd", "ldd"]
