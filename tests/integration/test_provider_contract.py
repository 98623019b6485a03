"""Contract: the MiniMax adapter against the demo provider over real loopback HTTP.

Every documented response shape and every fault, each asserting the outcome class.
"""

from __future__ import annotations

import io
import socket
import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.domain.states import State, state_for_status_word  # noqa: E402
from app.providers.base import Ambiguous, Refused  # noqa: E402
from app.providers.minimax import MiniMaxProvider  # noqa: E402
from app.sim import SimServer, start_sim  # noqa: E402
from app.sim.rules import IMAGE_SIZES  # noqa: E402
from tests.sim_fixtures import TEST_KEY, VIDEO, fast_config, provider, sim, wait_terminal  # noqa: E402,F401
from tests.sim_media import image_url  # noqa: E402

pytestmark = pytest.mark.timeout(60)


async def _download(p: MiniMaxProvider, url: str) -> tuple[int, int | None, bytes]:
    async with p.download(url) as d:
        data = b"".join([c async for c in d.chunks])
        return d.status_code, d.content_length, data


def _probe_mp4(data: bytes) -> tuple[float, int, int]:
    import av

    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.video[0]
        frames = sum(1 for _ in container.decode(stream))
        assert frames > 0
        return container.duration / 1_000_000, stream.width, stream.height


# ---------------------------------------------------------------- the happy paths


@pytest.mark.parametrize(
    ("body", "size", "seconds"),
    [
        ({"resolution": "1080P", "duration": 6}, (1920, 1080), 6),
        ({"resolution": "768P", "duration": 10}, (1366, 768), 10),
    ],
)
async def test_video_lifecycle_and_real_mp4(provider: MiniMaxProvider, body, size, seconds) -> None:
    created = await provider.create_video({**VIDEO, **body})
    assert created.task_id.isdigit()
    seen = await wait_terminal(provider, created.task_id)
    words = [s.status for s in seen]
    assert words[-1] == "Success"
    assert set(words) <= {"Preparing", "Queueing", "Processing", "Success"}
    assert all(state_for_status_word(w) is not State.UNKNOWN for w in words)
    final = seen[-1]
    assert final.file_id and (final.width, final.height) == size
    info = await provider.retrieve_file(final.file_id)
    assert info.file_id == final.file_id and info.filename == "output.mp4"
    assert isinstance(info.raw["file"]["file_id"], int)  # a number in the file, a string in the query
    assert info.raw["_trace_id"]
    status, length, data = await _download(provider, info.download_url)
    assert status == 200 and length == len(data) == info.bytes
    assert data[4:8] == b"ftyp"
    duration, width, height = _probe_mp4(data)
    assert abs(duration - seconds) < 0.05
    assert (width, height) == size


async def test_stage_words_in_order(sim: SimServer, provider: MiniMaxProvider) -> None:
    sim.config.preparing = sim.config.queueing = sim.config.processing = 0.15
    created = await provider.create_video(VIDEO)
    words = [s.status for s in await wait_terminal(provider, created.task_id)]
    order = ["Preparing", "Queueing", "Processing", "Success"]
    assert [w for w in order if w in words] == order  # each stage seen at least once
    assert [order.index(w) for w in words] == sorted(order.index(w) for w in words)


@pytest.mark.parametrize("ratio", sorted(IMAGE_SIZES))
async def test_image_urls_real_png_per_ratio(provider: MiniMaxProvider, ratio: str) -> None:
    from PySide6.QtGui import QImage

    result = await provider.generate_image(
        {"model": "image-01", "prompt": f"a harbor, {ratio}", "aspect_ratio": ratio, "n": 1}
    )
    assert result.success_count == 1 and result.failed_count == 0
    assert isinstance(result.raw["metadata"]["success_count"], str)  # strings on the wire
    status, length, data = await _download(provider, result.items[0].url)
    assert status == 200 and length == len(data)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = QImage.fromData(data, "PNG")
    assert not image.isNull()
    assert (image.width(), image.height()) == IMAGE_SIZES[ratio]


