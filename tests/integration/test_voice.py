"""Voice design through the service, against the demo provider over loopback, on both stores
(SQLite file and PostgreSQL): a voice designed once, its trial recording verified (PyAV) and
replayed; drift is a conflict; a lost answer is ``unknown`` and ``recover --lookup`` settles it
by the slot's own voice id in ``get_voice``; a voice that was never made stays unknown with the
evidence; MiniMax's 2039 ("duplicate voice id") to a second create of the same slot is evidence,
never a failure; MiniMax's 1027 (the output judged sensitive) is a definitive refusal,
``rejected`` and never ``unknown``; bad fields are named before anything is sent."""

from __future__ import annotations

import pytest

from app.domain.errors import FailReason
from app.domain.params_voice import is_valid_voice_id, voice_id_for
from app.domain.slots import SlotRef
from app.domain.states import Action, State
from app.service.commands import DeclareFailed, Lookup
from app.service.results import OutcomeKind
from app.service.slate import SlateService
from app.sim import SimServer
from app.store.aio import open_store
from tests.support.fixtures import SECRET, make_config, sqlite_url

pytestmark = pytest.mark.timeout(180)

RID = "voice:20261202:tide-eye:narrator-01"
DESIGN = {
    "prompt": "A calm, low narrator of sea stories, unhurried, warm.",
    "preview_text": "The tide eye opens at dusk.",
}


def creates(sim: SimServer, prompt: str) -> int:
    return int(sim.stats()["creates_by_prompt"].get(prompt, 0))


def made(sim: SimServer, prompt: str) -> int:
    return int(sim.stats()["made_by_prompt"].get(prompt, 0))


def own_id(tenant: str = "studio-a", user: str = "lin", rid: str = RID) -> str:
    return voice_id_for(SlotRef.parse(tenant, user, rid).key("voice"))


async def test_a_voice_is_designed_verified_and_replayed(harness):
    h = harness
    out = await h.service.submit(RID, "voice", DESIGN)
    assert out.kind is OutcomeKind.CREATED, out.problem
    task = out.task
    assert task.state is State.SUCCESS, task.error
    [m] = task.media
    assert m.content_type == "audio/mpeg" and m.duration and m.duration > 0
    assert task.voice_id == own_id() and is_valid_voice_id(task.voice_id)
    assert RID not in task.voice_id
    assert task.provider_task_id is None
    # unknown price: never 0
    assert task.cost.estimate is None and "voice-design 1 voice: price unknown" in task.cost.basis
    again = await h.service.design_voice(RID, DESIGN["prompt"], DESIGN["preview_text"])
    assert again.kind is OutcomeKind.REPLAYED and again.task.state is State.SUCCESS
    assert creates(h.sim, DESIGN["prompt"]) == 1 and made(h.sim, DESIGN["prompt"]) == 1
    listed = (await h.service.voice_list("designed")).payload.voices
    [mine] = [v for v in listed if v.voice_id == task.voice_id]
    assert mine.kind == "designed" and mine.request_id == RID and mine.made is not None
    assert mine.last_used is None and mine.deleted_after is not None


async def test_drift_is_a_conflict_sending_nothing(harness):
    h = harness
    assert (await h.service.submit(RID, "voice", DESIGN)).kind is OutcomeKind.CREATED
    drift = await h.service.submit(RID, "voice", {**DESIGN, "preview_text": "Dusk."})
    assert drift.kind is OutcomeKind.CONFLICT
    assert "preview_text" in drift.problem.diff
    other = await h.service.submit(RID, "music", {"prompt": "lofi", "instrumental": True})
    assert other.kind is OutcomeKind.CONFLICT
    assert creates(h.sim, DESIGN["prompt"]) == 1


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"prompt": "", "preview_text": "Hello there."}, "prompt"),
        ({"prompt": "warm", "preview_text": "   "}, "preview_text"),
        ({"prompt": "warm", "preview_text": "x" * 501}, "preview_text"),
        ({"prompt": "warm", "preview_text": "Hello.", "voice_id": "mine12345"}, "voice_id"),
    ],
)
async def test_bad_fields_are_named_before_anything_is_sent(harness, params, field):
    h = harness
    out = await h.service.submit(RID, "voice", params)
    assert out.kind is OutcomeKind.INVALID and out.problem.field == field, out.problem
    assert not h.sim.stats()["creates_by_prompt"]  # nothing reached the provider
    assert (await h.service.status(RID)).kind is OutcomeKind.NOT_FOUND


async def test_a_lost_answer_is_unknown_then_attached_by_the_voice_id(harness):
    h = harness
    h.sim.set_faults(lose_create_response=1)
    out = await h.service.submit(RID, "voice", DESIGN)
    assert out.kind is OutcomeKind.UNKNOWN
    assert made(h.sim, DESIGN["prompt"]) == 1
    assert out.task.allowed_actions == [Action.RECOVER]  # no query: nothing to ask
    again = await h.service.submit(RID, "voice", DESIGN)
    assert again.kind is OutcomeKind.UNKNOWN
    found = await h.service.recover(RID, Lookup())
    assert found.task.state is State.SUCCESS, found.problem
    assert found.task.media == [] and found.task.voice_id == own_id()
    events = (await h.service.history(RID)).payload.events
    [rec] = [e for e in events if e.event == "recovered"]
    assert "trial recording is gone" in rec.detail
    assert rec.data["lookup"]["listed"] is True
    assert creates(h.sim, DESIGN["prompt"]) == 1  # recover never creates


