"""The benchmark runner works end to end (``--quick``) and reports every figure.

No timing is asserted: the figures of a quick run are not comparable with the targets, and
this machine is shared. See docs/BENCHMARKS.md for the full run.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.bench import FIGURES, GROUPS
from tests.conftest import ROOT


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_quick_run_reports_every_figure() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick"], cwd=ROOT, capture_output=True,
        text=True, timeout=220, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stdout[-3000:]
    out = json.loads(lines[0])
    assert out["quick"] is True
    assert set(out["figures"]) == set(FIGURES)
    assert set(GROUPS) <= set(out["details"])
    for key, fig in out["figures"].items():
        assert "error" not in fig, (key, fig, out["details"])
        assert {"value", "unit", "target", "met"} <= set(fig), key
        assert fig["value"] is not None, (key, out["details"])
    # The one figure that is a correctness check, not a timing: one create per slot.
    assert out["figures"]["race_creates"]["value"] == out["details"]["race"]["keys"]
    assert out["details"]["race"]["made_total"] == out["details"]["race"]["keys"]


def test_only_runs_the_named_groups() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick", "--only", "submit"], cwd=ROOT,
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert list(out["details"]) == ["submit"]
    assert out["figures"]["submit_claim_ratio"]["value"] is not None
    assert out["figures"]["race_creates"].get("skipped") is True
