"""The provider protocol, the video protocol it serves per MiniMax API generation, and the
outcome classes.

Every provider call ends in exactly one of three ways:

* it returns a result (the provider answered: a task id, a status word, a file, images);
* it raises :class:`Refused` — definitively refused, nothing created, nothing billed
  (documented ``base_resp`` codes such as 1002, 1004, 1008, 1026, 2013, 2049, or a request that
  provably never left the machine: connect error, connect/pool timeout);
* it raises :class:`Ambiguous` — the request may have been acted on (read/write timeout after
  sending, connection reset, HTTP 5xx, codes such as 1000/1001/1024/1033, unparseable body).

For a read (query, list, ``files/retrieve``, a download) the same split says whether the outcome
is a verdict: :attr:`ProviderError.try_later` is true for what says nothing about the task —
no answer (``Ambiguous``), a rate limit, a connection that never opened, a stalled transfer —
so the read is asked again after a backoff; a definitive refusal (file not found, bad key) is
evidence (DESIGN.md: a timeout is never a verdict).

Raw responses are kept (secrets removed, ``Trace-Id`` added) for the slot's history.

A :class:`Provider` is one MiniMax host (or the demo provider) with one key. Its videos speak
V1 or V2 (:mod:`app.domain.protocols` decides which from the model): ``provider.api(protocol)``
is that protocol's :class:`VideoApi`, whose :class:`~app.domain.capabilities.Capabilities`
(list, cancel, upload) tell the service what it may ask. Images are V1, on the provider itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Protocol, runtime_checkable

from app.domain.capabilities import Capabilities
from app.domain.errors import FailReason

if TYPE_CHECKING:  # app.domain.lookup loads with a lookup, not with every provider (issue 38)
    from app.domain.lookup import Clock
    from app.domain.lookup import Listed as ListedTask


class ProviderError(Exception):
    """Base of provider outcomes that are not answers. Never carries the API key.
    ``reason``: why, typed, where the raiser knows more than the code says (the transport's
    exceptions); :func:`app.providers.codes.reason_of` answers it for every outcome."""

    def __init__(
        self,
        message: str,
        *,
        code: int | None = None,
        raw: dict[str, Any] | None = None,
        retry_after: float | None = None,
        reason: FailReason | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.raw = raw
        self.retry_after = retry_after
        self.reason = reason

    @property
    def try_later(self) -> bool:
        """For a read-only call: this outcome says nothing about the task (no answer, a rate
        limit, no connection), so the call is made again later; false for a verdict."""
        return False


class Refused(ProviderError):
    """Definitive: nothing was created. ``never_sent`` when the request never left;
    ``unreachable`` when that was because no connection could be made (not our own refusal to
    send it, such as a link to a private address)."""

    def __init__(
        self, message: str, *, never_sent: bool = False, unreachable: bool = False, **kw: Any
    ) -> None:
        super().__init__(message, **kw)
        self.never_sent = never_sent or unreachable
        self.unreachable = unreachable

    @property
    def rate_limited(self) -> bool:
        return self.code == 1002

    @property
    def try_later(self) -> bool:
        return self.rate_limited or self.unreachable


class Ambiguous(ProviderError):
    """The request may have been acted on: the outcome is unknown."""

    @property
    def try_later(self) -> bool:
        return True


class ForeignAnswer(Ambiguous):
    """A query answered with another task than the one asked (or, on V2, with no task id):
    not evidence about the asked task. Kept in the slot's history and otherwise ignored."""

    def __init__(self, asked: str, named: str | None, what: str, raw: dict[str, Any]) -> None:
        super().__init__(
            f"{what}: asked about task {asked}, the answer names "
            f"{'no task' if not named else 'task ' + named}; not evidence, ignored",
            raw=raw,
            reason=FailReason.BAD_ANSWER,
        )
        self.asked = asked
        self.named = named


def same_task(asked: str, named: str | None, what: str, raw: dict[str, Any]) -> None:
    """Raise :class:`ForeignAnswer` unless the answer names the task asked."""
    if named != str(asked):
        raise ForeignAnswer(str(asked), named, what, raw)


