"""A hostile server cannot exhaust memory or disk, nor pass off a wrong image (issue 15,
point 7).

A 400 MB JSON answer cost 2.15 GB of memory and landed whole in the history (the store grew to
400 MB); a 0.5 MB PNG decompression bomb cost 773 MB and was stored as a 13300×13300 success;
a 1×1 PNG answered a 16:9 request and was a success. Real `slate` processes against a hostile
server on loopback; their memory is sampled from outside (psutil) while they run. The reads of
the history after them go through the ``slate`` fixture (in process unless
SLATE_TEST_CLI=subprocess).
"""

from __future__ import annotations

import json
import struct
import threading
import time
import zlib
from pathlib import Path

import psutil
import pytest

from tests.support.hostile import Answer, HostileServer, ok
from tests.support.machines import cancel, finish, go_finish, run, spawn
from tests.support.sim_media import image_bytes

RID = "article:20260816:tide-eye:scene-02"
MB = 1024 * 1024


def peak_rss(env: dict[str, str], argv: list[str]) -> tuple[object, int]:
    """Run `slate argv`, sampling its resident memory every 10 ms: (its answer, the peak)."""
    proc = spawn(env, argv)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        try:
            p = psutil.Process(proc.pid)
            while not done.is_set():
                peak = max(peak, p.memory_info().rss)
                time.sleep(0.01)
        except psutil.NoSuchProcess:
            pass

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        return finish(proc, 180), peak
    finally:
        done.set()
        sampler.join()


def huge_json(total: int, **head: str):
    """A JSON object of ``total`` bytes, streamed a megabyte at a time (never held whole)."""
    start = json.dumps(head)[:-1].encode() + b', "pad": "'
    end = b'"}'

    def chunks():
        yield start
        left = total - len(start) - len(end)
        block = b"a" * MB
        while left > 0:
            yield block[: min(MB, left)]
            left -= MB
        yield end

    return Answer(b"", declare=total, chunks=chunks)


