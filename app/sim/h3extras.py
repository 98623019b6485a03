"""The demo provider's V2 extras on MiniMax-H3 (MINIMAX_API.md "V2 extras on MiniMax-H3").

* ``POST /v2/video_regeneration`` — ``source_task_id`` (a finished 768P MiniMax-H3 generation of
  this account, inside the 7-day window) **or** ``content`` with one ``video_url`` item of role
  ``base_video``; answers ``{"task_id"}``; the new task (``task_type: regeneration``, 2K, the
  source's duration and aspect) is queried and listed like any V2 task. An account off the
  allow-list (``SimConfig.regeneration_allowed = False``) is refused as MiniMax's documented
  create errors most plausibly refuse it: HTTP 400 ``bad_request_error`` (2013), nothing made.
* ``POST /v2/h3_context_ir`` — prompt enhancement: the create's ``content[]`` (model
  MiniMax-H3); answers the task inline (``{"task": {..., "task_type": "h3_context_ir",
  "content": {"prompt"}, "usage": {input_tokens, output_tokens, total_tokens}}}``) or, with
  ``SimConfig.context_ir_mode = "task"``, ``{"task_id"}`` to query by the video query path.

Faults: the V2 ones (auth, 5xx, 429, 529, balance, sensitive input, a chosen code; after the
task exists: lost answer, 5xx, a delay).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from app.sim import v2rules
from app.sim.v2rules import V2Error, bad
from app.sim.wire import _Drop

log = logging.getLogger(__name__)

REGENERATION = "/v2/video_regeneration"
CONTEXT_IR = "/v2/h3_context_ir"
ENHANCED_TAIL = (
    ", cinematic lighting, rich textures, a steady camera that follows the subject, "
    "natural motion and a clear focal point"
)


def enhanced(prompt: str) -> str:
    """The demo's enhanced prompt: the text with a fixed, visible tail."""
    return prompt.rstrip() + ENHANCED_TAIL


def context_ir_usage(prompt: str) -> dict[str, int]:
    tokens_in = len(prompt) // 4 + 1
    tokens_out = len(enhanced(prompt)) // 4 + 1
    return {
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "total_tokens": tokens_in + tokens_out,
    }


