"""The quick tier (issue 38): ``pytest -m "not slow"`` leaves out exactly what ``SLOW`` in
tests/conftest.py names, each for its reason, and README says how to run it."""

from __future__ import annotations

import re

from tests.conftest import ROOT, SLOW, slow_reason


def test_every_slow_entry_names_a_test_that_exists_with_its_reason() -> None:
    for key, why in SLOW.items():
        path, _, name = key.partition("::")
        assert (ROOT / path).exists(), key
        assert len(why) > 10, key
        if name:
            assert re.search(rf"^(async )?def {re.escape(name)}\(", (ROOT / path).read_text(), re.M)


def test_a_module_a_folder_and_one_test_are_marked_and_nothing_else() -> None:
    assert slow_reason("tests/integration/test_soak.py", "test_x[sqlite]")
    assert slow_reason("tests/desktop/test_xcb_window.py", "test_real_window_on_xcb")
    assert slow_reason("tests/gui/test_models.py", "test_paging_at_100k_slots")
    assert slow_reason("tests/gui/test_models.py", "test_paging_at_100k_slots[pg]")
    assert slow_reason("tests/gui/test_models.py", "test_paging_at_1k_slots") is None
    assert slow_reason("tests/integration/test_soak_world2.py", "t")  # not test_soak.py's prefix
    assert slow_reason("tests/integration/test_soak_other.py", "t") is None
    assert slow_reason("tests/unit/test_tiers.py", "t") is None


def test_every_measured_slow_test_exists() -> None:
    """``tests/slow.txt`` names tests that are still there (a renamed test must be measured
    again, not silently dropped into the quick tier's blind spot)."""
    from tests.tiers import read

    listed = read()
    assert listed, "tests/slow.txt lists nothing"
    for node, seconds in listed.items():
        path, _, name = node.partition("::")
        assert (ROOT / path).exists(), node
        base = name.split("[")[0]
        assert re.search(rf"^(async )?def {re.escape(base)}\(", (ROOT / path).read_text(), re.M), (
            node
        )
        assert seconds > 0, node
        assert slow_reason(path, name), node


def test_readme_names_the_quick_tier() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'pytest -m "not slow"' in readme


def test_every_ordered_module_exists_and_the_slowest_lead() -> None:
    """``tests/order.txt`` names modules that are there, slowest first."""
    from tests.tiers import ORDER, read

    listed = read(ORDER)
    assert len(listed) > 20, "tests/order.txt lists too little"
    for module in listed:
        assert (ROOT / module).is_file(), module
    assert list(listed.values()) == sorted(listed.values(), reverse=True)


class _Item:
    def __init__(self, rel: str, name: str) -> None:
        self.fspath, self.name, self.marks = ROOT / rel, name, []

    def add_marker(self, mark) -> None:
        self.marks.append(mark)


def test_the_slowest_modules_run_first_each_kept_whole_and_in_order() -> None:
    from tests.conftest import pytest_collection_modifyitems
    from tests.tiers import ORDER, read

    listed = read(ORDER)
    slow = next(iter(listed))  # the slowest module listed
    # two modules the list leaves out (whatever a rewritten list holds): they keep their order
    first, second = sorted(
        rel
        for path in (ROOT / "tests" / "unit").glob("test_*.py")
        if (rel := path.relative_to(ROOT).as_posix()) not in listed
    )[:2]
    items = [
        _Item(first, "test_a"),
        _Item(first, "test_b"),
        _Item(slow, "test_x"),
        _Item(second, "test_c"),
        _Item(slow, "test_y"),
    ]
    pytest_collection_modifyitems(None, items)
    assert [(i.fspath.relative_to(ROOT).as_posix(), i.name) for i in items] == [
        (slow, "test_x"),
        (slow, "test_y"),
        (first, "test_a"),
        (first, "test_b"),
        (second, "test_c"),
    ]


def test_order_is_written_from_a_full_runs_junit(tmp_path) -> None:
    from tests.tiers import slowest_by_module

    junit = tmp_path / "j.xml"
    junit.write_text(
        '<testsuites><testsuite name="pytest">'
        '<testcase classname="tests.gui.test_a" name="test_1" time="3.5"/>'
        '<testcase classname="tests.gui.test_a" name="test_2[x]" time="7.25"/>'
        '<testcase classname="tests.unit.test_b" name="test_3" time="0.2"/>'
        "</testsuite></testsuites>"
    )
    assert slowest_by_module(junit, 2.0) == {"tests/gui/test_a.py": 7.25}
