"""The V2 adapter's parsing and classification, against canned answers (httpx.MockTransport), and
the V1 fidelity codes (1028/1030/2061, 1004's platform words)."""

from __future__ import annotations

import json
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from app.domain.protocols import V1, V2
from app.providers.base import Ambiguous, Refused, VideoApi
from app.providers.minimax import MiniMaxProvider

KEY = "sk-unit-SECRET-0123456789"
TASK = {
    "id": "t-1",
    "model": "MiniMax-H3",
    "status": "succeeded",
    "error": {"code": "", "message": ""},
    "created_at": 1786000000,
    "updated_at": 1786000020,
    "content": {"url": "https://cdn.example.com/out.mp4?sig=1"},
    "resolution": "768P",
    "duration": 6,
    "ratio": "16:9",
    "task_type": "generation",
    "modality": "text",
    "usage": {
        "total_seconds": 6,
        "input_seconds": 0,
        "output_seconds": 6,
        "input_image_count": 0,
        "input_audio_seconds": 0,
    },
}


def make(
    handler: Callable[[httpx.Request], httpx.Response], base_url: str = "https://api.minimax.io"
) -> MiniMaxProvider:
    return MiniMaxProvider(KEY, base_url, transport=httpx.MockTransport(handler))


def v2(handler: Callable[[httpx.Request], httpx.Response], **kw: Any) -> VideoApi:
    return make(handler, **kw).api(V2)


def answer(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Callable:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            status, json=payload, headers={"Trace-Id": "trace-1", **(headers or {})}
        )

    return handler


def error(status: int, kind: str, message: str) -> Callable:
    return answer(
        {
            "type": "error",
            "error": {"type": kind, "message": message, "http_code": str(status)},
            "request_id": "r1",
        },
        status,
    )


def raising(exc: type[Exception]) -> Callable:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc("boom", request=request)

    return handler


def test_the_provider_serves_each_protocol_with_its_own_capabilities():
    p = make(answer({}))
    assert p.api(V1) is p and p.api(V2).protocol == V2
    assert not p.caps.can_list_tasks and not p.caps.can_cancel
    caps = p.api(V2).caps
    assert caps.can_list_tasks and caps.can_cancel and caps.can_upload
    assert isinstance(p.api(V2), VideoApi)
    assert KEY not in repr(p.api(V2))


# -- create ----------------------------------------------------------------------------------
async def test_create_posts_json_with_bearer_and_returns_the_task_id():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            200, json={"task_id": "106916112212032"}, headers={"Trace-Id": "tr-9"}
        )

    body = {
        "model": "MiniMax-H3",
        "content": [{"type": "text", "text": "p"}],
        "resolution": "768P",
        "duration": 6,
        "ratio": "16:9",
    }
    created = await v2(handler).create_video(body)
    assert created.task_id == "106916112212032" and created.raw["_trace_id"] == "tr-9"
    req = seen[0]
    assert (req.method, req.url.path) == ("POST", "/v2/video_generation")
    assert req.headers["authorization"] == f"Bearer {KEY}"
    assert req.headers["content-type"] == "application/json"
    assert json.loads(req.content) == body


async def test_create_answer_without_task_id_or_not_json_is_ambiguous():
    with pytest.raises(Ambiguous, match="no task_id"):
        await v2(answer({"base_resp": {"status_code": 0}})).create_video({})

    def html(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="<html>ok</html>")

    with pytest.raises(Ambiguous, match="not a JSON object"):
        await v2(html).create_video({})


@pytest.mark.parametrize(
    ("status", "kind", "message", "code"),
    [
        (400, "bad_request_error", "invalid params, duration 3 (2013)", 2013),
        (401, "authorized_error", "login fail (1004)", 1004),
        (402, "insufficient_balance_error", "insufficient balance (1008)", 1008),
        (422, "unprocessable_entity_error", "input new_sensitive (1026)", 1026),
        (400, "bad_request_error", "model not in plan (2061)", 2061),
        (402, "insufficient_balance_error", "quota used up (1028)", 1028),
        (400, "bad_request_error", "no code at the end", 2013),
    ],
)
async def test_definitive_statuses_are_refused_with_their_code(status, kind, message, code):
    with pytest.raises(Refused) as got:
        await v2(error(status, kind, message)).create_video({})
    assert got.value.code == code and not got.value.never_sent
    assert f"HTTP {status}" in got.value.message
    assert got.value.raw["_http_status"] == status


