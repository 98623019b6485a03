"""The MiniMax v1 adapter: image generation, video create/query, ``files/retrieve``, downloads.

Every call ends in exactly one outcome class of :mod:`app.providers.base`: an answer,
:class:`Refused` (nothing created) or :class:`Ambiguous` (may exist). The rules:

* transport: connect error, connect/pool timeout → ``Refused(never_sent=True)``; read/write
  timeout, reset, protocol error after sending → ``Ambiguous``;
* HTTP: 5xx and 408 → ``Ambiguous``; 429 → ``Refused`` (rate limit); other 4xx → ``Refused``;
  an unparseable body → ``Ambiguous``;
* ``base_resp.status_code`` (MiniMax answers errors with HTTP 200): documented definitive codes
  (:data:`REFUSAL_CODES`) → ``Refused``; 1000/1001/1024/1033 and anything unrecognized →
  ``Ambiguous``.

Status words are returned raw (the domain whitelist maps them). Raw responses are kept with the
``Trace-Id`` header as ``"_trace_id"``; the API key never enters a message, a log line, a repr or
a raw dict. Downloads never carry the ``Authorization`` header: links point at another host.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator
from urllib.parse import urlsplit

import httpx

from app.domain.capabilities import Capabilities
from app.providers.base import (
    Ambiguous,
    Download,
    DownloadContext,
    FileInfo,
    ImageItem,
    ImageResult,
    ListedTask,
    ProviderError,
    Refused,
    VideoCreated,
    VideoStatus,
)

log = logging.getLogger(__name__)

ENDPOINTS: dict[str, str] = {"global": "https://api.minimax.io", "cn": "https://api.minimaxi.com"}

#: Documented codes that mean "refused before anything was made" (nothing billed).
REFUSAL_CODES: dict[int, str] = {
    1002: "rate limit",
    1004: "authentication failed (check the API key)",
    1008: "insufficient balance",
    1026: "input content flagged as sensitive",
    1039: "token limit",
    1041: "connection limit",
    1042: "illegal characters in the input",
    2013: "invalid parameters",
    2038: "real-name verification required",
    2045: "rate growth limit",
    2049: "invalid API key",
    2056: "usage limit exceeded",
}
#: Codes that say the server failed in an unknown way: the request may have been acted on.
AMBIGUOUS_CODES: dict[int, str] = {
    1000: "unknown error",
    1001: "request timeout",
    1013: "internal service error",
    1024: "internal error",
    1033: "system error",
}
#: Query answers with these codes are task outcomes (status Fail), not request errors.
TASK_FAILURE_CODES = frozenset({1026, 1027})

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain"}


def is_loopback_host(host: str | None) -> bool:
    if not host:
        return False
    host = host.strip("[]").lower()
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def endpoint_for(base_url: str) -> str:
    """``global``, ``cn`` or ``local`` from a base URL (unknown https hosts count as global)."""
    host = (urlsplit(base_url).hostname or "").lower()
    if is_loopback_host(host):
        return "local"
    if host == "minimaxi.com" or host.endswith(".minimaxi.com") or "minimaxi" in host:
        return "cn"
    return "global"


def _as_int(value: Any) -> int | None:
    """Counts and sizes arrive as numbers or strings; anything else is ``None``."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("+-").isdigit():
            return int(text)
    return None


