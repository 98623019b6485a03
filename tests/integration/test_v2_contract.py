"""Contract: Slate's MiniMax V2 adapter against the demo provider over real loopback HTTP.

Every V2 response shape and every fault the demo provider has, each asserting the outcome
class (answer, Refused, Ambiguous), plus the list's paging and window, cancel rules, uploads
and the downloaded MP4 (PyAV). The demo provider's clock is moved instead of waiting.
"""

from __future__ import annotations

import io
from typing import Any, AsyncIterator, Iterator

import pytest

from app.domain.protocols import V2
from app.domain.states import State, state_for_status_word
from app.providers.base import Ambiguous, Refused, VideoApi
from app.providers.minimax import MiniMaxProvider
from app.sim import SimConfig, SimServer, start_sim
from tests.support.sim_fixtures import TEST_KEY
from tests.support.sim_media import audio_bytes, image_bytes, image_url, video_bytes

pytestmark = pytest.mark.timeout(120)
QUEUED, RUNNING = 1.0, 1.0


@pytest.fixture
def sim() -> Iterator[SimServer]:
    server = start_sim(
        SimConfig(preparing=0.0, queueing=QUEUED, processing=RUNNING, image_latency=0.0)
    )
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def provider(sim: SimServer) -> AsyncIterator[MiniMaxProvider]:
    p = MiniMaxProvider(TEST_KEY, sim.base_url, name="demo", timeout=15.0, connect_timeout=2.0)
    try:
        yield p
    finally:
        await p.aclose()


@pytest.fixture
def api(provider: MiniMaxProvider) -> VideoApi:
    return provider.api(V2)


def body(prompt: str = "a lighthouse at dawn", **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "model": "MiniMax-H3",
        "content": [{"type": "text", "text": prompt}],
        "resolution": "768P",
        "duration": 4,
        "ratio": "16:9",
    }
    out.update(kw)
    return out


def to_running(sim: SimServer) -> None:
    sim.set_clock(advance=QUEUED + 0.05)


def to_end(sim: SimServer) -> None:
    sim.set_clock(advance=QUEUED + RUNNING + 0.05)


def requests(sim: SimServer, endpoint: str) -> int:
    return int(sim.stats()["requests_by_endpoint"].get(endpoint, 0))


async def fetch(provider: MiniMaxProvider, url: str) -> tuple[int, bytes]:
    async with provider.download(url) as d:
        return d.status_code, b"".join([c async for c in d.chunks])


def probe(data: bytes) -> tuple[int, int, float, int]:
    import av

    with av.open(io.BytesIO(data)) as c:
        v = c.streams.video[0]
        assert next(c.decode(v), None) is not None  # a frame decodes (one is enough)
        channels = c.streams.audio[0].codec_context.channels if c.streams.audio else 0
        return v.width, v.height, c.duration / 1_000_000, channels


# ---------------------------------------------------------------- the happy path


async def test_create_query_succeeded_url_usage_and_a_real_mp4(sim, provider, api):
    created = await api.create_video(body(duration=5, ratio="21:9", resolution="2K"))
    assert created.task_id.isdigit() and created.raw["_trace_id"]
    words = []
    queued = await api.query_video(created.task_id)
    words.append(queued.status)
    assert queued.url is None and queued.usage is None
    to_running(sim)
    words.append((await api.query_video(created.task_id)).status)
    to_end(sim)
    done = await api.query_video(created.task_id)
    words.append(done.status)
    assert words == ["queued", "running", "succeeded"]
    assert [state_for_status_word(w, V2) for w in words] == [
        State.QUEUEING,
        State.PROCESSING,
        State.DOWNLOADING,
    ]
    assert done.usage == {
        "total_seconds": 5,
        "input_seconds": 0,
        "output_seconds": 5,
        "input_image_count": 0,
        "input_audio_seconds": 0,
    }
    status, data = await fetch(provider, done.url)
    assert status == 200 and data[4:8] == b"ftyp"
    assert probe(data) == (3360, 1440, pytest.approx(5.0, abs=0.05), 2)
    again = await api.query_video(created.task_id)
    assert again.url and again.url != done.url  # every query signs a fresh link


