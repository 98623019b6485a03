"""Submit rules, fast: the service on a real SQLite file and a scripted in-memory provider."""

from __future__ import annotations

import pytest

from app.cli import exit_code
from app.domain.states import Action, State
from app.providers.base import Ambiguous, Refused, VideoCreated
from app.service.results import OutcomeKind, ProblemCode
from tests.unit.fakes import FakeProvider, images

RID = "article:20260816:tide-eye:scene-02"
VIDEO = {"prompt": "tide eye, slow dolly in", "resolution": "768P"}
IMAGE = {"prompt": "a lighthouse", "aspect_ratio": "16:9"}


def created(task_id: str = "t1") -> VideoCreated:
    return VideoCreated(task_id, {"task_id": task_id})


async def events(service, rid: str = RID) -> list[str]:
    return [e.event for e in (await service.history(rid)).payload.events]


async def test_a_fresh_slot_is_created_once_and_replayed_after(service, fake: FakeProvider):
    fake.answer_create(created())
    first = await service.submit(RID, "video", VIDEO)
    assert first.kind is OutcomeKind.CREATED and first.task.state is State.PREPARING
    assert first.task.provider_task_id == "t1" and fake.creates == 1
    again = await service.submit(RID, "video", {**VIDEO, "model": "MiniMax-Hailuo-2.3"})
    assert again.kind is OutcomeKind.REPLAYED and again.task.id == first.task.id
    assert fake.creates == 1  # answered from the record
    assert await events(service) == ["submitted", "create_sent", "created", "replayed"]


async def test_other_parameters_are_a_conflict_with_a_diff_and_a_suggestion(service, fake):
    fake.answer_create(created())
    await service.submit(RID, "video", VIDEO)
    out = await service.submit(RID, "video", {**VIDEO, "prompt": VIDEO["prompt"] + " "})
    assert out.kind is OutcomeKind.CONFLICT and exit_code(out) == 3
    assert out.problem.diff == {
        "prompt": {"stored": VIDEO["prompt"], "attempted": VIDEO["prompt"] + " "}
    }
    assert out.problem.suggested_request_id == RID + ".t2"
    assert out.task.state is State.PREPARING and fake.creates == 1
    assert (await events(service))[-1] == "conflict"


async def test_another_kind_for_a_used_request_id_is_a_conflict(service, fake):
    fake.answer_create(images("https://img.test/1.png"))
    fake.add_image("https://img.test/1.png")
    await service.submit(RID, "image", IMAGE)
    out = await service.submit(RID, "video", VIDEO)
    assert out.kind is OutcomeKind.CONFLICT
    assert out.problem.diff == {"kind": {"stored": "image", "attempted": "video"}}
    assert fake.creates == 1


async def test_a_definitive_refusal_is_rejected_and_the_same_slot_is_created_again(service, fake):
    fake.answer_create(Refused("video create: refused, code 1008", code=1008), created())
    out = await service.submit(RID, "video", VIDEO)
    assert out.kind is OutcomeKind.REJECTED and exit_code(out) == 6
    assert out.problem.provider.code == 1008
    assert out.task.state is State.REJECTED and out.task.error.code == "1008"
    assert out.task.allowed_actions == [Action.CREATE, Action.NEW_SLOT]
    again = await service.submit(RID, "video", VIDEO)
    assert again.kind is OutcomeKind.CREATED and again.task.id == out.task.id
    assert fake.creates == 2
    assert await events(service) == [
        "submitted",
        "create_sent",
        "rejected",
        "submitted",
        "create_sent",
        "created",
    ]


async def test_a_rejected_slot_asked_with_other_parameters_is_a_conflict(service, fake):
    fake.answer_create(Refused("video create: refused, code 1026", code=1026))
    await service.submit(RID, "video", VIDEO)
    out = await service.submit(RID, "video", {**VIDEO, "prompt": "softened prompt"})
    assert out.kind is OutcomeKind.CONFLICT and out.task.state is State.REJECTED
    assert fake.creates == 1  # only the same intent may be created again


async def test_a_request_that_never_left_is_rejected_without_a_provider_code(service, fake):
    fake.answer_create(Refused("video create: connect error", never_sent=True))
    out = await service.submit(RID, "video", VIDEO)
    assert out.kind is OutcomeKind.REJECTED and out.task.error.code == "never_sent"
    assert out.problem.provider.code is None  # said, and said to be none


async def test_rate_limits_are_retried_then_created_once(service, fake):
    limited = Refused("rate limit", code=1002, retry_after=0.01)
    fake.answer_create(limited, limited, created())
    out = await service.submit(RID, "video", VIDEO)
    assert out.kind is OutcomeKind.CREATED and fake.creates == 3
    assert (await events(service)).count("rate_limited") == 2