async def test_a_voice_never_made_stays_unknown_with_the_evidence(harness):
    h = harness
    h.sim.set_faults(server_error_creates=1)  # a 5xx before anything is made: ambiguous
    out = await h.service.submit(RID, "voice", DESIGN)
    assert out.kind is OutcomeKind.UNKNOWN
    assert made(h.sim, DESIGN["prompt"]) == 0
    look = await h.service.recover(RID, Lookup())
    assert look.kind is OutcomeKind.UNKNOWN and look.task.state is State.UNKNOWN
    events = (await h.service.history(RID)).payload.events
    [seen] = [e for e in events if e.event == "lookup"]
    assert seen.data["lookup"]["listed"] is False
    assert seen.data["unchanged"] == "lookup_nothing"  # typed, as recover's lookup writes it
    assert seen.data["lookup"]["voice_id"] == own_id()
    declared = await h.service.recover(RID, DeclareFailed("get_voice does not list it"))
    assert declared.task.state is State.FAIL


async def test_1027_sensitive_output_is_a_definitive_refusal(harness):
    """MiniMax answers 1027 when its safety filter judges the output sensitive: the request was
    refused, nothing usable made and nothing billed (MINIMAX_API.md "Errors in V1") — so the
    slot is ``rejected`` with the typed reason, not ``unknown``, and a create may follow."""
    h = harness
    h.sim.set_faults(create_error=1, create_error_code=1027)
    out = await h.service.submit(RID, "voice", DESIGN)
    assert out.kind is OutcomeKind.REJECTED, out.problem
    assert out.problem.reason is FailReason.SENSITIVE_OUTPUT
    task = out.task
    assert task.state is State.REJECTED and task.media == []
    assert task.error.code == "1027" and task.error.reason is FailReason.SENSITIVE_OUTPUT
    assert creates(h.sim, DESIGN["prompt"]) == 1 and made(h.sim, DESIGN["prompt"]) == 0
    events = (await h.service.history(RID)).payload.events
    [rejected] = [e for e in events if e.event == "rejected"]
    assert rejected.data["reason"] == "sensitive_output" and rejected.data["code"] == 1027
    total = (await h.service.spend()).payload.spend.total
    assert total.estimate == 0 and total.unknown_slots == 0  # refused: never charged
    again = await h.service.submit(RID, "voice", DESIGN)  # the fault is spent: made this time
    assert again.kind is OutcomeKind.CREATED and again.task.state is State.SUCCESS, again.problem
    assert made(h.sim, DESIGN["prompt"]) == 1


async def test_2039_on_a_second_create_of_the_slot_is_evidence_not_failure(harness, tmp_path):
    """The same tenant, user and RequestId on another store (another machine): the same voice
    id, so MiniMax answers 2039 — the slot owns the voice, without its trial recording."""
    h = harness
    first = await h.service.submit(RID, "voice", DESIGN)
    assert first.task.state is State.SUCCESS
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    url = sqlite_url(other_dir)
    store = open_store(url)
    svc = SlateService(make_config(other_dir, url), store, h.provider, SECRET)
    try:
        second = await svc.submit(RID, "voice", DESIGN)
        assert second.kind is OutcomeKind.CREATED, second.problem
        assert second.task.state is State.SUCCESS and second.task.error is None
        assert second.task.media == [] and second.task.voice_id == first.task.voice_id
        events = (await svc.history(RID)).payload.events
        assert any(e.event == "voice_owned" and "2039" in e.detail for e in events)
    finally:
        await svc.aclose()
        store.close()
    assert creates(h.sim, DESIGN["prompt"]) == 2 and made(h.sim, DESIGN["prompt"]) == 1


async def test_the_quota_of_voices(harness):
    h = harness
    limited = h.other(quota_voice=0)
    out = await limited.submit(RID, "voice", DESIGN)
    assert out.kind is OutcomeKind.QUOTA_EXCEEDED
    assert creates(h.sim, DESIGN["prompt"]) == 0


def test_the_command_line_designs_and_lists_voices(slate):
    out = slate(
        "voice", "design", "--request-id", RID, "--prompt", DESIGN["prompt"],
        "--preview-text", DESIGN["preview_text"],
    )  # fmt: skip
    assert out.code == 0 and out.out["outcome"] == "created", out.out
    task = out.out["task"]
    assert task["kind"] == "voice" and task["state"] == "success"
    assert task["voice_id"] == own_id() and task["media"][0]["content_type"] == "audio/mpeg"
    again = slate(
        "voice", "design", "--request-id", RID, "--prompt", DESIGN["prompt"],
        "--preview-text", DESIGN["preview_text"],
    )  # fmt: skip
    assert again.code == 0 and again.out["outcome"] == "replayed"
    drift = slate(
        "voice", "design", "--request-id", RID, "--prompt", DESIGN["prompt"],
        "--preview-text", "Dusk.",
    )  # fmt: skip
    assert drift.code == 3 and drift.out["outcome"] == "conflict"
    bad = slate("voice", "design", "--request-id", RID + ".b", "--prompt", "warm")
    assert bad.code == 2 and bad.out["error"]["field"] == "preview_text"
    listed = slate("voice", "list", "--type", "designed")
    assert listed.code == 0, listed.out
    [mine] = [v for v in listed.out["voices"] if v["voice_id"] == own_id()]
    assert set(mine) == {"voice_id", "kind", "made", "last_used", "deleted_after", "request_id"}
    assert mine["kind"] == "designed" and mine["request_id"] == RID
    assert len(mine["made"]) == 10 and mine["last_used"] is None
    system = slate("voice", "list", "--type", "system")
    assert all(v["kind"] == "system" and v["deleted_after"] is None for v in system.out["voices"])
