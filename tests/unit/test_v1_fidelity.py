"""V1 rules found when the adapter was audited against MiniMax's docs (app.domain.params), and the
states the V2 protocol brings (app.domain.states): pure, no network."""

from __future__ import annotations

import pytest

from app.domain.errors import ValidationError
from app.domain.fingerprint import fingerprint
from app.domain.params import check_frame, normalize, request_body
from app.domain.params_v2 import MediaFacts
from app.domain.protocols import V1, V2
from app.domain.states import (
    STOP_STATES,
    TERMINAL,
    Action,
    State,
    allowed_actions,
    has_results,
    state_for_status_word,
)

PNG = "data:image/png;base64,iVBORw0KGgo="
URL = "https://cdn.example.com/frame.png"


def refused(kind: str, field: str, words: str, **raw: object) -> None:
    with pytest.raises(ValidationError) as got:
        normalize(kind, raw)
    assert got.value.field == field and words in str(got.value), got.value


def test_hailuo_02_first_and_last_frame_refuses_512p():
    refused(
        "video",
        "resolution",
        "768P or 1080P",
        prompt="p",
        model="MiniMax-Hailuo-02",
        resolution="512P",
        first_frame_image=URL,
        last_frame_image=URL,
    )
    ok = normalize(
        "video",
        {
            "prompt": "p",
            "model": "MiniMax-Hailuo-02",
            "resolution": "512P",
            "first_frame_image": URL,
        },
    )
    assert ok["resolution"] == "512P"  # 512P with a first frame alone stays allowed
    both = normalize(
        "video",
        {
            "prompt": "p",
            "model": "MiniMax-Hailuo-02",
            "first_frame_image": URL,
            "last_frame_image": URL,
        },
    )
    assert both["resolution"] == "768P"


def test_s2v_01_sends_no_duration_or_resolution():
    norm = normalize("video", {"prompt": "a face", "model": "S2V-01", "subject_reference": URL})
    assert (norm["duration"], norm["resolution"]) == (6, "720P")  # fingerprinted as before
    body = request_body("video", norm)
    assert "duration" not in body and "resolution" not in body
    assert body["subject_reference"] == [{"type": "character", "image": [URL]}]
    hailuo = request_body("video", normalize("video", {"prompt": "p"}))
    assert (hailuo["duration"], hailuo["resolution"]) == (6, "1080P")


def test_fast_pretreatment_is_accepted_where_it_acts_and_changes_no_old_fingerprint():
    plain = normalize("video", {"prompt": "p"})
    off = normalize("video", {"prompt": "p", "fast_pretreatment": False})
    on = normalize("video", {"prompt": "p", "fast_pretreatment": True})
    assert off == plain and "fast_pretreatment" not in plain  # absent: its default
    assert fingerprint("video", off) == fingerprint("video", plain) != fingerprint("video", on)
    assert request_body("video", on)["fast_pretreatment"] is True
    refused(
        "video",
        "fast_pretreatment",
        "Hailuo-2.3, 2.3-Fast and 02",
        prompt="p",
        model="T2V-01",
        fast_pretreatment=True,
    )
    refused("video", "fast_pretreatment", "true or false", prompt="p", fast_pretreatment="yes")


def test_image_01_width_and_height():
    norm = normalize("image", {"prompt": "p", "width": "1024", "height": 768})
    assert (norm["width"], norm["height"], norm["aspect_ratio"]) == (1024, 768, None)
    body = request_body("image", norm)
    assert body["width"] == 1024 and "aspect_ratio" not in body
    plain = normalize("image", {"prompt": "p"})
    assert "width" not in plain and plain["aspect_ratio"] == "1:1"  # old fingerprints stay
    refused("image", "height", "go together", prompt="p", width=1024)
    refused("image", "width", "512–2048", prompt="p", width=500, height=512)
    refused("image", "height", "steps of 8", prompt="p", width=512, height=515)
    refused(
        "image", "width", "image-01 only", prompt="p", model="image-01-live", width=512, height=512
    )
    refused(
        "image", "aspect_ratio", "not both", prompt="p", aspect_ratio="16:9", width=512, height=512
    )


def test_frame_urls_need_a_host():
    refused(
        "video", "first_frame_image", "no host", prompt="p", first_frame_image="https:///etc/passwd"
    )


def facts(w: int, h: int, fmt: str = "png", size: int = 100_000) -> MediaFacts:
    return MediaFacts("image", "0" * 64, size, fmt, "frame.png", w, h)


@pytest.mark.parametrize(
    ("got", "words"),
    [
        (facts(301, 301, "gif"), "GIF is not accepted"),
        (facts(301, 301, size=20 * 1024 * 1024), "smaller than 20 MB"),
        (facts(300, 800), "short side must be more than 300 px"),
        (facts(2000, 700), "2:5 and 5:2"),
        (facts(700, 2000), "2:5 and 5:2"),
    ],
)
def test_frame_images_are_checked(got, words):
    with pytest.raises(ValidationError) as err:
        check_frame(got, "first_frame_image")
    assert err.value.field == "first_frame_image" and words in str(err.value)


def test_frame_limits_hold_at_their_edges():
    check_frame(facts(301, 301), "first_frame_image")
    check_frame(facts(1000, 2500), "first_frame_image")  # 2:5 exactly
    check_frame(facts(301, 301, "webp", 20 * 1024 * 1024 - 1), "first_frame_image")
    with pytest.raises(ValidationError, match="JPEG or PNG"):
        check_frame(facts(800, 800, "webp"), "subject_reference", image_subject=True)
    with pytest.raises(ValidationError, match="at most 10 MB"):
        check_frame(facts(800, 800, size=11 * 1024 * 1024), "subject_reference", image_subject=True)


# -- states --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("word", "state"),
    [
        ("queued", State.QUEUEING),
        ("running", State.PROCESSING),
        ("succeeded", State.DOWNLOADING),
        ("failed", State.FAIL),
        ("cancelled", State.CANCELLED),
        ("Success", State.UNKNOWN),
        ("Queueing", State.UNKNOWN),
        ("completed", State.UNKNOWN),
        ("expired", State.UNKNOWN),
        ("", State.UNKNOWN),
        (None, State.UNKNOWN),
        ("QUEUED", State.UNKNOWN),
    ],
)
def test_the_v2_whitelist(word, state):
    assert state_for_status_word(word, V2) is state


def test_v1_words_stay_v1():
    assert state_for_status_word("Success", V1) is State.DOWNLOADING
    assert state_for_status_word("succeeded", V1) is State.UNKNOWN
    assert state_for_status_word("cancelled") is State.UNKNOWN


def test_cancel_is_offered_while_queued_only_where_the_provider_can_cancel():
    assert allowed_actions(State.QUEUEING) == (Action.QUERY,)
    assert allowed_actions(State.QUEUEING, can_cancel=True) == (Action.QUERY, Action.CANCEL)
    for state in State:
        if state is not State.QUEUEING:
            assert Action.CANCEL not in allowed_actions(state, can_cancel=True)
    assert allowed_actions(State.CANCELLED, can_cancel=True) == (Action.NEW_SLOT,)
    assert State.CANCELLED in TERMINAL and State.CANCELLED in STOP_STATES


def test_a_v2_success_leaves_results_for_redownload():
    assert has_results({"url_by_query": True, "usage": {}})
    assert not has_results({"usage": {"output_seconds": 6}})
