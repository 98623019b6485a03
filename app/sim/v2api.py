"""The demo provider's V2 endpoints (MiniMax-H3), as MINIMAX_API.md "Video V2" documents them.

* ``POST /v2/video_generation`` (JSON) → ``{"task_id"}``
* ``GET /v2/query/video_generation/{task_id}`` → ``{"task": {...}}``
* ``GET /v2/query/video_generation?page_num=&page_size=&filter.…=`` → ``{"items", "total"}``
  (newest first, the last 7 days)
* ``DELETE /v2/video_generation/{task_id}`` → ``{"task_id", "action": "cancelled" | "deleted"}``

Errors use real HTTP statuses and ``{"type": "error", "error": {"type", "message" ending in
"(code)", "http_code"}, "request_id"}``; the request id is also the ``Trace-Id`` header.
"""

from __future__ import annotations

import logging
import re
import uuid
from typing import Any

from app.sim import billing, v2rules
from app.sim.v2rules import V2Error, bad
from app.sim.wire import CODE_MESSAGES, _Drop

log = logging.getLogger(__name__)

AUTH_MESSAGE = (
    "login fail: Please carry the API secret key in the 'Authorization' field of the request header"
)
_CREATE = "/v2/video_generation"
_QUERY = "/v2/query/video_generation"
_TASK_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")


def parse_multipart(body: bytes, content_type: str) -> dict[str, tuple[str | None, bytes]] | None:
    """``multipart/form-data`` fields: name → (filename, bytes); ``None`` if not multipart."""
    match = re.search(r'boundary="?([^";,]+)"?', content_type)
    if not content_type.lower().startswith("multipart/form-data") or match is None:
        return None
    boundary = b"--" + match.group(1).encode("latin-1")
    fields: dict[str, tuple[str | None, bytes]] = {}
    for part in body.split(boundary)[1:]:
        if part.startswith(b"--"):
            break
        if part.startswith(b"\r\n"):
            part = part[2:]
        head, sep, content = part.partition(b"\r\n\r\n")
        if not sep:
            continue
        if content.endswith(b"\r\n"):
            content = content[:-2]
        disposition = ""
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            if key.strip().lower() == "content-disposition":
                disposition = value
        name = re.search(r'\bname="([^"]*)"', disposition)
        if name is None:
            continue
        filename = re.search(r'\bfilename="([^"]*)"', disposition)
        fields[name.group(1)] = (filename.group(1) if filename else None, content)
    return fields


