"""Settings of the demo provider: stage timings, persistence, link lifetimes, its clock and the
fault switches (their names, what each does, and how a ``NAME[=VALUE]`` spec is read)."""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Iterable

#: Status words a V1 query can be made to answer instead of the real one (not in the whitelist).
UNKNOWN_STATUS_WORDS = ("completed", "Failed", "expired", "")
#: The same for V2 queries: V1's word, other spellings, and an empty word.
UNKNOWN_STATUS_WORDS_V2 = ("Success", "completed", "expired", "")

#: "Always" for a counted switch given without a number (``--fault rate-limit``).
ALWAYS = 1_000_000


@dataclass(frozen=True)
class FaultInfo:
    kind: str  # "count" | "seconds" | "word" | "code"
    bare: Any  # the value when the spec names the switch without ``=VALUE``
    does: str  # one line for ``slate sim --list-faults`` and docs/DEMO.md


#: Every switch, in the order ``--list-faults`` prints them. Counted switches mean "the next N"
#: (0 turns a switch off; a bare name means always). V1 and V2 answer each in their own shape.
FAULTS: dict[str, FaultInfo] = {
    # -- create refused: nothing is made, nothing billed
    "rate_limit": FaultInfo(
        "count",
        ALWAYS,
        "the next N API requests are rate limited "
        "(V1: base_resp 1002; V2: HTTP 429 with Retry-After)",
    ),
    "rate_limit_creates": FaultInfo("count", ALWAYS, "like rate-limit, for creates only"),
    "retry_after": FaultInfo(
        "seconds", 1.0, "seconds a V2 429 asks to wait (Retry-After, default 1)"
    ),
    "insufficient_balance": FaultInfo(
        "count", ALWAYS, "the next N creates are refused for balance (V1: 1008; V2: HTTP 402)"
    ),
    "input_sensitive": FaultInfo(
        "count",
        ALWAYS,
        "the next N creates are refused as sensitive input (V1: 1026; V2: HTTP 422)",
    ),
    "create_error": FaultInfo(
        "count",
        ALWAYS,
        "the next N creates are refused with create-error-code (V2: the HTTP status of that code)",
    ),
    "create_error_code": FaultInfo(
        "code",
        1026,
        "the code create-error answers (default 1026; "
        "e.g. 1028/1030 quota used up, 2061 model not in plan); alone, "
        "it refuses every create",
    ),
    "server_error": FaultInfo(
        "count",
        ALWAYS,
        "the next N API requests fail before anything is "
        "made (V1: HTML server-error-status; V2: HTTP 500 server_error)",
    ),
    "server_error_creates": FaultInfo("count", ALWAYS, "like server-error, for creates only"),
    "server_error_status": FaultInfo(
        "code", 502, "the HTTP status of V1's server errors (default 502)"
    ),
    "overloaded": FaultInfo(
        "count", ALWAYS, "the next N creates answer HTTP 529 overloaded; nothing is made"
    ),
    # -- create made, answer lost or late: the task exists (ambiguous for the client)
    "lose_create_response": FaultInfo(
        "count",
        ALWAYS,
        "the next N creates make the task (or the "
        "images), then close the connection without an answer",
    ),
    "server_error_after_create": FaultInfo(
        "count",
        ALWAYS,
        "the next N creates make the task, then answer a server error (V1 HTML 5xx; V2 500)",
    ),
    "delay_create_response": FaultInfo(
        "seconds", 2.0, "every create waits this many seconds after the task exists"
    ),
    "hold_create_response": FaultInfo(
        "count",
        ALWAYS,
        "the next N creates make the task, then hold their answer until released "
        "(in-process: SimServer.release_creates; stopping the server releases them too)",
    ),
    # -- task progress and outcome
    "slow": FaultInfo(
        "seconds",
        600.0,
        "video tasks created while set stay this many seconds "
        "longer in Processing (V2: running); kept with the task",
    ),
    "status_word": FaultInfo(
        "word",
        "",
        "every query answers this status word instead of the "
        "real one (e.g. completed, Success, Failed, or empty)",
    ),
    "status_word_queries": FaultInfo("count", 1, "limits status-word to the next N queries"),
    "foreign_answer": FaultInfo(
        "count",
        ALWAYS,
        "the next N task queries (V1, V2, async speech) answer another task's object, its own "
        "id in it (a finished one when there is one)",
    ),
    "huge_usage": FaultInfo(
        "count",
        ALWAYS,
        "the next N succeeded V2 answers report usage.output_seconds of 1e30 (billed as made)",
    ),
    "success_without_file": FaultInfo(
        "count",
        ALWAYS,
        "the next N video tasks succeed without a file (V1: no file_id; V2: no content.url)",
    ),
    "content_fail": FaultInfo(
        "count",
        ALWAYS,
        "the next N video tasks fail with "
        "content-fail-code; the next N image creates have every image "
        "blocked",
    ),
    "content_fail_code": FaultInfo(
        "code",
        1027,
        "the error code content-fail reports (default "
        "1027, output sensitive); alone, it fails every video task",
    ),
    "block_images": FaultInfo(
        "count",
        1,
        "the next image create has N of its images blocked "
        "by the safety filter (failed_count N, fewer images)",
    ),
    # -- downloads
    "expired_url": FaultInfo(
        "count",
        ALWAYS,
        "the next N V2 content.url links are issued "
        "already expired (403 until the task is queried again)",
    ),
    "expire_downloads": FaultInfo(
        "count", ALWAYS, "the next N downloads answer 403 as if the link had expired"
    ),
    "truncate_downloads": FaultInfo(
        "count", ALWAYS, "the next N downloads declare the full length, send half, and close"
    ),
    # -- a hostile server (never part of the default mix; named or drawn only)
    "drip_downloads": FaultInfo(
        "count",
        ALWAYS,
        "the next N downloads trickle their bytes in 512-byte pieces, "
        "20 ms apart (a slow-drip server)",
    ),
    "undecodable_media": FaultInfo(
        "count",
        ALWAYS,
        "the next N downloads serve media that does not decode as asked: a "
        "video whose frames are garbage behind a sound container, an image of 1x1 pixels or a "
        "decompression bomb claiming 13300x13300",
    ),
    "short_sound": FaultInfo(
        "count",
        ALWAYS,
        "the next N sound answers (music, speech) report a length twice as long as the sound "
        "they carry",
    ),
    "drip_headers": FaultInfo(
        "count",
        ALWAYS,
        "the next N downloads send their status line and headers a byte every 0.5 s, "
        "never ending them (until the client lets go; 2 min at most)",
    ),
    "gzip_downloads": FaultInfo(
        "count",
        ALWAYS,
        "the next N downloads answer a chunked Content-Encoding: gzip body that never ends and "
        "decodes to nothing (an empty deflate block every 0.2 s, 2 min at most)",
    ),
    "drip_answers": FaultInfo(
        "count",
        ALWAYS,
        "the next N create answers (the task is made) send their headers, then their body a "
        "byte every 0.5 s, never ending it (until the client lets go; 2 min at most)",
    ),
    "overfull_answer": FaultInfo(
        "count",
        ALWAYS,
        "the next N image create answers (the images are made and billed) list twice the "
        "images asked for: a wrong answer, more results than the create asked",
    ),
    "hostile_body": FaultInfo(
        "count",
        ALWAYS,
        "the next N create answers (the task is made) declare a 64 MB body, "
        "send a few bytes and close",
    ),
}
#: Switches ``random`` can draw (probability per name).
RANDOM_FAULTS = tuple(
    name
    for name, info in FAULTS.items()
    # a held create waits for a release only a test gives: never drawn at random
    if info.kind == "count"
    and name not in ("status_word_queries", "block_images", "hold_create_response")
) + ("status_word", "delay_create_response", "block_images")
#: What a bare ``random=P`` switches on.
RANDOM_DEFAULT = (
    "lose_create_response",
    "rate_limit",
    "server_error",
    "status_word",
    "success_without_file",
    "content_fail",
    "expired_url",
    "expire_downloads",
    "truncate_downloads",
)
#: A spec naming one of these alone also switches its counter on (always).
_IMPLIES = {"create_error_code": "create_error", "content_fail_code": "content_fail"}


