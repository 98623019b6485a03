"""The MiniMax provider: the V1 adapter (image generation, Hailuo/01 video create/query,
``files/retrieve``, downloads), and the composition of both protocols on one HTTP client.

Every call ends in exactly one outcome class of :mod:`app.providers.base`: an answer,
:class:`Refused` (nothing created) or :class:`Ambiguous` (may exist). Transport outcomes are
:mod:`app.providers.http`'s, what V1 statuses and codes mean is :mod:`app.providers.codes`'s.
``provider.api("v2")`` is the V2 adapter (:mod:`app.providers.minimax_v2`) on the same client.

Status words are returned raw (the domain whitelist maps them). Raw responses are kept with the
``Trace-Id`` header as ``"_trace_id"``; the API key never enters a message, a log line, a repr or
a raw dict. Downloads never carry the ``Authorization`` header: links point at another host.
"""

from __future__ import annotations

import base64
import binascii
import logging
from functools import cached_property
from typing import TYPE_CHECKING, Any

from app.domain.capabilities import Capabilities
from app.domain.protocols import T2A, V1
from app.providers.base import (
    Ambiguous,
    Cancelled,
    DownloadContext,
    FileInfo,
    ImageItem,
    ImageResult,
    ProviderError,
    Refused,
    Uploaded,
    VideoApi,
    VideoCreated,
    VideoStatus,
    at_most,
    same_task,
)
from app.providers.codes import (
    AMBIGUOUS_CODES,
    REFUSAL_CODES,
    TASK_FAILURE_CODES,
    base_resp,
    v1_http,
    v1_raise_for_code,
)
from app.providers.http import (
    ENDPOINTS,
    ApiClient,
    as_id,
    as_int,
    auth_hint,
    endpoint_for,
    is_loopback_host,
)
from app.providers.minimax_v2 import MiniMaxV2

if TYPE_CHECKING:
    import httpx  # the client's own module makes it on the first request

    # Images of MiniMax-H3, music and speech, voices: loaded by their first request (or, for
    # speech, by the lifecycle's first look at its API), not by a read (issue 38).
    from app.providers import sound, voice
    from app.providers.base import ListedTask

log = logging.getLogger(__name__)


def _asked(body: dict[str, Any]) -> int:
    """How many images a create asked for (``n``; MiniMax's default is 1)."""
    n = body.get("n", 1)
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 1


