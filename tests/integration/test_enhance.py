"""Prompt enhancement (MiniMax-H3's Context-IR) as a slot of kind ``prompt``, through the service
and the CLI, against the demo provider over loopback, on both stores: created once with the
enhanced prompt as its result (inline answer, and a task id queried), replayed on rerun, a
conflict on drift, unknown on a lost answer with no second paid call; the source never changed,
its history naming the new slot; a source that cannot be enhanced refused first."""

from __future__ import annotations

from typing import Any

import pytest

from app.domain.states import State
from app.service.commands import Lookup
from app.service.results import OutcomeKind
from app.sim import SimServer
from app.sim.h3extras import enhanced

pytestmark = pytest.mark.timeout(180)

SRC = "article:20261201:tide-eye:scene-02"
NEW = SRC + ".enhanced"
H3 = {"model": "MiniMax-H3", "prompt": "tide eye at dawn, slow dolly in", "duration": 4}


def ir_requests(sim: SimServer) -> int:
    return int(sim.stats()["requests_by_endpoint"].get("v2_h3_context_ir", 0))


async def source(h: Any, rid: str = SRC, **params: Any) -> Any:
    h.sim.config.preparing, h.sim.config.queueing = 0.0, 60.0  # the source need not finish
    out = await h.service.submit(rid, "video", {**H3, **params})
    assert out.kind is OutcomeKind.CREATED, out
    return out.task


@pytest.mark.parametrize("mode", ["inline", "task"])
async def test_enhance_stores_the_enhanced_prompt_once(harness, mode):
    h = harness
    h.sim.config.context_ir_mode = mode
    src = await source(h)
    h.sim.config.queueing = 0.0
    out = await h.service.enhance(SRC, NEW)
    assert out.kind is OutcomeKind.CREATED, out.problem
    task = out.task
    assert task.kind == "prompt" and task.state is State.SUCCESS
    assert task.params == {"model": "MiniMax-H3", "prompt": H3["prompt"], "enhance_of": SRC}
    assert task.text == enhanced(H3["prompt"])
    row = await h.service.ctx.load(NEW)
    assert row.results["prompt"] == enhanced(H3["prompt"])
    assert row.results["usage"]["output_tokens"] > 0
    assert task.cost.estimate is None and task.cost.reported is None  # no MiniMax price
    assert ir_requests(h.sim) == 1
    again = await h.service.enhance(SRC, NEW)
    assert again.kind is OutcomeKind.REPLAYED
    assert ir_requests(h.sim) == 1
    after = await h.service.status(SRC)
    assert after.task.fingerprint == src.fingerprint and after.task.params == src.params
    events = (await h.service.history(SRC)).payload.events
    derived = [e for e in events if e.event == "derived"]
    assert [e.data["request_id"] for e in derived] == [NEW]


async def test_the_same_request_id_for_another_prompt_is_a_conflict(harness):
    h = harness
    await source(h)
    other = SRC.replace("scene-02", "scene-03")
    await source(h, other, prompt="another shot")
    assert (await h.service.enhance(SRC, NEW)).kind is OutcomeKind.CREATED
    drift = await h.service.enhance(other, NEW)
    assert drift.kind is OutcomeKind.CONFLICT
    assert set(drift.problem.diff) == {"prompt", "enhance_of"}
    assert ir_requests(h.sim) == 1


async def test_lost_answer_is_unknown_and_never_paid_twice(harness):
    h = harness
    await source(h)
    h.sim.config.queueing = 0.0  # the Context-IR task, once queried, is done at once
    h.sim.set_faults(lose_create_response=1)
    out = await h.service.enhance(SRC, NEW)
    assert out.kind is OutcomeKind.UNKNOWN
    again = await h.service.enhance(SRC, NEW)
    assert again.kind is OutcomeKind.UNKNOWN
    assert ir_requests(h.sim) == 1
    # found again by lookup among the listed Context-IR tasks (not the source's generation)
    found = await h.service.recover(NEW, Lookup())
    assert found.kind is not OutcomeKind.UNKNOWN, found.problem
    task = (await h.service.wait(NEW, 60)).task
    assert task.state is State.SUCCESS and task.text == enhanced(H3["prompt"])
    assert task.provider_task_id != (await h.service.status(SRC)).task.provider_task_id
    assert ir_requests(h.sim) == 1


async def test_what_cannot_be_enhanced_is_refused_before_anything_is_sent(harness):
    h = harness
    await h.service.submit(SRC, "image", {"prompt": "a still"})
    out = await h.service.enhance(SRC, NEW)
    assert out.kind is OutcomeKind.INVALID and out.problem.field == "source"
    same = await h.service.enhance(SRC, SRC)
    assert same.kind is OutcomeKind.INVALID and NEW in same.problem.message
    missing = await h.service.enhance(SRC.replace("scene-02", "scene-77"), NEW)
    assert missing.kind is OutcomeKind.NOT_FOUND
    assert (await h.service.status(NEW)).kind is OutcomeKind.NOT_FOUND
    assert ir_requests(h.sim) == 0


def test_cli_enhance(slate, demo_sim):
    demo_sim.config.preparing, demo_sim.config.queueing = 0.0, 60.0
    got = slate(
        "submit", "--request-id", SRC, "--kind", "video", "--model", "MiniMax-H3",
        "--prompt", "tide eye", "--duration", "4",
    )  # fmt: skip
    assert got.code == 0, got.out
    out = slate("enhance", SRC, "--request-id", NEW)
    assert out.code == 0, out.out
    assert out.out["task"]["kind"] == "prompt" and out.out["task"]["state"] == "success"
    assert out.out["task"]["text"] == enhanced("tide eye")
    again = slate("enhance", SRC, "--request-id", NEW)
    assert again.code == 0 and again.out["outcome"] == "replayed"


async def test_enhance_a_draft_not_stored_yet(harness):
    """The app's "Enhance prompt" before Create: the draft's kind and parameters are given;
    nothing is stored under the draft's RequestId, the enhancement is a slot once (replayed on
    the same prompt, a conflict on another), and a draft the domain refuses is refused first."""
    h = harness
    draft = ("video", dict(H3))
    out = await h.service.enhance(SRC, NEW, draft=draft)
    assert out.kind is OutcomeKind.CREATED, out.problem
    assert out.task.text == enhanced(H3["prompt"])
    assert out.task.params["enhance_of"] == SRC
    assert await h.service.ctx.load(SRC) is None  # the draft stays a draft
    again = await h.service.enhance(SRC, NEW, draft=draft)
    assert again.kind is OutcomeKind.REPLAYED and again.task.text == out.task.text
    assert ir_requests(h.sim) == 1
    edited = ("video", {**H3, "prompt": H3["prompt"] + " at dusk"})
    drift = await h.service.enhance(SRC, NEW, draft=edited)
    assert drift.kind is OutcomeKind.CONFLICT
    legacy = ("video", {"model": "MiniMax-Hailuo-02", "prompt": "x"})
    refused = await h.service.enhance(SRC, SRC + ".enhanced-2", draft=legacy)
    assert refused.kind is OutcomeKind.INVALID and refused.problem.field == "source"
    assert ir_requests(h.sim) == 1
    assert (await h.service.enhance(SRC, NEW)).kind is OutcomeKind.NOT_FOUND  # no draft given
