"""The MiniMax V2 adapter (MiniMax-H3, H3-Max): create with ``content[]``, query by path, the task
list with paging and filters, cancel/delete, and input uploads (``/v1/files/upload`` →
``mm_file://``).

It shares its HTTP client with the V1 adapter (:class:`app.providers.http.ApiClient`: transport
outcomes, scrubbing, downloads); what statuses mean is :func:`app.providers.codes.v2_checked`.
Status words are returned raw (the domain whitelist maps them). A task's ``content.url`` is
time-limited: the caller downloads it at once and asks again (a new query signs a fresh link)
when it expired — V2 has no file id to exchange.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from app.domain.capabilities import Capabilities
from app.domain.protocols import V2
from app.providers.base import (
    Ambiguous,
    Cancelled,
    PromptAnswer,
    Uploaded,
    VideoCreated,
    VideoStatus,
    same_task,
)
from app.providers.codes import v1_http, v1_raise_for_code, v2_checked
from app.providers.http import ApiClient, as_id, as_int, auth_hint

if TYPE_CHECKING:  # app.domain.lookup loads with a lookup, not with every provider (issue 38)
    from app.domain.lookup import Clock
    from app.providers.base import ListedTask

log = logging.getLogger(__name__)

CREATE = "/v2/video_generation"
REGENERATE = "/v2/video_regeneration"
CONTEXT_IR = "/v2/h3_context_ir"
QUERY = "/v2/query/video_generation"
UPLOAD = "/v1/files/upload"
UPLOAD_PURPOSE = "video_generation_input"
PAGE_SIZE = 100
#: A lookup never stops early and pretends it saw everything: past this many pages of tasks
#: newer than the window it fails (ambiguous) rather than miss a candidate.
MAX_PAGES = 100
#: Uploads of large inputs get at least this long to travel (seconds).
UPLOAD_TIMEOUT = 300.0


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def enhanced_prompt(task: dict[str, Any]) -> str | None:
    """The enhanced prompt of a Context-IR task (``content.prompt``), or None."""
    content = task.get("content") if isinstance(task.get("content"), dict) else {}
    return _text(content.get("prompt"))


class MiniMaxV2:
    """Video endpoints of MiniMax's V2 protocol, on a shared :class:`ApiClient`."""

    protocol = V2
    caps = Capabilities(can_list_tasks=True, can_cancel=True, can_upload=True)

    def __init__(self, http: ApiClient) -> None:
        self.http = http
        self._hint = auth_hint(http.base_url)

    def __repr__(self) -> str:
        return f"MiniMaxV2(base_url={self.http.base_url!r})"

    def provider_clock(self) -> Clock | None:
        """The provider's clock against ours, from its latest answer (None before one)."""
        return self.http.clock

    async def _v2(self, method: str, path: str, what: str, **kw: Any) -> dict[str, Any]:
        answer = await self.http.send(method, path, what=what, **kw)
        return v2_checked(answer, what, self._hint)

    # -- create and query ------------------------------------------------------------------
    async def create_video(self, body: dict[str, Any]) -> VideoCreated:
        raw = await self._v2("POST", CREATE, "video create", json=body)
        task_id = as_id(raw.get("task_id"))
        if task_id is None:
            raise Ambiguous("video create: HTTP 200 but no task_id in the answer", raw=raw)
        log.info("V2 video task created: %s trace=%s", task_id, raw.get("_trace_id"))
        return VideoCreated(task_id=task_id, raw=raw)

    async def regenerate_video(self, body: dict[str, Any]) -> VideoCreated:
        """``POST /v2/video_regeneration`` (``source_task_id``): answers ``{task_id}`` like a
        create; the new task's ``task_type`` is ``regeneration``."""
        raw = await self._v2("POST", REGENERATE, "video regeneration", json=body)
        task_id = as_id(raw.get("task_id"))
        if task_id is None:
            raise Ambiguous("video regeneration: HTTP 200 but no task_id in the answer", raw=raw)
        log.info("V2 regeneration task created: %s trace=%s", task_id, raw.get("_trace_id"))
        return VideoCreated(task_id=task_id, raw=raw)

    async def enhance_prompt(self, body: dict[str, Any]) -> PromptAnswer:
        """``POST /v2/h3_context_ir``: the task inline (``{"task": {...}}``, or the task object
        itself) or ``{"task_id"}`` to query by the video query path — both are read."""
        raw = await self._v2("POST", CONTEXT_IR, "prompt enhancement", json=body)
        task = raw.get("task") if isinstance(raw.get("task"), dict) else None
        if task is None and isinstance(raw.get("id"), (str, int)) and "status" in raw:
            task = raw
        if task is None:
            task_id = as_id(raw.get("task_id"))
            if task_id is None:
                raise Ambiguous(
                    "prompt enhancement: HTTP 200 but neither task nor task_id", raw=raw
                )
            return PromptAnswer(task_id, None, None, None, raw)
        task_id = as_id(task.get("id")) or as_id(raw.get("task_id"))
        if task_id is None:
            raise Ambiguous("prompt enhancement: the task has no id", raw=raw)
        return PromptAnswer(
            task_id,
            _text(task.get("status")),
            enhanced_prompt(task),
            task.get("usage") if isinstance(task.get("usage"), dict) else None,
            raw,
        )

    async def query_video(self, task_id: str) -> VideoStatus:
        raw = await self._v2("GET", f"{QUERY}/{quote(str(task_id), safe='')}", "video query")
        task = raw.get("task")
        if not isinstance(task, dict):
            raise Ambiguous("video query: the answer holds no task object", raw=raw)
        same_task(str(task_id), as_id(task.get("id")), "video query", raw)
        return self._status(task, raw, str(task_id))

    @staticmethod
    def _status(task: dict[str, Any], raw: dict[str, Any], task_id: str) -> VideoStatus:
        word = task.get("status")
        status = word if isinstance(word, str) else ("" if word is None else str(word))
        error = task.get("error") if isinstance(task.get("error"), dict) else {}
        content = task.get("content") if isinstance(task.get("content"), dict) else {}
        usage = task.get("usage") if isinstance(task.get("usage"), dict) else None
        code = as_int(error.get("code"))
        return VideoStatus(
            task_id=as_id(task.get("id")) or "",  # never the asked id: see same_task
            status=status,
            file_id=None,
            width=None,
            height=None,
            raw=raw,
            error_code=code or None,
            error_message=_text(error.get("message")),
            url=_text(content.get("url")),
            usage=usage or None,
            text=_text(content.get("prompt")),
        )

    # -- list ------------------------------------------------------------------------------
    async def list_tasks(
        self, since: float, until: float, model: str | None = None
    ) -> list[ListedTask]:
        """Tasks created between ``since`` and ``until`` (Unix seconds, both included), newest
        first, read page by page until a page reaches back past ``since``."""
        out: list[ListedTask] = []
        seen = 0
        for page in range(1, MAX_PAGES + 1):
            params: dict[str, Any] = {"page_num": page, "page_size": PAGE_SIZE}
            if model:
                params["filter.model"] = model
            raw = await self._v2("GET", QUERY, "task list", params=params)
            items = raw.get("items")
            if not isinstance(items, list):
                raise Ambiguous("task list: the answer holds no items", raw=raw)
            total = as_int(raw.get("total"))
            oldest = None
            for item in items:
                if not isinstance(item, dict):
                    continue
                listed = self._listed(item)
                if listed is None:
                    continue
                oldest = listed.created_at if oldest is None else min(oldest, listed.created_at)
                if since <= listed.created_at <= until:
                    out.append(listed)
            seen += len(items)
            if (
                len(items) < PAGE_SIZE
                or (oldest is not None and oldest < since)
                or (total is not None and seen >= total)
            ):
                return out
        raise Ambiguous(
            f"task list: more than {MAX_PAGES * PAGE_SIZE} tasks are newer than the "
            "window; the list was not read to its end"
        )

    @staticmethod
    def _listed(item: dict[str, Any]) -> ListedTask | None:
        task_id = as_id(item.get("id"))
        created = item.get("created_at")
        if task_id is None or isinstance(created, bool) or not isinstance(created, (int, float)):
            return None
        facts = {k: item.get(k) for k in ("duration", "resolution", "ratio", "task_type")}
        model = item.get("model") if isinstance(item.get("model"), str) else None
        status = item.get("status") if isinstance(item.get("status"), str) else None
        from app.providers.base import ListedTask

        return ListedTask(task_id, float(created), model, status, facts)

    # -- cancel and upload -----------------------------------------------------------------
    async def cancel_video(self, task_id: str) -> Cancelled:
        """DELETE a task: a queued one is cancelled, a finished one **deleted** — callers query
        first and send this only for a queued task."""
        raw = await self._v2("DELETE", f"{CREATE}/{quote(str(task_id), safe='')}", "cancel")
        action = raw.get("action")
        if action not in ("cancelled", "deleted"):
            raise Ambiguous(f"cancel: unexpected answer (action {action!r})", raw=raw)
        return Cancelled(as_id(raw.get("task_id")) or str(task_id), str(action), raw)

    async def upload_file(self, data: bytes, filename: str) -> Uploaded:
        """Upload an input for generation (``purpose=video_generation_input``); it answers like
        a V1 endpoint (HTTP 200 and ``base_resp``)."""
        timeout = max(UPLOAD_TIMEOUT, self.http.client.timeout.read or 0.0)
        answer = await self.http.send(
            "POST",
            UPLOAD,
            what="upload",
            files={"file": (filename, data)},
            data={"purpose": UPLOAD_PURPOSE},
            timeout=timeout,
        )
        raw = v1_http(answer, "upload", self._hint)
        v1_raise_for_code(raw, "upload", self._hint)
        file = raw.get("file") if isinstance(raw.get("file"), dict) else {}
        file_id = as_id(file.get("file_id"))
        if file_id is None or not file_id.isdigit():
            raise Ambiguous("upload: success code but no numeric file_id", raw=raw)
        log.info("input uploaded: file %s (%d bytes)", file_id, len(data))
        return Uploaded(file_id, raw)
