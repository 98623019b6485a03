"""Handles: opaque HMAC-signed strings naming a task or a media file.

A handle binds purpose (``task`` / ``file``), the store that made it (its random ``store_id``),
tenant, user and the target id. It is refused when tampered with, used for another purpose,
presented to another store (a bad handle: exit 2) or by another tenant or user (not found).
Handles of the first format (``st1``/``sf1``), which named no store, are refused with a hint.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from functools import lru_cache

from app.domain.errors import ForeignHandleError, HandleError

PURPOSES = ("task", "file")
_PREFIX = {"task": "st2", "file": "sf2"}
_OLD_PREFIX = {"st1": "task", "sf1": "file"}
#: How much of the store id a handle carries (hex digits: 64 bits).
STORE_TAG = 16


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, purpose: str, body: str) -> str:
    return _b64(hmac.new(secret, f"{purpose}.{body}".encode(), hashlib.sha256).digest()[:20])


@lru_cache(maxsize=4096)  # a view signs its task and every file again: the same inputs
def sign(
    secret: bytes, purpose: str, tenant: str, user_hash: str, target: int, store_id: str
) -> str:
    if purpose not in PURPOSES:
        raise ValueError(f"unknown handle purpose {purpose!r}")
    body = _b64(
        json.dumps(
            [store_id[:STORE_TAG], tenant, user_hash[:16], int(target)],
            separators=(",", ":"),
            ensure_ascii=False,
        ).encode()
    )
    return f"{_PREFIX[purpose]}.{body}.{_mac(secret, purpose, body)}"


def verify(
    secret: bytes, handle: object, purpose: str, tenant: str, user_hash: str, store_id: str
) -> int:
    """Return the target id, or raise HandleError (bad, or made by another store) /
    ForeignHandleError (another tenant's or user's: not found)."""
    if not isinstance(handle, str) or handle.count(".") != 2:
        raise HandleError("handle: not a Slate handle")
    prefix, body, mac = handle.split(".")
    if prefix in _OLD_PREFIX:
        raise HandleError(
            "handle: made by an older Slate, before handles named their store; "
            "ask for the slot by its RequestId (status RID) to get a new handle"
        )
    kinds = {v: k for k, v in _PREFIX.items()}
    if prefix not in kinds:
        raise HandleError("handle: not a Slate handle")
    if kinds[prefix] != purpose:
        raise HandleError(f"handle: this is a {kinds[prefix]} handle, a {purpose} handle is needed")
    if not hmac.compare_digest(mac, _mac(secret, purpose, body)):
        raise HandleError("handle: signature does not match (tampered or from another store)")
    try:
        h_store, h_tenant, h_user, target = json.loads(_unb64(body))
        target = int(target)
    except (ValueError, TypeError) as exc:
        raise HandleError("handle: malformed") from exc
    if not hmac.compare_digest(str(h_store), store_id[:STORE_TAG]):
        raise HandleError(
            "handle: made by another store; use it with the store that made it "
            "(--store), or ask for the slot by its RequestId here"
        )
    if h_tenant != tenant or h_user != user_hash[:16]:
        raise ForeignHandleError("handle: not found for this tenant and user")
    return target
