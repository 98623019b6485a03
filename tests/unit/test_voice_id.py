"""The voice id a voice slot sends: a pure function of its idempotency key, within MiniMax's
custom voice id rules, never the RequestId in clear, another for another tenant, user or
RequestId (DESIGN.md "Voice design")."""

from __future__ import annotations

import pytest

from app.domain.errors import ValidationError
from app.domain.params_voice import (
    PREVIEW_TEXT_MAX,
    design_body,
    is_valid_voice_id,
    normalize,
    voice_id_for,
)
from app.domain.slots import SlotRef

RID = "voice:20261202:tide-eye:narrator-01"


def vid(tenant: str = "studio-a", user: str = "lin", rid: str = RID) -> str:
    return voice_id_for(SlotRef.parse(tenant, user, rid).key("voice"))


def test_deterministic_and_within_the_rules() -> None:
    one = vid()
    assert one == vid() == vid(tenant="Studio A", user=" lin ")  # normalized like the slot
    assert is_valid_voice_id(one) and 8 <= len(one) <= 256
    assert one[0].isalpha() and one.isalnum() and any(c.isdigit() for c in one)
    assert "narrator" not in one and "tide" not in one


def test_another_tenant_user_or_request_id_is_another_voice() -> None:
    ids = {vid(), vid(tenant="studio-b"), vid(user="mei"), vid(rid=RID + ".t2")}
    assert len(ids) == 4


def test_only_a_voice_slots_key_derives_one() -> None:
    with pytest.raises(ValueError):
        voice_id_for(SlotRef.parse("studio-a", "lin", RID).key("speech"))


@pytest.mark.parametrize(
    "bad", ["short1", "1startsWithDigit", "ends-with-", "has space9", "x" * 257]
)
def test_the_rules_refuse(bad: str) -> None:
    assert not is_valid_voice_id(bad)


def test_fields_are_named_and_the_body_is_minimax_s() -> None:
    with pytest.raises(ValidationError) as e:
        normalize({"prompt": "warm", "preview_text": "x" * (PREVIEW_TEXT_MAX + 1)})
    assert e.value.field == "preview_text"
    with pytest.raises(ValidationError) as e:
        normalize({"preview_text": "Hello."})
    assert e.value.field == "prompt"
    norm = normalize({"prompt": "warm", "preview_text": "x" * PREVIEW_TEXT_MAX})
    assert design_body(norm, vid()) == {
        "prompt": "warm",
        "preview_text": "x" * PREVIEW_TEXT_MAX,
        "voice_id": vid(),
    }
