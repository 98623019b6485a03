"""An unknown slot with real input on a real X server (Xvfb, xcb, xdotool), issue 18 point 1: the
create's answer was lost (the task exists and will finish at the provider); the designer clicks
"Edit as new slot" and presses its shortcut (Ctrl+Shift+N), then Ctrl+Return (Create): nothing
is created or billed a second time — the window offers recover only."""

from __future__ import annotations

import time

from tests.desktop.test_xcb_draft import xserver  # noqa: F401
from tests.support.xapp import click, event, launch, stop, wait_for, widgets
from tests.support.xserver import XServer

LOST = "article:20260816:tide-eye:scene-41"


def test_an_unknown_slot_cannot_be_paid_twice_by_mouse_or_keyboard(
    xserver: XServer,  # noqa: F811
    slate_env,
    slate,
    demo_sim,
    tmp_path,
):
    demo_sim.set_faults(lose_create_response=1)
    lost = slate(
        "submit",
        "--request-id",
        LOST,
        "--kind",
        "video",
        "--model",
        "MiniMax-H3",
        "--duration",
        "4",
        "--prompt",
        "storm over the pier",
    )
    assert lost.code == 4 and lost.out["task"]["state"] == "unknown", lost.out
    assert demo_sim.stats()["creates_total"] == 1
    app, probe = launch(xserver, slate_env, tmp_path, "--select", LOST)
    try:
        shown = wait_for("the window", lambda: event(probe, "shown"), app)
        xserver.xdotool("windowfocus", "--sync", str(shown["window_id"]))
        rects = wait_for(
            "the unknown slot's buttons",
            lambda: widgets(probe).get("newSlotButton") and widgets(probe),
            app,
        )
        # MiniMax-H3 lists its tasks: the app's lookup found the lost task and asks; not now
        asked = wait_for("the lookup's question", lambda: widgets(probe).get("notNowButton"), app)
        click(xserver, asked)
        wait_for("the question closed", lambda: "notNowButton" not in widgets(probe), app)
        click(xserver, rects["newSlotButton"])  # refused: nothing happens
        time.sleep(0.5)
        xserver.xdotool("key", "--clearmodifiers", "ctrl+shift+n")
        time.sleep(0.5)
        xserver.xdotool("key", "--clearmodifiers", "ctrl+Return")
        time.sleep(2.0)
        assert "requestIdEdit" not in widgets(probe)  # no draft was started from it
        # the clicks reached the window (no dialog held them): the top bar's New still works
        click(xserver, widgets(probe)["newDraftButton"])
        wait_for("a blank draft", lambda: widgets(probe).get("requestIdEdit"), app)
    finally:
        stop(app)
    assert demo_sim.stats()["creates_total"] == 1  # never sent again
    listed = slate("list")
    rids = [s["request_id"] for s in listed.out["slots"]]
    assert rids == [LOST], rids
