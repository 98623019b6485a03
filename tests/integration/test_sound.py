"""Music and speech through the service, against the demo provider over loopback, on both stores
(SQLite file and PostgreSQL): a song and a voice line created once, verified (PyAV) and
replayed; drift is a conflict; one RequestId across kinds is a conflict; a lost music answer is
``unknown`` for good (no query, no attach, no lookup, declare-failed only, resubmit sends
nothing); long speech goes asynchronous and is fetched when the task succeeds; undecodable or
too-short sound is never ``success``; the price per character and per song from the table."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.domain.states import Action, State
from app.service.commands import AttachTask, DeclareFailed, Lookup
from app.service.results import OutcomeKind
from app.sim import SimServer, sound

pytestmark = pytest.mark.timeout(180)

SONG = "article:20261202:tide-eye:song-01"
LINE = "article:20261202:tide-eye:voice-01"
LONG = "article:20261202:tide-eye:voice-02"
MUSIC = {"prompt": "lofi piano, rain, calm", "instrumental": True}
SPEECH = {"text": "The tide eye opens at dusk.", "voice": "English_expressive_narrator"}


def creates(sim: SimServer, prompt: str) -> int:
    return int(sim.stats()["creates_by_prompt"].get(prompt, 0))


def made(sim: SimServer, prompt: str) -> int:
    return int(sim.stats()["made_by_prompt"].get(prompt, 0))


async def test_a_song_is_created_once_verified_and_replayed(harness):
    h = harness
    out = await h.service.submit(SONG, "music", MUSIC)
    assert out.kind is OutcomeKind.CREATED, out.problem
    task = out.task
    assert task.state is State.SUCCESS, task.error
    [m] = task.media
    assert m.content_type == "audio/mpeg"
    assert m.duration == pytest.approx(4.0, abs=0.5)
    assert task.params["format"] == "mp3" and task.params["sample_rate"] == 44100
    assert task.provider_task_id is None  # music has no task id
    again = await h.service.submit(SONG, "music", MUSIC)
    assert again.kind is OutcomeKind.REPLAYED
    assert again.task.state is State.SUCCESS
    assert creates(h.sim, MUSIC["prompt"]) == 1 and made(h.sim, MUSIC["prompt"]) == 1
    # the price of a song is unknown in the shipped table: never 0
    assert task.cost.estimate is None and "unknown" in task.cost.basis


async def test_a_voice_line_is_verified_as_asked_and_priced_per_character(harness):
    h = harness
    asked = {**SPEECH, "format": "wav", "sample_rate": 16000, "channels": 2}
    out = await h.service.submit(LINE, "speech", asked)
    assert out.kind is OutcomeKind.CREATED, out.problem
    task = out.task
    assert task.state is State.SUCCESS, task.error
    [m] = task.media
    assert m.content_type == "audio/wav"
    assert m.duration and m.duration > 0
    chars = len(SPEECH["text"])
    assert task.cost.estimate == Decimal(chars) * Decimal(100) / Decimal(1_000_000)
    assert task.cost.reported == task.cost.estimate  # usage_characters as sent
    assert "secondary sources" in task.cost.basis
    replay = await h.service.submit(LINE, "speech", asked)
    assert replay.kind is OutcomeKind.REPLAYED
    assert creates(h.sim, SPEECH["text"]) == 1


async def test_parameter_drift_and_another_kind_are_conflicts_sending_nothing(harness):
    h = harness
    assert (await h.service.submit(SONG, "music", MUSIC)).kind is OutcomeKind.CREATED
    drift = await h.service.submit(SONG, "music", {**MUSIC, "format": "wav"})
    assert drift.kind is OutcomeKind.CONFLICT
    assert "format" in drift.problem.diff
    other_kind = await h.service.submit(SONG, "speech", SPEECH)
    assert other_kind.kind is OutcomeKind.CONFLICT
    assert other_kind.problem.diff == {"kind": {"stored": "music", "attempted": "speech"}}
    image = await h.service.submit(SONG, "image", {"prompt": "lofi piano"})
    assert image.kind is OutcomeKind.CONFLICT
    assert creates(h.sim, MUSIC["prompt"]) == 1 and creates(h.sim, SPEECH["text"]) == 0


async def test_a_lost_music_answer_is_unknown_for_good_and_only_declare_failed(harness):
    h = harness
    h.sim.set_faults(lose_create_response=1)
    out = await h.service.submit(SONG, "music", MUSIC)
    assert out.kind is OutcomeKind.UNKNOWN
    assert made(h.sim, MUSIC["prompt"]) == 1  # the song was made (and may be billed)
    task = out.task
    assert task.state is State.UNKNOWN
    assert task.allowed_actions == [Action.RECOVER]  # no query: nothing to ask
    again = await h.service.submit(SONG, "music", MUSIC)
    assert again.kind is OutcomeKind.UNKNOWN
    q = await h.service.query(SONG)
    assert q.kind is OutcomeKind.INVALID and "no task id" in q.problem.message
    attach = await h.service.recover(SONG, AttachTask("12345"))
    assert attach.kind is OutcomeKind.INVALID and "no task id" in attach.problem.message
    look = await h.service.recover(SONG, Lookup())
    assert look.kind is OutcomeKind.INVALID
    assert creates(h.sim, MUSIC["prompt"]) == 1  # nothing above called create again
    declared = await h.service.recover(SONG, DeclareFailed("checked the console: not there"))
    assert declared.task.state is State.FAIL
    assert declared.task.error.code == "declared_failed"


async def test_long_speech_goes_async_and_is_fetched_when_it_succeeds(harness):
    h = harness
    text = "The tide eye opens at dusk. " * 400  # 11,200 characters: asynchronous
    out = await h.service.submit(LONG, "speech", {**SPEECH, "text": text})
    assert out.kind is OutcomeKind.CREATED, out.problem
    assert out.task.params["protocol"] == "async"
    assert out.task.provider_task_id
    assert out.task.state is State.PROCESSING
    done = await h.service.wait(LONG, max_seconds=60)
    assert done.task.state is State.SUCCESS, done.task.error
    [m] = done.task.media
    assert m.content_type == "audio/mpeg" and m.duration > 0
    assert done.task.cost.reported == Decimal(len(text)) * Decimal(100) / Decimal(1_000_000)
    assert creates(h.sim, text) == 1


async def test_an_async_speech_answer_naming_another_task_is_not_applied(harness):
    """The demo's ``foreign_answer``: the query of B's task answers A's (finished, its file in
    it). Found by the world II soak (issue 24): B took A's voice as its own success. Now the
    answer is recorded and ignored, and B ends with its own sound."""
    h = harness
    first = "The tide eye opens at dusk. " * 400
    a = await h.service.submit(LONG, "speech", {**SPEECH, "text": first})
    a_done = await h.service.wait(LONG, max_seconds=60)
    assert a_done.task.state is State.SUCCESS, a_done.task.error
    other = LONG.replace("voice-02", "voice-03")
    b = await h.service.submit(other, "speech", {**SPEECH, "text": "Dusk. " * 1800})
    assert b.task.provider_task_id != a.task.provider_task_id
    h.sim.set_faults(foreign_answer=1)
    queried = await h.service.query(other)
    assert queried.task.media == [] and queried.task.state is not State.SUCCESS
    events = (await h.service.history(other)).payload.events
    foreign = [e for e in events if e.event == "foreign_answer"]
    assert foreign and foreign[0].data["named"] == a.task.provider_task_id, events
    done = await h.service.wait(other, max_seconds=60)
    assert done.task.state is State.SUCCESS, done.task.error
    assert done.task.media[0].sha256 != a_done.task.media[0].sha256  # its own voice


async def test_a_lost_async_create_is_attached_by_task_id(harness):
    h = harness
    text = "Long narration. " * 700
    h.sim.set_faults(lose_create_response=1)
    out = await h.service.submit(LONG, "speech", {**SPEECH, "text": text})
    assert out.kind is OutcomeKind.UNKNOWN
    look = await h.service.recover(LONG, Lookup())
    assert look.kind is OutcomeKind.INVALID  # MiniMax lists no speech tasks
    assert "--task-id" in look.problem.message
    [tid] = list(sound.book(h.sim).tasks)  # the id as the provider's console shows it
    attached = await h.service.recover(LONG, AttachTask(tid))
    assert attached.task.state in (State.PROCESSING, State.DOWNLOADING, State.SUCCESS)
    done = await h.service.wait(LONG, max_seconds=60)
    assert done.task.state is State.SUCCESS, done.task.error
    assert creates(h.sim, text) == 1


async def test_an_attached_async_speech_that_expired_counts_in_spend_and_budget(harness):
    """A lost create, attached by its id after the audio expired: ``fail`` (``expired``), billed
    — and counted so by spend and by the budget, not as $0 (issue 31). Expired has no usage in
    its answer and the lost create's never arrived: it counts at its estimate."""
    h = harness
    text = "Lost then expired. " * 600
    h.sim.set_faults(lose_create_response=1)
    out = await h.service.submit(LONG, "speech", {**SPEECH, "text": text})
    assert out.kind is OutcomeKind.UNKNOWN
    price = out.task.cost.estimate
    assert price == Decimal(len(text)) * Decimal(100) / Decimal(1_000_000)
    [tid] = list(sound.book(h.sim).tasks)
    h.sim.set_clock(advance=10 * 3600)  # nobody asked for 10 hours: the audio is gone
    await h.service.recover(LONG, AttachTask(tid))
    done = await h.service.wait(LONG, max_seconds=60)
    assert done.task.state is State.FAIL and done.task.error.code == "expired", done.task.error
    assert done.task.charged == price  # billed: the audio was made
    total = (await h.service.spend()).payload.spend.total
    assert total.estimate == price and total.not_charged_slots == 0, total
    # a budget that leaves room for half of the next line's price: the expired one counts
    line_price = Decimal(len(SPEECH["text"])) * Decimal(100) / Decimal(1_000_000)
    budgeted = h.other(budget_daily=price + line_price / 2)
    refused = await budgeted.submit(LINE, "speech", SPEECH)
    assert refused.kind is OutcomeKind.BUDGET_EXCEEDED, (refused.kind, refused.problem)
    assert creates(h.sim, SPEECH["text"]) == 0 and creates(h.sim, text) == 1


