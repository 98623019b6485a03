"""Layout polish a designer sees: buttons that can't act are not shown, group rows are never cut
off, history events are read whole, and the unknown banner says the time once."""

from __future__ import annotations

import time

from app.domain.states import State
from app.service.results import HistoryEvent
from app.ui.models import NodeKindRole
from app.ui.qt import QStyleOptionViewItem
from tests.gui.bulk import insert_slot
from tests.gui.layout_checks import clipped
from tests.gui.conftest import shown

DONE = "article:20260816:tide-eye:still-01"
LOST = "article:20260816:tide-eye:scene-03"


def test_open_and_show_in_folder_only_where_there_is_a_file(gui, make_window):
    window = make_window()
    gui.until(lambda: window.middle_stack.currentWidget() is window.welcome, what="welcome page")
    history = window.result_pane
    assert not history.open_button.isVisible() and not history.folder_button.isVisible()

    gui.run(
        gui.other_service().submit(DONE, "image", {"prompt": "a lighthouse", "n": 1}, wait=True)
    )
    insert_slot(gui.service, LOST, "unknown", error="read timeout")
    window.model.refresh()
    window.select(LOST)
    gui.until(lambda: shown(window, LOST), what="unknown slot")
    assert not history.open_button.isVisible() and not history.folder_button.isVisible()
    window.select(DONE)
    gui.until(lambda: shown(window, DONE), what="done slot")
    # beside the result, in the slot pane; once (the history panel does not repeat them)
    finished = window.slot_pane.finished
    assert finished.open_button.isVisible() and finished.folder_button.isVisible()
    assert finished.open_button.isEnabled()
    window.slot_pane.history_toggle.setChecked(True)
    assert history.isVisible() and not history.open_button.isVisible()
    window.new_draft()
    assert not history.open_button.isVisible() and not finished.open_button.isVisible()


def test_new_slot_clicked_before_the_first_page_stays_when_the_empty_store_is_read(
    gui, make_window
):
    """On a busy machine the store's first (empty) page can arrive after the designer clicked
    "+ New slot": the draft asked for stays; the welcome page is for a window nobody acted on."""
    window = make_window()
    window.top_bar.new_button.click()
    assert window.middle_stack.currentWidget() is window.slot_page
    gui.until(lambda: window.model.started and not window.model.loading, what="the first page")
    window.model.loadingChanged.emit(False)  # the empty store read, as it arrives late
    assert window.middle_stack.currentWidget() is window.slot_page
    assert window.slot.is_draft and window.slot_pane.is_blank()


def test_project_and_day_rows_span_the_tree_and_filters_fit(gui, make_window):
    insert_slot(gui.service, "article:20260815:a-rather-long-campaign-name:scene-01", "success")
    window = make_window()
    tree, model = window.browser.tree, window.model
    gui.until(lambda: model.rowCount() == 1, what="project")
    project = model.index(0, 0)
    assert model.data(project, NodeKindRole) == "project"
    assert tree.isFirstColumnSpanned(0, project.parent())
    tree.expand(project)
    gui.until(lambda: model.rowCount(project) == 1, what="day")
    assert tree.isFirstColumnSpanned(0, project)
    # the narrowest the window gets: filters still read whole
    smallest = window.minimumSize()
    gui.resize(window, smallest.width(), smallest.height())  # resized and laid out
    assert [c for c in clipped(window.browser) if "Filter" in c] == []


def test_history_events_wrap_instead_of_being_cut_off(gui, make_window):
    window = make_window()
    window.splitter.setSizes([400, 640, 320])
    now = time.time()
    long_detail = (
        "video create: connection failed after sending (RemoteProtocolError: Server disconnected)"
    )
    window.result_pane.show_events(
        [
            HistoryEvent(now, "create_sent", State.SUBMITTING, None, None),
            HistoryEvent(now, "unknown", State.UNKNOWN, long_detail, None),
        ]
    )
    gui.drained(window)  # the events' rows laid out at their wrapped height
    events = window.result_pane.events
    short, long = (events.indexFromItem(events.topLevelItem(i)) for i in range(2))
    option = QStyleOptionViewItem()
    events.initViewItemOption(option)
    assert events.visualRect(long).height() >= events.itemDelegate().sizeHint(option, long).height()
    assert events.visualRect(long).height() > 1.5 * events.visualRect(short).height()  # wrapped


def test_the_unknown_banner_says_when_once(gui, make_window):
    insert_slot(gui.service, LOST, "unknown", error="read timeout")
    window = make_window()
    window.select(LOST)
    gui.until(lambda: shown(window, LOST), what="unknown slot")
    body = window.slot_pane.banner.body.text()
    assert body.count("left") == 1 and "answer never arrived" in body  # no task id: said so
    # an unknown task did not "take" anything yet
    assert "Took" not in window.slot_pane.banner.progress.text()
