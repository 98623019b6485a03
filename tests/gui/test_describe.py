"""``slate gui --describe --select RID``: the real window, started offscreen in its own process on a
real SQLite store, says in one JSON object what a person would see. Each slot shows exactly the
contract's offers (DESIGN.md "Actions per state"): an unknown MiniMax-H3 slot and an unknown image
slot (their create's answer lost by the demo provider) offer recover only — no query (no task id),
no new slot — and a finished MiniMax-H3 slot offers export, open and new slot."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.support.fixtures import ROOT

H3 = ("--kind", "video", "--model", "MiniMax-H3", "--duration", "4", "--prompt", "tide eye")
#: The slot's action buttons by object name (stable: tests/gui/test_keyboard.py) → the action.
ACTION_BUTTONS = {
    "createButton": "create",
    "queryButton": "query",
    "recoverButton": "recover",
    "exportButton": "export",
    "openButton": "open",
    "newSlotButton": "new_slot",
    "cancelButton": "cancel",
}
KEYS = {
    "outcome",
    "window",
    "selected",
    "slot",
    "banner",
    "buttons",
    "actions",
    "form",
    "message",
    "dialogs",
    "result",
}


def describe(env: dict[str, str], *args: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "app", "gui", "--describe", *args],
        env={k: v for k, v in env.items() if k != "QT_QPA_PLATFORM"},  # it goes offscreen itself
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stdout  # exactly one JSON object
    seen = json.loads(lines[0])
    assert set(seen) == KEYS and seen["outcome"] == "ok"
    return seen


def offered(seen: dict[str, Any]) -> set[str]:
    """The actions whose buttons are visible and enabled."""
    return {
        ACTION_BUTTONS[b["name"]]
        for b in seen["buttons"]
        if b["name"] in ACTION_BUTTONS and b["enabled"]
    }


def button(seen: dict[str, Any], name: str) -> dict[str, Any]:
    [found] = [b for b in seen["buttons"] if b["name"] == name]
    return found


def test_an_unknown_h3_slot_offers_recover_only(slate_env, demo_sim, slate):
    rid = "article:20261202:tide-eye:scene-01"
    demo_sim.set_faults(lose_create_response=1)
    assert slate("submit", "--request-id", rid, *H3).code == 4
    seen = describe(slate_env, "--select", rid)
    assert seen["selected"] == rid
    assert seen["slot"] == {"request_id": rid, "kind": "video", "state": "unknown"}
    assert offered(seen) == {"recover"}  # the contract: query only with a task id; no new slot
    query, new = button(seen, "queryButton"), button(seen, "newSlotButton")
    assert "look the task up" in query["why_not"]  # MiniMax-H3 lists its tasks
    assert "declare it failed" in new["why_not"]
    assert seen["banner"]["title"] == "Unknown"
    assert "Query the provider" not in seen["banner"]["text"]
    assert "look the task up" in seen["banner"]["text"]
    # the app's own lookup found the lost task and asks before attaching anything
    [dialog] = seen["dialogs"]
    assert dialog["name"] == "lookupDialog"
    assert {b["name"] for b in dialog["buttons"]} >= {"attachFoundButton", "notNowButton"}
    actions = {a["name"]: a for a in seen["actions"]}
    assert not actions["queryAction"]["enabled"] and actions["queryAction"]["why_not"]
    assert not actions["createAction"]["enabled"]
    assert seen["result"] == {"share": 0.0}
    assert demo_sim.stats()["creates_total"] == 1  # describing creates nothing


def test_an_unknown_image_slot_offers_recover_only(slate_env, demo_sim, slate):
    rid = "article:20261202:tide-eye:still-01"
    demo_sim.set_faults(lose_create_response=1)
    out = slate("submit", "--request-id", rid, "--kind", "image", "--prompt", "a lighthouse")
    assert out.code == 4
    seen = describe(slate_env, "--select", rid)
    assert seen["slot"]["state"] == "unknown" and seen["slot"]["kind"] == "image"
    assert offered(seen) == {"recover"}
    assert "image tasks" in button(seen, "queryButton")["why_not"]
    assert "image tasks" in seen["banner"]["text"]
    assert "Query the provider" not in seen["banner"]["text"]
    assert seen["dialogs"] == []  # an image is in no task list: nothing looked up


def test_a_finished_h3_slot_offers_export_open_and_new_slot(slate_env, demo_sim, slate):
    rid = "article:20261202:tide-eye:scene-02"
    out = slate("submit", "--request-id", rid, *H3, "--wait", timeout=120)
    assert out.out["task"]["state"] == "success", out.out
    seen = describe(slate_env, "--select", rid, "--size", "1000x640")
    assert (seen["window"]["width"], seen["window"]["height"]) == (1000, 640)
    assert seen["slot"]["state"] == "success"
    assert offered(seen) == {"export", "open", "new_slot"}
    for name in ("createButton", "queryButton", "recoverButton"):
        assert button(seen, name)["why_not"], name  # refused, and says why
    assert all(b["why_not"] is None for b in seen["buttons"] if b["enabled"])
    assert seen["banner"]["title"] == "Done"
    assert 0.05 < seen["result"]["share"] <= 1.0  # the video, large in the slot pane
    assert seen["form"]["visible"] is False  # a stored slot shows a summary, not the form


def test_a_draft_shows_the_forms_fields_and_the_language_asked(
    slate_env, demo_sim, slate, tmp_path
):
    # a first launch (a data folder of its own, still empty) is described beside the rest:
    # describing writes nothing, so the two processes cannot see each other (issue 38)
    first = tmp_path / "first-launch"
    first.mkdir()
    with ThreadPoolExecutor(1) as pool:
        launch = pool.submit(describe, {**slate_env, "SLATE_DATA_DIR": str(first)})
        rid = "article:20261202:tide-eye:still-09"
        out = slate("submit", "--request-id", rid, "--kind", "image", "--prompt", "a gull")
        assert out.code == 0
        seen = describe(slate_env, "--lang", "zh_CN")  # no --select: a blank draft beside the slot
        empty = launch.result()
    assert empty["form"]["visible"] is False and empty["slot"] is None  # the welcome page
    assert seen["window"]["lang"] == "zh_CN" and seen["slot"] is None
    assert seen["form"]["visible"] is True
    fields = {f["name"]: f for f in seen["form"]["fields"] if f["name"]}
    assert {"promptEdit", "modelCombo", "requestIdEdit"} <= set(fields)
    assert fields["modelCombo"]["type"] == "choice" and fields["modelCombo"]["value"]
    assert fields["promptEdit"]["value"] == "" and not fields["promptEdit"]["read_only"]
    create = button(seen, "createButton")
    assert not create["enabled"] and re.search(r"[\u4e00-\u9fff]", create["text"])
    assert re.search(r"[\u4e00-\u9fff]", seen["banner"]["title"])


@pytest.mark.parametrize("size", ["10x10", "wide"])
def test_a_size_it_cannot_use_is_refused_naming_the_field(slate_env, size):
    proc = subprocess.run(
        [sys.executable, "-m", "app", "--json", "gui", "--describe", "--size", size],
        env=slate_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert out["outcome"] == "invalid" and "size" in out["error"]["message"]


def describe_hooked(
    slate_env: dict[str, str], tmp_path: Any, hook: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """``slate gui --describe`` with ``hook`` as its ``sitecustomize`` and ``env`` added; its
    one JSON answer checked (``outcome`` ok), the process returned for the test's checks."""
    folder = tmp_path / "hook"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(hook)
    run_env = {k: v for k, v in slate_env.items() if k != "QT_QPA_PLATFORM"}
    run_env.update(env, PYTHONPATH=os.pathsep.join([str(folder), str(ROOT)]))
    proc = subprocess.run(
        [sys.executable, "-m", "app", "gui", "--describe"],
        env=run_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=170,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1 and json.loads(lines[0])["outcome"] == "ok", proc.stdout
    return proc


def test_a_describe_stuck_closing_ends_with_the_stacks_instead_of_holding_its_caller(
    slate_env, tmp_path
):
    """The answer is printed first; should closing then never end (here an exit handler that
    sleeps ten minutes), the process prints every thread's stack and ends soon after
    ``SLATE_CLOSE_WITHIN`` seconds (CI once waited 180 s on a describe that had answered)."""
    proc = describe_hooked(
        slate_env,
        tmp_path,
        # only in the app's own process: its helpers (the resource tracker, decoders) start
        # Python too, and must not inherit the stuck exit
        "import atexit, os, time\n"
        "if os.environ.pop('SLATE_TEST_STUCK_EXIT', None):\n"
        "    atexit.register(time.sleep, 600)\n",
        SLATE_CLOSE_WITHIN="2",
        SLATE_TEST_STUCK_EXIT="1",
    )
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "Timeout (0:00:02)!" in proc.stderr and "sleep" not in proc.stdout
    assert "Thread 0x" in proc.stderr or "Current thread" in proc.stderr, proc.stderr[-2000:]


def test_a_describe_whose_close_waits_forever_says_on_what_and_ends_with_its_answer(
    slate_env, tmp_path
):
    """CI saw describes that had answered wait on their close with the loop idle (every thread
    waiting for work) until the watchdog's exit 1. Here the service's close waits on an event
    nobody sets: after ``SLATE_CLOSE_GRACE`` seconds the run names the coroutine it waits on,
    with its stack, and ends with its answer's exit 0, long before the watchdog."""
    proc = describe_hooked(
        slate_env,
        tmp_path,
        "import os\n"
        "if os.environ.pop('SLATE_TEST_STUCK_CLOSE', None):\n"
        "    import asyncio\n"
        "    from app.ui import controller\n"
        "    async def lost_wakeup_close(self):\n"
        "        await asyncio.Event().wait()\n"
        "    controller.Controller.aclose = lost_wakeup_close\n",
        SLATE_CLOSE_GRACE="1",
        SLATE_CLOSE_WITHIN="150",
        SLATE_TEST_STUCK_CLOSE="1",
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "closing takes over 1 s" in proc.stderr, proc.stderr[-3000:]
    assert "lost_wakeup_close" in proc.stderr, proc.stderr[-3000:]
    assert "Timeout (" not in proc.stderr  # not the watchdog's end
