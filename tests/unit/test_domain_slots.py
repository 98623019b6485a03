"""RequestId rules, idempotency keys and the fingerprint (property tests)."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.errors import ValidationError
from app.domain.fingerprint import fingerprint
from app.domain.naming import suggest_next_request_id
from app.domain.params import normalize
from app.domain.slots import (
    SlotRef,
    idempotency_key,
    normalize_tenant,
    slot_key,
    validate_request_id,
)

RULE = re.compile(r"[A-Za-z0-9._:\-]{8,120}")
ALLOWED = string.ascii_letters + string.digits + "._:-"


@given(st.text(max_size=140))
@settings(max_examples=400)
def test_request_id_acceptance_equals_the_rule_for_any_text(value):
    accepted = True
    try:
        validate_request_id(value)
    except ValidationError:
        accepted = False
    assert accepted == bool(RULE.fullmatch(value))


@given(st.text(alphabet=ALLOWED, max_size=130))
@settings(max_examples=300)
def test_request_id_acceptance_near_the_length_bounds(value):
    accepted = True
    try:
        validate_request_id(value)
    except ValidationError:
        accepted = False
    assert accepted == (8 <= len(value) <= 120)


@pytest.mark.parametrize(
    "value, rule",
    [
        ("short", "8 to 120"),
        ("x" * 121, "at most 120"),
        ("scene 02 x", "' '"),
        ("场景:scene-02", "'场'"),
        (None, "string"),
    ],
)
def test_request_id_message_names_the_rule(value, rule):
    with pytest.raises(ValidationError) as exc:
        validate_request_id(value)
    assert exc.value.field == "request_id"
    assert rule in str(exc.value)


ids = st.text(alphabet=ALLOWED, min_size=8, max_size=40)
names = st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=12)


@given(names, names, ids, names, names, ids)
def test_keys_differ_across_tenant_user_and_request_id(t1, u1, r1, t2, u2, r2):
    same = (normalize_tenant(t1), u1, r1) == (normalize_tenant(t2), u2, r2)
    for kind in ("image", "video"):
        assert (idempotency_key(t1, u1, r1, kind) == idempotency_key(t2, u2, r2, kind)) == same


@given(names, names, ids)
def test_keys_differ_across_kind_and_hide_user_and_request_id(tenant, user, rid):
    img, vid = (
        idempotency_key(tenant, user, rid, "image"),
        idempotency_key(tenant, user, rid, "video"),
    )
    assert img != vid
    assert img.startswith("image:") and vid.startswith("video:")
    # A key is its kind and a SHA-256 digest, nothing else: no raw user or RequestId inside.
    # (Checking `rid not in key` instead fails by chance: '00000000' occurs in hex digests.)
    for key, prefix in ((img, "image:"), (vid, "video:"), (slot_key(tenant, user, rid), "")):
        assert re.fullmatch(re.escape(prefix) + "[0-9a-f]{64}", key), key


@given(st.text(min_size=1, max_size=30), names, ids)
def test_a_slot_ref_derives_the_same_keys_as_the_functions(tenant, user, rid):
    try:
        ref = SlotRef.parse(tenant, user, rid)
    except ValidationError:
        return
    assert ref.slot_key == slot_key(tenant, user, rid)
    # the digests are made with the address, not part of it: equal addresses, equal refs
    again = SlotRef.parse(tenant, user, rid)
    assert again == ref and hash(again) == hash(ref) and repr(ref).count("=") == 3
    for kind in ("image", "video"):
        assert ref.key(kind) == idempotency_key(tenant, user, rid, kind)


def test_tenant_is_normalized_and_readable():
    assert normalize_tenant(" Studio A ") == "studio-a"
    assert idempotency_key("Studio A", "lin", "scene-000001", "video") == idempotency_key(
        "studio-a", "lin", "scene-000001", "video"
    )


def test_suggest_next_request_id():
    assert (
        suggest_next_request_id("article:20260816:tide-eye:scene-02")
        == "article:20260816:tide-eye:scene-02.t2"
    )
    assert suggest_next_request_id("scene-02.t2") == "scene-02.t3"
    assert suggest_next_request_id("scene-02", {"scene-02.t2"}) == "scene-02.t3"


# -- fingerprint ---------------------------------------------------------------------------
video_params = st.fixed_dictionaries(
    {},
    optional={
        "prompt": st.text(min_size=1, max_size=50).filter(lambda s: s.strip()),
        "duration": st.sampled_from([6, 10]),
        "prompt_optimizer": st.booleans(),
    },
)


def _fp(kind, raw):
    return fingerprint(kind, normalize(kind, raw))


@given(
    st.dictionaries(
        st.sampled_from(["prompt", "aspect_ratio", "n", "seed", "prompt_optimizer"]), st.just(None)
    ),
    st.randoms(),
)
def test_fingerprint_ignores_key_order(_unused, rnd):
    raw = {
        "prompt": "tide eye",
        "aspect_ratio": "16:9",
        "n": 3,
        "seed": 7,
        "prompt_optimizer": True,
    }
    items = list(raw.items())
    rnd.shuffle(items)
    assert _fp("image", dict(items)) == _fp("image", raw)


def test_fingerprint_ignores_stated_defaults():
    assert _fp("video", {"prompt": "tide eye"}) == _fp(
        "video",
        {
            "prompt": "tide eye",
            "model": "MiniMax-Hailuo-2.3",
            "duration": 6,
            "resolution": "1080P",
            "prompt_optimizer": True,
            "first_frame_image": None,
        },
    )
    assert _fp("image", {"prompt": "p"}) == _fp(
        "image",
        {
            "prompt": "p",
            "model": "image-01",
            "aspect_ratio": "1:1",
            "n": 1,
            "response_format": "url",
            "prompt_optimizer": False,
            "seed": None,
        },
    )


BASE_IMAGE = {
    "prompt": "tide eye at dusk",
    "aspect_ratio": "16:9",
    "n": 2,
    "seed": 11,
    "subject_reference": "https://example.test/ref-a.png",
}
IMAGE_CHANGES = [
    ("prompt", "tide eye at dusk "),
    ("prompt", "Tide eye at dusk"),
    ("aspect_ratio", "9:16"),
    ("n", 3),
    ("seed", 12),
    ("subject_reference", "https://example.test/ref-b.png"),
    ("prompt_optimizer", True),
    ("response_format", "base64"),
]


@pytest.mark.parametrize("field, value", IMAGE_CHANGES)
def test_fingerprint_changes_with_any_one_image_parameter(field, value):
    assert _fp("image", {**BASE_IMAGE, field: value}) != _fp("image", BASE_IMAGE)


BASE_VIDEO = {
    "prompt": "tide eye, slow dolly in",
    "model": "MiniMax-Hailuo-02",
    "duration": 6,
    "resolution": "768P",
    "first_frame_image": "https://example.test/f1.png",
}
VIDEO_CHANGES = [
    ("prompt", "tide eye,  slow dolly in"),
    ("duration", 10),
    ("resolution", "1080P"),
    ("first_frame_image", "https://example.test/f2.png"),
    ("prompt_optimizer", False),
    ("model", "MiniMax-Hailuo-2.3"),
]


@pytest.mark.parametrize("field, value", VIDEO_CHANGES)
def test_fingerprint_changes_with_any_one_video_parameter(field, value):
    assert _fp("video", {**BASE_VIDEO, field: value}) != _fp("video", BASE_VIDEO)


#: Text a store can keep: no NUL, no lone surrogate (both are refused naming the field).
STORABLE = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")


@given(st.text(STORABLE, min_size=1, max_size=200).filter(str.strip), st.integers(0, 199))
def test_one_added_space_anywhere_changes_the_fingerprint(prompt, pos):
    pos = pos % (len(prompt) + 1)
    spaced = prompt[:pos] + " " + prompt[pos:]
    assert _fp("image", {"prompt": spaced}) != _fp("image", {"prompt": prompt})


def test_fingerprint_differs_across_kind_for_same_prompt():
    assert _fp("image", {"prompt": "x"}) != _fp("video", {"prompt": "x"})
