"""What the store hands out and takes in: the scope, row types, the claim's request and result,
and the mappers from database rows to them.

Row types are plain dataclasses (no session, no lazy loading): the service and the read side get
values, never live database objects. Task states come back typed as :class:`State`. The slot
browser's rows and filter (:class:`SlotRow`, :class:`Group`, :class:`SlotFilter`) are
``app.domain.listing``'s, re-exported here.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from functools import cached_property
from typing import Any, Callable, Mapping, NamedTuple

from app.domain.cost import BudgetCheck, Cost
from app.domain.listing import Group as Group
from app.domain.listing import SlotFilter as SlotFilter
from app.domain.listing import SlotRow as SlotRow
from app.domain.prices import PriceTable
from app.domain.states import State
from app.domain.states import has_results as results_present
from app.store.models import media_t, tasks


@dataclass(frozen=True)
class Scope:
    """Who and where: every query of the store is bound to one of these."""

    tenant: str
    user_hash: str
    provider: str
    endpoint: str


@dataclass
class MediaRow:
    id: int
    task_id: int
    position: int
    path: str
    sha256: str
    bytes: int
    content_type: str
    width: int | None
    height: int | None
    duration: float | None
    verified_at: float
    removed_at: float | None = None  # the local file was deleted (prune-media)


@dataclass
class TaskRow:
    id: int
    tenant: str
    user_hash: str
    slot_key: str
    idempotency_key: str
    provider: str
    endpoint: str
    request_id: str
    kind: str
    fingerprint: str
    params: dict[str, Any]
    state: State
    provider_task_id: str | None
    provider_status: str | None
    results: dict[str, Any] | None
    error_code: str | None
    error_message: str | None
    owner_host: str | None
    owner_pid: int | None
    owner_started: float | None
    owner_boot: str | None
    owner_pidns: str | None
    lease_until: float | None
    units: int
    created_at: float
    updated_at: float
    next_poll_at: float | None
    poll_failures: int
    project: str | None
    prompt_text: str | None
    slot_copy: int = 0
    cost_estimate: str | None = None
    cost_currency: str | None = None
    cost_basis: str | None = None
    cost_reported: str | None = None
    cost_day: str | None = None
    hidden_at: float | None = None  # hidden from the browser (slate hide); the record stays
    error_reason: str | None = None  # a FailReason value (migration 0011), None: not known
    media: list[MediaRow] = field(default_factory=list)

    @property
    def has_results(self) -> bool:
        return results_present(self.results)

    @property
    def scope(self) -> Scope:
        return Scope(self.tenant, self.user_hash, self.provider, self.endpoint)


@dataclass
class EventRow:
    id: int
    task_id: int | None
    at: float
    event: str
    state: State | None
    detail: str | None
    data: dict[str, Any] | None


# -- the claim ------------------------------------------------------------------------------
class Owner(NamedTuple):
    """The process that owns a ``submitting`` record: host, process id and start time, and the
    boot and PID namespace that give the process id its meaning (None where the system does
    not say)."""

    host: str
    pid: int
    started: float
    boot: str | None = None
    pidns: str | None = None


@dataclass(frozen=True)
class BudgetRule:
    """The daily money budget the claim checks next to the quota: its ``limit`` in the price
    table's currency, and the ``table`` that prices today's slots stored without a price (slots
    claimed before the cost columns existed)."""

    limit: Decimal
    table: PriceTable


@dataclass(frozen=True)
class ClaimWrite:
    """What a fresh claim writes besides the slot it names. ``cost``: the estimate stored with
    the task; ``budget``: the daily budget to check in the claim transaction (None: none set)."""

    idempotency_key: str
    request_id: str
    params: dict[str, Any]
    units: int
    owner: Owner
    lease_until: float
    quota_limit: int | None
    day: str
    project: str | None = None
    event_data: dict[str, Any] | None = None
    cost: Cost | None = None
    budget: BudgetRule | None = None

    def cost_values(self) -> dict[str, Any]:
        """The task's cost columns as this claim stores them (also when re-claiming)."""
        record = self.cost.to_record() if self.cost is not None else {}
        return {
            "cost_estimate": record.get("estimate"),
            "cost_currency": record.get("currency"),
            "cost_basis": record.get("basis"),
            "cost_reported": None,
            "cost_day": self.day,
        }


