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
