"""Polling: persisted next query times, backoff on 1002 and errors, a global request-rate cap,
and a resume that spreads the first queries instead of bursting."""

from __future__ import annotations

import asyncio
import bisect
import time

from app.domain.states import State
from app.providers.demo import DemoProvider
from app.service.results import OutcomeKind
from app.service.slate import SlateService
from app.sim import SimConfig, start_sim
from app.store.aio import open_store
from tests.support.fixtures import SECRET, make_config

VIDEO = {"prompt": "p", "resolution": "768P"}


#: The cap of the capped poller: the 60-odd requests the test needs take 60 / CAP windows of
#: 1.1 s (at 8, 8 s of the test's 10 s; at 16, half that), and uncapped it would send hundreds
CAP = 16


async def test_poller_respects_the_request_rate_cap(data_dir, store_url):
    # one frame a second: the 30 downloads' media made and verified at half the CPU; one
    # prompt for all 30 slots (one request id each): the provider renders one clip, not 30
    sim = start_sim(
        SimConfig(preparing=0.3, queueing=0.3, processing=0.6, image_latency=0.0, video_fps=1)
    )
    store = open_store(store_url)
    provider = DemoProvider(sim.base_url, timeout=5.0)
    try:
        fast = SlateService(
            make_config(data_dir, store_url, max_requests_per_second=500), store, provider, SECRET
        )
        for i in range(30):
            assert (
                await fast.submit(f"poll:20261130:cap:scene-{i:02d}", "video", VIDEO)
            ).kind is OutcomeKind.CREATED
        sim.reset()
        capped = SlateService(
            make_config(data_dir, store_url, max_requests_per_second=CAP, poll_interval=0.05),
            store,
            provider,
            SECRET,
        )
        stop = asyncio.Event()
        runner = asyncio.create_task(capped.run_poller(stop))
        deadline = time.time() + 60
        while (await capped.running_count()) and time.time() < deadline:
            await asyncio.sleep(0.2)
        stop.set()
        await runner
        assert await capped.running_count() == 0
        stats = sim.stats()
        assert stats["requests_by_endpoint"]["query_video_generation"] >= 30
        # every API request counts against the cap (downloads go to the file host). Measured
        # where they arrive: delivery jitter on a busy machine can move one request across a
        # window's edge, so the cap is read over 2 s windows with one request of slack at each
        # edge (without the cap, 30 tasks at a 0.05 s interval send hundreds a second)
        times = sorted(stats["api_request_times"])
        assert len(times) >= 60
        most = max(bisect.bisect_left(times, t + 2.0) - i for i, t in enumerate(times))
        assert most <= 2 * CAP + 2, (most, stats["api_max_requests_per_second"])
    finally:
        await provider.aclose()
        store.close()
        sim.stop()


async def test_rate_limited_query_backs_off_and_persists_next_poll(harness):
    svc = harness.service
    out = await svc.submit("poll:20261130:backoff:scene-01", "video", VIDEO)
    task = await svc.store.task(out.task.id)
    harness.sim.set_faults(rate_limit=3)
    delays = []
    for _ in range(3):
        before = time.time()
        task = await svc.advance(task)
        assert task.state == "preparing" and task.poll_failures >= 1
        delays.append(task.next_poll_at - before)
    assert task.poll_failures == 3
    # exponential with jitter: the third wait is longer than the first on every draw
    assert delays[2] > delays[0]
    stored = await svc.store.task(task.id)
    assert stored.next_poll_at == task.next_poll_at  # persisted, survives a restart
    events = [e.event for e in (await svc.history("poll:20261130:backoff:scene-01")).payload.events]
    assert events.count("query_failed") == 1  # the first failure is noted, not every one
    harness.sim.set_faults(rate_limit=0)
    done = await svc.wait("poll:20261130:backoff:scene-01", max_seconds=30)
    assert done.task.state == "success"


async def test_resume_spreads_first_queries(harness):
    svc = harness.other(max_requests_per_second=10)
    for i in range(20):
        await svc.submit(
            f"poll:20261130:resume:scene-{i:02d}", "video", {**VIDEO, "prompt": f"r{i}"}
        )
    n = await svc.resume()
    assert n == 20
    tasks = await svc.store.tasks_in_states(
        svc.scope, [State.PREPARING, State.QUEUEING, State.PROCESSING]
    )
    due = sorted(t.next_poll_at for t in tasks)
    assert due[-1] - due[0] >= 19 / 10 * 0.9  # spread at the configured rate, not all at once


async def test_a_step_that_raises_is_put_off_not_spun_on(harness, monkeypatch):
    """A poller step that raises (a bug, a row no step can handle) leaves the task due: asked
    again at once, every round (a finished step wakes the next) queried the store and logged a
    traceback hundreds of times a second. Its next query is put off by a growing backoff."""
    svc = harness.service
    out = await svc.submit("poll:20261207:raises:scene-01", "video", VIDEO)
    lifecycle = svc.lifecycle
    real = lifecycle._advance
    tries = []

    async def advance(task):
        if task.id == out.task.id:
            tries.append(time.time())
            raise RuntimeError("a step that cannot be taken")
        return await real(task)

    monkeypatch.setattr(lifecycle, "_advance", advance)
    rounds = 0
    due_tasks = svc.store.due_tasks

    async def counted(*args, **kwargs):
        nonlocal rounds
        rounds += 1
        return await due_tasks(*args, **kwargs)

    monkeypatch.setattr(svc.store, "due_tasks", counted)
    stop = asyncio.Event()
    began = time.monotonic()
    runner = asyncio.create_task(svc.run_poller(stop))
    deadline = began + 60  # bounds a hang only
    while len(tries) < 2:  # tried again after its first backoff
        assert time.monotonic() < deadline and not runner.done(), tries
        await asyncio.sleep(0.02)
    # the upper bounds below are about 1.5 s (what must not happen): the rest of it passes
    await asyncio.sleep(max(0.0, began + 1.5 - time.monotonic()))

    async def put_off() -> bool:  # the latest try's put-off is in the store
        stored = await svc.store.task(out.task.id)
        return stored.next_poll_at is not None and stored.next_poll_at > tries[-1]

    while not await put_off():  # stop between two tries, not during one (its write lost)
        assert time.monotonic() < deadline and not runner.done(), tries
        await asyncio.sleep(0.02)
    stop.set()
    await runner
    # backoff(0.05 s, n): ~0.05, 0.1, 0.2, 0.4, 0.8 s: at most 7 tries in 1.5 s (spun: hundreds)
    assert 2 <= len(tries) <= 8, len(tries)
    assert rounds <= 40, rounds  # the idle poller's rounds, not one per failed step
    stored = await svc.store.task(out.task.id)
    assert stored.next_poll_at > tries[-1]  # put off after its last try, and persisted
