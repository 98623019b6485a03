"""A machine whose clock runs an hour ahead never stalls another's poller (found by the hostile
soak): the next query time it writes (its own clock + the poll interval) looked an hour away to
every other machine, so a restarted poller left the task alone for an hour. No backoff
schedules a query more than 300 s ahead: a time beyond that is a clock's error, and the
poller's resume brings it in."""

from __future__ import annotations

import asyncio
import time

from tests.support.fixtures import open_harness
from tests.support.machines import run

RID = "article:20260816:tide-eye:scene-02"
HOUR = 3600.0


async def test_a_task_created_by_a_machine_an_hour_ahead_is_polled_here(
    slate_env, data_dir, store_url, demo_sim
):
    env = {**slate_env, "SLATE_STORE": store_url}
    made = run(
        env,
        ["submit", "--request-id", RID, "--kind", "video", "--prompt", "p"],
        clock_offset=HOUR,
        hostname="render-box-ahead",
    )
    assert made.out["outcome"] == "created", made.out
    async with open_harness(data_dir, store_url, demo_sim) as h:
        await h.service.resume()
        due_at = (await h.service.status(RID)).task.next_poll_at
        assert due_at is not None and due_at < time.time() + 60, due_at  # now, not in an hour
        while time.time() <= due_at:  # resume spreads the due times over a few milliseconds
            await asyncio.sleep(0.01)
        assert await h.service.poll_due() == 1  # due now, not in an hour
        queried = (await h.service.status(RID)).task
        assert queried.state.value != "preparing" or queried.provider_status is not None
