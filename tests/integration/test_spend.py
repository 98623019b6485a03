"""`slate spend`: the totals equal the sum of the slots' own costs, grouped each way, with the
reported figures replacing the estimates; computed in the store (SQLite and PostgreSQL)."""

from __future__ import annotations

from decimal import Decimal

import pytest
import sqlalchemy as sa

from app.cli import render
from app.domain.cost import SlotCost, charge, spend
from app.domain.days import budget_day
from app.service.commands import DeclareFailed
from app.service.results import OutcomeKind
from tests.support.prices import CLIP_768P_6S, IMAGE_PRICE, write_override

VIDEO = {"duration": 6, "resolution": "768P"}


async def _make_slots(harness, svc) -> list[str]:
    """Slots of two projects and one RequestId outside the naming scheme, of three models, in
    every way a slot can count: reported (images with one blocked, a video), not charged (fail,
    rejected), unknown at its estimate, declared failed, in flight, of unknown price."""
    sim = harness.sim
    made = []

    async def submit(rid, kind, params, *, wait=False, expect=None):
        out = await svc.submit(rid, kind, params, wait=wait, max_seconds=30)
        if expect is not None:
            assert out.kind is expect, (rid, out.kind, out.problem)
        made.append(rid)
        return out

    p1, p2 = "article:20260816:harbor:", "article:20260817:tide-eye:"
    await submit(p1 + "scene-01", "video", {**VIDEO, "prompt": "a"}, wait=True)  # reported
    sim.set_faults(block_images=1)
    await submit(p1 + "scene-02", "image", {"prompt": "b", "n": 3})  # reports 2 of 3
    sim.set_faults(content_fail=1)
    await submit(p1 + "scene-03", "video", {**VIDEO, "prompt": "c"}, wait=True)  # fail: 0
    sim.set_faults(insufficient_balance=1)
    await submit(
        p2 + "scene-01", "video", {**VIDEO, "prompt": "d"}, expect=OutcomeKind.REJECTED
    )  # 0
    sim.set_faults(lose_create_response=1)
    await submit(
        p2 + "scene-02", "video", {**VIDEO, "prompt": "e"}, expect=OutcomeKind.UNKNOWN
    )  # its estimate
    sim.set_faults(lose_create_response=1)
    await submit(p2 + "scene-03", "image", {"prompt": "f", "n": 2}, expect=OutcomeKind.UNKNOWN)
    await svc.recover(p2 + "scene-03", DeclareFailed("gone"))  # keeps its estimate
    await submit(p2 + "scene-04", "video", {**VIDEO, "duration": 10, "prompt": "g"})  # in flight
    await submit("loose-request-0001", "image", {"prompt": "h", "n": 4})  # no project
    await submit(p1 + "scene-04", "video", {"prompt": "unknown price (1080P)"})
    return made


async def _slot_costs(svc, rids) -> list[SlotCost]:
    """Each slot's own cost, from its own task view (what `status` shows)."""
    out = []
    for rid in rids:
        v = (await svc.status(rid)).task
        out.append(
            SlotCost(
                request_id=rid,
                model=v.params["model"],
                day=budget_day(v.created_at),
                state=v.state.value,
                estimate=v.cost.estimate,
                reported=v.cost.reported,
                declared_failed=bool(v.error and v.error.code == "declared_failed"),
                project=v.project,
            )
        )
        assert v.charged == charge(out[-1])  # the view counts what spend counts
    return out


