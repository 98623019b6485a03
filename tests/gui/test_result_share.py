"""Results first (issue 35, "Done when"): with a finished image slot (two images), video slot or
song slot selected, the window's own description (``app.ui.describe``, what ``slate gui
--describe --select RID --size WxH`` prints) says the result takes at least half the window at
1360×820 and a third of it at 1000×640 — in English and zh_CN, in the light and the dark theme —
and nothing around it is cut off (tests/gui/layout_checks.py)."""

from __future__ import annotations

import time

import pytest

from app.ui import style
from app.ui.describe import describe
from app.ui.qt import QApplication
from tests.gui.conftest import shown
from tests.gui.layout_checks import clipped, outside

SLOTS = (
    ("article:20261204:harbor:still-01", "image", {"prompt": "a lighthouse", "n": 2}),
    ("article:20261204:harbor:clip-01", "video", {"prompt": "waves at the harbor"}),
    ("article:20261204:harbor:song-01", "music", {"prompt": "sea shanty", "instrumental": True}),
)
#: The least share of the window the result takes, per window size.
SIZES = (((1360, 820), 0.5), ((1000, 640), 0.33))
pytestmark = pytest.mark.qt_log_ignore(
    r".*No RHI backend\. Using CPU conversion\.",
    r"This plugin does not support propagateSizeHints\(\)",
)


def _uncut(window) -> list[str]:
    deadline = time.monotonic() + 5
    while True:
        found = clipped(window) + outside(window)
        if not found or time.monotonic() > deadline:
            return found
        QApplication.processEvents()
        time.sleep(0.02)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_finished_result_takes_the_room(gui, make_window, lang, theme):
    other = gui.other_service()
    for rid, kind, params in SLOTS:
        gui.run(other.submit(rid, kind, params, wait=True))
    window = make_window()
    try:
        window.settings.theme = theme
        window.apply_theme()
        assert style.current().name == theme
        seen = {}
        for (w, h), least in SIZES:
            window.resize(w, h)
            for rid, kind, _ in SLOTS:
                window.select(rid)
                gui.until(
                    lambda rid=rid: shown(window, rid) and window.slot.task.media,
                    what=f"the {kind} result",
                )
                gui.quiet(window)
                gui.drained(window)  # the result laid out at this size
                said = describe(window, selected=rid, lang=lang)
                assert said["window"] == {"width": w, "height": h, "lang": lang}
                assert said["slot"]["state"] == "success" and said["slot"]["kind"] == kind
                seen[(kind, w)] = share = said["result"]["share"]
                assert share >= least, (kind, w, h, lang, theme, share)
                assert _uncut(window) == [], (kind, w, h, lang, theme)
                fin = window.slot_pane.finished
                if kind != "music":  # the marks and "Add to board…" stay on the actions' row
                    rows = {fin.use_button.y(), fin.pick_bar.y(), fin.pick_bar.board.y()}
                    assert len(rows) == 1, (kind, w, h, lang, theme, rows)
    finally:
        style.apply_theme(window, style.LIGHT)
