"""Cost of a create: estimates from the table × normalized params, reported figures priced with
the same table, what a slot counts for, spend totals where unknown never sums as 0, budgets."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.cost import (
    BudgetRefusal,
    Cost,
    SlotCost,
    SpendTotal,
    charge,
    check_budget,
    estimate,
    format_money,
    format_rate,
    money_json,
    reported,
    spend,
    sum_costs,
    v2_inputs,
)
from app.domain.params import normalize
from app.domain.prices import parse_table, parse_with_override
from app.service.prices import shipped_text

D = Decimal
FRAME = "https://example.com/f.png"


@pytest.fixture(scope="module")
def table():
    return parse_table(shipped_text())


@pytest.fixture(scope="module")
def priced():
    """The shipped table plus the prices a user wrote for images and Hailuo 1080P."""
    return parse_with_override(
        shipped_text(),
        (
            '[models."image-01"]\nper_image = 0.0035\n'
            '[models."MiniMax-Hailuo-2.3".per_clip]\n"1080P" = { 6 = 0.49 }\n'
        ),
        "prices.toml",
    )


def h3(
    model="MiniMax-H3", duration=6, resolution="768P", images=0, videos=(), audios=(), ratio="16:9"
):
    content = [{"type": "text", "text": "a tide at dawn"}]
    content += [
        {"type": "image_url", "image_url": {"url": FRAME}, "role": "reference_image"}
        for _ in range(images)
    ]
    content += [
        {"type": "video_url", "role": "reference_video", **({} if s is None else {"seconds": s})}
        for s in videos
    ]
    content += [{"type": "audio_url", "role": "reference_audio", "seconds": s} for s in audios]
    return {
        "model": model,
        "duration": duration,
        "resolution": resolution,
        "ratio": ratio,
        "content": content,
    }


# -- estimate ------------------------------------------------------------------------------


def test_h3_is_seconds_times_the_rate(table):
    cost = estimate("video", h3(), table)
    assert cost == Cost(D("0.48"), "USD", "MiniMax-H3 768P 6 s × $0.08/s")
    assert estimate("video", h3(duration=15, resolution="2K"), table).estimate == D("1.95")
    assert estimate("video", h3("MiniMax-H3-Max", 5, "480P"), table).estimate == D("0.25")


def test_h3_input_images_beyond_the_first_five_cost_extra(table):
    assert estimate("video", h3(images=5), table).estimate == D("0.48")
    cost = estimate("video", h3(images=7), table)
    assert cost.estimate == D("0.56")
    assert cost.basis == ("MiniMax-H3 768P 6 s × $0.08/s + 2 input images beyond 5 × $0.04 = $0.56")
    frames = h3()
    frames["content"] += [
        {"type": "image_url", "role": "first_frame"},
        {"type": "image_url", "role": "last_frame"},
    ]
    assert v2_inputs(frames).images == 2
    assert estimate("video", frames, table).estimate == D("0.48")


def test_h3_max_images_beyond_the_first_two(table):
    assert estimate("video", h3("MiniMax-H3-Max", images=3), table).estimate == D("0.554")


def test_reference_video_is_billed_at_the_output_rate_and_audio_is_free(table):
    cost = estimate("video", h3(duration=6, resolution="2K", videos=[4, 2.5], audios=[3]), table)
    assert cost.estimate == D("0.13") * D("12.5")
    assert "6.5 s reference video × $0.13/s" in cost.basis
    assert "3 s reference audio (free)" in cost.basis


def test_a_reference_clip_of_unknown_length_makes_the_estimate_unknown(table):
    cost = estimate("video", h3(videos=[None]), table)
    assert cost.estimate is None
    assert "reference video of unknown length" in cost.basis


def test_h3_max_reference_video_price_is_unknown(table):
    cost = estimate("video", h3("MiniMax-H3-Max", videos=[4]), table)
    assert cost.estimate is None
    assert "4 s reference video × unknown price" in cost.basis


def test_v1_estimates_from_normalized_params(table, priced):
    cli_default = normalize("video", {"prompt": "p"})  # MiniMax-Hailuo-2.3, 6 s, 1080P
    cost = estimate("video", cli_default, table)
    assert (cost.estimate, cost.basis) == (None, "MiniMax-Hailuo-2.3 1080P 6 s: price unknown")
    assert estimate("video", cli_default, priced).estimate == D("0.49")
    cost = estimate("video", normalize("video", {"prompt": "p", "resolution": "768P"}), table)
    assert cost == Cost(D("0.28"), "USD", "MiniMax-Hailuo-2.3 768P 6 s: $0.28 a clip")
    fast = normalize(
        "video",
        {"model": "MiniMax-Hailuo-2.3-Fast", "resolution": "768P", "first_frame_image": FRAME},
    )
    assert estimate("video", fast, table).estimate == D("0.19")
    s2v = {"model": "S2V-01", "prompt": "p", "subject_reference": FRAME}  # no duration sent
    assert estimate("video", s2v, table).basis == "S2V-01 720P 6 s: price unknown"


def test_images_count_n(table, priced):
    params = normalize("image", {"prompt": "p", "n": 3})
    cost = estimate("image", params, table)  # the shipped table: the secondary price
    assert (cost.estimate, cost.basis) == (D("0.0105"), "image-01 3 images × $0.0035 = $0.01")
    cost = estimate("image", params, priced)
    assert (cost.estimate, cost.basis) == (D("0.0105"), "image-01 3 images × $0.0035 = $0.01")


def test_a_model_not_in_the_table_is_unknown(table):
    cost = estimate("video", {"model": "MiniMax-H9", "duration": 6}, table)
    assert (cost.estimate, cost.basis) == (None, "MiniMax-H9: not in the price table")
    assert estimate("image", h3(), table).estimate is None  # a video model asked as an image
    cost = estimate("video", h3(resolution="4K"), table)
    assert cost.estimate is None and "unknown price" in cost.basis


def test_cost_json_is_the_task_cost_object(table):
    cost = estimate("video", h3(), table).with_reported(D("0.5"))
    assert cost.to_json() == {
        "estimate": 0.48,
        "currency": "USD",
        "basis": "MiniMax-H3 768P 6 s × $0.08/s",
        "reported": 0.5,
    }
    assert Cost(None, "USD", "x").to_json()["estimate"] is None


def test_a_batch_total_is_unknown_when_one_create_is():
    costs = [Cost(D("0.48"), "USD", "a"), Cost(D("0.28"), "USD", "b")]
    assert sum_costs(costs, "USD") == Cost(D("0.76"), "USD", "2 creates")
    total = sum_costs([*costs, Cost(None, "USD", "c")], "USD")
    assert total.estimate is None
    assert total.basis == "3 creates, 1 of unknown price (the others $0.76)"
    assert sum_costs([Cost(D("1"), "CNY", "d")], "USD").estimate is None
    assert sum_costs([], "USD") == Cost(D(0), "USD", "0 creates")


def test_cost_records_keep_amounts_exact(table):
    cost = estimate("video", h3("MiniMax-H3-Max", images=3), table).with_reported(D("0.5540"))
    record = cost.to_record()
    assert record["estimate"] == "0.554" and record["reported"] == "0.5540"
    assert Cost.from_record(json.loads(json.dumps(record))) == cost
    unknown = Cost(None, "USD", "image-01 1 image × unknown price")
    assert Cost.from_record(unknown.to_record()) == unknown


@given(
    model=st.sampled_from(["MiniMax-H3", "MiniMax-H3-Max"]),
    duration=st.integers(4, 15),
    images=st.integers(0, 9),
    videos=st.lists(st.integers(2, 5), max_size=3),
    audios=st.lists(st.integers(2, 5), max_size=3),
)
@settings(max_examples=200)
def test_v2_estimates_follow_the_published_rules(table, model, duration, images, videos, audios):
    resolution = "768P"
    cost = estimate("video", h3(model, duration, resolution, images, videos, audios), table)
    rate = D("0.08")
    free, each = (5, D("0.04")) if model == "MiniMax-H3" else (2, D("0.074"))
    if model == "MiniMax-H3-Max" and (videos or audios):
        assert cost.estimate is None
        return
    expected = duration * rate + max(0, images - free) * each + sum(videos) * rate
    assert cost.estimate == expected
    assert isinstance(cost.estimate, Decimal)


# -- reported ------------------------------------------------------------------------------


def test_v2_usage_is_priced_with_the_same_table(table):
    params = h3(images=7, videos=[4], audios=[3])
    usage = {
        "total_seconds": 10,
        "input_seconds": 4,
        "output_seconds": 6,
        "input_image_count": 7,
        "input_audio_seconds": 3,
    }
    assert reported("video", params, usage, table) == estimate("video", params, table).estimate
    assert reported("video", params, {**usage, "input_image_count": "9"}, table) == D("0.96")
    # fields the provider leaves out are taken from what was sent
    assert reported("video", params, {"output_seconds": "6"}, table) == D("0.88")


def test_no_usage_is_no_report(table):
    assert reported("video", h3(), {}, table) is None
    assert reported("video", h3(), None, table) is None
    assert reported("video", h3(), {"input_seconds": 0}, table) is None


def test_images_are_charged_for_success_count_only(table, priced):
    params = normalize("image", {"prompt": "p", "n": 3})
    counts = {"success_count": "2", "failed_count": "1"}  # one blocked by the safety filter
    assert reported("image", params, counts, priced) == D("0.007")
    assert reported("image", params, counts, table) == D("0.007")
    # nothing generated costs nothing, whatever the price
    assert reported("image", params, {"success_count": 0, "failed_count": 3}, table) == 0


def test_v1_video_reports_one_clip(table):
    params = normalize("video", {"prompt": "p", "resolution": "768P"})
    assert reported("video", params, {"success_count": 1}, table) == D("0.28")


# -- what a slot counts for ----------------------------------------------------------------


H3_6S = D("0.48")


def slot(
    state="success",
    estimate=H3_6S,
    reported=None,
    *,
    day="2026-08-16",
    model="MiniMax-H3",
    project="tide-eye",
    declared_failed=False,
    rid="x",
):
    return SlotCost(rid, model, day, state, estimate, reported, declared_failed, project)


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        (slot("success"), D("0.48")),  # no report (yet): the estimate
        (slot("success", reported=D("0.56")), D("0.56")),  # the report replaces the estimate
        (slot("fail"), D(0)),  # failed: not charged
        (slot("rejected"), D(0)),  # refused before a task existed
        (slot("cancelled"), D(0)),  # cancelled while queued (V2)
        (slot("fail", reported=D("0.28")), D("0.28")),  # succeeded, our download failed
        (slot("unknown"), D("0.48")),  # counts at its estimate
        (slot("unknown", estimate=None), None),  # ... which may be unknown
        (slot("processing"), D("0.48")),
        (slot("fail", declared_failed=True), D("0.48")),  # the user accepted a charge may exist
    ],
)
def test_charge(s, expected):
    assert charge(s) == expected


def test_unknown_never_sums_as_zero():
    slots = [
        slot(),
        slot(estimate=None, model="image-01", project=None),
        slot("fail", estimate=None),
        slot(reported=D("0.5"), day="2026-08-17"),
    ]
    result = spend(slots, "USD", by="model")
    total = result.total
    assert total.estimate is None
    assert (total.known_estimate, total.unknown_slots, total.slots) == (D("0.98"), 1, 4)
    assert (total.reported, total.reported_slots, total.not_charged_slots) == (D("0.5"), 1, 1)
    groups = {g.key: g.total for g in result.groups}
    assert groups["image-01"].estimate is None and groups["image-01"].unknown_slots == 1
    assert groups["image-01"].known_estimate == 0
    assert groups["MiniMax-H3"].estimate == D("0.98")
    assert groups["MiniMax-H3"].reported == D("0.5")


def test_spend_json():
    result = spend(
        [slot(), slot(estimate=None, project=None, day="2026-08-15")], "USD", by="project"
    )
    assert result.to_json() == {
        "currency": "USD",
        "by": "project",
        "total": {
            "estimate": None,
            "reported": None,
            "slots": 2,
            "unknown_slots": 1,
            "known_estimate": 0.48,
            "reported_slots": 0,
            "not_charged_slots": 0,
        },
        "groups": [
            {
                "key": "tide-eye",
                "estimate": 0.48,
                "reported": None,
                "slots": 1,
                "unknown_slots": 0,
                "known_estimate": 0.48,
                "reported_slots": 0,
                "not_charged_slots": 0,
            },
            {
                "key": None,
                "estimate": None,
                "reported": None,
                "slots": 1,
                "unknown_slots": 1,
                "known_estimate": 0.0,
                "reported_slots": 0,
                "not_charged_slots": 0,
            },
        ],
    }
    assert [
        g.key
        for g in spend([slot(day="2026-08-17"), slot(day="2026-08-15")], "USD", by="day").groups
    ] == ["2026-08-15", "2026-08-17"]
    assert spend([], "USD").to_json()["total"]["estimate"] == 0.0


amounts = st.one_of(st.none(), st.decimals(0, 10, places=3))
slot_costs = st.builds(
    SlotCost,
    request_id=st.text(min_size=1, max_size=5),
    model=st.sampled_from(["MiniMax-H3", "image-01", "S2V-01"]),
    day=st.sampled_from(["2026-08-15", "2026-08-16"]),
    state=st.sampled_from(["success", "fail", "rejected", "cancelled", "unknown", "queueing"]),
    estimate=amounts,
    reported=amounts,
    declared_failed=st.booleans(),
    project=st.sampled_from([None, "tide-eye", "harbor"]),
)


@given(st.lists(slot_costs, max_size=30), st.sampled_from(["day", "project", "model"]))
@settings(max_examples=300)
def test_spend_totals_equal_the_sum_of_the_slots_each_way(slots, by):
    result = spend(slots, "USD", by=by)
    charges = [charge(s) for s in slots]
    known = sum((c for c in charges if c is not None), D(0))
    total = result.total
    assert total.slots == len(slots) == sum(g.total.slots for g in result.groups)
    assert total.known_estimate == known == sum(g.total.known_estimate for g in result.groups)
    assert total.unknown_slots == sum(c is None for c in charges)
    assert total.estimate == (None if None in charges else known)
    for group in result.groups:
        assert (group.total.estimate is None) == (group.total.unknown_slots > 0)
    reports = [s.reported for s in slots if s.reported is not None]
    assert total.reported == (sum(reports, D(0)) if reports else None)
    assert total.reported_slots == len(reports)


def test_spend_refuses_an_unknown_grouping():
    with pytest.raises(ValueError, match="by must be one of"):
        spend([], "USD", by="week")  # type: ignore[arg-type]


# -- the daily budget ----------------------------------------------------------------------


def test_budget_allows_up_to_exactly_the_budget():
    today = SpendTotal().add(slot(estimate=D("1.00")))
    cost = Cost(D("0.48"), "USD", "b")
    assert check_budget(D("1.48"), today, cost).allowed
    refused = check_budget(D("1.47"), today, cost)
    assert not refused.allowed
    assert refused.reason == (
        "today's spend $1.00 + this create $0.48 would exceed the daily budget of $1.47"
    )
    assert refused.remaining == D("0.47")


def test_budget_counts_unknown_creates_at_their_estimate():
    today = SpendTotal().add(slot("unknown", estimate=D("0.9")))
    assert not check_budget(D("1"), today, Cost(D("0.2"), "USD", "b")).allowed


def test_budget_refuses_what_it_cannot_price_alone_naming_the_model():
    cost = Cost(None, "USD", "music-2.6 1 song: price unknown", model="music-2.6")
    refused = check_budget(D("5"), SpendTotal(), cost)
    assert not refused.allowed and "price of this create is unknown" in refused.reason
    assert "music-2.6 1 song: price unknown" in refused.reason
    assert "`slate prices set music-2.6 AMOUNT`" in refused.reason and refused.model == "music-2.6"
    # a slot of unknown price made today never blocks another create (DESIGN.md "budget")
    today = SpendTotal().add(slot(estimate=None)).add(slot(estimate=D("4.8")))
    fits = check_budget(D("5"), today, Cost(D("0.1"), "USD", "b"))
    assert fits.allowed and fits.spent == D("4.8") and fits.unpriced_slots == 1
    assert fits.remaining == D("0.2")
    over = check_budget(D("5"), today, Cost(D("0.3"), "USD", "b"))
    assert not over.allowed and over.refusal is BudgetRefusal.OVER


# -- money ---------------------------------------------------------------------------------


def test_money_for_json_and_for_people():
    assert money_json(D("0.48")) == 0.48
    assert money_json(D("0.123456")) == 0.1235
    assert money_json(D("0.00005")) == 0.0001
    assert money_json(None) is None
    assert format_money(D("0.10"), "USD") == "$0.10"
    assert format_money(D("0.074"), "USD") == "$0.07"  # people read cents (issue 33)
    assert format_money(D("3.0637621"), "USD") == "$3.06"
    assert format_money(D("0.005"), "USD") == "< $0.01" and format_money(D("0"), "USD") == "$0.00"
    assert format_money(D("0.005"), "CNY") == "< 0.01 CNY"
    assert format_rate(D("0.0035"), "USD") == "$0.0035"  # a rate keeps the table's digits
    assert format_money(D("12"), "USD") == "$12.00"
    assert format_money(D("0.56"), "CNY") == "0.56 CNY"
    assert format_money(None, "USD") == "unknown"


def test_exact_arithmetic_has_no_float_drift(table):
    total = SpendTotal()
    for _ in range(1000):
        total = total.add(slot(estimate=estimate("video", h3(duration=7), table).estimate))
    assert total.estimate == D("560.00")