def bomb_png(side: int, height: int | None = None) -> bytes:
    """A grey PNG of side×side pixels (side×height where given) that compresses to a few hundred
    kB (built row by row)."""

    def box(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    z = zlib.compressobj(9)
    row = b"\0" * (side + 1)
    rows = side if height is None else height
    idat = b"".join(z.compress(row) for _ in range(rows)) + z.flush()
    ihdr = struct.pack(">IIBBBBB", side, rows, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + box(b"IHDR", ihdr) + box(b"IDAT", idat) + box(b"IEND", b"")


def env_for(slate_env, store_url, server) -> dict[str, str]:
    return {**slate_env, "SLATE_STORE": store_url, "SLATE_BASE_URL": server.base_url}


def store_bytes(data_dir: Path) -> int:
    return sum(p.stat().st_size for p in data_dir.glob("slate.sqlite3*"))


def test_a_400_mb_answer_is_never_read_whole(slate, slate_env, store_url, data_dir):
    server = HostileServer({"POST /v1/video_generation": [huge_json(400 * MB, task_id="t")]})
    env = env_for(slate_env, store_url, server)
    try:
        res, peak = peak_rss(
            env, ["submit", "--request-id", RID, "--kind", "video", "--prompt", "p"]
        )
        # The create was sent and its answer could not be read: unknown, as the contract says.
        assert res.code == 4 and res.out["outcome"] == "unknown", res.out
        assert "bytes" in res.out["error"]["message"], res.out
        assert peak < 300 * MB, f"peak RSS {peak / MB:.0f} MB"
        history = slate("history", RID, env=env)
        assert len(history.stdout) < 64 * 1024, len(history.stdout)
        if store_url.startswith("sqlite"):
            assert store_bytes(data_dir) < 8 * MB
        assert server.sent("POST", "/v1/video_generation") == 1
    finally:
        server.stop()


def test_a_large_answer_keeps_a_bounded_excerpt_in_the_history(slate, slate_env, store_url):
    """An answer under the cap is read, but the history keeps an excerpt of it, not all."""
    big = ok(task_id="vt-big", note="n" * (3 * MB))
    server = HostileServer({"POST /v1/video_generation": [Answer(big)]})
    env = env_for(slate_env, store_url, server)
    try:
        made = run(env, ["submit", "--request-id", RID, "--kind", "video", "--prompt", "p"])
        assert made.out["outcome"] == "created", made.out
        assert made.out["task"]["provider_task_id"] == "vt-big"
        history = slate("history", RID, env=env)
        assert len(history.stdout) < 64 * 1024, len(history.stdout)
        assert "characters" in history.stdout  # the excerpt says how long the value was
    finally:
        server.stop()


def image_server(png: bytes) -> HostileServer:
    server = HostileServer({})
    server.script.update(
        {
            "POST /v1/image_generation": [
                Answer(
                    ok(
                        id="img",
                        data={"image_urls": [f"{server.base_url}/dl/one.png"]},
                        metadata={"success_count": 1, "failed_count": 0},
                    )
                )
            ],
            "GET /dl/one.png": [Answer(png, content_type="image/png")],
        }
    )
    return server


def test_a_decompression_bomb_is_refused_without_decoding_it(slate_env, store_url):
    png = bomb_png(13300)
    assert len(png) < MB
    server = image_server(png)
    env = env_for(slate_env, store_url, server)
    try:
        res, peak = peak_rss(
            env, ["submit", "--request-id", RID, "--kind", "image", "--prompt", "p"]
        )
        assert res.out["task"]["state"] == "fail", res.out
        assert res.out["task"]["media"] == []
        assert "13300×13300" in res.out["task"]["error"]["message"], res.out
        assert peak < 250 * MB, f"peak RSS {peak / MB:.0f} MB"
    finally:
        server.stop()


def h3_image_server(png: bytes) -> HostileServer:
    server = HostileServer({})
    server.script.update(
        {
            "POST /v1/images/generations": [
                Answer(
                    {
                        "created": 1,
                        "id": "h3img",
                        "data": [{"url": f"{server.base_url}/dl/one.png"}],
                        "usage": {"input_tokens": 10, "output_tokens": 10, "total_tokens": 20},
                    }
                )
            ],
            "GET /dl/one.png": [Answer(png, content_type="image/png")],
        }
    )
    return server


@pytest.mark.parametrize(
    "shape, width, height",
    [(["--aspect-ratio", "21:9", "--area", "4K"], 13300, 5700), ([], 4096, 4096)],
    ids=["4K-21:9-answered-13300x5700", "1K-answered-4096x4096"],
)
def test_h3_image_bomb_beyond_what_was_asked_is_refused(slate_env, store_url, shape, width, height):
    """The pixel cap follows the request (issue 31): a 4K ask may be ~20 MP, never 76 MP; a 1K
    ask is never 4096×4096, though image-01's fixed cap would take it."""
    png = bomb_png(width, height)
    assert len(png) < MB
    server = h3_image_server(png)
    env = env_for(slate_env, store_url, server)
    try:
        res, peak = peak_rss(
            env,
            ["submit", "--request-id", RID, "--kind", "image", "--model", "MiniMax-H3-Image",
             "--prompt", "p", *shape],
        )  # fmt: skip
        assert res.out["task"]["state"] == "fail", res.out
        assert res.out["task"]["media"] == []
        assert f"{width}×{height}" in res.out["task"]["error"]["message"], res.out
        assert peak < 250 * MB, f"peak RSS {peak / MB:.0f} MB"
    finally:
        server.stop()


def test_an_image_of_another_shape_than_asked_is_not_success(slate_env, store_url):
    wrong, right = image_server(image_bytes(1, 1)), image_server(image_bytes(1280, 720))
    # Both `slate` processes are started now (spawn(..., gated=True): imports done, then each
    # waits); each runs its submit when the test says, one after the other.
    ask = ["--kind", "image", "--prompt", "p", "--aspect-ratio", "16:9"]
    first = spawn(
        env_for(slate_env, store_url, wrong), ["submit", "--request-id", RID, *ask], gated=True
    )
    second = spawn(
        env_for(slate_env, store_url, right),
        ["submit", "--request-id", RID + "b", *ask],
        gated=True,
    )
    try:
        try:
            res = go_finish(first)
            assert res.out["task"]["state"] == "fail", res.out
            message = res.out["task"]["error"]["message"]
            assert "1×1" in message and "16:9" in message, message
        finally:
            wrong.stop()
        # the right shape is a success
        res = go_finish(second)
        assert res.out["task"]["state"] == "success", res.out
    finally:
        cancel(first, second)
        right.stop()
