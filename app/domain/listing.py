"""The slot browser's and the results gallery's rows, and the browser's filter: plain values
the read side (``app.store.queries``, ``app.store.gallery``) fills and the window shows.

They hold no store and no SQLAlchemy, so the window's modules import them without loading the
store (issue 34: paint first, load after). The store and ``app.service.reads`` re-export them
under their old names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.domain.days import local_day
from app.domain.states import State

#: The slot browser's first page: this many projects (the window reads it before its service is
#: built, ``app.service.early``; the tree pages on by the same count).
PROJECT_PAGE = 100
#: What a read of a page asks for: one row more than the page shows, so that the page which ends
#: the list is known to (the tree then reads no empty page after it).
PROJECT_READ = PROJECT_PAGE + 1


@dataclass(frozen=True)
class SlotFilter:
    """What the browser shows: free text (RequestId or prompt), states, kind, and a start time."""

    search: str = ""
    states: tuple[State, ...] = ()
    kind: str | None = None
    since: float | None = None
    hidden: bool = False  # also the slots hidden from the browser (slate hide)
    #: Picks and boards (``app.store.picks``): ``favourite``, ``reject`` or ``unrejected``; a
    #: rating of at least this (0: any); one board's id. A slot matches when one of its results
    #: does.
    pick: str | None = None
    min_rating: int = 0
    board: int | None = None

    def matches(self, row: SlotRow) -> bool:
        """The same rules as the read side's SQL, for rows that arrive from a listener (a new
        slot has no picks and is on no board yet)."""
        if self.pick in ("favourite", "reject") or self.min_rating or self.board is not None:
            return False
        if not self.hidden and row.extra.get("hidden"):
            return False  # hidden from the browser (a listener's row of a hidden slot)
        if self.states and row.state not in self.states:
            return False
        if self.kind and row.kind != self.kind:
            return False
        if self.since is not None and row.created_at < self.since:
            return False
        if self.search:
            needle = self.search.casefold()
            if (
                needle not in row.request_id.casefold()
                and needle not in (row.prompt or "").casefold()
            ):
                return False
        return True


@dataclass(frozen=True)
class Group:
    """One project or day: its key, how many slots it holds, and its newest task id."""

    key: str
    count: int
    newest_id: int


@dataclass
class SlotRow:
    """What a row of the slot browser needs (no media, no frame data)."""

    id: int
    request_id: str
    kind: str
    state: State
    model: str | None
    prompt: str | None
    project: str
    created_at: float
    updated_at: float
    next_poll_at: float | None = None
    has_results: bool = False
    provider_status: str | None = None
    error_message: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def day(self) -> str:
        """The designer's local day of the slot, as the browser groups it."""
        return local_day(self.created_at)


@dataclass(frozen=True)
class ResultRow:
    """One tile of the gallery: a slot's result (or the slot itself while it has none)."""

    task_id: int
    request_id: str
    state: State
    kind: str
    model: str | None
    prompt: str | None
    project: str
    created_at: float
    position: int  # the result's place in its slot (0 for a slot without media)
    media_id: int | None
    path: str | None  # relative to the data folder, as the media table stores it
    sha256: str | None
    bytes: int | None
    content_type: str | None
    width: int | None
    height: int | None
    duration: float | None
    #: the slot's resolution and provider task (what "Make 2K" asks the domain with)
    resolution: str | None = None
    provider_task_id: str | None = None
    source_task_id: str | None = None  # a 2K regeneration's source task
    #: This user's pick on the result (``favourite``, ``reject`` or None) and rating (0: none).
    pick: str | None = None
    rating: int = 0

    @property
    def key(self) -> tuple[int, int]:
        """Stable identity of the tile in the gallery."""
        return (self.task_id, self.position)


@dataclass(frozen=True)
class QueueEntry:
    """A slot in flight as the queue panel shows it: its row, and whether its create waits for
    the provider's rate limit (its latest event says so)."""

    row: SlotRow
    rate_limited: bool = False
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.row.kind
