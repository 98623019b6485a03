"""2K regeneration as a slot of its own, through the service and the CLI, against the demo
provider over loopback, on both stores: created once (the source never changed, its history
naming the new slot), replayed on rerun, a conflict on drift, unknown on a lost answer with no
second paid call and found again by lookup (``task_type: regeneration``); what a source must
be, refused before anything is stored or sent; the provider's allow-list refusal."""

from __future__ import annotations

from typing import Any

import pytest

from app.domain.states import State
from app.service.commands import Lookup
from app.service.results import OutcomeKind
from app.sim import SimServer

pytestmark = pytest.mark.timeout(180)

SRC = "article:20261201:tide-eye:scene-02"
NEW = SRC + ".2k"
H3 = {"model": "MiniMax-H3", "prompt": "tide eye at dawn, slow dolly in", "duration": 4}


def regen_requests(sim: SimServer) -> int:
    return int(sim.stats()["requests_by_endpoint"].get("v2_video_regeneration", 0))


async def finished_source(h: Any, rid: str = SRC, **params: Any) -> Any:
    out = await h.service.submit(rid, "video", {**H3, **params}, wait=True, max_seconds=60)
    assert out.task.state is State.SUCCESS, out
    return out.task


async def test_regenerate_creates_a_2k_slot_once_and_leaves_the_source(harness):
    h = harness
    src = await finished_source(h)
    out = await h.service.regenerate(SRC, "2K", NEW, wait=True, max_seconds=60)
    assert out.kind is OutcomeKind.CREATED, out.problem
    task = out.task
    if task.state is not State.SUCCESS:  # say why: the error and the history, not a repr's head
        said = await h.service.history(NEW)
        raise AssertionError(
            (task.state, task.error, [(e.event, e.detail) for e in said.payload.events])
        )
    assert task.kind == "video"
    assert task.params["regenerate_from"] == SRC
    assert task.params["source_task_id"] == src.provider_task_id
    assert task.params["resolution"] == "2K"
    [m] = task.media
    assert min(m.width, m.height) == 1440  # 2K's short side
    assert m.duration == pytest.approx(4.0, abs=0.1)
    assert task.cost.estimate is None  # no MiniMax price for a regeneration
    assert regen_requests(h.sim) == 1
    # the source: unchanged, its history names the new slot
    after = await h.service.status(SRC)
    assert after.task.fingerprint == src.fingerprint and after.task.params == src.params
    assert after.task.state is State.SUCCESS
    events = (await h.service.history(SRC)).payload.events
    derived = [e for e in events if e.event == "derived"]
    assert len(derived) == 1 and derived[0].data["request_id"] == NEW
    # rerun: replayed, nothing sent, no second history entry
    again = await h.service.regenerate(SRC, "2K", NEW)
    assert again.kind is OutcomeKind.REPLAYED
    assert regen_requests(h.sim) == 1
    events = (await h.service.history(SRC)).payload.events
    assert len([e for e in events if e.event == "derived"]) == 1


async def test_another_source_under_the_same_request_id_is_a_conflict(harness):
    h = harness
    await finished_source(h)
    other = SRC.replace("scene-02", "scene-03")
    await finished_source(h, other, prompt="another shot")
    assert (await h.service.regenerate(SRC, "2K", NEW)).kind is OutcomeKind.CREATED
    drift = await h.service.regenerate(other, "2K", NEW)
    assert drift.kind is OutcomeKind.CONFLICT
    assert "regenerate_from" in drift.problem.diff
    assert regen_requests(h.sim) == 1


async def test_lost_answer_is_unknown_never_sent_twice_and_found_by_lookup(harness):
    h = harness
    await finished_source(h)
    # a plain generation with the same facts in the window must not be taken for it
    h.sim.set_faults(lose_create_response=1)
    out = await h.service.regenerate(SRC, "2K", NEW)
    assert out.kind is OutcomeKind.UNKNOWN
    again = await h.service.regenerate(SRC, "2K", NEW)
    assert again.kind is OutcomeKind.UNKNOWN
    assert regen_requests(h.sim) == 1
    found = await h.service.recover(NEW, Lookup())
    assert found.kind in (OutcomeKind.OK, OutcomeKind.CREATED, OutcomeKind.REPLAYED), found
    task = (await h.service.wait(NEW, 60)).task
    assert task.state is State.SUCCESS
    assert task.provider_task_id != (await h.service.status(SRC)).task.provider_task_id
    assert regen_requests(h.sim) == 1


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ({"resolution": "2K"}, "source"),  # not 768P
        ({"model": "MiniMax-H3-Max", "duration": 5}, "source"),  # not MiniMax-H3
    ],
)
async def test_a_source_that_cannot_be_regenerated_is_refused_first(harness, setup, field):
    h = harness
    await finished_source(h, **setup)
    out = await h.service.regenerate(SRC, "2K", NEW)
    assert out.kind is OutcomeKind.INVALID and out.problem.field == field, out.problem
    assert (await h.service.status(NEW)).kind is OutcomeKind.NOT_FOUND
    assert regen_requests(h.sim) == 0


async def test_wrong_target_unfinished_source_and_own_request_id_are_refused(harness):
    h = harness
    await finished_source(h)
    bad = await h.service.regenerate(SRC, "4K", NEW)
    assert bad.kind is OutcomeKind.INVALID and bad.problem.field == "to"
    same = await h.service.regenerate(SRC, "2K", SRC)
    assert same.kind is OutcomeKind.INVALID and same.problem.field == "request_id"
    assert NEW in same.problem.message
    h.sim.config.preparing, h.sim.config.queueing = 0.0, 60.0
    running = SRC.replace("scene-02", "scene-09")
    await h.service.submit(running, "video", {**H3, "prompt": "held"})
    out = await h.service.regenerate(running, "2K", running + ".2k")
    assert out.kind is OutcomeKind.INVALID and out.problem.field == "source"
    assert regen_requests(h.sim) == 0


async def test_a_source_older_than_seven_days_is_refused(harness):
    h = harness
    await finished_source(h)
    h.service.ctx.store.clock = lambda: 8 * 24 * 3600 + __import__("time").time()  # type: ignore[method-assign]
    out = await h.service.regenerate(SRC, "2K", NEW)
    assert out.kind is OutcomeKind.INVALID and "7 days" in out.problem.message
    assert regen_requests(h.sim) == 0


async def test_the_allow_list_refusal_is_rejected_and_nothing_is_made(harness):
    h = harness
    await finished_source(h)
    h.sim.config.regeneration_allowed = False
    out = await h.service.regenerate(SRC, "2K", NEW)
    assert out.kind is OutcomeKind.REJECTED, out
    assert "allow-list" in out.problem.message
    assert h.sim.stats()["made_total"] == 1  # the source only


def test_cli_regenerate(slate, demo_sim):
    got = slate(
        "submit", "--request-id", SRC, "--kind", "video", "--model", "MiniMax-H3",
        "--prompt", "tide eye", "--duration", "4", "--wait",
    )  # fmt: skip
    assert got.code == 0, got.out
    out = slate("regenerate", SRC, "--to", "2K", "--request-id", NEW, "--wait")
    assert out.code == 0, out.out
    assert out.out["outcome"] == "created" and out.out["task"]["state"] == "success"
    assert out.out["task"]["params"]["regenerate_from"] == SRC
    again = slate("regenerate", SRC, "--to", "2K", "--request-id", NEW)
    assert again.code == 0 and again.out["outcome"] == "replayed"
    bad = slate("regenerate", SRC, "--to", "8K", "--request-id", NEW + "x")
    assert bad.code == 2 and bad.out["error"]["field"] == "to"
