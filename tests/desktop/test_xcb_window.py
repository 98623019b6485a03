"""The real app on a real X server: Xvfb, the ``xcb`` platform plugin, input through the X server.

Everything else in the GUI suite runs offscreen; this proves the app works where users run it:
the window is mapped on the X server, its first rows are painted, a slot is created by clicking
and typing into the form (xdotool, XTEST events), the screenshot of the X11 root window shows
the window, and closing it like a window manager does ends the app cleanly (exit 0, no abort).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import ROOT, run_slate
from tests.support.xapp import (
    checked,
    click,
    click_until,
    event,
    launch,
    log_of,
    settled,
    stop,
    wait_for,
    widgets,
)
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

    app, probe = launch(xserver, slate_env, tmp_path, "--select", DONE)
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
        click_until(
            xserver,
            probe,
            app,
            "newDraftButton",
            lambda: widgets(probe).get("requestIdEdit"),
            "an editable draft",
        )
        # the kind first (it may change the form below it), each click until the window shows it
        click_until(
            xserver, probe, app, "imageRadio", lambda: checked(probe).get("imageRadio"), "image"
        )
        draft = settled(probe, app, "requestIdEdit", "promptEdit", "createButton")
        click(xserver, draft["requestIdEdit"])
        xserver.xdotool("key", "--clearmodifiers", "ctrl+a")
        xserver.xdotool("type", "--delay", "5", NEW)
        click(xserver, draft["promptEdit"])
        xserver.xdotool("key", "--clearmodifiers", "ctrl+a")
        xserver.xdotool("type", "--delay", "5", "a lighthouse at dusk")
        assert checked(probe).get("imageRadio"), "typing changed the kind"
        click(xserver, settled(probe, app, "createButton")["createButton"])

        def created():
            res = run_slate(slate_env, "status", NEW)
            return (
                res.out
                if res.out["outcome"] == "ok" and res.out["task"]["state"] == "success"
                else None
            )

        status = wait_for("the slot created from the form", created, app)
        assert status["task"]["kind"] == "image", status["task"]
        assert status["task"]["params"]["prompt"] == "a lighthouse at dusk"
        # the window paints the new slot (its row, its result): the screen changes
        after = wait_for(
            "the new slot painted",
            lambda: (lambda shot: shot if shot.tobytes() != first.tobytes() else None)(
                xserver.screenshot()
            ),
            app,
        )
        save(after, "xvfb-2-created.png")

        # close it as a window manager would: the app ends by itself, cleanly
        close_window(xserver.display, shown["window_id"])
        app.wait(60)
    finally:
        stop(app)
    err = log_of(app, tmp_path)
    assert app.returncode == 0, err
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