@pytest.mark.parametrize("fault", ["undecodable_media", "short_sound"])
async def test_undecodable_or_too_short_sound_is_never_success(harness, fault):
    h = harness
    h.sim.set_faults(**{fault: 1})
    out = await h.service.submit(LINE, "speech", SPEECH)
    assert out.task.state is State.FAIL
    assert out.task.error.code == "verification_failed"
    assert out.task.media == []
    again = await h.service.submit(LINE, "speech", SPEECH)
    assert again.kind is OutcomeKind.REPLAYED and creates(h.sim, SPEECH["text"]) == 1


async def test_bad_sound_parameters_are_refused_naming_the_field_before_anything(harness):
    h = harness
    cases = [
        ("music", {"prompt": "x"}, "lyrics"),
        ("music", {"prompt": "x", "lyrics": "   "}, "lyrics"),
        ("music", {"prompt": "x", "lyrics": "la", "instrumental": True}, "instrumental"),
        ("music", {"lyrics": "[Verse]\nla"}, "prompt"),
        ("music", {**MUSIC, "format": "ogg"}, "format"),
        ("music", {**MUSIC, "model": "music-9"}, "model"),
        ("speech", {"text": "hi"}, "voice"),
        ("speech", {**SPEECH, "speed": 3}, "speed"),
        ("speech", {**SPEECH, "volume": 0}, "volume"),
        ("speech", {**SPEECH, "pitch": 13}, "pitch"),
        ("speech", {**SPEECH, "emotion": "bored"}, "emotion"),
        ("speech", {**SPEECH, "channels": 3}, "channels"),
        ("speech", {**SPEECH, "text": "\x01\x02 a"}, "text"),
    ]
    for kind, params, field in cases:
        out = await h.service.submit(SONG, kind, params)
        assert out.kind is OutcomeKind.INVALID, (kind, params)
        assert out.problem.field == field, (kind, params, out.problem)
    assert h.sim.stats()["creates_total"] == 0
    assert (await h.service.status(SONG)).kind is OutcomeKind.NOT_FOUND


