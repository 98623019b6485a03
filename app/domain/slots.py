"""Slots: RequestId rules, tenant normalization and idempotency keys.

A slot is one business intent, named by a stable RequestId and scoped by tenant and user.
The idempotency key is derived as DESIGN.md says: the normalized tenant stays readable,
user and RequestId enter only as SHA-256 digests, and a task-kind prefix wraps a second hash,
so no raw user name or RequestId ever lands in an index column.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from app.domain.errors import Rule, ValidationError

Kind = Literal["image", "video", "prompt", "music", "speech", "voice"]
#: prompt: an enhanced prompt (text); music and speech: sound (app.domain.params_sound);
#: voice: a designed voice (app.domain.params_voice)
KINDS: tuple[Kind, ...] = ("image", "video", "prompt", "music", "speech", "voice")

#: The kinds a create names, as a refusal lists them (a ``prompt`` slot is made by ``enhance``).
CREATE_KINDS_TEXT = "image, video, music, speech or voice"

REQUEST_ID_MIN = 8
REQUEST_ID_MAX = 120
_REQUEST_ID_CHARS = re.compile(r"[A-Za-z0-9._:\-]*")
TENANT_MAX = 64
USER_MAX = 200


def unknown_kind(value: object) -> ValidationError:
    """The refusal of a kind Slate does not make, typed (``kind``, :attr:`Rule.NOT_OFFERED`
    naming the kinds it makes): one sentence wherever a kind is judged."""
    return ValidationError(
        "kind",
        f"must be {CREATE_KINDS_TEXT}",
        Rule.NOT_OFFERED,
        model="Slate",
        value=value,
        instead=CREATE_KINDS_TEXT,
    )


def validate_request_id(value: object, field: str = "request_id") -> str:
    """Return the RequestId unchanged, or raise naming the rule it breaks."""
    if not isinstance(value, str):
        raise ValidationError(field, "must be a string")
    if len(value) < REQUEST_ID_MIN:
        raise ValidationError(
            field,
            f"is {len(value)} characters; a RequestId has {REQUEST_ID_MIN} to "
            f"{REQUEST_ID_MAX} characters",
            Rule.LENGTH if value else Rule.REQUIRED,
            count=len(value),
            low=REQUEST_ID_MIN,
            high=REQUEST_ID_MAX,
        )
    if len(value) > REQUEST_ID_MAX:
        raise ValidationError(
            field,
            f"is {len(value)} characters; a RequestId has at most {REQUEST_ID_MAX}",
            Rule.LENGTH,
            count=len(value),
            low=REQUEST_ID_MIN,
            high=REQUEST_ID_MAX,
        )
    if not _REQUEST_ID_CHARS.fullmatch(value):
        bad = next(c for c in value if not _REQUEST_ID_CHARS.fullmatch(c))
        raise ValidationError(
            field,
            f"contains {bad!r}; only A-Z a-z 0-9 . _ : - are allowed",
            Rule.CHARACTERS,
            bad=bad,
            allowed="A-Z a-z 0-9 . _ : -",
        )
    return value


def _tenant_char(c: str) -> str | None:
    """What one character of a case-folded tenant becomes: itself (a letter, mark or digit of
    any script), ``-`` (a separator: any ASCII non-alphanumeric, Unicode punctuation and
    spaces), or None (cannot be kept: symbols, emoji, control characters)."""
    if c.isascii():
        return c if c.isalnum() else "-"
    cat = unicodedata.category(c)
    if cat[0] in "LMN":
        return c
    if cat[0] in "PZ":
        return "-"
    return None


def normalize_tenant(value: object, field: str = "tenant") -> str:
    """The tenant as every layer stores it (DESIGN.md, "normalization"): NFKC + casefold;
    every letter, mark and digit of every script is kept; each run of separators becomes one
    ``-`` (ends trimmed). A character that can be neither kept nor read as a separator (a
    symbol, an emoji, a control character) is refused, never dropped.

    ASCII names normalize exactly as before (lower case, each run of other characters one
    ``-``): ``Studio A`` → ``studio-a``, so existing stores keep their slots."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(field, "must be a non-empty name")
    return _normalized_tenant(value, field)


