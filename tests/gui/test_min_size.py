"""The window at its own minimum size, in English and Chinese, with the slot pane in every kind of
state: no text is cut off (buttons, combo boxes, labels), no button is pushed off the window, a
menu button's text and arrow both fit, slot names in the tree read whole. Screenshots are saved to tests/screenshots/ for review."""

from __future__ import annotations


import pytest

from app.ui.app import install_translations
from tests.gui.bulk import insert_slot, past_successes
from tests.gui.conftest import SCREENSHOTS, shown
from tests.gui.layout_checks import clipped, cramped_menus, elided_rows, outside

IMAGE = "article:20260816:tide-eye:still-01"
RUNNING = "article:20260816:tide-eye:scene-05"
LOST = "article:20260816:tide-eye:scene-03"
FAILED = "article:20260816:tide-eye:scene-06"
ODD = "campaign:2026-autumn-launch:x:y"


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")


def check(gui, window, name: str) -> None:
    gui.quiet(window)
    gui.drained(window)
    try:  # let a label whose text just arrived be laid out (the status bar's counts)
        gui.until(lambda: not clipped(window) and not outside(window), timeout=2, what="layout")
    except AssertionError:
        pass  # said below, with the names of what is cut off
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SCREENSHOTS / f"min-{name}.png"))
    assert window.size() == window.minimumSize()
    assert clipped(window) == [], name
    assert outside(window) == [], name
    assert elided_rows(window.browser.tree) == [], name
    # the top bar's "Shot list" (and every menu button): its text and its arrow both fit
    assert window.top_bar.shots_button.isVisible()
    assert cramped_menus(window) == [], name


@pytest.mark.qt_log_ignore(r".*No RHI backend\. Using CPU conversion\.")
def test_every_pane_fits_at_the_minimum_size(gui, make_window, lang):
    gui.run(
        gui.other_service().submit(
            IMAGE,
            "image",
            {"prompt": "a lighthouse at dawn", "n": 3, "aspect_ratio": "16:9"},
            wait=True,
        )
    )
    insert_slot(gui.service, RUNNING, "processing", provider_task_id="t-5")
    insert_slot(gui.service, LOST, "unknown", error="read timeout")
    insert_slot(
        gui.service,
        FAILED,
        "fail",
        error="input sensitive",
        error_code="1026",
        provider_task_id="t-6",
    )
    insert_slot(gui.service, ODD, "success")
    # two earlier tasks like the running one: the banner and the queue show an estimate
    past_successes(gui.service, "article:20260815:tide-eye:past")
    window = make_window()
    window.resize(window.minimumSize())
    gui.until(lambda: window.model.rowCount() >= 2, what="projects")

    window.new_draft()
    check(gui, window, f"{lang}-draft")
    for rid, name in (
        (IMAGE, "images-done"),
        (RUNNING, "running"),
        (LOST, "unknown"),
        (FAILED, "failed"),
        (ODD, "odd-request-id"),
    ):
        window.select(rid)
        gui.until(lambda rid=rid: shown(window, rid), what=rid)
        if rid == IMAGE:
            grid = window.slot_pane.finished.images
            gui.until(
                lambda grid=grid: (
                    grid.count() == 3 and all(not grid.item(i).icon().isNull() for i in range(3))
                ),
                what="images",
            )
            assert all(
                grid.visualItemRect(grid.item(i)).right() <= grid.viewport().width()
                for i in range(3)
            )  # no image cut off at the side
        if rid == RUNNING:
            gui.until(lambda: window.slot_pane.banner.estimate is not None, what="estimate")
            gui.until(lambda: window.queue.isVisible() and window.queue.entries, what="queue")
        check(gui, window, f"{lang}-{name}")
    window.slot_pane.new_slot()
    check(gui, window, f"{lang}-edit-as-new")
