"""The suite's CPU report (``SLATE_TEST_CPU``, tests/support/cpu.py): a test's own CPU and its
children's are written per test and summed per module."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.cpu import main, summary
from tests.support.fixtures import ROOT

BUSY = """
import subprocess, sys, time

def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

def test_own():
    spin(0.2)

def test_child():
    subprocess.run([sys.executable, "-c", "import time\\nend = time.process_time() + 0.3\\n"
                    "while time.process_time() < end: pass"], check=True)

def test_idle():
    pass
"""


def test_each_test_s_cpu_and_its_children_s_are_reported(tmp_path: Path) -> None:
    (tmp_path / "test_busy.py").write_text(BUSY)
    out = tmp_path / "cpu"
    # no installed plugin (Qt, Hypothesis, ...): only the one this is about, named below
    env = {**os.environ, "SLATE_TEST_CPU": str(out), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_ADDOPTS", None)
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.support.cpu",
            "--rootdir",
            str(tmp_path),
            str(tmp_path / "test_busy.py"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    report = summary(out)
    assert report["tests"] == 3
    cpu = {t["test"].split("::")[-1]: t["cpu"] for t in report["tests_most_cpu"]}
    assert cpu["test_own"] >= 0.2
    assert cpu["test_child"] >= 0.3  # the child's CPU, reaped within the test
    assert cpu["test_idle"] < 0.2
    [module] = report["modules"]
    assert module["tests"] == 3 and module["children"] >= 0.3
    assert main([str(tmp_path / "nothing-here")]) == 2
