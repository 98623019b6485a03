"""Picks and boards in the app (issue 23): F favourite, X reject, 1–5 a rating and 0 none on a
result in the gallery, the viewer and the slot pane, stored through the service; "Add to
board…" from a tile's menu; the browser's and the gallery's filters by pick, rating and board,
kept alike, narrowing what both show. Real window, real store, offscreen."""

from __future__ import annotations

import pytest

from app.ui.qt import Qt
from tests.gui.conftest import shown
from tests.gui.gallery_data import add_image_results

pytestmark = pytest.mark.qt_log_ignore(
    r".*No RHI backend\. Using CPU conversion\.",
    r"PulseAudioService: pa_context_connect\(\) failed",
    r"No audio device detected",
)


def gallery_window(gui, make_window):
    window = make_window()
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(
        lambda: model.started and not model.loading and model.rowCount() > 0, what="gallery page"
    )
    return window, model


def stored(gui, rid, position=0):
    """The result's marks as the service has them: (pick, rating, boards)."""
    out = gui.run(gui.service.pick(rid))
    r = out.payload.results[position]
    return (r.pick, r.rating, r.boards)


def key(gui, widget, k):
    gui.qtbot.keyClick(widget, k)


def test_keys_mark_a_result_in_the_gallery_and_the_viewer(gui, make_window, tmp_path):
    rids = add_image_results(gui.service, tmp_path, 3, per_slot=2)
    window, model = gallery_window(gui, make_window)
    view = window.gallery.view
    first = model.row_at(0)
    assert (first.request_id, first.position) == (rids[-1], 0)
    view.setCurrentIndex(model.index(0))
    view.setFocus()
    key(gui, view, Qt.Key.Key_F)
    gui.until(lambda: model.row_at(0).pick == "favourite", what="favourite on the tile")
    assert stored(gui, rids[-1]) == ("favourite", 0, ())
    tip = model.data(model.index(0), Qt.ItemDataRole.AccessibleTextRole)
    assert tip.endswith("· Favourite")  # a screen reader hears the mark
    key(gui, view, Qt.Key.Key_3)
    gui.until(lambda: model.row_at(0).rating == 3, what="three stars")
    key(gui, view, Qt.Key.Key_X)  # reject replaces favourite
    gui.until(lambda: model.row_at(0).pick == "reject", what="reject")
    key(gui, view, Qt.Key.Key_X)  # again: cleared
    gui.until(lambda: model.row_at(0).pick is None, what="reject cleared")
    key(gui, view, Qt.Key.Key_0)
    gui.until(lambda: model.row_at(0).rating == 0, what="rating cleared")
    assert stored(gui, rids[-1]) == (None, 0, ())
    # the second image of the slot is another result
    key(gui, view, Qt.Key.Key_Right)
    assert view.currentIndex().row() == 1
    key(gui, view, Qt.Key.Key_5)
    gui.until(lambda: model.row_at(1).rating == 5, what="five stars on #2")
    assert stored(gui, rids[-1], 1)[1] == 5 and stored(gui, rids[-1], 0)[1] == 0
    # the viewer: the same keys on the result it shows, the bar shows them
    viewer = window.open_viewer(2)
    gui.until(
        lambda: viewer.isActiveWindow() and viewer.pick_bar.isVisible(),
        what="the viewer up, taking keys",
    )
    row = model.row_at(2)
    key(gui, viewer, Qt.Key.Key_4)
    gui.until(lambda: model.row_at(2).rating == 4, what="four stars in the viewer")
    gui.until(lambda: [b.text() for b in viewer.pick_bar.stars] == ["★"] * 4 + ["☆"])
    key(gui, viewer, Qt.Key.Key_F)
    gui.until(lambda: viewer.pick_bar.favourite.isChecked(), what="favourite in the viewer")
    assert stored(gui, row.request_id, row.position) == ("favourite", 4, ())
    viewer.pick_bar.reject.click()  # the buttons do what the keys do
    gui.until(lambda: model.row_at(2).pick == "reject", what="reject by button")
    viewer.pick_bar.stars[3].click()  # the same star again: no rating
    gui.until(lambda: model.row_at(2).rating == 0, what="star clicked off")
    # fit and actual size moved to Ctrl+0 / Ctrl+1: 1 is a rating now
    key(gui, viewer, Qt.Key.Key_Right)
    gui.until(lambda: viewer.row_index == 3)
    key(gui, viewer, Qt.Key.Key_1)
    gui.until(lambda: model.row_at(3).rating == 1, what="one star")
    viewer.close()