def _as_id(value: Any) -> str | None:
    """Ids (``task_id``, ``file_id``) arrive as strings or numbers; empty means none."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return text or None


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


class MiniMaxProvider:
    """Async MiniMax v1 client implementing :class:`app.providers.base.Provider`."""

    caps = Capabilities()  # MiniMax V1: no task list, no cancel, no upload, no image query

    def __init__(
        self,
        api_key: str,
        base_url: str = ENDPOINTS["global"],
        *,
        name: str = "minimax",
        endpoint: str | None = None,
        timeout: float = 60.0,
        connect_timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not isinstance(api_key, str) or not api_key.strip():
            raise ValueError("api_key is empty")
        if not all(33 <= ord(c) < 127 for c in api_key.strip()):
            raise ValueError("api_key contains characters that cannot be sent in a header")
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http(s) URL, got {base_url!r}")
        if parts.scheme == "http" and not is_loopback_host(parts.hostname):
            raise ValueError(
                f"base_url {base_url!r} uses plain http; only https is allowed "
                "(plain http only to loopback: 127.0.0.1, ::1, localhost)"
            )
        self._key = api_key.strip()
        self.base_url = base_url.rstrip("/")
        self.name = name
        self.endpoint = endpoint or endpoint_for(base_url)
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout, connect=connect_timeout, pool=connect_timeout),
            transport=transport,
            follow_redirects=False,
            trust_env=False if is_loopback_host(parts.hostname) else True,
        )

    def __repr__(self) -> str:
        return f"MiniMaxProvider(name={self.name!r}, endpoint={self.endpoint!r}, base_url={self.base_url!r})"

    # ------------------------------------------------------------------ secrets

    def _scrub_text(self, text: str) -> str:
        return text.replace(self._key, "***") if self._key and self._key in text else text

    def _scrub(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._scrub_text(value)
        if isinstance(value, dict):
            return {self._scrub_text(str(k)): self._scrub(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._scrub(v) for v in value]
        return value

    # ------------------------------------------------------------------ transport

    async def _call(
        self, method: str, path: str, *, what: str, json: Any = None, params: dict[str, str] | None = None
    ) -> dict[str, Any]:
        """Send one API request; return the parsed body (with ``_trace_id``) or raise."""
        url = f"{self.base_url}{path}"
        headers = {"Authorization": f"Bearer {self._key}", "Accept": "application/json"}
        try:
            response = await self._client.request(method, url, json=json, params=params, headers=headers)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol) as exc:
            message = self._scrub_text(f"{what}: the request never left ({type(exc).__name__}: {exc})")
            log.info("%s %s never sent: %s", method, path, type(exc).__name__)
            raise Refused(message, never_sent=True) from None
        except httpx.TimeoutException as exc:
            message = self._scrub_text(f"{what}: no answer in time after sending ({type(exc).__name__})")
            log.warning("%s %s timed out after sending: %s", method, path, type(exc).__name__)
            raise Ambiguous(message) from None
        except httpx.HTTPError as exc:
            message = self._scrub_text(f"{what}: connection failed after sending ({type(exc).__name__}: {exc})")
            log.warning("%s %s failed after sending: %s", method, path, type(exc).__name__)
            raise Ambiguous(message) from None

        trace_id = response.headers.get("Trace-Id")
        log.debug("%s %s → HTTP %s trace=%s", method, path, response.status_code, trace_id)
        body: Any
        try:
            body = response.json()
        except ValueError:
            body = None
        raw: dict[str, Any]
        if isinstance(body, dict):
            raw = self._scrub(body)
        else:
            raw = {"_body": self._scrub_text(response.text[:2000])}
        raw["_http_status"] = response.status_code
        if trace_id:
            raw["_trace_id"] = trace_id

        status = response.status_code
        code, msg = self._base_resp(raw)
        if status >= 500 or status == 408:
            raise Ambiguous(f"{what}: HTTP {status} from the provider", code=code, raw=raw)
        if status == 429:
            raise Refused(
                f"{what}: rate limited (HTTP 429)", code=1002, raw=raw, retry_after=_retry_after(response)
            )
        if status >= 400:
            if code is not None and code in AMBIGUOUS_CODES:
                raise Ambiguous(f"{what}: HTTP {status}, code {code} {msg}".strip(), code=code, raw=raw)
            raise Refused(f"{what}: HTTP {status} {msg}".strip(), code=code, raw=raw)
        if not isinstance(body, dict):
            raise Ambiguous(f"{what}: the answer was not a JSON object (HTTP {status})", raw=raw)
        raw["_retry_after"] = _retry_after(response)
        return raw

    @staticmethod
    def _base_resp(raw: dict[str, Any]) -> tuple[int | None, str]:
        base = raw.get("base_resp")
        if not isinstance(base, dict):
            return None, ""
        code = _as_int(base.get("status_code"))
        msg = base.get("status_msg")
        return code, msg if isinstance(msg, str) else ""

    def _raise_for_code(self, raw: dict[str, Any], what: str) -> None:
        """Raise for a nonzero ``base_resp.status_code``; return when it is 0."""
        code, msg = self._base_resp(raw)
        retry_after = raw.pop("_retry_after", None)
        if code == 0:
            return
        if code is None:
            raise Ambiguous(f"{what}: the answer has no base_resp status code", raw=raw)
        label = msg or REFUSAL_CODES.get(code) or AMBIGUOUS_CODES.get(code) or "unrecognized error"
        if code in REFUSAL_CODES:
            raise Refused(f"{what}: refused, code {code} ({label})", code=code, raw=raw, retry_after=retry_after)
        raise Ambiguous(f"{what}: code {code} ({label})", code=code, raw=raw, retry_after=retry_after)

    # ------------------------------------------------------------------ API

    async def create_video(self, body: dict[str, Any]) -> VideoCreated:
        raw = await self._call("POST", "/v1/video_generation", what="video create", json=body)
        self._raise_for_code(raw, "video create")
        task_id = _as_id(raw.get("task_id"))
        if task_id is None:
            raise Ambiguous("video create: success code but no task_id in the answer", code=0, raw=raw)
        log.info("video task created: %s trace=%s", task_id, raw.get("_trace_id"))
        return VideoCreated(task_id=task_id, raw=raw)

    async def query_video(self, task_id: str) -> VideoStatus:
        raw = await self._call(
            "GET", "/v1/query/video_generation", what="video query", params={"task_id": str(task_id)}
        )
        code, msg = self._base_resp(raw)
        status = raw.get("status")
        word = status if isinstance(status, str) else ("" if status is None else str(status))
        if not word and code != 0 and code not in TASK_FAILURE_CODES:
            self._raise_for_code(raw, "video query")  # a request error, not a task answer
        raw.pop("_retry_after", None)
        return VideoStatus(
            task_id=_as_id(raw.get("task_id")) or str(task_id),
            status=word,
            file_id=_as_id(raw.get("file_id")),
            width=_as_int(raw.get("video_width")),
            height=_as_int(raw.get("video_height")),
            raw=raw,
            error_code=code if code else None,
            error_message=(msg or None) if code else None,
        )

    async def retrieve_file(self, file_id: str) -> FileInfo:
        raw = await self._call(
            "GET", "/v1/files/retrieve", what="file retrieve", params={"file_id": str(file_id)}
        )
        self._raise_for_code(raw, "file retrieve")
        file = raw.get("file")
        if not isinstance(file, dict):
            file = {}
        size = _as_int(file.get("bytes"))
        url = file.get("download_url")
        filename = file.get("filename")
        return FileInfo(
            file_id=_as_id(file.get("file_id")) or str(file_id),
            download_url=url if isinstance(url, str) and url else None,
            bytes=size if size and size > 0 else None,  # MiniMax reports 0 when unknown
            filename=filename if isinstance(filename, str) and filename else None,
            raw=raw,
        )

    async def generate_image(self, body: dict[str, Any]) -> ImageResult:
        raw = await self._call("POST", "/v1/image_generation", what="image generation", json=body)
        self._raise_for_code(raw, "image generation")
        data = raw.get("data")
        data = data if isinstance(data, dict) else {}
        items: list[ImageItem] = []
        for url in data.get("image_urls") or []:
            if isinstance(url, str) and url:
                items.append(ImageItem(url=url))
        for encoded in data.get("image_base64") or []:
            if not isinstance(encoded, str) or not encoded:
                continue
            try:
                items.append(ImageItem(data=base64.b64decode(encoded, validate=False)))
            except (binascii.Error, ValueError):
                log.warning("image generation: an image_base64 item did not decode; skipped")
        meta = raw.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        return ImageResult(
            id=_as_id(raw.get("id")),
            items=items,
            success_count=_as_int(meta.get("success_count")),
            failed_count=_as_int(meta.get("failed_count")),
            raw=raw,
        )

    @asynccontextmanager
    async def _download(self, url: str) -> AsyncIterator[Download]:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise Refused("download: not an http(s) URL", never_sent=True)
        if parts.scheme == "http" and not is_loopback_host(parts.hostname):
            raise Refused("download: plain http is only allowed to loopback", never_sent=True)
        request = self._client.build_request("GET", url)  # no Authorization: another host
        try:
            response = await self._client.send(request, stream=True, follow_redirects=True)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
            raise Refused(f"download: could not connect ({type(exc).__name__})", never_sent=True) from None
        except httpx.HTTPError as exc:
            raise Ambiguous(f"download: failed ({type(exc).__name__})") from None
        log.debug("download %s → HTTP %s", parts.hostname, response.status_code)

        async def chunks() -> AsyncIterator[bytes]:
            try:
                async for chunk in response.aiter_bytes():
                    yield chunk
            except httpx.HTTPError as exc:
                raise Ambiguous(f"download interrupted ({type(exc).__name__})") from None

        length = response.headers.get("Content-Length")
        try:
            yield Download(
                status_code=response.status_code,
                content_length=_as_int(length),
                content_type=response.headers.get("Content-Type"),
                chunks=chunks(),
                headers=dict(response.headers),
            )
        finally:
            await response.aclose()

    def download(self, url: str) -> DownloadContext:
        """``async with provider.download(url) as d:`` — iterate ``d.chunks``."""
        return self._download(url)

    async def list_tasks(self, since: float, until: float) -> list[ListedTask]:
        raise NotImplementedError("MiniMax v1 cannot list recent tasks")

    async def aclose(self) -> None:
        await self._client.aclose()


__all__ = [
    "AMBIGUOUS_CODES",
    "ENDPOINTS",
    "MiniMaxProvider",
    "ProviderError",
    "REFUSAL_CODES",
    "endpoint_for",
    "is_loopback_host",
]
