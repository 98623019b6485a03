"""Test-wide setup: offscreen Qt, the in-memory keyring, and a clean Slate environment.

Subprocesses inherit the environment set here (see ``slate_env``), so a `slate` child uses the
same test keyring, a temporary data dir, and fast demo-provider timings.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ["PYTHON_KEYRING_BACKEND"] = "tests.support.keyring_backend.MemoryKeyring"
os.environ.pop("MINIMAX_API_KEY", None)
for _name in list(os.environ):
    # SLATE_TEST_PG_* come from .ci/run (the PostgreSQL server of this run), SLATE_TEST_CLI says
    # how the `slate` fixture runs a command (tests/support/fixtures.py), SLATE_TEST_CPU where
    # each test's CPU is written (tests/support/cpu.py): keep them.
    keep = ("SLATE_TEST_PG_", "SLATE_TEST_CLI", "SLATE_TEST_CPU")
    if _name.startswith("SLATE_") and not _name.startswith(keep):
        os.environ.pop(_name)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
)

if "PYTEST_XDIST_WORKER" not in os.environ:
    # Slate's and the tests' bytecode, written once by the run (not by each worker): every
    # `slate` and helper process the suite starts reads it instead of compiling ~150 modules
    # again, which an environment with PYTHONDONTWRITEBYTECODE (CI's) made each of them do
    import compileall

    for _tree in ("app", "tests"):
        compileall.compile_dir(str(ROOT / _tree), quiet=1, workers=1)

pytest_plugins = [
    "tests.support.fixtures",
    "tests.support.hang",
    "tests.support.cpu",
    "tests.support.rewrite_cache",
]

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


#: What is slow because it must be (issue 38): ``pytest -m "not slow"`` is the quick tier a
#: change is checked against while it is made; the full run (README's test command) runs these
#: too. A module here is slow for the reason beside it — real processes racing or killed, soaks,
#: a real X server, a build, a fresh venv, a deadline or a rate measured in real seconds, a
#: store of 100k rows — never because a test sleeps. A path ending in ``::name`` marks one test.
SLOW = {
    "tests/desktop": "a real X server (Xvfb), the bundle, the packaged app",
    "tests/integration/test_soak.py": "soaks: workers killed at random while faults are drawn",
    "tests/integration/test_soak_world2.py": "soaks: workers killed at random, world II faults",
    "tests/integration/test_race.py": "16 real processes racing on one store",
    "tests/integration/test_pg_race.py": "real processes racing on PostgreSQL",
    "tests/integration/test_quota.py": "racing processes against a quota",
    "tests/integration/test_budget.py": "racing processes against a budget",
    "tests/integration/test_owner_lease.py": "owners killed and leases run out in real time",
    "tests/integration/test_store_locks.py": "processes holding the store's locks",
    "tests/integration/test_write_lock.py": "processes waiting on the write lock",
    "tests/integration/test_pg_connection.py": "a PostgreSQL server restarted under load",
    "tests/integration/test_deadlines.py": "deadlines of real `slate` processes in real seconds",
    "tests/integration/test_download_hangs.py": "downloads that hang until a deadline",
    "tests/integration/test_read_failures.py": "reads failing for a while, asked again on time",
    "tests/integration/test_polling.py": "the request-rate cap measured over seconds",
    "tests/integration/test_bad_configuration.py": "a full disk, real `slate` processes",
    "tests/integration/test_disk_full.py": "a full disk under a real create",
    "tests/integration/test_permissions.py": "every file Slate writes, by real processes",
    "tests/integration/test_caps.py": "answers of hundreds of megabytes",
    "tests/integration/test_packaging.py": "a wheel built and installed",
    "tests/integration/test_bundle_parts.py": "the bundle's libraries rebuilt and probed",
    "tests/integration/test_readme_examples.py": "README's commands in a fresh venv",
    "tests/integration/test_bench_smoke.py": "the benchmarks' quick runs",
    "tests/integration/test_demo_faults.py": "DEMO.md's stories as real `slate` processes",
    "tests/integration/test_mmx_client.py": "MiniMax's own client against `slate sim`",
    "tests/integration/test_startup_imports.py": "a real `slate gui` process",
    "tests/integration/test_cli_progress.py": "progress on a real terminal (a pty)",
    "tests/integration/test_batch.py": "shot lists of fifty rows, a run killed half way",
    "tests/integration/test_migrations.py": "every migration up and down on both stores",
    "tests/gui/test_store_holders.py": "a window and real scripts sharing one store",
    "tests/gui/test_models.py::test_paging_at_100k_slots": "a store of 100k slots",
    "tests/gui/test_screenshots.py": "screenshots rendered at both sizes, both languages",
    "tests/gui/test_screenshots_models.py": "screenshots of every model and state",
    "tests/gui/test_screenshots_forms.py": "screenshots of every form",
    "tests/gui/test_screenshots_pipeline.py": "screenshots of the pipeline",
    "tests/gui/test_screenshots_themes.py": "screenshots in both themes",
    "tests/gui/test_gallery_screenshots.py": "screenshots of the gallery and viewer",
    "tests/gui/test_players.py": "media players started and stopped over and over",
}


def slow_reason(rel: str, name: str) -> str | None:
    """Why the test at ``rel`` (a path from the repository's root) named ``name`` is slow: its
    nature (``SLOW``), or its time measured in a quick-tier run (``tests/slow.txt``, written by
    ``python -m tests.tiers``)."""
    seconds = _listed("slow.txt").get(f"{rel}::{name}")
    if seconds is not None:
        return f"measured {seconds:.1f} s in a quick-tier run (tests/slow.txt)"
    for key, why in SLOW.items():
        path, _, test = key.partition("::")
        if test and (rel != path or name.split("[")[0] != test):
            continue
        if rel == path or rel.startswith(path.rstrip("/") + "/"):
            return why
    return None


@functools.cache
def _listed(name: str) -> dict[str, float]:
    """A list that tests/tiers.py writes (``slow.txt``, ``order.txt``), read once per run."""
    from tests.tiers import HERE, read

    return read(HERE / name)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Groups and tiers, marked before xdist's own hook reads the groups; then the modules with
    the slowest tests first (``tests/order.txt``), each module's tests kept together and in
    their order: xdist hands tests out in this order, so the long ones start at once and the
    run ends on short ones spread over every worker."""
    slowest: dict[int, float] = {}
    order = _listed("order.txt")
    rels: dict[str, str] = {}  # each module's path resolved once, not once per test
    for item in items:
        where = str(item.fspath)
        rel = rels.get(where)
        if rel is None:
            rel = rels[where] = Path(where).resolve().relative_to(ROOT).as_posix()
        group = XDIST_GROUPS.get(rel)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        if slow_reason(rel, item.name) is not None:
            item.add_marker(pytest.mark.slow)
        slowest[id(item)] = order.get(rel, 0.0)
    items.sort(key=lambda item: -slowest[id(item)])  # stable: ties keep the collection's order


def slate_cmd() -> list[str]:
    """The `slate` command of this checkout, run by this interpreter."""
    return [sys.executable, "-m", "app"]


def pytest_collection_finish(session):
    """What the process loaded to collect (every test module, the app's modules, SQLAlchemy,
    Qt's wrappers: ~200,000 objects) moved out of the cycle collector's way (``gc.freeze``, as
    a slate process does): each full collection a test triggers walked them all again (~0.1 s
    each, ~6 % of a worker's CPU), and none of them is garbage.

    On an xdist worker of ``--dist loadgroup``: every grouped test carries its group in its
    id, or the groups are silently ignored (pytest 9.2's structured ids did that with xdist
    3.8, pytest-dev/pytest-xdist#1386: each worker built its own bundle, benches ran at once)."""
    import gc

    gc.collect()
    gc.freeze()
    config = session.config
    if not hasattr(config, "workerinput") or not config.getvalue("loadgroup"):
        return
    lost = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid
    ]
    if lost:
        said = f"--dist loadgroup ignores the xdist groups of {lost[:3]}"
        sys.stderr.write(f"\n{said}\n")
        raise pytest.UsageError(said)