@lru_cache(maxsize=512)  # every submit names its tenant again; a refusal is never kept
def _normalized_tenant(value: str, field: str) -> str:
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", value).casefold())
    out: list[str] = []
    for c in folded:
        kept = _tenant_char(c)
        if kept is None:
            raise ValidationError(
                field,
                f"contains {c!r} (U+{ord(c):04X}), which a tenant name cannot hold; "
                "use letters and digits of any script, with spaces or punctuation between words",
            )
        if kept != "-" or (out and out[-1] != "-"):
            out.append(kept)
    norm = "".join(out).strip("-")
    if not any(unicodedata.category(c)[0] in "LN" for c in norm):
        raise ValidationError(field, "must contain at least one letter or digit")
    if len(norm) > TENANT_MAX:
        raise ValidationError(field, f"is longer than {TENANT_MAX} characters once normalized")
    return norm


def normalize_user(value: object, field: str = "user") -> str:
    """The user as every layer sees it (DESIGN.md, "normalization"): Unicode NFC, surrounding
    whitespace trimmed; empty, or holding a control character, is invalid."""
    if not isinstance(value, str):
        raise ValidationError(field, "must be a non-empty name")
    return _normalized_user(value, field)


@lru_cache(maxsize=512)
def _normalized_user(value: str, field: str) -> str:
    norm = unicodedata.normalize("NFC", value).strip()
    if not norm:
        raise ValidationError(field, "must be a non-empty name")
    bad = next((c for c in norm if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise ValidationError(field, f"contains the control character U+{ord(bad):04X}")
    if len(norm) > USER_MAX:
        raise ValidationError(field, f"is longer than {USER_MAX} characters")
    return norm


#: The former name of :func:`normalize_user` (it validates and normalizes).
validate_user = normalize_user


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=64)  # a process serves one user or a few: every slot asks again
def _user_hash(user: str) -> str:
    return sha256_hex(user)


def user_digest(user: str) -> str:
    """SHA-256 of the normalized user: ``mei``, ``mei `` and NFC/NFD ``José`` are one user."""
    return _user_hash(normalize_user(user))


def slot_key(tenant: str, user: str, request_id: str) -> str:
    """The kind-free name of a slot: finds the slot whatever kind it was created as."""
    return sha256_hex(
        f"slate:{normalize_tenant(tenant)}:{user_digest(user)}:{sha256_hex(request_id)}"
    )


def idempotency_key(tenant: str, user: str, request_id: str, kind: Kind) -> str:
    """``kind:`` + SHA-256 of the scoped inner key, as in DESIGN.md's vocabulary."""
    if kind not in KINDS:
        raise ValidationError("kind", f"must be one of {', '.join(KINDS)}")
    inner = f"slate:{normalize_tenant(tenant)}:{kind}:{user_digest(user)}:{sha256_hex(request_id)}"
    return f"{kind}:{sha256_hex(inner)}"


@dataclass(frozen=True)
class SlotRef:
    """A validated slot address: tenant, user and RequestId."""

    tenant: str
    user: str
    request_id: str
    #: The digests every use of a slot asks for, made with it (two ``cached_property`` reads
    #: cost more than the digests on Python 3.11: each takes a lock). Derived: not compared.
    request_hash: str = field(init=False, repr=False, compare=False)
    #: :func:`slot_key` of this slot (the tenant is normalized already; digests reused).
    slot_key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        request_hash = sha256_hex(self.request_id)
        object.__setattr__(self, "request_hash", request_hash)
        object.__setattr__(
            self, "slot_key", sha256_hex(f"slate:{self.tenant}:{self.user_hash}:{request_hash}")
        )

    @classmethod
    def parse(cls, tenant: object, user: object, request_id: object) -> "SlotRef":
        return cls(normalize_tenant(tenant), normalize_user(user), validate_request_id(request_id))

    @property
    def user_hash(self) -> str:
        return _user_hash(self.user)  # normalized by parse

    def key(self, kind: Kind) -> str:
        """:func:`idempotency_key` of this slot, from the digests it already holds."""
        if kind not in KINDS:
            raise ValidationError("kind", f"must be one of {', '.join(KINDS)}")
        inner = f"slate:{self.tenant}:{kind}:{self.user_hash}:{self.request_hash}"
        return f"{kind}:{sha256_hex(inner)}"