async def test_429_is_a_rate_limit_that_backs_off():
    handler = error(429, "rate_limit_error", "rate limit exceeded(RPM) (1002)")

    def with_header(request: httpx.Request) -> httpx.Response:
        r = handler(request)
        r.headers["Retry-After"] = "2"
        return r

    with pytest.raises(Refused) as got:
        await v2(with_header).create_video({})
    assert got.value.rate_limited and got.value.retry_after == 2.0


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (500, "internal server error (1000)"),
        (529, "overloaded (1000)"),
        (503, "busy"),
        (404, "no such endpoint (2013)"),
        (408, "timeout"),
        (413, "too large"),
        (302, "moved"),
    ],
)
async def test_other_statuses_are_ambiguous(status, message):
    with pytest.raises(Ambiguous) as got:
        await v2(error(status, "server_error", message)).create_video({})
    assert f"HTTP {status}" in got.value.message


@pytest.mark.parametrize("code", [1028, 1030, 2061])
async def test_cli_only_codes_are_definitive_whatever_the_status(code):
    with pytest.raises(Refused) as got:
        await v2(error(500, "server_error", f"quota or plan ({code})")).create_video({})
    assert got.value.code == code


@pytest.mark.parametrize(
    ("exc", "outcome", "never_sent"),
    [
        (httpx.ConnectError, Refused, True),
        (httpx.ConnectTimeout, Refused, True),
        (httpx.ReadTimeout, Ambiguous, None),
        (httpx.WriteTimeout, Ambiguous, None),
        (httpx.RemoteProtocolError, Ambiguous, None),
        (httpx.ReadError, Ambiguous, None),
    ],
)
async def test_transport_outcomes(exc, outcome, never_sent):
    with pytest.raises(outcome) as got:
        await v2(raising(exc)).create_video({})
    if never_sent is not None:
        assert got.value.never_sent is never_sent


@pytest.mark.parametrize(
    ("base", "host", "other"),
    [
        ("https://api.minimax.io", "api.minimax.io", "https://api.minimaxi.com"),
        ("https://api.minimaxi.com", "api.minimaxi.com", "https://api.minimax.io"),
    ],
)
async def test_an_auth_refusal_names_the_platform_of_the_base_url(base, host, other):
    with pytest.raises(Refused) as got:
        await v2(error(401, "authorized_error", "login fail (1004)"), base_url=base).create_video(
            {}
        )
    assert host in got.value.message and other in got.value.message
    assert "works only on the host" in got.value.message
    v1 = make(answer({"base_resp": {"status_code": 1004, "status_msg": "login fail"}}), base)
    with pytest.raises(Refused) as got1:
        await v1.create_video({})
    assert host in got1.value.message and other in got1.value.message


@pytest.mark.parametrize("code", [1028, 1030, 2061])
async def test_v1_cli_only_codes_are_refusals(code):
    p = make(answer({"task_id": "", "base_resp": {"status_code": code, "status_msg": "x"}}))
    with pytest.raises(Refused) as got:
        await p.create_video({})
    assert got.value.code == code


async def test_the_key_never_reaches_a_raw_answer_or_a_message():
    echo = {
        "type": "error",
        "error": {
            "type": "authorized_error",
            "message": f"bad key {KEY} (1004)",
            "http_code": "401",
        },
    }

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, json=echo, headers={"Trace-Id": f"t-{KEY}"})

    with pytest.raises(Refused) as got:
        await v2(handler).create_video({})
    text = json.dumps(got.value.raw) + got.value.message
    assert KEY not in text and "***" in text


# -- query -----------------------------------------------------------------------------------
async def test_query_by_path_returns_the_raw_word_url_and_usage():
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        return httpx.Response(200, json={"task": TASK})

    st = await v2(handler).query_video("t-1")
    assert seen == ["/v2/query/video_generation/t-1"]
    assert (st.task_id, st.status, st.url) == ("t-1", "succeeded", TASK["content"]["url"])
    assert st.usage == TASK["usage"] and st.file_id is None and st.error_code is None


async def test_query_of_a_failure_keeps_its_code_and_words():
    failed = {
        **TASK,
        "status": "failed",
        "content": {},
        "usage": {},
        "error": {"code": "1027", "message": "output sensitive"},
    }
    st = await v2(answer({"task": failed})).query_video("t-1")
    assert (st.status, st.error_code, st.error_message, st.url, st.usage) == (
        "failed",
        1027,
        "output sensitive",
        None,
        None,
    )


async def test_query_without_a_task_object_is_ambiguous_and_a_400_is_refused():
    with pytest.raises(Ambiguous):
        await v2(answer({"items": []})).query_video("t-1")
    with pytest.raises(Refused):
        await v2(error(400, "bad_request_error", "invalid task_id (2013)")).query_video("x")