@pytest.mark.parametrize("by", [None, "day", "project", "model"])
async def test_spend_totals_equal_the_sum_of_the_slots_costs(harness, tmp_path, by):
    svc = harness.other(prices_file=write_override(tmp_path / "cfg"))
    rids = await _make_slots(harness, svc)
    with harness.repo.engine.begin() as conn:  # the harbor project was claimed yesterday
        conn.execute(
            sa.text("UPDATE tasks SET cost_day = :d WHERE project = 'harbor'"), {"d": "2000-01-02"}
        )
    slots = await _slot_costs(svc, rids)
    for s in slots:
        if s.project == "harbor":
            object.__setattr__(s, "day", "2000-01-02")
    got = (await svc.spend(by=by)).payload.spend
    want = spend(slots, "USD", by)
    assert got.to_json() == want.to_json()
    # and the figures are what they should be, by hand
    total = got.total
    assert total.slots == len(rids) == 9
    # the 1080P clip and the 10 s clip have no price: the total is unknown, never a sum with 0
    assert total.estimate is None and total.unknown_slots == 2
    assert (
        total.known_estimate
        == (
            CLIP_768P_6S  # harbor 01: reported one clip
            + 2 * IMAGE_PRICE  # harbor 02: reported 2 images, replacing the estimate of 3
            + CLIP_768P_6S  # tide-eye 02: unknown create, at its estimate
            + 2 * IMAGE_PRICE  # tide-eye 03: declared failed, keeps its estimate
            + 4 * IMAGE_PRICE  # loose: reported 4 images
        )
        == Decimal("0.588")
    )  # harbor 03 (fail) and tide-eye 01 (rejected): not charged
    assert total.not_charged_slots == 2
    assert total.reported == CLIP_768P_6S + 2 * IMAGE_PRICE + 4 * IMAGE_PRICE
    assert total.reported_slots == 3
    if by == "project":
        assert [g.key for g in got.groups] == ["harbor", "tide-eye", None]
        assert got.groups[-1].total.slots == 1  # the RequestId outside the scheme
    if by == "day":
        assert [g.key for g in got.groups] == ["2000-01-02", budget_day()]
    if by == "model":
        assert {g.key for g in got.groups} == {"MiniMax-Hailuo-2.3", "image-01"}


async def test_spend_filters_by_project_and_since(harness, tmp_path):
    svc = harness.other(prices_file=write_override(tmp_path / "cfg"))
    for i, project in enumerate(("harbor", "harbor", "tide-eye")):
        out = await svc.submit(
            f"article:20260816:{project}:scene-0{i}", "video", {**VIDEO, "prompt": f"p{i}"}
        )
        assert out.kind is OutcomeKind.CREATED
    with harness.repo.engine.begin() as conn:
        conn.execute(sa.text("UPDATE tasks SET cost_day = '2026-08-01' WHERE project = 'tide-eye'"))
    harbor = (await svc.spend(project="harbor")).payload
    assert harbor.spend.total.slots == 2 and harbor.spend.total.estimate == 2 * CLIP_768P_6S
    recent = (await svc.spend(since=budget_day())).payload
    assert recent.spend.total.slots == 2 and recent.since == budget_day()
    all_ = (await svc.spend(since="20260801", by="project")).payload
    assert all_.spend.total.slots == 3 and all_.since == "2026-08-01"
    assert (await svc.spend(project="nobody")).payload.spend.total.slots == 0
    js = render(await svc.spend(by="project"))
    assert js["outcome"] == "ok" and js["currency"] == "USD"
    assert set(js["total"]) >= {"estimate", "reported"}
    assert all(set(g) >= {"key", "estimate", "reported", "slots"} for g in js["groups"])


@pytest.mark.parametrize(
    "args, field",
    [
        (["--by", "week"], "by"),
        (["--since", "2026-13-01"], "since"),
        (["--since", "yesterday"], "since"),
        (["--project", " "], "project"),
    ],
)
def test_bad_spend_options_name_the_field(slate, args, field):
    out = slate("spend", *args)
    assert out.code == 2 and out.out["outcome"] == "invalid", out.out
    assert out.out["error"]["field"] == field


def test_spend_cli_json(slate, slate_env, tmp_path):
    env = {**slate_env, "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    for i in (1, 2):
        assert (
            slate(
                "submit",
                "--request-id",
                f"article:20260816:harbor:scene-0{i}",
                "--kind",
                "video",
                "--prompt",
                f"p{i}",
                "--resolution",
                "768P",
                env=env,
            ).code
            == 0
        )
    out = slate("spend", "--by", "project", env=env)
    assert out.code == 0
    assert {k: out.out[k] for k in ("outcome", "currency")} == {"outcome": "ok", "currency": "USD"}
    assert out.out["total"]["estimate"] == 0.56 and out.out["total"]["reported"] is None
    assert [(g["key"], g["estimate"], g["slots"]) for g in out.out["groups"]] == [
        ("harbor", 0.56, 2)
    ]
