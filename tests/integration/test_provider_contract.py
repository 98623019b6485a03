"""Contract: the MiniMax adapter against the demo provider over real loopback HTTP.

Every documented response shape and every fault, each asserting the outcome class.
"""

from __future__ import annotations

import base64
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
from tests.support.sim_fixtures import TEST_KEY, VIDEO, fast_config, provider, sim, wait_terminal  # noqa: E402,F401
from tests.support import web  # noqa: E402
from tests.support.sim_media import image_bytes, image_url  # noqa: E402

pytestmark = pytest.mark.timeout(60)


async def _download(p: MiniMaxProvider, url: str) -> tuple[int, int | None, bytes]:
    async with p.download(url) as d:
        data = b"".join([c async for c in d.chunks])
        return d.status_code, d.content_length, data


def _probe_mp4(data: bytes) -> tuple[float, int, int]:
    import av

    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.video[0]
        assert next(container.decode(stream), None) is not None  # a frame decodes (one is enough)
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
    assert isinstance(
        info.raw["file"]["file_id"], int
    )  # a number in the file, a string in the query
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
        {
            "model": "image-01",
            "prompt": "three boats",
            "aspect_ratio": "1:1",
            "n": 3,
            "response_format": "base64",
        }
    )
    assert len(result.items) == 3 and result.success_count == 3
    assert all(i.data and i.data.startswith(b"\x89PNG") and i.url is None for i in result.items)
    assert len({i.data for i in result.items}) == 3  # each image differs