async def test_image_base64_and_n(provider: MiniMaxProvider) -> None:
    result = await provider.generate_image(
        {"model": "image-01", "prompt": "three boats", "aspect_ratio": "1:1", "n": 3,
         "response_format": "base64"}
    )
    assert len(result.items) == 3 and result.success_count == 3
    assert all(i.data and i.data.startswith(b"\x89PNG") and i.url is None for i in result.items)
    assert len({i.data for i in result.items}) == 3  # each image differs


async def test_image_custom_width_height(provider: MiniMaxProvider) -> None:
    from PySide6.QtGui import QImage

    result = await provider.generate_image(
        {"model": "image-01", "prompt": "custom", "width": 512, "height": 768, "response_format": "base64"}
    )
    image = QImage.fromData(result.items[0].data, "PNG")
    assert (image.width(), image.height()) == (512, 768)


# ---------------------------------------------------------------- validation (2013)


@pytest.mark.parametrize(
    "body",
    [
        {**VIDEO, "duration": 10, "resolution": "1080P"},
        {**VIDEO, "model": "MiniMax-Hailuo-2.3-Fast"},
        {**VIDEO, "model": "I2V-01", "resolution": "720P"},
        {**VIDEO, "model": "MiniMax-Hailuo-02", "resolution": "512P"},
        {**VIDEO, "model": "T2V-01", "resolution": "720P", "first_frame_image": "https://x/y.png"},
        {**VIDEO, "prompt": "x" * 2001},
        {**VIDEO, "model": "Sora-9"},
        {**VIDEO, "duration": 7},
        {**VIDEO, "first_frame_image": "ftp://nope"},
        {"prompt": "no model"},
    ],
)
async def test_invalid_video_params_refused_2013(provider: MiniMaxProvider, sim: SimServer, body) -> None:
    with pytest.raises(Refused) as info:
        await provider.create_video(body)
    assert info.value.code == 2013 and not info.value.never_sent
    assert sim.stats()["made_total"] == 0


async def test_valid_variants_accepted(provider: MiniMaxProvider) -> None:
    frame = image_url(640, 480)  # a real PNG: data URLs are decoded and checked
    for body in (
        {**VIDEO, "model": "MiniMax-Hailuo-2.3-Fast", "first_frame_image": frame},
        {**VIDEO, "model": "I2V-01", "resolution": "720P", "first_frame_image": "https://x/y.png"},
        {**VIDEO, "model": "MiniMax-Hailuo-02", "resolution": "512P", "first_frame_image": frame},
        {"model": "MiniMax-Hailuo-2.3", "prompt": "defaults only"},
    ):
        assert (await provider.create_video(body)).task_id


@pytest.mark.parametrize(
    "body",
    [
        {"model": "image-01", "prompt": "x", "aspect_ratio": "5:4"},
        {"model": "image-01", "prompt": "x", "n": 10},
        {"model": "image-01", "prompt": "x" * 1501},
        {"model": "image-01", "prompt": ""},
        {"model": "image-01", "prompt": "x", "response_format": "b64_json"},
        {"model": "image-01", "prompt": "x", "width": 500, "height": 512},
    ],
)
async def test_invalid_image_params_refused_2013(provider: MiniMaxProvider, body) -> None:
    with pytest.raises(Refused) as info:
        await provider.generate_image(body)
    assert info.value.code == 2013


async def test_missing_key_answers_1004_with_http_200(sim: SimServer) -> None:
    async with httpx.AsyncClient(base_url=sim.base_url) as client:
        for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": "Basic abc"}):
            r = await client.post("/v1/video_generation", json=VIDEO, headers=headers)
            assert r.status_code == 200 and r.json()["base_resp"]["status_code"] == 1004
            r = await client.get("/v1/query/video_generation", params={"task_id": "1"}, headers=headers)
            assert r.status_code == 200 and r.json()["base_resp"]["status_code"] == 1004
        r = await client.post("/v1/video_generation", json=VIDEO, headers={"Authorization": "Bearer any"})
        assert r.json()["base_resp"]["status_code"] == 0 and r.headers["Trace-Id"]
    assert sim.stats()["made_total"] == 1


async def test_unknown_task_and_file(provider: MiniMaxProvider) -> None:
    with pytest.raises(Refused) as info:
        await provider.query_video("123456789012345")
    assert info.value.code == 2013
    with pytest.raises(Refused):
        await provider.retrieve_file("123456789012345")


