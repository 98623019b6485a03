"""Contract: the demo provider's MiniMax V2 (H3) endpoints, by plain HTTP over loopback.

No Slate adapter here: every request is written as MINIMAX_API.md "Video V2" describes it,
and every answer is checked field by field (status, error class, code, shapes), including
the 7-day window (the provider's clock is moved), paging and filters, cancel rules, uploads,
``usage``, every fault switch, and the MP4 itself (PyAV).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, Callable, Iterator, TypeAlias, TypeVar, Union

import httpx
import pytest

from app.providers.http import tls_context
from app.sim import SimConfig, SimServer, start_sim
from app.sim.v2rules import output_size
from tests.support import web
from tests.support.sim_media import (
    audio_bytes,
    data_url,
    heif_bytes,
    image_bytes,
    image_url,
    video_bytes,
)

ROOT = Path(__file__).resolve().parents[2]
AUTH = {"Authorization": "Bearer sk-test-not-a-real-key"}
DAY = 86400.0
#: Stage timings of the test provider: queued 1 s, running 1 s. Tests move the clock instead of
#: waiting (``_advance``), so every status is reached deterministically.
QUEUED, RUNNING = 1.0, 1.0

pytestmark = pytest.mark.timeout(120)


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
def client(sim: SimServer) -> Iterator[httpx.Client]:
    # plain HTTP on loopback; the process's shared context spares each test a CA-file read
    with web.Client(
        base_url=sim.base_url, headers=AUTH, timeout=30, verify=tls_context(False)
    ) as c:
        yield c


def text(prompt: str = "a lighthouse at dawn") -> dict[str, Any]:
    return {"type": "text", "text": prompt}


def image(url: str, role: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"type": "image_url", "image_url": {"url": url}}
    if role is not None:
        item["role"] = role
    return item


def video(url: str, role: str | None = "reference_video") -> dict[str, Any]:
    item: dict[str, Any] = {"type": "video_url", "video_url": {"url": url}}
    if role is not None:
        item["role"] = role
    return item


def audio(url: str, role: str | None = "reference_audio") -> dict[str, Any]:
    item: dict[str, Any] = {"type": "audio_url", "audio_url": {"url": url}}
    if role is not None:
        item["role"] = role
    return item


def body(**kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "model": "MiniMax-H3",
        "content": [text()],
        "resolution": "768P",
        "duration": 4,
        "ratio": "16:9",
    }
    out.update(kw)
    return out


PUBLIC = "https://cdn.example.com/in/picture.png"


def create(client: httpx.Client, **kw: Any) -> str:
    r = client.post("/v2/video_generation", json=body(**kw))
    assert r.status_code == 200, r.text
    assert set(r.json()) == {"task_id"}
    return r.json()["task_id"]


def query(client: httpx.Client, task_id: str) -> dict[str, Any]:
    r = client.get(f"/v2/query/video_generation/{task_id}")
    assert r.status_code == 200, r.text
    assert set(r.json()) == {"task"}
    return r.json()["task"]


def refused(r: httpx.Response, status: int, error_type: str, code: int, words: str = "") -> dict:
    """The documented error shape: real status, OpenAI-style body, code at the message's end."""
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    out = r.json()
    assert set(out) == {"type", "error", "request_id"}
    assert out["type"] == "error"
    assert set(out["error"]) == {"type", "message", "http_code"}
    assert out["error"]["type"] == error_type
    assert out["error"]["message"].endswith(f"({code})"), out
    assert out["error"]["http_code"] == str(status)
    assert out["request_id"] and out["request_id"] == r.headers["Trace-Id"]
    assert words.lower() in out["error"]["message"].lower(), out
    return out


def bad_request(r: httpx.Response, words: str = "") -> dict:
    return refused(r, 400, "bad_request_error", 2013, words)


def _advance(sim: SimServer, seconds: float) -> None:
    sim.set_clock(advance=seconds)


def to_running(sim: SimServer) -> None:
    _advance(sim, QUEUED + 0.05)


def to_end(sim: SimServer) -> None:
    _advance(sim, QUEUED + RUNNING + 0.05)


def upload(
    client: httpx.Client,
    data: bytes,
    name: str,
    purpose: str = "video_generation_input",
    path: str = "/v1/files/upload",
) -> httpx.Response:
    return client.post(path, files={"file": (name, data)}, data={"purpose": purpose})


def uploaded(client: httpx.Client, data: bytes, name: str) -> str:
    r = upload(client, data, name)
    assert r.status_code == 200 and r.json()["base_resp"]["status_code"] == 0, r.text
    return f"mm_file://{r.json()['file']['file_id']}"


def made(sim: SimServer) -> int:
    return sim.stats()["made_total"]


# ================================================================ create and query: shapes


def test_create_answers_only_the_task_id(client: httpx.Client, sim: SimServer) -> None:
    r = client.post("/v2/video_generation", json=body())
    assert r.status_code == 200 and r.json() == {"task_id": r.json()["task_id"]}
    assert r.json()["task_id"].isdigit() and "base_resp" not in r.json()
    assert r.headers["Trace-Id"]
    assert made(sim) == 1


def test_query_shape_through_the_lifecycle(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client, duration=6, ratio="4:3")
    keys = {
        "id",
        "model",
        "status",
        "error",
        "created_at",
        "updated_at",
        "content",
        "resolution",
        "duration",
        "ratio",
        "task_type",
        "modality",
        "usage",
    }
    queued = query(client, task_id)
    assert set(queued) == keys
    assert queued["id"] == task_id and queued["model"] == "MiniMax-H3"
    assert queued["status"] == "queued"
    assert queued["error"] == {"code": "", "message": ""}
    assert queued["content"] == {} and queued["usage"] == {}
    assert isinstance(queued["created_at"], int) and abs(queued["created_at"] - sim.now()) < 5
    assert queued["updated_at"] == queued["created_at"]
    assert (queued["resolution"], queued["duration"], queued["ratio"]) == ("768P", 6, "4:3")
    assert queued["task_type"] == "generation" and queued["modality"] == "text"
    to_running(sim)
    running = query(client, task_id)
    assert running["status"] == "running" and running["usage"] == {} and running["content"] == {}
    assert running["updated_at"] >= running["created_at"]
    to_end(sim)
    done = query(client, task_id)
    assert done["status"] == "succeeded"
    assert set(done["content"]) == {"url"} and done["content"]["url"].startswith(sim.base_url)
    assert done["usage"] == {
        "total_seconds": 6,
        "input_seconds": 0,
        "output_seconds": 6,
        "input_image_count": 0,
        "input_audio_seconds": 0,
    }
    assert done["updated_at"] >= running["updated_at"]
    assert done["error"] == {"code": "", "message": ""}


def test_status_words_come_in_order_in_real_time(client: httpx.Client, sim: SimServer) -> None:
    sim.config.queueing = sim.config.processing = 0.3
    task_id = create(client)
    seen: list[str] = []
    deadline = time.monotonic() + 10
    while not seen or seen[-1] not in ("succeeded", "failed"):
        assert time.monotonic() < deadline, seen
        seen.append(query(client, task_id)["status"])
        time.sleep(0.03)
    order = ["queued", "running", "succeeded"]
    assert [w for w in order if w in seen] == order
    assert [order.index(w) for w in seen] == sorted(order.index(w) for w in seen)


def test_every_query_gives_a_fresh_url_and_each_downloads(
    client: httpx.Client, sim: SimServer
) -> None:
    task_id = create(client)
    to_end(sim)
    first, second = (
        query(client, task_id)["content"]["url"],
        query(client, task_id)["content"]["url"],
    )
    assert first != second
    for url in (first, second):
        r = web.get(url)  # no Authorization: the link is an object-store link
        assert r.status_code == 200 and r.headers["content-type"] == "video/mp4"
        assert r.content[4:8] == b"ftyp"


def test_url_is_time_limited(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client)
    to_end(sim)
    url = query(client, task_id)["content"]["url"]
    _advance(sim, sim.config.v2_url_ttl + 5)
    r = web.get(url)
    assert r.status_code == 403 and b"AccessDenied" in r.content
    assert web.get(query(client, task_id)["content"]["url"]).status_code == 200


