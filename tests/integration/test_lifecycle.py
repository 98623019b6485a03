"""Lifecycle under faults: unknown words, provider failures, every recover path, handles."""

from __future__ import annotations

import pytest

from app.domain.errors import BadConfiguration

from app.domain import handles
from app.domain.states import Refusal
from app.cli import exit_code
from app.service.lifecycle import DOWNLOAD_ATTEMPTS
from app.service.recover import AttachTask, DeclareFailed, Lookup, Redownload
from app.service.results import OutcomeKind, ProblemCode
from app.service.media import sha256_file

RID = "article:20260816:tide-eye:scene-02"
VIDEO = {"prompt": "tide eye, slow dolly in", "duration": 6, "resolution": "768P"}


def media_files(data_dir):
    return (
        [p for p in (data_dir / "media").rglob("*") if p.is_file()]
        if (data_dir / "media").exists()
        else []
    )


def sim_task_ids(sim, prompt):
    return [t["task_id"] for t in sim.store.list_tasks() if t["prompt"] == prompt]


async def test_video_reaches_success_with_verified_media(harness):
    out = await harness.service.submit(RID, "video", VIDEO, wait=True, max_seconds=30)
    assert out.kind is OutcomeKind.CREATED and exit_code(out) == 0
    task = out.task
    assert task.state == "success" and len(task.media) == 1
    m = task.media[0]
    assert (m.width, m.height, m.content_type) == (1366, 768, "video/mp4")
    assert sha256_file(__import__("pathlib").Path(m.path)) == m.sha256
    events = [e.event for e in (await harness.service.history(RID)).payload.events]
    for needed in ("submitted", "create_sent", "created", "status", "downloaded", "verified"):
        assert needed in events


@pytest.mark.parametrize("word", ["completed", "Failed", "expired", ""])
async def test_unknown_status_word_means_unknown_nothing_downloaded(harness, word):
    harness.sim.set_faults(status_word=word)
    out = await harness.service.submit(RID, "video", VIDEO, wait=True, max_seconds=30)
    assert out.kind is OutcomeKind.UNKNOWN and exit_code(out) == 4
    assert out.task.state == "unknown" and out.task.media == []
    assert out.task.allowed_actions == ["query", "recover"]
    assert media_files(harness.config.data_dir) == []
    ev = [e for e in (await harness.service.history(RID)).payload.events if e.event == "unknown"][
        -1
    ]
    assert ev.data["raw"]["status"] == word  # the raw response is kept
    # create stays disabled: submitting again sends nothing
    made = harness.sim.stats()["made_total"]
    again = await harness.service.submit(RID, "video", VIDEO)
    assert again.kind is OutcomeKind.UNKNOWN and harness.sim.stats()["made_total"] == made
    # evidence arrives: the provider speaks the whitelist again → the task moves on
    harness.sim.set_faults(status_word=None)
    q = await harness.service.query(RID)
    assert q.task.state in ("preparing", "queueing", "processing", "downloading", "success"), q
    assert (await harness.service.wait(RID, max_seconds=30)).task.state == "success"


async def test_success_without_file_is_a_billed_fail_offering_a_redownload(harness):
    # issue 24 point 1: the provider made it (and billed it); a fresh query may name the file
    harness.sim.set_faults(success_without_file=1)
    out = await harness.service.submit(RID, "video", VIDEO, wait=True, max_seconds=30)
    assert out.task.state == "fail" and exit_code(out) == 6
    assert out.task.error.code == "no_media"
    assert out.task.allowed_actions == ["recover", "new_slot"]
    assert out.task.charged == out.task.cost.estimate and not out.task.not_charged
    again = await harness.service.recover(RID, Redownload())  # the demo's task has no file
    assert again.task.state == "fail" and "no file id" in again.task.error.message
    assert harness.sim.stats()["creates_total"] == 1


async def test_content_safety_fail_keeps_the_providers_words(harness):
    harness.sim.set_faults(content_fail=1)
    out = await harness.service.submit(RID, "video", VIDEO, wait=True, max_seconds=30)
    assert out.task.state == "fail" and out.task.error.code == "1027"


