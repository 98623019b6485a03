"""Lifecycle rules, fast: status words through the whitelist, downloads, sweeps, waits."""

from __future__ import annotations

import dataclasses
import os
import socket
import subprocess
import sys
import time

import pytest

from app.cli import exit_code
from app.domain.fingerprint import fingerprint
from app.domain.params import normalize
from app.domain.states import Action, State
from app.providers.base import Ambiguous, VideoCreated
from app.service.commands import Redownload
from app.service.owner import boot_id, pid_namespace
from app.service.results import OutcomeKind, ProblemCode
from app.service.submit import claim_request
from app.store.rows import ClaimOutcome, ClaimRequest, Owner
from tests.unit.fakes import FakeProvider, status

RID = "article:20260816:tide-eye:scene-02"
VIDEO = {"prompt": "tide eye, slow dolly in", "resolution": "768P"}


async def created(service, fake: FakeProvider, *words, file_id: str | None = None):
    """A created video slot whose queries answer ``words``; its stored task."""
    fake.answer_create(VideoCreated("t1", {"task_id": "t1"}))
    fake.script_status("t1", *words)
    if file_id:
        fake.add_video_file(file_id)
    out = await service.submit(RID, "video", VIDEO)
    assert out.kind is OutcomeKind.CREATED
    return await service.store.task(out.task.id)


async def history(service) -> list:
    return list((await service.history(RID)).payload.events)


async def test_whitelisted_words_lead_to_verified_media(service, fake):
    task = await created(
        service,
        fake,
        "Preparing",
        "Queueing",
        "Processing",
        status("t1", "Success", file_id="f1"),
        file_id="f1",
    )
    seen = []
    for _ in range(4):
        task = await service.advance(task)
        seen.append(task.state)
    assert seen == [State.PREPARING, State.QUEUEING, State.PROCESSING, State.SUCCESS]
    out = await service.status(RID)
    assert out.kind is OutcomeKind.OK and exit_code(out) == 0
    [media] = out.task.media
    assert (media.content_type, media.width, media.height) == ("video/mp4", 64, 36)
    names = [e.event for e in await history(service)]
    assert names[-3:] == ["status", "downloaded", "verified"]


async def test_an_unchanged_word_writes_no_event(service, fake):
    task = await created(service, fake, "Processing")
    for _ in range(3):
        task = await service.advance(task)
    assert [e.event for e in await history(service)].count("status") == 1


@pytest.mark.parametrize("word", ["completed", "Failed", "success", "expired", ""])
async def test_a_word_off_the_whitelist_is_unknown_with_the_raw_answer(service, fake, word):
    task = await service.advance(await created(service, fake, word))
    assert task.state is State.UNKNOWN and task.error_code == "unknown_status"
    assert task.media == [] and fake.queries == 1
    last = (await history(service))[-1]
    assert last.event == "unknown" and last.data["raw"]["status"] == word
    # evidence arrives: a whitelisted word moves it on again (a recovery)
    fake.script_status("t1", "Processing")
    task = await service.advance(task)
    assert task.state is State.PROCESSING and task.error_code is None
    assert (await history(service))[-1].event == "recovered"


async def test_success_without_a_file_fails_and_offers_a_redownload(service, fake):
    # issue 24 point 1: the provider made (and billed) it; a fresh query may name the file
    task = await service.advance(
        await created(service, fake, status("t1", "Success"), status("t1", "Success", file_id="f1"))
    )
    fake.add_video_file("f1")
    out = await service.status(RID)
    assert task.state is State.FAIL and out.task.error.code == "no_media"
    assert out.task.allowed_actions == [Action.RECOVER, Action.NEW_SLOT] and exit_code(out) == 6
    again = await service.recover(RID, Redownload())
    assert again.task.state == State.SUCCESS and again.task.media


async def test_the_providers_failure_keeps_its_words(service, fake):
    fail = status("t1", "Fail", error_code=1027, error_message="input sensitive")
    task = await service.advance(await created(service, fake, fail))
    assert (task.state, task.error_code, task.error_message) == (
        State.FAIL,
        "1027",
        "input sensitive",
    )


async def test_a_failed_query_backs_off_and_notes_the_first_failure(service, fake):
    trouble = Ambiguous("video query: read timeout")
    task = await created(service, fake, trouble)
    before = time.time()
    for _ in range(3):
        task = await service.advance(task)
    assert task.state is State.PREPARING and task.poll_failures == 3
    assert task.next_poll_at > before
    assert [e.event for e in await history(service)].count("query_failed") == 1


async def test_downloads_that_keep_failing_end_in_fail_with_results_for_redownload(service, fake):
    task = await created(service, fake, status("t1", "Success", file_id="f1"))
    fake.add_video_file("f1", downloads=[403])
    task = await service.advance(task)
    out = await service.status(RID)
    assert task.state is State.FAIL and out.task.error.code == "verification_failed"
    assert "HTTP 403" in out.task.error.message and out.task.has_results
    assert out.task.allowed_actions == [Action.RECOVER, Action.NEW_SLOT]
    assert [e.event for e in await history(service)].count("verification_failed") == 2


async def test_wait_gives_up_as_still_running(service, fake):
    await created(service, fake, "Processing")
    # long enough for the first query to land on a machine with both cores busy (CI saw 0.2 s
    # end before it, the slot still "preparing"), short for a test
    out = await service.wait(RID, max_seconds=2.0)
    assert out.kind is OutcomeKind.OK and out.problem.code is ProblemCode.STILL_RUNNING
    assert exit_code(out) == 7 and out.task.state is State.PROCESSING


async def test_submit_and_wait_keeps_the_created_outcome(service, fake):
    fake.answer_create(VideoCreated("t1", {}))
    fake.script_status("t1", status("t1", "Success", file_id="f1"))
    fake.add_video_file("f1")
    out = await service.submit(RID, "video", VIDEO, wait=True, max_seconds=10)
    assert out.kind is OutcomeKind.CREATED and out.task.state is State.SUCCESS


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


async def test_a_submitting_record_of_a_gone_owner_turns_unknown_a_live_ones_never(service, fake):
    norm = normalize("video", VIDEO)

    def request(rid: str) -> ClaimRequest:
        return claim_request(
            service.ctx,
            service.ctx.slot(rid),
            "video",
            norm,
            fingerprint("video", norm),
            time.time(),
        )

    mine = await service.store.claim(request(RID))  # claimed, as a submit in flight leaves it
    assert mine.outcome is ClaimOutcome.CLAIMED
    assert await service.sweep_submitting() == []  # this process is alive: untouched
    gone = Owner(socket.gethostname(), dead_pid(), 1.0, boot_id(), pid_namespace())
    theirs = request(RID + ".t2")
    await service.store.claim(
        dataclasses.replace(theirs, build=lambda: dataclasses.replace(theirs.write, owner=gone))
    )
    swept = await service.sweep_submitting()
    assert [t.request_id for t in swept] == [RID + ".t2"]
    assert swept[0].state is State.UNKNOWN and swept[0].error_code == "unknown"
    assert (await service.status(RID)).task.state is State.SUBMITTING
    assert os.getpid() == mine.task.owner_pid