@dataclass(frozen=True)
class ClaimRequest:
    """A submit's claim: the slot and the intent, which the read-first compares with the record,
    and what the claim transaction writes — built by ``build`` only when it runs (a replay or a
    conflict never needs it). ``now`` is the claim's one timestamp: a retry after a lost COMMIT
    recognizes its own row by it."""

    scope: Scope
    slot_key: str
    kind: str
    fingerprint: str
    now: float
    build: Callable[[], ClaimWrite]

    @cached_property
    def write(self) -> ClaimWrite:
        return self.build()

    def task_values(self) -> dict[str, Any]:
        """The new task row (``submitting``, owned by this process, under its lease)."""
        s, w = self.scope, self.write
        host, pid, started, boot, pidns = Owner(*w.owner)
        return {
            "tenant": s.tenant,
            "user_hash": s.user_hash,
            "slot_key": self.slot_key,
            "idempotency_key": w.idempotency_key,
            "provider": s.provider,
            "endpoint": s.endpoint,
            "request_id": w.request_id,
            "kind": self.kind,
            "fingerprint": self.fingerprint,
            "params": w.params,
            "state": State.SUBMITTING.value,
            "owner_host": host,
            "owner_pid": pid,
            "owner_started": started,
            "owner_boot": boot,
            "owner_pidns": pidns,
            "lease_until": w.lease_until,
            "units": w.units,
            "slot_copy": 0,
            "created_at": self.now,
            "updated_at": self.now,
            "poll_failures": 0,
            "project": w.project,
            "prompt_text": w.params.get("prompt"),
            "provider_task_id": None,
            "provider_status": None,
            "results": None,
            "error_code": None,
            "error_message": None,
            "error_reason": None,
            "next_poll_at": None,
            "hidden_at": None,
            **w.cost_values(),
        }

    def claim_events(self) -> list[dict[str, Any]]:
        """``submitted`` and ``create_sent``: both durable in the claim transaction, before the
        request leaves."""
        s, w = self.scope, self.write
        base = {
            "tenant": s.tenant,
            "slot_key": self.slot_key,
            "provider": s.provider,
            "endpoint": s.endpoint,
            "at": self.now,
            "state": State.SUBMITTING.value,
        }
        data = jsonable(w.event_data) if w.event_data is not None else None
        return [
            {**base, "event": "submitted", "detail": f"{self.kind} slot claimed", "data": data},
            {
                **base,
                "event": "create_sent",
                "detail": "create request sent to the provider",
                "data": None,
            },
        ]


class ClaimOutcome(Enum):
    CLAIMED = "claimed"  #: this caller owns a fresh ``submitting`` record: it sends the create
    EXISTING = "existing"  #: the slot's record, untouched (also after losing an insert race)
    QUOTA_REFUSED = "quota_refused"  #: today's quota has no room; nothing was written
    BUDGET_REFUSED = "budget_refused"  #: today's budget has no room; nothing was written


@dataclass(frozen=True)
class ClaimResult:
    outcome: ClaimOutcome
    task: TaskRow | None = None
    quota_used: int = 0
    lost_race: bool = False
    budget: BudgetCheck | None = None  #: the budget's answer when it refused

    @property
    def claimed(self) -> bool:
        return self.outcome is ClaimOutcome.CLAIMED

    @classmethod
    def existing(cls, task: TaskRow, *, lost_race: bool = False) -> "ClaimResult":
        return cls(ClaimOutcome.EXISTING, task, lost_race=lost_race)