async def test_a_long_wav_song_past_what_an_answer_may_be_is_kept(harness):
    """A 150 s stereo 44.1 kHz WAV song is 26 MB: as hex, a 53 MB answer, past the 48 MB an
    answer is read at — once a paid song with no task id, lost for good as ``unknown``. Slate
    asks for a link (MiniMax's ``output_format: url``) and fetches the song from it."""
    from app.providers.http import MAX_ANSWER_BYTES

    h = harness
    h.sim.config.song_seconds = 150.0
    asked = {**MUSIC, "prompt": "a long tide, strings", "format": "wav"}
    out = await h.service.submit(SONG, "music", asked)
    assert out.kind is OutcomeKind.CREATED, out.problem
    task = out.task
    assert task.state is State.SUCCESS, task.error
    [m] = task.media
    assert m.content_type == "audio/wav" and m.duration == pytest.approx(150.0, abs=1.0)
    assert 2 * m.bytes > MAX_ANSWER_BYTES  # inline, it would not have been read
    assert creates(h.sim, asked["prompt"]) == 1


async def test_a_song_that_arrived_is_kept_when_the_store_cannot_record_it(harness):
    """The answer is journaled (the link to the song with it) before any store write: a full disk
    at that moment loses nothing, and the next start writes the song into its slot, verified,
    without a second create."""
    from tests.integration.test_journal import DiskFull, journal_files

    h = harness
    with DiskFull(h.store) as full:
        out = await h.service.submit(SONG, "music", MUSIC)
    assert full.failed >= 1
    assert out.kind is OutcomeKind.INVALID and "nothing is lost" in out.problem.message
    assert len(journal_files(h.config.data_dir)) == 1
    svc = h.other()
    await svc.sweep_submitting()
    task = (await svc.status(SONG)).task
    assert task.state is State.SUCCESS, task.error
    assert [m.content_type for m in task.media] == ["audio/mpeg"]
    events = [e.event for e in (await svc.history(SONG)).payload.events]
    assert "journal_replayed" in events
    assert journal_files(h.config.data_dir) == []
    assert creates(h.sim, MUSIC["prompt"]) == 1


