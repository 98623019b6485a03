"""The MiniMax adapter's parsing and classification, against canned responses (httpx.MockTransport)."""

from __future__ import annotations

import json
from typing import Any, Callable

import httpx
import pytest

from app.domain.capabilities import Capabilities
from app.providers.base import Ambiguous, Provider, Refused
from app.providers.minimax import ENDPOINTS, MiniMaxProvider, endpoint_for

KEY = "sk-unit-SECRET-0123456789"


def make(handler: Callable[[httpx.Request], httpx.Response], **kw: Any) -> MiniMaxProvider:
    return MiniMaxProvider(KEY, transport=httpx.MockTransport(handler), **kw)


def answer(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Callable:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            status, json=payload, headers={"Trace-Id": "trace-1", **(headers or {})}
        )

    return handler


def base(code: int, msg: str = "x", **extra: Any) -> dict[str, Any]:
    return {**extra, "base_resp": {"status_code": code, "status_msg": msg}}


def raising(exc: type[Exception]) -> Callable:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc("boom", request=request)

    return handler


# ---------------------------------------------------------------- construction


def test_plain_http_refused_except_loopback() -> None:
    with pytest.raises(ValueError, match="base_url"):
        MiniMaxProvider(KEY, "http://api.minimax.io")
    for url in ("http://127.0.0.1:9", "http://127.5.5.5:9", "http://[::1]:9", "http://localhost:9"):
        assert MiniMaxProvider(KEY, url).endpoint == "local"


def test_endpoints_derived() -> None:
    assert ENDPOINTS == {"global": "https://api.minimax.io", "cn": "https://api.minimaxi.com"}
    assert endpoint_for("https://api.minimax.io") == "global"
    assert endpoint_for("https://api.minimaxi.com") == "cn"
    assert endpoint_for("http://127.0.0.1:8000") == "local"
    p = MiniMaxProvider(KEY, "https://api.minimaxi.com", name="minimax")
    assert (p.name, p.endpoint, p.caps.can_list_tasks) == ("minimax", "cn", False)
    assert isinstance(p, Provider)
    assert KEY not in repr(p)


def test_empty_key_refused() -> None:
    with pytest.raises(ValueError):
        MiniMaxProvider("  ")


# ---------------------------------------------------------------- create


async def test_create_ok_and_trace_id() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            200, json=base(0, "success", task_id=106916112212032), headers={"Trace-Id": "abc"}
        )

    p = make(handler)
    created = await p.create_video({"model": "MiniMax-Hailuo-2.3", "prompt": "p"})
    assert created.task_id == "106916112212032"
    assert created.raw["_trace_id"] == "abc"
    assert seen[0].url.path == "/v1/video_generation"
    assert seen[0].headers["Authorization"] == f"Bearer {KEY}"
    assert json.loads(seen[0].content) == {"model": "MiniMax-Hailuo-2.3", "prompt": "p"}


@pytest.mark.parametrize("code", [1002, 1004, 1008, 1026, 1039, 2013, 2049])
async def test_documented_refusals(code: int) -> None:
    p = make(answer(base(code, "refused", task_id="")))
    with pytest.raises(Refused) as info:
        await p.create_video({})
    assert info.value.code == code
    assert info.value.never_sent is False
    assert info.value.raw is not None and info.value.raw["_trace_id"] == "trace-1"


async def test_rate_limit_retry_after() -> None:
    p = make(
        answer(base(1002, "rate limit exceeded(RPM)", task_id=""), headers={"Retry-After": "7"})
    )
    with pytest.raises(Refused) as info:
        await p.create_video({})
    assert info.value.rate_limited and info.value.retry_after == 7.0


@pytest.mark.parametrize("code", [1000, 1001, 1024, 1033, 1013, 4242])
async def test_ambiguous_codes(code: int) -> None:
    p = make(answer(base(code, "oops", task_id="")))
    with pytest.raises(Ambiguous) as info:
        await p.create_video({})
    assert info.value.code == code


