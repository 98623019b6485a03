"""A parallel run's controller writes the test modules' rewritten bytecode once, before its
workers start (tests/support/rewrite_cache.py): with ``PYTHONDONTWRITEBYTECODE`` (CI's
environment) pytest writes none, and every worker rewrote every module again. A small project
run by a real pytest with two xdist workers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from _pytest.assertion import rewrite

from tests.support.fixtures import ROOT

PROJECT = {
    "pytest.ini": "[pytest]\ntestpaths = tests/a\n",
    "tests/conftest.py": "",
    "tests/a/test_one.py": "def test_one():\n    x = 1\n    assert x + 1 == 3\n",
    "tests/a/helper.py": "VALUE = 1\n",
}


def _run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    # no plugin but the two named: the installed ones (Qt, Hypothesis, asyncio, ...) cost each
    # of the six processes more than the run itself
    env.update(
        PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(ROOT), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1"
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.support.rewrite_cache", "-p", "xdist"]
        + ["-p", "no:cacheprovider", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _pyc(source: Path) -> Path:
    return source.parent / "__pycache__" / (source.name[:-3] + rewrite.PYC_TAIL)


def test_the_controller_writes_what_the_workers_read(tmp_path: Path) -> None:
    for name, text in PROJECT.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    test, conftest = tmp_path / "tests/a/test_one.py", tmp_path / "tests/conftest.py"

    run = _run(tmp_path, "-q", "-n", "2")
    assert run.returncode == 1 and "assert (1 + 1) == 3" in run.stdout, run.stdout + run.stderr
    for source in (test, conftest):  # written, and what a worker's hook takes as current
        assert rewrite._read_pyc(source, _pyc(source)) is not None, source
    assert not _pyc(tmp_path / "tests/a/helper.py").exists()  # not a test module
    # (without the controller's pass nothing is written: pytest's own hook obeys the variable)

    # a changed module is rewritten again; an unchanged one is left as it is
    before = _pyc(conftest).stat().st_mtime_ns
    test.write_text(PROJECT["tests/a/test_one.py"].replace("3", "2"))
    again = _run(tmp_path, "-q", "-n", "2")
    assert again.returncode == 0, again.stdout + again.stderr
    assert rewrite._read_pyc(test, _pyc(test)) is not None
    assert _pyc(conftest).stat().st_mtime_ns == before
