"""The rules the window's sound parts read (no Qt widgets): what an unknown song offers, whether
a clip may join a MiniMax-H3 draft before its picture, the voice line's protocol, the voices
the service answers, and the files the worker makes (waveform, reference audio)."""

from __future__ import annotations

import asyncio
import math
import struct
import wave
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app.domain import params_sound as ps
from app.domain.capabilities import Capabilities
from app.domain.drafts import PROBE_IMAGE, refuses_input
from app.domain.params_v2 import CLIP_MAX, MediaFacts
from app.domain.states import Action, Refusal, State, slot_offers
from app.providers.base import ProviderError
from app.service.sound import list_voices

V1 = Capabilities()


@dataclass(frozen=True)
class Facts:
    state: State
    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    has_results: bool = False
    provider_task_id: str | None = None


@pytest.mark.parametrize(
    "kind, params", [("music", {"prompt": "x"}), ("speech", {"protocol": "sync"})]
)
def test_an_unknown_sound_without_a_task_id_offers_recover_only_with_no_record(kind, params):
    offers = slot_offers(Facts(State.UNKNOWN, kind, params), V1)
    assert offers[Action.QUERY].refusal is Refusal.NO_RECORD
    assert [a for a, o in offers.items() if o.offered] == [Action.RECOVER]


def test_an_unknown_designed_voice_is_settled_by_its_voice_id_not_declared_unrecordable():
    """A voice design has no task to query, yet it is not a song: Recover looks the slot's own
    voice id up (get_voice), and the window says so in both languages."""
    from app.domain.states import recover_options
    from app.present.translations import translator
    from app.present.words import REFUSAL_WORDS
    from app.ui.panes.banner import UNKNOWN_NOT_QUERIED

    facts = Facts(State.UNKNOWN, "voice", {"prompt": "x", "preview_text": "y"})
    offers = slot_offers(facts, V1)
    assert offers[Action.QUERY].refusal is Refusal.VOICE_LOOKUP
    assert [a for a, o in offers.items() if o.offered] == [Action.RECOVER]
    from app.domain.states import RecoverWay

    assert recover_options(facts, V1, provider="minimax")[RecoverWay.LOOKUP].offered
    zh = translator("zh_CN")
    for context, said in (
        ("WhyNot", REFUSAL_WORDS[Refusal.VOICE_LOOKUP]),
        ("Banner", UNKNOWN_NOT_QUERIED[Refusal.VOICE_LOOKUP]),
    ):
        assert "voice" in said and "keeps no record" not in said
        assert zh(context, said) != said, said  # said in Chinese too


def test_a_long_voice_line_has_a_task_id_to_attach():
    offers = slot_offers(Facts(State.UNKNOWN, "speech", {"protocol": "async"}), V1)
    assert offers[Action.QUERY].refusal is Refusal.NO_TASK_ID  # attach it by its task id
    tasked = Facts(State.UNKNOWN, "speech", {"protocol": "async"}, provider_task_id="t-1")
    assert slot_offers(tasked, V1)[Action.QUERY].offered


def _clip(seconds: float, name: str = "voice-01") -> MediaFacts:
    return MediaFacts("audio", "a" * 64, 200_000, "mp3", name, seconds=seconds)


H3 = {"model": "MiniMax-H3", "prompt": "x", "duration": 5, "resolution": "768P"}


def test_reference_audio_may_wait_for_its_picture_but_not_break_a_limit():
    assert refuses_input(H3, "reference_audio", [_clip(4)]) is None
    too_long = refuses_input(H3, "reference_audio", [_clip(CLIP_MAX + 5)])
    assert too_long is not None and too_long.field == "reference_audio"
    four = refuses_input(H3, "reference_audio", [_clip(4)] * 4)
    assert four is not None and "at most 3" in four.message
    # the draft itself is refused until a picture is there (said by the domain)
    from app.domain.drafts import what_if

    alone = what_if(H3, reference_audio=[_clip(4)])
    assert alone is not None and "needs at least one reference image" in alone.message
    assert what_if(H3, reference_audio=[_clip(4)], reference_image=[PROBE_IMAGE]) is None


def test_the_voice_lines_protocol_is_the_domains_length_rule():
    from app.ui.draft import DraftModel

    draft = DraftModel()
    draft.update(kind="speech", params={"text": "a" * ps.SYNC_TEXT_MAX, "voice": "v"})
    assert draft.speech_protocol == "sync"
    draft.update(params={"text": "a" * (ps.SYNC_TEXT_MAX + 1), "voice": "v"})
    assert draft.speech_protocol == "async"
    draft.update(kind="music", params={"prompt": "x"})
    assert draft.speech_protocol is None


class _Down:
    async def list_voices(self) -> list[tuple[str, str]]:
        raise ProviderError("connection refused")


class _Listed:
    async def list_voices(self) -> list[tuple[str, str]]:
        return [("my-voice", "Mine")]


def test_the_voices_are_the_providers_else_the_documented_ones():
    listed = asyncio.run(list_voices(_Listed())).payload
    assert listed.voices == (("my-voice", "Mine"),) and not listed.documented
    down = asyncio.run(list_voices(_Down())).payload
    assert down.voices == ps.SYSTEM_VOICES and down.documented and "refused" in down.problem
    none = asyncio.run(list_voices(object())).payload
    assert none.voices == ps.SYSTEM_VOICES and none.documented


def _wav(path: Path, seconds: float, rate: int = 8000, quiet_first: bool = False) -> Path:
    n = int(seconds * rate)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        frames = bytearray()
        for i in range(n):
            loud = 0 if quiet_first and i < n // 2 else 12000
            frames += struct.pack("<h", int(loud * math.sin(i / 7)))
        w.writeframes(bytes(frames))
    return path


def test_the_waveform_is_read_from_the_sound(tmp_path):
    from app.ui.sound_view import waveform_peaks

    peaks = waveform_peaks(str(_wav(tmp_path / "half.wav", 2.0, quiet_first=True)), 100)
    assert len(peaks) == 100 and max(peaks) == 1.0
    assert max(peaks[:45]) < 0.05 and min(peaks[55:]) > 0.5  # silent, then loud
    bad = tmp_path / "not-a-sound.mp3"
    bad.write_bytes(b"\x00" * 1000)
    assert waveform_peaks(str(bad)) == ()


def test_a_long_sound_goes_to_h3_as_its_first_15_seconds(tmp_path):
    from app.service.inputs import from_file
    from app.ui.chain import reference_audio

    short = _wav(tmp_path / "short.wav", 4.0)
    assert reference_audio(str(short)) == (str(short), None)  # taken as it is
    out, trimmed = reference_audio(str(_wav(tmp_path / "long.wav", 20.0)))
    assert trimmed == CLIP_MAX and out.endswith(".wav") and out != str(tmp_path / "long.wav")
    facts = from_file(out, "audio", "reference_audio").facts
    assert facts.seconds is not None and abs(facts.seconds - CLIP_MAX) < 0.05