# ---------------------------------------------------------------- faults: create


async def test_lost_create_response_is_ambiguous_and_task_exists(
    provider: MiniMaxProvider, sim: SimServer
) -> None:
    sim.set_faults(lose_create_response=1)
    with pytest.raises(Ambiguous) as info:
        await provider.create_video({**VIDEO, "prompt": "slot:lost"})
    assert not isinstance(info.value, Refused)
    stats = sim.stats()
    assert stats["made_by_prompt"] == {"slot:lost": 1}  # the task exists: this was never "refused"
    assert stats["faults_injected"]["lose_create_response"] == 1
    # the next create is answered normally
    assert (await provider.create_video({**VIDEO, "prompt": "slot:next"})).task_id


async def test_lost_image_response_is_ambiguous(provider: MiniMaxProvider, sim: SimServer) -> None:
    sim.set_faults(lose_create_response=1)
    with pytest.raises(Ambiguous):
        await provider.generate_image({"model": "image-01", "prompt": "img:lost"})
    assert sim.stats()["made_by_prompt"] == {"img:lost": 1}


async def test_delayed_create_times_out_ambiguous(sim: SimServer) -> None:
    sim.set_faults(delay_create_response=1.0)
    p = MiniMaxProvider(TEST_KEY, sim.base_url, timeout=0.3, connect_timeout=1.0)
    try:
        with pytest.raises(Ambiguous):
            await p.create_video({**VIDEO, "prompt": "slot:slow"})
    finally:
        await p.aclose()
    assert sim.stats()["made_by_prompt"] == {"slot:slow": 1}


async def test_connect_error_never_sent() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = MiniMaxProvider(TEST_KEY, f"http://127.0.0.1:{port}", timeout=2, connect_timeout=1)
    try:
        with pytest.raises(Refused) as info:
            await p.create_video(VIDEO)
        assert info.value.never_sent is True
        with pytest.raises(Refused):
            await p.generate_image({"model": "image-01", "prompt": "x"})
    finally:
        await p.aclose()


async def test_connect_error_after_sim_stopped() -> None:
    server = start_sim(fast_config())
    url = server.base_url
    server.stop()
    p = MiniMaxProvider(TEST_KEY, url, timeout=2, connect_timeout=1)
    try:
        with pytest.raises(Refused) as info:
            await p.create_video(VIDEO)
        assert info.value.never_sent
    finally:
        await p.aclose()


async def test_rate_limit_1002(provider: MiniMaxProvider, sim: SimServer) -> None:
    sim.set_faults(rate_limit=2)
    for _ in range(2):
        with pytest.raises(Refused) as info:
            await provider.create_video({**VIDEO, "prompt": "slot:busy"})
        assert info.value.code == 1002 and info.value.rate_limited
    assert (await provider.create_video({**VIDEO, "prompt": "slot:busy"})).task_id
    stats = sim.stats()
    assert stats["creates_by_prompt"]["slot:busy"] == 3 and stats["made_by_prompt"]["slot:busy"] == 1


async def test_rate_limit_on_query_and_image(provider: MiniMaxProvider, sim: SimServer) -> None:
    created = await provider.create_video(VIDEO)
    sim.set_faults(rate_limit=2)
    with pytest.raises(Refused) as info:
        await provider.query_video(created.task_id)
    assert info.value.code == 1002
    with pytest.raises(Refused):
        await provider.generate_image({"model": "image-01", "prompt": "x"})
    assert (await provider.query_video(created.task_id)).status


async def test_rate_limit_creates_only(provider: MiniMaxProvider, sim: SimServer) -> None:
    created = await provider.create_video(VIDEO)
    sim.set_faults(rate_limit_creates=1)
    assert (await provider.query_video(created.task_id)).status  # queries unaffected
    with pytest.raises(Refused):
        await provider.create_video(VIDEO)


@pytest.mark.parametrize(("code", "refused"), [(1026, True), (1008, True), (1004, True), (1033, False), (1000, False)])
async def test_create_error_codes(provider: MiniMaxProvider, sim: SimServer, code: int, refused: bool) -> None:
    sim.set_faults(create_error=1, create_error_code=code)
    with pytest.raises(Refused if refused else Ambiguous) as info:
        await provider.create_video({**VIDEO, "prompt": "slot:code"})
    assert info.value.code == code
    if not refused:
        assert not isinstance(info.value, Refused)
    assert sim.stats()["made_by_prompt"] == {}


