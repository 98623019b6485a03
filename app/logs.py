"""Logging, configured once at start: a rotating file in the data dir, the API key redacted."""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

from app.scrub import scrub_text

_configured = False


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """The rotating log, every file of it 0600 whatever the umask (they hold prompts, ids)."""

    def _open(self):  # type: ignore[no-untyped-def]
        from app.files import open_private

        fd = open_private(
            Path(self.baseFilename),
            os.O_WRONLY | os.O_APPEND | (os.O_TRUNC if self.mode == "w" else 0),
        )
        return os.fdopen(
            fd, "a" if self.mode != "w" else "w", encoding=self.encoding, errors=self.errors
        )

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        """A log line that cannot be written (a full disk) is dropped, never printed as a
        traceback: the command says what is wrong in its own answer."""


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
        clean = scrub_text(msg, "[redacted]")  # the registered keys and any bearer token
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
            from app.files import private_dir, tighten

            private_dir(data_dir, tighten_existing=False)  # created 0700 when new
            logs = private_dir(data_dir / "logs")
            for old in logs.glob("slate.log*"):
                tighten(old, 0o600)  # rotated logs an older Slate left readable
            fh = PrivateRotatingFileHandler(
                logs / "slate.log", maxBytes=2_000_000, backupCount=3, encoding="utf-8"
            )
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
