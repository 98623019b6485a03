"""Recover rules, fast: which way each state offers, and that recover never creates."""

from __future__ import annotations

import pytest

from app.cli import exit_code
from app.domain.capabilities import Capabilities
from app.domain.states import Action, State
from app.providers.base import Ambiguous, ListedTask, Refused, VideoCreated
from app.service.recover import AttachTask, DeclareFailed, Lookup, Redownload
from app.service.results import OutcomeKind, ProblemCode
from tests.unit.fakes import FakeProvider, images, status

RID = "article:20260816:tide-eye:scene-02"
VIDEO = {"prompt": "tide eye, slow dolly in", "resolution": "768P"}


async def unknown_video(service, fake: FakeProvider):
    fake.answer_create(Ambiguous("video create: read timeout"))
    out = await service.submit(RID, "video", VIDEO)
    assert out.kind is OutcomeKind.UNKNOWN
    return out


def refused(out, why: str) -> None:
    assert out.kind is OutcomeKind.INVALID and exit_code(out) == 2
    assert out.problem.code is ProblemCode.NOT_ALLOWED and why in out.problem.message, out


async def test_attach_continues_from_the_found_task_and_never_creates(service, fake):
    await unknown_video(service, fake)
    fake.script_status("t9", "Processing", status("t9", "Success", file_id="f9"))
    fake.add_video_file("f9")
    out = await service.recover(RID, AttachTask(" t9 "))
    # confirmed by one query (Processing), then moved on by the next (Success, verified)
    assert out.kind is OutcomeKind.OK and out.task.provider_task_id == "t9"
    assert out.task.state is State.SUCCESS and out.task.media
    assert fake.queries == 2 and fake.creates == 1
    names = [e.event for e in (await service.history(RID)).payload.events]
    assert "recovered" in names


async def test_attach_of_a_task_the_provider_denies_changes_nothing(service, fake):
    await unknown_video(service, fake)
    out = await service.recover(RID, AttachTask("404"))  # no script: the fake refuses, 2013
    assert out.kind is OutcomeKind.UNKNOWN and out.problem.provider.code == 2013
    fake.script_status("t9", "expired")
    out = await service.recover(RID, AttachTask("t9"))
    assert out.kind is OutcomeKind.UNKNOWN and "'expired'" in out.problem.message
    assert (await service.status(RID)).task.provider_task_id is None


async def test_attach_checks_the_task_id_after_the_state_and_before_the_kind(service, fake):
    await unknown_video(service, fake)
    out = await service.recover(RID, AttachTask("not an id!"))
    assert out.kind is OutcomeKind.INVALID and out.problem.field == "task_id"


async def test_an_unknown_image_cannot_be_attached_at_minimax(service, fake):
    fake.answer_create(Ambiguous("image generation: read timeout"))
    await service.submit(RID, "image", {"prompt": "p"})
    refused(await service.recover(RID, AttachTask("123")), "cannot query image tasks")
    out = await service.recover(RID, AttachTask("bad id!"))
    assert out.problem.field == "task_id"  # the id is checked first, as before
    assert fake.queries == 0


async def test_lookup_needs_a_provider_that_lists(service, fake):
    await unknown_video(service, fake)
    refused(await service.recover(RID, Lookup()), "the fake provider cannot list tasks")


async def test_lookup_attaches_exactly_one_match(make_service):
    fake = FakeProvider(Capabilities(can_list_tasks=True))
    service = await make_service(fake)
    out = await unknown_video(service, fake)
    facts = {**VIDEO, "duration": 6}
    model = "MiniMax-Hailuo-2.3"
    fake.listed = [
        ListedTask("other", out.task.created_at, model, "Queueing", {**facts, "prompt": "other"})
    ]
    none = await service.recover(RID, Lookup())
    assert none.kind is OutcomeKind.UNKNOWN and "found no matching task" in none.problem.message
    fake.listed.append(ListedTask("t9", out.task.created_at + 1, model, "Queueing", facts))
    fake.script_status("t9", "Queueing")
    one = await service.recover(RID, Lookup())
    assert one.task.provider_task_id == "t9" and one.task.state is State.QUEUEING
    assert fake.creates == 1


async def test_declare_failed_needs_a_reason_and_is_kept_in_the_history(service, fake):
    await unknown_video(service, fake)
    blank = await service.recover(RID, DeclareFailed("  "))
    assert blank.kind is OutcomeKind.INVALID and blank.problem.field == "reason"
    out = await service.recover(RID, DeclareFailed("not in the console after 2 h"))
    assert out.task.state is State.FAIL and exit_code(out) == 6
    assert out.task.error.message == "declared failed by lin: not in the console after 2 h"
    assert out.task.allowed_actions == [Action.NEW_SLOT]
    last = (await service.history(RID)).payload.events[-1]
    assert last.event == "declared_failed" and last.data["note"].startswith("a charge may exist")


async def test_redownload_is_for_a_failed_task_with_results(service, fake):
    await unknown_video(service, fake)
    refused(
        await service.recover(RID, Redownload()), "redownload needs a failed task with results left"
    )


async def test_redownload_fetches_again_on_the_same_task(service, fake):
    fake.answer_create(VideoCreated("t1", {}))
    fake.script_status("t1", status("t1", "Success", file_id="f1"))
    fake.add_video_file("f1", downloads=[410])
    out = await service.submit(RID, "video", VIDEO, wait=True, max_seconds=10)
    assert out.task.state is State.FAIL and out.task.has_results
    fake.add_video_file("f1")  # a fresh link that works
    again = await service.recover(RID, Redownload())
    assert again.task.state is State.SUCCESS and again.task.media and fake.creates == 1


@pytest.mark.parametrize("state_of", ["success", "rejected", "processing"])
async def test_recover_is_not_offered_in_other_states(service, fake, state_of):
    if state_of == "success":
        fake.answer_create(images("https://img.test/1.png"))
        fake.add_image("https://img.test/1.png")  # a 16:9 image (fakes.image_bytes)
        await service.submit(RID, "image", {"prompt": "p", "aspect_ratio": "16:9"})
    elif state_of == "rejected":
        fake.answer_create(Refused("refused, code 1026", code=1026))
        await service.submit(RID, "image", {"prompt": "p"})
    else:
        fake.answer_create(VideoCreated("t1", {}))
        fake.script_status("t1", "Processing")
        await service.submit(RID, "video", VIDEO)
    for how in (AttachTask("1"), Lookup(), Redownload(), DeclareFailed("x")):
        refused(await service.recover(RID, how), "recover is not offered while the slot is")
    assert fake.creates == 1
