"""Recover by lookup (DESIGN.md "Recover"): the time window around a create, and which listed
tasks are candidates for an unknown slot.

The window runs from 10 s before the claim to 60 s after the create's timeout ran out; provider
timestamps have 1 s granularity, so the bounds are widened to whole seconds. The window is placed
in the provider's clock (:func:`placed`: its offset measured from its own answers, recorded with
the evidence), since it lists tasks by the time it keeps. A candidate has the
slot's model, duration, resolution and ratio (where the list shows one; the demo provider's V1
list also shows the prompt, which must then match too) and is owned by no other slot.
Exactly one candidate may be attached; zero or several change nothing.

A candidate is **contested** while another slot of the same user that is ``unknown`` or
``submitting`` (a rival) could have made it: the task lies in the rival's window and matches the
rival's parameters. A contested lookup lists its candidates and attaches nothing; attach by id
settles it (issue 24 point 4, docs/DECISIONS.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from app.domain.protocols import V2_MODELS

BEFORE_CLAIM = 10.0
AFTER_TIMEOUT = 60.0
COMPARED = ("model", "duration", "resolution", "ratio")


@dataclass(frozen=True)
class Window:
    """Unix seconds, both ends included. ``offset``: the provider's clock minus this machine's
    that placed it in the provider's clock (0: as this machine reads the time), known to within
    ``error`` seconds (the window is widened by it)."""

    start: int
    end: int
    offset: float = 0.0
    error: float = 0.0

    def holds(self, at: float) -> bool:
        return self.start <= at <= self.end


@dataclass(frozen=True)
class Clock:
    """The provider's clock against this machine's, measured from its own answers (the
    ``Date`` they carry): ``offset`` is the provider's time minus ours, within ``error``."""

    offset: float
    error: float


def placed(win: Window, clock: Clock | None) -> Window:
    """``win`` (this machine's clock) moved into the provider's clock and widened by what the
    reading may be off: a provider 90 s behind lists the lost create 90 s before our window."""
    if clock is None or not (math.isfinite(clock.offset) and math.isfinite(clock.error)):
        return win
    slack = max(clock.error, 0.0)
    return Window(
        math.floor(win.start + clock.offset - slack),
        math.ceil(win.end + clock.offset + slack),
        win.offset + clock.offset,
        win.error + slack,
    )


def window(claimed_at: float, timeout_ran_out_at: float) -> Window:
    """From 10 s before the claim to 60 s after the create's timeout ran out, widened to whole
    seconds (the provider's timestamps are whole seconds)."""
    return Window(
        math.floor(claimed_at - BEFORE_CLAIM),
        math.ceil(max(timeout_ran_out_at, claimed_at) + AFTER_TIMEOUT),
    )


@dataclass(frozen=True)
class Listed:
    """One task as a provider's list shows it."""

    task_id: str
    created_at: float
    model: str | None
    status: str | None
    facts: Mapping[str, Any]  # duration, resolution, ratio, and the prompt where shown


def _same(field: str, slot: Any, listed: Any) -> bool:
    if field == "resolution":
        return str(listed or "").upper() == str(slot or "").upper()
    if field == "duration":
        return str(listed) == str(slot)
    return bool(listed == slot)


def _typed(params: Mapping[str, Any]) -> bool:
    """The slot speaks V2, whose list holds generations, regenerations and Context-IR tasks of
    one model together: only the listed ``task_type`` tells them apart."""
    return (
        params.get("model") in V2_MODELS
        or bool(params.get("source_task_id"))
        or "enhance_of" in params
    )


def matches(params: Mapping[str, Any], task: Listed) -> bool:
    """The listed task has the slot's model, duration, resolution and ratio. A fact the slot
    does not have (V1 has no ratio) is not compared; a prompt is compared where the list shows
    one. For a V2 slot the listed ``task_type`` must be the slot's own: a task listed without
    one (a regeneration is a 2K MiniMax-H3 task like a plain 2K generation) is no candidate."""
    facts = {**task.facts, "model": task.model}
    for field in COMPARED:
        if field not in params or params[field] is None:
            continue
        if not _same(field, params[field], facts.get(field)):
            return False
    listed_type = facts.get("task_type")
    wanted = (
        "regeneration"
        if params.get("source_task_id")
        else "h3_context_ir"
        if "enhance_of" in params
        else "generation"
    )
    if listed_type is None and _typed(params):
        return False  # which of those it is cannot be told: never a candidate on a guess
    if listed_type is not None and listed_type != wanted:
        return False  # V2 lists generations and regenerations (and Context-IR) together
    if "prompt" in facts and facts["prompt"] is not None:
        return bool(facts["prompt"] == params.get("prompt"))
    return True


@dataclass(frozen=True)
class Rival:
    """Another slot of the same user that is ``unknown`` or ``submitting``: its create may have
    made any task of its shape in its window."""

    request_id: str
    params: Mapping[str, Any]
    window: Window

    def could_own(self, task: Listed) -> bool:
        return self.window.holds(task.created_at) and matches(self.params, task)


@dataclass(frozen=True)
class Selection:
    """What a lookup found: the tasks listed in the window, those owned by another slot (never
    candidates), the candidates, and which candidates rivals contest (id, rival RequestIds)."""

    window: Window
    listed: tuple[Listed, ...]
    owned: tuple[str, ...]
    candidates: tuple[Listed, ...]
    contested: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def found(self) -> Listed | None:
        """The one task to attach, or None (zero or several candidates, or contested)."""
        if self.contested:
            return None
        return self.candidates[0] if len(self.candidates) == 1 else None

    def evidence(self) -> dict[str, Any]:
        """For the slot's history: the window and every task seen."""
        return {
            "window": {
                "start": self.window.start,
                "end": self.window.end,
                "provider_clock_offset": round(self.window.offset, 3),
                "provider_clock_error": round(self.window.error, 3),
            },
            "listed": len(self.listed),
            "owned_by_other_slots": list(self.owned),
            "candidates": [
                {"id": c.task_id, "created_at": c.created_at, "model": c.model, "status": c.status}
                for c in self.candidates
            ],
            "contested": [{"id": tid, "by": list(by)} for tid, by in self.contested],
        }


def select(
    params: Mapping[str, Any],
    win: Window,
    listed: Iterable[Listed],
    owned: Sequence[str],
    rivals: Sequence[Rival] = (),
) -> Selection:
    """Candidates among ``listed``: inside the window, matching the slot, not in ``owned``;
    those a rival could have made are contested."""
    seen = tuple(t for t in listed if win.holds(t.created_at))
    taken = set(owned)
    candidates = tuple(t for t in seen if t.task_id not in taken and matches(params, t))
    contested = []
    for c in candidates:
        by = tuple(sorted({r.request_id for r in rivals if r.could_own(c)}))
        if by:
            contested.append((c.task_id, by))
    return Selection(
        win,
        seen,
        tuple(t.task_id for t in seen if t.task_id in taken),
        candidates,
        tuple(contested),
    )
