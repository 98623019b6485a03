"""Where the suite's CPU goes (issue 38): with ``SLATE_TEST_CPU=DIR`` each test's CPU seconds
are written to ``DIR/<worker>.jsonl``; ``python -m tests.support.cpu DIR`` sums them.

On 2 cores the suite's wall time is bounded by its CPU, not by its slowest test: the sum of the
tests' durations is ~5.5 times the run's wall time, so the tests wait for a core most of it.
Durations (``--durations``) say how long a test waited; this says what it cost. A test's CPU is
its worker process's (``time.process_time``: the test's own threads, a demo provider's server
threads) plus the children it waited for (``RUSAGE_CHILDREN``: ``slate`` and helper processes).
Grandchildren reaped by a child that outlives the test (the soak's forkserver) are counted when
that child ends, in a later test's line: the per-module sums are the figures to read.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import IO, Any

import pytest

ENV = "SLATE_TEST_CPU"

_out: IO[str] | None = None


def _children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pytest_configure(config: pytest.Config) -> None:
    global _out
    folder = os.environ.get(ENV)
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _out = open(Path(folder) / f"{worker}.jsonl", "a", encoding="utf-8")  # noqa: SIM115


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Any:
    if _out is None:
        yield
        return
    own, kids, wall = time.process_time(), _children(), time.perf_counter()
    yield
    line = {
        "test": item.nodeid,
        "own": round(time.process_time() - own, 3),
        "children": round(_children() - kids, 3),
        "wall": round(time.perf_counter() - wall, 3),
    }
    _out.write(json.dumps(line) + "\n")
    _out.flush()


def summary(folder: Path, top: int = 30) -> dict[str, Any]:
    """Every test's line in ``folder``, summed by module (most CPU first)."""
    modules: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    tests = []
    for path in sorted(folder.glob("*.jsonl")):
        for text in path.read_text(encoding="utf-8").splitlines():
            if not text.strip():
                continue
            row = json.loads(text)
            cpu = row["own"] + row["children"]
            tests.append((cpu, row["test"]))
            m = modules[row["test"].split("::")[0]]
            m["cpu"] += cpu
            m["own"] += row["own"]
            m["children"] += row["children"]
            m["wall"] += row["wall"]
            m["tests"] += 1
    total = sum(m["cpu"] for m in modules.values())
    ranked = sorted(modules.items(), key=lambda kv: -kv[1]["cpu"])
    return {
        "cpu_s": round(total, 1),
        "wall_s_summed": round(sum(m["wall"] for m in modules.values()), 1),
        "tests": len(tests),
        "modules": [
            {"module": name, **{k: round(v, 1) for k, v in m.items()}} for name, m in ranked[:top]
        ],
        "tests_most_cpu": [
            {"test": name, "cpu": round(cpu, 2)} for cpu, name in sorted(tests)[::-1][:top]
        ],
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_dir():
        sys.stderr.write(f"usage: python -m tests.support.cpu DIR (the folder {ENV} named)\n")
        return 2
    print(json.dumps(summary(Path(args[0])), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
