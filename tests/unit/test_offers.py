"""What a slot offers (``domain.states.slot_offers``): the contract's action table, narrowed by
the task's own facts — an unknown slot is queried only where it has a task id its provider can be
asked about, never offers a new slot (recover or declare it failed first), and every refusal
carries a typed reason with the command line's sentence."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.domain.capabilities import Capabilities
from app.domain.states import (
    ALLOWED_ACTIONS,
    REFUSAL_WHY,
    WHY_NOT,
    Action,
    Refusal,
    SlotOffer,
    State,
    offered,
    slot_offers,
)

V1 = Capabilities()  # MiniMax V1: no list, no cancel, no image query
V2 = Capabilities(can_list_tasks=True, can_cancel=True, can_upload=True)


@dataclass(frozen=True)
class Facts:
    state: State
    kind: str = "video"
    has_results: bool = False
    provider_task_id: str | None = "t-1"


def test_the_contracts_table_row_by_row():
    """DESIGN.md "Actions per state", for a task that has everything (id, results, V2)."""
    table = {
        State.REJECTED: {Action.CREATE, Action.NEW_SLOT},
        State.SUBMITTING: {Action.QUERY},
        State.PREPARING: {Action.QUERY},
        State.PROCESSING: {Action.QUERY},
        State.DOWNLOADING: {Action.QUERY},
        State.QUEUEING: {Action.QUERY, Action.CANCEL},
        State.UNKNOWN: {Action.QUERY, Action.RECOVER},
        State.SUCCESS: {Action.EXPORT, Action.OPEN, Action.NEW_SLOT},
        State.FAIL: {Action.RECOVER, Action.NEW_SLOT},
        State.CANCELLED: {Action.NEW_SLOT},
    }
    for state, allowed in table.items():
        assert set(offered(Facts(state, has_results=True), V2)) == allowed, state
    assert offered(None, V1) == (Action.CREATE,)


def test_every_action_is_answered_in_the_tables_order_with_a_reason_when_refused():
    for state in [None, *State]:
        facts = Facts(state) if state is not None else None
        for caps in (V1, V2):
            offers = slot_offers(facts, caps)
            assert list(offers) == list(Action)
            for action, o in offers.items():
                assert o.action is action
                assert o.offered is (o.refusal is None)
                assert bool(o.why_not) is not o.offered
                if action not in ALLOWED_ACTIONS[state]:
                    assert not o.offered


@pytest.mark.parametrize("caps", [V1, V2], ids=["v1", "v2"])
def test_an_unknown_slot_never_offers_a_new_slot(caps):
    for task_id in (None, "t-1"):
        o = slot_offers(Facts(State.UNKNOWN, provider_task_id=task_id), caps)[Action.NEW_SLOT]
        assert o.refusal is Refusal.RECOVER_FIRST
        assert "declare" in o.why_not


def test_an_unknown_slot_without_task_id_is_not_queried_and_says_what_instead():
    v1 = slot_offers(Facts(State.UNKNOWN, provider_task_id=None), V1)
    v2 = slot_offers(Facts(State.UNKNOWN, provider_task_id=None), V2)
    assert v1[Action.QUERY].refusal is Refusal.NO_TASK_ID
    assert "--lookup" not in v1[Action.QUERY].why_not  # V1 cannot list its tasks
    assert v2[Action.QUERY].refusal is Refusal.NO_TASK_ID_LOOKUP  # V2 lists them: look it up
    assert "recover --lookup" in v2[Action.QUERY].why_not
    for offers in (v1, v2):
        assert [a for a, o in offers.items() if o.offered] == [Action.RECOVER]


def test_an_unknown_slot_with_a_task_id_is_queried():
    offers = slot_offers(Facts(State.UNKNOWN, provider_task_id="t-9"), V1)
    assert [a for a, o in offers.items() if o.offered] == [Action.QUERY, Action.RECOVER]


@pytest.mark.parametrize("task_id", [None, "img-1"])
def test_an_unknown_image_has_nothing_to_ask_about(task_id):
    for caps in (V1, V2):
        offers = slot_offers(Facts(State.UNKNOWN, kind="image", provider_task_id=task_id), caps)
        assert offers[Action.QUERY].refusal is Refusal.NO_QUERY
        assert [a for a, o in offers.items() if o.offered] == [Action.RECOVER]
    can = slot_offers(
        Facts(State.UNKNOWN, kind="image", provider_task_id=task_id),
        Capabilities(can_query_images=True),
    )
    assert can[Action.QUERY].offered is bool(task_id)


def test_cancel_only_where_the_protocol_can_and_recover_only_with_results():
    assert slot_offers(Facts(State.QUEUEING), V1)[Action.CANCEL].refusal is Refusal.NO_CANCEL
    assert slot_offers(Facts(State.QUEUEING), V2)[Action.CANCEL].offered
    assert slot_offers(Facts(State.PROCESSING), V2)[Action.CANCEL].refusal is Refusal.STATE
    assert slot_offers(Facts(State.FAIL), V1)[Action.RECOVER].refusal is Refusal.NO_RESULTS
    assert slot_offers(Facts(State.FAIL, has_results=True), V1)[Action.RECOVER].offered


def test_every_refusal_has_the_command_lines_words():
    assert set(REFUSAL_WHY) == set(Refusal) - {Refusal.STATE}
    for action in Action:
        assert SlotOffer(action, Refusal.STATE).why_not == WHY_NOT[action]
    assert SlotOffer(Action.QUERY).why_not == ""
