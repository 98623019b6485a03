"""The draft with real input on a real X server (Xvfb, xcb, xdotool), issue 18 points 2 and 3:

- the mouse wheel turned over the form, with the pointer passing over Duration and Ratio as the
  page scrolls, changes neither: the slot created afterwards has 6 s and 16:9;
- "Use in a new slot" → "Use as first frame of a new slot" on a finished image, a RequestId and
  a prompt typed: the MiniMax-H3 draft is created by clicking Create and ends in success.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.desktop.test_xcb_window import click, event, widgets
from tests.support.fixtures import ROOT, run_slate
from tests.support.xserver import XServer, start_xvfb

IMAGE = "article:20260816:tide-eye:still-01"
WHEELED = "article:20260816:tide-eye:scene-31"
CHAINED = "article:20260816:tide-eye:scene-32"


@pytest.fixture
def xserver(tmp_path: Path):
    server = start_xvfb(tmp_path)
    try:
        yield server
    finally:
        server.stop()


def _launch(xserver: XServer, slate_env, tmp_path: Path, *args: str):
    probe = tmp_path / "probe.jsonl"
    env = xserver.env(slate_env)
    env.update(SLATE_GUI_PROBE=str(probe), XDG_CONFIG_HOME=str(tmp_path / "config"))
    log = (tmp_path / "app.log").open("w")  # no pipes: the app's helpers may outlive it
    app = subprocess.Popen(
        [sys.executable, "-m", "app", "gui", "--lang", "en", *args],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log.close()
    return app, probe


def wait_for(what: str, check, app: subprocess.Popen, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        if app.poll() is not None:
            raise AssertionError(f"the app ended ({app.returncode}) before {what}: {app.args}")
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _stop(app: subprocess.Popen) -> None:
    if app.poll() is None:
        app.kill()  # the test is over: what the app had to do is in the store already
        app.wait(30)


def _having(probe: Path, name: str) -> dict | None:
    """The widgets' rectangles once ``name`` and the Ratio field are on screen."""
    found = widgets(probe)
    return found if found.get(name) and found.get("ratioCombo") else None


def _type_into(x: XServer, rect: list[int], text: str) -> None:
    click(x, rect)
    x.xdotool("key", "--clearmodifiers", "ctrl+a")
    x.xdotool("type", "--delay", "5", text)


def _status(slate_env, rid: str):
    res = run_slate(slate_env, "status", rid)
    return res.out.get("task") if res.out.get("outcome") == "ok" else None


def _wheel_over(x: XServer, rect: list[int], button: str, turns: int) -> None:
    cx, cy = rect[0] + rect[2] // 2, rect[1] + rect[3] // 2
    x.xdotool("mousemove", "--sync", str(cx), str(cy))
    for _ in range(turns):
        x.xdotool("click", button)  # 4: wheel up, 5: wheel down


def test_the_wheel_over_the_form_changes_no_paid_setting(xserver: XServer, slate_env, tmp_path):
    app, probe = _launch(xserver, slate_env, tmp_path)
    try:
        shown = wait_for("the window", lambda: event(probe, "shown"), app)
        xserver.xdotool("windowfocus", "--sync", str(shown["window_id"]))
        rects = wait_for(
            "the window's buttons",
            lambda: widgets(probe).get("newDraftButton") and widgets(probe),
            app,
        )
        click(xserver, rects["newDraftButton"])
        draft = wait_for("the draft's fields", lambda: _having(probe, "durationSlider"), app)
        _type_into(xserver, draft["requestIdEdit"], WHEELED)
        _type_into(xserver, draft["promptEdit"], "tide eye, the wheel turned over the form")
        # the pointer over Duration, then over Ratio, wheel down and up: the page scrolls, the
        # fields pass under the pointer, nothing of theirs changes
        for name in ("durationSlider", "ratioCombo"):
            rect = widgets(probe)[name]
            _wheel_over(xserver, rect, "5", 4)
            time.sleep(0.3)
            _wheel_over(xserver, rect, "4", 4)
            time.sleep(0.3)
            _wheel_over(xserver, widgets(probe)[name], "5", 3)
            time.sleep(0.3)
        click(xserver, widgets(probe)["createButton"])
        task = wait_for("the slot created", lambda: _status(slate_env, WHEELED), app, 90)
        assert task["params"]["duration"] == 6, task["params"]
        assert task["params"]["ratio"] == "16:9", task["params"]
    finally:
        _stop(app)


def test_use_as_first_frame_creates_an_h3_slot_by_mouse_and_keyboard(
    xserver: XServer, slate_env, tmp_path
):
    done = run_slate(
        slate_env,
        "submit",
        "--request-id",
        IMAGE,
        "--kind",
        "image",
        "--prompt",
        "a lighthouse at dawn",
        "--wait",
    )
    assert done.out["task"]["state"] == "success", done.out
    app, probe = _launch(xserver, slate_env, tmp_path, "--select", IMAGE)
    try:
        shown = wait_for("the window", lambda: event(probe, "shown"), app)
        xserver.xdotool("windowfocus", "--sync", str(shown["window_id"]))
        rects = wait_for(
            "the finished slot's Use button",
            lambda: widgets(probe).get("useAsButton") and widgets(probe),
            app,
        )
        click(xserver, rects["useAsButton"])  # its menu opens
        time.sleep(0.5)
        xserver.xdotool("key", "Down")  # "Use as first frame of a new slot"
        xserver.xdotool("key", "Return")
        draft = wait_for("the new draft", lambda: _having(probe, "requestIdEdit"), app)
        _type_into(xserver, draft["requestIdEdit"], CHAINED)
        _type_into(xserver, draft["promptEdit"], "the lighthouse at dusk, slow dolly in")

        def created():
            click(xserver, widgets(probe)["createButton"])  # a grey Create does nothing
            time.sleep(1.0)
            return _status(slate_env, CHAINED)

        wait_for("the chained slot created", created, app, 90)

        def succeeded():
            task = _status(slate_env, CHAINED)
            return task if task and task["state"] == "success" else None

        task = wait_for("the chained slot's success", succeeded, app, 90)
        assert task["params"]["model"] == "MiniMax-H3", task["params"]
        assert [c["role"] for c in task["params"]["content"]] == ["first_frame"]
    finally:
        _stop(app)
