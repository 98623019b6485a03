"""The demo provider's render benchmark runs (``--quick``) and reports a well-formed video.
No timing is asserted here; the figures are in docs/BENCHMARKS.md."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT


def test_quick_render_bench_reports_a_real_video() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench.sim_render", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    (case,) = out["cases"]
    assert case["size"] == [1366, 768] and case["bytes"] > 0
    assert case["output"] == {"seconds": 4.0, "fps": 24.0, "frames": 96, "audio_channels": 2}
    assert case["wall_s"]["median"] > 0 and case["cpu_s"]["median"] > 0
