"""Logging, configured once at start: a rotating file in the data dir, the API key redacted."""

from __future__ import annotations

import logging
import logging.handlers
import os
import re
from pathlib import Path

_configured = False
_BEARER = re.compile(r"(Bearer\s+)[^\s'\"]+", re.I)


class RedactKey(logging.Filter):
    """Removes the API key (from the environment or keyring) and any bearer token from records."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: set[str] = set()

    def add(self, secret: str | None) -> None:
        if secret and len(secret) >= 6:
            self.secrets.add(secret)

    def filter(self, record: logging.LogRecord) -> bool:
        env_key = os.environ.get("MINIMAX_API_KEY")
        if env_key:
            self.add(env_key.strip())
        msg = record.getMessage()
        clean = _BEARER.sub(r"\1[redacted]", msg)
        for s in self.secrets:
            clean = clean.replace(s, "[redacted]")
        if clean != msg:
            record.msg, record.args = clean, None
        return True


REDACTOR = RedactKey()


def configure(data_dir: Path | None, *, verbose: bool = False) -> None:
    global _configured
    if _configured:
        return
    _configured = True
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    if data_dir is not None:
        try:
            logs = data_dir / "logs"
            logs.mkdir(parents=True, exist_ok=True)
            fh = logging.handlers.RotatingFileHandler(logs / "slate.log", maxBytes=2_000_000, backupCount=3, encoding="utf-8")
            fh.setFormatter(fmt)
            fh.addFilter(REDACTOR)
            root.addHandler(fh)
        except OSError:
            pass
    if verbose:
        sh = logging.StreamHandler()
        sh.setFormatter(fmt)
        sh.addFilter(REDACTOR)
        root.addHandler(sh)
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
