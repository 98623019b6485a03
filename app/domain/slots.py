"""Slots: RequestId rules, tenant normalization and idempotency keys.

A slot is one business intent, named by a stable RequestId and scoped by tenant and user.
The idempotency key is derived as DESIGN.md says: the normalized tenant stays readable,
user and RequestId enter only as SHA-256 digests, and a task-kind prefix wraps a second hash,
so no raw user name or RequestId ever lands in an index column.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from app.domain.errors import ValidationError

Kind = Literal["image", "video"]
KINDS: tuple[Kind, ...] = ("image", "video")

REQUEST_ID_MIN = 8
REQUEST_ID_MAX = 120
_REQUEST_ID_CHARS = re.compile(r"[A-Za-z0-9._:\-]*")
_TENANT_SEGMENT = re.compile(r"[^a-z0-9]+")


def validate_request_id(value: object, field: str = "request_id") -> str:
    """Return the RequestId unchanged, or raise naming the rule it breaks."""
    if not isinstance(value, str):
        raise ValidationError(field, "must be a string")
    if len(value) < REQUEST_ID_MIN:
        raise ValidationError(
            field, f"is {len(value)} characters; a RequestId has {REQUEST_ID_MIN} to "
            f"{REQUEST_ID_MAX} characters"
        )
    if len(value) > REQUEST_ID_MAX:
        raise ValidationError(
            field, f"is {len(value)} characters; a RequestId has at most {REQUEST_ID_MAX}"
        )
    if not _REQUEST_ID_CHARS.fullmatch(value):
        bad = next(c for c in value if not _REQUEST_ID_CHARS.fullmatch(c))
        raise ValidationError(
            field, f"contains {bad!r}; only A-Z a-z 0-9 . _ : - are allowed"
        )
    return value


def normalize_tenant(value: object, field: str = "tenant") -> str:
    """Lower-case the tenant and fold every run of other characters into one '-'."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(field, "must be a non-empty name")
    norm = _TENANT_SEGMENT.sub("-", value.strip().lower()).strip("-")
    if not norm:
        raise ValidationError(field, "must contain at least one letter or digit")
    if len(norm) > 64:
        raise ValidationError(field, "is longer than 64 characters once normalized")
    return norm


def validate_user(value: object, field: str = "user") -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(field, "must be a non-empty name")
    if len(value) > 200:
        raise ValidationError(field, "is longer than 200 characters")
    return value


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def user_digest(user: str) -> str:
    return sha256_hex(user)


def slot_key(tenant: str, user: str, request_id: str) -> str:
    """The kind-free name of a slot: finds the slot whatever kind it was created as."""
    return sha256_hex(f"slate:{normalize_tenant(tenant)}:{sha256_hex(user)}:{sha256_hex(request_id)}")


def idempotency_key(tenant: str, user: str, request_id: str, kind: Kind) -> str:
    """``kind:`` + SHA-256 of the scoped inner key, as in DESIGN.md's vocabulary."""
    if kind not in KINDS:
        raise ValidationError("kind", f"must be one of {', '.join(KINDS)}")
    inner = f"slate:{normalize_tenant(tenant)}:{kind}:{sha256_hex(user)}:{sha256_hex(request_id)}"
    return f"{kind}:{sha256_hex(inner)}"


@dataclass(frozen=True)
class SlotRef:
    """A validated slot address: tenant, user and RequestId."""

    tenant: str
    user: str
    request_id: str

    @classmethod
    def parse(cls, tenant: object, user: object, request_id: object) -> "SlotRef":
        return cls(normalize_tenant(tenant), validate_user(user), validate_request_id(request_id))

    @cached_property
    def user_hash(self) -> str:
        return user_digest(self.user)

    @cached_property
    def request_hash(self) -> str:
        return sha256_hex(self.request_id)

    @cached_property
    def slot_key(self) -> str:
        """:func:`slot_key` of this slot (the tenant is normalized already; digests reused)."""
        return sha256_hex(f"slate:{self.tenant}:{self.user_hash}:{self.request_hash}")

    def key(self, kind: Kind) -> str:
        """:func:`idempotency_key` of this slot, from the digests it already holds."""
        if kind not in KINDS:
            raise ValidationError("kind", f"must be one of {', '.join(KINDS)}")
        inner = f"slate:{self.tenant}:{kind}:{self.user_hash}:{self.request_hash}"
        return f"{kind}:{sha256_hex(inner)}"
