"""Every command honours its own deadline, downloads included (issue 15, point 6).

A slow-drip server (a few bytes at a time, each well inside the read timeout) kept
`wait --max-seconds 5` running past 40 s — killed without its JSON — and an image submit with
`--timeout 3` hung the same way. Real `slate` processes against a hostile server on loopback;
the deadline is measured from outside, process start-up included.
"""

from __future__ import annotations

import time

from tests.hostile import Answer, HostileServer, ok
from tests.machines import run
from tests.sim_media import image_bytes

RID = "article:20260816:tide-eye:scene-02"
#: Start-up of a `slate` process (Python, imports, the store) and the answer, on a busy machine.
MARGIN = 6.0


def drip(body: bytes) -> Answer:
    """A few bytes every 0.2 s: never a read timeout, never the end."""
    return Answer(body, content_type="application/octet-stream", drip=64, drip_every=0.2)


def test_wait_max_seconds_answers_in_time_against_a_drip_download(slate_env, store_url):
    server = HostileServer({})
    server.script.update({
        "POST /v1/video_generation": [Answer(ok(task_id="vt-drip"))],
        "GET /v1/query/video_generation": [Answer(ok(
            task_id="vt-drip", status="Success", file_id="f-1", video_width=1366,
            video_height=768))],
        "GET /v1/files/retrieve": [Answer(ok(file={
            "file_id": "f-1", "bytes": 2_000_000, "filename": "v.mp4",
            "download_url": f"{server.base_url}/dl/v.mp4"}))],
        "GET /dl/v.mp4": [drip(b"\0" * 2_000_000)],
    })
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_BASE_URL": server.base_url}
    try:
        made = run(env, ["submit", "--request-id", RID, "--kind", "video", "--prompt", "p"])
        assert made.out["outcome"] == "created", made.out
        began = time.monotonic()
        res = run(env, ["wait", RID, "--max-seconds", "5"], timeout=60)
        took = time.monotonic() - began
        assert took < 5 + MARGIN, took
        assert res.code == 7 and res.out["error"]["code"] == "still_running", res.out
        assert res.out["task"]["state"] == "downloading", res.out  # not failed: resumable
        assert server.sent("GET", "/dl/v.mp4") >= 1
    finally:
        server.stop()


def test_an_image_submit_with_timeout_3_answers_in_time_against_a_drip_download(
        slate_env, store_url):
    server = HostileServer({})
    server.script.update({
        "POST /v1/image_generation": [Answer(ok(
            id="img-drip", data={"image_urls": [f"{server.base_url}/dl/one.png"]},
            metadata={"success_count": 1, "failed_count": 0}))],
        "GET /dl/one.png": [drip(image_bytes(64, 64) + b"\0" * 200_000)],
    })
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_BASE_URL": server.base_url,
           "SLATE_TIMEOUT": "3"}
    try:
        began = time.monotonic()
        res = run(env, ["submit", "--request-id", RID, "--kind", "image", "--prompt", "p"],
                  timeout=60)
        took = time.monotonic() - began
        assert took < 3 + MARGIN, took
        assert res.out["outcome"] == "created", res.out
        assert res.out["task"]["state"] == "downloading", res.out  # the links are kept
        assert server.sent("POST", "/v1/image_generation") == 1
    finally:
        server.stop()