async def test_rate_limits_past_the_retries_are_rejected(service, fake):
    limited = Refused("rate limit", code=1002, retry_after=0.01)
    fake.answer_create(limited, limited, limited, limited)
    out = await service.submit(RID, "video", VIDEO)
    assert out.kind is OutcomeKind.REJECTED and out.task.error.code == "1002"
    assert fake.creates == 4  # the first send and three retries
    assert (await events(service)).count("rate_limited") == 3


@pytest.mark.parametrize(
    "trouble", [Ambiguous("video create: read timeout"), RuntimeError("a bug after the send")]
)
async def test_anything_unclear_after_the_send_is_unknown_and_never_sent_again(
    service, fake, trouble
):
    fake.answer_create(trouble)
    out = await service.submit(RID, "video", VIDEO)
    assert out.kind is OutcomeKind.UNKNOWN and exit_code(out) == 4
    assert out.task.state is State.UNKNOWN and out.task.provider_task_id is None
    assert out.task.allowed_actions == [Action.RECOVER]  # no task id: nothing to query
    again = await service.submit(RID, "video", VIDEO)
    assert again.kind is OutcomeKind.UNKNOWN and fake.creates == 1


async def test_bad_input_names_the_field_and_nothing_is_stored_or_sent(service, fake):
    for rid, kind, params, field in [
        ("short", "video", VIDEO, "request_id"),
        (RID, "sound", VIDEO, "kind"),
        (RID, "video", {**VIDEO, "duration": 10, "resolution": "1080P"}, "resolution"),
        (RID, "image", {"prompt": "p", "n": 12}, "n"),
    ]:
        out = await service.submit(rid, kind, params)
        assert out.kind is OutcomeKind.INVALID and out.problem.field == field, out
    assert fake.creates == 0
    assert (await service.status(RID)).kind is OutcomeKind.NOT_FOUND


async def test_quota_refuses_before_anything_is_stored_or_sent(make_service, fake):
    service = await make_service(quota_image=2)
    out = await service.submit(RID, "image", {**IMAGE, "n": 3})
    assert out.kind is OutcomeKind.QUOTA_EXCEEDED and exit_code(out) == 5
    assert out.problem.code is ProblemCode.QUOTA_EXCEEDED and "0 of 2" in out.problem.message
    assert fake.creates == 0
    assert (await service.status(RID)).kind is OutcomeKind.NOT_FOUND
    assert await events(service) == ["quota_refused"]


async def test_images_answered_are_verified_at_once(service, fake):
    fake.answer_create(images("https://img.test/1.png", "https://img.test/2.png"))
    fake.add_image("https://img.test/1.png")
    fake.add_image("https://img.test/2.png")
    out = await service.submit(RID, "image", {**IMAGE, "n": 2})
    assert out.kind is OutcomeKind.CREATED and out.task.state is State.SUCCESS
    assert [m.content_type for m in out.task.media] == ["image/png", "image/png"]
    assert out.task.allowed_actions == [Action.EXPORT, Action.OPEN, Action.NEW_SLOT]


async def test_an_image_answer_without_images_is_a_failure(service, fake):
    fake.answer_create(images())
    out = await service.submit(RID, "image", IMAGE)
    assert out.kind is OutcomeKind.CREATED and exit_code(out) == 6
    assert out.task.state is State.FAIL and out.task.error.code == "no_media"
    assert out.task.allowed_actions == [Action.NEW_SLOT]


async def test_a_replay_of_a_failed_slot_exits_6_but_its_history_exits_0(service, fake):
    fake.answer_create(images())
    await service.submit(RID, "image", IMAGE)
    replay = await service.submit(RID, "image", IMAGE)
    assert replay.kind is OutcomeKind.REPLAYED and exit_code(replay) == 6
    hist = await service.history(RID)
    assert hist.kind is OutcomeKind.OK and hist.task.state is State.FAIL and exit_code(hist) == 0


async def test_another_user_has_another_slot(make_service, fake):
    lin, mei = await make_service(), await make_service(user="mei")
    fake.answer_create(created("t1"), created("t2"))
    assert (await lin.submit(RID, "video", VIDEO)).kind is OutcomeKind.CREATED
    assert (await mei.status(RID)).kind is OutcomeKind.NOT_FOUND
    assert (await mei.submit(RID, "video", {"prompt": "other"})).kind is OutcomeKind.CREATED
    assert fake.creates == 2
