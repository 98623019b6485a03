"""``python -m tests.tiers JUNIT.xml [--over SECONDS]``: write ``tests/slow.txt`` from a run of the
quick tier (``pytest -m "not slow" --junitxml JUNIT.xml``) — every test that took longer than
``--over`` seconds (default 2), with its time, so the quick tier leaves it to the full run.

``python -m tests.tiers --order JUNIT.xml``: write ``tests/order.txt`` from a full run (README's
test command with ``--junitxml``) — each module whose slowest test took ``--over`` seconds or
more, with that time. The suite starts those modules first, slowest first (tests/conftest.py):
under xdist the run then ends on short tests that fill the workers evenly, not on one long
test while the others wait.

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
ORDER = HERE / "order.txt"
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


ORDER_HEADER = (
    "# Modules the suite starts first, slowest first (tests/conftest.py): each module whose\n"
    "# slowest test took {over} s or more in a full run (python -m tests.tiers --order JUNIT.xml).\n"
    "# One per line: the module's path from the repository root, then that test's seconds.\n"
)


def slowest_by_module(junit: Path, over: float) -> dict[str, float]:
    found: dict[str, float] = {}
    for node, seconds in measured(junit, 0.0):
        module = node.partition("::")[0]
        found[module] = max(found.get(module, 0.0), seconds)
    return {m: s for m, s in found.items() if s >= over}


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
    p.add_argument("--order", action="store_true", help="write tests/order.txt from a full run")
    ns = p.parse_args(argv)
    if ns.order:
        modules = slowest_by_module(ns.junit, ns.over)
        lines = [f"{m} {s:.1f}" for m, s in sorted(modules.items(), key=lambda kv: -kv[1])]
        ORDER.write_text(ORDER_HEADER.format(over=ns.over) + "\n".join(lines) + "\n", "utf-8")
        print(f"{len(modules)} modules listed in {ORDER.relative_to(HERE.parent)}")
        return 0
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
