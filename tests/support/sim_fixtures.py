"""Shared fixtures for the demo provider tests: a fast sim per test and an adapter pointed at it.

Import into a test module: ``from tests.support.sim_fixtures import sim, fast_config, provider  # noqa``.
"""

from __future__ import annotations

import asyncio
from typing import AsyncIterator, Iterator

import pytest

from app.providers.base import VideoStatus
from app.providers.minimax import MiniMaxProvider
from app.sim import SimServer, start_sim
from tests.support.fixtures import fast_sim_config

TEST_KEY = "sk-test-not-a-real-key"


#: The demo provider's fast timings: one definition, ``fixtures.fast_sim_config``.
fast_config = fast_sim_config


@pytest.fixture
def sim() -> Iterator[SimServer]:
    server = start_sim(fast_config())
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def provider(sim: SimServer) -> AsyncIterator[MiniMaxProvider]:
    p = MiniMaxProvider(TEST_KEY, sim.base_url, name="demo", timeout=10.0, connect_timeout=10.0)
    try:
        yield p
    finally:
        await p.aclose()


async def wait_terminal(
    p: MiniMaxProvider, task_id: str, timeout: float = 10.0
) -> list[VideoStatus]:
    """Query until a word other than Preparing/Queueing/Processing arrives; return all answers."""
    seen: list[VideoStatus] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        status = await p.query_video(task_id)
        seen.append(status)
        if status.status not in ("Preparing", "Queueing", "Processing"):
            return seen
        if loop.time() > deadline:
            raise AssertionError(f"task {task_id} still {status.status} after {timeout}s")
        await asyncio.sleep(0.03)


VIDEO = {
    "model": "MiniMax-Hailuo-2.3",
    "prompt": "a lighthouse at dawn",
    "duration": 6,
    "resolution": "768P",
}
