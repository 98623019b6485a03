"""Screenshots of the main view and Settings in both themes, both languages and both window
sizes (issue 23), saved to tests/screenshots/ for review: nothing cut, nothing outside the
window (tests/gui/layout_checks.py). The slot shown has had its media deleted by tidy-up, so
the Tidy up menu, "Media removed here" and Download again are in the picture."""

from __future__ import annotations

import time

import pytest

from app.ui import style
from app.ui.app import install_translations
from app.ui.qt import QApplication
from tests.gui.conftest import SCREENSHOTS, shown
from tests.gui.layout_checks import clipped, outside

IMAGE = "article:20260816:tide-eye:still-01"
PRUNED = "article:20260816:tide-eye:still-02"
SIZES = ((1000, 640), (1360, 820))
pytestmark = pytest.mark.qt_log_ignore(
    r".*No RHI backend\. Using CPU conversion\.",
    r"This plugin does not support propagateSizeHints\(\)",
)


def _settled(widget, *, window: bool) -> list[str]:
    deadline = time.monotonic() + 5
    while True:
        found = clipped(widget) + (outside(widget) if window else [])
        if not found or time.monotonic() > deadline:
            return found
        QApplication.processEvents()
        time.sleep(0.02)


def _save(widget, name: str, *, window: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    found = _settled(widget, window=window)
    assert widget.grab().save(str(SCREENSHOTS / f"{name}.png"))
    assert found == [], name


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_main_view_and_settings(gui, make_window, qapp, lang, theme):
    other = gui.other_service()
    gui.run(other.submit(IMAGE, "image", {"prompt": "a lighthouse at dawn, film grain", "n": 2,
                                          "aspect_ratio": "16:9"}, wait=True))  # fmt: skip
    gui.run(other.submit(PRUNED, "image", {"prompt": "the pier in fog", "n": 2}, wait=True))
    gui.run(other.prune_media(PRUNED))
    install_translations(qapp, lang)
    try:
        window = make_window()
        window.settings.theme = theme
        window.apply_theme()
        assert style.current().name == theme
        for w, h in SIZES:
            window.resize(w, h)
            window.select(IMAGE)
            grid = window.slot_pane.finished.images
            gui.until(lambda: shown(window, IMAGE) and grid.count() == 2, what="the images")
            gui.until(lambda: all(not grid.item(i).icon().isNull() for i in range(2)))
            _save(window, f"{lang}-{theme}-{w}x{h}-main")
            window.select(PRUNED)
            tidy = window.slot_pane.tidy
            gui.until(lambda: shown(window, PRUNED) and tidy.note.isVisible(), what="pruned")
            assert tidy.redownload_button.isVisible()
            _save(window, f"{lang}-{theme}-{w}x{h}-media-removed")
            window.open_settings()
            _save(window.dialog, f"{lang}-{theme}-{w}x{h}-settings", window=False)
            window.dialog.close()
            gui.until(lambda: window.dialog is None, what="settings closed")
    finally:
        install_translations(qapp, "en")
        style.apply_theme(window, style.LIGHT)
