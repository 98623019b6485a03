"""Music and speech on the wire (MINIMAX_API.md "Sound"): V1 style, HTTP 200 with ``base_resp``.

* :func:`generate` — ``POST /v1/music_generation`` or ``/v1/t2a_v2``: synchronous, the sound in
  the answer (``data.audio``: hex bytes, or a URL). There is no task id and no query: an answer
  lost on the way is :class:`Ambiguous` and stays lost (the slot is ``unknown`` for good).
* :class:`SpeechApi` — long texts: ``POST /v1/t2a_async_v2`` (a task id and a file id),
  ``GET /v1/query/t2a_async_query_v2`` (status words returned raw: the domain's whitelist for
  the ``t2a`` protocol maps them) and the file through ``files/retrieve``. It has the shape of a
  video API (``query_video``), so the lifecycle's query, wait and attach run on it unchanged.

What an answer means follows :mod:`app.providers.codes` (V1): a non-zero code from the refusal
table is :class:`Refused` (nothing made), anything else :class:`Ambiguous`. The raw answer kept
for the record never holds the sound itself (its hex is replaced by its length).
"""

from __future__ import annotations

import binascii
import logging
from dataclasses import dataclass
from typing import Any

from app.domain.capabilities import Capabilities
from app.domain.params_sound import (
    MUSIC,
    MUSIC_PATH,
    SPEECH_ASYNC_PATH,
    SPEECH_QUERY_PATH,
    SPEECH_SYNC_PATH,
)
from app.domain.protocols import T2A
from app.providers.base import (
    Ambiguous,
    Cancelled,
    ListedTask,
    Uploaded,
    VideoCreated,
    VideoStatus,
    at_most,
    same_task,
)
from app.providers.codes import TASK_FAILURE_CODES, base_resp, v1_http, v1_raise_for_code
from app.providers.http import ApiClient, as_id, as_int

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SoundAnswer:
    """A synchronous sound's answer: the bytes (hex decoded) or a URL, and ``extra_info``."""

    audio: bytes | None
    url: str | None
    extra: dict[str, Any]
    raw: dict[str, Any]  # without the sound's bytes
    trace_id: str | None
    problem: str | None = None  # why the answer holds no usable sound


def _scrubbed(raw: dict[str, Any]) -> dict[str, Any]:
    out = dict(raw)
    data = out.get("data")
    if isinstance(data, dict) and isinstance(data.get("audio"), str):
        audio = data["audio"]
        if not audio.startswith(("http://", "https://")):
            out["data"] = {**data, "audio": f"<{len(audio) // 2} bytes as hex>"}
    return out


async def generate(
    http: ApiClient, kind: str, body: dict[str, Any], hint: str, timeout: float | None
) -> SoundAnswer:
    """Send one synchronous sound create and read its answer (``timeout``: this request's)."""
    path = MUSIC_PATH if kind == MUSIC else SPEECH_SYNC_PATH
    what = "music generation" if kind == MUSIC else "speech synthesis"
    answer = await http.send("POST", path, what=what, json=body, timeout=timeout)
    raw = v1_http(answer, what, hint)
    v1_raise_for_code(raw, what, hint)
    data = raw.get("data") if isinstance(raw.get("data"), dict) else {}
    extra = raw.get("extra_info") if isinstance(raw.get("extra_info"), dict) else {}
    audio = data.get("audio")
    if isinstance(audio, list):  # one create makes one sound: more is another answer's
        at_most(1, len(audio), what, raw)
    kept = _scrubbed(raw)
    trace = raw.get("trace_id") if isinstance(raw.get("trace_id"), str) else None
    trace = trace or raw.get("_trace_id")
    if data.get("status") not in (2, "2", None):
        return SoundAnswer(None, None, extra, kept, trace, f"data.status {data.get('status')!r}")
    if not isinstance(audio, str) or not audio:
        return SoundAnswer(None, None, extra, kept, trace, "the answer holds no sound")
    if audio.startswith(("https://", "http://")):
        return SoundAnswer(None, audio, extra, kept, trace)
    try:
        data_bytes = binascii.unhexlify(audio.strip())
    except (binascii.Error, ValueError):
        return SoundAnswer(None, None, extra, kept, trace, "data.audio is not hex")
    return SoundAnswer(data_bytes, None, extra, kept, trace)


