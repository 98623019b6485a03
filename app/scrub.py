"""One scrubbing function for every string Slate keeps: the API key never reaches the store,
the log, an export or the command's output, wherever a provider echoes it (a ``Trace-Id``
header, a status word, an error message, a task id, a body).

The secrets are registered where they are read (:func:`app.service.secrets.api_key`, the HTTP
client) and removed on the way in: the HTTP client scrubs every answer it hands on, the store
scrubs every value it writes, the log filter every record.
"""

from __future__ import annotations

import re
import threading
from typing import Any

MARK = "***"
_BEARER = re.compile(r"(Bearer\s+)[^\s'\"]+", re.I)
_lock = threading.Lock()
_secrets: frozenset[str] = frozenset()


def register(secret: str | None) -> None:
    """Remember ``secret`` (an API key) for every later scrub of this process."""
    global _secrets
    secret = (secret or "").strip()
    if len(secret) >= 6 and secret not in _secrets:
        with _lock:
            _secrets = _secrets | {secret}


def scrub_text(text: str, mark: str = MARK) -> str:
    """``text`` with every registered secret and any bearer token replaced by ``mark``."""
    if not text:
        return text
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, mark)
    if "earer" in text:
        text = _BEARER.sub(lambda m: m.group(1) + mark, text)
    return text


def scrub(value: Any, mark: str = MARK) -> Any:
    """:func:`scrub_text` through strings, bytes-free JSON-like values (dict keys included)."""
    if isinstance(value, str):
        return scrub_text(value, mark)
    if isinstance(value, dict):
        return {scrub(k, mark): scrub(v, mark) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(scrub(v, mark) for v in value)
    return value
