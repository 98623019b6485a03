"""The history side panel (issue 35): beside the slot when the window is wide, closed at
1000×640 so the result takes the room; the header's History toggle opens and closes it in one
click, and the choice is remembered for the next window."""

from __future__ import annotations

from app.ui.window import HISTORY_OPEN_WIDTH

DONE = "article:20260816:tide-eye:still-01"


def panel(window):
    return window.splitter.widget(2)


def test_closed_when_narrow_open_when_wide_until_the_designer_chooses(gui, make_window):
    window = make_window()
    toggle = window.slot_pane.history_toggle
    gui.resize(window, 1000, 640)
    gui.until(lambda: panel(window).isHidden(), what="the panel closed at 1000×640")
    assert not toggle.isChecked()
    gui.resize(window, HISTORY_OPEN_WIDTH + 100, 900)
    gui.until(lambda: not panel(window).isHidden(), what="the panel open when wide")
    assert toggle.isChecked()
    assert window.settings.history_panel is None  # nothing chosen: the width decided

    toggle.click()  # the designer closes it: it stays closed, whatever the width
    assert panel(window).isHidden() and not toggle.isChecked()
    assert window.settings.history_panel is False
    gui.resize(window, HISTORY_OPEN_WIDTH + 200, 900)  # its resizeEvent has run
    assert panel(window).isHidden()

    again = make_window()  # the next window remembers
    gui.resize(again, HISTORY_OPEN_WIDTH + 100, 900)
    assert panel(again).isHidden() and not again.slot_pane.history_toggle.isChecked()
    again.slot_pane.history_toggle.click()
    assert not panel(again).isHidden() and again.settings.history_panel is True
    gui.resize(again, 1000, 640)
    assert not panel(again).isHidden()  # opened by choice: open at any size


def test_the_panel_gives_its_room_to_the_result_and_takes_it_back(gui, make_window):
    gui.run(gui.other_service().submit(DONE, "image", {"prompt": "a lighthouse"}, wait=True))
    window = make_window()
    gui.resize(window, 1000, 640)
    window.select(DONE)
    gui.until(lambda: window.slot.task is not None and window.slot.task.media, what="result")
    media = window.slot_pane.finished.media
    gui.until(lambda: media.isVisible(), what="the result on screen")
    gui.laid_out(window)
    closed = media.width()
    window.slot_pane.history_toggle.click()
    history = window.result_pane
    gui.laid_out(window)
    assert history.isVisible() and history.events.isVisible()
    assert history.details_button.isVisible()  # the files' details, one click away
    gui.until(lambda: media.width() < closed, what="the result narrower beside the panel")
    opened = media.width()
    window.slot_pane.history_toggle.click()
    gui.laid_out(window)
    assert not history.isVisible()
    gui.until(lambda: media.width() > opened, what="the result wider again")
    window.show_gallery(True)  # the gallery takes the right too, and gives it back closed
    window.show_gallery(False)
    gui.quiet(window)  # the gallery's work done: nothing opened the panel again
    assert not history.isVisible()
