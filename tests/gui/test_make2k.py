""" "Make 2K" through the real window on the demo provider: offered on a finished 768P MiniMax-H3
slot in the slot pane and on gallery tiles (and not, with the domain's reason, elsewhere), the
price named first in a confirm, then a derived slot ``<rid>.2k`` made once; the source slot never
changes and its history links to the new one."""

from __future__ import annotations

import dataclasses
import time

import pytest

from app.present import words
from app.domain import derived
from app.domain.states import State
from tests.gui.conftest import shown

pytestmark = [
    pytest.mark.timeout(240),
    # a QMessageBox on the offscreen platform (the confirm): not a fault of ours
    pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)"),
]

SRC = "article:20261202:tide-eye:scene-02"
NEW = SRC + ".2k"
H3 = {"model": "MiniMax-H3", "prompt": "tide eye at dawn, slow dolly in", "duration": 4}


def regen_requests(sim):
    return int(sim.stats()["requests_by_endpoint"].get("v2_video_regeneration", 0))


def finished_source(gui, rid=SRC, **params):
    out = gui.run(gui.other_service().submit(rid, "video", {**H3, **params}, wait=True), 90)
    assert out.task.state is State.SUCCESS, out
    return out.task


def confirm_and_wait(gui, window):
    dlg = gui.until(lambda: window.make2k_dialog, what="the Make 2K confirm")
    assert dlg.isVisible()
    # the price first, then the new slot's name and the source kept
    assert dlg.informativeText().startswith("Cost: price unknown — MiniMax")
    assert (
        "scene-02.2k" in dlg.informativeText() and "stays exactly as it is" in dlg.informativeText()
    )
    assert dlg.defaultButton() is dlg.cancel  # Enter never pays
    assert regen_requests(gui.sim) == 0  # nothing sent before the designer says so
    dlg.make.click()
    gui.until(
        lambda: shown(window, NEW) and window.slot.task.state is State.SUCCESS,
        timeout=90,
        what="the 2K slot's success",
    )
    return window.slot.task


def check_source_kept(gui, window, before):
    after = gui.run(gui.service.status(SRC)).task
    assert after.fingerprint == before.fingerprint and after.params == before.params
    assert after.state is State.SUCCESS and after.media[0].sha256 == before.media[0].sha256
    # its history links to the derived slot: double-click opens it
    window.select(SRC)
    gui.until(lambda: shown(window, SRC), what="the source again")
    tree = window.result_pane.events

    def link():
        for i in range(tree.topLevelItemCount()):
            item = tree.topLevelItem(i)
            if "scene-02.2k" in item.text(0):
                return item
        return None

    item = gui.until(link, what="the history's link to the 2K slot")
    assert "a new slot was made from this one" in item.text(0)
    tree.itemActivated.emit(item, 0)
    gui.until(lambda: shown(window, NEW), what="the 2K slot opened from the history")


def test_make_2k_from_the_slot_pane(gui, make_window):
    before = finished_source(gui)
    window = make_window()
    window.select(SRC)
    gui.until(lambda: shown(window, SRC) and window.slot.task.media, what="the finished source")
    button = window.slot_pane.finished.make2k_button
    assert button.isVisibleTo(window) and button.isEnabled(), button.toolTip()
    button.click()
    task = confirm_and_wait(gui, window)
    assert task.params["regenerate_from"] == SRC and task.params["resolution"] == "2K"
    assert task.params["source_task_id"] == before.provider_task_id
    assert min(task.media[0].width, task.media[0].height) == 1440
    assert regen_requests(gui.sim) == 1
    assert "2K of scene-02" in window.slot_pane.finished.summary.text()
    # the 2K slot itself offers no Make 2K (the domain's reason)
    assert not button.isEnabled() and button.toolTip() == "This is already the 2K version."
    check_source_kept(gui, window, before)
    # asked again on the source: replayed, no second paid call
    window.select(SRC)
    gui.until(lambda: shown(window, SRC), what="the source")
    button.click()  # made before: no price asked, the service replays it
    gui.until(lambda: shown(window, NEW), what="the 2K slot again")
    assert window.make2k_dialog is None
    assert regen_requests(gui.sim) == 1
    events = gui.run(gui.service.history(NEW)).payload.events
    assert any(e.event == "replayed" for e in events)


