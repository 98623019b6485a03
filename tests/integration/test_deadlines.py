"""Every command honours its own deadline, downloads included (issue 15, point 6).

A slow-drip server (a few bytes at a time, each well inside the read timeout) kept
`wait --max-seconds 5` running past 40 s — killed without its JSON — and an image submit with
`--timeout 3` hung the same way; `query` and the app's poller had no bound at all. Real `slate`
processes against a hostile server on loopback. The deadline is measured where it is kept: the
server notes when the request arrived and when the client dropped it (a process's whole wall
time, start-up included, once failed a bound on a busy machine through one scheduling stall
that had nothing to do with the deadline). The process must then end with its one JSON object
well before the drip would have (:data:`HANG`, which only bounds a hang). The poller (in the
app's process) and the minimum-rate rule in process. What is not timed (the task a command
finds, a second submit that must not send) is run by the ``slate`` fixture (in this process
unless ``SLATE_TEST_CLI=subprocess``): no process start-up to wait for.
"""

from __future__ import annotations

import json
import time

import asyncio

import pytest

from app.providers import http
from app.providers.base import Stalled
from app.providers.demo import DemoProvider
from app.service.slate import SlateService
from app.store.aio import open_store
from tests.support.fixtures import SECRET, make_config
from tests.support.hostile import Answer, HostileServer, ok
from tests.support.machines import run
from tests.support.sim_media import image_bytes

RID = "article:20260816:tide-eye:scene-02"
#: Beyond the deadline, at the server: the client's timer firing on a busy machine, and the
#: drip noticing the dropped connection at its next write.
MARGIN = 3.0
#: A whole `slate` process, start-up included, must end well before this; each drip below
#: lasts longer (the create's answer ≥ 42 s, the downloads for ever).
HANG = 30.0


def cut_in_time(server: HostileServer, method: str, path: str, deadline: float) -> None:
    """The client dropped ``method path`` within ``deadline`` of its arrival at the server."""
    span = server.span(method, path)
    assert span.lasted < deadline + MARGIN, (method, path, span.lasted, deadline)


def drip(body: bytes) -> Answer:
    """A few bytes every 0.2 s: never a read timeout, never the end."""
    return Answer(body, content_type="application/octet-stream", drip=64, drip_every=0.2)


def video_server() -> HostileServer:
    """A V1 video that succeeds at once and whose download drips for ever."""
    server = HostileServer({})
    server.script.update(
        {
            "POST /v1/video_generation": [Answer(ok(task_id="vt-drip"))],
            "GET /v1/query/video_generation": [
                Answer(
                    ok(
                        task_id="vt-drip",
                        status="Success",
                        file_id="f-1",
                        video_width=1366,
                        video_height=768,
                    )
                )
            ],
            "GET /v1/files/retrieve": [
                Answer(
                    ok(
                        file={
                            "file_id": "f-1",
                            "bytes": 2_000_000,
                            "filename": "v.mp4",
                            "download_url": f"{server.base_url}/dl/v.mp4",
                        }
                    )
                )
            ],
            "GET /dl/v.mp4": [drip(b"\0" * 2_000_000)],
        }
    )
    return server


def test_wait_max_seconds_answers_in_time_against_a_drip_download(slate, slate_env, store_url):
    server = video_server()
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_BASE_URL": server.base_url}
    try:
        made = slate("submit", "--request-id", RID, "--kind", "video", "--prompt", "p", env=env)
        assert made.out["outcome"] == "created", made.out
        res = run(env, ["wait", RID, "--max-seconds", "5"], timeout=HANG)
        cut_in_time(server, "GET", "/dl/v.mp4", 5)
        assert res.code == 7 and res.out["error"]["code"] == "still_running", res.out
        assert res.out["task"]["state"] == "downloading", res.out  # not failed: resumable
        assert server.sent("GET", "/dl/v.mp4") >= 1
    finally:
        server.stop()


def test_an_image_submit_with_timeout_3_answers_in_time_against_a_drip_download(
    slate_env, store_url
):
    server = HostileServer({})
    server.script.update(
        {
            "POST /v1/image_generation": [
                Answer(
                    ok(
                        id="img-drip",
                        data={"image_urls": [f"{server.base_url}/dl/one.png"]},
                        metadata={"success_count": 1, "failed_count": 0},
                    )
                )
            ],
            "GET /dl/one.png": [drip(image_bytes(64, 64) + b"\0" * 200_000)],
        }
    )
    env = {
        **slate_env,
        "SLATE_STORE": store_url,
        "SLATE_BASE_URL": server.base_url,
        "SLATE_TIMEOUT": "3",
    }
    try:
        res = run(
            env, ["submit", "--request-id", RID, "--kind", "image", "--prompt", "p"], timeout=HANG
        )
        cut_in_time(server, "GET", "/dl/one.png", 3)
        assert res.out["outcome"] == "created", res.out
        assert res.out["task"]["state"] == "downloading", res.out  # the links are kept
        assert server.sent("POST", "/v1/image_generation") == 1
    finally:
        server.stop()


