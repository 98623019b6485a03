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
@pytest.mark.parametrize("group", GROUPS)
def test_quick_run_reports_every_figure(group: str) -> None:
    """Each group's quick run (its own child process, as in a whole run) reports each of its
    figures with a value and no error; a whole ``--quick`` run is these runs one after the other
    (issue 38: one test of 44 s became one per group, side by side)."""
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick", "--only", group],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=220,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stdout[-3000:]
    out = json.loads(lines[0])
    assert out["quick"] is True
    assert set(out["figures"]) == set(FIGURES)
    assert list(out["details"])[0] == group
    mine = [key for key, (g, _unit, _target) in FIGURES.items() if g == group]
    assert mine, group
    for key, fig in out["figures"].items():
        assert {"value", "unit", "target", "met"} <= set(fig), key
        if key not in mine:
            assert fig.get("skipped") is True, (key, fig)
            continue
        assert "error" not in fig, (key, fig, out["details"])
        assert fig["value"] is not None, (key, out["details"])
    if group == "race":  # the one figure that is a correctness check: one create per slot
        assert out["figures"]["race_creates"]["value"] == out["details"]["race"]["keys"]
        assert out["details"]["race"]["made_total"] == out["details"]["race"]["keys"]
        by = out["details"]["race"]["latency_by_outcome"]  # where a tail is: creates or replays
        assert by["created"]["n"] == out["details"]["race"]["keys"], by
        race = out["details"]["race"]  # the stdlib floor, same run, and where a create waits
        assert race["floor"]["creates"] == race["keys"] and race["floor_p99_ms"] > 0, race
        assert {"lock_wait", "lock_held", "http", "rest"} <= set(race["create_split"]), race
    if group == "gui":  # the bare Qt window the cold start is read against, same minutes
        gui = out["details"]["gui"]
        assert gui["cold_start_floor_s"] > 0 and gui["cold_start_over_floor"] > 0, gui
        assert len(gui["cold_start_floors_s"]) == len(gui["runs"]), gui
    if group == "submit":  # the floors a missed ratio is read against (docs/BENCHMARKS.md)
        cost = out["details"]["submit"]
        assert 0 < cost["replay_floor_ratio"] < cost["claim_floor_ratio"], cost
        assert cost["claim_over_floor"] > 0 and cost["replay_over_floor"] > 0, cost
    if group == "gallery":  # what was measured is what was asked: pictures on the first
        # screen, 200 results scrolled, every thumbnail of them built by the worker processes
        assert list(out["details"]) == ["gallery"]
        gallery = out["details"]["gallery"]
        assert "error" not in gallery, gallery
        assert gallery["first_thumbnails_cold"]["tiles_with_pictures"] > 0
        assert gallery["workers"]["processes"] == 2 and gallery["workers"]["rss_mb"] > 0
        assert gallery["scroll"]["results_scrolled"] >= 200
        build = gallery["cache_build"]
        assert build["thumbnails"] > 0 and build["decoded"] == build["thumbnails"]


def test_every_figure_belongs_to_a_group_that_runs() -> None:
    assert {g for g, _unit, _target in FIGURES.values()} == set(GROUPS)


def test_only_runs_the_named_groups() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick", "--only", "submit"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert list(out["details"]) == ["submit"]
    assert out["figures"]["submit_claim_ratio"]["value"] is not None
    assert out["figures"]["race_creates"].get("skipped") is True


@pytest.mark.slow
def test_compare_prints_each_figure_beside_the_last_run(tmp_path) -> None:
    saved = tmp_path / "last.json"
    first = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick", "--only", "submit", "--save", str(saved)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr[-3000:]
    last = json.loads(saved.read_text())
    assert last == json.loads(first.stdout)
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick", "--only", "submit", "--compare", str(saved)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    cmp = json.loads(proc.stdout)["compare"]
    assert cmp["comparable"] is True and cmp["file"] == str(saved)
    assert set(cmp["figures"]) == set(FIGURES)
    claim = cmp["figures"]["submit_claim_ratio"]
    assert claim["last"] == last["figures"]["submit_claim_ratio"]["value"]
    assert claim["ratio"] == round(claim["now"] / claim["last"], 3)


def test_compare_with_a_bad_file_says_so_before_running(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"figures": ')
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--compare", str(bad)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and "is not JSON" in proc.stderr and str(bad) in proc.stderr
    assert proc.stdout == ""
