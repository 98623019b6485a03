"""The app's own lookup for an unknown MiniMax-H3 slot (the demo provider lost the create's
answer after making the task): what it found is shown, and nothing is attached until the user
confirms."""

from __future__ import annotations

import time

from app.service.results import OutcomeKind
from app.service.slate import SlateService
from app.ui.lookup import LookupDialog
from tests.support.fixtures import SECRET, make_config
from tests.gui.conftest import shown

RID = "article:20260816:tide-eye:scene-31"
H3 = {
    "model": "MiniMax-H3",
    "prompt": "tide eye, lost answer",
    "duration": 4,
    "resolution": "768P",
    "ratio": "16:9",
}


def lost(gui, service, rid=RID):
    out = gui.run(service.submit(rid, "video", H3))
    assert out.kind is OutcomeKind.UNKNOWN and out.task.provider_task_id is None
    return out


def test_one_match_is_attached_only_after_the_user_confirms(gui, make_window):
    gui.sim.set_faults(lose_create_response=1)
    lost(gui, gui.other_service())
    [made] = [t for t in gui.sim.store.list_v2_tasks() if t["prompt"] == H3["prompt"]]
    window = make_window()
    window.select(RID)
    dialog = gui.until(
        lambda: isinstance(window.dialog, LookupDialog) and window.dialog,
        what="the lookup's answer",
    )
    assert dialog.heading.text().startswith("1 matching task found at")
    assert "attach?" in dialog.heading.text()
    row = dialog.table.topLevelItem(0)
    assert row.text(0) == made["task_id"] and row.text(2) == "MiniMax-H3" and row.text(1)
    # shown, not attached: the slot is still unknown, with no task id, at the provider too
    gui.quiet(window)  # what showing it started is done
    status = gui.run(gui.service.status(RID))
    assert status.task.state.value == "unknown" and status.task.provider_task_id is None
    assert window.slot.task.state == "unknown"
    dialog.attach_button.click()
    gui.until(
        lambda: shown(window, RID) and window.slot.task.provider_task_id == made["task_id"],
        what="attached",
    )
    gui.until(lambda: window.slot.task.state == "success", timeout=30, what="success")
    assert gui.sim.stats()["made_total"] == 1  # looking and attaching never create
    # looked up once: showing the slot again asks nothing
    window.new_draft()
    window.select(RID)
    gui.until(lambda: shown(window, RID))
    assert not isinstance(window.dialog, LookupDialog)


def test_several_matches_are_listed_to_pick_from_and_not_now_attaches_nothing(gui, make_window):
    mei = SlateService(
        make_config(gui.config.data_dir, gui.config.store, user="mei"),
        gui.store,
        gui.provider,
        SECRET,
    )
    gui.sim.set_faults(lose_create_response=2)
    lost(gui, gui.other_service())
    lost(gui, mei)  # a colleague's identical request, unknown to her too
    window = make_window()
    window.select(RID)
    dialog = gui.until(
        lambda: isinstance(window.dialog, LookupDialog) and window.dialog,
        what="the lookup's answer",
    )
    assert dialog.heading.text().startswith("2 matching tasks found")
    assert dialog.table.topLevelItemCount() == 2
    assert not dialog.attach_button.isEnabled()  # nothing chosen for the user
    dialog.later_button.click()
    gui.quiet(window)  # what the click started is done
    status = gui.run(gui.service.status(RID))
    assert status.task.state.value == "unknown" and status.task.provider_task_id is None


def test_no_match_is_said_and_offers_attach_by_id_or_declare_failed(gui, make_window):
    gui.sim.set_faults(lose_create_response=1)
    lost(gui, gui.other_service())
    [made] = gui.sim.store.list_v2_tasks()  # deleted at the provider: gone from its list
    action, _ = gui.sim.store.v2_delete(made["task_id"], time.time(), lambda _t: "deleted")
    assert action == "deleted"
    window = make_window()
    window.select(RID)
    dialog = gui.until(
        lambda: isinstance(window.dialog, LookupDialog) and window.dialog,
        what="the lookup's answer",
    )
    assert dialog.heading.text().startswith("No matching task found")
    assert not dialog.attach_button.isVisibleTo(dialog)
    dialog.other_button.click()
    gui.until(
        lambda: window.dialog is not None and window.dialog.objectName() == "recoverDialog",
        what="the recover dialog",
    )
    assert window.dialog.attach.isEnabled() and window.dialog.declare.isEnabled()


