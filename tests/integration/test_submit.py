"""Submit semantics on a real store and the demo provider over loopback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
import sqlalchemy as sa

from app.cli import exit_code
from app.service.results import OutcomeKind
from tests.support.fixtures import ROOT, run_slate_in_process

RID = "article:20260816:tide-eye:scene-02"
REF_A = "https://example.test/ref-a.png"
REF_B = "https://example.test/ref-b.png"

IMAGE = {"prompt": "tide eye at dusk", "aspect_ratio": "16:9", "n": 1, "subject_reference": REF_A}
VIDEO = {"prompt": "tide eye, slow dolly in", "duration": 6, "resolution": "768P"}

CONFLICTS = [
    ("image", IMAGE, {"prompt": "tide eye at dusk "}, "prompt"),
    ("image", IMAGE, {"aspect_ratio": "9:16"}, "aspect_ratio"),
    ("image", IMAGE, {"n": 2}, "n"),
    ("image", IMAGE, {"subject_reference": REF_B}, "subject_reference"),
    ("video", VIDEO, {"duration": 10}, "duration"),
    ("video", VIDEO, {"resolution": "1080P"}, "resolution"),
]


def _rows(repo):
    with repo.engine.connect() as conn:
        return [
            dict(r) for r in conn.execute(sa.text("SELECT * FROM tasks ORDER BY id")).mappings()
        ]


@pytest.mark.parametrize("kind, base, change, field", CONFLICTS, ids=[c[3] for c in CONFLICTS])
async def test_changed_parameter_is_a_conflict_with_no_provider_call(
    harness, kind, base, change, field
):
    svc = harness.service
    first = await svc.submit(RID, kind, base)
    assert first.kind is OutcomeKind.CREATED, first.problem
    before = _rows(harness.repo)
    calls = harness.sim.stats()["requests_total"]
    out = await svc.submit(RID, kind, {**base, **change})
    assert out.kind is OutcomeKind.CONFLICT and exit_code(out) == 3
    assert field in out.problem.diff and len(out.problem.diff) == 1
    assert out.problem.suggested_request_id == RID + ".t2"
    assert harness.sim.stats()["requests_total"] == calls  # zero provider calls
    after = _rows(harness.repo)
    assert [dict(r, updated_at=None) for r in after] == [dict(r, updated_at=None) for r in before]
    assert after == before  # the stored row is unchanged, to the byte
    hist = await svc.history(RID)
    conflicts = [e for e in hist.payload.events if e.event == "conflict"]
    assert len(conflicts) == 1
    assert conflicts[0].data["diff"][field]["attempted"] == out.problem.diff[field]["attempted"]


async def test_other_kind_same_request_id_is_a_conflict(harness):
    assert (await harness.service.submit(RID, "image", {"prompt": "p"})).kind is OutcomeKind.CREATED
    out = await harness.service.submit(RID, "video", {"prompt": "p"})
    assert out.kind is OutcomeKind.CONFLICT and "kind" in out.problem.diff
    assert harness.sim.stats()["creates_total"] == 1


async def test_same_parameters_replay_without_provider_call(harness):
    svc = harness.service
    first = await svc.submit(RID, "video", VIDEO)
    calls = harness.sim.stats()["requests_total"]
    again = await svc.submit(
        RID, "video", {**VIDEO, "model": "MiniMax-Hailuo-2.3", "prompt_optimizer": True}
    )
    assert again.kind is OutcomeKind.REPLAYED and exit_code(again) == 0
    assert again.task.handle == first.task.handle
    assert harness.sim.stats()["requests_total"] == calls
    events = [e.event for e in (await svc.history(RID)).payload.events]
    assert events[:3] == ["submitted", "create_sent", "created"] or events[:2] == [
        "submitted",
        "created",
    ]
    assert "replayed" in events


async def test_other_user_and_tenant_do_not_see_the_slot(harness):
    await harness.service.submit(RID, "image", {"prompt": "p"})
    for other in (harness.other(user="mei"), harness.other(tenant="studio-b")):
        assert (await other.status(RID)).kind is OutcomeKind.NOT_FOUND
        assert exit_code(await other.status(RID)) == 8
        assert (await other.history(RID)).kind is OutcomeKind.NOT_FOUND
        # and their own submit is a separate slot, not a replay or a conflict
        mine = await other.submit(RID, "image", {"prompt": "something else"})
        assert mine.kind is OutcomeKind.CREATED
    assert harness.sim.stats()["creates_total"] == 3


def test_cli_other_user_or_tenant_is_not_found(slate):
    assert slate("submit", "--request-id", RID, "--kind", "image", "--prompt", "p").code == 0
    for flag in (["--user", "mei"], ["--tenant", "studio-b"]):
        for cmd in (["status", RID], ["history", RID]):
            res = slate(*flag, *cmd)
            assert res.code == 8 and res.out["outcome"] == "not_found", res
            assert res.out["task"] is None


def test_kill_9_while_create_in_flight_leaves_unknown_and_no_second_create(
    slate_env, demo_sim, data_dir
):
    demo_sim.set_faults(delay_create_response=30)  # the provider holds its answer
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "--json",
            "submit",
            "--request-id",
            RID,
            "--kind",
            "video",
            "--prompt",
            "held",
        ],
        env=slate_env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.time() + 30
    while demo_sim.stats()["creates_total"] < 1:
        assert time.time() < deadline and proc.poll() is None, "create never reached the provider"
        time.sleep(0.02)
    engine = sa.create_engine(f"sqlite:///{data_dir / 'slate.sqlite3'}")
    with engine.connect() as conn:  # written before the create left the machine
        assert conn.execute(sa.text("SELECT state FROM tasks")).scalar() == "submitting"
    engine.dispose()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    demo_sim.set_faults(delay_create_response=0)
    status = run_slate_in_process(slate_env, "status", RID)
    assert status.out["task"]["state"] == "unknown", status
    assert status.out["outcome"] == "unknown" and status.code == 4
    assert status.out["task"]["allowed_actions"] == ["recover"]  # no task id to query
    again = run_slate_in_process(
        slate_env, "submit", "--request-id", RID, "--kind", "video", "--prompt", "held"
    )
    assert again.code == 4 and again.out["outcome"] == "unknown"
    assert demo_sim.stats()["creates_total"] == 1
    hist = run_slate_in_process(slate_env, "history", RID)
    assert [e["event"] for e in hist.out["events"]][:3] == ["submitted", "create_sent", "unknown"]


async def test_live_owner_is_never_declared_unknown(harness):
    """A racing process must not turn a live owner's submitting record into unknown."""
    harness.sim.set_faults(delay_create_response=1.0)
    import asyncio

    first = asyncio.create_task(harness.service.submit(RID, "video", VIDEO))
    for _ in range(200):
        await asyncio.sleep(0.01)
        if harness.sim.stats()["creates_total"]:
            break
    other = harness.other()  # same user, another service in this (live) process
    swept = await other.sweep_submitting()
    assert swept == []
    replay = await other.submit(RID, "video", VIDEO)
    assert replay.kind is OutcomeKind.REPLAYED and replay.task.state == "submitting"
    assert (await first).kind is OutcomeKind.CREATED