async def test_image_custom_width_height(provider: MiniMaxProvider) -> None:
    from PySide6.QtGui import QImage

    result = await provider.generate_image(
        {
            "model": "image-01",
            "prompt": "custom",
            "width": 512,
            "height": 768,
            "response_format": "base64",
        }
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
async def test_invalid_video_params_refused_2013(
    provider: MiniMaxProvider, sim: SimServer, body
) -> None:
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
    async with web.AsyncClient(base_url=sim.base_url) as client:
        for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": "Basic abc"}):
            r = await client.post("/v1/video_generation", json=VIDEO, headers=headers)
            assert r.status_code == 200 and r.json()["base_resp"]["status_code"] == 1004
            r = await client.get(
                "/v1/query/video_generation", params={"task_id": "1"}, headers=headers
            )
            assert r.status_code == 200 and r.json()["base_resp"]["status_code"] == 1004
        r = await client.post(
            "/v1/video_generation", json=VIDEO, headers={"Authorization": "Bearer any"}
        )
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
    assert (
        stats["creates_by_prompt"]["slot:busy"] == 3 and stats["made_by_prompt"]["slot:busy"] == 1
    )


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


@pytest.mark.parametrize(
    ("code", "refused"), [(1026, True), (1008, True), (1004, True), (1033, False), (1000, False)]
)
async def test_create_error_codes(
    provider: MiniMaxProvider, sim: SimServer, code: int, refused: bool
) -> None:
    sim.set_faults(create_error=1, create_error_code=code)
    with pytest.raises(Refused if refused else Ambiguous) as info:
        await provider.create_video({**VIDEO, "prompt": "slot:code"})
    assert info.value.code == code
    if not refused:
        assert not isinstance(info.value, Refused)
    assert sim.stats()["made_by_prompt"] == {}


async def test_5xx_before_create_is_ambiguous_nothing_made(
    provider: MiniMaxProvider, sim: SimServer
) -> None:
    sim.set_faults(server_error=1, server_error_status=503)
    with pytest.raises(Ambiguous) as info:
        await provider.create_video({**VIDEO, "prompt": "slot:5xx"})
    assert info.value.raw and info.value.raw["_http_status"] == 503
    assert sim.stats()["made_by_prompt"] == {}


async def test_5xx_after_create_is_ambiguous_task_made(
    provider: MiniMaxProvider, sim: SimServer
) -> None:
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
async def test_unknown_status_words_come_back_raw(
    provider: MiniMaxProvider, sim: SimServer, word: str
) -> None:
    created = await provider.create_video(VIDEO)
    sim.set_faults(status_word=word, status_word_queries=1)
    status = await provider.query_video(created.task_id)
    assert status.status == word
    assert state_for_status_word(status.status) is State.UNKNOWN
    assert status.raw["status"] == word
    assert (await provider.query_video(created.task_id)).status in {
        "Preparing",
        "Queueing",
        "Processing",
        "Success",
    }


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


async def test_random_faults_never_refuse_a_made_task(
    sim: SimServer, provider: MiniMaxProvider
) -> None:
    sim.set_faults(
        random={
            "lose_create_response": 0.2,
            "rate_limit": 0.2,
            "server_error": 0.15,
            "server_error_after_create": 0.15,
        }
    )
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
    async with web.AsyncClient(base_url=sim.base_url) as client:
        r = await client.post("/_sim/faults", json={"rate_limit": 1, "status_word": "completed"})
        assert r.json()["faults"]["rate_limit"] == 1
        r = await client.post("/_sim/faults", json={"bogus": 1})
        assert r.status_code == 400
        auth = {"Authorization": "Bearer k"}
        r = await client.post("/v1/video_generation", json=VIDEO, headers=auth)
        assert r.json()["base_resp"]["status_code"] == 1002
        r = await client.post("/v1/video_generation", json=VIDEO, headers=auth)
        task_id = r.json()["task_id"]
        r = await client.get(
            "/v1/query/video_generation", params={"task_id": task_id}, headers=auth
        )
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


# ---------------------------------------------------------------- V1 fidelity (MINIMAX_API.md)
# Plain HTTP where the adapter's own classification is not what is being checked.

AUTH = {"Authorization": "Bearer any-key"}
LAST_FRAME = {**VIDEO, "model": "MiniMax-Hailuo-02", "duration": 6}


def _v1(sim: SimServer, path: str, body: dict) -> dict:
    r = web.post(sim.base_url + path, json=body, headers=AUTH, timeout=30)
    assert r.status_code == 200  # V1 answers errors with HTTP 200 and base_resp
    return r.json()


def _code(answer: dict) -> int:
    return answer["base_resp"]["status_code"]


@pytest.mark.parametrize(("resolution", "code"), [("512P", 2013), ("768P", 0), ("1080P", 0)])
def test_hailuo02_first_and_last_frame_not_at_512p(
    sim: SimServer, resolution: str, code: int
) -> None:
    frame = image_url(640, 480)
    answer = _v1(
        sim,
        "/v1/video_generation",
        {
            **LAST_FRAME,
            "resolution": resolution,
            "first_frame_image": frame,
            "last_frame_image": frame,
        },
    )
    assert _code(answer) == code, answer
    if code:
        assert "512P" in answer["base_resp"]["status_msg"] and answer["task_id"] == ""
    assert sim.stats()["made_total"] == (0 if code else 1)


def test_last_frame_needs_a_first_frame(sim: SimServer) -> None:
    answer = _v1(
        sim,
        "/v1/video_generation",
        {**LAST_FRAME, "resolution": "768P", "last_frame_image": image_url(640, 480)},
    )
    assert _code(answer) == 2013 and "first_frame_image" in answer["base_resp"]["status_msg"]


@pytest.mark.parametrize("code", [1028, 1030, 2061, 2056, 1008])
def test_create_error_codes_of_minimax_cli_make_nothing(sim: SimServer, code: int) -> None:
    sim.set_faults(create_error=1, create_error_code=code)
    answer = _v1(sim, "/v1/video_generation", {**VIDEO, "prompt": "quota"})
    assert _code(answer) == code and answer["base_resp"]["status_msg"] and answer["task_id"] == ""
    answer = _v1(sim, "/v1/image_generation", {"model": "image-01", "prompt": "quota"})
    assert _code(answer) == 0  # one-shot
    assert sim.stats()["made_by_prompt"] == {"quota": 1}  # only the image


@pytest.mark.parametrize(
    ("fault", "code"), [("insufficient_balance", 1008), ("input_sensitive", 1026)]
)
def test_named_refusal_faults_on_v1(sim: SimServer, fault: str, code: int) -> None:
    sim.set_faults(**{fault: 1})
    assert _code(_v1(sim, "/v1/video_generation", VIDEO)) == code
    assert sim.stats()["made_total"] == 0


def test_overloaded_on_v1_is_an_http_529_and_nothing_made(sim: SimServer) -> None:
    sim.set_faults(overloaded=1)
    r = web.post(sim.base_url + "/v1/video_generation", json=VIDEO, headers=AUTH)
    assert r.status_code == 529 and sim.stats()["made_total"] == 0


@pytest.mark.parametrize(
    "model", ["MiniMax-Hailuo-2.3", "MiniMax-Hailuo-2.3-Fast", "MiniMax-Hailuo-02", "T2V-01"]
)
def test_fast_pretreatment_accepted(sim: SimServer, model: str) -> None:
    body = {**VIDEO, "model": model, "fast_pretreatment": True}
    if model == "T2V-01":
        body["resolution"] = "720P"
    if model == "MiniMax-Hailuo-2.3-Fast":
        body["first_frame_image"] = image_url(640, 480)
    assert _code(_v1(sim, "/v1/video_generation", body)) == 0
    assert _code(_v1(sim, "/v1/video_generation", {**body, "fast_pretreatment": "yes"})) == 2013


@pytest.mark.parametrize(
    ("width", "height", "code"),
    [
        (512, 512, 0),
        (2048, 1024, 0),
        (1024, 768, 0),
        (504, 512, 2013),
        (2056, 512, 2013),
        (1020, 512, 2013),
        (512, None, 2013),
        (None, 768, 2013),
    ],
)
def test_image01_width_height(
    sim: SimServer, width: int | None, height: int | None, code: int
) -> None:
    from PySide6.QtGui import QImage

    body: dict = {"model": "image-01", "prompt": "custom size", "response_format": "base64"}
    body.update({k: v for k, v in (("width", width), ("height", height)) if v is not None})
    answer = _v1(sim, "/v1/image_generation", body)
    assert _code(answer) == code, answer
    if not code:
        picture = QImage.fromData(base64.b64decode(answer["data"]["image_base64"][0]), "PNG")
        assert (picture.width(), picture.height()) == (width, height)


def test_image01_aspect_ratio_wins_over_width_height(sim: SimServer) -> None:
    from PySide6.QtGui import QImage

    answer = _v1(
        sim,
        "/v1/image_generation",
        {
            "model": "image-01",
            "prompt": "both",
            "aspect_ratio": "16:9",
            "width": 512,
            "height": 512,
            "response_format": "base64",
        },
    )
    picture = QImage.fromData(base64.b64decode(answer["data"]["image_base64"][0]), "PNG")
    assert (picture.width(), picture.height()) == IMAGE_SIZES["16:9"]
    live = _v1(
        sim,
        "/v1/image_generation",
        {"model": "image-01-live", "prompt": "x", "width": 512, "height": 512},
    )
    assert _code(live) == 2013


@pytest.mark.parametrize(("n", "blocked", "fmt"), [(4, 1, "url"), (3, 2, "base64"), (2, 5, "url")])
def test_block_images_fault_blocks_k_of_n(sim: SimServer, n: int, blocked: int, fmt: str) -> None:
    sim.set_faults(block_images=blocked)
    answer = _v1(
        sim,
        "/v1/image_generation",
        {"model": "image-01", "prompt": "safety", "n": n, "response_format": fmt},
    )
    k = min(blocked, n)
    assert answer["metadata"] == {"failed_count": str(k), "success_count": str(n - k)}
    key = "image_urls" if fmt == "url" else "image_base64"
    assert len(answer["data"][key]) == n - k
    for url in answer["data"].get("image_urls", []):
        assert web.get(url).content.startswith(b"\x89PNG")
    # a blocked image does not exist, even under a correctly signed link
    blocked_link = sim.link(f"/_sim/images/{answer['id']}/{n - k}.png", 60)
    assert web.get(blocked_link).status_code == 404
    again = _v1(sim, "/v1/image_generation", {"model": "image-01", "prompt": "safety", "n": n})
    assert again["metadata"]["failed_count"] == "0"  # one create only


FRAME_CASES = [
    ("png", image_url(640, 480), 0),
    ("jpeg", image_url(640, 480, "JPEG", "jpeg"), 0),
    ("webp", image_url(640, 480, "WEBP", "webp"), 0),
    (
        "labelled-jpeg-holds-png",
        image_url(640, 480, "PNG", "jpeg"),
        0,
    ),  # MiniMax-MCP labels all jpeg
    ("short-side-301", image_url(301, 400), 0),
    ("aspect-5-2", image_url(1000, 400), 0),
    ("gif", image_url(640, 480, "GIF", "gif"), 2013),
    ("short-side-300", image_url(300, 600), 2013),
    ("aspect-over-5-2", image_url(1000, 390), 2013),
    ("aspect-under-2-5", image_url(390, 1000), 2013),
    (
        "20-mb",
        "data:image/png;base64,"
        + base64.b64encode(
            image_bytes(640, 480) + b"\0" * (20 * 1024 * 1024 - len(image_bytes(640, 480)))
        ).decode(),
        2013,
    ),
    (
        "not-an-image",
        "data:image/png;base64," + base64.b64encode(b"no picture here").decode(),
        2013,
    ),
    ("bad-base64", "data:image/png;base64,@@@@", 2013),
]


@pytest.mark.parametrize(("case", "url", "code"), FRAME_CASES, ids=[c[0] for c in FRAME_CASES])
@pytest.mark.parametrize("field", ["first_frame_image", "last_frame_image"])
def test_frame_data_urls_are_checked(
    sim: SimServer, case: str, url: str, code: int, field: str
) -> None:
    body = {
        **LAST_FRAME,
        "resolution": "768P",
        "first_frame_image": image_url(640, 480),
        field: url,
    }
    answer = _v1(sim, "/v1/video_generation", body)
    assert _code(answer) == code, answer
    if code:
        assert field in answer["base_resp"]["status_msg"]


def test_subject_reference_image_file_checked(sim: SimServer) -> None:
    ok = _v1(
        sim,
        "/v1/image_generation",
        {
            "model": "image-01",
            "prompt": "x",
            "subject_reference": [{"type": "character", "image_file": image_url(640, 480)}],
        },
    )
    assert _code(ok) == 0
    for bad in (
        image_url(640, 480, "WEBP", "webp"),
        "data:image/png;base64,"
        + base64.b64encode(image_bytes(640, 480) + b"\0" * (10 * 1024 * 1024)).decode(),
    ):
        answer = _v1(
            sim,
            "/v1/image_generation",
            {
                "model": "image-01",
                "prompt": "x",
                "subject_reference": [{"type": "character", "image_file": bad}],
            },
        )
        assert _code(answer) == 2013 and "subject_reference" in answer["base_resp"]["status_msg"]


S2V = {"model": "S2V-01", "prompt": "a detective walking"}


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"subject_reference": [{"type": "character", "image": [image_url(640, 480)]}]}, 0),
        (
            {
                "subject_reference": [
                    {"type": "character", "image": ["https://cdn.example.com/face.jpg"]}
                ]
            },
            0,
        ),
        (
            {
                "subject_reference": [{"type": "character", "image": [image_url(640, 480)]}],
                "duration": 6,
                "resolution": "720P",
            },
            0,
        ),
        ({}, 2013),
        ({"subject_reference": []}, 2013),
        ({"subject_reference": [{"type": "character", "image": [image_url(640, 480)] * 2}]}, 2013),
        ({"subject_reference": [{"type": "character", "image": [image_url(640, 480)]}] * 2}, 2013),
        ({"subject_reference": [{"type": "object", "image": [image_url(640, 480)]}]}, 2013),
        ({"subject_reference": [{"type": "character", "image": [image_url(200, 200)]}]}, 2013),
        (
            {
                "subject_reference": [{"type": "character", "image": [image_url(640, 480)]}],
                "duration": 10,
            },
            2013,
        ),
        (
            {
                "subject_reference": [{"type": "character", "image": [image_url(640, 480)]}],
                "resolution": "1080P",
            },
            2013,
        ),
        (
            {
                "subject_reference": [{"type": "character", "image": [image_url(640, 480)]}],
                "first_frame_image": image_url(640, 480),
            },
            2013,
        ),
    ],
    ids=[
        "face",
        "face-url",
        "stated-defaults",
        "missing",
        "empty",
        "two-images",
        "two-refs",
        "type",
        "small-face",
        "duration",
        "resolution",
        "first-frame",
    ],
)
def test_s2v01_as_documented(sim: SimServer, change: dict, code: int) -> None:
    answer = _v1(sim, "/v1/video_generation", {**S2V, **change})
    assert _code(answer) == code, answer
    if code == 0:
        task = web.get(
            sim.base_url + "/v1/query/video_generation",
            params={"task_id": answer["task_id"]},
            headers=AUTH,
        ).json()
        assert task["status"] in ("Preparing", "Queueing", "Processing", "Success")


