"""Hostile world III, counts and ids (issue 32), on both stores, with the demo provider behind a
rewriting proxy playing a MiniMax that answers wrongly:

1. a result holds at most what the create asked for: an answer with more images (image-01,
   MiniMax-H3-Image) or more than one sound is a wrong answer — kept in the history, nothing
   downloaded, the slot ``unknown`` (``overfull_answer``), never a success;
2. an asynchronous speech query answer naming no task id (with another task's file) is not
   evidence: recorded, ignored, the slot ends with its own sound;
3. a lookup never attaches a V2 task listed without ``task_type`` (a regeneration looks like a
   plain 2K MiniMax-H3 task).
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs

import pytest

from app.domain.states import State
from app.providers.demo import DemoProvider
from app.service.commands import Lookup
from app.service.results import OutcomeKind
from app.service.slate import SlateService
from app.sim import SimServer
from app.store.aio import open_store
from tests.support.fixtures import SECRET, make_config
from tests.support.hostile import Answer, RewritingProxy
from tests.support import web

pytestmark = pytest.mark.timeout(180)

RID = "article:20261203:tide-eye:scene-"
SPEECH = {"voice": "English_expressive_narrator"}
SPEECH_QUERY = "/v1/query/t2a_async_query_v2"


@contextlib.asynccontextmanager
async def proxied(
    data_dir: Path,
    store_url: str,
    sim: SimServer,
    rewrite: Any = None,
    intercept: Callable[[str, str], Answer | None] | None = None,
) -> AsyncIterator[tuple[SlateService, RewritingProxy]]:
    """A service on ``store_url`` whose provider is the demo behind a rewriting proxy."""
    proxy = RewritingProxy(sim.base_url, rewrite, intercept)
    store = open_store(store_url)
    provider = DemoProvider(proxy.base_url, timeout=5.0, connect_timeout=2.0)
    svc = SlateService(make_config(data_dir, store_url), store, provider, SECRET)
    try:
        yield svc, proxy
    finally:
        await svc.aclose()
        await provider.aclose()
        store.close()
        proxy.stop()


def media_files(data_dir: Path) -> list[Path]:
    return (
        [p for p in (data_dir / "media").rglob("*") if p.is_file()]
        if (data_dir / "media").exists()
        else []
    )


async def assert_refused_overfull(svc: SlateService, sim: SimServer, rid: str, out: Any) -> Any:
    """The slot is ``unknown`` (``overfull_answer``), holds nothing, the raw answer is in its
    history; a resubmit creates nothing."""
    assert out.kind is OutcomeKind.UNKNOWN, out.problem
    task = out.task
    assert task.state is State.UNKNOWN and task.error.code == "overfull_answer", task.error
    assert task.media == []
    events = (await svc.history(rid)).payload.events
    [unknown] = [e for e in events if e.event == "unknown"]
    assert unknown.data["raw"], unknown.data
    return unknown.data["raw"]


# -- 1. a result holds at most what the create asked for --------------------------------------


async def test_an_image_01_answer_with_more_images_than_asked_is_refused_never_downloaded(
    data_dir, store_url, demo_sim
):
    """``--n 1`` answered with 40 images: not a success with 40 results."""

    def rewrite(method, path, query, answer):
        if method == "POST" and path == "/v1/image_generation" and "data" in answer:
            answer = copy.deepcopy(answer)
            [url] = answer["data"]["image_urls"]
            answer["data"]["image_urls"] = [url] * 40
            answer["metadata"] = {"success_count": "40", "failed_count": "0"}
            return answer
        return None

    async with proxied(data_dir, store_url, demo_sim, rewrite) as (svc, proxy):
        out = await svc.submit(RID + "01", "image", {"prompt": "forty lighthouses", "n": 1})
        raw = await assert_refused_overfull(svc, demo_sim, RID + "01", out)
        assert proxy.rewritten == 1 and len(raw["data"]["image_urls"]) == 40
        assert media_files(data_dir) == []  # nothing downloaded
        again = await svc.submit(RID + "01", "image", {"prompt": "forty lighthouses", "n": 1})
        assert again.kind is OutcomeKind.UNKNOWN and again.task.media == []
        assert demo_sim.stats()["creates_total"] == 1


async def test_an_h3_image_answer_with_more_images_than_asked_is_refused_never_downloaded(
    data_dir, store_url, demo_sim
):
    """MiniMax-H3-Image ``n: 2`` answered with 5 images: refused, the answer kept."""

    def rewrite(method, path, query, answer):
        if method == "POST" and path == "/v1/images/generations" and answer.get("data"):
            answer = copy.deepcopy(answer)
            first = answer["data"][0]
            answer["data"] = [first] * 5
            return answer
        return None

    params = {"model": "MiniMax-H3-Image", "prompt": "two harbours", "n": 2}
    async with proxied(data_dir, store_url, demo_sim, rewrite) as (svc, proxy):
        out = await svc.submit(RID + "02", "image", params)
        raw = await assert_refused_overfull(svc, demo_sim, RID + "02", out)
        assert proxy.rewritten == 1 and len(raw["data"]) == 5
        assert media_files(data_dir) == []


async def test_a_music_answer_holding_two_songs_is_refused_never_downloaded(
    data_dir, store_url, demo_sim
):
    """One create makes one song: an answer with two is a wrong answer."""

    def rewrite(method, path, query, answer):
        if method == "POST" and path == "/v1/music_generation" and answer.get("data"):
            answer = copy.deepcopy(answer)
            audio = answer["data"]["audio"]
            answer["data"]["audio"] = [audio, audio]
            return answer
        return None

    song = {"prompt": "lofi piano, rain", "instrumental": True}
    async with proxied(data_dir, store_url, demo_sim, rewrite) as (svc, proxy):
        out = await svc.submit(RID + "03", "music", song)
        await assert_refused_overfull(svc, demo_sim, RID + "03", out)
        assert proxy.rewritten == 1
        assert media_files(data_dir) == []


# -- 2. an async speech answer naming no task ------------------------------------------------


async def test_an_async_speech_answer_naming_no_task_with_another_tasks_file_is_not_applied(
    data_dir, store_url, demo_sim
):
    """B's query answered ``Success`` with A's file and no ``task_id``: recorded as a foreign
    answer, ignored; B ends with its own voice."""
    files: dict[str, str] = {}
    swap: dict[str, str] = {}

    def rewrite(method, path, query, answer):
        if method != "GET" or path != SPEECH_QUERY:
            return None
        asked = parse_qs(query).get("task_id", [""])[0]
        if answer.get("status") == "Success" and answer.get("file_id"):
            files.setdefault(asked, str(answer["file_id"]))
        if asked in swap:
            return {
                "status": "Success",
                "file_id": files[swap[asked]],
                "base_resp": {"status_code": 0, "status_msg": "success"},
            }
        return None

    async with proxied(data_dir, store_url, demo_sim, rewrite) as (svc, proxy):
        a_rid, b_rid = RID + "04", RID + "05"
        a = await svc.submit(a_rid, "speech", {**SPEECH, "text": "The tide eye. " * 800})
        a_done = await svc.wait(a_rid, max_seconds=60)
        assert a_done.task.state is State.SUCCESS, a_done.task.error
        assert a.task.provider_task_id in files
        b = await svc.submit(b_rid, "speech", {**SPEECH, "text": "Dusk. " * 1800})
        assert b.task.provider_task_id != a.task.provider_task_id
        swap[b.task.provider_task_id] = a.task.provider_task_id
        queried = await svc.query(b_rid)
        assert queried.task.media == [] and queried.task.state is not State.SUCCESS
        events = (await svc.history(b_rid)).payload.events
        foreign = [e for e in events if e.event == "foreign_answer"]
        assert foreign and foreign[0].data["named"] is None, events
        del swap[b.task.provider_task_id]
        done = await svc.wait(b_rid, max_seconds=60)
        assert done.task.state is State.SUCCESS, done.task.error
        assert done.task.media[0].sha256 != a_done.task.media[0].sha256  # its own voice


# -- 3. lookup and a list without task_type ---------------------------------------------------


async def test_a_lookup_never_attaches_a_regeneration_listed_without_its_task_type(
    data_dir, store_url, demo_sim
):
    """A plain 2K MiniMax-H3 slot whose create made nothing (a 503), and a regeneration of the
    same shape in its window, listed without ``task_type``: the lookup attaches nothing."""
    fail_create = {"on": False}

    def intercept(method, path):
        if fail_create["on"] and method == "POST" and path == "/v2/video_generation":
            return Answer({"type": "error"}, status=503)
        return None

    def rewrite(method, path, query, answer):
        if method == "GET" and path == "/v2/query/video_generation" and "items" in answer:
            answer = copy.deepcopy(answer)
            for item in answer["items"]:
                item.pop("task_type", None)
            return answer
        return None

    h3 = {"model": "MiniMax-H3", "duration": 4, "ratio": "16:9"}
    async with proxied(data_dir, store_url, demo_sim, rewrite, intercept) as (svc, _proxy):
        src = await svc.submit(
            RID + "06",
            "video",
            {**h3, "prompt": "source", "resolution": "768P"},
            wait=True,
            max_seconds=60,
        )
        assert src.task.state is State.SUCCESS, src.task.error
        fail_create["on"] = True
        plain = await svc.submit(RID + "07", "video", {**h3, "prompt": "plain", "resolution": "2K"})
        fail_create["on"] = False
        assert plain.kind is OutcomeKind.UNKNOWN, plain.problem
        # the same account regenerates the source elsewhere (MiniMax's console, another
        # store): a task no slot here owns, 2K, 4 s, 16:9 like the plain slot
        async with web.AsyncClient(base_url=demo_sim.base_url) as http:
            made = await http.post(
                "/v2/video_regeneration",
                headers={"Authorization": "Bearer elsewhere"},
                json={
                    "model": "MiniMax-H3",
                    "source_task_id": src.task.provider_task_id,
                    "resolution": "2K",
                },
            )
        assert made.status_code == 200, made.text
        found = await svc.recover(RID + "07", Lookup())
        assert found.task.provider_task_id is None, found
        assert found.task.state is State.UNKNOWN
        assert found.payload is not None and found.payload.candidates == ()
        assert found.payload.listed >= 1  # the regeneration was seen, and not taken


def test_the_demo_providers_overfull_answer_fault_is_refused_and_said(slate, demo_sim, store_url):
    """The demo provider's own ``overfull_answer`` fault (as MiniMax's wrong answer would be):
    ``slate submit --n 2`` answered with 4 images is ``unknown`` (exit 4), holds nothing, the
    demo counted one create, and the window's words say what happened and what can be done."""
    from types import SimpleNamespace

    from app.present import words

    demo_sim.set_faults(overfull_answer=1)
    env = {"SLATE_STORE": store_url}
    rid = RID + "09"
    out = slate("submit", "--request-id", rid, "--kind", "image", "--prompt", "two", "--n", "2",
                env=env)  # fmt: skip
    assert out.code == 4 and out.out["outcome"] == "unknown", out.out
    task = out.out["task"]
    assert task["error"]["code"] == "overfull_answer" and task["media"] == [], task
    assert demo_sim.stats()["faults_injected"]["overfull_answer"] == 1
    assert demo_sim.stats()["creates_total"] == 1
    again = slate("submit", "--request-id", rid, "--kind", "image", "--prompt", "two", "--n",
                  "2", env=env)  # fmt: skip
    assert again.out["outcome"] == "unknown" and demo_sim.stats()["creates_total"] == 1
    assert words.code_words(task["error"]["code"]) == words.OVERFULL
    assert words.for_task(SimpleNamespace(state="unknown", error=task["error"])).text == (
        words.OVERFULL
    )
