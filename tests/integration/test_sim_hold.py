"""The demo provider's ``hold_create_response``: a create makes its task, then its answer waits
for the test's release (not for a clock), so a test can look at a create that is "out" for as
long as a busy machine needs. Stopping the server releases what it holds."""

from __future__ import annotations

import threading
import time

import httpx

from app.sim import start_sim
from tests.support.fixtures import fast_sim_config
from tests.support import web

AUTH = {"Authorization": "Bearer test-key"}


def create(base_url: str, prompt: str, box: dict[str, object]) -> None:
    try:
        box["answer"] = web.post(
            f"{base_url}/v1/video_generation",
            json={"model": "MiniMax-Hailuo-02", "prompt": prompt, "duration": 6},
            headers=AUTH,
            timeout=60,
        )
    except httpx.HTTPError as exc:
        box["error"] = exc


def until(check, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_a_held_create_made_its_task_and_answers_only_when_released(demo_sim):
    demo_sim.set_faults(hold_create_response=1)
    box: dict[str, object] = {}
    sender = threading.Thread(target=create, args=(demo_sim.base_url, "held", box))
    sender.start()
    until(lambda: demo_sim.held_creates() == 1, "the create to be held")
    assert demo_sim.stats()["made_by_prompt"] == {"held": 1}  # the task exists already
    # the server answers a query sent after the held create, while that create still waits
    queried = web.get(
        f"{demo_sim.base_url}/v1/query/video_generation",
        params={"task_id": "1"},
        headers=AUTH,
        timeout=60,
    )
    assert queried.status_code == 200, queried.text
    assert sender.is_alive() and not box, "a held create must not answer before its release"
    assert demo_sim.held_creates() == 1
    demo_sim.release_creates()
    sender.join(30)
    answer = box["answer"]
    assert isinstance(answer, httpx.Response) and answer.status_code == 200, box
    assert answer.json()["task_id"], answer.text
    assert demo_sim.held_creates() == 0
    # released: the switch is off, the next create answers at once
    after: dict[str, object] = {}
    create(demo_sim.base_url, "after", after)
    assert isinstance(after["answer"], httpx.Response) and after["answer"].status_code == 200
    assert demo_sim.faults.hold_create_response == 0


def test_stopping_the_server_releases_a_held_create():
    sim = start_sim(fast_sim_config())
    box: dict[str, object] = {}
    try:
        sim.set_faults(hold_create_response=1)
        sender = threading.Thread(target=create, args=(sim.base_url, "held", box))
        sender.start()
        until(lambda: sim.held_creates() == 1, "the create to be held")
    finally:
        sim.stop()
    sender.join(30)
    assert not sender.is_alive(), "stop() must release the held create"
    assert sim.held_creates() == 0
