"""A query answer is applied to the state it was asked in, never over a move another process
made meanwhile. Two processes polling one store (the window and ``slate wait``) ask the provider
about the same task; one stores ``success`` while the other's answer — asked a moment earlier,
"Processing" — is on its way. That answer once moved the finished slot back to ``processing``
(or ``downloading``, fetching its media again): `slate wait` had said success, the window then
showed the slot running. Now the stale answer finds the slot moved and changes nothing.

A real store (both backends) and the demo provider over loopback; the racing process is the
store write a second poller makes.
"""

from __future__ import annotations

import pytest

from app.domain.slots import validate_request_id
from app.domain.states import State
from app.providers.base import VideoStatus
from app.providers.demo import DemoProvider
from app.service.slate import SlateService
from app.store.aio import open_store
from tests.support.fixtures import SECRET, make_config

RID = "article:20261206:stale-answer:scene-"

VIDEO = ("video", {"prompt": "tide eye, stale answer", "duration": 6, "resolution": "768P"})
#: asynchronous speech (over 10,000 characters): its own words (t2a)
SPEECH = (
    "speech",
    {"text": "The tide eye opens at dusk. " * 400, "voice": "English_expressive_narrator"},
)
#: the stale answers: what the provider said while the task was still running
ANSWERS = {
    "processing": (VIDEO, "Processing", None),
    "queueing": (VIDEO, "Queueing", None),
    "success-again": (VIDEO, "Success", "file-stale"),
    "fail": (VIDEO, "Fail", None),
    "speech-processing": (SPEECH, "Processing", None),
    "speech-success-again": (SPEECH, "Success", "file-stale"),
}


@pytest.mark.parametrize("answer", list(ANSWERS))
async def test_a_stale_answer_never_moves_a_slot_another_process_finished(
    data_dir, store_url, demo_sim, answer
):
    store = open_store(store_url)
    provider = DemoProvider(demo_sim.base_url, timeout=10.0, connect_timeout=10.0)
    svc = SlateService(make_config(data_dir, store_url), store, provider, SECRET)
    try:
        rid = RID + answer
        (kind, params), word, file_id = ANSWERS[answer]
        await svc.submit(rid, kind, params)
        slot = svc.ctx.slot(validate_request_id(rid))
        asked = await store.slot(svc.ctx.scope, slot.slot_key)  # what this poller asked about
        assert asked is not None and asked.provider_task_id
        assert asked.state in (State.PREPARING, State.QUEUEING, State.PROCESSING)
        # meanwhile another process finished the slot
        done = await store.transition(asked, state=State.SUCCESS, event="success", detail="done")
        assert done is not None and done.state is State.SUCCESS
        stale = VideoStatus(
            task_id=asked.provider_task_id,
            status=word,
            file_id=file_id,
            width=1366 if file_id else None,
            height=768 if file_id else None,
            raw={"status": word},
        )
        got = await svc.lifecycle.apply_status(asked, stale)
        now = await store.slot(svc.ctx.scope, slot.slot_key)
        assert now is not None and now.state is State.SUCCESS, (answer, now.state)
        assert got.state is State.SUCCESS  # the caller is told what the store holds
        events = [e.event for e in await store.history(svc.ctx.scope, slot.slot_key)]
        assert events[-1] == "success", events  # nothing written after the other's move
    finally:
        await svc.aclose()
        await provider.aclose()
        store.close()