async def list_voices(http: ApiClient, hint: str) -> list[tuple[str, str]]:
    """``POST /v1/get_voice`` (all types): ``(voice_id, name)`` of every voice the account may
    use, system voices first, then cloned and designed ones."""
    what = "voice list"
    answer = await http.send("POST", "/v1/get_voice", what=what, json={"voice_type": "all"})
    raw = v1_http(answer, what, hint)
    v1_raise_for_code(raw, what, hint)
    out: list[tuple[str, str]] = []
    for group in ("system_voice", "voice_cloning", "voice_generation"):
        items = raw.get(group)
        for item in items if isinstance(items, list) else []:
            vid = item.get("voice_id") if isinstance(item, dict) else None
            if isinstance(vid, str) and vid:
                name = item.get("voice_name")
                out.append((vid, name if isinstance(name, str) and name else vid))
    return out


class SpeechApi:
    """Asynchronous speech, shaped as a video API for the lifecycle (create, query)."""

    protocol = T2A
    caps = Capabilities()  # no task list, no cancel, no uploads

    def __init__(self, http: ApiClient, hint: str) -> None:
        self.http = http
        self._hint = hint

    async def create_video(self, body: dict[str, Any]) -> VideoCreated:
        what = "speech task create"
        answer = await self.http.send("POST", SPEECH_ASYNC_PATH, what=what, json=body)
        raw = v1_http(answer, what, self._hint)
        v1_raise_for_code(raw, what, self._hint)
        task_id = as_id(raw.get("task_id"))
        if task_id is None:
            raise Ambiguous(f"{what}: success code but no task_id in the answer", code=0, raw=raw)
        log.info("speech task created: %s trace=%s", task_id, raw.get("_trace_id"))
        return VideoCreated(task_id=task_id, raw=raw)

    async def query_video(self, task_id: str) -> VideoStatus:
        what = "speech task query"
        answer = await self.http.send(
            "GET", SPEECH_QUERY_PATH, what=what, params={"task_id": str(task_id)}
        )
        raw = v1_http(answer, what, self._hint)
        code, msg = base_resp(raw)
        status = raw.get("status")
        word = status if isinstance(status, str) else ("" if status is None else str(status))
        if not word and code != 0 and code not in TASK_FAILURE_CODES:
            v1_raise_for_code(raw, what, self._hint)
        raw.pop("_retry_after", None)
        named = as_id(raw.get("task_id"))
        file_id = as_id(raw.get("file_id"))
        if named is not None or code == 0 or file_id not in (None, "0", ""):
            # MiniMax's answer names its task (the reference's example and fields): one naming
            # another task, or a task's answer naming none, is not about this one. Only an
            # error answer without a file (a request error) may name no task.
            same_task(str(task_id), named, what, raw)
        return VideoStatus(
            task_id=named or str(task_id),
            status=word,
            file_id=None if file_id in (None, "0", "") else file_id,
            width=None,
            height=None,
            raw=raw,
            error_code=code if code else None,
            error_message=(msg or None) if code else None,
        )

    async def list_tasks(
        self, since: float, until: float, model: str | None = None
    ) -> list[ListedTask]:
        raise NotImplementedError("MiniMax lists no speech tasks")

    async def cancel_video(self, task_id: str) -> Cancelled:
        raise NotImplementedError("MiniMax cannot cancel a speech task")

    async def upload_file(self, data: bytes, filename: str) -> Uploaded:
        raise NotImplementedError("Slate sends the text inline")


def usage_characters(raw: dict[str, Any]) -> int | None:
    return as_int(raw.get("usage_characters"))


__all__ = ["SoundAnswer", "SpeechApi", "generate", "usage_characters"]