class MiniMaxProvider:
    """Async MiniMax client implementing :class:`app.providers.base.Provider`: V1 on itself,
    V2 through :meth:`api`."""

    protocol = V1
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
        self.http = ApiClient(
            api_key, base_url, timeout=timeout, connect_timeout=connect_timeout, transport=transport
        )
        self.base_url = self.http.base_url
        self.name = name
        self.endpoint = endpoint or endpoint_for(base_url)
        self._hint = auth_hint(base_url)
        self.v2 = MiniMaxV2(self.http)

    @cached_property
    def speech(self) -> sound.SpeechApi:
        """Asynchronous speech's endpoints, on the same client."""
        from app.providers import sound

        return sound.SpeechApi(self.http, self._hint)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(name={self.name!r}, endpoint={self.endpoint!r}, "
            f"base_url={self.base_url!r})"
        )

    @property
    def _client(self) -> httpx.AsyncClient:
        """The shared HTTP client (its name before the V2 adapter arrived)."""
        return self.http.client

    def api(self, protocol: str) -> VideoApi:
        """The video endpoints of ``protocol`` (``v1``: this object; ``v2``: MiniMax-H3)."""
        if protocol == T2A:
            return self.speech
        return self.v2 if protocol == self.v2.protocol else self

    # ------------------------------------------------------------------ transport

    async def _call(
        self,
        method: str,
        path: str,
        *,
        what: str,
        json: Any = None,
        params: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Send one V1 request; return the parsed body (with ``_trace_id``) or raise."""
        answer = await self.http.send(method, path, what=what, json=json, params=params)
        return v1_http(answer, what, self._hint)

    def _raise_for_code(self, raw: dict[str, Any], what: str) -> None:
        v1_raise_for_code(raw, what, self._hint)

    # ------------------------------------------------------------------ API

    async def create_video(self, body: dict[str, Any]) -> VideoCreated:
        raw = await self._call("POST", "/v1/video_generation", what="video create", json=body)
        self._raise_for_code(raw, "video create")
        task_id = as_id(raw.get("task_id"))
        if task_id is None:
            raise Ambiguous(
                "video create: success code but no task_id in the answer", code=0, raw=raw
            )
        log.info("video task created: %s trace=%s", task_id, raw.get("_trace_id"))
        return VideoCreated(task_id=task_id, raw=raw)

    async def query_video(self, task_id: str) -> VideoStatus:
        raw = await self._call(
            "GET",
            "/v1/query/video_generation",
            what="video query",
            params={"task_id": str(task_id)},
        )
        code, msg = base_resp(raw)
        status = raw.get("status")
        word = status if isinstance(status, str) else ("" if status is None else str(status))
        if not word and code != 0 and code not in TASK_FAILURE_CODES:
            self._raise_for_code(raw, "video query")  # a request error, not a task answer
        raw.pop("_retry_after", None)
        named = as_id(raw.get("task_id"))
        if named is not None:  # V1 error answers may name no task; one naming another is foreign
            same_task(str(task_id), named, "video query", raw)
        return VideoStatus(
            task_id=named or str(task_id),
            status=word,
            file_id=as_id(raw.get("file_id")),
            width=as_int(raw.get("video_width")),
            height=as_int(raw.get("video_height")),
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
        size = as_int(file.get("bytes"))
        url = file.get("download_url")
        filename = file.get("filename")
        return FileInfo(
            file_id=as_id(file.get("file_id")) or str(file_id),
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
        success = as_int(meta.get("success_count"))
        at_most(_asked(body), max(len(items), success or 0), "image generation", raw)
        return ImageResult(
            id=as_id(raw.get("id")),
            items=items,
            success_count=success,
            failed_count=as_int(meta.get("failed_count")),
            raw=raw,
        )

    async def generate_h3_image(self, path: str, body: dict[str, Any]) -> ImageResult:
        """MiniMax-H3-Image (generations or edits): :mod:`app.providers.h3image`."""
        from app.providers import h3image

        return await h3image.generate(self.http, path, body, self._hint)

    async def generate_sound(
        self, kind: str, body: dict[str, Any], timeout: float | None = None
    ) -> sound.SoundAnswer:
        """Music or synchronous speech: :mod:`app.providers.sound`."""
        from app.providers import sound

        return await sound.generate(self.http, kind, body, self._hint, timeout)

    async def list_voices(self) -> list[tuple[str, str]]:
        """The voices ``get_voice`` lists: :func:`app.providers.sound.list_voices`."""
        from app.providers import sound

        return await sound.list_voices(self.http, self._hint)

    async def design_voice(
        self, body: dict[str, Any], timeout: float | None = None
    ) -> voice.VoiceDesigned:
        """A voice design: :func:`app.providers.voice.design`."""
        from app.providers import voice

        return await voice.design(self.http, body, self._hint, timeout)

    async def get_voices(self, voice_type: str = "all") -> list[voice.ListedVoice]:
        """``get_voice`` with each voice's group and date: :func:`app.providers.voice.voices`."""
        from app.providers import voice

        return await voice.voices(self.http, self._hint, voice_type)

    def download(self, url: str) -> DownloadContext:
        """``async with provider.download(url) as d:`` — iterate ``d.chunks``."""
        return self.http.download(url)

    async def list_tasks(
        self, since: float, until: float, model: str | None = None
    ) -> list[ListedTask]:
        raise NotImplementedError("MiniMax V1 cannot list recent tasks")

    async def cancel_video(self, task_id: str) -> Cancelled:
        raise NotImplementedError("MiniMax V1 cannot cancel a task")

    async def upload_file(self, data: bytes, filename: str) -> Uploaded:
        raise NotImplementedError("V1 video takes frames as URLs or data URLs, not uploads")

    def warm(self) -> None:
        """Make now, in this thread, what the first request would make: the HTTP client
        (httpx and a TLS context, ~50-100 ms) and the async backend its first connection loads
        (anyio's, ~50-90 ms). They are made on first use, so a command that never calls the
        provider does not pay them; the submit warms before it claims (nothing slow between
        the record and the send, where a crash leaves the slot unknown), and the desktop app in
        its build thread (not on the window's loop). Cheap once warm. The modules of
        MiniMax-H3's images, music and speech are loaded here too: a read never loads them, and
        a send never loads them between the record and the request."""
        from app.providers import h3image, sound  # noqa: F401 - loaded now, not in a send

        self.http.client  # noqa: B018 - made on first use, with what it loads

    async def aclose(self) -> None:
        await self.http.aclose()


__all__ = [
    "AMBIGUOUS_CODES",
    "ENDPOINTS",
    "MiniMaxProvider",
    "ProviderError",
    "REFUSAL_CODES",
    "Refused",
    "endpoint_for",
    "is_loopback_host",
]
