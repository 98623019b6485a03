"""The lists that ``clear()`` empties on every slot change hold items Qt made, not Python.

An item made in Python (``QListWidgetItem(text)``) is a shiboken subclass whose C++ destructor
looks its Python wrapper up again while ``clear()`` deletes it. Under load that lookup met a freed
wrapper and the window crashed inside ``QListWidget.clear()`` (result pane, on moving from a
finished image slot to one without media): 3 crashes in about 240 runs of
tests/gui/test_screenshots_themes.py with both cores busy, none in 240 since the lists take
items from ``add_list_item``."""

from __future__ import annotations

import shiboken6

from tests.gui.conftest import shown

IMAGE = "article:20260816:tide-eye:still-01"
OTHER = "article:20260816:tide-eye:still-02"


def _made_by_python(view) -> list[int]:
    return [i for i in range(view.count()) if shiboken6.Shiboken.createdByPython(view.item(i))]


def test_result_and_finished_lists_hold_items_made_by_qt(gui, make_window):
    other = gui.other_service()
    gui.run(other.submit(IMAGE, "image", {"prompt": "a lighthouse at dawn", "n": 2}, wait=True))
    gui.run(other.submit(OTHER, "image", {"prompt": "the pier in fog", "n": 1}, wait=True))
    window = make_window()
    window.select(IMAGE)
    grid, thumbs = window.slot_pane.finished.images, window.result_pane.thumbs
    gui.until(lambda: shown(window, IMAGE) and grid.count() == 2 and thumbs.count() == 2)
    assert _made_by_python(grid) == [] and _made_by_python(thumbs) == []
    gui.until(lambda: all(not grid.item(i).icon().isNull() for i in range(2)), what="icons")
    window.select(OTHER)
    gui.until(lambda: shown(window, OTHER) and grid.count() == 1 and thumbs.count() == 1)
    assert _made_by_python(grid) == [] and _made_by_python(thumbs) == []
