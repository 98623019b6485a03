"""Prices a designer gives (issue 33): ``slate prices list|set|unset``, kept per user in the store
(both stores), and the daily budget judged by them — a song made today at an unknown price never
locks the day, the next song is refused alone naming its model, and once the designer gives
music-2.6 a price the song is judged by it and the spend counts the earlier one at it. Voice
design is priced per voice (``voice-design``): unknown in the shipped table (MiniMax publishes
no price for a design), never 0, until the designer gives one — then a voice slot is judged by
it like any other."""

from __future__ import annotations

import pytest

RID = "article:20261203:budget:"
SONG = ["--kind", "music", "--prompt", "lofi piano, rain", "--instrumental"]
CLIP = ["--kind", "video", "--prompt", "tide", "--model", "MiniMax-Hailuo-2.3"]
CLIP += ["--duration", "6", "--resolution", "768P"]  # $0.28 in the shipped table


@pytest.fixture
def env(store_url, tmp_path):
    return {"SLATE_STORE": store_url, "XDG_CONFIG_HOME": str(tmp_path / "config")}


VOICE = ["--prompt", "A calm, low narrator of sea stories.", "--preview-text", "The tide turns."]


def design(slate, rid, env, prompt=None):
    argv = [*VOICE[:1], prompt, *VOICE[2:]] if prompt else VOICE
    return slate("voice", "design", "--request-id", rid, *argv, env=env)


def line(out, model, part=None):
    [found] = [p for p in out["prices"] if p["model"] == model and p["part"] == part]
    return found


def test_an_unpriced_song_today_blocks_nothing_and_a_given_price_judges_it(slate, env):
    made = slate("submit", "--request-id", RID + "song-01", *SONG, env=env)
    assert made.out["outcome"] == "created", made.out
    assert made.out["task"]["cost"]["estimate"] is None  # music-2.6: no price in the table

    budget = {**env, "SLATE_BUDGET_DAILY": "1.00"}
    clip = slate("submit", "--request-id", RID + "clip-01", *CLIP, env=budget)
    assert clip.out["outcome"] == "created", clip.out  # the unpriced song blocks nothing
    still = slate("submit", "--request-id", RID + "still-01", "--kind", "image", "--prompt",
                  "tide", "--model", "image-01", env=budget)  # fmt: skip
    assert still.out["outcome"] == "created", still.out  # image-01: about $0.0035 (secondary)
    assert still.out["task"]["cost"]["estimate"] == pytest.approx(0.0035)
    song = slate("submit", "--request-id", RID + "song-02", *SONG[:3], "another song",
                 "--instrumental", env=budget)  # fmt: skip
    assert song.code == 5 and song.out["outcome"] == "budget_exceeded", song.out
    assert "music-2.6" in song.out["error"]["message"]
    assert "slate prices set music-2.6 AMOUNT" in song.out["error"]["message"]

    listed = slate("prices", "list", env=env)
    assert listed.code == 0 and listed.out["currency"] == "USD"
    assert line(listed.out, "music-2.6")["amount"] is None
    assert line(listed.out, "MiniMax-Hailuo-2.3", "768P/6")["amount"] == 0.28
    assert line(listed.out, "speech-2.8-hd")["confidence"] == "secondary"

    given = slate("prices", "set", "music-2.6", "0.15", env=env)
    assert given.code == 0, given.out
    assert given.out["changed"] == {
        "model": "music-2.6",
        "kind": "music",
        "scheme": "per_song",
        "part": None,
        "amount": 0.15,
        "source": given.out["changed"]["source"],
        "confidence": "yours",
    }
    assert given.out["changed"]["source"].startswith("your price, set ")
    # the song is now judged by that price: 0.28 + 0.0035 + 0.15 (the earlier song) + 0.15
    # fits 1.00
    again = slate("submit", "--request-id", RID + "song-02", *SONG[:3], "another song",
                  "--instrumental", env=budget)  # fmt: skip
    assert again.out["outcome"] == "created", again.out
    assert again.out["task"]["cost"]["estimate"] == 0.15
    spend = slate("spend", env=env)
    assert spend.out["total"]["estimate"] == pytest.approx(0.28 + 0.0035 + 0.15 + 0.15), spend.out

    # another designer on the same store keeps the table's price
    mei = slate("prices", "list", env={**env, "SLATE_USER": "mei"})
    assert line(mei.out, "music-2.6")["amount"] is None
    back = slate("prices", "unset", "music-2.6", env=env)
    assert back.code == 0 and back.out["changed"]["amount"] is None


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["set", "no-such-model", "1"], "model"),
        (["set", "music-2.6", "-1"], "amount"),
        (["set", "music-2.6", "nan"], "amount"),
        (["set", "music-2.6", "0.15", "--resolution", "768P"], "resolution"),
        (["set", "MiniMax-H3", "0.09"], "resolution"),
        (["set", "MiniMax-Hailuo-2.3", "0.3", "--resolution", "768P"], "duration"),
        (["set", "MiniMax-H3-Image", "3"], "tokens"),
        (["set", "music-2.6"], "amount"),
        (["set", "voice-design", "0.4", "--resolution", "768P"], "resolution"),
        (["set", "voice-design", "0.4", "--duration", "6"], "duration"),
        (["set", "voice-design", "0.4", "--tokens", "input"], "tokens"),
        (["set", "voice-design", "-0.4"], "amount"),
    ],
)
def test_a_price_that_does_not_fit_is_refused_naming_the_field(slate, env, argv, field):
    out = slate("prices", *argv, env=env)
    assert out.code == 2 and out.out["outcome"] == "invalid", out.out
    assert out.out["error"]["field"] == field, out.out
    assert (
        slate("prices", "list", env=env).out["prices"]
        == slate("prices", "list", env={**env, "SLATE_USER": "mei"}).out["prices"]
    )  # nothing was stored


