"""A draft's twin (issue 18, "never pay twice from the window"): the service's read of another
slot of this designer with exactly the draft's parameters that is live, unknown or a success —
read and normalized as the submit reads them, on both stores, through the service on the demo
provider over HTTP. The read claims, writes and sends nothing."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from app.domain.params import DEFAULT_SECONDS
from app.domain.states import PAID_OR_PAYING, State
from app.service.reads import Twin
from app.store.models import events, tasks

A = "article:20261202:harbour:scene-01"
B = "article:20261202:harbour:scene-02"
C = "article:20261202:harbour:scene-03"
D = "article:20261202:harbour:scene-04"
IMAGE = {"prompt": "a lighthouse at dusk"}
VIDEO = {"prompt": "waves on the pier at night"}


def _ledger(h) -> list[Any]:
    with h.store.engine.connect() as conn:
        t = conn.execute(sa.select(tasks).order_by(tasks.c.id)).all()
        e = conn.execute(sa.select(events).order_by(events.c.id)).all()
    return [tuple(r) for r in t] + [tuple(r) for r in e]


def _set_state(h, request_id: str, state: State) -> None:
    with h.store.engine.begin() as conn:
        conn.execute(
            sa.update(tasks).where(tasks.c.request_id == request_id).values(state=state.value)
        )


async def test_a_finished_slot_is_the_twin_of_a_new_draft_with_its_parameters(harness) -> None:
    h = harness
    svc = h.service
    done = await svc.submit(A, "image", IMAGE, wait=True, max_seconds=30)
    assert done.task is not None and done.task.state == State.SUCCESS, done
    ledger = _ledger(h)
    sent = h.sim.stats()["requests_total"]

    assert await svc.twin_of(B, "image", dict(IMAGE)) == Twin(A, State.SUCCESS)
    # the slot itself is no twin of its own draft (its create would be replayed)
    assert await svc.twin_of(A, "image", dict(IMAGE)) is None
    # other parameters, another kind: no twin
    assert await svc.twin_of(B, "image", {"prompt": "a lighthouse at dawn"}) is None
    assert await svc.twin_of(B, "video", dict(IMAGE)) is None
    # another user of the same store and tenant sees none of this designer's slots
    assert await h.other(user="mei").twin_of(B, "image", dict(IMAGE)) is None
    # a draft that does not validate has no twin (its create says why)
    assert await svc.twin_of(B, "image", {"prompt": ""}) is None
    assert await svc.twin_of("no spaces allowed", "image", dict(IMAGE)) is None
    # a read: nothing written, nothing sent
    assert _ledger(h) == ledger
    assert h.sim.stats()["requests_total"] == sent


async def test_the_twin_is_found_by_the_submits_normalized_fingerprint(harness) -> None:
    h = harness
    svc = h.service
    out = await svc.submit(A, "video", VIDEO)
    assert out.kind.value == "created", out.problem
    # the default duration said out loud is the same intent: the same fingerprint
    found = await svc.twin_of(B, "video", {**VIDEO, "duration": DEFAULT_SECONDS})
    assert found is not None and found.request_id == A
    assert found.state in PAID_OR_PAYING


async def test_live_unknown_and_success_count_failed_and_cancelled_do_not(harness) -> None:
    h = harness
    svc = h.service
    assert (await svc.submit(A, "image", IMAGE, wait=True, max_seconds=30)).kind.value
    for state in (State.QUEUEING, State.PROCESSING, State.UNKNOWN, State.SUBMITTING):
        _set_state(h, A, state)
        assert await svc.twin_of(B, "image", dict(IMAGE)) == Twin(A, state)
    for state in (State.FAIL, State.CANCELLED, State.REJECTED):
        _set_state(h, A, state)
        assert await svc.twin_of(B, "image", dict(IMAGE)) is None


async def test_the_newest_twin_is_named(harness) -> None:
    h = harness
    svc = h.service
    for rid in (A, C):
        out = await svc.submit(rid, "image", IMAGE, wait=True, max_seconds=30)
        assert out.task is not None and out.task.state == State.SUCCESS, out
    assert await svc.twin_of(D, "image", dict(IMAGE)) == Twin(C, State.SUCCESS)
    # from C's own slot, the other one is A
    assert await svc.twin_of(C, "image", dict(IMAGE)) == Twin(A, State.SUCCESS)