@pytest.mark.parametrize("status", [500, 502, 503, 504, 408])
async def test_http_5xx_is_ambiguous(status: int) -> None:
    p = make(lambda r: httpx.Response(status, text="<html>bad gateway</html>"))
    with pytest.raises(Ambiguous):
        await p.create_video({})


async def test_http_429_is_rate_limit_refusal() -> None:
    p = make(lambda r: httpx.Response(429, text="slow down", headers={"Retry-After": "3"}))
    with pytest.raises(Refused) as info:
        await p.create_video({})
    assert info.value.code == 1002 and info.value.retry_after == 3.0


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b"", b'{"task_id": "1"'])
async def test_unparseable_is_ambiguous(body: bytes) -> None:
    p = make(lambda r: httpx.Response(200, content=body))
    with pytest.raises(Ambiguous):
        await p.create_video({})


async def test_success_without_task_id_is_ambiguous() -> None:
    p = make(answer(base(0, "success", task_id="")))
    with pytest.raises(Ambiguous):
        await p.create_video({})


async def test_missing_base_resp_is_ambiguous() -> None:
    p = make(answer({"task_id": "1"}))
    with pytest.raises(Ambiguous):
        await p.create_video({})


@pytest.mark.parametrize("exc", [httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout])
async def test_never_sent(exc: type[Exception]) -> None:
    p = make(raising(exc))
    with pytest.raises(Refused) as info:
        await p.create_video({})
    assert info.value.never_sent is True


@pytest.mark.parametrize(
    "exc",
    [
        httpx.ReadTimeout,
        httpx.WriteTimeout,
        httpx.RemoteProtocolError,
        httpx.ReadError,
        httpx.WriteError,
    ],
)
async def test_after_send_is_ambiguous(exc: type[Exception]) -> None:
    p = make(raising(exc))
    with pytest.raises(Ambiguous):
        await p.create_video({})


# ---------------------------------------------------------------- query


@pytest.mark.parametrize(
    "word",
    [
        "Preparing",
        "Queueing",
        "Processing",
        "Success",
        "Fail",
        "completed",
        "Failed",
        "succeeded",
        "expired",
        "",
    ],
)
async def test_status_word_is_raw(word: str) -> None:
    p = make(answer(base(0, "success", task_id="7", status=word)))
    status = await p.query_video("7")
    assert status.status == word
    assert status.task_id == "7"


async def test_query_success_numbers_and_strings() -> None:
    p = make(
        answer(
            base(
                0,
                "success",
                task_id="7",
                status="Success",
                file_id=176844028768320,
                video_width="1920",
                video_height=1080,
            )
        )
    )
    status = await p.query_video("7")
    assert (status.file_id, status.width, status.height) == ("176844028768320", 1920, 1080)
    assert status.error_code is None


async def test_query_missing_status_is_empty_word() -> None:
    p = make(answer(base(0, "success", task_id="7")))
    assert (await p.query_video("7")).status == ""


async def test_query_content_fail_is_an_answer() -> None:
    p = make(answer(base(1027, "output video sensitive", task_id="7", status="Fail", file_id="")))
    status = await p.query_video("7")
    assert status.status == "Fail" and status.file_id is None
    assert status.error_code == 1027 and status.error_message == "output video sensitive"


async def test_query_request_errors_raise() -> None:
    with pytest.raises(Refused) as info:
        await make(answer(base(1002, "rate limit", status=""))).query_video("7")
    assert info.value.code == 1002
    with pytest.raises(Ambiguous):
        await make(answer(base(1000, "unknown"))).query_video("7")
    with pytest.raises(Ambiguous):
        await make(lambda r: httpx.Response(503)).query_video("7")


async def test_query_sends_task_id_parameter() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=base(0, "success", task_id="7", status="Queueing"))

    await make(handler).query_video("7")
    assert seen[0].url.path == "/v1/query/video_generation"
    assert seen[0].url.params["task_id"] == "7"


# ---------------------------------------------------------------- files