@pytest.mark.parametrize("kind", ["image", "music"])
def test_a_dripped_synchronous_create_ends_in_time_as_unknown(slate, slate_env, store_url, kind):
    """A synchronous create whose answer comes a byte at a time (each byte well inside the read
    timeout) once held `submit --timeout 3` as long as the server liked. The whole answer must
    arrive within the command's own deadline (or at the minimum rate): cut off, the create's
    outcome is unknown — never fail, never a second create — and the command ends with its
    one JSON object."""
    server = HostileServer({})
    if kind == "image":
        path = "/v1/image_generation"
        answer = ok(id="img-slow", data={"image_urls": [f"{server.base_url}/dl/one.png"]})
        argv = ["--kind", "image", "--prompt", "p"]
    else:
        path = "/v1/music_generation"
        answer = ok(data={"audio": f"{server.base_url}/dl/song.mp3", "status": 2})
        argv = ["--kind", "music", "--prompt", "lofi piano", "--instrumental"]
    body = json.dumps(answer).encode() + b" " * 4096  # ~40 s at 1 byte / 10 ms
    server.script[f"POST {path}"] = [Answer(body, drip=1, drip_every=0.01)]
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_BASE_URL": server.base_url}
    try:
        res = run(env, ["submit", "--request-id", RID, *argv, "--timeout", "3"], timeout=HANG)
        cut_in_time(server, "POST", path, 6)  # 3 s to connect, 3 s for the answer
        assert res.out["outcome"] == "unknown" and res.code == 4, res.out
        assert res.out["task"]["state"] == "unknown", res.out
        assert server.sent("POST", path) == 1
        again = slate("submit", "--request-id", RID, *argv, "--timeout", "3", env=env)
        assert again.out["outcome"] == "unknown", again.out  # create disabled: never sent twice
        assert server.sent("POST", path) == 1
    finally:
        server.stop()


def test_query_answers_within_its_timeout_against_a_drip_download(slate, slate_env, store_url):
    server = video_server()
    env = {
        **slate_env,
        "SLATE_STORE": store_url,
        "SLATE_BASE_URL": server.base_url,
        "SLATE_TIMEOUT": "3",
    }
    try:
        made = slate("submit", "--request-id", RID, "--kind", "video", "--prompt", "p", env=env)
        assert made.out["outcome"] == "created", made.out
        res = run(env, ["query", RID], timeout=HANG)
        cut_in_time(server, "GET", "/dl/v.mp4", 3)
        assert res.code == 0, res.out
        assert res.out["task"]["state"] == "downloading", res.out  # resumable, not failed
        assert server.sent("GET", "/dl/v.mp4") == 1
    finally:
        server.stop()


async def test_the_app_s_poller_lets_a_drip_download_go_and_keeps_the_task(
    data_dir, store_url, monkeypatch
):
    """The poller has no command deadline: the minimum-rate rule frees its slot, the task stays
    ``downloading`` with its next try after a backoff, and the history says why."""
    monkeypatch.setattr(http, "RATE_GRACE", 1.0)
    server = video_server()
    store = open_store(store_url)
    provider = DemoProvider(server.base_url, timeout=5.0, connect_timeout=2.0)
    submitter = SlateService(make_config(data_dir, store_url), store, provider, SECRET)
    # The poller polls every 20 s, so its backoff after the stall (0.5–1.5 of that) outlasts
    # whatever a busy machine takes between its two poll_due() calls (at 0.05 s it ran out
    # before the second call on a loaded machine, and the task was due again).
    svc = SlateService(
        make_config(data_dir, store_url), store, provider, SECRET, poll_interval=20.0
    )
    try:
        made = await submitter.submit(RID, "video", {"prompt": "p"})
        assert made.task.state.value == "preparing", made
        due_at = made.task.next_poll_at
        assert due_at is not None, made
        while time.time() <= due_at:  # its first query is due (the submitter's 0.05 s interval)
            await asyncio.sleep(0.01)
        began = time.monotonic()
        polled = await asyncio.wait_for(svc.lifecycle.poll_due(), 30)
        assert polled == 1 and time.monotonic() - began < 10
        task = (await svc.status(RID)).task
        assert task.state.value == "downloading", task
        assert task.next_poll_at is not None and task.next_poll_at > time.time()
        events = (await svc.history(RID)).payload.events
        stalled = [e for e in events if e.event == "download_stalled"]
        assert len(stalled) == 1 and "too slow" in stalled[0].detail, events
        assert not [e for e in events if e.event == "verification_failed"]
        assert await asyncio.wait_for(svc.lifecycle.poll_due(), 5) == 0  # not due yet
    finally:
        await submitter.aclose()
        await svc.aclose()
        await provider.aclose()
        store.close()
        server.stop()


async def test_the_minimum_rate_rule_lets_a_drip_go_and_a_slow_download_finish(monkeypatch):
    monkeypatch.setattr(http, "RATE_GRACE", 1.0)
    monkeypatch.setattr(http, "MIN_RATE", 16 * 1024)
    body = bytes(range(256)) * 1600  # 400 KB
    server = HostileServer(
        {
            "GET /dl/drip": [
                Answer(body, content_type="application/octet-stream", drip=64, drip_every=0.2)
            ],
            # 8 KB every 0.1 s: about 80 KB/s, slow yet above the minimum, for 5 s (past the grace)
            "GET /dl/slow": [
                Answer(body, content_type="application/octet-stream", drip=8192, drip_every=0.1)
            ],
        }
    )
    client = http.ApiClient("sk-rate-rule-0123456789", server.base_url, timeout=5.0)
    try:
        began = time.monotonic()
        got = bytearray()
        try:
            async with client.download(f"{server.base_url}/dl/drip") as dl:
                async for chunk in dl.chunks:
                    got += chunk
            raise AssertionError("the drip was read to its end")
        except Stalled as exc:
            assert "too slow" in exc.message
        assert time.monotonic() - began < 4 and len(got) < 2048
        began = time.monotonic()
        async with client.download(f"{server.base_url}/dl/slow") as dl:
            whole = b"".join([chunk async for chunk in dl.chunks])
        assert whole == body and time.monotonic() - began > 2  # it did outlast the grace
    finally:
        await client.aclose()
        server.stop()
