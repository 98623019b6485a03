"""Previews that say their price (issue 37), on both stores over loopback HTTP: a system
voice's preview is a short speech slot, priced before anything is paid, made and verified once;
the same voice and text again are ``replayed`` and the demo provider counts ONE speech call; a
different text is a second slot; a designed voice's preview is its trial recording, no call."""

from __future__ import annotations

import pytest

from app.domain import preview
from app.domain.errors import Rule
from app.domain.params_sound import DEFAULT_VOICE
from app.domain.states import State
from app.service.results import OutcomeKind
from tests.integration.test_voice import DESIGN, RID, creates

pytestmark = pytest.mark.timeout(180)

TEXT = preview.DEFAULT_TEXTS["en"]


async def test_a_preview_is_priced_first_then_made_verified_and_replayed(harness):
    h = harness
    quote = await h.service.preview_price(DEFAULT_VOICE)
    assert quote.kind is OutcomeKind.OK, quote.problem
    q = quote.payload
    assert not q.trial and not q.made and q.text == TEXT
    assert q.request_id == preview.request_id(DEFAULT_VOICE, TEXT)
    assert q.request_id.startswith("preview:voice:English_expressive_narrator:")
    # per character: the text's code points × HD's price, unrounded, never 0
    assert q.cost.cost.estimate is not None and q.cost.cost.estimate > 0
    assert creates(h.sim, TEXT) == 0  # the price asked nothing of the provider

    out = await h.service.preview_voice(DEFAULT_VOICE)
    assert out.kind is OutcomeKind.CREATED, out.problem
    task = out.task
    assert out.request_id == q.request_id and task.kind == "speech"
    assert task.state is State.SUCCESS, task.error
    [m] = task.media
    assert m.content_type == "audio/mpeg" and m.duration and m.duration > 0
    assert task.cost.estimate == q.cost.cost.estimate

    again = await h.service.preview_voice(DEFAULT_VOICE, TEXT)
    assert again.kind is OutcomeKind.REPLAYED and again.request_id == q.request_id
    assert again.task.state is State.SUCCESS and again.task.media
    assert creates(h.sim, TEXT) == 1  # one speech call for two previews
    assert (await h.service.preview_price(DEFAULT_VOICE)).payload.made  # free to hear again
    spent = (await h.service.spend()).payload.spend.total
    assert spent.estimate == q.cost.cost.estimate  # counted once


async def test_another_text_is_another_slot(harness):
    h = harness
    first = await h.service.preview_voice(DEFAULT_VOICE, "One line to hear.")
    second = await h.service.preview_voice(DEFAULT_VOICE, "Another line to hear.")
    assert first.kind is OutcomeKind.CREATED and second.kind is OutcomeKind.CREATED
    assert first.request_id != second.request_id
    assert creates(h.sim, "One line to hear.") == 1 and creates(h.sim, "Another line to hear.") == 1
    other_model = await h.service.preview_price(
        DEFAULT_VOICE, "One line to hear.", model="speech-2.8-turbo"
    )
    assert other_model.payload.request_id != first.request_id and not other_model.payload.made


async def test_a_designed_voice_is_heard_by_its_trial_recording(harness):
    h = harness
    designed = await h.service.submit(RID, "voice", DESIGN)
    assert designed.task.state is State.SUCCESS
    vid = designed.task.voice_id
    before = h.sim.stats()["creates_total"]
    quote = await h.service.preview_price(vid)
    assert quote.payload.trial and quote.payload.cost is None and quote.payload.request_id == RID
    out = await h.service.preview_voice(vid)
    assert out.kind is OutcomeKind.REPLAYED and out.request_id == RID
    assert out.task.kind == "voice" and out.task.media[0].content_type == "audio/mpeg"
    assert h.sim.stats()["creates_total"] == before  # nothing sent
    assert (await h.service.status(preview.request_id(vid, TEXT))).kind is OutcomeKind.NOT_FOUND


async def test_a_preview_names_its_voice_and_text_before_anything_is_sent(harness):
    h = harness
    blank = await h.service.preview_voice("")
    assert blank.kind is OutcomeKind.INVALID and blank.problem.field == "voice"
    empty = await h.service.preview_voice(DEFAULT_VOICE, "   ")
    assert empty.kind is OutcomeKind.INVALID and empty.problem.field == "text"
    assert not h.sim.stats()["creates_by_prompt"]


async def test_a_kind_slate_does_not_make_is_refused_naming_voice_too(harness):
    h = harness
    for out in (
        await h.service.submit("article:20261202:tide-eye:x-01", "sound", {"text": "Hi"}),
        h.service.estimate("sound", {"text": "Hi"}),
    ):
        assert out.kind is OutcomeKind.INVALID and out.problem.field == "kind", out.problem
        assert out.problem.rule is Rule.NOT_OFFERED and "voice" in out.problem.message


def test_the_command_line_previews_a_voice(slate):
    out = slate("voice", "preview", "--voice", DEFAULT_VOICE, "--text", "Hear me once.")
    assert out.code == 0 and out.out["outcome"] == "created", out.out
    assert out.out["request_id"] == preview.request_id(DEFAULT_VOICE, "Hear me once.")
    assert out.out["task"]["kind"] == "speech" and out.out["task"]["state"] == "success"
    again = slate("voice", "preview", "--voice", DEFAULT_VOICE, "--text", "Hear me once.")
    assert again.code == 0 and again.out["outcome"] == "replayed"
    bad = slate("voice", "preview")
    assert bad.code == 2 and bad.out["error"]["field"] == "voice"
