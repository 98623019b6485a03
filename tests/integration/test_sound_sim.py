"""The demo provider's sound endpoints judged by MiniMax's documentation, not by Slate's
adapter: the payloads MiniMax's own clients send (MiniMax-MCP's ``text_to_audio`` and
``music_generation``, ``mmx speech synthesize``/``mmx music generate``), real decodable sound of
the asked rate and channels as long as the answer says, V1 error shapes, the async task's
status words and its 9-hour file."""

from __future__ import annotations

import io

import av
import pytest

from app.sim import SimServer, start_sim
from tests.support.fixtures import fast_sim_config
from tests.support import web

pytestmark = pytest.mark.timeout(120)

AUTH = {"Authorization": "Bearer any-key"}


def decode(data: bytes) -> tuple[str, int, int, float]:
    with av.open(io.BytesIO(data)) as c:
        s = c.streams.audio[0]
        samples = sum(f.samples for f in c.decode(s))
        return c.format.name, s.rate, s.codec_context.channels, samples / s.rate


def test_mcp_text_to_audio_with_a_url_answer_is_real_sound(demo_sim: SimServer):
    body = {  # MiniMax-MCP text_to_audio (output_format url, as its server sends)
        "model": "speech-2.6-hd",
        "text": "The tide eye opens at dusk.",
        "voice_setting": {"voice_id": "female-shaonv", "speed": 1.0, "vol": 1.0, "pitch": 0,
                          "emotion": "happy"},
        "audio_setting": {"sample_rate": 24000, "bitrate": 128000, "format": "wav", "channel": 2},
        "language_boost": "auto",
        "output_format": "url",
    }  # fmt: skip
    r = web.post(f"{demo_sim.base_url}/v1/t2a_v2", json=body, headers=AUTH).json()
    assert r["base_resp"]["status_code"] == 0
    extra = r["extra_info"]
    assert extra["usage_characters"] == len(body["text"]) and extra["audio_format"] == "wav"
    data = web.get(r["data"]["audio"]).content  # a link: no Authorization needed
    fmt, rate, channels, seconds = decode(data)
    assert (fmt, rate, channels) == ("wav", 24000, 2)
    assert seconds == pytest.approx(extra["audio_length"] / 1000, abs=0.05)


def test_mmx_music_generate_hex_answer_and_v1_errors(demo_sim: SimServer):
    base = demo_sim.base_url
    body = {
        "model": "music-2.6",
        "prompt": "harbour bells, slow",
        "lyrics": "[Verse]\nthe tide comes in\n[Chorus]\nand the light goes round",
        "audio_setting": {"format": "mp3", "sample_rate": 32000, "bitrate": 128000},
        "output_format": "hex",
    }
    r = web.post(f"{base}/v1/music_generation", json=body, headers=AUTH).json()
    assert r["data"]["status"] == 2 and r["base_resp"]["status_code"] == 0
    fmt, rate, _channels, seconds = decode(bytes.fromhex(r["data"]["audio"]))
    assert (fmt, rate) == ("mp3", 32000)
    assert seconds == pytest.approx(r["extra_info"]["music_duration"] / 1000, abs=0.1)
    # errors as V1 has them: HTTP 200, base_resp.status_code
    no_key = web.post(f"{base}/v1/music_generation", json=body).json()
    assert no_key["base_resp"]["status_code"] == 1004
    both = {**body, "is_instrumental": True}
    bad = web.post(f"{base}/v1/music_generation", json=both, headers=AUTH)
    assert bad.status_code == 200 and bad.json()["base_resp"]["status_code"] == 2013
    long = {**body, "lyrics": "la " * 1200}
    assert (
        web.post(f"{base}/v1/music_generation", json=long, headers=AUTH).json()["base_resp"][
            "status_code"
        ]
        == 2013
    )
    assert demo_sim.stats()["made_total"] == 1


@pytest.fixture
def slow_speech_sim():
    """A demo provider whose async speech stays ``Processing`` for 30 s of its clock: the first
    query sees it processing however loaded the machine is (with the fast timings, 0.2 s, a
    loaded CI once saw it done already); the test then moves the clock on."""
    server = start_sim(fast_sim_config(preparing=0.0, queueing=0.0, processing=30.0))
    try:
        yield server
    finally:
        server.stop()


def test_async_speech_words_and_the_nine_hour_file(slow_speech_sim: SimServer):
    demo_sim = slow_speech_sim
    base = demo_sim.base_url
    body = {
        "model": "speech-2.8-turbo",
        "text": "A long book. " * 1000,
        "voice_setting": {"voice_id": "English_expressive_narrator"},
        "audio_setting": {"audio_sample_rate": 32000, "format": "mp3", "channel": 1},
    }  # the async guide's spelling of the sample rate is accepted
    created = web.post(f"{base}/v1/t2a_async_v2", json=body, headers=AUTH).json()
    assert created["base_resp"]["status_code"] == 0
    assert created["usage_characters"] == len(body["text"]) and created["file_id"]
    tid = created["task_id"]

    def status() -> dict:
        url = f"{base}/v1/query/t2a_async_query_v2"
        return web.get(url, params={"task_id": tid}, headers=AUTH).json()

    assert status()["status"] == "Processing"
    demo_sim.set_clock(advance=60)
    done = status()
    assert done["status"] == "Success" and done["file_id"] == created["file_id"]
    info = web.get(
        f"{base}/v1/files/retrieve", params={"file_id": done["file_id"]}, headers=AUTH
    ).json()
    assert info["file"]["filename"] == "output.mp3"
    content = web.get(
        f"{base}/v1/files/retrieve_content", params={"file_id": done["file_id"]}, headers=AUTH
    )
    assert content.status_code == 200 and decode(content.content)[:3] == ("mp3", 32000, 1)
    demo_sim.set_clock(advance=9 * 3600)
    assert status()["status"] == "Expired"
    gone = web.get(
        f"{base}/v1/files/retrieve", params={"file_id": done["file_id"]}, headers=AUTH
    ).json()
    assert gone["base_resp"]["status_code"] == 2013
    unknown = web.get(
        f"{base}/v1/query/t2a_async_query_v2", params={"task_id": "1"}, headers=AUTH
    ).json()
    assert unknown["base_resp"]["status_code"] == 2013
    voices = web.post(f"{base}/v1/get_voice", json={"voice_type": "system"}, headers=AUTH)
    assert any(v["voice_id"] == "female-shaonv" for v in voices.json()["system_voice"])
