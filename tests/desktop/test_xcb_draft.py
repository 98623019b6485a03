"""The draft with real input on a real X server (Xvfb, xcb, xdotool), issue 18 points 2 and 3:

- the mouse wheel turned over the form, with the pointer passing over Duration and Ratio as the
  page scrolls, changes neither: the slot created afterwards has 6 s and 16:9;
- "Use in a new slot" → "Use as first frame of a new slot" on a finished image, a RequestId and
  a prompt typed: the MiniMax-H3 draft is created by clicking Create and ends in success.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.xapp import (
    centre,
    click,
    click_until,
    enabled,
    event,
    fields,
    launch,
    log_of,
    menu,
    move_to,
    read_events,
    settled,
    stop,
    wait_for,
    widgets,
)
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


def _having(probe: Path, name: str) -> dict | None:
    """The widgets' rectangles once ``name`` and the Ratio field are on screen."""
    found = widgets(probe)
    return found if found.get(name) and found.get("ratioCombo") else None


def _type_into(x: XServer, probe: Path, app, name: str, rect: list[int], text: str) -> None:
    """Click the field, select what it holds, type ``text``, and wait until the window's field
    holds exactly it (the probe's ``fields``). Typed once more if it does not: the typing is
    these tests' means, not their subject; what the field held is printed."""
    for attempt in (1, 2):
        click(x, rect)
        x.xdotool("key", "--clearmodifiers", "ctrl+a")
        x.xdotool("type", "--delay", "5", text)
        try:
            wait_for(f"{name} = {text!r}", lambda: fields(probe).get(name) == text, app, 20)
            return
        except AssertionError:
            held = fields(probe).get(name)
            print(f"typing {text!r} into {name} (try {attempt}) left {held!r}")
            if attempt == 2:
                raise AssertionError(f"{name} holds {held!r} after typing {text!r} twice") from None


def _status(slate, rid: str):
    """The slot's task as ``slate status`` reads it (the ``slate`` fixture: in this process, no
    start-up per look; the window is the other process)."""
    res = slate("status", rid)
    return res.out.get("task") if res.out.get("outcome") == "ok" else None


def _wheel_over(x: XServer, rect: list[int], button: str, turns: int) -> None:
    move_to(x, centre(rect))
    for _ in range(turns):
        x.xdotool("click", button)  # 4: wheel up, 5: wheel down


def test_the_wheel_over_the_form_changes_no_paid_setting(
    xserver: XServer, slate_env, slate, tmp_path
):
    app, probe = launch(xserver, slate_env, tmp_path)
    try:
        shown = wait_for("the window", lambda: event(probe, "shown"), app)
        xserver.xdotool("windowfocus", "--sync", str(shown["window_id"]))
        rects = settled(probe, app, "newDraftButton", what="the window's buttons")
        click(xserver, rects["newDraftButton"])
        wait_for("the draft's fields", lambda: _having(probe, "durationSlider"), app)
        draft = settled(probe, app, "requestIdEdit", "promptEdit", "durationSlider", "ratioCombo")
        _type_into(xserver, probe, app, "requestIdEdit", draft["requestIdEdit"], WHEELED)
        prompt = "tide eye, the wheel turned over the form"
        _type_into(xserver, probe, app, "promptEdit", draft["promptEdit"], prompt)
        before = fields(probe)
        # the pointer over Duration, then over Ratio, wheel down and up: the page scrolls, the
        # fields pass under the pointer, nothing of theirs changes
        # (each burst is followed by a wait for the layout to settle, so the next burst meets
        # the page where the last one left it)
        for name in ("durationSlider", "ratioCombo"):
            rect = settled(probe, app, name)[name]
            _wheel_over(xserver, rect, "5", 4)
            settled(probe, app, name)
            _wheel_over(xserver, rect, "4", 4)
            _wheel_over(xserver, settled(probe, app, name)[name], "5", 3)
            settled(probe, app, name)
        after = fields(probe)
        for name in ("durationSlider", "ratioCombo", "requestIdEdit", "promptEdit"):
            assert after.get(name) == before[name], (name, before[name], after.get(name))
        try:
            # Create is clicked once it can be: the draft's checks run after each keystroke
            wait_for("Create enabled", lambda: enabled(probe).get("createButton"), app)
            click(xserver, settled(probe, app, "createButton")["createButton"])
            task = wait_for("the slot created", lambda: _status(slate, WHEELED), app, 90)
        except AssertionError as e:
            slots = slate("list").out
            seen = [e for e in read_events(probe) if e["event"] in ("why", "enabled")][-6:]
            raise AssertionError(f"{e}\nslots: {slots}\nprobe: {seen}\n{log_of(app, tmp_path)}")
        assert task["params"]["duration"] == 6, task["params"]
        assert task["params"]["ratio"] == "16:9", task["params"]
    finally:
        stop(app)


def test_use_as_first_frame_creates_an_h3_slot_by_mouse_and_keyboard(
    xserver: XServer, slate_env, slate, tmp_path
):
    done = slate(
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
    app, probe = launch(xserver, slate_env, tmp_path, "--select", IMAGE)
    try:
        shown = wait_for("the window", lambda: event(probe, "shown"), app)
        xserver.xdotool("windowfocus", "--sync", str(shown["window_id"]))
        rects = settled(probe, app, "useAsButton", what="the finished slot's Use button")
        click(xserver, rects["useAsButton"])  # its menu opens
        actions = wait_for("the Use menu", lambda: menu(probe), app)
        assert "first frame" in actions[0].replace("&", ""), actions
        xserver.xdotool("key", "Down")  # "Use as first frame of a new slot"
        xserver.xdotool("key", "Return")
        wait_for("the menu closed", lambda: menu(probe) is None, app)
        wait_for("the new draft", lambda: _having(probe, "requestIdEdit"), app)
        draft = settled(probe, app, "requestIdEdit", "promptEdit", "ratioCombo")
        _type_into(xserver, probe, app, "requestIdEdit", draft["requestIdEdit"], CHAINED)
        prompt = "the lighthouse at dusk, slow dolly in"
        _type_into(xserver, probe, app, "promptEdit", draft["promptEdit"], prompt)
        # a grey Create does nothing: clicked again until the slot exists
        click_until(
            xserver,
            probe,
            app,
            "createButton",
            lambda: _status(slate, CHAINED),
            "the chained slot created",
            tries=9,
        )

        def succeeded():
            task = _status(slate, CHAINED)
            return task if task and task["state"] == "success" else None

        task = wait_for("the chained slot's success", succeeded, app, 90)
        assert task["params"]["model"] == "MiniMax-H3", task["params"]
        assert [c["role"] for c in task["params"]["content"]] == ["first_frame"]
    finally:
        stop(app)
