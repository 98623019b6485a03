"""The real app on a real X server: Xvfb, the ``xcb`` platform plugin, input through the X server.

Everything else in the GUI suite runs offscreen; this proves the app works where users run it:
the window is mapped on the X server, its first rows are painted, a slot is created by clicking
and typing into the form (xdotool, XTEST events), the screenshot of the X11 root window shows
the window, and closing it like a window manager does ends the app cleanly (exit 0, no abort).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.fixtures import ROOT, run_slate
from tests.support.xserver import XServer, close_window, colours, region, start_xvfb

SCREENSHOTS = ROOT / "tests" / "screenshots"
DONE = "article:20260816:tide-eye:still-01"
NEW = "article:20260816:tide-eye:still-02"


@pytest.fixture
def xserver(tmp_path: Path):
    server = start_xvfb(tmp_path)
    try:
        yield server
    finally:
        server.stop()


def read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_for(what: str, check, app: subprocess.Popen, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        if app.poll() is not None:
            out, err = app.communicate()
            raise AssertionError(f"the app ended ({app.returncode}) before {what}: {err[-3000:]}")
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def event(probe: Path, name: str) -> dict[str, Any] | None:
    return next((e for e in read_events(probe) if e["event"] == name), None)


def widgets(probe: Path) -> dict[str, list[int]]:
    found = [e["widgets"] for e in read_events(probe) if e["event"] == "widgets"]
    return found[-1] if found else {}


def centre(rect: list[int]) -> tuple[str, str]:
    x, y, w, h = rect
    return str(x + w // 2), str(y + h // 2)


def click(x: XServer, rect: list[int]) -> None:
    x.xdotool("mousemove", "--sync", *centre(rect))
    x.xdotool("click", "1")


def save(image, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    image.save(path)
    return path


def test_real_window_on_xcb(xserver: XServer, slate_env, tmp_path):
    done = run_slate(
        slate_env,
        "submit",
        "--request-id",
        DONE,
        "--kind",
        "image",
        "--prompt",
        "a lighthouse at dawn",
        "--wait",
    )
    assert done.out["task"]["state"] == "success", done.out

    probe = tmp_path / "probe.jsonl"
    env = xserver.env(slate_env)
    env.update(SLATE_GUI_PROBE=str(probe), XDG_CONFIG_HOME=str(tmp_path / "config"))
    app = subprocess.Popen(
        [sys.executable, "-m", "app", "gui", "--select", DONE, "--lang", "en"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        shown = wait_for("the window on the X server", lambda: event(probe, "shown"), app)
        assert shown["platform"] == "xcb"
        # the X server itself lists the app's window as viewable
        ids = xserver.xdotool("search", "--sync", "--onlyvisible", "--name", "^Slate$").split()
        assert str(shown["window_id"]) in ids
        rows = wait_for("the first rows", lambda: event(probe, "rows"), app)
        assert rows["count"] >= 1
        rects = wait_for(
            "the form", lambda: widgets(probe).get("createButton") and widgets(probe), app
        )

        # first rows painted: the slot list's area on the real screen carries text, not one colour
        def painted():
            shot = xserver.screenshot()
            return shot if colours(shot, region(rects["slotList"])) >= 20 else None

        first = wait_for("the slot list painted", painted, app)
        save(first, "xvfb-1-first-rows.png")
        x, y, w, h = shown["rect"]
        window_box = region([x, y, w, h])
        assert colours(first) > 200, "the screenshot is (nearly) one colour"
        outside = first.crop((min(x + w + 10, 1599), 0, 1600, 1000))
        assert colours(outside) <= 2, "the background outside the window should be plain"
        assert colours(first, window_box) > 200, "the window's area looks blank"
        assert first.getpixel((x + w // 2, y + h // 2)) != outside.getpixel((0, 0))

        # a create through the form: real pointer and keyboard events through the X server
        xserver.xdotool("windowfocus", "--sync", str(shown["window_id"]))
        click(xserver, rects["newDraftButton"])
        draft = wait_for(
            "an editable draft",
            lambda: (lambda w: w if w.get("requestIdEdit") else None)(widgets(probe)),
            app,
        )
        click(xserver, draft["imageRadio"])
        click(xserver, draft["requestIdEdit"])
        xserver.xdotool("key", "--clearmodifiers", "ctrl+a")
        xserver.xdotool("type", "--delay", "5", NEW)
        click(xserver, draft["promptEdit"])
        xserver.xdotool("key", "--clearmodifiers", "ctrl+a")
        xserver.xdotool("type", "--delay", "5", "a lighthouse at dusk")
        click(xserver, widgets(probe)["createButton"])

        def created():
            res = run_slate(slate_env, "status", NEW)
            return (
                res.out
                if res.out["outcome"] == "ok" and res.out["task"]["state"] == "success"
                else None
            )

        status = wait_for("the slot created from the form", created, app)
        assert status["task"]["kind"] == "image"
        assert status["task"]["params"]["prompt"] == "a lighthouse at dusk"
        time.sleep(1.0)  # let the window paint the new slot
        after = xserver.screenshot()
        save(after, "xvfb-2-created.png")
        assert after.tobytes() != first.tobytes()

        # close it as a window manager would: the app ends by itself, cleanly
        close_window(xserver.display, shown["window_id"])
        out, err = app.communicate(timeout=60)
    finally:
        if app.poll() is None:
            app.kill()
            app.communicate()
    assert app.returncode == 0, err[-3000:]
    assert "core dumped" not in err and "Aborted" not in err


def test_no_display_is_one_sentence_and_exit_2(slate_env, tmp_path):
    """No DISPLAY, no QT_QPA_PLATFORM: Slate explains and exits 2 — Qt never gets to abort."""
    env = {
        k: v
        for k, v in slate_env.items()
        if k not in ("DISPLAY", "QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE")
    }
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    proc = subprocess.run(
        [sys.executable, "-m", "app"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    sentence = lines[0]
    assert sentence.startswith("slate: cannot open a window:") and sentence.endswith(".")
    assert "DISPLAY" in sentence and "QT_QPA_PLATFORM=offscreen" in sentence
    assert "qt.qpa" not in proc.stderr and "core dumped" not in proc.stderr
    assert proc.stdout == ""


def test_a_display_that_does_not_answer(slate_env, tmp_path):
    env = {k: v for k, v in slate_env.items() if k not in ("WAYLAND_DISPLAY", "XDG_SESSION_TYPE")}
    env.update(QT_QPA_PLATFORM="xcb", DISPLAY=":4093", XDG_CONFIG_HOME=str(tmp_path / "config"))
    proc = subprocess.run(
        [sys.executable, "-m", "app", "gui"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1
    assert "the X display ':4093' does not answer" in proc.stderr
    assert "QT_QPA_PLATFORM=offscreen" in proc.stderr
