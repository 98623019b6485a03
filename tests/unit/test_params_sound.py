"""The rules of music and speech (app.domain.params_sound): defaults stated, every limit
refused naming its field, the sync/async boundary in code points, the bodies MiniMax documents,
the kind prefix of the key, the recover and query rules of slots without a task id, and the
prices per song and per character (unknown never 0, amounts unrounded)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.domain.capabilities import Capabilities
from app.domain.cost import estimate, reported
from app.domain.errors import ValidationError
from app.domain.fingerprint import fingerprint
from app.domain.params import normalize
from app.domain.params_sound import music_body, speech_body
from app.domain.protocols import T2A, V1, protocol_of
from app.domain.slots import SlotRef
from app.domain.states import (
    Action,
    RecoverWay,
    State,
    allowed_actions,
    recover_options,
    state_for_status_word,
)
from app.service.prices import parse_table, shipped_text

VOICE = "English_expressive_narrator"


def test_music_defaults_are_stated_so_omitting_equals_stating():
    short = normalize("music", {"prompt": "lofi", "instrumental": True})
    full = normalize(
        "music",
        {
            "prompt": "lofi",
            "instrumental": True,
            "model": "music-2.6",
            "format": "mp3",
            "sample_rate": 44100,
            "bitrate": 256000,
        },
    )
    assert short == full
    assert fingerprint("music", short) == fingerprint("music", full)
    assert fingerprint("music", short) != fingerprint("speech", short)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"prompt": "x"}, "lyrics"),
        ({"prompt": "x", "lyrics": "\n  "}, "lyrics"),
        ({"prompt": "x", "lyrics": "la", "lyrics_optimizer": True}, "lyrics_optimizer"),
        ({"prompt": "  ", "instrumental": True}, "prompt"),
        ({"prompt": "x" * 2001, "instrumental": True}, "prompt"),
        ({"prompt": "x", "lyrics": "l" * 3501}, "lyrics"),
        ({"prompt": "x", "instrumental": True, "sample_rate": 22050}, "sample_rate"),
        ({"prompt": "x", "instrumental": True, "bitrate": 96000}, "bitrate"),
        ({"prompt": "x", "instrumental": True, "format": "pcm"}, "format"),
        ({"prompt": "x", "instrumental": True, "model": "music-cover"}, "model"),
        ({"prompt": "x", "instrumental": True, "seed": -1}, "seed"),
        ({"prompt": "x", "instrumental": True, "voice": "v"}, "voice"),
    ],
)
def test_music_refusals_name_the_field(raw, field):
    with pytest.raises(ValidationError) as err:
        normalize("music", raw)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"voice": VOICE}, "text"),
        ({"text": "hi"}, "voice"),
        ({"text": "hi", "voice": "line\nbreak"}, "voice"),
        ({"text": "hi", "voice": "bell\x07"}, "voice"),
        ({"text": "hi", "voice": "zero\u200bwidth"}, "voice"),
        ({"text": "hi", "voice": "v" * 257}, "voice"),
        ({"text": "hi", "voice": VOICE, "speed": 0.4}, "speed"),
        ({"text": "hi", "voice": VOICE, "speed": "nan"}, "speed"),
        ({"text": "hi", "voice": VOICE, "volume": 0}, "volume"),
        ({"text": "hi", "voice": VOICE, "volume": 10.5}, "volume"),
        ({"text": "hi", "voice": VOICE, "pitch": 1.5}, "pitch"),
        ({"text": "hi", "voice": VOICE, "emotion": "calm", "model": "speech-02-hd"}, "emotion"),
        ({"text": "hi", "voice": VOICE, "sample_rate": 48000}, "sample_rate"),
        ({"text": "hi", "voice": VOICE, "channels": 0}, "channels"),
        ({"text": "hi", "voice": VOICE, "language_boost": "Klingon"}, "language_boost"),
        ({"text": "x" * 1_000_001, "voice": VOICE}, "text"),
        ({"text": "ab\x00\x00", "voice": VOICE}, "text"),
    ],
)
def test_speech_refusals_name_the_field(raw, field):
    with pytest.raises(ValidationError) as err:
        normalize("speech", raw)
    assert err.value.field == field


def test_every_voice_in_slates_own_list_is_a_voice_id():
    """The ids of MiniMax's documented system voices hold spaces and parentheses
    (``Chinese (Mandarin)_News_Anchor``): every voice Slate offers is taken as it is."""
    from app.domain.params_sound import SYSTEM_VOICES
    from app.sim.sound import SYSTEM_VOICES as DEMO_VOICES

    for voice, _name in (*SYSTEM_VOICES, *DEMO_VOICES):
        assert normalize("speech", {"text": "hi", "voice": voice})["voice"] == voice
    longest = "v" * 256
    assert normalize("speech", {"text": "hi", "voice": longest})["voice"] == longest


def test_the_async_boundary_counts_code_points_and_never_changes_for_a_slot():
    at = normalize("speech", {"text": "字" * 10_000, "voice": VOICE})  # 30,000 UTF-8 bytes
    over = normalize("speech", {"text": "字" * 10_001, "voice": VOICE})
    assert at["protocol"] == "sync" and protocol_of("speech", at) == V1
    assert over["protocol"] == "async" and protocol_of("speech", over) == T2A
    assert "output_format" in speech_body(at) and "output_format" not in speech_body(over)


def test_the_bodies_are_as_minimax_documents_them():
    song = music_body(normalize("music", {"prompt": "p", "lyrics": "[Verse]\nla", "seed": 7}))
    assert song == {
        "model": "music-2.6",
        "prompt": "p",
        "lyrics": "[Verse]\nla",
        "seed": 7,
        "audio_setting": {"format": "mp3", "sample_rate": 44100, "bitrate": 256000},
        "output_format": "url",
    }
    assert music_body(normalize("music", {"prompt": "p", "instrumental": True}))["is_instrumental"]
    line = speech_body(
        normalize("speech", {"text": "hi", "voice": VOICE, "volume": 2, "emotion": "happy"})
    )
    assert line["voice_setting"] == {
        "voice_id": VOICE,
        "speed": 1.0,
        "vol": 2.0,
        "pitch": 0,
        "emotion": "happy",
    }
    assert line["audio_setting"] == {
        "sample_rate": 32000,
        "bitrate": 128000,
        "format": "mp3",
        "channel": 1,
    }


def test_the_key_carries_the_kind_prefix():
    slot = SlotRef.parse("studio-a", "lin", "article:20261202:x:song-01")
    keys = {k: slot.key(k) for k in ("image", "video", "music", "speech")}
    assert len(set(keys.values())) == 4
    assert keys["music"].startswith("music:") and keys["speech"].startswith("speech:")


class _Task:
    def __init__(self, kind, params, state=State.UNKNOWN):
        self.kind, self.params, self.state, self.has_results = kind, params, state, False


def test_an_unknown_song_offers_declare_failed_only():
    song = normalize("music", {"prompt": "p", "instrumental": True})
    options = recover_options(_Task("music", song), Capabilities(can_list_tasks=True))
    offered = {way for way, o in options.items() if o.offered}
    assert offered == {RecoverWay.DECLARE_FAILED}
    assert "no task id" in options[RecoverWay.ATTACH].why_not
    assert allowed_actions(State.UNKNOWN, can_query=False) == (Action.RECOVER,)
    long = normalize("speech", {"text": "x" * 10_001, "voice": VOICE})
    options = recover_options(_Task("speech", long), Capabilities(can_list_tasks=True))
    assert options[RecoverWay.ATTACH].offered and not options[RecoverWay.LOOKUP].offered


def test_async_speech_status_words_are_a_whitelist():
    assert state_for_status_word("Processing", T2A) is State.PROCESSING
    assert state_for_status_word("Success", T2A) is State.DOWNLOADING
    assert state_for_status_word("Failed", T2A) is State.FAIL
    assert state_for_status_word("Expired", T2A) is State.FAIL
    for word in ("Fail", "success", "Queueing", "", "completed"):
        assert state_for_status_word(word, T2A) is State.UNKNOWN


def test_prices_per_character_unrounded_and_music_unknown_never_zero():
    table = parse_table(shipped_text())
    line = normalize("speech", {"text": "x" * 44, "voice": VOICE})
    cost = estimate("speech", line, table)
    assert cost.estimate == Decimal("0.0044")
    assert "per million characters" in cost.basis and "source" in cost.basis
    turbo = normalize("speech", {"text": "x" * 44, "voice": VOICE, "model": "speech-2.8-turbo"})
    assert estimate("speech", turbo, table).estimate == Decimal("0.00264")
    assert reported("speech", line, {"usage_characters": 50}, table) == Decimal("0.005")
    song = estimate("music", normalize("music", {"prompt": "p", "instrumental": True}), table)
    assert song.estimate is None and "unknown" in song.basis


@pytest.mark.parametrize(
    "kind, raw, field",
    [
        ("speech", {"text": "hi\x00 there, a long enough line", "voice": VOICE}, "text"),
        ("speech", {"text": "hi", "voice": "English\x00"}, "voice"),
        ("music", {"prompt": "lofi", "lyrics": "la \ud800 la"}, "lyrics"),
        ("image", {"prompt": "a\x00b"}, "prompt"),
        (
            "video",
            {"prompt": "p", "first_frame_image": "https://example.test/\x00.png"},
            "first_frame_image",
        ),  # fmt: skip
        ("video", {"model": "MiniMax-H3", "prompt": "p\x00"}, "prompt"),
    ],
)
def test_text_no_store_can_hold_is_refused_naming_the_field(kind, raw, field):
    with pytest.raises(ValidationError) as err:
        normalize(kind, raw)
    assert err.value.field == field