@dataclass
class Faults:
    """Fault switches of the demo provider; see :data:`FAULTS` for what each does.

    ``random`` maps fault names to probabilities drawn from a generator seeded with
    :attr:`SimConfig.seed` (``status_word`` then picks an unknown word at random).
    """

    lose_create_response: int = 0
    delay_create_response: float = 0.0
    hold_create_response: int = 0
    rate_limit: int = 0
    rate_limit_creates: int = 0
    retry_after: float = 1.0
    insufficient_balance: int = 0
    input_sensitive: int = 0
    server_error: int = 0
    server_error_creates: int = 0
    server_error_after_create: int = 0
    server_error_status: int = 502
    overloaded: int = 0
    create_error: int = 0
    create_error_code: int = 1026
    slow: float = 0.0
    status_word: str | None = None
    status_word_queries: int = 0
    foreign_answer: int = 0
    huge_usage: int = 0
    success_without_file: int = 0
    content_fail: int = 0
    content_fail_code: int = 1027
    block_images: int = 0
    expired_url: int = 0
    expire_downloads: int = 0
    truncate_downloads: int = 0
    drip_downloads: int = 0
    undecodable_media: int = 0
    hostile_body: int = 0
    drip_answers: int = 0
    overfull_answer: int = 0
    drip_headers: int = 0
    gzip_downloads: int = 0
    short_sound: int = 0
    random: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def update(self, **kw: Any) -> None:
        names = {f.name for f in fields(self)}
        for key, value in kw.items():
            if key not in names:
                raise ValueError(f"unknown fault {key!r}; known: {', '.join(sorted(names))}")
            setattr(self, key, _checked(key, value))


