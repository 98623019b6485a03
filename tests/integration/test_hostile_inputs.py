"""Hostile world III (issue 32): inputs that still got through — text files that are no files,
a reference pruned before a replay, text PostgreSQL cannot hold, a documented voice refused.

Every command runs through the real `slate` entry point (in this process) against the demo
provider over loopback; "nothing sent" is the provider's own request count, "nothing stored"
the store's own answer."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.timeout(120)

RID = "article:20261202:tide-eye:voice-01"
SONG = "article:20261202:tide-eye:song-01"
VOICE = "English_expressive_narrator"


def _refused_before_anything(said: Any, field: str, demo_sim: Any, slate: Any) -> None:
    assert said.code == 2, said.out
    assert said.out["outcome"] == "invalid" and said.out["task"] is None
    assert said.out["error"]["field"] == field, said.out["error"]
    assert demo_sim.stats()["requests_total"] == 0
    listed = slate("list")
    assert listed.code == 0 and listed.out["slots"] == [], listed.out


def _speech(path: str) -> list[str]:
    return [
        "submit",
        "--request-id",
        RID,
        "--kind",
        "speech",
        "--text-file",
        path,
        "--voice",
        VOICE,
    ]


def _song(path: str) -> list[str]:
    return ["submit", "--request-id", SONG, "--kind", "music", "--prompt", "lofi", "--lyrics-file",
            path]  # fmt: skip


@pytest.mark.parametrize("option", ["text", "lyrics"])
def test_a_device_as_a_text_file_is_refused_without_reading_it(slate, demo_sim, option):
    args = _speech("/dev/zero") if option == "text" else _song("/dev/zero")
    said = slate(*args)
    assert "not a regular file" in said.out["error"]["message"]
    _refused_before_anything(said, option, demo_sim, slate)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("option", ["text", "lyrics"])
def test_a_fifo_as_a_text_file_is_refused_without_blocking(slate, demo_sim, tmp_path, option):
    fifo = tmp_path / "words.fifo"
    os.mkfifo(fifo)  # nobody ever writes: an open that waits for a writer would hang here
    said = slate(*(_speech(str(fifo)) if option == "text" else _song(str(fifo))))
    assert "not a regular file" in said.out["error"]["message"]
    _refused_before_anything(said, option, demo_sim, slate)


@pytest.mark.parametrize(
    "option, chars, cap", [("text", 1_000_000, "4,000,003 bytes"), ("lyrics", 3500, "14,003 bytes")]
)
def test_a_text_file_past_its_fields_limit_is_refused_naming_the_cap(
    slate, demo_sim, tmp_path: Path, option, chars, cap
):
    big = tmp_path / "big.txt"
    big.write_bytes("語".encode() * (chars * 4 // 3 + 2))  # 3 bytes a character, past ×4 bytes
    said = slate(*(_speech(str(big)) if option == "text" else _song(str(big))))
    message = said.out["error"]["message"]
    assert cap in message and f"{chars:,} characters" in message, message
    _refused_before_anything(said, option, demo_sim, slate)


def test_a_text_file_within_its_cap_is_its_text_exactly(slate, demo_sim, tmp_path: Path):
    lyrics = tmp_path / "lyrics.txt"
    lyrics.write_bytes(b"\xef\xbb\xbf" + "[verse]\n潮汐之眼\n".encode())
    said = slate(*_song(str(lyrics)))
    assert said.code == 0 and said.out["outcome"] == "created", said.out
    assert said.out["task"]["params"]["lyrics"] == "[verse]\n潮汐之眼\n"


def test_a_documented_system_voice_with_spaces_and_parentheses_is_spoken(slate, demo_sim):
    said = slate(
        "submit", "--request-id", RID, "--kind", "speech", "--text", "潮汐之眼",
        "--voice", "Chinese (Mandarin)_News_Anchor",
    )  # fmt: skip
    assert said.code == 0 and said.out["outcome"] == "created", said.out
    assert said.out["task"]["params"]["voice"] == "Chinese (Mandarin)_News_Anchor"
    assert said.out["task"]["state"] == "success"


@pytest.mark.parametrize(
    "field, args",
    [
        ("text", ["--kind", "speech", "--voice", VOICE, "--text-file", "{file}"]),
        ("lyrics", ["--kind", "music", "--prompt", "lofi", "--lyrics-file", "{file}"]),
        ("prompt", ["--kind", "image", "--prompt", "a lighthouse\x00 at dusk"]),
        ("prompt", ["--kind", "music", "--prompt", "lofi\x00", "--instrumental"]),
    ],
    ids=["speech-text", "lyrics", "image-prompt", "music-prompt"],
)
def test_text_no_store_can_hold_is_refused_on_every_store(
    slate, demo_sim, store_url, tmp_path: Path, field, args
):
    """A NUL was stored by PostgreSQL as U+FFFD, and the create (built from the stored
    parameters) sent MiniMax other text than was fingerprinted: refused on both stores."""
    words = tmp_path / "words.txt"
    words.write_bytes(b"The tide eye opens at dusk\x00 and the lighthouse answers. " * 4)
    args = [a.replace("{file}", str(words)) for a in args]
    env = {"SLATE_STORE": store_url}
    said = slate("submit", "--request-id", RID, *args, env=env)
    assert "NUL" in said.out["error"]["message"], said.out
    assert said.code == 2, said.out
    assert said.out["outcome"] == "invalid" and said.out["error"]["field"] == field
    assert demo_sim.stats()["requests_total"] == 0
    listed = slate("list", env=env)
    assert listed.code == 0 and listed.out["slots"] == [], listed.out


def test_a_slot_made_from_a_pruned_reference_slot_is_replayed(slate, demo_sim, store_url):
    """After ``prune-media A``, the rerun of slot B made with ``--reference-image A`` is
    ``replayed`` from B's record (it was ``invalid``): a replay needs the fingerprint, not A's
    bytes. A new slot naming A still needs A's image and is refused, nothing stored."""
    env = {"SLATE_STORE": store_url}
    source, edit = "article:20261202:tide-eye:scene-01", "article:20261202:tide-eye:scene-02"
    h3 = ["--kind", "image", "--model", "MiniMax-H3-Image"]
    made = slate("submit", "--request-id", source, *h3, "--prompt", "a lighthouse", env=env)
    assert made.code == 0 and made.out["task"]["state"] == "success", made.out
    edit_args = ["submit", "--request-id", edit, *h3, "--prompt", "the lighthouse in snow",
                 "--reference-image", source]  # fmt: skip
    first = slate(*edit_args, env=env)
    assert first.code == 0 and first.out["outcome"] == "created", first.out
    pruned = slate("prune-media", source, env=env)
    assert pruned.code == 0, pruned.out
    creates = demo_sim.stats()["creates_by_prompt"]
    again = slate(*edit_args, env=env)
    assert again.code == 0 and again.out["outcome"] == "replayed", again.out
    assert again.out["task"]["fingerprint"] == first.out["task"]["fingerprint"]
    changed = slate(*edit_args[:-3], "another prompt", *edit_args[-2:], env=env)
    assert changed.code == 3 and changed.out["outcome"] == "conflict", changed.out
    new_rid = "article:20261202:tide-eye:scene-03"
    new = slate(*[new_rid if a == edit else a for a in edit_args], env=env)
    assert new.code == 2 and new.out["error"]["field"] == "reference_image", new.out
    assert "no longer on this machine" in new.out["error"]["message"]
    assert demo_sim.stats()["creates_by_prompt"] == creates
    listed = slate("list", env=env)
    assert sorted(s["request_id"] for s in listed.out["slots"]) == [source, edit]
