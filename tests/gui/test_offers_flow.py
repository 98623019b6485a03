"""What an unknown slot offers, at the button (issue 18, points 1 and 4), through the real window on
the demo provider: a create whose answer is lost turns the slot unknown; from there the window
offers no new slot (that is how a designer pays twice: recover it, or declare it failed, first),
and the banner never tells the designer to query when Query cannot be used."""

from __future__ import annotations

import re

from app.domain.states import Action
from app.ui.app import install_translations
from tests.gui.conftest import buttons, fill_form, shown

RID = "article:20261202:tide-eye:scene-01"
IMG = "article:20261202:tide-eye:still-01"


def lost_by_the_form(gui, window, rid=RID, **form):
    """Create through the form and the Create button, with the provider's answer lost."""
    gui.sim.set_faults(lose_create_response=1)
    window.new_draft()
    fill_form(window, rid, "tide eye, slow dolly in", **form)
    gui.until(buttons(window)[Action.CREATE].isEnabled, what="Create enabled")
    buttons(window)[Action.CREATE].click()
    gui.until(
        lambda: shown(window, rid) and window.slot.task.state == "unknown",
        timeout=30,
        what="the slot unknown",
    )
    assert gui.sim.stats()["creates_total"] == 1


def test_an_unknown_slot_offers_no_new_slot_and_the_click_creates_nothing(gui, make_window):
    """Point 1: "Edit as new slot" is not offered on an unknown slot (it says why), clicking it
    starts no draft, and nothing more is created or billed."""
    window = make_window()
    lost_by_the_form(gui, window, model="MiniMax-H3", duration=4)
    new = buttons(window)[Action.NEW_SLOT]
    assert not new.isEnabled()
    assert "declare it failed" in new.toolTip()  # what to do instead
    assert not window.slot.offer(Action.NEW_SLOT).enabled
    new.click()
    window.slot_pane.new_slot()  # a stray call (a shortcut, a menu) does nothing either
    gui.quiet(window)  # what the click and the call started is done
    assert not window.slot.is_draft and shown(window, RID)
    assert not buttons(window)[Action.CREATE].isEnabled()
    assert gui.sim.stats()["creates_total"] == 1


def test_the_unknown_banner_says_what_is_offered_not_query(gui, make_window):
    """Point 4: no task id came back, so Query is disabled; the banner does not tell the
    designer to query, it says what Recover can do (for MiniMax-H3: look the task up)."""
    window = make_window()
    lost_by_the_form(gui, window, model="MiniMax-H3", duration=4)
    body = window.slot_pane.banner.body.text()
    assert not buttons(window)[Action.QUERY].isEnabled()
    assert "Query the provider" not in body
    assert "look the task up" in body and "declare the slot failed" in body
    assert buttons(window)[Action.RECOVER].isEnabled()
    assert "look the task up" in buttons(window)[Action.QUERY].toolTip()  # H3 is listable


def test_an_unknown_image_says_it_cannot_be_queried_and_is_not_looked_up(gui, make_window):
    """An image has no task id anywhere: the banner says so, Recover leads, and the window does
    not run a task-list lookup for it."""
    window = make_window()
    lost_by_the_form(gui, window, rid=IMG, kind="image")
    body = window.slot_pane.banner.body.text()
    assert "Query the provider" not in body and "image tasks" in body
    query, recover = buttons(window)[Action.QUERY], buttons(window)[Action.RECOVER]
    assert not query.isEnabled() and recover.isEnabled() and recover.property("primary")
    assert not buttons(window)[Action.NEW_SLOT].isEnabled()
    gui.quiet(window)  # what showing the slot started is done: a lookup would be open now
    assert window.dialog is None  # no "looking for this slot's task" for an image


def test_the_unknown_banner_follows_the_offers_in_chinese(gui, make_window, qapp):
    install_translations(qapp, "zh_CN")
    try:
        window = make_window()
        lost_by_the_form(gui, window, model="MiniMax-H3", duration=4)
        body = window.slot_pane.banner.body.text()
        assert re.search(r"[\u4e00-\u9fff]", body)
        assert "请向服务商查询" not in body  # "query the provider", said in Chinese
        assert re.search(r"[\u4e00-\u9fff]", buttons(window)[Action.NEW_SLOT].toolTip())
    finally:
        install_translations(qapp, "en")