def _checked(key: str, value: Any) -> Any:
    """``value`` as switch ``key`` keeps it, or ``ValueError`` naming the switch."""
    if key == "random":
        if not isinstance(value, dict):
            raise ValueError("random must be an object of fault name → probability")
        out: dict[str, float] = {}
        for name, p in value.items():
            if name not in RANDOM_FAULTS:
                raise ValueError(f"random: unknown fault {name!r}")
            if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
                raise ValueError(f"random: probability of {name!r} must be within 0..1")
            out[name] = float(p)
        return out
    kind = FAULTS[key].kind
    if kind == "word":
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{key} must be text or null")
        return value
    if kind == "seconds":
        if isinstance(value, bool):
            raise ValueError(f"{key} must be a number of seconds")
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{key} must be a number of seconds, got {value!r}") from None
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"{key} must be a finite number of seconds >= 0")
        return seconds
    if isinstance(value, bool):
        if kind == "code":
            raise ValueError(f"{key} must be a whole number")
        return 1 if value else 0
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        value = int(value.strip())
    if not isinstance(value, int):
        raise ValueError(f"{key} must be a whole number, got {value!r}")
    if value < 0:
        raise ValueError(f"{key} must be >= 0")
    return value


def fault_name(raw: str) -> str:
    """``lose-create-response`` → ``lose_create_response`` (kebab-case or snake_case)."""
    return raw.strip().replace("-", "_")


