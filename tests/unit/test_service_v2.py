"""V2 submit, lookup and cancel rules, fast: the service on a real SQLite file and a scripted
provider with V2's capabilities (list, cancel, upload)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.cli import exit_code
from app.domain.capabilities import Capabilities
from app.domain.states import State
from app.providers.base import Ambiguous, ListedTask, Refused, Uploaded, VideoCreated
from app.service.commands import Lookup
from app.service.results import OutcomeKind
from app.service.lease import lease_seconds
from tests.support.sim_media import image_bytes, video_bytes
from tests.unit.fakes import FakeProvider

RID = "article:20261201:tide-eye:scene-01"
H3 = {"model": "MiniMax-H3", "prompt": "tide eye", "duration": 4}
V2_CAPS = Capabilities(can_list_tasks=True, can_cancel=True, can_upload=True)


@pytest.fixture
def fake() -> FakeProvider:
    return FakeProvider(V2_CAPS)


async def test_local_inputs_travel_inline_or_uploaded_while_the_record_is_held_under_its_lease(
    service, fake, tmp_path: Path
):
    frame = tmp_path / "frame.png"
    frame.write_bytes(image_bytes(640, 480))
    clip = tmp_path / "clip.mp4"
    clip.write_bytes(video_bytes(3.0))
    seen: list[float | None] = []
    upload = fake.upload_file

    async def watched(data: bytes, filename: str) -> Uploaded:
        row = await service.ctx.load(RID)
        assert row is not None and row.state is State.SUBMITTING
        seen.append(row.lease_until - row.created_at if row.lease_until else None)
        return await upload(data, filename)

    fake.upload_file = watched  # type: ignore[method-assign]
    fake.answer_create(VideoCreated("t1", {"task_id": "t1"}))
    before = time.time()
    out = await service.submit(
        RID,
        "video",
        {
            **H3,
            "ratio": "adaptive",
            "reference_image": [str(frame)],
            "reference_video": [str(clip)],
        },
    )
    assert out.kind is OutcomeKind.CREATED and out.task.state is State.QUEUEING
    assert fake.uploads == [("clip.mp4", clip.stat().st_size)]  # the image went inline
    lease = lease_seconds(service.ctx)  # renewed while the uploads run (app.service.lease)
    assert seen and seen[0] == pytest.approx(lease, abs=time.time() - before + 0.01)
    [body] = fake.bodies
    assert [c["type"] for c in body["content"]] == ["text", "image_url", "video_url"]
    assert body["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert body["content"][2] == {
        "type": "video_url",
        "video_url": {"url": "mm_file://1"},
        "role": "reference_video",
    }
    assert "prompt" not in body and body["ratio"] == "adaptive"


async def test_an_upload_refused_is_a_rejection_and_nothing_is_created(service, fake, tmp_path):
    clip = tmp_path / "clip.mp4"
    clip.write_bytes(video_bytes(3.0))

    async def refuse(data: bytes, filename: str) -> Uploaded:
        raise Refused("upload: refused, code 2013 (bad file)", code=2013)

    fake.upload_file = refuse  # type: ignore[method-assign]
    out = await service.submit(
        RID, "video", {**H3, "ratio": "adaptive", "reference_video": [str(clip)]}
    )
    assert out.kind is OutcomeKind.REJECTED and fake.creates == 0
    assert out.task.error.code == "2013"


async def unknown_h3(service, fake) -> None:
    fake.answer_create(Ambiguous("video create: read timeout"))
    out = await service.submit(RID, "video", H3)
    assert out.kind is OutcomeKind.UNKNOWN


def listed(tid: str, at: float, **facts: object) -> ListedTask:
    base = {"duration": 4, "resolution": "768P", "ratio": "16:9", "task_type": "generation"}
    base.update(facts)
    return ListedTask(tid, at, "MiniMax-H3", "queued", base)


async def test_the_lookup_window_ends_60_s_after_the_creates_timeout(service, fake):
    await unknown_h3(service, fake)
    row = await service.ctx.load(RID)
    unknown = [e for e in (await service.history(RID)).payload.events if e.event == "unknown"]
    sent_at, timeout = unknown[-1].data["sent_at"], unknown[-1].data["timeout"]
    assert timeout == service.config.timeout
    end = sent_at + timeout + 60
    fake.listed = [
        listed("before", row.created_at - 11),
        listed("late", end + 1.5),
        listed("edge", end),
    ]
    fake.script_status("edge", "queued")
    looked = await service.look(RID)
    assert (
        looked.payload.window_start == int(row.created_at - 10)
        or looked.payload.window_start == int(row.created_at - 10) - 1
    )
    assert [c.task_id for c in looked.payload.candidates] == ["edge"]
    assert (await service.status(RID)).task.state is State.UNKNOWN  # look changes nothing
    out = await service.recover(RID, Lookup())
    assert out.task.provider_task_id == "edge" and out.payload.attached == "edge"


async def test_a_lookup_the_list_cannot_answer_changes_nothing(service, fake):
    await unknown_h3(service, fake)

    async def broken(since: float, until: float, model: str | None = None) -> list[ListedTask]:
        raise Ambiguous("task list: HTTP 500")

    fake.list_tasks = broken  # type: ignore[method-assign]
    out = await service.recover(RID, Lookup())
    assert out.kind is OutcomeKind.UNKNOWN and exit_code(out) == 4
    assert "did not answer" in out.problem.message
    assert out.task.state is State.UNKNOWN and out.task.provider_task_id is None


async def queued(service, fake) -> None:
    fake.answer_create(VideoCreated("t1", {"task_id": "t1"}))
    fake.script_status("t1", "queued")
    await service.submit(RID, "video", H3)


async def test_a_cancel_whose_answer_is_lost_is_unknown_and_the_slot_stays_queued(service, fake):
    await queued(service, fake)
    fake.cancel_answers = [Ambiguous("cancel: read timeout")]
    out = await service.cancel(RID)
    assert out.kind is OutcomeKind.UNKNOWN and exit_code(out) == 4
    assert out.task.state is State.QUEUEING and fake.cancels == ["t1"]
    fake.script_status("t1", "cancelled")  # it went through after all
    assert (await service.query(RID)).task.state is State.CANCELLED


async def test_a_cancel_the_provider_refuses_changes_nothing(service, fake):
    await queued(service, fake)
    fake.cancel_answers = [Refused("cancel: refused (HTTP 400: task is running (2013))", code=2013)]
    out = await service.cancel(RID)
    assert out.kind is OutcomeKind.INVALID and "refused to cancel" in out.problem.message
    assert out.task.state is State.QUEUEING


async def test_a_delete_that_deleted_is_never_taken_for_a_cancel(service, fake):
    await queued(service, fake)
    fake.cancel_answers = ["deleted"]
    out = await service.cancel(RID)
    assert out.kind is OutcomeKind.UNKNOWN and out.task.state is State.QUEUEING
    assert "deleted" in [e.event for e in (await service.history(RID)).payload.events]


async def test_cancel_asks_first_and_a_failed_query_sends_nothing(service, fake):
    await queued(service, fake)
    fake.script_status("t1", Ambiguous("video query: read timeout"))
    out = await service.cancel(RID)
    assert out.kind is OutcomeKind.UNKNOWN and fake.cancels == []
    fake.script_status("t1", Refused("video query: refused (HTTP 401)", code=1004))
    out = await service.cancel(RID)
    assert out.kind is OutcomeKind.REJECTED and fake.cancels == []