async def test_recover_attach_after_lost_create_response(harness):
    harness.sim.set_faults(lose_create_response=1)
    out = await harness.service.submit(RID, "video", VIDEO)
    assert out.kind is OutcomeKind.UNKNOWN and out.task.provider_task_id is None
    q = await harness.service.query(RID)
    assert q.kind is OutcomeKind.INVALID and "task id" in q.problem.message  # not offered
    assert q.problem.refused is not None and q.problem.refused.refusal is Refusal.NO_TASK_ID_LOOKUP
    bogus = await harness.service.recover(RID, AttachTask("999999999999"))
    assert bogus.kind is OutcomeKind.UNKNOWN and bogus.task.state == "unknown"
    [task_id] = sim_task_ids(harness.sim, VIDEO["prompt"])
    made = harness.sim.stats()["made_total"]
    rec = await harness.service.recover(RID, AttachTask(task_id))
    assert rec.task.provider_task_id == task_id and rec.task.state != "unknown"
    done = await harness.service.wait(RID, max_seconds=30)
    assert done.task.state == "success" and done.task.media
    assert harness.sim.stats()["made_total"] == made  # recover never calls create
    assert "recovered" in [e.event for e in (await harness.service.history(RID)).payload.events]


async def test_recover_lookup_finds_the_task_by_parameters(harness):
    harness.sim.set_faults(lose_create_response=1)
    assert (await harness.service.submit(RID, "video", VIDEO)).kind is OutcomeKind.UNKNOWN
    rec = await harness.service.recover(RID, Lookup())
    assert rec.task.provider_task_id == sim_task_ids(harness.sim, VIDEO["prompt"])[0]
    done = await harness.service.wait(RID, max_seconds=30)
    assert done.task.state == "success"


async def test_recover_redownload_after_expired_links(harness):
    harness.sim.set_faults(expire_downloads=DOWNLOAD_ATTEMPTS)
    out = await harness.service.submit(RID, "video", VIDEO, wait=True, max_seconds=30)
    assert out.task.state == "fail" and out.task.error.code == "verification_failed"
    assert "403" in out.task.error.message
    assert out.task.allowed_actions == ["recover", "new_slot"]
    assert media_files(harness.config.data_dir) == []
    made = harness.sim.stats()["made_total"]
    rec = await harness.service.recover(RID, Redownload())
    assert rec.task.state == "success" and rec.task.media
    assert harness.sim.stats()["made_total"] == made


async def test_truncated_download_never_becomes_success(harness):
    """Truncated transfers are never media; the connection broke, which says nothing about the
    task: it stays downloading and is fetched again after a backoff (issue 31)."""
    harness.sim.set_faults(truncate_downloads=DOWNLOAD_ATTEMPTS)
    out = await harness.service.submit(RID, "image", {"prompt": "p"})
    assert out.task.state == "downloading" and not out.task.media, out.task
    events = (await harness.service.history(RID)).payload.events
    assert any("interrupted" in (e.detail or "") for e in events if e.event == "query_failed")
    done = await harness.service.wait(RID, max_seconds=60)
    assert done.task.state == "success" and len(done.task.media) == 1, done.task.error


async def test_declare_failed_needs_a_reason_and_is_recorded(harness):
    harness.sim.set_faults(lose_create_response=1)
    await harness.service.submit(RID, "video", VIDEO)
    no_reason = await harness.service.recover(RID, DeclareFailed("  "))
    assert no_reason.kind is OutcomeKind.INVALID and no_reason.problem.field == "reason"
    out = await harness.service.recover(RID, DeclareFailed("not in the console after 2 h"))
    assert out.task.state == "fail" and exit_code(out) == 6
    assert out.task.allowed_actions == ["new_slot"]
    ev = (await harness.service.history(RID)).payload.events[-1]
    assert ev.event == "declared_failed" and ev.detail == "not in the console after 2 h"
    again = await harness.service.submit(RID, "video", VIDEO)
    assert again.kind is OutcomeKind.REPLAYED and again.task.state == "fail"