def test_tampered_url_refused(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client)
    to_end(sim)
    url = query(client, task_id)["content"]["url"]
    assert web.get(url.replace("Signature=", "Signature=0")).status_code == 403
    other = url.replace(f"/_sim/v2/{task_id}/", "/_sim/v2/123456789012345/")
    assert web.get(other).status_code == 403


# ================================================================ the MP4


def _size(data: bytes) -> tuple[int, int]:
    """The video's frame size as its stream says (nothing decoded: ``_probe`` checks frames)."""
    import av

    with av.open(io.BytesIO(data)) as container:
        v = container.streams.video[0]
        return (v.codec_context.width, v.codec_context.height)


def _probe(data: bytes) -> dict[str, Any]:
    import av

    with av.open(io.BytesIO(data)) as container:
        v = container.streams.video[0]
        a = container.streams.audio[0]
        # each decoded frame's size, not the frame: a 2K clip's frames held at once are ~400 MB
        frame_sizes = [(f.width, f.height) for f in container.decode(v)]
        container.seek(0)
        audio_decodes = next(container.decode(a), None) is not None  # one frame is enough
        return {
            "duration": container.duration / 1_000_000,
            "size": (v.codec_context.width, v.codec_context.height),
            "rate": float(v.average_rate),
            "codec": v.codec_context.name,
            "frames": len(frame_sizes),
            "frame_sizes": frame_sizes,
            "audio_codec": a.codec_context.name,
            "channels": a.codec_context.channels,
            "layout": a.layout.name,
            "audio_decodes": audio_decodes,
        }


@pytest.mark.parametrize(
    ("model", "resolution", "ratio", "duration", "size"),
    [
        ("MiniMax-H3", "768P", "16:9", 4, (1366, 768)),
        ("MiniMax-H3", "768P", "1:1", 6, (768, 768)),
        ("MiniMax-H3-Max", "480P", "9:16", 5, (480, 854)),
        ("MiniMax-H3-Max", "768P", "21:9", 5, (1792, 768)),
        ("MiniMax-H3", "2K", "4:3", 4, (1920, 1440)),
    ],
)
def test_mp4_is_real_with_stereo_audio_at_24fps(
    client: httpx.Client,
    sim: SimServer,
    model: str,
    resolution: str,
    ratio: str,
    duration: int,
    size: tuple[int, int],
) -> None:
    task_id = create(client, model=model, resolution=resolution, ratio=ratio, duration=duration)
    to_end(sim)
    r = web.get(query(client, task_id)["content"]["url"], timeout=60)
    assert r.status_code == 200 and int(r.headers["content-length"]) == len(r.content)
    info = _probe(r.content)
    assert abs(info["duration"] - duration) < 0.05
    assert info["size"] == size == output_size(resolution, eval(ratio.replace(":", "/")))
    assert info["rate"] == 24 and info["codec"] == "h264"
    assert info["frames"] == 24 * duration
    assert set(info["frame_sizes"]) == {size}  # every frame, not only first, middle and last
    assert info["audio_codec"] == "aac" and info["channels"] == 2 and info["layout"] == "stereo"
    assert info["audio_decodes"]


def test_output_follows_the_first_frame_and_ignores_ratio(
    client: httpx.Client, sim: SimServer
) -> None:
    frame = image_url(1000, 500, "JPEG", "jpeg")  # aspect 2:1
    task_id = create(client, content=[text(), image(frame, "first_frame")], ratio="9:16")
    to_end(sim)
    task = query(client, task_id)
    assert task["modality"] == "first_frame" and task["ratio"] == "9:16"
    assert _size(web.get(task["content"]["url"]).content) == (1536, 768)
    assert task["usage"]["input_image_count"] == 1


def test_lone_image_without_role_is_the_first_frame(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client, content=[text(), image(image_url(768, 1024))], ratio="adaptive")
    to_end(sim)
    task = query(client, task_id)
    assert task["modality"] == "first_frame" and task["ratio"] == "adaptive"
    assert _size(web.get(task["content"]["url"]).content) == (768, 1024)


def test_reference_mode_adaptive_follows_the_first_reference_image(
    client: httpx.Client, sim: SimServer
) -> None:
    refs = [
        image(image_url(800, 800), "reference_image"),
        image(image_url(640, 480), "reference_image"),
    ]
    adaptive = create(client, content=[text(), *refs], ratio="adaptive")
    concrete = create(client, content=[text(), *refs], ratio="9:16")
    to_end(sim)
    a, c = query(client, adaptive), query(client, concrete)
    assert a["modality"] == c["modality"] == "reference"
    assert _size(web.get(a["content"]["url"]).content) == (768, 768)
    assert _size(web.get(c["content"]["url"]).content) == (768, 1366)


# ================================================================ validation: one rule per case

T = TypeVar("T")
#: A case's value, or what makes it: media (clips, sounds, pictures as data URLs) are made by
#: the test that sends them, not when the module is collected (each xdist worker collects every
#: module: ~3.5 s of encoding each, for the few cases one of them runs)
Lazy: TypeAlias = Union[T, Callable[[], T]]


def now(value: Lazy[T]) -> T:
    return value() if callable(value) else value