async def test_retrieve_file_id_number_and_bytes() -> None:
    file = {
        "file_id": 361721749176519,
        "bytes": "1234",
        "created_at": 1769863897,
        "filename": "output.mp4",
        "purpose": "video_generation",
        "download_url": "https://cdn/x.mp4",
    }
    info = await make(answer(base(0, "success", file=file))).retrieve_file("361721749176519")
    assert info.file_id == "361721749176519" and info.bytes == 1234
    assert info.download_url == "https://cdn/x.mp4" and info.filename == "output.mp4"


async def test_retrieve_zero_bytes_is_unknown_size() -> None:
    file = {"file_id": "5", "bytes": 0, "download_url": "https://cdn/x.mp4"}
    info = await make(answer(base(0, "success", file=file))).retrieve_file("5")
    assert info.bytes is None and info.file_id == "5"


async def test_retrieve_errors() -> None:
    with pytest.raises(Refused):
        await make(answer(base(2013, "invalid params"))).retrieve_file("5")
    with pytest.raises(Ambiguous):
        await make(answer(base(1024, "internal error"))).retrieve_file("5")


# ---------------------------------------------------------------- images


async def test_image_urls_and_string_counts() -> None:
    payload = base(
        0,
        "success",
        id="img-1",
        data={"image_urls": ["https://a/1.jpeg", "https://a/2.jpeg"]},
        metadata={"failed_count": "1", "success_count": "2"},
    )
    result = await make(answer(payload)).generate_image(
        {"model": "image-01", "prompt": "p", "n": 3}
    )
    assert [i.url for i in result.items] == ["https://a/1.jpeg", "https://a/2.jpeg"]
    assert (result.success_count, result.failed_count, result.id) == (2, 1, "img-1")


async def test_image_base64_and_number_counts() -> None:
    payload = base(
        0,
        "success",
        id=99,
        data={"image_base64": ["iVBORw0KGgo="]},
        metadata={"failed_count": 0, "success_count": 1},
    )
    result = await make(answer(payload)).generate_image({})
    assert result.items[0].data == b"\x89PNG\r\n\x1a\n"
    assert (result.success_count, result.failed_count, result.id) == (1, 0, "99")


async def test_image_refusal_and_ambiguity() -> None:
    with pytest.raises(Refused) as info:
        await make(answer(base(1026, "input new_sensitive"))).generate_image({})
    assert info.value.code == 1026
    with pytest.raises(Ambiguous):
        await make(lambda r: httpx.Response(500)).generate_image({})


# ---------------------------------------------------------------- downloads and secrets


async def test_download_has_no_authorization() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, content=b"abc", headers={"Content-Type": "video/mp4"})

    p = make(handler)
    async with p.download("https://cdn.example/x.mp4?Expires=1") as d:
        data = b"".join([c async for c in d.chunks])
    assert data == b"abc" and d.status_code == 200 and d.content_length == 3
    assert d.content_type == "video/mp4"
    assert "authorization" not in {k.lower() for k in seen[0].headers}


async def test_download_refuses_plain_http_off_loopback() -> None:
    p = make(lambda r: httpx.Response(200))
    with pytest.raises(Refused):
        async with p.download("http://cdn.example/x.mp4"):
            pass


async def test_key_never_in_raw_or_messages() -> None:
    echo = base(1004, f"bad key {KEY}", task_id="", echo={"Authorization": f"Bearer {KEY}"})
    p = make(answer(echo))
    with pytest.raises(Refused) as info:
        await p.create_video({})
    assert KEY not in str(info.value) and KEY not in json.dumps(info.value.raw)
    p = make(lambda r: httpx.Response(500, text=f"server saw {KEY}"))
    with pytest.raises(Ambiguous) as amb:
        await p.query_video("1")
    assert KEY not in str(amb.value) and KEY not in json.dumps(amb.value.raw)


async def test_list_tasks_not_offered() -> None:
    p = make(answer({}))
    assert p.caps == Capabilities()
    with pytest.raises(NotImplementedError):
        await p.list_tasks(0, 1)
    await p.aclose()
