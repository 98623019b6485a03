"""The cost of every task: the estimate stored at claim time, the provider's report priced with the
same table when it arrives, what each outcome counts for, and `cost` in every task's JSON.

Real store (SQLite file and PostgreSQL), the demo provider over loopback, the shipped price table
with a test override that prices image-01 (tests/support/prices.py).
"""

from __future__ import annotations

import time
from decimal import Decimal

import pytest
import sqlalchemy as sa

from app.cli import render
from app.domain.cost import estimate
from app.domain.days import budget_day
from app.domain.slots import SlotRef
from app.service.commands import DeclareFailed
from app.service.results import OutcomeKind
from app.service.transitions import Transitions
from app.store.rows import ClaimRequest, ClaimWrite
from tests.support.prices import CLIP_768P_6S, IMAGE_PRICE, write_override

RID = "article:20260816:tide-eye:scene-"
VIDEO = {"prompt": "tide eye, slow dolly in", "duration": 6, "resolution": "768P"}
COST_KEYS = {"estimate", "currency", "basis", "reported"}


@pytest.fixture
def svc(harness, tmp_path):
    return harness.other(prices_file=write_override(tmp_path / "cfg"))


async def test_the_estimate_is_stored_at_claim_with_its_basis(harness, svc):
    out = await svc.submit(RID + "01", "video", VIDEO)
    assert out.kind is OutcomeKind.CREATED
    cost = out.task.cost
    assert (cost.estimate, cost.currency, cost.reported) == (CLIP_768P_6S, "USD", None)
    assert cost.basis == "MiniMax-Hailuo-2.3 768P 6 s: $0.28 a clip"
    row = harness.repo.get_slot(svc.scope, SlotRef.parse("studio-a", "lin", RID + "01").slot_key)
    assert (row.cost_estimate, row.cost_currency, row.cost_day) == ("0.28", "USD", budget_day())
    assert row.cost_basis == cost.basis
    # the stored figure is what the claim computed: a later change of the table does not touch it
    write_override(
        svc.config.prices_file.parent.parent,
        '[models."MiniMax-Hailuo-2.3".per_clip]\n"768P" = { 6 = 0.50 }\n',
    )
    svc.reload_prices()
    again = await svc.status(RID + "01")
    assert again.task.cost.estimate == CLIP_768P_6S


async def test_a_price_not_in_the_table_is_null_never_zero(harness, svc):
    out = await svc.submit(RID + "02", "video", {"prompt": "default 1080P"})  # price unknown
    assert out.kind is OutcomeKind.CREATED
    assert out.task.cost.estimate is None
    shown = render(out)["task"]["cost"]
    assert set(shown) == COST_KEYS
    assert shown["estimate"] is None and shown["reported"] is None
    assert shown["basis"] == "MiniMax-Hailuo-2.3 1080P 6 s: price unknown"


async def test_a_v1_video_reports_one_clip_when_the_provider_says_success(harness, svc):
    out = await svc.submit(RID + "03", "video", VIDEO, wait=True, max_seconds=30)
    assert out.task.state == "success"
    assert out.task.cost.reported == CLIP_768P_6S and out.task.charged == CLIP_768P_6S
    assert render(out)["task"]["cost"]["reported"] == 0.28


async def test_images_are_reported_by_success_count_blocked_ones_are_free(harness, svc):
    harness.sim.set_faults(block_images=1)
    out = await svc.submit(RID + "04", "image", {"prompt": "three gulls", "n": 3})
    assert out.kind is OutcomeKind.CREATED, out.problem
    assert out.task.cost.estimate == 3 * IMAGE_PRICE
    assert out.task.cost.reported == 2 * IMAGE_PRICE  # one image blocked by the safety filter
    assert out.task.charged == 2 * IMAGE_PRICE


async def test_failed_and_rejected_are_shown_as_not_charged(harness, svc):
    harness.sim.set_faults(content_fail=1)
    failed = await svc.submit(RID + "05", "video", VIDEO, wait=True, max_seconds=30)
    assert failed.task.state == "fail"
    assert failed.task.charged == 0 and failed.task.not_charged
    assert failed.task.cost.estimate == CLIP_768P_6S  # the estimate stays, for the record
    shown = render(failed)["task"]["cost"]
    assert shown["estimate"] == 0.28 and shown["reported"] is None
    assert shown["basis"].endswith("not charged: the task is fail")
    harness.sim.set_faults(insufficient_balance=1)
    rejected = await svc.submit(RID + "06", "video", VIDEO)
    assert rejected.kind is OutcomeKind.REJECTED
    assert rejected.task.charged == 0 and rejected.task.not_charged


async def test_an_unknown_create_counts_at_its_estimate_even_declared_failed(harness, svc):
    harness.sim.set_faults(lose_create_response=1)
    out = await svc.submit(RID + "07", "video", VIDEO)
    assert out.kind is OutcomeKind.UNKNOWN
    assert out.task.charged == CLIP_768P_6S and not out.task.not_charged
    declared = await svc.recover(RID + "07", DeclareFailed("lost it"))
    assert declared.task.state == "fail"
    assert declared.task.charged == CLIP_768P_6S  # a charge may exist: the user accepted it
    assert "not charged" not in render(declared)["task"]["cost"]["basis"]


async def test_every_task_answer_carries_cost(harness, svc, tmp_path):
    await svc.submit(RID + "08", "video", VIDEO)
    answers = [await svc.status(RID + "08"), await svc.history(RID + "08")]
    listed = await svc.list_slots()
    for out in answers:
        assert set(render(out)["task"]["cost"]) == COST_KEYS
    assert all(set(s["cost"]) == COST_KEYS for s in render(listed)["slots"])


