"""A preview's RequestId follows from its voice, model and text, within the RequestId rules."""

from __future__ import annotations

import inspect

import pytest

from app.domain import preview
from app.domain.errors import ValidationError
from app.domain.naming import validate_new_request_id
from app.domain.params_sound import SYSTEM_VOICES
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


def test_the_default_words_follow_the_voice():
    assert preview.default_text("English_Graceful_Lady") == preview.DEFAULT_TEXTS["en"]
    assert preview.default_text("Chinese (Mandarin)_News_Anchor") == preview.DEFAULT_TEXTS["zh"]
    assert preview.default_text("Cantonese_ProfessionalHost（F)") == preview.DEFAULT_TEXTS["zh"]
    assert preview.default_text("male-qn-qingse") == preview.DEFAULT_TEXTS["zh"]
    assert preview.default_text("slatev1" + "a" * 40) == preview.DEFAULT_TEXTS["en"]


@pytest.mark.parametrize(("voice", "name"), SYSTEM_VOICES)
def test_a_documented_voice_says_its_line_in_its_documented_language(voice, name):
    chinese = any("\u4e00" <= c <= "\u9fff" for c in name)
    assert preview.language_of(voice) == ("zh" if chinese else "en")
    assert preview.default_text(voice) == preview.DEFAULT_TEXTS["zh" if chinese else "en"]


def test_only_the_voice_decides_the_default_words_never_a_language_passed_in():
    """No caller (the window's language, the CLI's --lang) can pick the line: the voice alone
    decides, in the domain, so the preview's slot is the same whoever asks."""
    from app.service import preview as service_preview
    from app.service.slate import SlateService

    assert list(inspect.signature(preview.default_text).parameters) == ["voice"]
    for fn in (
        service_preview.quote,
        service_preview.hear,
        SlateService.preview_price,
        SlateService.preview_voice,
    ):
        assert "language" not in inspect.signature(fn).parameters, fn.__qualname__


def test_the_stored_previews_keep_their_names():
    """A documented voice's default line is the one it always had, so a preview made before
    still replays (its RequestId is a digest of voice, model and text)."""
    named = {
        v: preview.request_id(v, preview.default_text(v))
        for v in ("English_expressive_narrator", "Chinese (Mandarin)_News_Anchor")
    }
    assert named == {
        "English_expressive_narrator": "preview:voice:English_expressive_narrator:f58c9054d32a5d90",
        "Chinese (Mandarin)_News_Anchor": "preview:voice:Chinese-Mandarin-_News_Anchor:268f0703b31a1e10",
    }


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
