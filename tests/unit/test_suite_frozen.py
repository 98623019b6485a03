"""The suite's own cost (issue 38): what a test process loaded to collect the tests is out of
the cycle collector's way (``tests/conftest.py``, ``pytest_collection_finish``), so the full
collections the tests trigger walk what the tests made, not every module's objects again."""

from __future__ import annotations

import gc

#: Made when this module was imported, at collection: frozen since.
LOADED: list[str] = ["made at collection"]


def test_what_the_collection_loaded_is_frozen() -> None:
    # the app's modules, SQLAlchemy and the test modules: far more than this floor
    assert gc.get_freeze_count() > 50_000
    made_now: list[str] = ["made by this test"]
    walked = gc.get_objects()  # what a full collection walks (the frozen are not among them)
    assert any(o is made_now for o in walked)
    assert not any(o is LOADED for o in walked)