# -- mappers --------------------------------------------------------------------------------
_TASK_KEYS = tuple(tasks.c.keys())
_TASK_KEY_SET = frozenset(_TASK_KEYS)
_MEDIA_KEYS = tuple(media_t.c.keys())


#: The states by their stored text: a dict lookup, not an Enum call (every task read asks).
_STATE_OF = {s.value: s for s in State}


def task_row(row: Mapping[str, Any]) -> TaskRow:
    """The task of a stored row (its values copied: the row is left as it is)."""
    if type(row) is dict and row.keys() == _TASK_KEY_SET:
        return task_of(dict(row))  # exactly the task's columns: one C copy
    return task_of({k: row[k] for k in _TASK_KEYS})


def task_of(values: dict[str, Any]) -> TaskRow:
    """The task of ``values``, a dict of exactly the task's columns, taken over as it is (not
    copied: the caller made it for this task). Its attributes are set in one dict update
    instead of the dataclass's ``__init__``: 39 attribute stores one by one cost 14 µs on
    every claim and replay, one update 0.6 µs (tests/unit/test_rows.py holds the two equal)."""
    stored = values["state"]
    values["state"] = _STATE_OF.get(stored) or State(stored)  # unknown text: State's own error
    values["media"] = []
    task = object.__new__(TaskRow)
    task.__dict__.update(values)
    return task


def media_row(row: Mapping[str, Any]) -> MediaRow:
    return MediaRow(**{k: row[k] for k in _MEDIA_KEYS})


def event_row(row: Mapping[str, Any]) -> EventRow:
    return EventRow(
        id=row["id"],
        task_id=row["task_id"],
        at=row["at"],
        event=row["event"],
        state=State(row["state"]) if row["state"] is not None else None,
        detail=row["detail"],
        data=row["data"],
    )


def slot_row(r: Any) -> SlotRow:
    """A browser row from a result row of the read side's slot columns."""
    return SlotRow(
        id=r.id,
        request_id=r.request_id,
        kind=r.kind,
        state=State(r.state),
        model=r.model,
        prompt=r.prompt,
        project=r.project or "",
        created_at=r.created_at,
        updated_at=r.updated_at,
        next_poll_at=r.next_poll_at,
        has_results=results_present(r.results),
        provider_status=r.provider_status,
        error_message=r.error_message,
    )


def state_text(state: State | str | None) -> str | None:
    """A state as the column stores it."""
    return None if state is None else State(state).value


def jsonable(value: Any) -> Any:
    """Round-trip through JSON so nothing unserializable reaches a JSON column."""
    return json.loads(json.dumps(value, default=str))


#: The longest text a history event's data keeps whole (a provider's raw answer may carry
#: megabytes: inline images, padding); longer text keeps its start and says how long it was.
HISTORY_TEXT_LIMIT = 4000
HISTORY_TEXT_EXCERPT = 1000
HISTORY_LIST_LIMIT = 200


def bounded(value: Any) -> Any:
    """``value`` (JSON-like) with every long text cut to an excerpt and every long list to its
    first items, each saying what was cut: what the history keeps of a raw answer."""
    if isinstance(value, str):
        if len(value) <= HISTORY_TEXT_LIMIT:
            return value
        return f"{value[:HISTORY_TEXT_EXCERPT]}… [{len(value)} characters, cut]"
    if isinstance(value, dict):
        return {bounded(k): bounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [bounded(v) for v in value[:HISTORY_LIST_LIMIT]]
        if len(value) > HISTORY_LIST_LIMIT:
            items.append(f"… [{len(value)} items, cut]")
        return items
    return value


def pg_clean(value: Any) -> Any:
    """What PostgreSQL cannot store (SQLite can): NUL characters in text, NaN/Infinity in JSON."""
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd") if "\x00" in value else value
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {pg_clean(k): pg_clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [pg_clean(v) for v in value]
    return value