async def test_create_asked_again_of_an_unknown_slot_says_why_it_stays_off(harness):
    """Issue 33 point 3: Create on an Unknown slot said "The provider had an internal problem
    with this request." The service says why, typed (``Unchanged.STILL_UNKNOWN``), and the
    window says it in a designer's words."""
    from app.domain.errors import Unchanged
    from app.present import words

    rid = "article:20261203:wal:scene-09"
    harness.sim.set_faults(lose_create_response=1)
    first = await harness.service.submit(rid, "video", {"prompt": "lost on the way"})
    assert first.kind is OutcomeKind.UNKNOWN
    again = await harness.service.submit(rid, "video", {"prompt": "lost on the way"})
    assert again.kind is OutcomeKind.UNKNOWN
    assert again.problem.unchanged is Unchanged.STILL_UNKNOWN
    said = words.for_outcome(again.problem).text
    assert said.startswith("Create stays off") and "internal problem" not in said
    assert harness.sim.stats()["creates_total"] == 1


@pytest.mark.parametrize(
    ("kind", "params", "lookable"),
    [
        ("image", {"prompt": "a lost still"}, False),
        ("music", {"prompt": "a lost song", "instrumental": True}, False),
        ("video", {"prompt": "a lost clip", "model": "MiniMax-H3"}, True),
    ],
)
async def test_a_lost_answer_says_look_it_up_only_where_it_can_be(harness, kind, params, lookable):
    """Issue 33 point 4: under an unknown image, song or voice line the words said "look it
    up" while nothing can be looked up. The service decides (the slot's recover options); the
    words follow."""
    from app.present import words

    harness.sim.set_faults(lose_create_response=1)
    out = await harness.service.submit(f"article:20261203:lost:{kind}", kind, params)
    assert out.kind is OutcomeKind.UNKNOWN
    assert words.nothing_to_look_up(out.task) is not lookable
    said = words.for_outcome(out.problem, no_record=words.nothing_to_look_up(out.task)).text
    assert ("look it up" in said) is lookable, said
    if not lookable:
        assert "declare the slot failed" in said
