"""Stopping a background task never swallows the caller's own cancellation: a submit
cancelled while its lease's keeper stops (the app closing) ends cancelled instead of running on
(``app.aiotools.cancel_and_wait``, used by the lease and the CLI's progress line)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from app.aiotools import cancel_and_wait
from app.service.lease import Lease
from app.service.owner import this_owner


async def test_a_holder_cancelled_while_its_lease_stops_ends_cancelled(service):
    ran_on: list[str] = []

    async def holder() -> None:
        async with Lease(service.ctx, SimpleNamespace(id=0), this_owner()):  # type: ignore[arg-type]
            pass  # leaving stops the keeper: the holder waits for it there
        ran_on.append("after the lease")

    task = asyncio.get_running_loop().create_task(holder())
    await asyncio.sleep(0)  # the holder is now waiting in the lease's exit
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled()
    assert ran_on == []


async def test_cancel_and_wait_absorbs_the_tasks_end_and_raises_its_error():
    async def forever() -> None:
        await asyncio.Event().wait()

    waiting = asyncio.get_running_loop().create_task(forever())
    await asyncio.sleep(0)
    await cancel_and_wait(waiting)  # its cancellation is not the caller's
    assert waiting.cancelled()

    async def broken() -> None:
        raise ValueError("the ticker's bug")

    failing = asyncio.get_running_loop().create_task(broken())
    await asyncio.sleep(0)
    with pytest.raises(ValueError, match="ticker"):
        await cancel_and_wait(failing)
