"""MiniMax-H3-Image's rules without I/O: defaults stated, generations vs edits, the body, the
size an answer is held to, token pricing; and image-01 left as it was."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.domain import params_h3image as h3i
from app.domain.cost import estimate, reported
from app.domain.errors import ValidationError
from app.domain.fingerprint import fingerprint
from app.domain.params import normalize
from app.domain.params_v2 import MediaFacts
from app.domain.prices import parse_table
from app.service.media import ImageCheck, VerificationFailed
from app.service.prices import shipped_text

GEN = {"model": "MiniMax-H3-Image", "prompt": "a kite"}


def test_defaults_are_stated_so_the_provider_never_decides_the_size():
    norm = normalize("image", GEN)
    assert (norm["aspect_ratio"], norm["area"], norm["n"], norm["size"]) == ("1:1", "1K", 1, None)
    assert normalize("image", {**GEN, "aspect_ratio": "1:1", "area": "1k", "n": 1}) == norm
    body = h3i.request_body(norm, {})
    assert body == {
        "model": "MiniMax-H3-Image",
        "prompt": "a kite",
        "n": 1,
        "response_format": "url",
        "aspect_ratio": "1:1",
        "area": "1K",
    }
    assert h3i.endpoint(norm) == h3i.GENERATIONS


def test_an_edit_sends_its_references_in_order_by_url_and_data_url():
    facts = MediaFacts("image", "ab" * 32, 1234, "png", "ref.png", 640, 480)
    norm = normalize(
        "image", {**GEN, "size": "2048x1152", "reference_image": ["https://x.test/a.png", facts]}
    )
    assert norm["reference_image"][1] == facts.item()  # no name, no path
    assert h3i.endpoint(norm) == h3i.EDITS
    body = h3i.request_body(norm, {"ab" * 32: "data:image/png;base64,AAAA"})
    assert body["size"] == "2048x1152" and "aspect_ratio" not in body
    assert body["images"] == [
        {"image_url": "https://x.test/a.png"},
        {"image_url": "data:image/png;base64,AAAA"},
    ]


@pytest.mark.parametrize(
    ("w", "h", "ok"),
    [
        (128, 128, True),
        (127, 500, False),
        (8193, 4000, False),
        (1000, 250, True),
        (1001, 250, False),
    ],
)
def test_reference_sides_and_long_to_short(w, h, ok):
    facts = MediaFacts("image", "cd" * 32, 10, "jpeg", "r.jpg", w, h)
    if ok:
        h3i.check_reference(facts)
    else:
        with pytest.raises(ValidationError) as got:
            h3i.check_reference(facts)
        assert got.value.field == "reference_image"


def test_size_bounds():
    assert h3i.parse_size("810x810") == (810, 810)  # 656,100 px
    for bad in ("800x800", "4473x4473", "3001x1000"):  # area low, area high, wider than 3:1
        with pytest.raises(ValidationError):
            h3i.parse_size(bad)


def test_an_answer_is_held_to_the_size_or_the_aspect_asked():
    exact = ImageCheck.of(normalize("image", {**GEN, "size": "1280x720"}))
    assert exact is not None and exact.size == (1280, 720)
    exact.hold(1280, 720)
    with pytest.raises(VerificationFailed):
        exact.hold(1024, 1024)
    ratio = ImageCheck.of(normalize("image", {**GEN, "aspect_ratio": "16:9"}))
    assert ratio is not None and ratio.aspect == pytest.approx(16 / 9)
    with pytest.raises(VerificationFailed):
        ratio.hold(1024, 1024)


def test_tokens_price_the_report_and_the_estimate_is_unknown():
    table = parse_table(shipped_text())
    norm = normalize("image", GEN)
    cost = estimate("image", norm, table)
    assert cost.estimate is None and "tokens" in cost.basis
    usage = {"input_tokens": 1000, "output_tokens": 4096}
    assert reported("image", norm, usage, table) == Decimal("0.0023") + Decimal("0.0155648")
    fast = {**norm, "model": "MiniMax-H3-Image-Highspeed"}
    assert reported("image", fast, usage, table) == Decimal("0.0023") + Decimal("0.0311296")
    assert reported("image", norm, {"input_tokens": 5}, table) is None  # never a smaller sum


def test_image_01_is_unchanged():
    old = normalize("image", {"prompt": "a kite"})
    assert set(old) == {
        "model",
        "prompt",
        "aspect_ratio",
        "n",
        "seed",
        "response_format",
        "prompt_optimizer",
        "subject_reference",
    }
    with pytest.raises(ValidationError) as got:
        normalize("image", {"prompt": "a kite", "size": "1024x1024"})
    assert got.value.field == "size"
    assert fingerprint("image", old) != fingerprint("image", normalize("image", GEN))