async def test_frames_references_and_uploads(sim, api):
    first = image_url(900, 1600, "PNG")  # 9:16 portrait: the output follows it
    created = await api.create_video(
        body(
            content=[
                {"type": "text", "text": "portrait"},
                {"type": "image_url", "image_url": {"url": first}, "role": "first_frame"},
            ]
        )
    )
    to_end(sim)
    done = await api.query_video(created.task_id)
    assert done.status == "succeeded" and done.usage["input_image_count"] == 1
    clip = await api.upload_file(video_bytes(3.0), "clip.mp4")
    tone = await api.upload_file(audio_bytes(3.0), "tone.wav")
    picture = await api.upload_file(image_bytes(640, 480), "ref.png")
    assert all(u.url.startswith("mm_file://") for u in (clip, tone, picture))
    ref = await api.create_video(
        body(
            ratio="adaptive",
            content=[
                {"type": "text", "text": "refs"},
                {"type": "image_url", "image_url": {"url": picture.url}, "role": "reference_image"},
                {"type": "video_url", "video_url": {"url": clip.url}, "role": "reference_video"},
                {"type": "audio_url", "audio_url": {"url": tone.url}, "role": "reference_audio"},
            ],
        )
    )
    to_end(sim)
    usage = (await api.query_video(ref.task_id)).usage
    assert usage["input_seconds"] == pytest.approx(3.0, abs=0.1)
    assert usage["input_audio_seconds"] == pytest.approx(3.0, abs=0.1)


async def test_an_upload_the_provider_refuses_is_refused(api):
    with pytest.raises(Refused) as got:
        await api.upload_file(b"not a picture at all" * 10, "notes.png")
    assert got.value.code == 2013


# ---------------------------------------------------------------- refusals and faults


async def test_bad_parameters_are_refused_400(api, sim):
    with pytest.raises(Refused) as got:
        await api.create_video(body(duration=3))
    assert got.value.code == 2013 and "HTTP 400" in got.value.message
    with pytest.raises(Refused):
        await api.create_video(body(ratio="adaptive"))  # text-only needs a ratio
    assert sim.stats()["made_total"] == 0


@pytest.mark.parametrize(
    ("fault", "code", "status"),
    [
        ({"insufficient_balance": 1}, 1008, 402),
        ({"input_sensitive": 1}, 1026, 422),
        ({"create_error": 1, "create_error_code": 1028}, 1028, 402),
        ({"create_error": 1, "create_error_code": 1030}, 1030, 402),
        ({"create_error": 1, "create_error_code": 2061}, 2061, 400),
        ({"create_error": 1, "create_error_code": 1004}, 1004, 401),
    ],
)
async def test_definitive_refusals_make_nothing(sim, api, fault, code, status):
    sim.set_faults(**fault)
    with pytest.raises(Refused) as got:
        await api.create_video(body())
    assert got.value.code == code and f"HTTP {status}" in got.value.message
    assert sim.stats()["made_total"] == 0
    if code == 1004:  # the refusal says where the base URL points (here: this machine)
        assert "points at 127.0.0.1" in got.value.message


async def test_429_is_a_rate_limit_with_its_retry_after(sim, api):
    sim.set_faults(rate_limit_creates=1, retry_after=3)
    with pytest.raises(Refused) as got:
        await api.create_video(body())
    assert got.value.rate_limited and got.value.retry_after == 3.0
    assert sim.stats()["made_total"] == 0
    assert (await api.create_video(body())).task_id  # the next one goes through


@pytest.mark.parametrize(
    "fault",
    [
        {"server_error_creates": 1},
        {"overloaded": 1},
        {"create_error": 1, "create_error_code": 1000},
    ],
)
async def test_server_errors_are_ambiguous(sim, api, fault):
    sim.set_faults(**fault)
    with pytest.raises(Ambiguous):
        await api.create_video(body())


@pytest.mark.parametrize("fault", ["lose_create_response", "server_error_after_create"])
async def test_a_create_whose_answer_is_lost_is_ambiguous_and_the_task_exists(sim, api, fault):
    sim.set_faults(**{fault: 1})
    with pytest.raises(Ambiguous):
        await api.create_video(body("lost answer"))
    assert sim.stats()["made_by_prompt"] == {"lost answer": 1}
    listed = await api.list_tasks(sim.now() - 60, sim.now() + 60, "MiniMax-H3")
    assert [t.status for t in listed] == ["queued"]


