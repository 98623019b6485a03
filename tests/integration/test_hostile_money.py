"""Hostile world II, money and results shown where they do not belong (issue 24 points 1, 3, 4,
5, 6, 8, 9), on both stores, with the demo provider behind a rewriting proxy or a hostile
loopback server playing MiniMax.

1. a provider-reported success is counted at what it billed (usage, else the estimate) whatever
   happens locally after; a success with no usable media offers ``recover --redownload``;
3. a create that made nothing (``rejected``) gives its quota unit back;
4. a lookup never attaches a task another unknown or submitting slot of the same shape could
   have made: it lists the candidates (contested) and attach by id settles it;
5. a re-created slot's lookup window follows the create that was lost, not its first claim;
6. a query answer naming another task than the one asked is not evidence (recorded, ignored);
8. a Hailuo (V1) video's length is held to the asked duration;
9. every money figure is bounded: a provider figure out of range is kept raw and flagged and
   never breaks a read; ``SLATE_BUDGET_DAILY=1e26`` is refused as bad configuration.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from app.domain.states import Action, State
from app.providers.demo import DemoProvider
from app.service.commands import AttachTask, Lookup, Redownload
from app.service.results import LookupReport, OutcomeKind
from app.service.slate import SlateService
from app.sim import SimServer
from app.sim.media import render_mp4
from app.store.aio import open_store
from tests.support.fixtures import ROOT, SECRET, make_config, run_slate_in_process
from tests.support.hostile import Answer, HostileServer, RewritingProxy, ok
from tests.support import web

pytestmark = pytest.mark.timeout(240)

RID = "article:20261202:tide-eye:scene-"
H3 = {"model": "MiniMax-H3", "duration": 4, "resolution": "768P", "ratio": "16:9"}


def h3(prompt: str) -> dict[str, Any]:
    return {**H3, "prompt": prompt}


@contextlib.asynccontextmanager
async def proxied(
    data_dir: Path, store_url: str, sim: SimServer, rewrite: Any = None, **cfg: Any
) -> AsyncIterator[tuple[SlateService, RewritingProxy]]:
    """A service on ``store_url`` whose provider is the demo behind a rewriting proxy."""
    proxy = RewritingProxy(sim.base_url, rewrite)
    store = open_store(store_url)
    provider = DemoProvider(proxy.base_url, timeout=5.0, connect_timeout=2.0)
    svc = SlateService(make_config(data_dir, store_url, **cfg), store, provider, SECRET)
    try:
        yield svc, proxy
    finally:
        await svc.aclose()
        await provider.aclose()
        store.close()
        proxy.stop()


def is_v2_query(method: str, path: str) -> bool:
    return method == "GET" and path.startswith("/v2/query/video_generation/")


def succeeded(answer: dict[str, Any]) -> bool:
    task = answer.get("task")
    return isinstance(task, dict) and task.get("status") == "succeeded"


# -- 1. billed whatever happens locally -------------------------------------------------------


async def test_succeeded_without_a_url_is_billed_and_offers_a_redownload(
    data_dir, store_url, demo_sim
):
    """``succeeded`` with ``usage`` but no ``content.url``: fail, counted at its usage, and
    ``recover --redownload`` asks again (a fresh query links the video)."""
    strip = {"on": True}

    def rewrite(method, path, query, answer):
        if is_v2_query(method, path) and succeeded(answer) and strip["on"]:
            answer = copy.deepcopy(answer)
            answer["task"]["content"] = {}
            return answer
        return None

    async with proxied(data_dir, store_url, demo_sim, rewrite) as (svc, proxy):
        out = await svc.submit(RID + "01", "video", h3("no url"), wait=True, max_seconds=60)
        task = out.task
        assert task.state is State.FAIL and task.error.code == "no_media", task.error
        assert proxy.rewritten >= 1
        assert task.cost.reported is not None and task.cost.reported > 0  # its usage, priced
        assert task.charged == task.cost.reported and not task.not_charged
        assert Action.RECOVER in task.allowed_actions
        spent = (await svc.spend()).payload.spend.total
        assert spent.estimate == task.cost.reported
        strip["on"] = False
        again = await svc.recover(RID + "01", Redownload())
        assert again.task.state is State.SUCCESS and again.task.media, again.problem
        assert demo_sim.stats()["creates_total"] == 1


async def test_succeeded_without_usage_whose_media_fails_counts_its_estimate_in_the_budget(
    data_dir, store_url, demo_sim
):
    """``succeeded`` with a URL but no ``usage``, media failing verification: the task counts
    at its estimate (it was billed), so the daily budget stops the next creates."""

    def rewrite(method, path, query, answer):
        if is_v2_query(method, path) and succeeded(answer):
            answer = copy.deepcopy(answer)
            answer["task"]["usage"] = {}
            return answer
        return None

    async with proxied(data_dir, store_url, demo_sim, rewrite) as (probe, _proxy):
        price = probe.estimate("video", h3("x")).payload.cost.estimate
    assert price is not None and price > 0
    demo_sim.set_faults(undecodable_media=1000)
    budget = price * Decimal("2.5")  # room for two creates, not three
    async with proxied(data_dir, store_url, demo_sim, rewrite, budget_daily=budget) as (svc, _p):
        made = []
        for i in range(5):
            out = await svc.submit(RID + f"1{i}", "video", h3(f"shot {i}"))
            made.append(out.kind)
            if out.kind is OutcomeKind.CREATED:
                done = await svc.wait(RID + f"1{i}", max_seconds=60)
                assert done.task.state is State.FAIL, done.task.error
                assert done.task.error.code == "verification_failed"
                assert done.task.cost.reported is None  # nothing reported
                assert done.task.charged == price and not done.task.not_charged
        assert made[:2] == [OutcomeKind.CREATED, OutcomeKind.CREATED]
        assert set(made[2:]) == {OutcomeKind.BUDGET_EXCEEDED}, made
        assert demo_sim.stats()["creates_total"] == 2
        spent = (await svc.spend()).payload.spend.total
        assert spent.estimate == 2 * price


# -- 3. a rejected create gives its quota unit back -----------------------------------------


async def test_a_rejected_create_gives_its_quota_unit_back(data_dir, store_url, demo_sim):
    async with proxied(data_dir, store_url, demo_sim, quota_video=2) as (svc, _p):
        demo_sim.set_faults(insufficient_balance=3)
        for i in range(3):
            out = await svc.submit(RID + f"2{i}", "video", h3(f"broke {i}"))
            assert out.kind is OutcomeKind.REJECTED, out.problem
        q = (await svc.quota()).payload.video
        assert (q.used, q.limit) == (0, 2)  # nothing was made, nothing counted
        again = await svc.submit(RID + "20", "video", h3("broke 0"))  # the same slot again
        assert again.kind is OutcomeKind.CREATED, again.problem
        other = await svc.submit(RID + "29", "video", h3("new slot"))
        assert other.kind is OutcomeKind.CREATED, other.problem
        q = (await svc.quota()).payload.video
        assert q.used == 2
        over = await svc.submit(RID + "28", "video", h3("one too many"))
        assert over.kind is OutcomeKind.QUOTA_EXCEEDED


# -- 4. competitors: lookup never attaches another slot's task ------------------------------


async def test_lookup_lists_but_never_attaches_a_task_an_unknown_rival_could_own(
    data_dir, store_url, demo_sim
):
    """A's create got a 500 before any task existed; B's create made a task whose answer was
    lost; both H3 768P 4 s 16:9. A's lookup must not take B's task."""
    async with proxied(data_dir, store_url, demo_sim) as (svc, _p):
        demo_sim.set_faults(server_error_creates=1)
        a = await svc.submit(RID + "31", "video", h3("slot a"))
        assert a.kind is OutcomeKind.UNKNOWN and demo_sim.stats()["made_total"] == 0
        demo_sim.set_faults(lose_create_response=1)
        b = await svc.submit(RID + "32", "video", h3("slot b"))
        assert b.kind is OutcomeKind.UNKNOWN and demo_sim.stats()["made_total"] == 1
        look = await svc.recover(RID + "31", Lookup())
        report = look.payload
        assert isinstance(report, LookupReport)
        assert look.kind is OutcomeKind.UNKNOWN and report.attached is None
        [cand] = report.candidates
        assert report.contested == ((cand.task_id, (RID + "32",)),)
        assert (await svc.status(RID + "31")).task.state is State.UNKNOWN
        assert "could have made" in look.problem.message and RID + "32" in look.problem.message
        # B's own lookup is contested by A the same way; attach by id settles it
        b_look = await svc.recover(RID + "32", Lookup())
        assert b_look.payload.attached is None and b_look.payload.contested
        settled = await svc.recover(RID + "32", AttachTask(cand.task_id))
        assert settled.task.provider_task_id == cand.task_id
        after = await svc.recover(RID + "31", Lookup())
        assert after.payload.candidates == () and after.payload.owned_by_other_slots == (
            cand.task_id,
        )
        assert (await svc.status(RID + "31")).task.state is State.UNKNOWN


def test_lookup_never_attaches_a_task_a_submitting_rival_in_another_process_made(
    tmp_path, data_dir, store_url, demo_sim, slate_env
):
    """B runs in another process and is still ``submitting`` (its create's answer is held
    after the task exists, until the test releases it) while A, whose create failed before any
    task, looks up."""
    env = {**slate_env, "SLATE_STORE": store_url}
    demo_sim.set_faults(server_error_creates=1)
    a = run_slate_in_process(
        env,
        "submit",
        "--request-id",
        RID + "41",
        "--kind",
        "video",
        "--model",
        "MiniMax-H3",
        "--duration",
        "4",
        "--prompt",
        "slot a",
    )
    assert a.out["outcome"] == "unknown", a.out
    demo_sim.set_faults(hold_create_response=1)
    b = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "--json",
            "--timeout",
            "60",
            "submit",
            "--request-id",
            RID + "42",
            "--kind",
            "video",
            "--model",
            "MiniMax-H3",
            "--duration",
            "4",
            "--prompt",
            "slot b",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while demo_sim.held_creates() < 1:  # B's task is made, its answer held
            assert time.monotonic() < deadline and b.poll() is None
            time.sleep(0.1)
        assert demo_sim.stats()["made_total"] == 1
        look = run_slate_in_process(env, "recover", RID + "41", "--lookup")
        assert look.out["outcome"] == "unknown" and look.code == 4, look.out
        lookup = look.out["lookup"]
        assert lookup["attached"] is None and len(lookup["candidates"]) == 1
        assert lookup["contested"][0]["by"] == [RID + "42"]
        status_b = run_slate_in_process(env, "status", RID + "42")
        assert status_b.out["task"]["state"] == "submitting"
    finally:
        demo_sim.release_creates()
        out, _err = b.communicate(timeout=120)
    assert '"outcome": "created"' in out  # B keeps its own task
    a_after = run_slate_in_process(env, "status", RID + "41")
    assert (
        a_after.out["task"]["state"] == "unknown"
        and a_after.out["task"]["provider_task_id"] is None
    )


# -- 5. the window follows the create that was lost -----------------------------------------


async def test_a_reclaimed_slots_window_starts_at_its_last_claim(data_dir, store_url, demo_sim):
    """Rejected at T0; a stranger's task of the same shape made at T0+1 (outside Slate);
    re-created at T0+13 and lost. The lookup looks back from the re-claim, not from T0."""
    async with proxied(data_dir, store_url, demo_sim) as (svc, _p):
        demo_sim.set_faults(insufficient_balance=1)
        first = await svc.submit(RID + "51", "video", h3("again"))
        assert first.kind is OutcomeKind.REJECTED
        async with web.AsyncClient() as client:  # someone else's create, outside Slate
            made = await client.post(
                demo_sim.base_url + "/v2/video_generation",
                json={
                    "model": "MiniMax-H3",
                    "content": [{"type": "text", "text": "a stranger"}],
                    "duration": 4,
                    "resolution": "768P",
                    "ratio": "16:9",
                },
                headers={"Authorization": "Bearer someone-else"},
            )
        stranger = made.json()["task_id"]
        await asyncio.sleep(14)  # past the 10 s before a claim, the 1 s rounding and a margin
        demo_sim.set_faults(lose_create_response=1)
        again = await svc.submit(RID + "51", "video", h3("again"))
        assert again.kind is OutcomeKind.UNKNOWN
        look = await svc.recover(RID + "51", Lookup())
        report = look.payload
        assert stranger not in [c.task_id for c in report.candidates]
        assert len(report.candidates) == 1 and report.attached == report.candidates[0].task_id
        assert report.window_start >= int(first.task.created_at) + 3


# -- 6. an answer naming another task is not evidence --------------------------------------


async def test_a_v2_answer_naming_another_task_is_recorded_and_ignored(
    data_dir, store_url, demo_sim
):
    swap: dict[str, Any] = {}

    def rewrite(method, path, query, answer):
        if is_v2_query(method, path) and swap.get("to") and path.endswith(swap["from"]):
            return swap["to"]
        return None

    async with proxied(data_dir, store_url, demo_sim, rewrite) as (svc, _p):
        y = await svc.submit(RID + "61", "video", h3("task y"), wait=True, max_seconds=60)
        assert y.task.state is State.SUCCESS
        async with web.AsyncClient() as client:  # Y's own answer, as the demo gives it
            got = await client.get(
                f"{demo_sim.base_url}/v2/query/video_generation/{y.task.provider_task_id}",
                headers={"Authorization": "Bearer k"},
            )
        y_answer = got.json()
        demo_sim.config.preparing, demo_sim.config.queueing = 0.0, 3.0
        x = await svc.submit(RID + "62", "video", h3("task x"))
        swap.update({"from": x.task.provider_task_id, "to": y_answer})
        queried = await svc.query(RID + "62")
        assert queried.task.state in (State.QUEUEING, State.PREPARING), queried.task.state
        assert queried.task.media == []
        events = (await svc.history(RID + "62")).payload.events
        foreign = [e for e in events if e.event == "foreign_answer"]
        assert foreign and foreign[0].data["named"] == y.task.provider_task_id
        swap.clear()
        done = await svc.wait(RID + "62", max_seconds=60)
        assert done.task.state is State.SUCCESS
        assert done.task.media[0].sha256 != y.task.media[0].sha256  # its own video


async def test_a_v1_answer_naming_another_task_is_not_applied(data_dir, store_url, demo_sim):
    def rewrite(method, path, query, answer):
        if method == "GET" and path == "/v1/query/video_generation":
            return {**answer, "task_id": "someone-elses", "status": "Success", "file_id": "1"}
        return None

    async with proxied(data_dir, store_url, demo_sim, rewrite) as (svc, _p):
        x = await svc.submit(RID + "63", "video", {"prompt": "v1 x", "resolution": "768P"})
        queried = await svc.query(RID + "63")
        assert queried.task.state is State.PREPARING and queried.task.media == []
        events = (await svc.history(RID + "63")).payload.events
        assert any(e.event == "foreign_answer" for e in events)
        assert x.task.provider_task_id == queried.task.provider_task_id


# -- 8. a Hailuo video's length is checked -----------------------------------------------------


@pytest.mark.parametrize("seconds, state", [(6, State.FAIL), (10, State.SUCCESS)])
async def test_a_hailuo_videos_length_is_held_to_the_asked_duration(
    data_dir, store_url, seconds, state
):
    clip = render_mp4(1366, 768, seconds, "hailuo", fps=2)
    server = HostileServer({})
    server.script.update(
        {
            "POST /v1/video_generation": [Answer(ok(task_id="t-10s"))],
            "GET /v1/query/video_generation": [
                Answer(
                    ok(
                        task_id="t-10s",
                        status="Success",
                        file_id="77",
                        video_width=1366,
                        video_height=768,
                    )
                )
            ],
            "GET /v1/files/retrieve": [
                Answer(
                    ok(
                        file={
                            "file_id": 77,
                            "bytes": len(clip),
                            "download_url": server.base_url + "/dl/out.mp4",
                        }
                    )
                )
            ],
            "GET /dl/out.mp4": [Answer(clip, content_type="video/mp4")],
        }
    )
    store = open_store(store_url)
    provider = DemoProvider(server.base_url, timeout=5.0, connect_timeout=2.0)
    svc = SlateService(make_config(data_dir, store_url), store, provider, SECRET)
    try:
        params = {
            "prompt": "ten seconds",
            "model": "MiniMax-Hailuo-2.3",
            "duration": 10,
            "resolution": "768P",
        }
        out = await svc.submit(RID + "81", "video", params, wait=True, max_seconds=60)
        assert out.task.state is state, out.task.error
        if state is State.FAIL:
            assert "lasts" in out.task.error.message and "10 s were asked" in out.task.error.message
    finally:
        await svc.aclose()
        await provider.aclose()
        store.close()
        server.stop()


# -- 9. huge figures -----------------------------------------------------------------------------


def test_a_huge_usage_figure_is_kept_raw_flagged_and_breaks_no_read(
    tmp_path, data_dir, store_url, demo_sim, slate_env
):
    def rewrite(method, path, query, answer):
        if is_v2_query(method, path) and succeeded(answer):
            answer = copy.deepcopy(answer)
            answer["task"]["usage"]["output_seconds"] = 1e30
            return answer
        return None

    proxy = RewritingProxy(demo_sim.base_url, rewrite)
    try:
        env = {
            **slate_env,
            "SLATE_STORE": store_url,
            "SLATE_BASE_URL": proxy.base_url,
            "SLATE_BUDGET_DAILY": "50",
        }
        rid = RID + "91"
        made = run_slate_in_process(
            env,
            "submit",
            "--request-id",
            rid,
            "--kind",
            "video",
            "--model",
            "MiniMax-H3",
            "--duration",
            "4",
            "--prompt",
            "huge",
            "--wait",
        )
        assert made.code == 0 and made.out["task"]["state"] == "success", made.out
        cost = made.out["task"]["cost"]
        assert cost["reported"] is None and "out of range" in cost["basis"]
        for args in (
            ["status", rid],
            ["history", rid],
            ["list"],
            ["spend"],
            ["spend", "--by", "model"],
            ["quota"],
            ["export", rid, "--to", str(tmp_path / "out")],
        ):
            got = run_slate_in_process(env, *args)
            assert got.code == 0, (args, got.out)
        hist = run_slate_in_process(env, "history", rid).out["events"]
        assert any("report_out_of_range" in (e.get("data") or {}) for e in hist), hist
        spent = run_slate_in_process(env, "spend").out["total"]
        assert spent["estimate"] == cost["estimate"]  # counted at its estimate
        nxt = run_slate_in_process(
            env,
            "submit",
            "--request-id",
            RID + "92",
            "--kind",
            "video",
            "--model",
            "MiniMax-H3",
            "--duration",
            "4",
            "--prompt",
            "next",
        )
        assert nxt.out["outcome"] == "created", nxt.out
    finally:
        proxy.stop()


def test_a_stored_out_of_range_figure_breaks_no_read(data_dir, store_url, slate_env):
    """A store written before the bound (``cost_reported`` of 8e28): reads answer, the budget
    still works."""
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_BUDGET_DAILY": "50"}
    rid = RID + "93"
    made = run_slate_in_process(
        env,
        "submit",
        "--request-id",
        rid,
        "--kind",
        "video",
        "--model",
        "MiniMax-H3",
        "--duration",
        "4",
        "--prompt",
        "stored",
        "--wait",
    )
    assert made.out["task"]["state"] == "success", made.out
    engine = sa.create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE tasks SET cost_reported = '8E+28'"))
    engine.dispose()
    for args in (["status", rid], ["list"], ["spend"], ["quota"]):
        got = run_slate_in_process(env, *args)
        assert got.code == 0, (args, got.out)
    nxt = run_slate_in_process(
        env,
        "submit",
        "--request-id",
        RID + "94",
        "--kind",
        "video",
        "--model",
        "MiniMax-H3",
        "--duration",
        "4",
        "--prompt",
        "after",
    )
    assert nxt.out["outcome"] == "created", nxt.out


@pytest.mark.parametrize("budget", ["1e26", "1000001"])
def test_a_budget_out_of_range_is_bad_configuration(slate_env, budget):
    got = run_slate_in_process({**slate_env, "SLATE_BUDGET_DAILY": budget}, "quota")
    assert got.code == 2 and got.out["outcome"] == "invalid", got.out
    msg = got.out["error"]["message"]
    assert "budget_daily" in msg and "SLATE_BUDGET_DAILY" in msg and "at most" in msg
