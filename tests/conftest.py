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
os.environ["PYTHON_KEYRING_BACKEND"] = "tests.support.keyring_backend.MemoryKeyring"
os.environ.pop("MINIMAX_API_KEY", None)
for _name in list(os.environ):
    # SLATE_TEST_PG_* come from .ci/run (the PostgreSQL server of this run), SLATE_TEST_CLI says
    # how the `slate` fixture runs a command (tests/support/fixtures.py): keep them.
    if _name.startswith("SLATE_") and not _name.startswith(("SLATE_TEST_PG_", "SLATE_TEST_CLI")):
        os.environ.pop(_name)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
)

pytest_plugins = ["tests.support.fixtures"]

#: Modules that build something costly once for all their tests (a module-scoped fixture) or
#: load the whole machine: under xdist (README's test command, ``--dist loadgroup``) each runs
#: on one worker, so the bundle is built once and two benches never run at once. Every other
#: global thing is made per test: PostgreSQL databases (tests/support/pg.py; the restart test has its
#: own server), Xvfb displays (``-displayfd``), PulseAudio servers (a private socket), the demo
#: provider's ports (port 0), data dirs (``tmp_path``).
XDIST_GROUPS = {
    "tests/desktop/test_bundle.py": "bundle",
    "tests/integration/test_bundle_parts.py": "bundle-parts",
    "tests/integration/test_packaging.py": "wheel",
    "tests/integration/test_bench_smoke.py": "bench",
}


def pytest_collection_modifyitems(config, items):
    import pytest

    for item in items:
        rel = Path(str(item.fspath)).resolve().relative_to(ROOT).as_posix()
        group = XDIST_GROUPS.get(rel)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def slate_cmd() -> list[str]:
    """The `slate` command of this checkout, run by this interpreter."""
    return [sys.executable, "-m", "app"]