class OverfullAnswer(Ambiguous):
    """A create answered with more results than it asked for (``n`` images, one sound): a wrong
    answer — another request's, or a mix of several — not evidence of what this create made.
    Nothing of it is downloaded; the raw answer is kept (long inline data summarized) and the
    slot is ``unknown`` (error code ``overfull_answer``), as for any create answer that cannot
    be trusted."""

    code_word = "overfull_answer"

    def __init__(self, asked: int, got: int, what: str, raw: dict[str, Any]) -> None:
        super().__init__(
            f"{what}: the answer holds {got} results where the create asked for {asked}; "
            "a wrong answer, not evidence of this create's results: nothing downloaded",
            raw=summarized(raw),
            reason=FailReason.OVERFULL_ANSWER,
        )
        self.asked = asked
        self.got = got


def at_most(asked: int, got: int, what: str, raw: dict[str, Any]) -> None:
    """Raise :class:`OverfullAnswer` when an answer holds more results than were asked for."""
    if got > asked:
        raise OverfullAnswer(asked, got, what, raw)


#: Inline data longer than this (base64 images, hex sound) is summarized in kept evidence.
KEPT_TEXT = 2048


def summarized(value: Any) -> Any:
    """``value`` with every long string that is not a link replaced by its length (an answer's
    base64 images are evidence by their count, not their bytes)."""
    if isinstance(value, dict):
        return {k: summarized(v) for k, v in value.items()}
    if isinstance(value, list):
        return [summarized(v) for v in value]
    if (
        isinstance(value, str)
        and len(value) > KEPT_TEXT
        and not value.startswith(("https://", "http://"))
    ):
        return f"<{len(value)} characters of inline data, not kept>"
    return value


class Stalled(ProviderError):
    """A download that arrives slower than the minimum rate was let go: nothing is wrong with
    the task or its media, only the transfer; try again later."""

    @property
    def try_later(self) -> bool:
        return True


def download_status_error(status: int) -> ProviderError | None:
    """A download answered ``status`` instead of 200: what it means, as for API answers (V1's
    rule in :mod:`app.providers.codes`): 5xx and 408 are no answer (:class:`Ambiguous`), 429 a
    rate limit — both tried again later. None for any other status: the link's own answer
    (gone, forbidden), which the caller takes as a failed download."""
    if status >= 500 or status == 408:
        return Ambiguous(f"download answered HTTP {status}", reason=FailReason.SERVER_ERROR)
    if status == 429:
        return Refused("download rate limited (HTTP 429)", code=1002)
    return None


@dataclass(frozen=True)
class VideoCreated:
    task_id: str
    raw: dict[str, Any]


@dataclass(frozen=True)
class VideoStatus:
    """One answer to a video query. ``status`` is the raw word, unmapped. V1 names a
    ``file_id`` (and the size); V2 a time-limited ``url`` and the task's ``usage``."""

    task_id: str
    status: str
    file_id: str | None
    width: int | None
    height: int | None
    raw: dict[str, Any]
    error_code: int | None = None
    error_message: str | None = None
    url: str | None = None
    usage: dict[str, Any] | None = None
    text: str | None = None  # a Context-IR task's enhanced prompt (content.prompt)


@dataclass(frozen=True)
class PromptAnswer:
    """Context-IR's answer: the task inline (``status``, the enhanced ``prompt``, ``usage``) or
    only a ``task_id`` to query (then ``status`` and ``prompt`` are None)."""

    task_id: str
    status: str | None
    prompt: str | None
    usage: dict[str, Any] | None
    raw: dict[str, Any]


@dataclass(frozen=True)
class Cancelled:
    """A DELETE's answer: ``action`` is ``cancelled`` (a queued task) or ``deleted`` (a
    finished one — V2's DELETE deletes finished tasks)."""

    task_id: str
    action: str
    raw: dict[str, Any]


@dataclass(frozen=True)
class Uploaded:
    """An input file uploaded for generation, referenced as ``mm_file://{file_id}``."""

    file_id: str
    raw: dict[str, Any]

    @property
    def url(self) -> str:
        return f"mm_file://{self.file_id}"