def test_make_2k_from_a_gallery_tile(gui, make_window):
    before = finished_source(gui)
    window = make_window()
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(lambda: model.started and not model.loading and model.rowCount() > 0, what="gallery")
    menu = window.gallery.menu_for(model.index(0))
    [act] = [a for a in menu.actions() if a.objectName() == "make2kAction"]
    assert act.isEnabled(), act.toolTip()
    act.trigger()
    task = confirm_and_wait(gui, window)
    assert task.params["regenerate_from"] == SRC
    assert regen_requests(gui.sim) == 1
    check_source_kept(gui, window, before)
    # the 2K slot's tile: not offered, the domain's reason as the action's tooltip
    window.show_gallery(True)
    gui.until(
        lambda: (
            not model.loading
            and any(model.row_at(i).request_id == NEW for i in range(model.rowCount()))
        ),
        what="the 2K tile",
    )
    i = next(i for i in range(model.rowCount()) if model.row_at(i).request_id == NEW)
    [act] = [
        a
        for a in window.gallery.menu_for(model.index(i)).actions()
        if a.objectName() == "make2kAction"
    ]
    assert not act.isEnabled() and act.toolTip() == "This is already the 2K version."


def test_make_2k_not_offered_says_the_domains_reason(gui, make_window):
    """A 2K H3 slot, a legacy Hailuo video, a source past MiniMax's 7-day window: the button is
    disabled with the domain's own reason; an image has none."""
    window = make_window()
    finished = window.slot_pane.finished
    button = finished.make2k_button
    hd = finished_source(gui, SRC + "-hd", resolution="2K")
    finished.show_task(hd)
    why = derived.why_not_regenerate(
        "video", hd.params, "success", hd.provider_task_id, hd.created_at, time.time()
    )
    assert (
        why is not None
        and not button.isEnabled()
        and button.toolTip() == words.rule_words(why.rule, why.values, None)
    )
    assert "768P" in button.toolTip()
    legacy = gui.run(
        gui.other_service().submit(
            SRC + "-legacy",
            "video",
            {"model": "MiniMax-Hailuo-02", "prompt": "tide eye", "resolution": "768P"},
            wait=True,
        ),
        90,
    ).task
    assert legacy.state is State.SUCCESS
    finished.show_task(legacy)
    assert not button.isEnabled() and button.toolTip() == "Only a MiniMax-H3 video can be made 2K."
    src = finished_source(gui)
    old = dataclasses.replace(src, created_at=time.time() - derived.TASK_WINDOW_SECONDS - 60)
    finished.show_task(old)
    assert not button.isEnabled() and "7 days" in button.toolTip()
    finished.show_task(src)
    assert button.isEnabled()
    image = gui.run(gui.other_service().submit(SRC + "-still", "image", {"prompt": "x"}, wait=True))
    finished.show_task(image.task)
    assert not button.isVisibleTo(window)
    assert regen_requests(gui.sim) == 0


def test_describe_says_make_2k_and_why_not_from_outside(slate_env, demo_sim, slate):
    """``slate gui --describe``: the finished 768P slot's "Make 2K…" is offered; a 2K slot's is
    refused with the domain's reason (its tooltip)."""
    from tests.gui.test_describe import H3 as H3_ARGS
    from tests.gui.test_describe import button, describe

    out = slate(
        "submit", "--request-id", SRC, *H3_ARGS, "--resolution", "2K", "--wait", timeout=120
    )
    assert out.out["task"]["state"] == "success", out.out
    seen = describe(slate_env, "--select", SRC, "--size", "1000x640")
    make = button(seen, "make2kButton")
    assert not make["enabled"] and "768P" in make["why_not"]
