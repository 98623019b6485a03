"""Handles: opaque HMAC-signed strings naming a task or a media file.

A handle binds purpose (``task`` / ``file``), tenant, user and the target id. It is refused
when tampered with, used for another purpose, or presented by another tenant or user.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

from app.domain.errors import ForeignHandleError, HandleError

PURPOSES = ("task", "file")
_PREFIX = {"task": "st1", "file": "sf1"}


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, purpose: str, body: str) -> str:
    return _b64(hmac.new(secret, f"{purpose}.{body}".encode(), hashlib.sha256).digest()[:20])


def sign(secret: bytes, purpose: str, tenant: str, user_hash: str, target: int) -> str:
    if purpose not in PURPOSES:
        raise ValueError(f"unknown handle purpose {purpose!r}")
    body = _b64(json.dumps([tenant, user_hash[:16], int(target)], separators=(",", ":")).encode())
    return f"{_PREFIX[purpose]}.{body}.{_mac(secret, purpose, body)}"


def verify(secret: bytes, handle: object, purpose: str, tenant: str, user_hash: str) -> int:
    """Return the target id, or raise HandleError / ForeignHandleError."""
    if not isinstance(handle, str) or handle.count(".") != 2:
        raise HandleError("handle: not a Slate handle")
    prefix, body, mac = handle.split(".")
    kinds = {v: k for k, v in _PREFIX.items()}
    if prefix not in kinds:
        raise HandleError("handle: not a Slate handle")
    if kinds[prefix] != purpose:
        raise HandleError(f"handle: this is a {kinds[prefix]} handle, a {purpose} handle is needed")
    if not hmac.compare_digest(mac, _mac(secret, purpose, body)):
        raise HandleError("handle: signature does not match (tampered or from another store)")
    try:
        h_tenant, h_user, target = json.loads(_unb64(body))
    except (ValueError, TypeError) as exc:
        raise HandleError("handle: malformed") from exc
    if h_tenant != tenant or h_user != user_hash[:16]:
        raise ForeignHandleError("handle: not found for this tenant and user")
    return int(target)