def test_a_contested_match_is_said_with_its_rival_and_attached_only_by_its_id(gui, make_window):
    """Slot A's create failed before any task existed, B's (same shape, same designer) made a
    task whose answer was lost: A's lookup finds B's task. The service calls it contested; the
    dialog says so and names B, chooses nothing, and offers attaching by id — for A and for B
    alike (B's own lookup is contested by A the same way); B attaches it by its id."""
    other = gui.other_service()
    a_rid, b_rid = RID + "a", RID + "b"
    gui.sim.set_faults(server_error_creates=1)
    a = gui.run(other.submit(a_rid, "video", {**H3, "prompt": "slot a"}))
    assert a.kind is OutcomeKind.UNKNOWN and gui.sim.stats()["made_total"] == 0
    gui.sim.set_faults(lose_create_response=1)
    lost(gui, other, b_rid)
    [made] = gui.sim.store.list_v2_tasks()
    window = make_window()
    window.select(a_rid)
    dialog = gui.until(
        lambda: isinstance(window.dialog, LookupDialog) and window.dialog,
        what="A's lookup",
    )
    assert dialog.contested == {made["task_id"]: (b_rid,)}  # the service's verdict, shown
    assert "another of your slots could have made it too" in dialog.heading.text()
    assert b_rid in dialog.explain.text() and "attach it by its id" in dialog.explain.text()
    row = dialog.table.topLevelItem(0)
    assert row.text(0) == made["task_id"] and row.text(4) == b_rid
    assert not dialog.table.isColumnHidden(4)
    assert dialog.chosen() is None and not dialog.attach_button.isEnabled()  # not chosen for A
    assert dialog.attach_button.text() == "Attach by its id"
    assert dialog.other_button.isVisibleTo(dialog)
    dialog.later_button.click()
    # the same lookup from Recover: the service's answer is typed, and said as contested
    from app.domain.errors import Unchanged
    from app.service.commands import Lookup
    from app.present import words

    out = gui.run(other.recover(a_rid, Lookup()))
    assert out.payload.attached is None and out.problem.unchanged is Unchanged.LOOKUP_CONTESTED
    assert words.for_outcome(out.problem).text == words.LOOKUP_CONTESTED
    # B's lookup: contested by A; the designer picks the row and attaches it by its id
    window.select(b_rid)
    dialog = gui.until(
        lambda: (
            isinstance(window.dialog, LookupDialog)
            and window.dialog.request_id == b_rid
            and window.dialog
        ),
        what="B's lookup",
    )
    assert dialog.contested == {made["task_id"]: (a_rid,)}
    dialog.table.setCurrentItem(dialog.table.topLevelItem(0))
    assert dialog.attach_button.isEnabled()
    dialog.attach_button.click()
    gui.until(
        lambda: shown(window, b_rid) and window.slot.task.provider_task_id == made["task_id"],
        what="B attached by id",
    )
    status = gui.run(gui.service.status(a_rid))
    assert status.task.state.value == "unknown" and status.task.provider_task_id is None
    assert gui.sim.stats()["made_total"] == 1


def test_a_contested_lookup_from_recover_is_said_in_the_designers_words(qapp):
    """The Recover dialog's lookup answer and the history's lookup line say "contested" from
    the service's typed answer and the event's evidence (not from the service's English)."""
    from app.domain.errors import Unchanged
    from app.service.results import Problem, ProblemCode
    from app.present import words

    said = "lookup found 1 matching task …; nothing changed"
    for unchanged, words_ in (
        (Unchanged.LOOKUP_CONTESTED, words.LOOKUP_CONTESTED),
        (Unchanged.LOOKUP_MANY, words.LOOKUP_MANY),
        (Unchanged.LOOKUP_NOTHING, words.LOOKUP_NOTHING),
        (Unchanged.NOT_CONFIRMED, words.NOT_CONFIRMED),
    ):
        problem = Problem(ProblemCode.UNKNOWN, said, unchanged=unchanged)
        assert words.for_outcome(problem).text == words_
    evidence = {"candidates": [{"id": "t1"}], "contested": [{"id": "t1", "by": ["b"]}]}
    shown_, _ = words.event_detail("lookup", "lookup found …", str, data=evidence)
    assert shown_ == words.LOOKUP_CONTESTED
    shown_, _ = words.event_detail("lookup", "…", str, data={"candidates": [], "contested": []})
    assert shown_ == words.LOOKUP_NOTHING