@pytest.mark.parametrize("word", ["Success", "completed", "expired", ""])
async def test_an_unknown_status_word_arrives_raw_and_maps_to_unknown(sim, api, word):
    created = await api.create_video(body())
    sim.set_faults(status_word=word, status_word_queries=1)
    got = await api.query_video(created.task_id)
    assert got.status == word and state_for_status_word(got.status, V2) is State.UNKNOWN


async def test_succeeded_without_url_and_failed_tasks(sim, api):
    sim.set_faults(success_without_file=1)
    bare = await api.create_video(body("no url"))
    sim.set_faults(content_fail=1)
    bad = await api.create_video(body("failing"))
    to_end(sim)
    got = await api.query_video(bare.task_id)
    assert got.status == "succeeded" and got.url is None
    failed = await api.query_video(bad.task_id)
    assert (failed.status, failed.error_code, failed.url) == ("failed", 1027, None)
    assert failed.error_message


async def test_an_expired_url_answers_403_and_a_new_query_gives_a_fresh_one(sim, provider, api):
    created = await api.create_video(body())
    to_end(sim)
    sim.set_faults(expired_url=1)
    stale = await api.query_video(created.task_id)
    status, _ = await fetch(provider, stale.url)
    assert status == 403
    fresh = await api.query_video(created.task_id)
    status, data = await fetch(provider, fresh.url)
    assert status == 200 and data[4:8] == b"ftyp"


async def test_query_errors_and_the_7_day_window(sim, api):
    created = await api.create_video(body())
    sim.set_faults(rate_limit=1)
    with pytest.raises(Refused) as limited:
        await api.query_video(created.task_id)
    assert limited.value.rate_limited
    sim.set_faults(server_error=1)
    with pytest.raises(Ambiguous):
        await api.query_video(created.task_id)
    sim.set_clock(advance=8 * 86400)
    with pytest.raises(Refused) as old:
        await api.query_video(created.task_id)
    assert "invalid task_id" in old.value.message
    assert await api.list_tasks(0, sim.now() + 10) == []


# ---------------------------------------------------------------- list


async def test_the_list_pages_and_keeps_the_window(sim, api):
    start = sim.now()
    ids = []
    for i in range(130):  # two pages of 100
        ids.append((await api.create_video(body(f"p{i}"))).task_id)
    await api.create_video(body("max", model="MiniMax-H3-Max", resolution="480P", duration=5))
    listed = await api.list_tasks(start - 1, sim.now() + 1, "MiniMax-H3")
    assert sorted(t.task_id for t in listed) == sorted(ids)
    assert requests(sim, "v2_list_video_generation") == 2
    assert {
        (t.model, t.facts["duration"], t.facts["resolution"], t.facts["ratio"]) for t in listed
    } == {("MiniMax-H3", 4, "768P", "16:9")}
    sim.set_clock(advance=120)
    late = await api.create_video(body("late"))
    window = await api.list_tasks(sim.now() - 5, sim.now() + 5)
    assert [t.task_id for t in window] == [late.task_id]


# ---------------------------------------------------------------- cancel


async def test_cancel_rules(sim, api):
    queued = await api.create_video(body("queued"))
    got = await api.cancel_video(queued.task_id)
    assert got.action == "cancelled"
    assert (await api.query_video(queued.task_id)).status == "cancelled"
    with pytest.raises(Refused, match="already cancelled"):
        await api.cancel_video(queued.task_id)
    running = await api.create_video(body("running"))
    to_running(sim)
    with pytest.raises(Refused, match="running"):
        await api.cancel_video(running.task_id)
    to_end(sim)
    finished = await api.cancel_video(running.task_id)
    assert finished.action == "deleted"  # why Slate queries before it ever sends a DELETE
    with pytest.raises(Refused):
        await api.query_video(running.task_id)
    stats = sim.stats()
    assert stats["cancelled_by_prompt"] == {"queued": 1}
    assert stats["billed_by_prompt"].get("queued", 0) == 0
