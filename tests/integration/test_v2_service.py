"""MiniMax-H3 (V2) through the service, against the demo provider over loopback, on real stores:
submit with local inputs, the lifecycle to verified media, faults, lookup recovery (the window,
owned tasks, several candidates) and cancel (queried first; a DELETE only while queued)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, AsyncIterator

import pytest

from app.cli import exit_code, render
from app.domain.states import Action, State
from app.service.commands import AttachTask, Lookup
from app.service.results import LookupReport, OutcomeKind, ProblemCode
from app.sim import SimServer
from tests.support.fixtures import Harness, copy_migrated_store, open_harness, sqlite_url
from tests.support.sim_media import audio_bytes, image_bytes, video_bytes

pytestmark = pytest.mark.timeout(180)

RID = "article:20261201:tide-eye:scene-01"
H3 = {"model": "MiniMax-H3", "prompt": "tide eye at dawn, slow dolly in", "duration": 4}


@pytest.fixture
async def h(data_dir: Path, demo_sim: SimServer, migrated_store: bytes) -> AsyncIterator[Harness]:
    """A wired service on SQLite (the store-sensitive tests use ``harness``: both backends)."""
    copy_migrated_store(migrated_store, data_dir)  # a store at head: no migration per test
    async with open_harness(data_dir, sqlite_url(data_dir), demo_sim) as got:
        yield got


def requests(sim: SimServer, endpoint: str) -> int:
    return int(sim.stats()["requests_by_endpoint"].get(endpoint, 0))


async def events(h: Harness, rid: str = RID) -> list[Any]:
    return list((await h.service.history(rid)).payload.events)


def hold_in_queue(sim: SimServer, seconds: float = 60.0) -> None:
    sim.config.preparing, sim.config.queueing = 0.0, seconds


def hold_running(sim: SimServer, seconds: float = 60.0) -> None:
    sim.config.preparing, sim.config.queueing, sim.config.processing = 0.0, 0.05, seconds


# ---------------------------------------------------------------- submit and lifecycle


async def test_h3_text_to_video_reaches_verified_success(h):
    out = await h.service.submit(RID, "video", H3, wait=True, max_seconds=60)
    assert out.kind is OutcomeKind.CREATED and exit_code(out) == 0
    task = out.task
    assert task.state is State.SUCCESS and task.provider_status == "succeeded"
    [m] = task.media
    assert (m.width, m.height, m.content_type) == (1366, 768, "video/mp4")
    assert m.duration == pytest.approx(4.0, abs=0.1)
    assert task.params == {
        **H3,
        "resolution": "768P",
        "ratio": "16:9",
        "prompt_expansion": None,
        "content": [],
    }
    row = await h.store.task(task.id)
    assert row.results["usage"]["output_seconds"] == 4  # kept for the cost work
    names = [e.event for e in await events(h)]
    for needed in ("submitted", "create_sent", "created", "status", "downloaded", "verified"):
        assert needed in names
    created = next(e for e in await events(h) if e.event == "created")
    assert created.state is State.QUEUEING  # a V2 task starts queued
    assert h.sim.stats()["made_total"] == 1


async def test_local_frame_references_and_uploads(h, tmp_path):
    portrait = tmp_path / "portrait.png"
    portrait.write_bytes(image_bytes(900, 1600))
    out = await h.service.submit(
        RID, "video", {**H3, "first_frame_image": str(portrait)}, wait=True, max_seconds=60
    )
    assert out.task.state is State.SUCCESS, out.task.error
    [m] = out.task.media
    assert (m.width, m.height) == (768, 1366)  # the output follows the frame image
    item = out.task.params["content"][0]
    assert item["role"] == "first_frame" and "portrait" not in str(out.task.params)
    assert requests(h.sim, "files_upload") == 0  # a small image travels inline

    big = tmp_path / "big.png"
    import os

    from PIL import Image

    Image.frombytes("RGB", (1600, 1200), os.urandom(1600 * 1200 * 3)).save(big)
    assert big.stat().st_size > 5 * 1024 * 1024
    clip = tmp_path / "clip.mp4"
    clip.write_bytes(video_bytes(3.0))
    tone = tmp_path / "tone.wav"
    tone.write_bytes(audio_bytes(3.0))
    rid2 = "article:20261201:tide-eye:scene-02"
    out2 = await h.service.submit(
        rid2,
        "video",
        {
            **H3,
            "ratio": "adaptive",
            "reference_image": [str(big)],
            "reference_video": [str(clip)],
            "reference_audio": [str(tone)],
        },
        wait=True,
        max_seconds=60,
    )
    assert out2.task.state is State.SUCCESS, out2.task.error
    assert requests(h.sim, "files_upload") == 3  # the large image, the clip and the sound
    said = next(e for e in await events(h, rid2) if e.event == "inputs")
    assert "mm_file://" in said.detail and "big.png" in said.detail
    m2 = out2.task.media[0]
    assert (m2.width, m2.height) == (1024, 768)  # adaptive follows the 4:3 reference image


async def test_an_upload_that_fails_sends_no_create_and_rejects(h, tmp_path):
    clip = tmp_path / "clip.mp4"
    clip.write_bytes(video_bytes(3.0))
    h.sim.set_faults(server_error=1)
    out = await h.service.submit(
        RID, "video", {**H3, "ratio": "adaptive", "reference_video": [str(clip)]}
    )
    assert out.kind is OutcomeKind.REJECTED and out.task.state is State.REJECTED
    assert "uploading clip.mp4 failed" in out.problem.message
    assert "create was not sent" in out.problem.message
    assert h.sim.stats()["creates_total"] == 0
    again = await h.service.submit(
        RID, "video", {**H3, "ratio": "adaptive", "reference_video": [str(clip)]}
    )
    assert again.kind is OutcomeKind.CREATED  # the same slot may be created again


async def test_a_file_changed_after_the_check_is_never_sent(h, tmp_path, monkeypatch):
    from app.service import inputs

    frame = tmp_path / "frame.png"
    frame.write_bytes(image_bytes(640, 480))
    real = inputs.LocalInput.read

    def changed(self: inputs.LocalInput) -> bytes:
        frame.write_bytes(image_bytes(640, 480, color=(200, 10, 10)))
        return real(self)

    monkeypatch.setattr(inputs.LocalInput, "read", changed)
    out = await h.service.submit(RID, "video", {**H3, "first_frame_image": str(frame)})
    assert (
        out.kind is OutcomeKind.REJECTED and "changed after it was checked" in out.problem.message
    )
    assert h.sim.stats()["creates_total"] == 0


async def test_an_expired_link_is_fetched_again_by_a_new_query(h):
    h.sim.set_faults(expired_url=1)
    out = await h.service.submit(RID, "video", H3, wait=True, max_seconds=60)
    assert out.task.state is State.SUCCESS
    evs = await events(h)
    failed = [e for e in evs if e.event == "verification_failed"]
    assert len(failed) == 1 and "403" in failed[0].detail
    assert requests(h.sim, "v2_query_video_generation") >= 2


@pytest.mark.parametrize("word", ["Success", "completed", ""])
async def test_a_word_off_the_v2_whitelist_is_unknown_and_nothing_is_downloaded(h, word):
    h.sim.set_faults(status_word=word)
    out = await h.service.submit(RID, "video", H3, wait=True, max_seconds=30)
    assert out.kind is OutcomeKind.UNKNOWN and out.task.state is State.UNKNOWN
    assert out.task.media == [] and requests(h.sim, "download") == 0
    assert out.task.allowed_actions == [Action.QUERY, Action.RECOVER]


async def test_succeeded_without_a_url_is_a_failure(h):
    h.sim.set_faults(success_without_file=1)
    out = await h.service.submit(RID, "video", H3, wait=True, max_seconds=30)
    assert out.task.state is State.FAIL and out.task.error.code == "no_media"
    assert exit_code(out) == 6


async def test_a_failed_task_keeps_the_providers_code(h):
    h.sim.set_faults(content_fail=1)
    out = await h.service.submit(RID, "video", H3, wait=True, max_seconds=30)
    assert out.task.state is State.FAIL and out.task.error.code == "1027"


async def test_429_backs_off_and_creates_once(h):
    h.sim.set_faults(rate_limit_creates=2, retry_after=0.1)
    out = await h.service.submit(RID, "video", H3)
    assert out.kind is OutcomeKind.CREATED
    assert [e.event for e in await events(h)].count("rate_limited") == 2
    assert h.sim.stats()["made_total"] == 1


@pytest.mark.parametrize(
    ("fault", "kind"),
    [
        ({"insufficient_balance": 1}, OutcomeKind.REJECTED),
        ({"input_sensitive": 1}, OutcomeKind.REJECTED),
        ({"create_error": 1, "create_error_code": 2061}, OutcomeKind.REJECTED),
        ({"create_error": 1, "create_error_code": 1030}, OutcomeKind.REJECTED),
        ({"server_error_creates": 1}, OutcomeKind.UNKNOWN),
        ({"overloaded": 1}, OutcomeKind.UNKNOWN),
    ],
)
async def test_v2_refusals_and_ambiguities(h, fault, kind):
    h.sim.set_faults(**fault)
    out = await h.service.submit(RID, "video", H3)
    assert out.kind is kind
    if kind is OutcomeKind.UNKNOWN:  # the create's answer never came: no task id to query
        assert out.task.allowed_actions == [Action.RECOVER]
    else:
        assert out.task.allowed_actions == [Action.CREATE, Action.NEW_SLOT]


# ---------------------------------------------------------------- lookup


async def test_a_lost_create_answer_is_found_by_lookup_with_the_evidence(harness):
    harness.sim.set_faults(lose_create_response=1)
    out = await harness.service.submit(RID, "video", H3)
    assert out.kind is OutcomeKind.UNKNOWN and out.task.provider_task_id is None
    [made] = [t for t in harness.sim.store.list_v2_tasks() if t["prompt"] == H3["prompt"]]
    looked = await harness.service.look(RID)  # the app's question, without attaching
    assert looked.kind is OutcomeKind.OK and looked.task.state is State.UNKNOWN
    assert [c.task_id for c in looked.payload.candidates] == [made["task_id"]]
    rec = await harness.service.recover(RID, Lookup())
    assert rec.kind is OutcomeKind.OK and rec.task.provider_task_id == made["task_id"]
    assert rec.payload.attached == made["task_id"]
    js = render(rec)
    assert js["lookup"]["candidates"][0]["id"] == made["task_id"]
    history = await events(harness)
    recovered = [e for e in history if e.event == "recovered"][-1]
    claimed = [e for e in history if e.event == "submitted"][-1].at
    evidence = recovered.data["lookup"]
    w = evidence["window"]
    assert w["start"] <= made["created_at"] <= w["end"]
    # 10 s before the claim, in the provider's clock (the same as ours here): the offset read is
    # 0 within the error the reading states (half a second plus half the round trip, which
    # grows on a busy machine), and the window starts that much earlier — widened to a whole
    # second twice (in our clock, then in the provider's), so up to 2 s earlier still
    offset, error = w["provider_clock_offset"], w["provider_clock_error"]
    assert 0.5 <= error and abs(offset) <= error + 0.01
    earliest = claimed - 10 + offset - error
    assert earliest - 2 < w["start"] <= earliest, (w["start"], earliest)
    assert evidence["listed"] >= 1 and evidence["candidates"][0]["id"] == made["task_id"]
    done = await harness.service.wait(RID, max_seconds=60)
    assert done.task.state is State.SUCCESS
    assert harness.sim.stats()["made_total"] == 1  # recover never creates


@pytest.mark.parametrize("skew", [-90.0, 90.0])
async def test_lookup_finds_a_lost_create_at_a_provider_whose_clock_is_off(harness, skew):
    """MiniMax's clock 90 s behind (or ahead): it lists the lost create at its own time, 90 s
    off ours. The window is placed in its clock, measured from its answers' ``Date``, and the
    offset is kept with the evidence (DESIGN.md "Recover")."""
    harness.sim.config.clock_offset = skew
    harness.sim.set_faults(lose_create_response=1)
    out = await harness.service.submit(RID, "video", H3)
    assert out.kind is OutcomeKind.UNKNOWN and out.task.provider_task_id is None
    [made] = [t for t in harness.sim.store.list_v2_tasks() if t["prompt"] == H3["prompt"]]
    assert abs(made["created_at"] - skew - out.task.created_at) < 30  # at the provider's time
    rec = await harness.service.recover(RID, Lookup())
    assert rec.kind is OutcomeKind.OK, rec.problem
    assert rec.payload.attached == made["task_id"]
    recovered = [e for e in await events(harness) if e.event == "recovered"][-1]
    w = recovered.data["lookup"]["window"]
    assert w["provider_clock_offset"] == pytest.approx(skew, abs=w["provider_clock_error"] + 0.01)
    assert w["start"] <= made["created_at"] <= w["end"]
    assert harness.sim.stats()["made_total"] == 1  # recover never creates


async def test_two_identical_tasks_in_the_window_are_listed_and_nothing_is_attached(harness):
    other = harness.other(user="mei")  # a colleague asks the same with a slot of her own
    harness.sim.set_faults(lose_create_response=2)
    a = await harness.service.submit(RID, "video", H3)
    b = await other.submit(RID, "video", H3)
    assert a.kind is OutcomeKind.UNKNOWN and b.kind is OutcomeKind.UNKNOWN
    rec = await harness.service.recover(RID, Lookup())
    assert rec.kind is OutcomeKind.UNKNOWN and exit_code(rec) == 4
    assert rec.task.state is State.UNKNOWN and rec.task.provider_task_id is None
    assert isinstance(rec.payload, LookupReport) and len(rec.payload.candidates) == 2
    assert rec.payload.attached is None and "2 matching tasks" in rec.problem.message
    js = render(rec)["lookup"]
    assert {c["model"] for c in js["candidates"]} == {"MiniMax-H3"}
    assert all(set(c) == {"id", "created_at", "model", "status"} for c in js["candidates"])
    noted = [e for e in await events(harness) if e.event == "lookup"][-1]
    assert len(noted.data["candidates"]) == 2  # the history keeps what was seen
    # the user attaches one by id; the other slot can then only find the other task
    first = rec.payload.candidates[0].task_id
    assert (await harness.service.recover(RID, AttachTask(first))).task.provider_task_id == first
    theirs = await other.recover(RID, Lookup())
    assert theirs.task.provider_task_id == rec.payload.candidates[1].task_id
    assert theirs.payload.owned_by_other_slots == (first,)


async def test_a_task_another_slot_owns_is_never_a_candidate(harness):
    colleague = harness.other(tenant="studio-b", user="mei")
    owned = await colleague.submit("article:20261201:tide-eye:scene-09", "video", H3)
    assert owned.kind is OutcomeKind.CREATED
    harness.sim.set_faults(server_error_creates=1)  # refused before a task was made: 500
    out = await harness.service.submit(RID, "video", H3)
    assert out.kind is OutcomeKind.UNKNOWN
    rec = await harness.service.recover(RID, Lookup())
    assert rec.kind is OutcomeKind.UNKNOWN and rec.task.provider_task_id is None
    assert rec.payload.candidates == () and rec.payload.listed == 1
    assert rec.payload.owned_by_other_slots == (owned.task.provider_task_id,)
    took = await harness.service.recover(RID, AttachTask(owned.task.provider_task_id))
    assert took.kind is OutcomeKind.INVALID and "another slot" in took.problem.message
    assert (await harness.service.status(RID)).task.state is State.UNKNOWN


async def test_the_window_excludes_tasks_made_long_after_the_create(h):
    h.sim.set_faults(server_error_creates=1)
    out = await h.service.submit(RID, "video", H3)
    assert out.kind is OutcomeKind.UNKNOWN
    h.sim.set_clock(advance=h.config.timeout + 120)  # well past timeout + 60 s
    await h.service.provider.api("v2").create_video(
        {
            "model": "MiniMax-H3",
            "content": [{"type": "text", "text": "later"}],
            "resolution": "768P",
            "duration": 4,
            "ratio": "16:9",
        }
    )
    # Back to the provider's true time: the lookup reads its clock off its answers, and a
    # clock that stayed ahead would (rightly) move the window with it.
    h.sim.set_clock(offset=0.0)
    rec = await h.service.recover(RID, Lookup())
    assert rec.kind is OutcomeKind.UNKNOWN and rec.payload.listed == 0


# ---------------------------------------------------------------- cancel


async def test_cancel_of_a_queued_task_is_confirmed_and_not_billed(harness):
    hold_in_queue(harness.sim)
    out = await harness.service.submit(RID, "video", H3)
    assert out.task.state is State.QUEUEING
    assert out.task.allowed_actions == [Action.QUERY, Action.CANCEL]
    got = await harness.service.cancel(RID)
    assert got.kind is OutcomeKind.CANCELLED and exit_code(got) == 0
    assert render(got)["outcome"] == "cancelled"
    assert got.task.state is State.CANCELLED and got.task.allowed_actions == [Action.NEW_SLOT]
    stats = harness.sim.stats()
    assert stats["requests_by_endpoint"]["v2_delete_video_generation"] == 1
    assert stats["cancelled_by_prompt"] == {H3["prompt"]: 1}
    assert stats["billed_by_prompt"].get(H3["prompt"], 0) == 0
    assert [e.event for e in await events(harness)][-1] == "cancelled"
    again = await harness.service.cancel(RID)
    assert again.kind is OutcomeKind.INVALID and again.problem.code is ProblemCode.NOT_ALLOWED
    replay = await harness.service.submit(RID, "video", H3)
    assert replay.kind is OutcomeKind.REPLAYED and replay.task.state is State.CANCELLED
    assert (await harness.service.wait(RID, max_seconds=1)).task.state is State.CANCELLED
    assert harness.sim.stats()["requests_by_endpoint"]["v2_delete_video_generation"] == 1


async def test_cancel_of_a_running_task_is_refused_and_sends_no_delete(harness):
    hold_running(harness.sim)
    await harness.service.submit(RID, "video", H3)
    harness.sim.set_clock(advance=0.2)  # the provider's clock: past its queueing, running
    q = await harness.service.query(RID)
    assert q.task.state is State.PROCESSING
    assert Action.CANCEL not in q.task.allowed_actions
    got = await harness.service.cancel(RID)
    assert got.kind is OutcomeKind.INVALID and exit_code(got) == 2
    assert got.task.state is State.PROCESSING
    assert (await harness.service.status(RID)).task.state is State.PROCESSING
    assert requests(harness.sim, "v2_delete_video_generation") == 0


async def test_a_task_that_started_running_meanwhile_stays_as_it_is(h):
    h.sim.config.preparing, h.sim.config.queueing, h.sim.config.processing = 0.0, 0.3, 60.0
    out = await h.service.submit(RID, "video", H3)
    assert out.task.state is State.QUEUEING  # locally still queued …
    h.sim.set_clock(advance=0.5)  # … while the provider already runs it (its clock moved on)
    got = await h.service.cancel(RID)
    assert got.kind is OutcomeKind.INVALID and "running at the provider" in got.problem.message
    assert "nothing was cancelled" in got.problem.message
    assert got.task.state is State.PROCESSING  # what the query showed, nothing more
    assert requests(h.sim, "v2_delete_video_generation") == 0
    assert h.sim.stats()["cancelled_total"] == 0


async def test_a_v1_task_cannot_be_cancelled(h):
    h.sim.config.queueing = 60.0
    out = await h.service.submit(RID, "video", {"prompt": "legacy", "resolution": "768P"})
    h.sim.set_clock(advance=0.1)  # the provider's clock: past its preparing, queueing
    q = await h.service.query(RID)
    assert q.task.state is State.QUEUEING and Action.CANCEL not in q.task.allowed_actions
    got = await h.service.cancel(RID)
    assert got.kind is OutcomeKind.INVALID and "cannot cancel" in got.problem.message
    assert requests(h.sim, "v2_delete_video_generation") == 0 and out.task is not None


async def test_a_task_cancelled_elsewhere_becomes_cancelled_on_query(h):
    hold_in_queue(h.sim)
    out = await h.service.submit(RID, "video", H3)
    await h.service.provider.api("v2").cancel_video(out.task.provider_task_id)
    q = await h.service.query(RID)
    assert q.task.state is State.CANCELLED and exit_code(q) == 0


async def test_a_failed_download_is_fetched_again_by_redownload(h):
    from app.service.commands import Redownload
    from app.service.lifecycle import DOWNLOAD_ATTEMPTS

    h.sim.set_faults(expire_downloads=DOWNLOAD_ATTEMPTS)
    out = await h.service.submit(RID, "video", H3, wait=True, max_seconds=60)
    assert out.task.state is State.FAIL and out.task.error.code == "verification_failed"
    assert out.task.allowed_actions == [Action.RECOVER, Action.NEW_SLOT]
    queries = requests(h.sim, "v2_query_video_generation")
    again = await h.service.recover(RID, Redownload())
    assert again.task.state is State.SUCCESS and again.task.media
    assert requests(h.sim, "v2_query_video_generation") > queries  # a fresh link was asked for
    assert h.sim.stats()["made_total"] == 1
