"""Settings of the demo provider: stage timings, persistence, link lifetimes and fault switches."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

#: Status words a query can be made to answer instead of the real one (not in the whitelist).
UNKNOWN_STATUS_WORDS = ("completed", "Failed", "expired", "")


@dataclass
class Faults:
    """Fault switches. Counters mean "the next N"; 0 turns a switch off.

    * ``lose_create_response`` — next N creates: the task is made, then the connection is closed
      without an answer (image creates too: the images are made and billed).
    * ``delay_create_response`` — seconds every create waits *after* the task exists.
    * ``rate_limit`` / ``rate_limit_creates`` — next N API requests (or creates only) answer
      ``base_resp`` 1002.
    * ``server_error`` / ``server_error_creates`` — next N API requests (or creates only) answer
      HTTP ``server_error_status`` (default 502); for creates, the task is *not* made.
    * ``server_error_after_create`` — next N creates make the task, then answer HTTP 5xx.
    * ``create_error`` — next N creates answer ``base_resp`` ``create_error_code`` (default 1026,
      input sensitive; 1008 balance, 1004 auth, 1000/1033 server trouble …); nothing is made.
    * ``status_word`` — every query answers this word (``completed``, ``Failed``, ``expired``,
      ``""``) while set; ``status_word_queries`` limits it to the next N queries.
    * ``success_without_file`` — next N video tasks end ``Success`` without a ``file_id``.
    * ``content_fail`` — next N video tasks end ``Fail`` with ``base_resp`` 1027.
    * ``expire_downloads`` — next N downloads answer 403 as if the link had expired.
    * ``truncate_downloads`` — next N downloads declare the full Content-Length, send half, close.
    * ``random`` — probabilities per fault name (``lose_create_response``, ``rate_limit``,
      ``server_error``, ``server_error_after_create``, ``status_word``, ``success_without_file``,
      ``content_fail``, ``expire_downloads``, ``truncate_downloads``, ``delay_create_response``),
      drawn from a generator seeded with :attr:`SimConfig.seed`.
    """

    lose_create_response: int = 0
    delay_create_response: float = 0.0
    rate_limit: int = 0
    rate_limit_creates: int = 0
    server_error: int = 0
    server_error_creates: int = 0
    server_error_after_create: int = 0
    server_error_status: int = 502
    create_error: int = 0
    create_error_code: int = 1026
    status_word: str | None = None
    status_word_queries: int = 0
    success_without_file: int = 0
    content_fail: int = 0
    expire_downloads: int = 0
    truncate_downloads: int = 0
    random: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def update(self, **kw: Any) -> None:
        names = {f.name: f for f in fields(self)}
        for key, value in kw.items():
            if key not in names:
                raise ValueError(f"unknown fault {key!r}; known: {', '.join(sorted(names))}")
            if key == "status_word":
                if value is not None and not isinstance(value, str):
                    raise ValueError("status_word must be text or null")
            elif key == "random":
                if not isinstance(value, dict):
                    raise ValueError("random must be an object of fault name → probability")
                for name, p in value.items():
                    if name not in names or name in ("random", "server_error_status", "status_word_queries",
                                                      "create_error_code"):
                        raise ValueError(f"random: unknown fault {name!r}")
                    if not isinstance(p, (int, float)) or not 0 <= p <= 1:
                        raise ValueError(f"random: probability of {name!r} must be within 0..1")
                value = {k: float(v) for k, v in value.items()}
            elif key == "delay_create_response":
                value = float(value)
                if value < 0:
                    raise ValueError("delay_create_response must be >= 0")
            else:
                if isinstance(value, bool) and key not in ("server_error_status", "create_error_code"):
                    value = 1 if value else 0
                value = int(value)
                if value < 0:
                    raise ValueError(f"{key} must be >= 0")
            setattr(self, key, value)


@dataclass
class SimConfig:
    """How the demo provider behaves. Times are seconds.

    A video task is ``Preparing`` for ``preparing`` s, ``Queueing`` for ``queueing`` s,
    ``Processing`` for ``processing`` s, then ends. ``state_path`` keeps tasks in an SQLite file
    shared safely by several processes (each may embed its own server on its own port).
    """

    preparing: float = 0.5
    queueing: float = 1.0
    processing: float = 2.0
    image_latency: float = 0.2
    state_path: Path | None = None
    download_ttl: float = 3600.0
    image_url_ttl: float = 86400.0
    seed: int = 0
    video_fps: int = 2
    faults: Faults = field(default_factory=Faults)

    @property
    def total_video_seconds(self) -> float:
        return self.preparing + self.queueing + self.processing

    @classmethod
    def with_latency(cls, seconds: float, **kw: Any) -> "SimConfig":
        """A config whose video tasks take ``seconds`` in all (1:2:4 over the three stages)."""
        s = max(0.0, float(seconds))
        return cls(preparing=s / 7, queueing=2 * s / 7, processing=4 * s / 7, **kw)
