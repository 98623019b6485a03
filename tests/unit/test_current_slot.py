"""CurrentSlot, the slot pane's Qt-free state: the offered actions are the task's own (the
domain's ``slot_offers``, which the service hands over in the view) in every state, narrowed only by
what passes (loading, settings being applied, work running, an invalid draft); one primary action
per state that can really be taken; and signals that fire once per change, after it is complete.

Plain pytest: no Qt is imported by the module under test (checked in a fresh interpreter).
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.capabilities import Capabilities
from app.domain.states import (
    IN_FLIGHT,
    Action,
    Refusal,
    State,
    allowed_actions,
    offered,
    slot_offers,
)
from app.ui.current import (
    BLOCKS,
    PRIMARY,
    Busy,
    CurrentSlot,
    Draft,
    Observable,
    Property,
    Signal,
    SlotTask,
    Why,
)
from app.present.words import BUSY_WORDS, REFUSAL_WORDS, WAIT_WORDS, WHY_NOT_WORDS, why_not
from tests.support.fixtures import ROOT

NO_CAPS = Capabilities()

RID = "article:20260816:tide-eye:scene-02"
OTHER = "article:20260816:tide-eye:scene-03"
STATES: list[State | None] = [None, *State]
ALL = frozenset(Action)


@dataclass(frozen=True)
class Task:
    """The task shape CurrentSlot reads (what the service's view offers, no more)."""

    request_id: str = RID
    kind: str = "video"
    state: str = "processing"
    has_results: bool = False
    provider_task_id: str | None = "task-1"
    created_at: float = 1000.0
    updated_at: float = 1030.0
    next_poll_at: float | None = None
    error: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    caps: Capabilities = NO_CAPS  # what its provider can do for its protocol

    @property
    def offers(self) -> dict[Action, Any]:
        return slot_offers(self, self.caps)  # as the service's view computes them


def slot_in(
    state: State | None,
    *,
    has_results: bool = False,
    kind: str = "video",
    task_id: str | None = "task-1",
    caps: Any = NO_CAPS,
) -> CurrentSlot:
    """A slot on screen in ``state``: a valid draft for None, else a loaded record."""
    slot = CurrentSlot()
    if state is None:
        slot.start_draft(RID, kind, {"prompt": "tide eye"})
    else:
        slot.select(RID)
        slot.show(
            RID,
            Task(
                state=state.value,
                has_results=has_results,
                kind=kind,
                provider_task_id=task_id,
                caps=caps,
            ),
            [{"event": "submitted"}],
        )
    return slot


def enabled(slot: CurrentSlot) -> set[Action]:
    return {a for a, o in slot.offers().items() if o.enabled}


# -- the module holds no Qt ------------------------------------------------------------------
def test_the_module_imports_no_qt():
    code = (
        "import sys, app.ui.current; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_task_shape_is_a_subset_of_the_services_task_view():
    from app.service.views import TaskView

    members = {n for n in dir(SlotTask) if not n.startswith("_")}
    assert members == {
        "request_id",
        "kind",
        "state",
        "has_results",
        "provider_task_id",
        "created_at",
        "updated_at",
        "next_poll_at",
        "offers",
    }
    assert members <= {f.name for f in dataclasses.fields(TaskView)}
    assert isinstance(Task(), SlotTask)


# -- the domain table, state by state --------------------------------------------------------
@pytest.mark.parametrize("has_results", [False, True])
@pytest.mark.parametrize("state", STATES, ids=lambda s: str(s))
def test_offers_equal_the_domain_table(state, has_results):
    slot = slot_in(state, has_results=has_results)
    task = slot.task
    table = offered(task, NO_CAPS)
    assert set(table) <= set(allowed_actions(state, has_results=has_results))  # never more
    offers = slot.offers()
    assert list(offers) == list(Action)  # every action, in the domain's order
    assert enabled(slot) == set(table)
    for action, offer in offers.items():
        if offer.enabled:
            assert offer.reason is None
        else:
            domain = (task.offers if task else slot_offers(None, NO_CAPS))[action]
            assert offer.reason.why is Why.REFUSED and offer.reason.action is action
            assert offer.reason.refusal is domain.refusal
            assert offer.reason.rule == domain.why_not  # the domain's own sentence
            words = WHY_NOT_WORDS[action] if domain.refusal is Refusal.STATE else None
            assert why_not(offer.reason) == (words or REFUSAL_WORDS[domain.refusal])


@pytest.mark.parametrize("task_id", [None, "task-1"])
def test_an_unknown_slot_offers_no_new_slot(task_id):
    """DESIGN.md: an unknown slot offers no "new slot" — recover it, or declare it failed."""
    slot = slot_in(State.UNKNOWN, task_id=task_id)
    new = slot.offer(Action.NEW_SLOT)
    assert not new.enabled and new.reason.refusal is Refusal.RECOVER_FIRST
    assert "declare it failed" in why_not(new.reason)


@pytest.mark.parametrize("state", sorted(IN_FLIGHT))
def test_a_running_slot_offers_query_only(state):
    assert enabled(slot_in(state)) <= {Action.QUERY}


def test_fail_offers_recover_only_with_results_left():
    assert Action.RECOVER not in enabled(slot_in(State.FAIL, has_results=False))
    assert Action.RECOVER in enabled(slot_in(State.FAIL, has_results=True))


def test_a_slot_with_no_record_and_no_draft_has_nothing_to_create():
    slot = CurrentSlot()
    assert enabled(slot) == set()
    assert slot.offer(Action.CREATE).reason.why is Why.NO_DRAFT
    slot.select(RID)
    slot.show(RID, None, [])  # selected, but no record under this name
    assert slot.offer(Action.CREATE).reason.why is Why.NO_DRAFT
    assert slot.primary is None


# -- what the table cannot know ---------------------------------------------------------------
def test_an_unknown_slot_without_task_id_cannot_be_queried_and_recover_leads():
    slot = slot_in(State.UNKNOWN, task_id=None)
    query = slot.offer(Action.QUERY)
    assert not query.enabled and query.reason.refusal is Refusal.NO_TASK_ID
    assert "Recover" in why_not(query.reason)
    assert enabled(slot) == {Action.RECOVER}
    assert slot.primary is Action.RECOVER and slot.offer(Action.RECOVER).primary
    assert not query.primary


def test_an_unknown_slot_with_a_task_id_is_queried_first():
    slot = slot_in(State.UNKNOWN, task_id="task-7")
    assert enabled(slot) == {Action.QUERY, Action.RECOVER}
    assert slot.primary is Action.QUERY


def test_an_unknown_h3_slot_is_described_with_its_own_protocols_capabilities():
    """A V2 task's provider lists its tasks: the reason says a lookup may find it (the V1 side
    of the same provider could not)."""
    v2 = Capabilities(can_list_tasks=True, can_cancel=True)
    slot = slot_in(State.UNKNOWN, task_id=None, caps=v2)
    assert slot.offer(Action.QUERY).reason.refusal is Refusal.NO_TASK_ID_LOOKUP
    assert "look the task up" in why_not(slot.offer(Action.QUERY).reason)


@pytest.mark.parametrize("task_id", [None, "img-1"])
def test_an_unknown_image_is_queried_only_where_the_provider_can(task_id):
    slot = slot_in(State.UNKNOWN, kind="image", task_id=task_id)
    assert slot.offer(Action.QUERY).reason.refusal is Refusal.NO_QUERY
    assert slot.primary is Action.RECOVER
    caps = Capabilities(can_query_images=True)
    can = slot_in(State.UNKNOWN, kind="image", task_id=task_id, caps=caps)
    if task_id:
        assert can.offer(Action.QUERY).enabled and can.primary is Action.QUERY
    else:
        assert can.offer(Action.QUERY).reason.refusal is Refusal.NO_TASK_ID


@pytest.mark.parametrize("state", [s for s in State if s is not State.UNKNOWN])
def test_a_missing_task_id_matters_only_for_unknown(state):
    with_id, without = slot_in(state, task_id="t"), slot_in(state, task_id=None)
    assert with_id.offers() == without.offers()


def test_a_draft_that_does_not_validate_cannot_be_created_and_says_why():
    slot = CurrentSlot()
    slot.start_draft(RID, "video", {"prompt": ""}, problem="Write a prompt to start.")
    create = slot.offer(Action.CREATE)
    assert not create.enabled and create.reason.why is Why.DRAFT_INVALID
    assert why_not(create.reason, lambda ctx, text: "translated") == "Write a prompt to start."
    assert slot.primary is None  # nothing to highlight until it can be created
    slot.edit_draft(params={"prompt": "tide eye"}, problem=None)
    assert slot.offer(Action.CREATE).enabled and slot.offer(Action.CREATE).primary
    assert slot.draft == Draft(RID, "video", {"prompt": "tide eye"}, None)


def test_a_rejected_slot_recreates_its_stored_parameters_whatever_the_draft_says():
    slot = slot_in(State.REJECTED)
    assert slot.offer(Action.CREATE).enabled and slot.primary is Action.CREATE


# -- busy flags ---------------------------------------------------------------------------------
@pytest.mark.parametrize("work", list(Busy))
@pytest.mark.parametrize("state", STATES, ids=lambda s: str(s))
def test_running_work_holds_back_exactly_what_it_blocks(state, work):
    slot = slot_in(state, has_results=True)
    before = slot.offers()
    slot.begin(work)
    after = slot.offers()
    blocked = BLOCKS[work] or ALL
    for action in Action:
        if action in blocked:
            reason = after[action].reason
            assert not after[action].enabled
            expected = Why.SETTINGS if work is Busy.SETTINGS else Why.BUSY
            assert reason.why is expected
            if expected is Why.BUSY:
                assert reason.detail == work.value
                assert why_not(reason) == BUSY_WORDS[work.value][1]
        else:
            assert after[action] == before[action]
    slot.end(work)
    assert slot.offers() == before


def test_create_while_sending_says_sending_and_nothing_else_changes():
    slot = slot_in(None)
    slot.begin(Busy.CREATE)
    create = slot.offer(Action.CREATE)
    assert not create.enabled and why_not(create.reason) == "Sending…" and not create.primary
    assert slot.primary is Action.CREATE  # still the action of this state: no jump elsewhere


def test_querying_an_unknown_slot_does_not_move_the_primary_button():
    slot = slot_in(State.UNKNOWN, task_id="task-7")
    slot.begin(Busy.QUERY)
    assert slot.primary is Action.QUERY
    assert not any(o.primary for o in slot.offers().values())
    assert slot.offer(Action.RECOVER).enabled


def test_several_kinds_of_work_at_once():
    slot = slot_in(State.SUCCESS)
    slot.begin(Busy.EXPORT)
    slot.begin(Busy.QUERY)
    assert slot.busy == {Busy.EXPORT, Busy.QUERY}
    assert enabled(slot) == {Action.OPEN, Action.NEW_SLOT}
    slot.end(Busy.EXPORT)
    assert Action.EXPORT in enabled(slot)
    slot.end(Busy.EXPORT)  # ending twice is harmless
    assert slot.busy == {Busy.QUERY}


def test_applying_settings_stops_everything_and_says_so():
    for state in STATES:
        slot = slot_in(state, has_results=True)
        slot.begin(Busy.SETTINGS)
        slot.begin(Busy.CREATE)
        assert enabled(slot) == set()
        assert {o.reason.why for o in slot.offers().values()} == {Why.SETTINGS}
        assert why_not(slot.offer(Action.QUERY).reason) == "Applying settings…"


def test_nothing_acts_while_the_selected_slot_loads():
    slot = slot_in(State.SUCCESS)
    slot.select(OTHER)
    assert slot.loading and slot.task is None and slot.events == ()
    assert enabled(slot) == set() and slot.primary is None
    assert {o.reason.why for o in slot.offers().values()} == {Why.LOADING}
    slot.show(OTHER, Task(request_id=OTHER, state="unknown", provider_task_id=None), [])
    assert not slot.loading and enabled(slot) == {Action.RECOVER}


# -- primary action ---------------------------------------------------------------------------
EXPECTED_PRIMARY = {
    None: Action.CREATE,
    State.REJECTED: Action.CREATE,
    State.UNKNOWN: Action.QUERY,
    State.SUCCESS: Action.EXPORT,
    State.FAIL: Action.NEW_SLOT,
    State.CANCELLED: Action.NEW_SLOT,
    **{s: None for s in IN_FLIGHT},
}


@pytest.mark.parametrize("state", STATES, ids=lambda s: str(s))
def test_one_primary_action_per_state(state):
    slot = slot_in(state)
    assert slot.primary is EXPECTED_PRIMARY[state]
    marked = [a for a, o in slot.offers().items() if o.primary]
    assert marked == ([EXPECTED_PRIMARY[state]] if EXPECTED_PRIMARY[state] else [])


def test_the_primary_table_names_only_actions_the_domain_offers_there():
    for state, order in PRIMARY.items():
        assert set(order) <= set(allowed_actions(state, has_results=True)), state


# -- following the window's flow ------------------------------------------------------------------
def test_a_stale_record_is_ignored():
    slot = CurrentSlot()
    slot.select(RID)
    assert not slot.show(OTHER, Task(request_id=OTHER), [])
    assert slot.loading and slot.task is None
    slot.start_draft()
    assert not slot.show(RID, Task(), [])  # the designer moved on to a draft
    assert slot.task is None and slot.is_draft


def test_live_updates_reach_only_the_selected_slot():
    slot = slot_in(State.PROCESSING)
    assert not slot.update_task(Task(request_id=OTHER, state="success"))
    assert slot.state is State.PROCESSING
    assert slot.update_task(Task(state="downloading"))
    assert slot.state is State.DOWNLOADING
    slot.start_draft()
    assert not slot.update_task(Task(state="success")) and slot.task is None


def test_the_request_id_on_screen():
    slot = CurrentSlot()
    assert slot.request_id is None
    slot.start_draft("")
    assert slot.request_id == ""
    slot.edit_draft(request_id=RID)
    assert slot.request_id == RID
    slot.select(OTHER)
    assert slot.request_id == OTHER and slot.draft is None
    slot.show(OTHER, Task(request_id=OTHER), [])
    assert slot.request_id == OTHER


def test_edit_draft_needs_a_draft():
    with pytest.raises(RuntimeError):
        slot_in(State.SUCCESS).edit_draft(problem=None)


def test_the_providers_words_for_a_slot_that_ended_badly():
    slot = CurrentSlot()
    slot.select(RID)
    slot.show(RID, Task(state="fail", error={"message": "1026 input sensitive"}), [])
    assert slot.problem == "1026 input sensitive"

    @dataclass
    class Problem:
        message: str

    slot.update_task(Task(state="unknown", error=Problem("read timeout")))
    assert slot.problem == "read timeout"
    slot.update_task(Task(state="success", error={"message": "old"}))
    assert slot.problem == ""


def test_what_a_draft_costs_from_todays_quota():
    slot = CurrentSlot()
    slot.start_draft(RID, "image", {"prompt": "p", "n": 3})
    assert slot.cost == ("image", 3)
    slot.edit_draft(kind="video", params={"prompt": "p"})
    assert slot.cost == ("video", 1)
    assert slot_in(State.SUCCESS).cost is None


def test_progress_of_a_running_and_of_a_finished_slot():
    slot = CurrentSlot()
    assert slot.progress(2000.0) is None
    slot.select(RID)
    slot.show(
        RID, Task(state="processing", created_at=1000.0, updated_at=1010.0, next_poll_at=1052.5), []
    )
    p = slot.progress(1050.0)
    assert p.running and p.elapsed == 50.0 and p.next_query_in == 2.5 and p.took is None
    assert slot.progress(1060.0).next_query_in == 0.0  # overdue: querying now
    slot.update_task(Task(state="success", created_at=1000.0, updated_at=1125.0))
    p = slot.progress(5000.0)
    assert not p.running and p.took == 125.0 and p.last_change == 1125.0
    assert p.next_query_in is None
    slot.update_task(Task(state="unknown", created_at=1000.0, updated_at=1061.0))
    assert slot.progress(5000.0).took is None


# -- signals -----------------------------------------------------------------------------------
class Recorder:
    def __init__(self, slot: CurrentSlot, names: list[str]) -> None:
        self.calls: list[tuple[str, Any]] = []
        for name in names:
            getattr(slot, f"{name}_changed").connect(
                lambda value, n=name: self.calls.append((n, value))
            )

    def names(self) -> list[str]:
        return [n for n, _ in self.calls]


NAMES = ["selected", "task", "events", "draft", "loading", "busy", "state", "offers"]


def test_select_fires_each_signal_once_after_every_field_changed():
    slot = slot_in(State.SUCCESS)
    seen: list[tuple[Any, ...]] = []
    slot.selected_changed.connect(lambda rid: seen.append((rid, slot.loading, slot.task)))
    rec = Recorder(slot, NAMES)
    slot.select(OTHER)
    assert seen == [(OTHER, True, None)]  # the other fields were already set
    assert sorted(rec.names()) == sorted(
        ["selected", "task", "events", "loading", "state", "offers"]
    )
    assert ("state", None) in rec.calls


def test_a_record_shown_fires_task_events_loading_state_and_offers_once():
    slot = CurrentSlot()
    slot.select(RID)
    rec = Recorder(slot, NAMES)
    task = Task(state="unknown", provider_task_id=None)
    slot.show(RID, task, [{"event": "submitted"}])
    assert sorted(rec.names()) == ["events", "loading", "offers", "state", "task"]
    offers = dict(rec.calls)["offers"]
    assert offers == slot.offers() and offers[Action.RECOVER].primary
    assert dict(rec.calls)["events"] == ({"event": "submitted"},)


def test_the_same_value_fires_nothing():
    slot = slot_in(State.PROCESSING)
    rec = Recorder(slot, NAMES)
    slot.update_task(Task(state="processing"))  # equal record
    slot.end(Busy.CREATE)  # was not running
    assert rec.calls == []


def test_a_change_that_leaves_offers_alone_fires_no_offers_signal():
    slot = slot_in(State.PROCESSING)
    rec = Recorder(slot, NAMES)
    slot.update_task(Task(state="processing", next_poll_at=1234.0))
    assert rec.names() == ["task"]
    slot.update_task(Task(state="downloading"))
    assert rec.names() == ["task", "task", "state"]  # same actions offered in both states
    slot.update_task(Task(state="success", has_results=True))
    assert rec.names()[-3:] == ["task", "state", "offers"]


def test_busy_changes_are_signalled():
    slot = slot_in(None)
    rec = Recorder(slot, NAMES)
    slot.begin(Busy.CREATE)
    slot.end(Busy.CREATE)
    assert rec.names() == ["busy", "offers", "busy", "offers"]
    assert rec.calls[0][1] == {Busy.CREATE} and rec.calls[2][1] == frozenset()


def test_a_listener_that_changes_the_slot_sees_consistent_state():
    slot = CurrentSlot()
    states: list[Any] = []
    # e.g. a widget that reacts to a failed slot by dropping its busy flags
    slot.state_changed.connect(lambda s: s is State.FAIL and slot.end(Busy.QUERY))
    slot.offers_changed.connect(lambda offers: states.append((slot.state, slot.busy)))
    slot.select(RID)
    slot.begin(Busy.QUERY)
    slot.show(RID, Task(state="fail"), [])
    assert slot.busy == frozenset()
    assert states[-1] == (State.FAIL, frozenset())


def test_disconnecting():
    signal = Signal()
    got: list[int] = []
    undo = signal.connect(got.append)
    signal.emit(1)
    undo()
    signal.emit(2)
    signal.disconnect(got.append)  # twice is harmless
    assert got == [1] and len(signal) == 0


def test_properties_on_another_observable():
    class Pane(Observable):
        title: Property[str] = Property("")
        count: Property[int] = Property(0)

    pane = Pane()
    got: list[Any] = []
    pane.title_changed.connect(got.append)
    pane.count_changed.connect(got.append)
    with pane.changes():
        pane.title = "a"
        pane.title = "b"
        pane.count = 2
        assert got == []
    assert got == ["b", 2]  # once each, the final values
    assert Pane.title.default == "" and Pane().title == ""  # per instance


# -- words -------------------------------------------------------------------------------------
def test_every_reason_has_words():
    assert set(WHY_NOT_WORDS) == set(Action)
    assert set(REFUSAL_WORDS) == set(Refusal) - {Refusal.STATE}
    assert set(BUSY_WORDS) == {b.value for b in Busy}
    assert set(WAIT_WORDS) == {w.value for w in Why} - {"refused", "busy", "draft_invalid"}
    calls: list[tuple[str, str]] = []

    def tr(context: str, text: str) -> str:
        calls.append((context, text))
        return f"<{text}>"

    slot = slot_in(State.UNKNOWN, task_id=None)
    assert why_not(slot.offer(Action.QUERY).reason, tr).startswith("<The create's answer")
    assert calls == [("WhyNot", REFUSAL_WORDS[Refusal.NO_TASK_ID])]


# -- invariants over every combination ------------------------------------------------------------
@given(
    state=st.sampled_from(STATES),
    has_results=st.booleans(),
    kind=st.sampled_from(["video", "image"]),
    task_id=st.sampled_from([None, "t-1"]),
    can_query_images=st.booleans(),
    busy=st.sets(st.sampled_from(list(Busy))),
    loading=st.booleans(),
    problem=st.sampled_from([None, "Prompt: too long"]),
)
def test_invariants(state, has_results, kind, task_id, can_query_images, busy, loading, problem):
    slot = slot_in(
        state,
        has_results=has_results,
        kind=kind,
        task_id=task_id,
        caps=Capabilities(can_query_images=can_query_images),
    )
    if state is None and problem:
        slot.edit_draft(problem=problem)
    for work in busy:
        slot.begin(work)
    if loading and state is not None:
        slot.select(OTHER)
    offers = slot.offers()
    table = set(allowed_actions(state, has_results=has_results, can_cancel=False))
    on = {a for a, o in offers.items() if o.enabled}
    assert on <= table  # never more than the domain allows
    for action, offer in offers.items():
        assert (offer.reason is None) == offer.enabled
        if offer.reason is not None:
            assert why_not(offer.reason)  # a reason always has words
            assert offer.reason.action is action
    marked = [a for a, o in offers.items() if o.primary]
    assert len(marked) <= 1
    if marked:
        assert offers[marked[0]].enabled and marked[0] is slot.primary
    if slot.primary is not None:
        assert slot.primary in PRIMARY[slot.state]
    if Busy.SETTINGS in busy or (loading and state is not None):
        assert on == set()


def test_no_two_kinds_of_work_block_each_other_beyond_their_own_actions():
    for a, b in combinations([w for w in Busy if w is not Busy.SETTINGS], 2):
        assert BLOCKS[a].isdisjoint(BLOCKS[b])