def test_parts_of_a_price_are_given_one_at_a_time(slate, env):
    h3 = slate("prices", "set", "MiniMax-H3", "0.09", "--resolution", "768P", env=env)
    assert h3.out["changed"]["part"] == "768P" and h3.out["changed"]["amount"] == 0.09
    assert line(h3.out, "MiniMax-H3", "2K")["amount"] == 0.13  # the other part: the table's
    clip = slate(
        "prices", "set", "MiniMax-Hailuo-2.3", "0.5", "--resolution", "1080P", "--duration", "6",
        env=env,
    )  # fmt: skip
    assert clip.out["changed"]["part"] == "1080P/6" and clip.out["changed"]["amount"] == 0.5
    tokens = slate("prices", "set", "MiniMax-H3-Image", "4", "--tokens", "output", env=env)
    assert line(tokens.out, "MiniMax-H3-Image", "output")["amount"] == 4.0


def test_a_designed_voice_is_priced_per_voice_unknown_until_given(slate, env):
    made = design(slate, RID + "voice-01", env)
    assert made.out["outcome"] == "created", made.out
    cost = made.out["task"]["cost"]
    assert cost["estimate"] is None and "voice-design 1 voice: price unknown" in cost["basis"]

    listed = slate("prices", "list", env=env)
    voice = line(listed.out, "voice-design")
    assert voice["kind"] == "voice" and voice["scheme"] == "per_voice"
    assert voice["amount"] is None  # unknown, never 0

    budget = {**env, "SLATE_BUDGET_DAILY": "1.00"}
    refused = design(slate, RID + "voice-02", budget, "A bright young guide, quick.")
    assert refused.code == 5 and refused.out["outcome"] == "budget_exceeded", refused.out
    assert "voice-design" in refused.out["error"]["message"]
    assert "slate prices set voice-design AMOUNT" in refused.out["error"]["message"]

    given = slate("prices", "set", "voice-design", "0.40", env=env)
    assert given.code == 0, given.out
    changed = given.out["changed"]
    assert (changed["model"], changed["kind"], changed["scheme"]) == (
        "voice-design",
        "voice",
        "per_voice",
    )
    assert changed["part"] is None and changed["amount"] == 0.4
    assert changed["confidence"] == "yours"

    # judged by the given price: the earlier voice (0.40) + this one (0.40) fit 1.00 ...
    second = design(slate, RID + "voice-02", budget, "A bright young guide, quick.")
    assert second.out["outcome"] == "created", second.out
    assert second.out["task"]["cost"]["estimate"] == 0.4
    assert "voice-design 1 voice: $0.40 a voice" in second.out["task"]["cost"]["basis"]
    # ... and a third would not (1.20 > 1.00): refused over the budget, not for want of a price
    third = design(slate, RID + "voice-03", budget, "An old sailor, gravelly.")
    assert third.code == 5 and third.out["outcome"] == "budget_exceeded", third.out
    assert "slate prices set" not in third.out["error"]["message"]
    spend = slate("spend", "--by", "model", env=env)
    assert spend.out["total"]["estimate"] == pytest.approx(0.8), spend.out
    [group] = [g for g in spend.out["groups"] if g["key"] == "voice-design"]
    assert group["estimate"] == pytest.approx(0.8)
