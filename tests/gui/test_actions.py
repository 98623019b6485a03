"""For every state the enabled actions are exactly the domain table's; Create never for unknown
or in-flight slots; a disabled action says why."""

from __future__ import annotations

import pytest

from app.domain.states import IN_FLIGHT, Action, State, allowed_actions
from tests.gui.bulk import insert_slot
from tests.gui.conftest import buttons, fill_form, shown

BUTTONS = (Action.CREATE, Action.QUERY, Action.RECOVER, Action.EXPORT, Action.NEW_SLOT)


def enabled(window) -> set[Action]:
    return {a for a in BUTTONS if buttons(window)[a].isEnabled()}


def expected(state, has_results=False) -> set[Action]:
    # the contract's table exactly (DESIGN.md "Actions per state"): no new slot while running
    # or unknown
    return set(allowed_actions(state, has_results=has_results)) & set(BUTTONS)


CASES = [(s.value, False) for s in State] + [("fail", True)]


def test_enabled_actions_equal_the_table_for_every_state(gui, make_window):
    rids = {}
    for i, (state, results) in enumerate(CASES):
        rid = f"article:20260816:states:scene-{i:02d}"
        insert_slot(
            gui.service,
            rid,
            state,
            results={"file_id": "42"} if results else None,
            error="provider said no" if state in ("fail", "rejected", "unknown") else None,
            provider_task_id="12345" if state not in ("submitting", "rejected") else None,
        )
        rids[rid] = (state, results)
    # a live owner must not be swept: only the window's own poller would turn submitting → unknown,
    # so this window doesn't start the poller.
    window = make_window(start=False)
    for rid, (state, results) in rids.items():
        window.select(rid)
        gui.until(lambda: shown(window, rid), what=rid)
        assert window.slot.task.state == state
        assert enabled(window) == expected(state, results), state
        create = buttons(window)[Action.CREATE]
        if state in {s.value for s in IN_FLIGHT} or state == "unknown":
            assert not create.isEnabled()
        for action in BUTTONS:
            button = buttons(window)[action]
            assert button.toolTip(), (state, action)
        # the banner says the state in words
        assert window.slot_pane.banner.title.text()
        assert window.slot_pane.form.prompt.isReadOnly()


def test_empty_slot_offers_create_only_when_the_form_is_valid(gui, make_window):
    window = make_window()
    window.new_draft()
    assert enabled(window) == set()  # nothing named, nothing written yet
    assert "RequestId" in buttons(window)[Action.CREATE].toolTip()
    fill_form(
        window,
        "article:20260816:tide-eye:scene-01",
        "tide eye, slow dolly in",
        model="MiniMax-Hailuo-2.3",
    )
    assert enabled(window) == expected(None) == {Action.CREATE}
    # the 10 s + 1080P hint, as you type
    window.slot_pane.form.duration.set_value(10)
    window.slot_pane.form.resolution.setCurrentText("1080P")
    assert not buttons(window)[Action.CREATE].isEnabled()
    assert (
        "768P" in window.slot_pane.form.error.text() and "6 s" in window.slot_pane.form.error.text()
    )
    assert "768P" in buttons(window)[Action.CREATE].toolTip()
    window.slot_pane.form.resolution.setCurrentText("768P")
    assert buttons(window)[Action.CREATE].isEnabled()


def test_prompt_count_follows_the_model_limit(gui, make_window):
    window = make_window()
    window.new_draft()
    window.slot_pane.form.prompt.setPlainText("x" * 2001)
    assert window.slot_pane.form.count.text() == "2001 / 7000"  # MiniMax-H3 first
    window.slot_pane.form.set_model("MiniMax-Hailuo-2.3")
    assert window.slot_pane.form.count.text() == "2001 / 2000"
    assert "2000" in window.slot_pane.form.error.text()
    window.slot_pane.form.image_radio.setChecked(True)
    assert window.slot_pane.form.count.text() == "2001 / 1500"
    window.slot_pane.form.prompt.setPlainText("a cat")
    assert window.slot_pane.form.error.text() == ""


@pytest.mark.parametrize(
    "rid,ok",
    [
        ("short", False),
        ("article:20260816:tide eye:scene-01", False),
        ("article:20260816:tide-eye:scene-01", True),
    ],
)
def test_request_id_is_validated_as_you_type(gui, make_window, rid, ok):
    window = make_window()
    window.new_draft()
    fill_form(window, rid, "a prompt")
    assert buttons(window)[Action.CREATE].isEnabled() is ok
    assert bool(window.slot_pane.composer.error.text()) is (not ok)