async def test_5xx_before_create_is_ambiguous_nothing_made(provider: MiniMaxProvider, sim: SimServer) -> None:
    sim.set_faults(server_error=1, server_error_status=503)
    with pytest.raises(Ambiguous) as info:
        await provider.create_video({**VIDEO, "prompt": "slot:5xx"})
    assert info.value.raw and info.value.raw["_http_status"] == 503
    assert sim.stats()["made_by_prompt"] == {}


async def test_5xx_after_create_is_ambiguous_task_made(provider: MiniMaxProvider, sim: SimServer) -> None:
    sim.set_faults(server_error_after_create=1)
    with pytest.raises(Ambiguous):
        await provider.create_video({**VIDEO, "prompt": "slot:5xx-after"})
    assert sim.stats()["made_by_prompt"] == {"slot:5xx-after": 1}


async def test_5xx_on_query_is_ambiguous(provider: MiniMaxProvider, sim: SimServer) -> None:
    created = await provider.create_video(VIDEO)
    sim.set_faults(server_error=1)
    with pytest.raises(Ambiguous):
        await provider.query_video(created.task_id)


# ---------------------------------------------------------------- faults: query words and outcomes


@pytest.mark.parametrize("word", ["completed", "Failed", "expired", ""])
async def test_unknown_status_words_come_back_raw(provider: MiniMaxProvider, sim: SimServer, word: str) -> None:
    created = await provider.create_video(VIDEO)
    sim.set_faults(status_word=word, status_word_queries=1)
    status = await provider.query_video(created.task_id)
    assert status.status == word
    assert state_for_status_word(status.status) is State.UNKNOWN
    assert status.raw["status"] == word
    assert (await provider.query_video(created.task_id)).status in {"Preparing", "Queueing", "Processing", "Success"}


async def test_success_without_file(provider: MiniMaxProvider, sim: SimServer) -> None:
    sim.set_faults(success_without_file=1)
    created = await provider.create_video(VIDEO)
    final = (await wait_terminal(provider, created.task_id))[-1]
    assert final.status == "Success" and final.file_id is None


async def test_content_safety_fail_1027(provider: MiniMaxProvider, sim: SimServer) -> None:
    sim.set_faults(content_fail=1)
    created = await provider.create_video(VIDEO)
    final = (await wait_terminal(provider, created.task_id))[-1]
    assert final.status == "Fail" and final.error_code == 1027 and final.file_id is None
    assert state_for_status_word(final.status) is State.FAIL


async def test_image_content_filtered(provider: MiniMaxProvider, sim: SimServer) -> None:
    sim.set_faults(content_fail=1)
    result = await provider.generate_image({"model": "image-01", "prompt": "x", "n": 2})
    assert result.items == [] and result.success_count == 0 and result.failed_count == 2


# ---------------------------------------------------------------- faults: downloads


async def _finished_file(provider: MiniMaxProvider) -> str:
    created = await provider.create_video(VIDEO)
    final = (await wait_terminal(provider, created.task_id))[-1]
    assert final.file_id
    return final.file_id


async def test_expired_download_fault_403(provider: MiniMaxProvider, sim: SimServer) -> None:
    info = await provider.retrieve_file(await _finished_file(provider))
    sim.set_faults(expire_downloads=1)
    status, _, body = await _download(provider, info.download_url)
    assert status == 403 and b"expired" in body
    status, _, body = await _download(provider, info.download_url)
    assert status == 200
    # a fresh files/retrieve gives a fresh link
    again = await provider.retrieve_file(info.file_id)
    assert again.download_url and again.bytes == info.bytes


async def test_links_expire_with_ttl(provider: MiniMaxProvider, sim: SimServer) -> None:
    sim.config.download_ttl = -1
    info = await provider.retrieve_file(await _finished_file(provider))
    status, _, body = await _download(provider, info.download_url)
    assert status == 403 and b"AccessDenied" in body


