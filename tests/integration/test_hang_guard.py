"""A test stuck where pytest-timeout's signal cannot reach it (here: the signal blocked, as it is
for a thread inside a C call) ends its process with every thread's stack, instead of hanging
the run (tests/support/hang.py)."""

from __future__ import annotations

import subprocess
import sys

from tests.support.fixtures import ROOT

STUCK = """
import signal, time
import pytest

@pytest.mark.timeout(1)
def test_stuck_where_no_signal_lands():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    time.sleep(600)

def test_after_it():
    pass
"""


def test_a_test_stuck_past_its_timeout_ends_its_process_with_the_stacks(tmp_path):
    import tests.support.hang as hang

    (tmp_path / "test_stuck.py").write_text(STUCK)
    (tmp_path / "conftest.py").write_text(
        "import tests.support.hang as hang\nhang.GRACE = 2.0\npytest_plugins = ['tests.support.hang']\n"
    )
    assert hang.GRACE == 30.0
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "timeout"]
        + [str(tmp_path)],
        cwd=tmp_path,
        # only pytest-timeout of the installed plugins: the others only add start-up
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0
    assert "Timeout (0:00:03)!" in run.stderr, run.stderr[-2000:]
    assert "test_stuck_where_no_signal_lands" in run.stderr


CRASHES = """
import os, pytest

@pytest.mark.parametrize("i", range(4))
def test_one_of_these_crashes(i):
    if i == 1:
        os.abort()

@pytest.mark.parametrize("i", range(6))
def test_others(i):
    pass

@pytest.mark.xdist_group("grouped")
def test_grouped():
    pass
"""


def test_a_crashed_worker_ends_the_run_with_that_test_failed(tmp_path):
    """Without the plugin, xdist 3.8 under ``--dist loadgroup`` runs the crashed test again on
    a new worker and then waits forever: this run would end only by its timeout."""
    (tmp_path / "test_crash.py").write_text(CRASHES)
    (tmp_path / "conftest.py").write_text("pytest_plugins = ['tests.support.hang']\n")
    # Only the plugins this run is about (xdist, pytest-timeout, the guard): the others installed
    # (qt, asyncio, repeat) would only add start-up to each of its processes (the run, its two
    # workers, the one that replaces the crashed worker).
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "xdist"]
        + ["-p", "timeout", "-n", "2", "--dist", "loadgroup", str(tmp_path)],
        cwd=tmp_path,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "COLUMNS": "400",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stdout[-2000:]
    assert "worker 'gw" in run.stdout and "crashed while running" in run.stdout
    assert "test_one_of_these_crashes[1]" in run.stdout
    # reported once, not run again; on a busy machine the other worker, stopped as the run
    # ends, may be reported with the test it was running (seen in CI: "2 failed, 9 passed")
    failed = [ln for ln in run.stdout.splitlines() if ln.startswith("FAILED ")]
    assert sum("test_one_of_these_crashes[1]" in ln for ln in failed) == 1, run.stdout[-2000:]
    assert len(failed) == len(set(ln.split(" - ")[0] for ln in failed)), run.stdout[-2000:]
    assert all("crashed while running" in ln or "[1]" in ln for ln in failed), run.stdout[-2000:]
