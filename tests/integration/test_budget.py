"""The daily money budget (``SLATE_BUDGET_DAILY``): checked in the claim transaction next to the
quota, so racing processes cannot exceed it; ``budget_exceeded`` exits 5, sends nothing and is
recorded in the slot's history."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
import sqlalchemy as sa

from app.cli import exit_code
from app.service.results import OutcomeKind
from app.store.engine import make_engine
from tests.support.prices import CLIP_768P_6S, write_override
from tests.support.procs import race

RID = "article:20260816:budget:scene-"
VIDEO = {"prompt": "budget", "duration": 6, "resolution": "768P"}  # $0.28 in the shipped table


def _count(url: str, sql: str) -> int:
    eng = make_engine(url)
    try:
        with eng.connect() as conn:
            return int(conn.execute(sa.text(sql)).scalar() or 0)
    finally:
        eng.dispose()


def test_eight_racing_processes_and_a_budget_for_exactly_three(
    slate_env, demo_sim, store_url, slate, tmp_path
):
    """Videos and images race (the quota's counter row is per kind, so it cannot be what keeps
    them apart): an image at $0.28 too, so any three fit the $0.84 and no fourth does."""
    write_override(tmp_path / "cfg", '[models."image-01"]\nper_image = 0.28\n')
    env = {
        **slate_env,
        "SLATE_STORE": store_url,
        "SLATE_BUDGET_DAILY": "0.84",
        "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
    }
    argvs = [
        [
            "submit",
            "--request-id",
            f"{RID}{i:02d}",
            "--kind",
            "video",
            "--prompt",
            f"b{i}",
            "--resolution",
            "768P",
        ]
        if i % 2
        else ["submit", "--request-id", f"{RID}{i:02d}", "--kind", "image", "--prompt", f"b{i}"]
        for i in range(8)
    ]
    results = race(env, argvs)
    outcomes = Counter(out["outcome"] for _c, out in results)
    assert outcomes == {"created": 3, "budget_exceeded": 5}, results
    for code, out in results:
        assert code == (0 if out["outcome"] == "created" else 5), (code, out)
        if out["outcome"] == "budget_exceeded":
            assert out["task"] is None and out["error"]["code"] == "budget_exceeded"
            assert "would exceed the daily budget of $0.84" in out["error"]["message"]
    assert demo_sim.stats()["creates_total"] == 3  # nothing sent for the refused ones
    assert _count(store_url, "SELECT count(*) FROM tasks") == 3  # nothing stored for them
    refused = [out["request_id"] for _c, out in results if out["outcome"] == "budget_exceeded"]
    for rid in refused:
        hist = slate("history", rid, env=env)
        assert [e["event"] for e in hist.out["events"]] == ["budget_refused"], hist.out
    quota = slate("quota", env=env)
    assert quota.out["budget"]["spent"] == 0.84 and quota.out["budget"]["remaining"] == 0.0


@pytest.mark.parametrize(
    "value", ["nan", "NaN", "inf", "-Infinity", "-0.01", "abc", "5 USD", "1,5"]
)
def test_a_budget_that_is_not_a_finite_non_negative_amount_is_invalid(
    slate, slate_env, demo_sim, value
):
    out = slate(
        "submit",
        "--request-id",
        RID + "01",
        "--kind",
        "video",
        "--prompt",
        "x",
        env={**slate_env, "SLATE_BUDGET_DAILY": value},
    )
    assert out.code == 2 and out.out["outcome"] == "invalid", out.out
    assert out.out["error"]["field"] == "budget_daily"
    assert "SLATE_BUDGET_DAILY" in out.out["error"]["message"]
    assert demo_sim.stats()["requests_total"] == 0
    assert not (
        slate_env
        and (__import__("pathlib").Path(slate_env["SLATE_DATA_DIR"]) / "slate.sqlite3").exists()
    )  # nothing stored, not even a store


async def test_a_create_of_unknown_price_is_refused_saying_so(harness, tmp_path):
    svc = harness.other(budget_daily=Decimal("100"), prices_file=tmp_path / "none.toml")
    out = await svc.submit(RID + "02", "video", {"prompt": "default 1080P: price unknown"})
    assert out.kind is OutcomeKind.BUDGET_EXCEEDED and exit_code(out) == 5
    assert "the price of this create is unknown" in out.problem.message
    assert "MiniMax-Hailuo-2.3 1080P 6 s: price unknown" in out.problem.message
    assert harness.sim.stats()["creates_total"] == 0
    assert (await svc.status(RID + "02")).kind is OutcomeKind.NOT_FOUND
    events = [e.event for e in (await svc.history(RID + "02")).payload.events]
    assert events == ["budget_refused"]


async def test_unknown_creates_count_at_their_estimate_rejected_ones_not(harness, tmp_path):
    svc = harness.other(budget_daily=Decimal("0.56"), prices_file=tmp_path / "none.toml")
    harness.sim.set_faults(insufficient_balance=1)
    rejected = await svc.submit(RID + "03", "video", VIDEO)
    assert rejected.kind is OutcomeKind.REJECTED  # nothing billed: counts 0
    harness.sim.set_faults(lose_create_response=1)
    unknown = await svc.submit(RID + "04", "video", {**VIDEO, "prompt": "lost"})
    assert unknown.kind is OutcomeKind.UNKNOWN  # may exist: counts $0.28
    ok = await svc.submit(RID + "05", "video", {**VIDEO, "prompt": "fits"})
    assert ok.kind is OutcomeKind.CREATED  # 0.28 + 0.28 = 0.56: exactly the budget
    over = await svc.submit(RID + "06", "video", {**VIDEO, "prompt": "over"})
    assert over.kind is OutcomeKind.BUDGET_EXCEEDED
    assert "today's spend $0.56 + this create $0.28" in over.problem.message
    today = await svc.budget_today()
    assert today.spent.estimate == 2 * CLIP_768P_6S and today.remaining == 0
    assert today.spent.not_charged_slots == 1
    # the rejected slot may be created again: it now counts, and the budget has no room
    again = await svc.submit(RID + "03", "video", VIDEO)
    assert again.kind is OutcomeKind.BUDGET_EXCEEDED
    assert (await svc.status(RID + "03")).task.state == "rejected"  # untouched by the refusal


async def test_a_budget_counts_the_budget_users_own_slots_only(harness, tmp_path):
    prices = tmp_path / "none.toml"
    lin = harness.other(budget_daily=Decimal("0.28"), prices_file=prices)
    mei = harness.other(user="mei", budget_daily=Decimal("0.28"), prices_file=prices)
    assert (await lin.submit(RID + "07", "video", VIDEO)).kind is OutcomeKind.CREATED
    assert (await mei.submit(RID + "07", "video", VIDEO)).kind is OutcomeKind.CREATED
    assert (await lin.submit(RID + "08", "video", VIDEO)).kind is OutcomeKind.BUDGET_EXCEEDED
    # a replay of a slot already made never asks the budget
    assert (await lin.submit(RID + "07", "video", VIDEO)).kind is OutcomeKind.REPLAYED


async def test_an_unpriced_song_made_today_never_locks_the_day(harness, tmp_path):
    """Issue 33: a song (music-2.6: no price in the shipped table) was made today. With a
    budget set, a priced create within the budget is created; the song's next create is
    refused alone, naming the model and how to give it a price (exit 5, nothing sent)."""
    prices = tmp_path / "none.toml"
    free = harness.other(prices_file=prices)
    song = {"prompt": "lofi piano, rain", "instrumental": True}
    assert (await free.submit(RID + "20", "music", song)).kind is OutcomeKind.CREATED
    svc = harness.other(budget_daily=Decimal("1.00"), prices_file=prices)
    today = await svc.budget_today()
    assert today.spent.unknown_slots == 1
    clip = await svc.submit(RID + "21", "video", VIDEO)
    assert clip.kind is OutcomeKind.CREATED, clip.problem  # $0.28 of $1.00: fits
    again = await svc.submit(RID + "22", "music", {**song, "prompt": "another song"})
    assert again.kind is OutcomeKind.BUDGET_EXCEEDED and exit_code(again) == 5
    assert "music-2.6" in again.problem.message
    assert "slate prices set music-2.6 AMOUNT" in again.problem.message
    assert harness.sim.stats()["creates_by_prompt"].get("another song") is None
    later = await svc.submit(RID + "23", "video", {**VIDEO, "prompt": "still fits"})
    assert later.kind is OutcomeKind.CREATED  # the refused song blocked nothing else


async def test_without_a_budget_nothing_is_refused_for_money(harness, tmp_path):
    svc = harness.other(prices_file=tmp_path / "none.toml")
    out = await svc.submit(RID + "09", "video", {"prompt": "price unknown, no budget"})
    assert out.kind is OutcomeKind.CREATED
    assert (await svc.budget_today()).limit is None


def test_images_budget_with_a_priced_table(slate, slate_env, tmp_path, demo_sim):
    write_override(tmp_path / "cfg")
    env = {**slate_env, "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "SLATE_BUDGET_DAILY": "0.01"}
    first = slate(
        "submit",
        "--request-id",
        RID + "10",
        "--kind",
        "image",
        "--prompt",
        "a",
        "--n",
        "2",
        env=env,
    )  # $0.007
    assert first.code == 0, first.out
    second = slate(
        "submit",
        "--request-id",
        RID + "11",
        "--kind",
        "image",
        "--prompt",
        "b",
        "--n",
        "1",
        env=env,
    )  # $0.0035 more: 0.0105 > 0.01
    assert second.code == 5 and second.out["outcome"] == "budget_exceeded", second.out
    assert demo_sim.stats()["creates_total"] == 1
