"""The gallery's thumbnail-size slider (issue 23): bigger or smaller tiles (whole columns, as
many as fit), remembered in the settings for the next window."""

from __future__ import annotations

from app.ui.gallery.pane import MAX_TILE, SMALLEST_TILE, TILE
from tests.gui.conftest import close

RID = "article:20260816:tide-eye:scene-02"


def _columns(view) -> int:
    return max(1, (view.viewport().width() - 16) // view.gridSize().width())


def test_the_size_slider_scales_the_tiles_and_is_remembered(gui, make_window):
    gui.run(gui.service.submit(RID, "image", {"prompt": "a lighthouse", "n": 4}))
    window = make_window()
    window.resize(1360, 820)
    window.show_gallery(True)
    view, slider = window.gallery.view, window.gallery.size_slider
    gui.until(lambda: window.gallery_model.rowCount() == 4, what="the tiles")
    assert slider.isVisibleTo(window) and slider.value() == TILE
    start = _columns(view)
    slider.setValue(MAX_TILE)
    assert view.tile == MAX_TILE and view.gridSize().width() == MAX_TILE + 8
    big = _columns(view)
    slider.setValue(SMALLEST_TILE)
    assert SMALLEST_TILE <= view.tile < TILE
    small = _columns(view)
    assert big <= start < small  # smaller tiles: more of them side by side
    assert view.visualRect(window.gallery_model.index(0, 0)).width() == view.gridSize().width()
    slider.setValue(200)
    assert window.settings.gallery_tile == 200
    close(gui, window.controller, window)
    again = make_window(start=False)
    assert again.gallery.size_slider.value() == 200 and again.gallery.view.smallest == 200
