"""Tenant and user normalization (DESIGN.md, "normalization"): one function everywhere.

Tenant: NFKC + casefold, every letter of every script kept, what cannot be kept refused; ASCII
tenants normalize exactly as before, so existing stores keep their slots. User: NFC, trimmed,
empty invalid — ``mei``, ``mei `` and NFC/NFD ``José`` are one user each.
"""

from __future__ import annotations

import re
import string
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import config as config_mod
from app.config import Config
from app.domain.errors import ValidationError
from app.domain.slots import (
    SlotRef,
    idempotency_key,
    normalize_tenant,
    normalize_user,
    slot_key,
    user_digest,
)

RID = "article:20260816:tide-eye:scene-02"


def legacy_normalize_tenant(value: str) -> str:
    """The tenant rule before this change, verbatim (ASCII tenants must keep it)."""
    norm = re.sub(r"[^a-z0-9]+", "-", value.strip().lower()).strip("-")
    if not norm:
        raise ValidationError("tenant", "must contain at least one letter or digit")
    return norm


# -- tenants -----------------------------------------------------------------------------------
def test_tenants_of_other_scripts_are_two_tenants_not_one():
    assert normalize_tenant("北京-studio") == "北京-studio"
    assert normalize_tenant("上海-studio") == "上海-studio"
    assert slot_key("北京-studio", "lin", RID) != slot_key("上海-studio", "lin", RID)
    for kind in ("image", "video"):
        assert idempotency_key("北京-studio", "lin", RID, kind) != idempotency_key(
            "上海-studio", "lin", RID, kind
        )


@pytest.mark.parametrize(
    "given_name, normalized",
    [
        ("Studio A", "studio-a"),
        ("  ACME__Corp!! ", "acme-corp"),
        ("a.b@c", "a-b-c"),
        ("Team #7 (NYC)", "team-7-nyc"),
        ("x-Y_z", "x-y-z"),
        ("東京 スタジオ", "東京-スタジオ"),
        ("Straße", "strasse"),
        ("ＳＴＵＤＩＯ Ａ", "studio-a"),
        ("café", "café"),
        ("cafe\u0301", "café"),
        ("Ⅻ team", "xii-team"),
        ("Москва·Дизайн", "москва-дизайн"),
        ("स्टूडियो", "स्टूडियो"),
        ("İstanbul", "i̇stanbul"),
    ],
)
def test_every_letter_of_every_script_is_kept_and_folded(given_name, normalized):
    assert normalize_tenant(given_name) == normalized
    assert normalize_tenant(normalized) == normalized  # idempotent: stored names stay put


@pytest.mark.parametrize(
    "bad, shown",
    [
        ("studio★", "'★'"),
        ("😀 team", "'😀'"),
        ("team\x9f", "'\\x9f'"),
        ("a\u200bb", "'\\u200b'"),
    ],
)
def test_what_cannot_be_kept_is_refused_naming_the_field_never_dropped(bad, shown):
    with pytest.raises(ValidationError) as exc:
        normalize_tenant(bad)
    assert exc.value.field == "tenant" and shown in str(exc.value)


@pytest.mark.parametrize("bad", ["", "   ", "---", "!!", None, 7])
def test_a_tenant_without_a_letter_or_digit_is_invalid(bad):
    with pytest.raises(ValidationError) as exc:
        normalize_tenant(bad)
    assert exc.value.field == "tenant"


@given(st.text(alphabet=string.printable, min_size=1, max_size=80))
@settings(max_examples=500)
def test_ascii_tenants_normalize_exactly_as_before(value):
    try:
        expected = legacy_normalize_tenant(value)
    except ValidationError:
        with pytest.raises(ValidationError):
            normalize_tenant(value)
        return
    if len(expected) > 64:
        with pytest.raises(ValidationError):
            normalize_tenant(value)
        return
    assert normalize_tenant(value) == expected


