"""The fingerprint: SHA-256 over the canonical JSON of normalized parameters."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

VOLATILE_FIELDS = frozenset({"timestamp", "client_version", "created_at", "request_time"})

#: The canonical form's encoder, made once: ``json.dumps`` with these options builds a new
#: encoder on every call (a fifth of a replay's fingerprint).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(params: Mapping[str, Any]) -> str:
    """Sorted keys, no insignificant whitespace, UTF-8 kept as is (no ASCII escaping)."""
    clean = {k: v for k, v in params.items() if k not in VOLATILE_FIELDS}
    return _CANONICAL.encode(clean)


def fingerprint(kind: str, normalized_params: Mapping[str, Any]) -> str:
    """Fingerprint of normalized parameters; the kind is part of what is compared."""
    payload = canonical_json({"kind": kind, "params": dict(normalized_params)})
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
