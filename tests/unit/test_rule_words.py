"""A rule's refusal is typed by the domain (``Rule`` and its values) and said by app.present.words in
the designer's words, English and zh_CN: every kind has a sentence, the refusals a designer meets
in the form are typed (not ``OTHER``), and every place in the sentence is filled."""

from __future__ import annotations

import re

import pytest

from app.domain.errors import Rule, ValidationError
from app.domain.params import normalize
from app.domain.params_v2 import MediaFacts
from app.domain.slots import validate_request_id
from app.present import words

H3 = {"model": "MiniMax-H3", "prompt": "tide eye", "duration": 4, "resolution": "768P"}
HAILUO = {"model": "MiniMax-Hailuo-2.3", "prompt": "tide eye", "duration": 6, "resolution": "768P"}
SMALL = MediaFacts("image", "0" * 64, 1000, "png", "tiny.png", 100, 100)
CASES = [
    ("video", {**H3, "prompt": " ", "first_frame_image": "https://x.example/a.png"}, Rule.REQUIRED),
    ("video", {**H3, "first_frame_image": "ftp://x.example/a.png"}, Rule.SOURCE),
    ("video", {**H3, "first_frame_image": "http://x.example/a.png"}, Rule.PLAIN_HTTP),
    ("video", {**H3, "first_frame_image": "https://localhost/a.png"}, Rule.PRIVATE_ADDRESS),
    ("video", {**H3, "first_frame_image": "data:image/png;base64,AAAA"}, Rule.NOT_READ),
    ("video", {**H3, "first_frame_image": SMALL}, Rule.SIDES),
    ("video", {**H3, "prompt": "x" * 8000}, Rule.TOO_LONG),
    ("video", {**H3, "duration": 99}, Rule.NOT_OFFERED),
    (
        "video",
        {**HAILUO, "model": "MiniMax-Hailuo-02", "last_frame_image": "https://x.example/b.png"},
        Rule.NEEDS_FIRST_FRAME,
    ),
    ("video", {**H3, "ratio": "adaptive"}, Rule.ADAPTIVE_NEEDS_MEDIA),
    ("video", {**HAILUO, "duration": 10, "resolution": "1080P"}, Rule.NOT_OFFERED),
    ("video", {**HAILUO, "last_frame_image": "https://x.example/b.png"}, Rule.NOT_TAKEN),
    ("image", {"prompt": "a gull", "n": 12}, Rule.OUT_OF_RANGE),
    ("image", {"prompt": "a gull", "seed": "abc"}, Rule.WHOLE_NUMBER),
]


def refusal(kind: str, raw: dict) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        normalize(kind, raw)
    return caught.value


@pytest.mark.parametrize(("kind", "raw", "rule"), CASES, ids=[c[2].value for c in CASES])
def test_the_forms_refusals_are_typed_and_said_whole(kind, raw, rule):
    exc = refusal(kind, raw)
    assert exc.rule is rule, (exc.field, exc.message)
    said = words.rule_words(exc.rule, exc.values, exc.field)
    assert said and "{" not in said and "}" not in said, said
    if rule in (Rule.REQUIRED, Rule.SOURCE, Rule.NOT_READ):  # the examples
        assert exc.message not in said, said  # the designer's words, not the rules' English


def test_every_kind_of_refusal_has_chinese_words(qapp):
    from app.ui.app import install_translations
    from app.ui.qt import translate

    sentences = [*words.RULE_WORDS.values(), *words.RULE_WORDS_FOR.values()]
    sentences += [*words.MEDIA_KIND_WORDS.values(), words.THIS_FILE, words.NOT_ADDED]
    assert set(words.RULE_WORDS) == set(Rule)
    install_translations(qapp, "zh_CN")
    try:
        missing = [s for s in sentences if not re.search(r"[\u4e00-\u9fff]", translate("Words", s))]
        places = [
            s
            for s in sentences
            if set(re.findall(r"\{\w+\}", s)) != set(re.findall(r"\{\w+\}", translate("Words", s)))
        ]
        exc = refusal(*CASES[1][:2])
        zh = words.rule_words(exc.rule, exc.values, exc.field, translate)
    finally:
        install_translations(qapp, "en")
    assert missing == [] and places == []  # each translation keeps the same places
    assert re.search(r"[\u4e00-\u9fff]", zh) and "must be" not in zh


def test_the_request_ids_refusals_are_typed():
    for value, rule in (
        ("", Rule.REQUIRED),
        ("abc", Rule.LENGTH),
        ("a b c d e f g", Rule.CHARACTERS),
    ):
        with pytest.raises(ValidationError) as caught:
            validate_request_id(value)
        assert caught.value.rule is rule
        said = words.rule_words(caught.value.rule, caught.value.values, "request_id")
        assert "{" not in said and "RequestId" not in said, said


def test_a_refusal_not_typed_yet_says_its_own_words():
    exc = ValidationError("voice", "is not a voice this model has")
    assert exc.rule is Rule.OTHER
    assert words.refused_input(exc) == "Not added — is not a voice this model has"


def test_a_kind_slate_does_not_make_is_typed_and_names_voice():
    exc = refusal("sound", {})
    assert exc.field == "kind" and exc.rule is Rule.NOT_OFFERED
    assert "voice" in exc.message and "speech" in exc.message
    said = words.rule_words(exc.rule, exc.values, exc.field)
    assert said == "Slate does not offer sound; choose image, video, music, speech or voice."
