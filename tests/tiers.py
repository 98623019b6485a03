"""``python -m tests.tiers JUNIT.xml [--over SECONDS]``: write ``tests/slow.txt`` from a run of the
quick tier (``pytest -m "not slow" --junitxml JUNIT.xml``) — every test that took longer than
``--over`` seconds (default 2), with its time, so the quick tier leaves it to the full run.

The quick tier (issue 38) is what a change is checked against while it is made: every unit test
and the integration and GUI tests that are quick. ``SLOW`` in tests/conftest.py names what is slow
by its nature (racing processes, soaks, Xvfb, builds); ``tests/slow.txt`` adds what was measured
slow. Both still run in the full suite (README's test command); nothing is skipped.
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIST = HERE / "slow.txt"
HEADER = (
    '# Tests the quick tier (pytest -m "not slow") leaves to the full run: measured slower than\n'
    "# {over} s in a quick-tier run on 2 cores (python -m tests.tiers JUNIT.xml). One per line:\n"
    "# the test's path from the repository root, ::, its name; then its seconds.\n"
)


def node_id(classname: str, name: str) -> str:
    """``tests.gui.test_x`` + ``test_y[a]`` → ``tests/gui/test_x.py::test_y[a]``."""
    return classname.replace(".", "/") + ".py::" + name


def measured(junit: Path, over: float) -> list[tuple[str, float]]:
    found = []
    for case in ET.parse(junit).iter("testcase"):
        seconds = float(case.get("time") or 0)
        if seconds > over:
            found.append((node_id(case.get("classname", ""), case.get("name", "")), seconds))
    return sorted(found)


def read(path: Path = LIST) -> dict[str, float]:
    """The listed tests and their measured seconds (empty when there is no list)."""
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            node, _, seconds = line.rpartition(" ")
            out[node.strip()] = float(seconds)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.tiers", description=__doc__.splitlines()[0])
    p.add_argument("junit", type=Path)
    p.add_argument("--over", type=float, default=2.0)
    ns = p.parse_args(argv)
    kept = read()
    found = dict(measured(ns.junit, ns.over))
    # tests measured here keep their new time; listed tests this run did not see stay listed
    merged = {**{k: v for k, v in kept.items() if k not in found}, **found}
    lines = [f"{node} {seconds:.2f}" for node, seconds in sorted(merged.items())]
    LIST.write_text(HEADER.format(over=ns.over) + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(merged)} tests listed in {LIST.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