async def test_tampered_link_refused(provider: MiniMaxProvider) -> None:
    info = await provider.retrieve_file(await _finished_file(provider))
    status, _, _ = await _download(provider, info.download_url.replace("Signature=", "Signature=0"))
    assert status == 403


async def test_truncated_download(provider: MiniMaxProvider, sim: SimServer) -> None:
    info = await provider.retrieve_file(await _finished_file(provider))
    sim.set_faults(truncate_downloads=1)
    received = b""
    with pytest.raises(Ambiguous):
        async with provider.download(info.download_url) as d:
            assert d.status_code == 200 and d.content_length == info.bytes
            async for chunk in d.chunks:
                received += chunk
    assert len(received) < (info.bytes or 0)


# ---------------------------------------------------------------- random faults, control, persistence


async def test_random_faults_never_refuse_a_made_task(sim: SimServer, provider: MiniMaxProvider) -> None:
    sim.set_faults(random={"lose_create_response": 0.2, "rate_limit": 0.2, "server_error": 0.15,
                           "server_error_after_create": 0.15})
    outcomes: dict[str, str] = {}
    for i in range(30):
        prompt = f"soak:{i:02d}"
        try:
            await provider.create_video({**VIDEO, "prompt": prompt})
            outcomes[prompt] = "created"
        except Refused:
            outcomes[prompt] = "refused"
        except Ambiguous:
            outcomes[prompt] = "ambiguous"
    made = sim.stats()["made_by_prompt"]
    assert len(set(outcomes.values())) == 3  # the seeded mix exercised every class
    for prompt, outcome in outcomes.items():
        if outcome == "refused":
            assert made.get(prompt, 0) == 0, prompt
        if outcome == "created":
            assert made.get(prompt) == 1, prompt


async def test_control_endpoints(sim: SimServer) -> None:
    async with httpx.AsyncClient(base_url=sim.base_url) as client:
        r = await client.post("/_sim/faults", json={"rate_limit": 1, "status_word": "completed"})
        assert r.json()["faults"]["rate_limit"] == 1
        r = await client.post("/_sim/faults", json={"bogus": 1})
        assert r.status_code == 400
        auth = {"Authorization": "Bearer k"}
        r = await client.post("/v1/video_generation", json=VIDEO, headers=auth)
        assert r.json()["base_resp"]["status_code"] == 1002
        r = await client.post("/v1/video_generation", json=VIDEO, headers=auth)
        task_id = r.json()["task_id"]
        r = await client.get("/v1/query/video_generation", params={"task_id": task_id}, headers=auth)
        assert r.json()["status"] == "completed"
        stats = (await client.get("/_sim/stats")).json()
        assert stats["requests_by_endpoint"] == {"video_generation": 2, "query_video_generation": 1}
        assert stats["creates_total"] == 2 and stats["made_total"] == 1
        assert stats["max_requests_per_second"] >= 1 and len(stats["request_times"]) == 3
        assert (await client.post("/_sim/reset")).json()["ok"]
        stats = (await client.get("/_sim/stats")).json()
        assert stats["requests_total"] == 0 and stats["faults"]["status_word"] is None
        assert (await client.get("/_sim/tasks")).json()["tasks"][0]["task_id"] == task_id


async def test_shared_state_between_servers(tmp_path: Path) -> None:
    config = dict(state_path=tmp_path / "sim.sqlite3")
    a, b = start_sim(fast_config(**config)), start_sim(fast_config(**config))
    pa = MiniMaxProvider(TEST_KEY, a.base_url)
    pb = MiniMaxProvider(TEST_KEY, b.base_url)
    try:
        created = await pa.create_video({**VIDEO, "prompt": "shared:slot"})
        final = (await wait_terminal(pb, created.task_id))[-1]
        assert final.status == "Success"
        info = await pb.retrieve_file(final.file_id)
        status, _, data = await _download(pb, info.download_url)
        assert status == 200 and len(data) == info.bytes
        await pb.create_video({**VIDEO, "prompt": "shared:slot"})
        shared = b.stats()["shared"]
        assert shared["made_by_prompt"] == {"shared:slot": 2} and shared["tasks_total"] == 2
    finally:
        await pa.aclose()
        await pb.aclose()
        a.stop()
        b.stop()
