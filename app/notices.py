"""Notices said once per data dir: a warning the user must read once, not on every command.

Each notice shown is remembered as a small file under ``notices/`` in the data dir (named by a
hash of its text, created with O_EXCL so racing processes print it once between them). A notice
whose text changes (another path, another problem) is new and is shown again.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def first_time(data_dir: Path, text: str) -> bool:
    """True exactly once per data dir for ``text``; True again when it cannot be remembered."""
    folder = data_dir / "notices"
    marker = folder / hashlib.sha256(text.encode()).hexdigest()[:16]
    try:
        from app.files import private_dir

        private_dir(folder)
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    except OSError:
        return True  # a read-only data dir: better said again than never
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    return True
