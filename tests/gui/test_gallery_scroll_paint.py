"""Scrolling the gallery repaints only the strip the scroll exposes: the rest of the viewport is
moved, not painted again (the app's style sheet turns the viewport's own background fill off;
the grid's viewport is declared opaque so that Qt may still move its pixels), and the tiles under
the pointer are not repainted for a hover they do not draw."""

from __future__ import annotations

import pytest

from app.ui.gallery import model as gallery_model
from app.ui.qt import QRect, QtGui
from tests.gui.gallery_data import PaintRegions, add_image_results

QRegion = QtGui.QRegion
STEP = 180  # not a whole line of tiles: the strip cuts through tiles
STEPS = 12


# the pointer resting over a tile shows its tooltip, which the offscreen platform cannot raise
@pytest.mark.qt_log_ignore(r"This plugin does not support raise\(\)")
def test_a_scroll_step_repaints_only_the_exposed_strip(gui, make_window, tmp_path, monkeypatch):
    add_image_results(gui.service, tmp_path, 200)
    monkeypatch.setattr(gallery_model, "FIRST_PAGE", 250)  # every row in one page: none arrives
    window = make_window()
    window.gallery_model.page = 250
    window.resize(1360, 820)
    window.show()
    window.show_gallery(True)
    model, view = window.gallery_model, window.gallery.view
    gui.until(lambda: model.rowCount() == 200 and not model.loading, what="rows")
    bar, port = view.verticalScrollBar(), view.viewport()
    gui.until(lambda: bar.maximum() > STEPS * STEP + port.height(), what="layout")
    # the pointer over the grid, as under a wheel: the tile it comes over is not repainted
    # (an earlier test in the process once left it there, and each step repainted that tile)
    QtGui.QCursor.setPos(port.mapToGlobal(port.rect().center()))
    paints = PaintRegions()
    port.installEventFilter(paints)
    try:
        for step in range(STEPS):
            gui.until(lambda: window.gallery.pictures_shown(), what="the screen's pictures")
            gui.drained(port)  # the paints asked for so far done
            paints.regions.clear()
            bar.setValue(bar.value() + STEP)
            # the strip, then the pictures of the tiles it shows as they arrive
            gui.until(lambda: window.gallery.pictures_shown(), what="the strip's pictures")
            gui.drained(port)  # the strip's and its pictures' paints done
            w, h = port.width(), port.height()
            strip = QRect(0, h - STEP, w, STEP)
            assert paints.regions, f"step {step}: nothing painted"
            assert paints.regions[0] == QRegion(strip), (
                f"step {step}: painted {paints.regions[0].boundingRect()}, not the strip {strip}"
            )
            damaged = QRegion()
            for r in paints.regions:
                damaged += r
            assert damaged == QRegion(strip), f"step {step}: {damaged.boundingRect()}"
    finally:
        port.removeEventFilter(paints)