class H3ExtrasEndpoints:
    """Mixed into the request handler; uses its plumbing and the V2 fault switches."""

    sim: Any
    headers: Any
    _raw_body: bytes
    _body_too_large: bool

    def _h3_extras_route(self, method: str, path: str):  # type: ignore[no-untyped-def]
        if path == REGENERATION:
            return "v2_video_regeneration", self._regenerate, None, ("POST",)
        if path == CONTEXT_IR:
            return "v2_h3_context_ir", self._context_ir, None, ("POST",)
        return None

    def _json_body(self) -> Any:
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise bad("Content-Type must be application/json")
        if self._body_too_large:
            raise bad("the request body exceeds 64 MB")
        try:
            return json.loads(self._raw_body.decode("utf-8")) if self._raw_body else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise bad("the body is not valid JSON") from None

    # -- regeneration ----------------------------------------------------------------------
    def _regenerate(self) -> None:
        sim = self.sim
        if not self._authorized():  # type: ignore[attr-defined]
            raise V2Error(401, "login fail: Please carry the API secret key")
        prompt = ""
        try:
            self._v2_guard(create=True)  # type: ignore[attr-defined]
            body = self._json_body()
            if not sim.config.regeneration_allowed:
                raise bad("video regeneration is open to allow-listed accounts only")
            source = self._regeneration_source(body)
            prompt = source["prompt"]
            self._v2_refusals()  # type: ignore[attr-defined]
        except (V2Error, _Drop):
            sim._count_create("video", prompt, made=False)
            raise
        sp = source["params"]
        aspect = sp["width"] / sp["height"]
        width, height = v2rules.output_size("2K", aspect)
        params = {
            **sp,
            "resolution": "2K",
            "width": width,
            "height": height,
            "task_type": "regeneration",
            "source_task_id": source["task_id"],
        }
        outcome = sim._outcome()
        task = sim.store.add_v2_task(prompt, params, outcome, sim.now(), sim._slow())
        sim._count_create("video", prompt, made=True, billed=not outcome.startswith("fail_"))
        self._after_create(v2=True, task_id=str(task["task_id"]))  # type: ignore[attr-defined]
        self._json({"task_id": task["task_id"]})  # type: ignore[attr-defined]
        sim._answered(prompt, str(task["task_id"]))

    def _regeneration_source(self, body: Any) -> dict[str, Any]:
        sim = self.sim
        if not isinstance(body, dict):
            raise bad("the body must be a JSON object")
        model = body.get("model", "MiniMax-H3")
        if model != "MiniMax-H3":
            raise bad("video regeneration is offered for MiniMax-H3 only")
        source_id, content = body.get("source_task_id"), body.get("content")
        if (source_id is None) == (content is None):
            raise bad("give source_task_id or content with one base_video item")
        if content is not None:
            if (
                not isinstance(content, list)
                or len(content) != 1
                or not isinstance(content[0], dict)
                or content[0].get("role") != "base_video"
            ):
                raise bad("content must hold exactly one video_url item of role base_video")
            url = (content[0].get("video_url") or {}).get("url")
            if not isinstance(url, str) or "/_sim/v2/" not in url:
                raise bad("the base_video must be a MiniMax-H3 output of this account")
            source_id = url.split("/_sim/v2/", 1)[1].split("/", 1)[0]
        if not isinstance(source_id, (str, int)) or isinstance(source_id, bool):
            raise bad("source_task_id must be a task id")
        task = sim.store.get_v2_task(str(source_id))
        if task is None or not sim.v2_visible(task):
            raise bad(f"invalid source_task_id {source_id}: no such task in the last 7 days")
        p = task["params"]
        if p.get("task_type", "generation") != "generation" or p["model"] != "MiniMax-H3":
            raise bad("the source must be a MiniMax-H3 generation")
        if p["resolution"] != "768P":
            raise bad("only a 768P task can be regenerated at 2K")
        if sim.v2_status(task)[0] != "succeeded" or task["outcome"] != "success":
            raise bad("the source task has not succeeded")
        return task

    # -- Context-IR ------------------------------------------------------------------------
    def _context_ir(self) -> None:
        sim = self.sim
        if not self._authorized():  # type: ignore[attr-defined]
            raise V2Error(401, "login fail: Please carry the API secret key")
        prompt = ""
        try:
            self._v2_guard(create=True)  # type: ignore[attr-defined]
            body = self._json_body()
            if isinstance(body, dict) and body.get("model", "MiniMax-H3") != "MiniMax-H3":
                raise bad("h3_context_ir is offered for MiniMax-H3 only")
            prompt = _text_of(body)
            self._v2_refusals()  # type: ignore[attr-defined]
        except (V2Error, _Drop):
            sim._count_create("prompt", prompt, made=False)
            raise
        params = {
            "model": "MiniMax-H3",
            "resolution": "",
            "duration": 0,
            "ratio": "",
            "modality": "text",
            "task_type": "h3_context_ir",
            "enhanced": enhanced(prompt),
        }
        task = sim.store.add_v2_task(prompt, params, "success", sim.now(), 0.0)
        sim._count_create("prompt", prompt, made=True)
        self._after_create(v2=True, task_id=str(task["task_id"]))  # type: ignore[attr-defined]
        if sim.config.context_ir_mode == "task":
            self._json({"task_id": task["task_id"]})  # type: ignore[attr-defined]
        else:
            self._json({"task": context_ir_view(sim, task, done=True)})  # type: ignore[attr-defined]
        sim._answered(prompt, str(task["task_id"]))


def _text_of(body: Any) -> str:
    """The one non-empty text item (≤ 7,000 characters) of a ``content[]`` body."""
    if not isinstance(body, dict) or not isinstance(body.get("content"), list):
        raise bad("content must be a list")
    texts = [
        i.get("text") for i in body["content"] if isinstance(i, dict) and i.get("type") == "text"
    ]
    if len(texts) != 1 or not isinstance(texts[0], str) or not texts[0].strip():
        raise bad("content must hold exactly one non-empty text item")
    if len(texts[0]) > 7000:
        raise bad("the text exceeds 7000 characters")
    return texts[0]


def context_ir_view(sim: Any, task: dict[str, Any], *, done: bool | None = None) -> dict[str, Any]:
    """A Context-IR task as query and the inline answer show it: ``running`` while the demo's
    V2 timings say so (task mode), then ``succeeded`` with ``content.prompt`` and usage."""
    p = task["params"]
    status, updated = ("succeeded", task["created_at"]) if done else sim.v2_status(task)
    view: dict[str, Any] = {
        "id": task["task_id"],
        "model": p["model"],
        "status": status,
        "error": {"code": "", "message": ""},
        "created_at": int(task["created_at"]),
        "updated_at": int(updated),
        "content": {},
        "task_type": "h3_context_ir",
        "usage": {},
    }
    if status == "succeeded":
        view["content"] = {"prompt": p["enhanced"]}
        view["usage"] = context_ir_usage(task["prompt"])
    return view
