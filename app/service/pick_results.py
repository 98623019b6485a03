"""What the picks and boards commands answer (``app.service.picks``): typed payloads, light to
import (the command line renders them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResultPick:
    """One result's marks: its number in the slot (1 is the first), flag, rating and boards."""

    result: int
    pick: str | None
    rating: int
    boards: tuple[str, ...] = ()


@dataclass(frozen=True)
class PickReport:
    """A slot's results and their marks (``slate pick``)."""

    results: tuple[ResultPick, ...]


@dataclass(frozen=True)
class BoardInfo:
    name: str
    count: int  # results of this scope on the board
    id: int = 0


@dataclass(frozen=True)
class BoardEntryInfo:
    request_id: str
    result: int  # 1 is the first
    added_at: float


@dataclass(frozen=True)
class BoardReport:
    """``slate board``: the boards (``list``), or one board, its entries and what changed."""

    boards: tuple[BoardInfo, ...] = ()
    board: str | None = None
    entries: tuple[BoardEntryInfo, ...] | None = None
    changed: int = 0
