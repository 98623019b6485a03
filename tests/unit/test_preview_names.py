"""A preview's RequestId follows from its voice, model and text, within the RequestId rules."""

from __future__ import annotations

import pytest

from app.domain import preview
from app.domain.errors import ValidationError
from app.domain.naming import validate_new_request_id
from app.domain.slots import REQUEST_ID_MAX


@pytest.mark.parametrize(
    "voice",
    [
        "English_expressive_narrator",
        "Chinese (Mandarin)_News_Anchor",
        "female-shaonv",
        "slatev1" + "a" * 40,
        "x" * 256,
        "声音",
    ],
)
def test_every_voice_id_gives_a_new_request_id(voice):
    rid = preview.request_id(voice, "Hello.")
    assert validate_new_request_id(rid) == rid and len(rid) <= REQUEST_ID_MAX
    assert rid.startswith(preview.PREFIX) and preview.is_preview(rid)
    assert preview.request_id(voice, "Hello.") == rid  # a pure function
    assert preview.request_id(voice, "Hello!") != rid
    assert preview.request_id(voice, "Hello.", "speech-2.8-turbo") != rid


def test_lossy_voice_parts_still_name_other_slots():
    assert preview.request_id("a b", "Hi") != preview.request_id("a-b", "Hi")


def test_the_default_words_follow_the_voice_or_the_language_asked():
    assert preview.default_text("English_Graceful_Lady") == preview.DEFAULT_TEXTS["en"]
    assert preview.default_text("Chinese (Mandarin)_News_Anchor") == preview.DEFAULT_TEXTS["zh"]
    assert preview.default_text("male-qn-qingse") == preview.DEFAULT_TEXTS["zh"]
    assert preview.default_text("English_Graceful_Lady", "zh") == preview.DEFAULT_TEXTS["zh"]


def test_a_blank_voice_is_refused_naming_voice():
    with pytest.raises(ValidationError) as caught:
        preview.check_voice("  ")
    assert caught.value.field == "voice"


def test_every_preview_belongs_to_one_project_whatever_its_voice():
    """Auditions are kept together in the slot list, not one project per voice."""
    from app.domain.naming import PREVIEW_PROJECT, project_of

    rids = [preview.request_id(v, "Hello.") for v in ("English_expressive_narrator", "声音")]
    assert {project_of(r) for r in rids} == {PREVIEW_PROJECT}
    assert project_of("article:20260816:tide-eye:scene-02") == "tide-eye"