async def test_a_status_word_off_the_whitelist_is_returned_raw():
    st = await v2(answer({"task": {**TASK, "status": "Success"}})).query_video("t-1")
    assert st.status == "Success"  # the domain maps it to unknown


# -- list ------------------------------------------------------------------------------------
def listing(tasks: list[dict[str, Any]]) -> Callable[[httpx.Request], httpx.Response]:
    """A list endpoint over ``tasks`` (newest first), paging as documented."""

    def handler(request: httpx.Request) -> httpx.Response:
        q = parse_qs(urlsplit(str(request.url)).query)
        page, size = int(q["page_num"][0]), int(q["page_size"][0])
        rows = [t for t in tasks if "filter.model" not in q or t["model"] in q["filter.model"]]
        handler.pages.append(page)  # type: ignore[attr-defined]
        return httpx.Response(
            200, json={"items": rows[(page - 1) * size : page * size], "total": len(rows)}
        )

    handler.pages = []  # type: ignore[attr-defined]
    return handler


def listed_task(i: int, at: int, model: str = "MiniMax-H3") -> dict[str, Any]:
    return {**TASK, "id": f"t{i}", "created_at": at, "model": model, "status": "queued"}


async def test_list_pages_until_it_reaches_back_past_the_window():
    tasks = [listed_task(i, 10_000 - i) for i in range(350)]  # newest first
    handler = listing(tasks)
    found = await v2(handler).list_tasks(9_700, 9_760, "MiniMax-H3")
    assert [t.task_id for t in found] == [f"t{i}" for i in range(240, 301)]
    assert handler.pages == [1, 2, 3, 4]  # page 4 holds t300..t349, older than the window
    one = found[0]
    assert (one.model, one.status, one.facts["duration"], one.facts["ratio"]) == (
        "MiniMax-H3",
        "queued",
        6,
        "16:9",
    )


async def test_list_filters_by_model_and_stops_at_the_total():
    tasks = [
        listed_task(i, 5000 - i, "MiniMax-H3-Max" if i % 2 else "MiniMax-H3") for i in range(20)
    ]
    handler = listing(tasks)
    found = await v2(handler).list_tasks(0, 10_000, "MiniMax-H3-Max")
    assert len(found) == 10 and {t.model for t in found} == {"MiniMax-H3-Max"}
    assert handler.pages == [1]


async def test_a_list_too_long_to_read_is_ambiguous_never_silently_cut():
    def endless(request: httpx.Request) -> httpx.Response:
        q = parse_qs(urlsplit(str(request.url)).query)
        page = int(q["page_num"][0])
        items = [listed_task(page * 1000 + i, 2_000_000 - page) for i in range(100)]
        return httpx.Response(200, json={"items": items, "total": 10**9})

    with pytest.raises(Ambiguous, match="not read to its end"):
        await v2(endless).list_tasks(0, 10)


# -- cancel and upload ---------------------------------------------------------------------
async def test_cancel_sends_delete_by_path():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"task_id": "t-1", "action": "cancelled"})

    got = await v2(handler).cancel_video("t-1")
    assert (got.task_id, got.action) == ("t-1", "cancelled")
    assert (seen[0].method, seen[0].url.path) == ("DELETE", "/v2/video_generation/t-1")
    with pytest.raises(Ambiguous):
        await v2(answer({"task_id": "t-1", "action": "paused"})).cancel_video("t-1")
    with pytest.raises(Refused):
        await v2(error(400, "bad_request_error", "task is running (2013)")).cancel_video("t-1")


async def test_upload_is_multipart_with_the_generation_purpose():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            200,
            json={
                "file": {"file_id": 364001, "bytes": 5, "purpose": "video_generation_input"},
                "base_resp": {"status_code": 0, "status_msg": "success"},
            },
        )

    up = await v2(handler).upload_file(b"\x00clip", "clip.mp4")
    assert (up.file_id, up.url) == ("364001", "mm_file://364001")
    req = seen[0]
    assert (req.method, req.url.path) == ("POST", "/v1/files/upload")
    assert req.headers["content-type"].startswith("multipart/form-data")
    body = req.content
    assert b'name="purpose"' in body and b"video_generation_input" in body
    assert b'filename="clip.mp4"' in body and b"\x00clip" in body
    refused = answer({"base_resp": {"status_code": 2013, "status_msg": "bad file"}})
    with pytest.raises(Refused):
        await v2(refused).upload_file(b"x", "x.png")
    with pytest.raises(Ambiguous):
        await v2(answer({"file": {}, "base_resp": {"status_code": 0}})).upload_file(b"x", "x")