@dataclass(frozen=True)
class FileInfo:
    """``files/retrieve``: ``file_id`` normalized to a string whatever the wire type."""

    file_id: str
    download_url: str | None
    bytes: int | None
    filename: str | None
    raw: dict[str, Any]


@dataclass(frozen=True)
class ImageItem:
    """One generated image: a URL to download, or inline bytes from base64."""

    url: str | None = None
    data: bytes | None = None


@dataclass(frozen=True)
class ImageResult:
    id: str | None
    items: list[ImageItem]
    success_count: int | None
    failed_count: int | None
    raw: dict[str, Any]
    usage: dict[str, Any] | None = None  # MiniMax-H3-Image: token usage


@dataclass
class Download:
    """An HTTP download in progress; iterate ``chunks`` and check the headers."""

    status_code: int
    content_length: int | None
    content_type: str | None
    chunks: AsyncIterator[bytes]
    headers: dict[str, str] = field(default_factory=dict)
    #: The bytes that arrived on the wire so far (before any Content-Encoding is decoded);
    #: ``chunks`` may yield ``b""`` for wire bytes that decoded to nothing.
    wire_bytes: Callable[[], int] = lambda: 0


if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """``ListedTask``: a task as a provider's list shows it (for recover: lookup),
        :class:`app.domain.lookup.Listed`, loaded on its first use."""
        if name == "ListedTask":
            from app.domain.lookup import Listed

            return Listed
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@runtime_checkable
class VideoApi(Protocol):
    """One protocol's video endpoints. ``caps`` says which of ``list_tasks``, ``cancel_video``
    and ``upload_file`` it offers; the others raise NotImplementedError and are never called."""

    protocol: str
    caps: Capabilities

    async def create_video(self, body: dict[str, Any]) -> VideoCreated: ...

    async def query_video(self, task_id: str) -> VideoStatus: ...

    async def list_tasks(
        self, since: float, until: float, model: str | None = None
    ) -> list[ListedTask]: ...

    async def cancel_video(self, task_id: str) -> Cancelled: ...

    async def upload_file(self, data: bytes, filename: str) -> Uploaded: ...


@runtime_checkable
class V2Extras(Protocol):
    """MiniMax-H3's paid extras beside the create (the V2 adapter offers them)."""

    async def regenerate_video(self, body: dict[str, Any]) -> VideoCreated: ...

    async def enhance_prompt(self, body: dict[str, Any]) -> PromptAnswer: ...


@runtime_checkable
class KeepsClock(Protocol):
    """An adapter that reads the provider's clock off its answers (``Date``)."""

    def provider_clock(self) -> Clock | None: ...


@runtime_checkable
class Provider(Protocol):
    """What the service needs from a provider. ``name``: minimax|demo; ``endpoint``:
    global|cn|local; ``caps``: what its V1 side can do (images and the legacy videos);
    ``api(protocol)``: the video endpoints of one protocol, with their own ``caps``."""

    name: str
    endpoint: str
    caps: Capabilities

    def api(self, protocol: str) -> VideoApi: ...

    async def create_video(self, body: dict[str, Any]) -> VideoCreated: ...

    async def query_video(self, task_id: str) -> VideoStatus: ...

    async def retrieve_file(self, file_id: str) -> FileInfo: ...

    async def generate_image(self, body: dict[str, Any]) -> ImageResult: ...

    async def generate_h3_image(self, path: str, body: dict[str, Any]) -> ImageResult: ...

    async def generate_sound(
        self, kind: str, body: dict[str, Any], timeout: float | None = None
    ) -> Any: ...

    async def design_voice(self, body: dict[str, Any], timeout: float | None = None) -> Any: ...

    async def get_voices(self, voice_type: str = "all") -> list[Any]: ...

    def download(self, url: str) -> "DownloadContext": ...

    async def list_tasks(
        self, since: float, until: float, model: str | None = None
    ) -> list[ListedTask]: ...

    def warm(self) -> None:
        """Make now what the first request would make (an HTTP client, its modules): before a
        create is claimed, so that nothing slow runs between the record and the send."""
        ...

    async def aclose(self) -> None: ...


class DownloadContext(Protocol):
    async def __aenter__(self) -> Download: ...

    async def __aexit__(self, *exc: object) -> None: ...
