"""Test-wide setup: offscreen Qt, the in-memory keyring, and a clean Slate environment.

Subprocesses inherit the environment set here (see ``slate_env``), so a `slate` child uses the
same test keyring, a temporary data dir, and fast demo-provider timings.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ["PYTHON_KEYRING_BACKEND"] = "tests.keyring_backend.MemoryKeyring"
os.environ.pop("MINIMAX_API_KEY", None)
for _name in list(os.environ):
    # SLATE_TEST_PG_* come from .ci/run (the PostgreSQL server of this run): keep them.
    if _name.startswith("SLATE_") and not _name.startswith("SLATE_TEST_PG_"):
        os.environ.pop(_name)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
)

pytest_plugins = ["tests.fixtures"]


def slate_cmd() -> list[str]:
    """The `slate` command of this checkout, run by this interpreter."""
    return [sys.executable, "-m", "app"]