INVALID: list[tuple[str, Lazy[dict[str, Any]], str]] = [
    ("model-missing", {"model": None}, "model is required"),
    ("model-unknown", {"model": "MiniMax-Hailuo-2.3"}, "not supported"),
    ("h3-480p", {"resolution": "480P"}, "resolution 480P"),
    ("max-2k", {"model": "MiniMax-H3-Max", "duration": 5, "resolution": "2K"}, "resolution 2K"),
    ("resolution-missing", {"resolution": None}, "resolution is required"),
    ("resolution-unknown", {"resolution": "1080P"}, "resolution 1080P"),
    ("h3-3s", {"duration": 3}, "duration 3"),
    ("h3-16s", {"duration": 16}, "duration 16"),
    ("max-4s", {"model": "MiniMax-H3-Max", "duration": 4, "resolution": "768P"}, "duration 4"),
    ("duration-missing", {"duration": None}, "duration is required"),
    ("duration-text", {"duration": "6"}, "integer"),
    ("duration-fraction", {"duration": 6.5}, "integer"),
    ("content-missing", {"content": None}, "content is required"),
    ("content-empty", {"content": []}, "content is required"),
    ("no-text", {"content": [image(PUBLIC, "first_frame")]}, "exactly one text item"),
    ("two-texts", {"content": [text("a"), text("b")]}, "exactly one text item"),
    ("empty-text", {"content": [text("")]}, "must not be empty"),
    ("blank-text", {"content": [text("   ")]}, "must not be empty"),
    ("text-7001", {"content": [text("x" * 7001)]}, "7001 characters"),
    ("text-with-role", {"content": [{**text(), "role": "first_frame"}]}, "take no role"),
    ("item-type", {"content": [text(), {"type": "file_url", "file_url": {"url": PUBLIC}}]}, "type"),
    (
        "image-role",
        {"content": [text(), image(PUBLIC, "reference_video")]},
        "not valid for image_url",
    ),
    ("video-role", {"content": [text(), video(PUBLIC, "first_frame")]}, "not valid for video_url"),
    (
        "audio-role",
        {"content": [text(), audio(PUBLIC, "reference_image")]},
        "not valid for audio_url",
    ),
    (
        "url-holder",
        {"content": [text(), {"type": "image_url", "image_url": PUBLIC}]},
        "object with a url",
    ),
    (
        "two-first-frames",
        {"content": [text(), image(PUBLIC, "first_frame"), image(PUBLIC, "first_frame")]},
        "at most one",
    ),
    ("two-roleless", {"content": [text(), image(PUBLIC), image(PUBLIC)]}, "no role"),
    (
        "mixed",
        {"content": [text(), image(PUBLIC, "first_frame"), image(PUBLIC, "reference_image")]},
        "cannot be mixed",
    ),
    ("mixed-roleless", {"content": [text(), image(PUBLIC), video(PUBLIC)]}, "cannot be mixed"),
    (
        "max-last-alone",
        {
            "model": "MiniMax-H3-Max",
            "duration": 5,
            "content": [text(), image(PUBLIC, "last_frame")],
        },
        "first_frame",
    ),
    ("text-only-no-ratio", {"ratio": None}, "concrete ratio"),
    ("text-only-adaptive", {"ratio": "adaptive"}, "concrete ratio"),
    (
        "audio-only-adaptive",
        {"ratio": "adaptive", "content": [text(), audio(PUBLIC)]},
        "reference audio needs",
    ),
    ("audio-only", {"content": [text(), audio(PUBLIC)]}, "reference audio needs"),
    ("ratio-unknown", {"ratio": "5:4"}, "ratio"),
    ("ten-images", {"content": [text()] + [image(PUBLIC, "reference_image")] * 10}, "10 images"),
    ("four-videos", {"content": [text()] + [video(PUBLIC)] * 4}, "4 videos"),
    ("four-audio", {"content": [text()] + [audio(PUBLIC)] * 4}, "4 audio"),
    (
        "thirteen-files",
        {
            "content": [text()]
            + [image(PUBLIC, "reference_image")] * 9
            + [video(PUBLIC)] * 3
            + [audio(PUBLIC)]
        },
        "13 media files",
    ),
    (
        "http-url",
        {"content": [text(), image("http://cdn.example.com/a.png", "first_frame")]},
        "https",
    ),
    (
        "ftp-url",
        {"content": [text(), image("ftp://cdn.example.com/a.png", "first_frame")]},
        "https",
    ),
    (
        "localhost-url",
        {"content": [text(), image("https://localhost/a.png", "first_frame")]},
        "public",
    ),
    (
        "loopback-url",
        {"content": [text(), image("https://127.0.0.1/a.png", "first_frame")]},
        "public",
    ),
    (
        "private-url",
        {"content": [text(), image("https://10.1.2.3/a.png", "first_frame")]},
        "public",
    ),
    ("url-empty", {"content": [text(), image("", "first_frame")]}, "required"),
    ("mm-file-unknown", {"content": [text(), image("mm_file://4242", "first_frame")]}, "not found"),
    ("mm-file-malformed", {"content": [text(), image("mm_file://abc", "first_frame")]}, "file id"),
    (
        "data-url-uppercase",
        lambda: {"content": [text(), image(image_url(640, 480, "PNG", "PNG"), "first_frame")]},
        "lowercase",
    ),
    (
        "data-url-gif-type",
        lambda: {"content": [text(), image(image_url(640, 480, "GIF", "gif"), "first_frame")]},
        "not supported",
    ),
    (
        "data-url-gif-content",
        lambda: {"content": [text(), image(image_url(640, 480, "GIF", "png"), "first_frame")]},
        "GIF",
    ),
    (
        "data-url-not-base64",
        {"content": [text(), image("data:image/png;base64,!!!!", "first_frame")]},
        "base64",
    ),
    (
        "data-url-not-image",
        {"content": [text(), image(data_url(b"plain text, no picture"), "first_frame")]},
        "does not hold an image",
    ),
    (
        "data-url-damaged",
        lambda: {"content": [text(), image(data_url(image_bytes(640, 480)[:-40]), "first_frame")]},
        "damaged",
    ),
    ("data-url-video-junk", {"content": [text(), video("data:video/mp4;base64,AAAA")]}, "readable"),
    (
        "data-url-image-as-video",
        lambda: {"content": [text(), video(image_url(640, 480))]},
        "needs a data:video",
    ),
    (
        "data-url-video-uppercase",
        lambda: {
            "content": [
                text(),
                video(data_url(video_bytes(3.0), "mp4").replace("image/", "VIDEO/")),
            ]
        },
        "lowercase",
    ),
    (
        "data-url-audio-mpeg",
        lambda: {
            "content": [
                text(),
                image(PUBLIC, "reference_image"),
                audio(data_url(audio_bytes(3.0, "mp3"), "mp3").replace("image/", "audio/mpeg;x=")),
            ]
        },
        "data:audio",
    ),
    (
        "data-url-video-too-short",
        lambda: {
            "content": [
                text(),
                video(data_url(video_bytes(1.0), "mp4").replace("image/", "video/")),
            ]
        },
        "2-15 s",
    ),
    (  # (a video over 50 MB cannot fit a 64 MB body as base64: the body limit answers first)
        "data-url-audio-over-15-mb",
        lambda: {
            "content": [
                text(),
                image(PUBLIC, "reference_image"),
                audio("data:audio/wav;base64," + "A" * (21 * 1024 * 1024)),
            ]
        },
        "larger than 15 MB",
    ),
    (
        "image-too-small",
        lambda: {"content": [text(), image(image_url(200, 300), "first_frame")]},
        "256-5760",
    ),
    (
        "image-side-too-long",
        lambda: {
            "content": [text(), image(data_url(heif_bytes(5800, 2400), "heic"), "first_frame")]
        },
        "256-5760",
    ),
    (
        "image-aspect-3-1",
        lambda: {"content": [text(), image(image_url(1200, 400), "first_frame")]},
        "aspect ratio",
    ),
    (
        "image-aspect-1-3",
        lambda: {"content": [text(), image(image_url(400, 1200), "reference_image")]},
        "aspect ratio",
    ),
    ("extra-on-h3", {"extra": {"prompt_expansion_mode": "quality"}}, "H3-Max only"),
    (
        "extra-mode-unknown",
        {"model": "MiniMax-H3-Max", "duration": 5, "extra": {"prompt_expansion_mode": "turbo"}},
        "prompt_expansion_mode",
    ),
    ("extra-not-object", {"model": "MiniMax-H3-Max", "duration": 5, "extra": "quality"}, "object"),
    ("callback-not-url", {"callback_url": "ftp://hooks.example.com/x"}, "callback_url"),
    ("prompt_optimizer", {"prompt_optimizer": True}, "prompt_optimizer is not a field"),
    ("first_frame_image", {"first_frame_image": PUBLIC}, "first_frame_image is not a field"),
    (
        "subject_reference",
        {"subject_reference": [{"type": "character", "image": [PUBLIC]}]},
        "subject_reference is not a field",
    ),
    ("aigc_watermark", {"aigc_watermark": False}, "aigc_watermark is not a field"),
    ("prompt", {"prompt": "a lighthouse"}, "prompt is not a field"),
    ("last_frame_image", {"last_frame_image": PUBLIC}, "last_frame_image is not a field"),
    ("fast_pretreatment", {"fast_pretreatment": True}, "fast_pretreatment is not a field"),
]


