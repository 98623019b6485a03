"""What the service answers: outcomes and task views, shaped as DESIGN.md's JSON contract."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: outcome → exit code (DESIGN.md, "Command line").
EXIT = {
    "created": 0, "replayed": 0, "ok": 0,
    "invalid": 2, "conflict": 3, "unknown": 4, "quota_exceeded": 5, "rejected": 6,
    "not_found": 8,
}
EXIT_INTERNAL = 1
EXIT_FAIL = 6
EXIT_STILL_RUNNING = 7


@dataclass
class MediaView:
    path: str
    sha256: str
    bytes: int
    content_type: str
    width: int | None
    height: int | None
    duration: float | None = None
    handle: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path, "sha256": self.sha256, "bytes": self.bytes,
            "content_type": self.content_type, "width": self.width, "height": self.height,
            "duration": self.duration, "handle": self.handle,
        }


@dataclass
class TaskView:
    """One slot's task as the user sees it (no owner internals, no secrets)."""

    id: int
    request_id: str
    handle: str
    kind: str
    state: str
    provider: str
    provider_task_id: str | None
    provider_status: str | None
    fingerprint: str
    params: dict[str, Any]
    media: list[MediaView]
    error: dict[str, Any] | None
    allowed_actions: list[str]
    created_at: float
    updated_at: float
    next_poll_at: float | None
    has_results: bool = False
    project: str | None = None

    @property
    def demo(self) -> bool:
        return self.provider == "demo"

    def to_json(self) -> dict[str, Any]:
        return {
            "handle": self.handle,
            "kind": self.kind,
            "state": self.state,
            "provider_task_id": self.provider_task_id,
            "fingerprint": self.fingerprint,
            "params": self.params,
            "media": [m.to_json() for m in self.media],
            "error": self.error,
            "allowed_actions": self.allowed_actions,
            "provider": self.provider,
            "provider_status": self.provider_status,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


@dataclass
class Outcome:
    outcome: str
    request_id: str | None = None
    task: TaskView | None = None
    error: dict[str, Any] | None = None
    exit_code: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def code(self) -> int:
        if self.exit_code is not None:
            return self.exit_code
        return EXIT.get(self.outcome, EXIT_INTERNAL)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "outcome": self.outcome,
            "request_id": self.request_id,
            "task": self.task.to_json() if self.task else None,
            "error": self.error,
        }
        out.update(self.extra)
        return out


def error(code: str, message: str, **more: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **more}
