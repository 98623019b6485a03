""" "Enhance prompt" beside the prompt, through the real window on the demo provider: offered for a
MiniMax-H3 draft (the domain's reason otherwise), the price named first, the enhancement a slot
``<rid>.enhanced`` of its own shown as a suggestion the designer edits and accepts, a second
click on the same prompt replayed (no second paid call: the demo provider counts), and the
accepted prompt created to success."""

from __future__ import annotations

import pytest

from app.present import words
from app.domain import enhance
from app.domain.states import Action, State
from app.sim.h3extras import enhanced
from tests.gui.conftest import buttons, fill_form, shown

pytestmark = [
    pytest.mark.timeout(240),
    # a QMessageBox on the offscreen platform (the confirm): not a fault of ours
    pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)"),
]

RID = "article:20261202:tide-eye:scene-05"
NEW = RID + ".enhanced"
PROMPT = "tide eye at dawn, slow dolly in"


def ir_requests(sim):
    return int(sim.stats()["requests_by_endpoint"].get("v2_h3_context_ir", 0))


def test_enhance_then_accept_then_create(gui, make_window):
    window = make_window()
    window.new_draft()
    pane = window.slot_pane
    tool = pane.enhancer
    fill_form(window, RID, PROMPT, model="MiniMax-H3", duration=4, resolution="768P")
    assert tool.button.isVisibleTo(window) and tool.button.isEnabled(), tool.button.toolTip()
    assert not tool.panel.isVisibleTo(window)

    tool.button.click()
    dlg = gui.until(lambda: tool.dialog, what="the price first")
    assert dlg.informativeText().startswith("Cost: price unknown — MiniMax")
    assert "scene-05.enhanced" in dlg.informativeText()
    assert ir_requests(gui.sim) == 0  # nothing sent before the designer says so
    dlg.go.click()
    gui.until(lambda: tool.panel.isVisibleTo(window), timeout=60, what="the suggestion")
    assert tool.suggestion.toPlainText() == enhanced(PROMPT)
    assert pane.form.prompt.toPlainText() == PROMPT  # a suggestion, not a change
    assert ir_requests(gui.sim) == 1
    stored = gui.run(gui.service.status(NEW)).task
    assert stored.kind == enhance.KIND and stored.params["enhance_of"] == RID
    assert gui.run(gui.service.status(RID)).task is None  # the draft is still a draft

    # a second click on the same prompt: replayed, no price asked, no second paid call
    tool.panel.hide()
    tool.button.click()
    gui.until(lambda: tool.panel.isVisibleTo(window), timeout=60, what="the suggestion again")
    assert tool.dialog is None
    assert tool.suggestion.toPlainText() == enhanced(PROMPT)
    assert ir_requests(gui.sim) == 1
    events = gui.run(gui.service.history(NEW)).payload.events
    assert any(e.event == "replayed" for e in events)

    # the designer edits the suggestion and accepts it; then creates the slot
    mine = enhanced(PROMPT) + ", golden light"
    tool.suggestion.setPlainText(mine)
    tool.accept.click()
    assert pane.form.prompt.toPlainText() == mine and not tool.panel.isVisibleTo(window)
    create = buttons(window)[Action.CREATE]
    gui.until(create.isEnabled, what=f"Create enabled ({pane.form.error.text()!r})")
    create.click()
    gui.until(
        lambda: shown(window, RID) and window.slot.task.state is State.SUCCESS,
        timeout=90,
        what="the slot's success with the enhanced prompt",
    )
    assert window.slot.task.params["prompt"] == mine
    assert ir_requests(gui.sim) == 1
    # the enhancement's own slot, opened: its text is its result, with the prompt it came from
    window.select(NEW)
    gui.until(lambda: shown(window, NEW), what="the enhancement's slot")
    summary = window.slot_pane.finished.summary.text()
    assert "Enhanced prompt" in summary and "for scene-05" in summary
    assert enhanced(PROMPT) in summary and f"Written: {PROMPT}" in summary
    assert not window.slot_pane.finished.make2k_button.isVisibleTo(window)


def test_another_prompt_gets_the_next_name_priced_first(gui, make_window):
    window = make_window()
    window.new_draft()
    tool = window.slot_pane.enhancer
    fill_form(window, RID, PROMPT, model="MiniMax-H3")
    tool.button.click()
    gui.until(lambda: tool.dialog, what="the price").go.click()
    gui.until(lambda: tool.panel.isVisibleTo(window), timeout=60, what="the suggestion")
    window.slot_pane.form.prompt.setPlainText(PROMPT + ", at dusk")
    tool.button.click()
    dlg = gui.until(lambda: tool.dialog, what="the price for the new prompt")
    assert "scene-05.enhanced.t2" in dlg.informativeText()
    dlg.go.click()
    gui.until(
        lambda: tool.suggestion.toPlainText() == enhanced(PROMPT + ", at dusk"),
        timeout=60,
        what="the second suggestion",
    )
    assert ir_requests(gui.sim) == 2
    # Cancel in the confirm sends nothing
    window.slot_pane.form.prompt.setPlainText(PROMPT + ", at noon")
    tool.button.click()
    gui.until(lambda: tool.dialog, what="the price again").cancel.click()
    gui.quiet(window)  # whatever Cancel started is done: a request would have been sent by now
    assert ir_requests(gui.sim) == 2


def test_not_offered_says_the_domains_reason(gui, make_window):
    window = make_window()
    window.new_draft()
    tool = window.slot_pane.enhancer
    fill_form(window, RID, PROMPT, model="MiniMax-Hailuo-02")
    why = enhance.why_not_enhance("video", window.slot_pane.form.params())
    assert why is not None
    assert not tool.button.isEnabled() and tool.button.toolTip() == words.rule_words(
        why.rule, why.values, None
    )
    fill_form(window, RID, "", model="MiniMax-H3")
    assert (
        not tool.button.isEnabled()
        and tool.button.toolTip() == "Write a prompt first, then enhance it."
    )
    fill_form(window, "", PROMPT, model="MiniMax-H3")
    assert not tool.button.isEnabled() and "Name the slot first" in tool.button.toolTip()
    fill_form(window, RID, PROMPT, model="MiniMax-H3")
    assert tool.button.isEnabled()