class V2Endpoints:
    """Mixed into the request handler; uses its ``_send``/``_json`` plumbing."""

    sim: Any  # the app.sim.server.SimServer this handler serves
    headers: Any
    path: str
    _raw_body: bytes
    _body_too_large: bool

    # ------------------------------------------------------------------ plumbing

    def _v2_error(self, exc: V2Error) -> None:
        request_id = uuid.uuid4().hex
        headers = {"Trace-Id": request_id}
        if exc.status == 429:
            headers["Retry-After"] = _seconds_text(self.sim.faults.retry_after)
        self._json(exc.body(request_id), exc.status, headers)  # type: ignore[attr-defined]

    def _v2_dispatch(self, method: str, path: str) -> None:
        route = self._v2_route(method, path)
        if route is None:
            self.sim._count("other")
            return self._v2_error(V2Error(404, f"no such endpoint: {method} {path}"))
        name, handler, arg, allowed = route
        self.sim._count(name)
        if method not in allowed and not (method == "HEAD" and "GET" in allowed):
            return self._v2_error(V2Error(405, f"method {method} is not allowed on {path}"))
        try:
            handler(arg) if arg is not None else handler()
        except V2Error as exc:
            self._v2_error(exc)

    def _v2_route(self, method: str, path: str):  # type: ignore[no-untyped-def]
        extra = self._extras_route(method, path)  # type: ignore[attr-defined]
        if extra is not None:
            return extra
        if path == _CREATE:
            return "v2_video_generation", self._v2_create, None, ("POST",)
        if path.startswith(_CREATE + "/"):
            return (
                "v2_delete_video_generation",
                self._v2_delete,
                path[len(_CREATE) + 1 :],
                ("DELETE",),
            )
        if path == _QUERY:
            return "v2_list_video_generation", self._v2_list, None, ("GET",)
        if path.startswith(_QUERY + "/"):
            return "v2_query_video_generation", self._v2_query, path[len(_QUERY) + 1 :], ("GET",)
        return None

    def _v2_guard(self, create: bool) -> None:
        """Auth, then the faults that refuse a request before anything is made."""
        if not self._authorized():  # type: ignore[attr-defined]
            raise V2Error(401, AUTH_MESSAGE)
        sim = self.sim
        if sim._take("server_error") or (create and sim._take("server_error_creates")):
            raise V2Error(500, "internal server error, please try again later")
        if sim._take("rate_limit") or (create and sim._take("rate_limit_creates")):
            raise V2Error(429, "rate limit exceeded(RPM)")
        if create and sim._take("overloaded"):
            raise V2Error(529, "the service is overloaded, please try again later")

    def _v2_refusals(self) -> None:
        """Definitive refusals after validation: balance, sensitive input, a chosen code."""
        sim = self.sim
        if sim._take("insufficient_balance"):
            raise V2Error(402, "insufficient balance")
        if sim._take("input_sensitive"):
            raise V2Error(422, "input new_sensitive")
        if sim._take("create_error"):
            code = sim.faults.create_error_code
            status = v2rules.STATUS_FOR_CODE.get(code, 500)
            raise V2Error(status, CODE_MESSAGES.get(code, "error"), code)

    @staticmethod
    def _task_id(raw: str) -> str:
        if not _TASK_ID.fullmatch(raw):
            raise bad("invalid task_id")
        return raw

    # ------------------------------------------------------------------ endpoints

    def _v2_create(self) -> None:
        sim = self.sim
        prompt = ""
        if not self._authorized():  # type: ignore[attr-defined]
            raise V2Error(401, AUTH_MESSAGE)  # not counted: only authorized creates are
        try:
            self._v2_guard(create=True)
            content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if content_type != "application/json":
                raise bad("Content-Type must be application/json")
            if self._body_too_large:
                raise bad("the request body exceeds 64 MB")
            import json

            try:
                body = json.loads(self._raw_body.decode("utf-8")) if self._raw_body else None
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise bad("the body is not valid JSON") from None
            prompt = _prompt_of(body)
            params = v2rules.validate_create(body, sim.store.get_file, sim.now())
            self._v2_refusals()
        except (V2Error, _Drop):
            sim._count_create("video", prompt, made=False)
            raise
        outcome = sim._outcome()
        task = sim.store.add_v2_task(params["prompt"], params, outcome, sim.now(), sim._slow())
        sim._count_create(
            "video", params["prompt"], made=True, billed=not outcome.startswith("fail_")
        )
        log.debug("demo V2 task %s created (%s)", task["task_id"], outcome)
        self._after_create(v2=True, task_id=str(task["task_id"]))  # type: ignore[attr-defined]
        self._json({"task_id": task["task_id"]})  # type: ignore[attr-defined]
        sim._answered(params["prompt"], str(task["task_id"]))

    def _v2_query(self, raw_id: str) -> None:
        self._v2_guard(create=False)
        task_id = self._task_id(raw_id)
        task = self.sim.store.get_v2_task(task_id)
        if task is None or not self.sim.v2_visible(task):
            raise bad(f"invalid task_id {task_id}")
        sim = self.sim
        other = billing.foreign(
            sim,
            task_id,
            lambda: sim.store.list_v2_tasks(sim.now() - v2rules.TASK_WINDOW),
            done=lambda t: sim.v2_status(t)[0],
        )
        if other is not None:  # another task's object, its own id in it
            return self._json({"task": sim.v2_view(other)})  # type: ignore[attr-defined]
        view = sim.v2_view(task, expired_url=False)
        word = sim._status_word(v2=True)
        if word is not None:
            view["status"] = word
        elif view["content"].get("url") and sim._take("expired_url"):
            view = sim.v2_view(task, expired_url=True)
        if view["status"] == "succeeded" and view["usage"] and sim._take("huge_usage"):
            view["usage"] = {**view["usage"], "output_seconds": 1e30, "total_seconds": 1e30}
        self._json({"task": view})  # type: ignore[attr-defined]

    def _v2_list(self) -> None:
        from urllib.parse import urlsplit

        self._v2_guard(create=False)
        query = v2rules.parse_list_query(urlsplit(self.path).query)
        sim = self.sim
        since = sim.now() - v2rules.TASK_WINDOW
        rows = []
        for task in sim.store.list_v2_tasks(since):
            if query.model and task["params"]["model"] not in query.model:
                continue
            if query.task_type and task["params"].get("task_type", "generation") not in (
                query.task_type
            ):
                continue
            if query.task_ids is not None and task["task_id"] not in query.task_ids:
                continue
            if query.status and sim.v2_status(task)[0] not in query.status:
                continue
            rows.append(task)
        start = (query.page_num - 1) * query.page_size
        items = [sim.v2_view(t) for t in rows[start : start + query.page_size]]
        self._json({"items": items, "total": len(rows)})  # type: ignore[attr-defined]

    def _v2_delete(self, raw_id: str) -> None:
        self._v2_guard(create=False)
        task_id = self._task_id(raw_id)
        sim = self.sim
        now = sim.now()

        def decide(task: dict[str, Any]) -> str:
            if not sim.v2_visible(task):
                return "missing"
            status = sim.v2_status(task, now)[0]
            if status == "queued":
                return "cancelled"
            if status in ("succeeded", "failed"):
                return "deleted"
            return f"refused:{status}"

        action, task = sim.store.v2_delete(task_id, now, decide)
        if action == "missing" or task is None:
            raise bad(f"invalid task_id {task_id}")
        if action == "refused:running":
            raise bad(f"task {task_id} is running: only a queued task can be cancelled")
        if action == "refused:cancelled":
            raise bad(f"task {task_id} is already cancelled")
        if action == "cancelled":
            sim._count_cancel(task["prompt"])
        self._json({"task_id": task_id, "action": action})  # type: ignore[attr-defined]


def _prompt_of(body: Any) -> str:
    """The text item of a create body, for the per-prompt counters (before validation)."""
    if isinstance(body, dict) and isinstance(body.get("content"), list):
        for item in body["content"]:
            if (
                isinstance(item, dict)
                and item.get("type") == "text"
                and isinstance(item.get("text"), str)
            ):
                return item["text"]
    return ""


def _seconds_text(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"