async def test_music_waits_at_least_300_s_unless_a_timeout_is_stated(harness):
    from app.service import sound as sound_service

    h = harness
    assert h.config.timeout < 300 and not h.config.timeout_stated
    assert sound_service.create_timeout(h.service.ctx, "music") == 300
    assert sound_service.create_timeout(h.service.ctx, "speech") == h.config.timeout
    stated = h.other(timeout=7.0, timeout_stated=True)
    assert sound_service.create_timeout(stated.ctx, "music") == 7.0


async def test_an_expired_async_file_is_a_billed_failure_and_failed_is_not_billed(harness):
    h = harness
    text = "Expiring narration. " * 600
    h.sim.set_faults(slow=2.0)
    out = await h.service.submit(LONG, "speech", {**SPEECH, "text": text})
    assert out.kind is OutcomeKind.CREATED, out.problem
    h.sim.set_clock(advance=10 * 3600)  # nobody asked for 10 hours: the audio is gone
    done = await h.service.wait(LONG, max_seconds=60)
    assert done.task.state is State.FAIL
    assert done.task.error.code == "expired"
    assert done.task.cost.reported == Decimal(len(text)) * Decimal(100) / Decimal(1_000_000)
    assert done.task.charged == done.task.cost.reported  # billed: the audio was made
    h.sim.set_clock(offset=0)
    h.sim.set_faults(slow=0.0, content_fail=1)
    failed_rid = LONG + ".t2"
    out = await h.service.submit(failed_rid, "speech", {**SPEECH, "text": text + "x"})
    failed = await h.service.wait(failed_rid, max_seconds=60)
    assert failed.task.state is State.FAIL and failed.task.error.code != "expired"
    assert failed.task.charged == 0  # Failed is not billed


async def test_a_lost_speech_answer_is_unknown_with_declare_failed_only(harness):
    h = harness
    h.sim.set_faults(lose_create_response=1)
    out = await h.service.submit(LINE, "speech", SPEECH)
    assert out.kind is OutcomeKind.UNKNOWN
    assert out.task.allowed_actions == [Action.RECOVER]
    assert (await h.service.query(LINE)).kind is OutcomeKind.INVALID
    attach = await h.service.recover(LINE, AttachTask("777"))
    assert attach.kind is OutcomeKind.INVALID and "no task id" in attach.problem.message
    again = await h.service.submit(LINE, "speech", SPEECH)
    assert again.kind is OutcomeKind.UNKNOWN and creates(h.sim, SPEECH["text"]) == 1


async def test_a_budget_refuses_a_song_of_unknown_price_and_counts_speech_by_characters(harness):
    h = harness
    svc = h.other(budget_daily=Decimal("0.003"))
    song = await svc.submit(SONG, "music", MUSIC)
    assert song.kind is OutcomeKind.BUDGET_EXCEEDED
    assert "unknown" in song.problem.message
    line = await svc.submit(LINE, "speech", SPEECH)  # 27 characters: $0.0027
    assert line.kind is OutcomeKind.CREATED, line.problem
    more = await svc.submit(LINE + ".t2", "speech", {**SPEECH, "text": "Ten chars."})
    assert more.kind is OutcomeKind.BUDGET_EXCEEDED  # 0.0027 + 0.001 > 0.003
    assert h.sim.stats()["creates_total"] == 1
