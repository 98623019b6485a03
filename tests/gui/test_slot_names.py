"""Slot names in the window (issue 33, point 7): the New-slot form never offers a RequestId with
an empty part, and the slot list shows what tells derived slots apart."""

from __future__ import annotations

import pytest

from app.domain.errors import ValidationError
from app.domain.naming import validate_new_request_id
from app.domain.states import Action


def test_an_empty_scene_is_refused_as_the_domain_says(gui, make_window, qtbot):
    window = make_window()
    window.new_draft()
    pane = window.slot_pane
    composer = pane.composer
    composer.project.clear()
    qtbot.keyClicks(composer.project, "budget")
    composer.scene.clear()
    pane.form.image_radio.setChecked(True)
    pane.form.prompt.setPlainText("a lighthouse at dusk")
    rid = composer.request_id()
    assert rid.endswith(":budget:"), rid
    gui.settle(0.3)
    assert not window.slot.offer(Action.CREATE).enabled  # no Create for a name with a hole
    assert composer.error.isVisible() and composer.error.text()
    with pytest.raises(ValidationError):  # the domain's verdict, said by the form
        validate_new_request_id(rid, "RequestId")
    qtbot.keyClicks(composer.scene, "3")
    assert composer.request_id() == rid + "scene-03"
    gui.until(lambda: window.slot.offer(Action.CREATE).enabled, what="create offered")
    assert not composer.error.isVisible()