async def test_recover_is_refused_where_the_table_says_so(harness):
    out = await harness.service.submit(RID, "image", {"prompt": "p"})
    assert out.task.state == "success"
    for how in (AttachTask("123"), Redownload(), DeclareFailed("x")):
        res = await harness.service.recover(RID, how)
        assert res.kind is OutcomeKind.INVALID and res.problem.code is ProblemCode.NOT_ALLOWED
    q = await harness.service.query(RID)
    assert q.kind is OutcomeKind.INVALID and q.problem.code is ProblemCode.NOT_ALLOWED


async def test_rate_limited_create_is_retried_with_backoff_not_duplicated(harness):
    harness.sim.set_faults(rate_limit_creates=2)
    out = await harness.service.submit(RID, "image", {"prompt": "p"})
    assert out.kind is OutcomeKind.CREATED and out.task.state == "success"
    assert harness.sim.stats()["made_total"] == 1
    history = (await harness.service.history(RID)).payload.events
    events = [e.event for e in history]
    assert events.count("rate_limited") == 2
    # the facts as data, not only in words (issue 36): the wait before each resend, the count
    waits = [e.data["retry_in"] for e in history if e.event == "rate_limited"]
    assert all(isinstance(w, float) and w >= 0 for w in waits), waits
    [created] = [e for e in history if e.event == "created"]
    assert created.data["images"] == 1


async def test_definitive_refusal_is_rejected_and_may_be_created_again(harness):
    harness.sim.set_faults(create_error=1, create_error_code=1008)
    out = await harness.service.submit(RID, "image", {"prompt": "p"})
    assert out.kind is OutcomeKind.REJECTED and exit_code(out) == 6 and out.task.state == "rejected"
    assert out.task.allowed_actions == ["create", "new_slot"]
    again = await harness.service.submit(RID, "image", {"prompt": "p"})
    assert again.kind is OutcomeKind.CREATED and again.task.state == "success"
    assert again.task.handle == out.task.handle  # the same slot, the same record


async def test_handles_refuse_tamper_purpose_and_other_users(harness):
    out = await harness.service.submit(RID, "image", {"prompt": "p"})
    h = out.task.handle
    assert (await harness.service.status_by_handle(h)).task.request_id == RID
    prefix, body, mac = h.split(".")
    tampered = f"{prefix}.{body[:-2]}{'A' if body[-2] != 'A' else 'B'}{body[-1]}.{mac}"
    for bad in (tampered, h[:-3] + "xyz", "garbage", out.task.media[0].handle):
        res = await harness.service.status_by_handle(bad)
        assert res.kind is OutcomeKind.INVALID and exit_code(res) == 2, bad
    other = harness.other(user="mei")
    res = await other.status_by_handle(h)
    assert res.kind is OutcomeKind.NOT_FOUND and exit_code(res) == 8
    forged = handles.sign(
        b"another-secret" * 3,
        "task",
        "studio-a",
        harness.service.scope.user_hash,
        out.task.id,
        harness.store.store_id,
    )
    assert exit_code(await harness.service.status_by_handle(forged)) == 2


async def test_an_unwritable_media_folder_keeps_the_result_and_fetches_it_later(harness):
    """A file where the media folder should be is this machine's trouble, never a verdict on
    the paid result: the slot stays ``downloading`` (the image links kept), the command says
    which path is wrong (exit 2), and once the path is fixed the same images arrive without a
    second create."""
    blocker = harness.config.data_dir / "media"
    blocker.write_text("a file where the media folder should be")
    with pytest.raises(BadConfiguration) as said:
        await harness.service.submit(RID, "image", {"prompt": "p"})
    assert said.value.path == str(blocker) and said.value.reason == "under_file"
    assert not list((harness.config.data_dir / "journal").rglob("*.json"))  # recorded
    seen = (await harness.service.status(RID)).task
    assert seen.state == "downloading", seen
    events = [e.event for e in (await harness.service.history(RID)).payload.events]
    assert "media_not_written" in events and "verification_failed" not in events, events
    blocker.unlink()
    done = await harness.service.wait(RID, max_seconds=60)
    assert done.task.state == "success" and len(done.task.media) == 1, done
    assert harness.sim.stats()["made_total"] == 1