async def test_s2v01_video_is_720p(provider: MiniMaxProvider) -> None:
    created = await provider.create_video(
        {**S2V, "subject_reference": [{"type": "character", "image": [image_url(640, 480)]}]}
    )
    final = (await wait_terminal(provider, created.task_id))[-1]
    assert final.status == "Success" and (final.width, final.height) == (1280, 720)


def test_every_v1_endpoint_answers_1004_without_a_bearer_key(sim: SimServer) -> None:
    calls = [
        ("POST", "/v1/video_generation", {"json": VIDEO}),
        ("GET", "/v1/query/video_generation", {"params": {"task_id": "1"}}),
        ("GET", "/v1/files/retrieve", {"params": {"file_id": "1"}}),
        ("POST", "/v1/image_generation", {"json": {"model": "image-01", "prompt": "p"}}),
        (
            "POST",
            "/v1/files/upload",
            {
                "files": {"file": ("a.png", image_bytes(640, 480))},
                "data": {"purpose": "video_generation_input"},
            },
        ),
    ]
    sim.set_faults(rate_limit=100)  # auth comes before every fault
    for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": "Token abc"}):
        for method, path, kw in calls:
            r = httpx.request(method, sim.base_url + path, headers=headers, **kw)
            assert r.status_code == 200 and r.json()["base_resp"]["status_code"] == 1004, (
                path,
                r.text,
            )
    assert sim.faults.rate_limit == 100 and sim.stats()["made_total"] == 0


async def test_slow_fault_holds_v1_task_in_processing(
    provider: MiniMaxProvider, sim: SimServer
) -> None:
    sim.set_faults(slow=30)
    created = await provider.create_video({**VIDEO, "prompt": "slow"})
    sim.set_faults(slow=0)
    sim.set_clock(advance=sim.config.total_video_seconds + 0.3)  # past a normal task's end
    assert (await provider.query_video(created.task_id)).status == "Processing"
    sim.set_clock(advance=31)
    assert (await provider.query_video(created.task_id)).status == "Success"


async def test_content_fail_code_on_v1(provider: MiniMaxProvider, sim: SimServer) -> None:
    sim.set_faults(content_fail=1, content_fail_code=1026)
    created = await provider.create_video(VIDEO)
    final = (await wait_terminal(provider, created.task_id))[-1]
    assert final.status == "Fail" and final.error_code == 1026
    assert sim.stats()["billed_total"] == 0 and sim.stats()["made_total"] == 1