def test_add_to_board_and_filter_by_board_pick_and_rating(gui, make_window, tmp_path):
    rids = add_image_results(gui.service, tmp_path, 4)
    other = add_image_results(gui.service, tmp_path, 2, project="tide-eye", start=10)
    window, model = gallery_window(gui, make_window)
    window.ask_board = lambda: "Hero shots"  # the dialog's answer
    gallery = window.gallery
    idx = model.index(model.row_of((model.row_at(0).task_id, 0)))
    target = model.row_at(0)
    menu = gallery.menu_for(idx)
    words = [a.text() for a in menu.actions()]
    assert "Add to board…" in words and "Favourite (F)" in words and "Reject (X)" in words
    next(a for a in menu.actions() if a.text() == "Add to board…").trigger()
    gui.until(lambda: [b.name for b in window.picks.boards] == ["Hero shots"], what="board made")
    assert stored(gui, target.request_id)[2] == ("Hero shots",)
    # a second result (another project) on the same board, from the viewer's button
    i = next(i for i in range(model.rowCount()) if model.row_at(i).request_id == rids[0])
    viewer = window.open_viewer(i)
    gui.until(lambda: viewer.pick_bar.isVisible())
    viewer.pick_bar.board.click()
    gui.until(lambda: window.picks.boards and window.picks.boards[0].count == 2, what="two on it")
    viewer.close()
    # the board is a choice in both filters; choosing it in the gallery narrows both
    board_id = window.picks.boards[0].id
    combo = gallery.filters.board
    gui.until(lambda: combo.findData(board_id) > 0, what="board listed in the gallery filter")
    assert window.browser.picks.board.findData(board_id) > 0
    combo.setCurrentIndex(combo.findData(board_id))
    gui.until(
        lambda: (
            not model.loading
            and {model.row_at(i).request_id for i in range(model.rowCount())}
            == {target.request_id, rids[0]}
        ),
        what="the gallery shows the board",
    )
    assert window.browser.picks.board.currentData() == board_id
    assert window.browser.current_filter().board == board_id
    # favourites only (on the board): none yet, then the one marked
    window.browser.picks.pick.setCurrentIndex(window.browser.picks.pick.findData("favourite"))
    assert gallery.filters.pick.currentData() == "favourite"
    gui.until(lambda: not model.loading and model.rowCount() == 0, what="no favourite yet")
    gui.until(lambda: gallery.empty.isVisible() and "No results match" in gallery.empty.text())
    gui.run(gui.service.pick(rids[0], pick="favourite", rating=4))
    window.gallery_model.reload()
    gui.until(
        lambda: (
            not model.loading
            and [model.row_at(i).request_id for i in range(model.rowCount())] == [rids[0]]
        ),
        what="the favourite on the board",
    )
    # any board, four stars or more: the same favourite; the browser reads the same filter
    combo.setCurrentIndex(0)
    gallery.filters.rating.setCurrentIndex(gallery.filters.rating.findData(4))
    gui.until(
        lambda: (
            not model.loading
            and [model.row_at(i).request_id for i in range(model.rowCount())] == [rids[0]]
        )
    )
    flt = window.browser.current_filter()
    assert (flt.pick, flt.min_rating, flt.board) == ("favourite", 4, None)
    assert gui.run(gui.service.reader.count(flt)) == 1
    assert other  # (the other project's slots are left out by the filter)


def test_the_slot_pane_marks_its_results(gui, make_window, tmp_path):
    rids = add_image_results(gui.service, tmp_path, 1, per_slot=2)
    window = make_window()
    window.slot_pane.select(rids[0])
    gui.until(lambda: shown(window, rids[0]), what="slot shown")
    finished = window.slot_pane.finished
    gui.until(lambda: finished.pick_bar.isVisible(), what="the pick bar")
    finished.pick_bar.favourite.click()
    gui.until(lambda: stored(gui, rids[0])[0] == "favourite", what="favourite stored")
    gui.until(lambda: finished.pick_bar.favourite.isChecked())
    finished.images.setCurrentRow(1)
    finished.images.setFocus()
    assert not finished.pick_bar.favourite.isChecked()  # the second result has no marks
    key(gui, finished.images, Qt.Key.Key_2)
    gui.until(lambda: stored(gui, rids[0], 1)[1] == 2, what="two stars on the second")
    gui.until(lambda: finished.pick_bar.stars[1].text() == "★")
    key(gui, finished.images, Qt.Key.Key_X)
    gui.until(lambda: stored(gui, rids[0], 1)[0] == "reject", what="reject on the second")
    window.ask_board = lambda: "Client"
    finished.pick_bar.board.click()
    gui.until(lambda: stored(gui, rids[0], 1)[2] == ("Client",), what="on the board")


def test_the_words_of_picks_and_boards_are_in_chinese_too(qapp):
    import re

    from app.ui.app import install_translations
    from app.ui.picks import BoardChooser, PickBar, PickFilters, marks_words, stars_words

    han = re.compile(r"[\u4e00-\u9fff]")
    install_translations(qapp, "zh_CN")
    try:
        f = PickFilters("t")
        texts = [c.itemText(i) for c in (f.pick, f.board) for i in range(c.count())]
        texts += [f.rating.itemText(0), f.rating.itemData(4, Qt.ItemDataRole.ToolTipRole)]
        texts += [c.accessibleName() for c in f.combos()]
        bar = PickBar()
        texts += [bar.favourite.toolTip(), bar.reject.toolTip(), bar.board.text()]
        texts += [b.toolTip() for b in bar.stars] + [stars_words(0), marks_words("reject", 2)]
        dlg = BoardChooser(["Hero"])
        texts += [dlg.windowTitle(), dlg.combo.lineEdit().placeholderText()]
        missing = [t for t in texts if not han.search(t or "")]
        assert missing == []
    finally:
        install_translations(qapp, "en")
    assert PickFilters("t").pick.itemText(2) == "Hide rejects"