@pytest.mark.parametrize(("case", "change", "words"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_create_is_400_and_nothing_made(
    client: httpx.Client, sim: SimServer, case: str, change: Lazy[dict[str, Any]], words: str
) -> None:
    payload = body(**now(change))
    payload = {k: v for k, v in payload.items() if v is not None}
    bad_request(client.post("/v2/video_generation", json=payload), words)
    assert made(sim) == 0
    assert sim.stats()["creates_total"] == 1  # the request was counted, nothing was made


VALID: list[tuple[str, Lazy[dict[str, Any]]]] = [
    ("h3-4s", {"duration": 4}),
    ("h3-15s-2k", {"duration": 15, "resolution": "2K"}),
    ("max-5s-480p", {"model": "MiniMax-H3-Max", "duration": 5, "resolution": "480P"}),
    ("max-15s", {"model": "MiniMax-H3-Max", "duration": 15}),
    ("text-7000", {"content": [text("x" * 7000)]}),
    ("h3-last-frame-alone", {"content": [text(), image(PUBLIC, "last_frame")]}),
    (
        "first-and-last",
        {"content": [text(), image(PUBLIC, "first_frame"), image(PUBLIC, "last_frame")]},
    ),
    ("roleless-plus-last", {"content": [text(), image(PUBLIC), image(PUBLIC, "last_frame")]}),
    ("nine-images", {"content": [text()] + [image(PUBLIC, "reference_image")] * 9}),
    (
        "twelve-files",
        {"content": [text()] + [image(PUBLIC, "reference_image")] * 9 + [video(PUBLIC)] * 3},
    ),
    (
        "roleless-video-is-reference",
        {"content": [text(), video(PUBLIC, None), audio(PUBLIC, None)], "ratio": "adaptive"},
    ),
    (
        "data-url-video-and-audio",
        lambda: {
            "content": [
                text(),
                video(data_url(video_bytes(3.0), "mp4").replace("image/", "video/")),
                video(
                    data_url(video_bytes(3.0, container="mov"), "x").replace(
                        "image/x", "video/quicktime"
                    )
                ),
                audio(data_url(audio_bytes(3.0), "x").replace("image/x", "audio/wav")),
                audio(data_url(audio_bytes(3.0, "mp3"), "x").replace("image/x", "audio/mp3")),
            ]
        },
    ),
    (
        "max-references",
        {
            "model": "MiniMax-H3-Max",
            "duration": 5,
            "content": [text(), image(PUBLIC, "reference_image"), video(PUBLIC)],
        },
    ),
    (
        "max-expansion",
        {"model": "MiniMax-H3-Max", "duration": 5, "extra": {"prompt_expansion_mode": "disabled"}},
    ),
    ("h3-empty-extra", {"extra": {}}),
    (
        "frame-ignores-adaptive",
        {"content": [text(), image(PUBLIC, "first_frame")], "ratio": "adaptive"},
    ),
    (
        "jpeg-data-url",
        lambda: {"content": [text(), image(image_url(640, 480, "JPEG", "jpeg"), "first_frame")]},
    ),
    (
        "jpg-data-url",
        lambda: {"content": [text(), image(image_url(640, 480, "JPEG", "jpg"), "first_frame")]},
    ),
    (
        "webp-data-url",
        lambda: {"content": [text(), image(image_url(640, 480, "WEBP", "webp"), "first_frame")]},
    ),
    (
        "heic-data-url",
        lambda: {
            "content": [text(), image(data_url(heif_bytes(4032, 3024), "heic"), "first_frame")]
        },
    ),
    (
        "heif-data-url",
        lambda: {
            "content": [
                text(),
                image(data_url(heif_bytes(3024, 4032, b"mif1"), "heif"), "first_frame"),
            ]
        },
    ),
    (
        "declared-png-holds-jpeg",
        lambda: {"content": [text(), image(image_url(640, 480, "JPEG", "png"), "first_frame")]},
    ),
    ("image-256", lambda: {"content": [text(), image(image_url(256, 256), "first_frame")]}),
    ("image-aspect-2.5", lambda: {"content": [text(), image(image_url(1000, 400), "first_frame")]}),
    ("image-aspect-0.4", lambda: {"content": [text(), image(image_url(400, 1000), "first_frame")]}),
    ("callback-https", {"callback_url": "https://hooks.example.com/minimax"}),
    ("lowercase-resolution", {"resolution": "2k"}),
    ("unknown-field-ignored", {"seed": 7}),
]


@pytest.mark.parametrize(("case", "change"), VALID, ids=[c[0] for c in VALID])
def test_valid_create_variants(
    client: httpx.Client, sim: SimServer, case: str, change: Lazy[dict[str, Any]]
) -> None:
    task_id = create(client, **now(change))
    assert query(client, task_id)["status"] == "queued"
    assert made(sim) == 1


def test_content_type_must_be_json(client: httpx.Client, sim: SimServer) -> None:
    r = client.post(
        "/v2/video_generation", content=json.dumps(body()), headers={"Content-Type": "text/plain"}
    )
    bad_request(r, "Content-Type")
    r = client.post(
        "/v2/video_generation",
        content=json.dumps(body()),
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert r.status_code == 200
    assert made(sim) == 1


def test_body_not_json(client: httpx.Client, sim: SimServer) -> None:
    r = client.post(
        "/v2/video_generation", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    bad_request(r, "not valid JSON")
    r = client.post("/v2/video_generation", json=[body()])
    bad_request(r, "JSON object")
    assert made(sim) == 0


def test_body_over_64_mb_refused(client: httpx.Client, sim: SimServer) -> None:
    head = json.dumps(body(content=[text("PLACEHOLDER")]))
    raw = head.replace("PLACEHOLDER", "x" * (64 * 1024 * 1024 + 10)).encode()
    r = client.post(
        "/v2/video_generation", content=raw, headers={"Content-Type": "application/json"}
    )
    bad_request(r, "64 MB")
    assert made(sim) == 0


def test_data_url_image_over_30_mb_refused(client: httpx.Client, sim: SimServer) -> None:
    big = "data:image/png;base64," + "A" * (41 * 1024 * 1024)  # decodes to about 30.75 MB
    bad_request(
        client.post("/v2/video_generation", json=body(content=[text(), image(big, "first_frame")])),
        "30 MB",
    )
    assert made(sim) == 0


def test_reference_totals_at_most_15_seconds(client: httpx.Client, sim: SimServer) -> None:
    clip = uploaded(client, video_bytes(8.0), "eight.mp4")
    sound = uploaded(client, audio_bytes(8.0), "eight.wav")
    bad_request(
        client.post("/v2/video_generation", json=body(content=[text(), video(clip), video(clip)])),
        "videos last 16.00 s",
    )
    bad_request(
        client.post(
            "/v2/video_generation",
            json=body(
                content=[text(), image(PUBLIC, "reference_image"), audio(sound), audio(sound)]
            ),
        ),
        "audio lasts 16.00 s",
    )
    # public URLs cannot be measured from loopback: each counts 5 s (4 of them would be 20 s, but
    # 3 are the most a request may hold)
    assert create(client, content=[text(), video(clip), video(PUBLIC)])
    bad_request(
        client.post(
            "/v2/video_generation",
            json=body(content=[text(), video(clip), video(PUBLIC), video(PUBLIC)]),
        ),
        "18.00 s",
    )
    assert made(sim) == 1


def test_callback_url_is_accepted_and_never_called(client: httpx.Client, sim: SimServer) -> None:
    hits: list[str] = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    hook = HTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=hook.serve_forever, daemon=True)
    thread.start()
    try:
        task_id = create(client, callback_url=f"http://127.0.0.1:{hook.server_address[1]}/done")
        to_end(sim)
        assert query(client, task_id)["status"] == "succeeded"
        time.sleep(0.3)
        assert hits == []
    finally:
        hook.shutdown()
        hook.server_close()


# ================================================================ authorization


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer"}, {"Authorization": ""}, {"Authorization": "Basic a2V5"}],
    ids=["none", "empty", "blank", "basic"],
)
def test_every_v2_endpoint_needs_a_bearer_key(sim: SimServer, headers: dict[str, str]) -> None:
    with web.Client(base_url=sim.base_url, timeout=10) as anon:
        for method, path, kw in [
            ("POST", "/v2/video_generation", {"json": body()}),
            ("GET", "/v2/query/video_generation/123456789012345", {}),
            ("GET", "/v2/query/video_generation", {"params": {"page_num": 1, "page_size": 10}}),
            ("DELETE", "/v2/video_generation/123456789012345", {}),
        ]:
            r = anon.request(method, path, headers=headers, **kw)
            refused(r, 401, "authorized_error", 1004, "Authorization")
        assert sim.stats()["creates_total"] == 0  # like V1: only authorized creates count
        r = anon.post(
            "/v1/files/upload",
            headers=headers,
            files={"file": ("a.png", image_bytes(640, 480))},
            data={"purpose": "video_generation_input"},
        )
        assert r.status_code == 200 and r.json()["base_resp"]["status_code"] == 1004
    assert made(sim) == 0


def test_faults_never_strike_before_auth(sim: SimServer) -> None:
    sim.set_faults(rate_limit=5, server_error=5)
    with web.Client(base_url=sim.base_url, timeout=10) as anon:
        refused(anon.post("/v2/video_generation", json=body()), 401, "authorized_error", 1004)
    assert sim.faults.rate_limit == 5 and sim.faults.server_error == 5


# ================================================================ query one, the 7-day window


def test_query_unknown_and_malformed_ids(client: httpx.Client) -> None:
    bad_request(client.get("/v2/query/video_generation/123456789012345"), "invalid task_id")
    bad_request(client.get("/v2/query/video_generation/a%20b"), "invalid task_id")


def test_v1_task_is_not_a_v2_task(client: httpx.Client) -> None:
    r = client.post("/v1/video_generation", json={"model": "MiniMax-Hailuo-2.3", "prompt": "p"})
    v1_id = r.json()["task_id"]
    bad_request(client.get(f"/v2/query/video_generation/{v1_id}"), "invalid task_id")
    v2_id = create(client)
    r = client.get("/v1/query/video_generation", params={"task_id": v2_id})
    assert r.json()["base_resp"]["status_code"] == 2013


def test_tasks_older_than_7_days_are_invalid(client: httpx.Client, sim: SimServer) -> None:
    old = create(client)
    _advance(sim, 6 * DAY)
    new = create(client)
    assert query(client, old)["status"] == "succeeded"
    listed = client.get("/v2/query/video_generation").json()
    assert listed["total"] == 2
    _advance(sim, DAY + 60)  # old is now 7 days and a minute old, new 1 day
    bad_request(client.get(f"/v2/query/video_generation/{old}"), "invalid task_id")
    listed = client.get("/v2/query/video_generation").json()
    assert listed["total"] == 1 and [t["id"] for t in listed["items"]] == [new]
    bad_request(client.delete(f"/v2/video_generation/{old}"), "invalid task_id")


def test_clock_control(sim: SimServer) -> None:
    with web.Client(base_url=sim.base_url) as c:
        before = c.get("/_sim/clock").json()
        assert before["ok"] and before["offset"] == 0
        after = c.post("/_sim/clock", json={"advance": 3 * DAY}).json()
        assert after["offset"] == 3 * DAY and after["now"] - time.time() > 3 * DAY - 5
        assert c.post("/_sim/clock", json={"offset": 0}).json()["offset"] == 0
        assert c.post("/_sim/clock", json={"advance": "soon"}).status_code == 400


# ================================================================ list: paging, filters


def _list(client: httpx.Client, params: Any = None) -> dict[str, Any]:
    r = client.get("/v2/query/video_generation", params=params)
    assert r.status_code == 200, r.text
    out = r.json()
    assert set(out) == {"items", "total"}
    return out


def test_list_newest_first_with_paging(client: httpx.Client, sim: SimServer) -> None:
    ids = []
    for i in range(5):
        ids.append(create(client, content=[text(f"shot {i}")]))
        _advance(sim, 1.0)  # distinct created_at seconds
    newest_first = ids[::-1]
    everything = _list(client, {"page_num": 1, "page_size": 10})
    assert everything["total"] == 5 and [t["id"] for t in everything["items"]] == newest_first
    assert set(everything["items"][0]) == set(query(client, ids[0]))
    pages = [_list(client, {"page_num": n, "page_size": 2}) for n in (1, 2, 3, 4)]
    assert [[t["id"] for t in p["items"]] for p in pages] == [
        newest_first[0:2],
        newest_first[2:4],
        newest_first[4:5],
        [],
    ]
    assert all(p["total"] == 5 for p in pages)
    default = _list(client)
    assert default["total"] == 5 and len(default["items"]) == 5


@pytest.mark.parametrize(
    "params",
    [
        {"page_size": 0},
        {"page_size": 101},
        {"page_size": "ten"},
        {"page_num": 0},
        {"page_num": -1},
        {"filter.status": "done"},
        {"filter.model": "MiniMax-Hailuo-2.3"},
        {"filter.task_type": "edit"},
        {"filter.task_ids": "[1, 2"},
    ],
)
def test_list_bad_parameters(client: httpx.Client, params: dict[str, Any]) -> None:
    bad_request(client.get("/v2/query/video_generation", params=params))


def test_list_filters_status_model_type(client: httpx.Client, sim: SimServer) -> None:
    # queued for a minute: the second task is still queued however slowly a busy machine lists
    # (with the 1 s stage it was sometimes running by the time the lists were read)
    sim.config.queueing = 60.0
    done = create(client)
    _advance(sim, 100)
    waiting = create(client, model="MiniMax-H3-Max", duration=5)
    by_status = {
        w: [t["id"] for t in _list(client, {"filter.status": w})["items"]]
        for w in ("queued", "running", "succeeded", "failed", "cancelled")
    }
    assert by_status == {
        "queued": [waiting],
        "running": [],
        "succeeded": [done],
        "failed": [],
        "cancelled": [],
    }
    both = _list(client, {"filter.status": "queued,succeeded"})
    assert both["total"] == 2
    assert [t["id"] for t in _list(client, {"filter.model": "MiniMax-H3"})["items"]] == [done]
    assert [t["id"] for t in _list(client, {"filter.model": "MiniMax-H3-Max"})["items"]] == [
        waiting
    ]
    assert _list(client, {"filter.task_type": "generation"})["total"] == 2
    assert _list(client, {"filter.task_type": "regeneration"}) == {"items": [], "total": 0}
    combined = _list(client, {"filter.model": "MiniMax-H3", "filter.status": "queued"})
    assert combined == {"items": [], "total": 0}


@pytest.mark.parametrize("form", ["repeated", "comma", "json", "brackets", "bracket-key"])
def test_list_filter_task_ids_forms(client: httpx.Client, form: str) -> None:
    a, b, c = create(client), create(client), create(client)
    params: Any = {
        "repeated": [("filter.task_ids", a), ("filter.task_ids", c)],
        "comma": {"filter.task_ids": f"{a},{c}"},
        "json": {"filter.task_ids": json.dumps([a, c])},
        "brackets": [("filter.task_ids[]", a), ("filter.task_ids[]", c)],
        "bracket-key": {"filter[task_ids]": f"{a},{c}"},
    }[form]
    out = _list(client, params)
    assert sorted(t["id"] for t in out["items"]) == sorted([a, c]) and out["total"] == 2
    assert b not in {t["id"] for t in out["items"]}
    assert _list(client, {"filter.task_ids": "999999999999999"}) == {"items": [], "total": 0}


# ================================================================ cancel and delete


def test_cancel_a_queued_task(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client, content=[text("cancel me")])
    r = client.delete(f"/v2/video_generation/{task_id}")
    assert r.status_code == 200 and r.json() == {"task_id": task_id, "action": "cancelled"}
    task = query(client, task_id)
    assert task["status"] == "cancelled" and task["usage"] == {} and task["content"] == {}
    to_end(sim)
    assert query(client, task_id)["status"] == "cancelled"  # stays cancelled, never runs
    assert [t["status"] for t in _list(client)["items"]] == ["cancelled"]
    assert _list(client, {"filter.status": "cancelled"})["total"] == 1
    stats = sim.stats()
    assert stats["made_by_prompt"] == {"cancel me": 1}
    assert stats["cancelled_by_prompt"] == {"cancel me": 1}
    assert stats["billed_by_prompt"] == {} and stats["billed_total"] == 0  # not billed
    bad_request(client.delete(f"/v2/video_generation/{task_id}"), "already cancelled")


def test_running_task_cannot_be_cancelled(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client, content=[text("running")])
    to_running(sim)
    bad_request(client.delete(f"/v2/video_generation/{task_id}"), "running")
    assert query(client, task_id)["status"] == "running"
    to_end(sim)
    assert query(client, task_id)["status"] == "succeeded"
    assert sim.stats()["billed_by_prompt"] == {"running": 1}


def test_delete_succeeded_and_failed_tasks(client: httpx.Client, sim: SimServer) -> None:
    ok = create(client)
    sim.set_faults(content_fail=1)
    failed = create(client)
    to_end(sim)
    url = query(client, ok)["content"]["url"]
    assert query(client, failed)["status"] == "failed"
    for task_id in (ok, failed):
        r = client.delete(f"/v2/video_generation/{task_id}")
        assert r.status_code == 200 and r.json() == {"task_id": task_id, "action": "deleted"}
        bad_request(client.get(f"/v2/query/video_generation/{task_id}"), "invalid task_id")
        bad_request(client.delete(f"/v2/video_generation/{task_id}"), "invalid task_id")
    assert _list(client) == {"items": [], "total": 0}
    assert web.get(url).status_code == 404  # the result is gone with the task
    assert (
        sim.stats()["made_total"] == 2 and sim.stats()["billed_total"] == 1
    )  # deleting refunds nothing


def test_delete_unknown_task_and_wrong_methods(client: httpx.Client) -> None:
    bad_request(client.delete("/v2/video_generation/123456789012345"), "invalid task_id")
    r = client.get("/v2/video_generation")
    assert r.status_code == 405 and r.json()["type"] == "error"
    r = client.post("/v2/query/video_generation", json={})
    assert r.status_code == 405
    r = client.get("/v2/nothing_here")
    assert r.status_code == 404 and r.json()["type"] == "error"


def test_cancel_races_across_processes_exactly_one_wins(tmp_path: Path) -> None:
    """Two provider processes on one state file: two DELETEs of one queued task, one cancel."""
    state = str(tmp_path / "sim.sqlite3")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    procs, urls = [], []
    try:
        for _ in range(2):
            p = subprocess.Popen(
                [sys.executable, "-m", "app.sim", "--state", state, "--latency", "60"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            procs.append(p)
            urls.append(json.loads(p.stdout.readline())["base_url"])  # type: ignore[union-attr]
        for round_ in range(5):
            r = web.post(
                urls[0] + "/v2/video_generation",
                json=body(content=[text(f"race {round_}")]),
                headers=AUTH,
            )
            task_id = r.json()["task_id"]
            answers: list[httpx.Response] = []
            barrier = threading.Barrier(2)

            def cancel(url: str) -> None:
                barrier.wait()
                answers.append(web.delete(f"{url}/v2/video_generation/{task_id}", headers=AUTH))

            threads = [threading.Thread(target=cancel, args=(u,)) for u in urls]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(a.status_code for a in answers) == [200, 400], [a.text for a in answers]
            loser = next(a for a in answers if a.status_code == 400)
            bad_request(loser, "already cancelled")
            q = web.get(f"{urls[1]}/v2/query/video_generation/{task_id}", headers=AUTH).json()
            assert q["task"]["status"] == "cancelled"
        shared = web.get(urls[1] + "/_sim/stats").json()["shared"]
        assert sum(shared["cancelled_by_prompt"].values()) == 5
    finally:
        for p in procs:
            p.terminate()
            p.wait(timeout=10)


# ================================================================ uploads


def test_upload_answers_a_file_object(client: httpx.Client) -> None:
    data = image_bytes(640, 480)
    r = upload(client, data, "frame.png")
    assert r.status_code == 200
    out = r.json()
    assert out["base_resp"] == {"status_code": 0, "status_msg": "success"}
    f = out["file"]
    assert set(f) == {"file_id", "bytes", "created_at", "filename", "purpose"}
    assert isinstance(f["file_id"], int) and f["bytes"] == len(data)
    assert f["filename"] == "frame.png" and f["purpose"] == "video_generation_input"
    assert isinstance(f["created_at"], int)


def test_upload_path_of_minimax_cli_too(client: httpx.Client) -> None:
    r = upload(client, image_bytes(640, 480), "frame.png", path="/v1/files")
    assert r.json()["base_resp"]["status_code"] == 0 and r.json()["file"]["file_id"]


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("frame.png", lambda: image_bytes(640, 480)),
        ("frame.jpg", lambda: image_bytes(640, 480, "JPEG")),
        ("frame.webp", lambda: image_bytes(640, 480, "WEBP")),
        ("frame.heic", lambda: heif_bytes(4032, 3024)),
        ("clip.mp4", lambda: video_bytes(3.0)),
        ("clip-2s.mp4", lambda: video_bytes(2.0)),
        ("clip-15s.mp4", lambda: video_bytes(15.0, 24, (160, 120))),
        ("clip-ntsc.mp4", lambda: video_bytes(3.0, __import__("fractions").Fraction(24000, 1001))),
        ("clip-60.mp4", lambda: video_bytes(2.0, 60)),
        ("clip.mov", lambda: video_bytes(3.0, 24, container="mov")),
        ("clip-h265.mp4", lambda: video_bytes(3.0, 30, codec="libx265")),
        ("clip-silent.mp4", lambda: video_bytes(3.0, audio=False)),
        ("voice.wav", lambda: audio_bytes(3.0)),
        ("voice.mp3", lambda: audio_bytes(3.0, "mp3")),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_upload_accepts_documented_inputs(
    client: httpx.Client, name: str, data: Lazy[bytes]
) -> None:
    r = upload(client, now(data), name)
    assert r.status_code == 200 and r.json()["base_resp"]["status_code"] == 0, r.text


def _padded(data: bytes, size: int) -> bytes:
    """A file with an ISO-BMFF ``free`` box (MP4) or trailing bytes making it ``size`` long."""
    pad = size - len(data)
    if data[4:8] == b"ftyp":
        return data + pad.to_bytes(4, "big") + b"free" + b"\0" * (pad - 8)
    return data + b"\0" * pad


BAD_UPLOADS = [
    ("gif", "a.gif", lambda: image_bytes(640, 480, "GIF"), "GIF"),
    ("small-image", "a.png", lambda: image_bytes(200, 200), "256-5760"),
    ("aspect", "a.png", lambda: image_bytes(1500, 500), "aspect ratio"),
    ("big-image", "a.png", lambda: _padded(image_bytes(640, 480), 30 * 1024 * 1024 + 1), "30 MB"),
    ("short-video", "a.mp4", lambda: video_bytes(1.0), "2-15 s"),
    ("long-video", "a.mp4", lambda: video_bytes(16.0, 24, (160, 120)), "2-15 s"),
    ("slow-fps", "a.mp4", lambda: video_bytes(3.0, 10), "23.976-60"),
    ("fast-fps", "a.mp4", lambda: video_bytes(2.0, 90), "23.976-60"),
    ("codec", "a.mp4", lambda: video_bytes(3.0, 24, codec="mpeg4"), "codec"),
    ("big-video", "a.mp4", lambda: _padded(video_bytes(3.0), 50 * 1024 * 1024 + 1), "50 MB"),
    ("short-audio", "a.wav", lambda: audio_bytes(1.0), "2-15 s"),
    ("long-audio", "a.mp3", lambda: audio_bytes(16.0, "mp3"), "2-15 s"),
    ("big-audio", "a.wav", lambda: _padded(audio_bytes(3.0), 15 * 1024 * 1024 + 1), "15 MB"),
    ("noise", "a.bin", b"\x13\x37" * 4000, "not a readable"),
]


@pytest.mark.parametrize(
    ("case", "name", "data", "words"), BAD_UPLOADS, ids=[c[0] for c in BAD_UPLOADS]
)
def test_upload_refuses_out_of_limit_inputs(
    client: httpx.Client, case: str, name: str, data: Lazy[bytes], words: str
) -> None:
    r = upload(client, now(data), name)
    assert r.status_code == 200
    resp = r.json()["base_resp"]
    assert resp["status_code"] == 2013 and words.lower() in resp["status_msg"].lower(), resp
    assert "file" not in r.json()


def test_upload_needs_file_and_purpose(client: httpx.Client) -> None:
    r = client.post("/v1/files/upload", files={"file": ("a.png", image_bytes(640, 480))})
    assert (
        r.json()["base_resp"]["status_code"] == 2013
        and "purpose" in r.json()["base_resp"]["status_msg"]
    )
    r = client.post(
        "/v1/files/upload",
        data={"purpose": "video_generation_input"},
        files={"other": ("a.png", b"x")},
    )
    assert (
        r.json()["base_resp"]["status_code"] == 2013
        and "file" in r.json()["base_resp"]["status_msg"]
    )
    r = client.post("/v1/files/upload", json={"purpose": "video_generation_input"})
    assert (
        r.json()["base_resp"]["status_code"] == 2013
        and "multipart" in r.json()["base_resp"]["status_msg"]
    )


def test_other_purposes_are_stored_but_not_video_inputs(
    client: httpx.Client, sim: SimServer
) -> None:
    r = upload(client, b"any bytes", "notes.txt", purpose="retrieval")
    assert r.json()["base_resp"]["status_code"] == 0
    ref = f"mm_file://{r.json()['file']['file_id']}"
    bad_request(
        client.post("/v2/video_generation", json=body(content=[text(), image(ref, "first_frame")])),
        "purpose=video_generation_input",
    )
    assert made(sim) == 0


def test_mm_file_inputs_in_a_create(client: httpx.Client, sim: SimServer) -> None:
    frame = uploaded(client, image_bytes(900, 1200, "JPEG"), "portrait.jpg")
    clip = uploaded(client, video_bytes(3.0), "clip.mp4")
    sound = uploaded(client, audio_bytes(4.0), "voice.wav")
    first = create(client, content=[text(), image(frame, "first_frame")], ratio="adaptive")
    refs = create(
        client,
        content=[text(), image(frame, "reference_image"), video(clip), audio(sound)],
        duration=6,
        ratio="adaptive",
    )
    to_end(sim)
    first_task = query(client, first)
    assert _size(web.get(first_task["content"]["url"]).content) == (768, 1024)
    refs_task = query(client, refs)
    assert refs_task["modality"] == "reference"
    assert refs_task["usage"] == {
        "total_seconds": 9,
        "input_seconds": 3,
        "output_seconds": 6,
        "input_image_count": 1,
        "input_audio_seconds": 4,
    }
    # a file used as the wrong kind
    bad_request(
        client.post(
            "/v2/video_generation", json=body(content=[text(), image(sound, "first_frame")])
        ),
        "holds audio",
    )
    bad_request(
        client.post("/v2/video_generation", json=body(content=[text(), audio(clip)])), "holds video"
    )


def test_mm_file_lives_7_days(client: httpx.Client, sim: SimServer) -> None:
    ref = uploaded(client, image_bytes(640, 480), "frame.png")
    _advance(sim, 7 * DAY - 60)
    assert create(client, content=[text(), image(ref, "first_frame")])
    _advance(sim, 120)
    bad_request(
        client.post("/v2/video_generation", json=body(content=[text(), image(ref, "first_frame")])),
        "expired",
    )


def test_multipart_over_64_mb_refused(client: httpx.Client) -> None:
    r = upload(client, b"\0" * (64 * 1024 * 1024 + 1), "huge.bin")
    assert (
        r.json()["base_resp"]["status_code"] == 2013
        and "64 MB" in r.json()["base_resp"]["status_msg"]
    )


# ================================================================ usage


def test_usage_counts_what_the_docs_describe(client: httpx.Client, sim: SimServer) -> None:
    text_only = create(client, duration=7)
    frames = create(
        client,
        content=[
            text(),
            image(image_url(640, 480), "first_frame"),
            image(image_url(640, 480), "last_frame"),
        ],
        duration=5,
    )
    public_refs = create(
        client,
        content=[
            text(),
            image(PUBLIC, "reference_image"),
            image(PUBLIC, "reference_image"),
            video(PUBLIC),
            audio(PUBLIC),
        ],
        duration=4,
    )
    to_end(sim)
    assert query(client, text_only)["usage"] == {
        "total_seconds": 7,
        "input_seconds": 0,
        "output_seconds": 7,
        "input_image_count": 0,
        "input_audio_seconds": 0,
    }
    assert query(client, frames)["usage"]["input_image_count"] == 2
    assert query(client, frames)["modality"] == "first_last_frame"
    # public URLs are not fetched from loopback: each video/audio counts 5 s (docs/DECISIONS.md)
    assert query(client, public_refs)["usage"] == {
        "total_seconds": 9,
        "input_seconds": 5,
        "output_seconds": 4,
        "input_image_count": 2,
        "input_audio_seconds": 5,
    }


# ================================================================ faults


def test_fault_lost_create_answer_task_exists(client: httpx.Client, sim: SimServer) -> None:
    sim.set_faults(lose_create_response=1)
    with pytest.raises(httpx.RemoteProtocolError):
        client.post("/v2/video_generation", json=body(content=[text("lost")]))
    listed = _list(client)
    assert listed["total"] == 1 and listed["items"][0]["status"] == "queued"
    assert sim.stats()["made_by_prompt"] == {"lost": 1}
    assert create(client)  # the next create is answered


def test_fault_delayed_answer_times_out_task_exists(sim: SimServer) -> None:
    sim.set_faults(delay_create_response=1.0)
    with web.Client(base_url=sim.base_url, headers=AUTH, timeout=0.3) as c:
        with pytest.raises(httpx.ReadTimeout):
            c.post("/v2/video_generation", json=body(content=[text("late")]))
    assert sim.stats()["made_by_prompt"] == {"late": 1}


@pytest.mark.parametrize("retry_after", [None, 3])
def test_fault_rate_limit_429_with_retry_after(
    client: httpx.Client, sim: SimServer, retry_after: float | None
) -> None:
    sim.set_faults(rate_limit=2, **({"retry_after": retry_after} if retry_after else {}))
    r = client.post("/v2/video_generation", json=body())
    refused(r, 429, "rate_limit_error", 1002, "rate limit")
    assert r.headers["Retry-After"] == str(retry_after or 1)
    r = client.get("/v2/query/video_generation")
    refused(r, 429, "rate_limit_error", 1002)
    assert made(sim) == 0
    assert create(client)


def test_fault_rate_limit_on_query_and_delete(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client)
    sim.set_faults(rate_limit=2)
    refused(client.get(f"/v2/query/video_generation/{task_id}"), 429, "rate_limit_error", 1002)
    refused(client.delete(f"/v2/video_generation/{task_id}"), 429, "rate_limit_error", 1002)
    assert query(client, task_id)["status"] == "queued"  # the refused DELETE did nothing


def test_fault_rate_limit_creates_only(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client)
    sim.set_faults(rate_limit_creates=1)
    assert query(client, task_id)["status"] == "queued"
    refused(client.post("/v2/video_generation", json=body()), 429, "rate_limit_error", 1002)


@pytest.mark.parametrize(
    ("fault", "status", "error_type", "code"),
    [
        ({"insufficient_balance": 1}, 402, "insufficient_balance_error", 1008),
        ({"input_sensitive": 1}, 422, "unprocessable_entity_error", 1026),
        ({"create_error": 1, "create_error_code": 1028}, 402, "insufficient_balance_error", 1028),
        ({"create_error": 1, "create_error_code": 1030}, 402, "insufficient_balance_error", 1030),
        ({"create_error": 1, "create_error_code": 2061}, 400, "bad_request_error", 2061),
        ({"create_error": 1, "create_error_code": 2049}, 401, "authorized_error", 2049),
        ({"create_error": 1, "create_error_code": 1033}, 500, "server_error", 1033),
        ({"overloaded": 1}, 529, "overloaded_error", 1000),
        ({"server_error": 1}, 500, "server_error", 1000),
        ({"server_error_creates": 1}, 500, "server_error", 1000),
    ],
    ids=["402", "422", "1028", "1030", "2061", "2049", "1033", "529", "500", "500-creates"],
)
def test_fault_refusals_make_nothing(
    client: httpx.Client,
    sim: SimServer,
    fault: dict[str, Any],
    status: int,
    error_type: str,
    code: int,
) -> None:
    sim.set_faults(**fault)
    refused(
        client.post("/v2/video_generation", json=body(content=[text("refused")])),
        status,
        error_type,
        code,
    )
    assert sim.stats()["made_by_prompt"] == {}
    assert create(client)  # one-shot: the next create works


def test_fault_server_error_after_create_task_exists(client: httpx.Client, sim: SimServer) -> None:
    sim.set_faults(server_error_after_create=1)
    refused(
        client.post("/v2/video_generation", json=body(content=[text("made")])),
        500,
        "server_error",
        1000,
    )
    assert sim.stats()["made_by_prompt"] == {"made": 1}
    assert _list(client)["total"] == 1


def test_fault_server_error_on_query_and_list(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client)
    sim.set_faults(server_error=2)
    refused(client.get(f"/v2/query/video_generation/{task_id}"), 500, "server_error", 1000)
    refused(client.get("/v2/query/video_generation"), 500, "server_error", 1000)
    assert query(client, task_id)["id"] == task_id


@pytest.mark.parametrize("word", ["Success", "completed", "expired", ""])
def test_fault_unknown_status_word(client: httpx.Client, sim: SimServer, word: str) -> None:
    task_id = create(client)
    to_end(sim)
    sim.set_faults(status_word=word, status_word_queries=1)
    assert query(client, task_id)["status"] == word
    assert query(client, task_id)["status"] == "succeeded"


def test_fault_succeeded_without_url(client: httpx.Client, sim: SimServer) -> None:
    sim.set_faults(success_without_file=1)
    task_id = create(client)
    to_end(sim)
    task = query(client, task_id)
    assert (
        task["status"] == "succeeded"
        and task["content"] == {}
        and task["usage"]["output_seconds"] == 4
    )


def test_fault_expired_url_until_queried_again(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client)
    to_end(sim)
    sim.set_faults(expired_url=1)
    dead = query(client, task_id)["content"]["url"]
    for _ in range(2):  # the same link stays dead
        r = web.get(dead)
        assert r.status_code == 403 and b"expired" in r.content
    fresh = query(client, task_id)["content"]["url"]
    assert fresh != dead and web.get(fresh).status_code == 200


@pytest.mark.parametrize("code", [1027, 1026])
def test_fault_failed_with_an_error_code(client: httpx.Client, sim: SimServer, code: int) -> None:
    sim.set_faults(content_fail=1, content_fail_code=code)
    task_id = create(client, content=[text("fails")])
    to_running(sim)
    assert query(client, task_id)["status"] == "running"
    to_end(sim)
    task = query(client, task_id)
    assert task["status"] == "failed"
    assert task["error"]["code"] == str(code) and isinstance(task["error"]["code"], str)
    assert task["error"]["message"]
    assert task["usage"] == {} and task["content"] == {}
    stats = sim.stats()
    assert stats["made_by_prompt"] == {"fails": 1} and stats["billed_by_prompt"] == {}


def test_fault_slow_holds_the_task_running(client: httpx.Client, sim: SimServer) -> None:
    sim.set_faults(slow=600)
    slow = create(client, content=[text("slow")])
    sim.set_faults(slow=0)
    normal = create(client)
    to_end(sim)
    assert query(client, normal)["status"] == "succeeded"
    assert query(client, slow)["status"] == "running"
    _advance(sim, 590)
    assert query(client, slow)["status"] == "running"
    _advance(sim, 20)
    assert query(client, slow)["status"] == "succeeded"


def test_fault_download_faults_on_v2_links(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client)
    to_end(sim)
    url = query(client, task_id)["content"]["url"]
    sim.set_faults(expire_downloads=1)
    assert web.get(url).status_code == 403
    assert web.get(url).status_code == 200
    sim.set_faults(truncate_downloads=1)
    with pytest.raises(httpx.RemoteProtocolError):
        web.get(url)


def test_sim_tasks_lists_v2_tasks(client: httpx.Client, sim: SimServer) -> None:
    task_id = create(client, content=[text("listed")])
    tasks = client.get("/_sim/tasks").json()["tasks"]
    assert [(t["task_id"], t["protocol"], t["prompt"], t["status"]) for t in tasks] == [
        (task_id, "v2", "listed", "queued")
    ]
    assert tasks[0]["params"]["model"] == "MiniMax-H3"


def test_random_faults_never_refuse_a_made_task(client: httpx.Client, sim: SimServer) -> None:
    sim.set_faults(
        random={
            "lose_create_response": 0.2,
            "rate_limit": 0.2,
            "server_error": 0.15,
            "server_error_after_create": 0.15,
            "overloaded": 0.1,
        }
    )
    outcomes: dict[str, str] = {}
    for i in range(40):
        prompt = f"soak {i:02d}"
        try:
            r = client.post("/v2/video_generation", json=body(content=[text(prompt)]))
            outcomes[prompt] = {200: "created", 429: "refused", 529: "refused"}.get(
                r.status_code, "ambiguous"
            )
            if r.status_code == 500 and made(sim) and sim.stats()["made_by_prompt"].get(prompt):
                outcomes[prompt] = "ambiguous-made"
        except httpx.TransportError:
            outcomes[prompt] = "lost"
    made_by = sim.stats()["made_by_prompt"]
    assert {"created", "refused", "lost"} <= set(outcomes.values())
    for prompt, outcome in outcomes.items():
        if outcome == "refused":
            assert made_by.get(prompt, 0) == 0, prompt
        if outcome in ("created", "lost", "ambiguous-made"):
            assert made_by.get(prompt) == 1, prompt


# ================================================================ TLS on the same port


def test_tls_and_plain_http_on_one_port(tmp_path: Path) -> None:
    """MiniMax's CLI rewrites download links to https: the same port answers TLS too."""

    sim = start_sim(SimConfig(preparing=0.0, queueing=QUEUED, processing=RUNNING, tls=True))
    try:
        _tls_round_trip(sim)
    finally:
        sim.stop()
    assert not sim.tls_cert.parent.exists()  # a temporary certificate goes with its server
    plain = start_sim(SimConfig())
    try:
        assert plain.tls_cert is None  # off unless asked (`slate sim` asks)
        with pytest.raises(httpx.ConnectError):
            web.get(plain.base_url.replace("http://", "https://") + "/_sim/health", verify=False)
    finally:
        plain.stop()


def _tls_round_trip(sim: SimServer) -> None:
    import ssl

    assert sim.tls_cert is not None and sim.tls_cert.is_file()
    trust = ssl.create_default_context(cafile=str(sim.tls_cert))
    secure = sim.base_url.replace("http://", "https://")
    with web.Client(base_url=secure, headers=AUTH, verify=trust, timeout=30) as tls_client:
        assert tls_client.get("/_sim/health").json()["tls_cert"] == str(sim.tls_cert)
        task_id = tls_client.post("/v2/video_generation", json=body()).json()["task_id"]
        to_end(sim)
        url = tls_client.get(f"/v2/query/video_generation/{task_id}").json()["task"]["content"][
            "url"
        ]
        assert url.startswith("http://")  # links stay plain; a client may upgrade them
        r = tls_client.get(url.replace("http://", "https://"))
        assert r.status_code == 200 and r.content[4:8] == b"ftyp"
    with pytest.raises(httpx.ConnectError):  # an untrusted certificate is refused, as it should be
        web.get(secure + "/_sim/health")
    assert web.get(sim.base_url + "/_sim/health").json()["ok"]


def test_tls_certificate_is_kept_with_the_state(tmp_path: Path) -> None:
    state = tmp_path / "demo-provider.sqlite3"
    first = start_sim(SimConfig(state_path=state, tls=True))
    second = start_sim(SimConfig(state_path=state, tls=True))
    try:
        assert first.tls_cert == second.tls_cert == tmp_path / "demo-tls" / "demo-cert.pem"
        assert (first.tls_cert.parent / "demo-key.pem").stat().st_mode & 0o077 == 0
    finally:
        first.stop()
        second.stop()


def test_http11_keep_alive_two_requests_on_one_connection(sim: SimServer) -> None:
    """The provider answers HTTP/1.1 and keeps the connection (Node's fetch, used by MiniMax's
    CLI, fails when a server closes mid-download under back-pressure)."""
    import socket as sockets

    with sockets.create_connection(("127.0.0.1", sim.port), timeout=10) as conn:
        stream = conn.makefile("rb")
        for _ in range(2):
            conn.sendall(b"GET /_sim/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            status = stream.readline()
            assert status.startswith(b"HTTP/1.1 200"), status
            length = 0
            while (line := stream.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            assert json.loads(stream.read(length))["ok"] is True