def test_existing_slots_keep_their_keys():
    """Digests computed by the code before this change: a store written then still finds its
    slots (the tenant ``Studio A`` of user ``lin``)."""
    assert slot_key("Studio A", "lin", RID) == (
        "fef1b4388ee136aa6d7d71da866532e533b7a8f084667197cd11ae937ecb1f1f"
    )
    assert idempotency_key("Studio A", "lin", RID, "video") == (
        "video:51944bce16f9c037ca69faa5f8b981563a578d0ea7c9059258d6ab45b4b3beb1"
    )
    assert SlotRef.parse("Studio A", "lin", RID).slot_key == slot_key("Studio A", "lin", RID)


@given(st.text(min_size=1, max_size=40))
@settings(max_examples=400)
def test_normalized_tenants_never_merge_two_letter_sequences(value):
    """Injective in practice: two names that normalize alike have the same letters and digits
    in the same order (only separators and case/width forms differ)."""
    try:
        norm = normalize_tenant(value)
    except ValidationError:
        return
    letters = [
        c
        for c in unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", value).casefold())
        if unicodedata.category(c)[0] in "LMN"
    ]
    assert [c for c in norm if c != "-"] == letters


# -- users ---------------------------------------------------------------------------------------
JOSE_NFC = unicodedata.normalize("NFC", "José")
JOSE_NFD = unicodedata.normalize("NFD", "José")


def test_mei_and_mei_with_spaces_are_one_user():
    assert JOSE_NFC != JOSE_NFD  # the two spellings really differ as strings
    for same in (("mei", "mei ", " mei", "\tmei\n"), (JOSE_NFC, JOSE_NFD, f" {JOSE_NFD} ")):
        assert len({normalize_user(u) for u in same}) == 1
        assert len({user_digest(u) for u in same}) == 1
        assert len({slot_key("studio-a", u, RID) for u in same}) == 1
        assert len({SlotRef.parse("studio-a", u, RID).user_hash for u in same}) == 1
    assert normalize_user(JOSE_NFD) == JOSE_NFC
    assert user_digest("mei") != user_digest("Mei")  # case is kept: two designers


@pytest.mark.parametrize("bad", ["", "   ", "\t\n", None, "me\x00i", "a" * 201])
def test_an_empty_or_unstorable_user_is_invalid(bad):
    with pytest.raises(ValidationError) as exc:
        normalize_user(bad)
    assert exc.value.field == "user"


def test_the_command_line_the_settings_and_a_config_made_in_code_agree(tmp_path):
    """One function everywhere: flags/environment (``config.load``), the GUI's settings (which
    go through ``config.load``), and a ``Config`` made directly by code."""
    env = {"SLATE_DATA_DIR": str(tmp_path)}
    by_flag = config_mod.load({"user": f" {JOSE_NFD} ", "tenant": "ＳＴＵＤＩＯ Ａ"}, env)
    by_env = config_mod.load({}, {**env, "SLATE_USER": JOSE_NFC, "SLATE_TENANT": "studio a"})
    in_code = Config(
        data_dir=tmp_path,
        store="sqlite://",
        provider="demo",
        base_url=None,
        tenant="Studio A",
        user=JOSE_NFD + "  ",
    )
    assert {(c.tenant, c.user) for c in (by_flag, by_env, in_code)} == {("studio-a", JOSE_NFC)}
    with pytest.raises(ValidationError) as exc:
        Config(
            data_dir=tmp_path,
            store="sqlite://",
            provider="demo",
            base_url=None,
            tenant="studio",
            user="   ",
        )
    assert exc.value.field == "user"


def test_the_gui_settings_apply_the_same_normalization(tmp_path):
    from app.ui import settings as ui_settings

    base = config_mod.load({"data_dir": str(tmp_path)}, {})
    applied = ui_settings.apply(
        base,
        ui_settings.ServiceSettings.from_values({"tenant": "北京 Studio", "user": f"{JOSE_NFD} "}),
    )
    assert (applied.tenant, applied.user) == ("北京-studio", JOSE_NFC)