def parse_faults(items: Iterable[str] | str | None) -> dict[str, Any]:
    """Fault specs → :meth:`Faults.update` keywords.

    Each item is a comma-separated list of ``NAME[=VALUE]`` (kebab-case or snake_case); a bare
    counted name means always. ``random=P`` draws every random-capable fault with probability
    ``P``; ``random.NAME=P`` one of them. Raises ``ValueError`` naming the bad part.
    """
    if items is None:
        return {}
    if isinstance(items, str):
        items = [items]
    out: dict[str, Any] = {}
    random: dict[str, float] = {}
    for item in items:
        for part in str(item).split(","):
            if not part.strip():
                continue
            raw_name, sep, value = part.partition("=")
            name = fault_name(raw_name)
            value = value.strip()
            if name == "random":
                p = _probability(name, value if sep else "0.05")
                random.update({k: p for k in RANDOM_DEFAULT})
            elif name.startswith("random."):
                sub = fault_name(name[len("random.") :])
                if sub not in RANDOM_FAULTS:
                    raise ValueError(
                        f"random: unknown fault {sub!r}; known: {', '.join(RANDOM_FAULTS)}"
                    )
                random[sub] = _probability(name, value)
            elif name in FAULTS:
                info = FAULTS[name]
                out[name] = _checked(name, value if sep else info.bare)
            else:
                known = ", ".join(n.replace("_", "-") for n in FAULTS)
                raise ValueError(f"unknown fault {raw_name.strip()!r}; known: {known}, random")
    for code, counter in _IMPLIES.items():
        if code in out and counter not in out:
            out[counter] = ALWAYS
    if random:
        out["random"] = random
    return out


def _probability(name: str, value: str) -> float:
    try:
        p = float(value)
    except ValueError:
        raise ValueError(f"{name} must be a probability within 0..1, got {value!r}") from None
    if not 0 <= p <= 1:
        raise ValueError(f"{name} must be a probability within 0..1")
    return p


def fault_lines() -> list[tuple[str, str, str]]:
    """``(name, value, what it does)`` for every switch, kebab-case, for ``--list-faults``."""
    labels = {"count": "[=N]", "seconds": "[=SECONDS]", "word": "=WORD", "code": "=CODE"}
    rows = [(n.replace("_", "-"), labels[i.kind], i.does) for n, i in FAULTS.items()]
    rows.append(
        (
            "random",
            "[=P]",
            "draws "
            + ", ".join(n.replace("_", "-") for n in RANDOM_DEFAULT)
            + " at probability P each (default 0.05); random.NAME=P for one switch",
        )
    )
    return rows


@dataclass
class SimConfig:
    """How the demo provider behaves. Times are seconds.

    A V1 video task is ``Preparing`` for ``preparing`` s, ``Queueing`` for ``queueing`` s,
    ``Processing`` for ``processing`` s, then ends. A V2 task is ``queued`` for
    ``preparing + queueing`` s, ``running`` for ``processing`` s, then ends. ``state_path`` keeps
    tasks in an SQLite file shared safely by several processes (each may embed its own server on
    its own port). ``clock_offset`` moves the provider's clock (tests of the 7-day windows).
    """

    preparing: float = 0.5
    queueing: float = 1.0
    processing: float = 2.0
    image_latency: float = 0.2
    song_seconds: float = 4.0  # how long every song is (a real one lasts minutes)
    regeneration_allowed: bool = True  # the account is on the allow-list for 2K regeneration
    context_ir_mode: str = "inline"  # Context-IR answers the task inline, or "task": a task id
    state_path: Path | None = None
    download_ttl: float = 3600.0
    image_url_ttl: float = 86400.0
    v2_url_ttl: float = 3600.0
    seed: int = 0
    video_fps: int = 2
    clock_offset: float = 0.0
    tls: bool = False  # also answer TLS on the same port (app.sim.tls; `slate sim` turns it on)
    tls_dir: Path | None = None  # where its certificate lives (default: state dir, else temp)
    #: Where rendered videos and pictures are kept, shared by every process that names it
    #: (media are a pure function of their parameters). Default: next to ``state_path``; with
    #: neither, in this process's memory only.
    media_cache: Path | None = None
    faults: Faults = field(default_factory=Faults)

    @property
    def total_video_seconds(self) -> float:
        return self.preparing + self.queueing + self.processing

    def now(self) -> float:
        """The provider's clock: wall time plus :attr:`clock_offset`."""
        return time.time() + self.clock_offset

    @classmethod
    def with_latency(cls, seconds: float, **kw: Any) -> "SimConfig":
        """A config whose video tasks take ``seconds`` in all (1:2:4 over the three stages)."""
        s = max(0.0, float(seconds))
        return cls(preparing=s / 7, queueing=2 * s / 7, processing=4 * s / 7, **kw)