async def test_v2_usage_is_priced_with_the_same_table_when_it_arrives(harness, svc):
    """A MiniMax-H3 task written through the store, its V2 ``usage`` kept in its results."""
    table = svc.prices
    params = {
        "model": "MiniMax-H3",
        "prompt": "harbor",
        "duration": 6,
        "resolution": "768P",
        "ratio": "16:9",
        "content": [{"type": "image_url", "role": "first_frame"}],
    }
    slot = SlotRef.parse("studio-a", "lin", RID + "09")
    cost = estimate("video", params, table)
    assert cost.estimate == Decimal("0.48")  # 6 s × $0.08; one input image is free
    now = time.time()
    write = ClaimWrite(
        idempotency_key=slot.key("video"),
        request_id=slot.request_id,
        params=params,
        units=1,
        owner=("host", 1, 1.0),
        lease_until=now + 60,
        quota_limit=None,
        day=budget_day(now),
        cost=cost,
    )
    claimed = harness.repo.claim(
        ClaimRequest(svc.scope, slot.slot_key, "video", "f" * 64, now, lambda: write)
    )
    task = harness.repo.transition(
        claimed.task, state="processing", provider_task_id="v2-1", owner_pid=None, lease_until=None
    )
    moved = await Transitions(svc.ctx).to_downloading(
        task,
        event="status",
        detail="succeeded",
        results={
            "video_url": "https://x.test/v.mp4",
            "usage": {"output_seconds": 6.5, "input_image_count": 1},
        },
    )
    assert moved.cost_reported == "0.520"  # 6.5 s × $0.08, priced with the same table
    view = svc.view(moved)
    assert view.cost.estimate == Decimal("0.48") and view.cost.reported == Decimal("0.52")
    assert view.charged == Decimal("0.52")  # the reported figure replaces the estimate


async def test_a_slot_claimed_before_costs_were_stored_is_priced_when_shown(harness, svc):
    out = await svc.submit(RID + "10", "video", VIDEO, wait=True, max_seconds=30)
    assert out.task.state == "success"
    with harness.repo.engine.begin() as conn:  # as a slot from before migration 0006 looks
        conn.execute(
            sa.text(
                "UPDATE tasks SET cost_estimate = NULL, cost_currency = NULL, "
                "cost_basis = NULL, cost_reported = NULL"
            )
        )
    old = (await svc.status(RID + "10")).task
    assert old.cost.estimate == CLIP_768P_6S and old.cost.reported == CLIP_768P_6S
    assert "priced now" in old.cost.basis
    spent = (await svc.spend()).payload.spend.total
    assert spent.estimate == CLIP_768P_6S and spent.reported == CLIP_768P_6S
    # spend priced it once and stored that, saying when (the next reads are SQL only)
    row = harness.repo.get_slot(svc.scope, SlotRef.parse("studio-a", "lin", RID + "10").slot_key)
    assert (row.cost_estimate, row.cost_currency, row.cost_reported) == ("0.28", "USD", "0.28")
    assert f"priced {budget_day()}, when first counted" in row.cost_basis
    assert (await svc.status(RID + "10")).task.cost.basis == row.cost_basis
    assert await harness.store.price_unpriced(svc.scope, svc.prices, budget_day()) == 0


def test_cost_in_the_cli_json(slate, slate_env, tmp_path):
    env = {**slate_env, "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    write_override(tmp_path / "cfg")
    out = slate(
        "submit",
        "--request-id",
        RID + "11",
        "--kind",
        "image",
        "--prompt",
        "gulls",
        "--n",
        "2",
        env=env,
    )
    assert out.code == 0, out.out
    cost = out.out["task"]["cost"]
    assert set(cost) == COST_KEYS
    assert cost == {
        "estimate": 0.007,
        "currency": "USD",
        "reported": 0.007,
        "basis": "image-01 2 images × $0.0035 = < $0.01",  # JSON amounts stay unrounded
    }
    status = slate("status", RID + "11", env=env)
    assert status.out["task"]["cost"] == cost


def test_a_price_file_slate_cannot_read_is_named_and_never_read_as_zero(
    slate, slate_env, tmp_path, demo_sim
):
    env = {**slate_env, "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    ok = slate(
        "submit",
        "--request-id",
        RID + "12",
        "--kind",
        "video",
        "--prompt",
        "p",
        "--resolution",
        "768P",
        env=env,
    )
    assert ok.code == 0
    bad = write_override(
        tmp_path / "cfg", '[models."MiniMax-Hailuo-2.3".per_clip]\n"768P" = { 6 = -1 }\n'
    )
    out = slate(
        "submit",
        "--request-id",
        RID + "13",
        "--kind",
        "video",
        "--prompt",
        "p",
        "--resolution",
        "768P",
        env=env,
    )
    assert out.code == 2 and out.out["outcome"] == "invalid"
    assert (
        f"{bad}:2:" in out.out["error"]["message"]
        and "must not be negative" in (out.out["error"]["message"])
    )
    assert out.out["error"]["field"] == "models.MiniMax-Hailuo-2.3.per_clip.768P.6"
    assert demo_sim.stats()["creates_total"] == 1  # nothing sent
    shots = tmp_path / "shots.csv"
    shots.write_text(f"request_id,kind,prompt\n{RID}14,video,p\n", encoding="utf-8")
    for args in (["spend"], ["batch", str(shots), "--dry-run"], ["batch", str(shots)]):
        refused = slate(*args, env=env)
        assert refused.code == 2 and str(bad) in refused.out["error"]["message"], refused.out
    assert demo_sim.stats()["creates_total"] == 1
    status = slate("status", RID + "12", env=env)  # the stored cost needs no table
    assert status.code == 0 and status.out["task"]["cost"]["estimate"] == 0.28
