"""Lookup rules (app.domain.lookup): the window around a create and which listed tasks are
candidates. Pure."""

from __future__ import annotations

import math

from app.domain.lookup import Listed, Window, matches, select, window

SLOT = {
    "model": "MiniMax-H3",
    "prompt": "a lighthouse",
    "duration": 6,
    "resolution": "768P",
    "ratio": "16:9",
    "content": [],
}


def task(tid: str, at: float, **facts: object) -> Listed:
    base = {"duration": 6, "resolution": "768P", "ratio": "16:9", "task_type": "generation"}
    base.update(facts)
    model = base.pop("model", "MiniMax-H3")
    return Listed(tid, at, model, "queued", base)  # type: ignore[arg-type]


def test_window_from_10_s_before_the_claim_to_60_s_after_the_timeout_whole_seconds():
    w = window(claimed_at=1000.4, timeout_ran_out_at=1065.2)
    assert w == Window(990, 1126)
    assert w.holds(990) and w.holds(1126) and not w.holds(989.99) and not w.holds(1126.01)
    # a timeout that ran out before the claim (a clock step) never shrinks the window
    assert window(1000.0, 500.0) == Window(990, 1060)


def test_a_candidate_has_the_slots_model_duration_resolution_and_ratio():
    assert matches(SLOT, task("t", 1, resolution="768p"))
    assert not matches(SLOT, task("t", 1, model="MiniMax-H3-Max"))
    assert not matches(SLOT, task("t", 1, duration=10))
    assert not matches(SLOT, task("t", 1, resolution="2K"))
    assert not matches(SLOT, task("t", 1, ratio="9:16"))
    assert matches(SLOT, task("t", 1, duration="6"))  # numbers may arrive as text


def test_a_v2_task_listed_without_its_task_type_is_never_a_candidate():
    """Issue 32: a regeneration is a 2K MiniMax-H3 task like a plain 2K generation; listed
    without ``task_type`` it cannot be told apart, so it is a candidate for neither (nor for a
    Context-IR slot), and no rival contests with it. V1 lists no task types: unchanged."""
    plain = {**SLOT, "resolution": "2K"}
    regen = {**plain, "source_task_id": "42", "regenerate_from": "x"}
    untyped = task("t", 1, resolution="2K", task_type=None)
    assert not matches(plain, untyped) and not matches(regen, untyped)
    assert not matches({**SLOT, "enhance_of": "x"}, task("t", 1, task_type=None))
    assert matches(plain, task("t", 1, resolution="2K"))
    assert matches(regen, task("t", 1, resolution="2K", task_type="regeneration"))
    assert not matches(plain, task("t", 1, resolution="2K", task_type="regeneration"))
    found = select(plain, Window(0, 10), [untyped], owned=[])
    assert found.found is None and found.candidates == () and len(found.listed) == 1
    v1 = {"model": "MiniMax-Hailuo-2.3", "prompt": "p", "duration": 6, "resolution": "768P"}
    facts = {"duration": 6, "resolution": "768P"}
    assert matches(v1, Listed("t", 1, "MiniMax-Hailuo-2.3", "Queueing", facts))


def test_a_shown_prompt_must_match_and_v1_has_no_ratio():
    v1 = {"model": "MiniMax-Hailuo-2.3", "prompt": "p", "duration": 6, "resolution": "768P"}
    listed = Listed(
        "t",
        1,
        "MiniMax-Hailuo-2.3",
        "Queueing",
        {"duration": 6, "resolution": "768P", "prompt": "p"},
    )
    assert matches(v1, listed)
    other = Listed(
        "t",
        1,
        "MiniMax-Hailuo-2.3",
        "Queueing",
        {"duration": 6, "resolution": "768P", "prompt": "q"},
    )
    assert not matches(v1, other)


def test_select_keeps_the_window_and_leaves_owned_tasks_out():
    w = Window(100, 200)
    listed = [
        task("early", 99),
        task("mine", 150),
        task("late", 201),
        task("owned", 160),
        task("other", 170, ratio="1:1"),
    ]
    found = select(SLOT, w, listed, owned=["owned"])
    assert [t.task_id for t in found.listed] == ["mine", "owned", "other"]
    assert found.owned == ("owned",)
    assert found.found is not None and found.found.task_id == "mine"
    ev = found.evidence()
    assert (
        ev["window"]
        == {
            "start": 100,
            "end": 200,
            "provider_clock_offset": 0.0,
            "provider_clock_error": 0.0,
        }
        and ev["listed"] == 3
    )
    assert ev["owned_by_other_slots"] == ["owned"]
    assert [c["id"] for c in ev["candidates"]] == ["mine"]


def test_two_candidates_attach_nothing():
    found = select(SLOT, Window(0, 10), [task("a", 1), task("b", 2)], owned=[])
    assert found.found is None and len(found.candidates) == 2
    assert select(SLOT, Window(0, 10), [], owned=[]).found is None


def test_the_window_is_placed_in_the_providers_clock_and_widened_by_the_readings_error():
    from app.domain.lookup import Clock, placed

    ours = window(1000.0, 1100.0)  # 990 … 1160
    behind = placed(ours, Clock(offset=-90.0, error=0.6))
    assert (behind.start, behind.end) == (math.floor(990 - 90 - 0.6), math.ceil(1160 - 90 + 0.6))
    assert behind.offset == -90.0 and behind.error == 0.6
    assert behind.holds(1000.0 - 90.0) and not behind.holds(1100.0)
    assert placed(ours, None) == ours  # no reading yet: our own clock
    assert placed(ours, Clock(offset=float("nan"), error=0.5)) == ours  # never a NaN window


def test_the_providers_clock_is_read_off_its_date_header_or_not_at_all():
    from app.providers.http import provider_time

    assert provider_time("Thu, 03 Dec 2026 21:30:00 GMT") == 1796333400.0
    for junk in (None, "", "yesterday", "Thu, 03 Dec 2026 21:30:00", "Thu, 99 Foo 2026 x GMT"):
        assert provider_time(junk) is None, junk
