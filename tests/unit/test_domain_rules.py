"""The rules that live in app/domain once: naming scheme, local days, state groups, re-claim,
recover options."""

from __future__ import annotations

import datetime as dt

import pytest

from app.domain.capabilities import Capabilities
from app.domain.days import day_bounds, local_day
from app.domain.naming import (
    compose,
    next_free_scene,
    parse,
    prefix,
    project_of,
    scene_name,
    suggest_next_request_id,
    suggestion_prefix,
)
from app.domain.states import (
    FILTER_GROUPS,
    IN_FLIGHT,
    POLLABLE,
    STOP_STATES,
    RecoverWay,
    State,
    has_results,
    may_reclaim,
    recover_options,
    same_intent,
)


# -- naming -------------------------------------------------------------------------------------
def test_parse_a_business_request_id():
    name = parse("article:20260816:tide-eye:scene-02")
    assert name is not None
    assert (name.series, name.date, name.project, name.scene) == (
        "article",
        "20260816",
        "tide-eye",
        "scene-02",
    )
    assert parse("article:20260816:tide-eye:scene:02.t2").scene == "scene:02.t2"  # type: ignore[union-attr]


@pytest.mark.parametrize("rid", ["no-project-slot-1", "a:b:c", "plain.request.id"])
def test_other_shapes_have_no_project(rid):
    assert parse(rid) is None and project_of(rid) is None


def test_project_of_and_compose_are_inverse():
    rid = compose("campaign", dt.date(2026, 8, 16), "spring", "shot-03")
    assert rid == "campaign:20260816:spring:shot-03"
    assert project_of(rid) == "spring"
    assert prefix("campaign", dt.date(2026, 8, 16), "spring") == "campaign:20260816:spring:"


@pytest.mark.parametrize(
    "typed, scene",
    [
        ("7", "scene-07"),
        (" 12 ", "scene-12"),
        ("scene-03", "scene-03"),
        ("12345", "12345"),
        ("", ""),
    ],
)
def test_a_bare_number_is_a_scene(typed, scene):
    assert scene_name(typed) == scene


def test_next_free_scene_counts_attempts_and_skips_other_names():
    p = "article:20260816:tide-eye:"
    taken = [p + "scene-01", p + "scene-03.t2", p + "teaser", p + "scene-x"]
    assert next_free_scene(p, taken) == "scene-04"
    assert next_free_scene(p, []) == "scene-01"


def test_suggestions_skip_taken_attempts():
    rid = "article:20260816:tide-eye:scene-02"
    assert suggestion_prefix(rid + ".t3") == rid
    assert suggest_next_request_id(rid, {rid + ".t2", rid + ".t3"}) == rid + ".t4"
    long = "x" * 119
    assert len(suggest_next_request_id(long)) == 120


# -- days ---------------------------------------------------------------------------------------
def test_local_day_and_its_bounds_agree():
    now = dt.datetime(2026, 8, 16, 23, 59, 59).timestamp()
    day = local_day(now)
    assert day == "2026-08-16"
    start, end = day_bounds(day)
    assert start <= now < end
    assert local_day(start) == day and local_day(end) == "2026-08-17"
    assert local_day(end - 1) == day


# -- states -------------------------------------------------------------------------------------
def test_groups_are_made_of_states():
    assert set(FILTER_GROUPS["running"]) == IN_FLIGHT
    assert set(FILTER_GROUPS["attention"]) == {State.UNKNOWN, State.FAIL, State.REJECTED}
    assert POLLABLE < IN_FLIGHT and State.SUBMITTING not in POLLABLE
    assert not STOP_STATES & IN_FLIGHT


def test_has_results():
    assert not has_results(None) and not has_results({}) and not has_results({"id": "x"})
    assert has_results({"file_id": "1"}) and has_results({"image_urls": ["u"]})
    assert has_results({"images": ["b64"]})


SAME = ("video", "fp", "user")


@pytest.mark.parametrize("state", list(State))
def test_only_a_rejected_record_of_the_same_intent_may_be_claimed_again(state):
    assert may_reclaim(state, *SAME, *SAME) == (state is State.REJECTED)


@pytest.mark.parametrize(
    "other", [("image", "fp", "user"), ("video", "fp2", "user"), ("video", "fp", "mei")]
)
def test_another_intent_never_reclaims(other):
    assert not same_intent(*SAME, *other)
    assert not may_reclaim(State.REJECTED, *SAME, *other)


class Facts:
    def __init__(self, state, kind="video", has_results=False):
        self.state, self.kind, self.has_results = state, kind, has_results


V1 = Capabilities()
LISTS = Capabilities(can_list_tasks=True)


def offered(task, caps):
    return {way for way, opt in recover_options(task, caps).items() if opt.offered}


def test_unknown_video_offers_attach_and_declare_and_lookup_where_the_provider_lists():
    assert offered(Facts(State.UNKNOWN), V1) == {RecoverWay.ATTACH, RecoverWay.DECLARE_FAILED}
    assert offered(Facts(State.UNKNOWN), LISTS) == {
        RecoverWay.ATTACH,
        RecoverWay.LOOKUP,
        RecoverWay.DECLARE_FAILED,
    }
    why = recover_options(Facts(State.UNKNOWN), V1, provider="minimax")[RecoverWay.LOOKUP]
    assert why.state_allows and "the minimax provider cannot list tasks" in why.why_not


def test_unknown_image_cannot_be_attached_unless_images_can_be_queried():
    opt = recover_options(Facts(State.UNKNOWN, "image"), V1)[RecoverWay.ATTACH]
    assert not opt.offered and opt.state_allows and "cannot query image tasks" in opt.why_not
    assert RecoverWay.ATTACH in offered(
        Facts(State.UNKNOWN, "image"), Capabilities(can_query_images=True)
    )


def test_failed_task_offers_redownload_only_with_results():
    assert offered(Facts(State.FAIL, has_results=True), LISTS) == {RecoverWay.REDOWNLOAD}
    assert offered(Facts(State.FAIL), LISTS) == set()
    opt = recover_options(Facts(State.FAIL), LISTS)[RecoverWay.REDOWNLOAD]
    assert opt.why_not == "redownload needs a failed task with results left"


@pytest.mark.parametrize("state", [s for s in State if s not in (State.UNKNOWN, State.FAIL)])
def test_other_states_offer_nothing_and_say_why(state):
    opts = recover_options(Facts(state, has_results=True), LISTS)
    assert not any(o.offered for o in opts.values())
    why = opts[RecoverWay.ATTACH].why_not
    assert why == f"attach is for unknown tasks; this one is {state.value}"
    assert not opts[RecoverWay.DECLARE_FAILED].state_allows
