"""What the service answers: a typed :class:`Result` per command.

A result has an :class:`OutcomeKind`, the slot's RequestId, the task's view, a :class:`Problem`
when something is refused or unknown, and a typed payload where the command returns more
(the history's events, the slot list, the quota report, the exported files). Exit codes and
JSON are the command line's business (``app/cli.py``); the GUI routes results by their kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from typing import Any, Generic, TypeVar

from app.domain.cost import Cost, Spend, SpendTotal
from app.domain.errors import FailReason, Rule, Unchanged, ValidationError
from app.domain.prices import Money
from app.domain.states import SlotOffer, State
from app.service.views import TaskView

P = TypeVar("P")


class OutcomeKind(Enum):
    CREATED = "created"
    REPLAYED = "replayed"
    CONFLICT = "conflict"
    UNKNOWN = "unknown"
    REJECTED = "rejected"
    INVALID = "invalid"
    QUOTA_EXCEEDED = "quota_exceeded"
    BUDGET_EXCEEDED = "budget_exceeded"
    OK = "ok"
    NOT_FOUND = "not_found"
    CANCELLED = "cancelled"
    #: A shot-list row with exactly another slot's settings, not created (``--allow-twins``).
    TWIN = "twin"


class ProblemCode(Enum):
    """The ``error.code`` of an answer."""

    INVALID = "invalid"
    NOT_FOUND = "not_found"
    NOT_ALLOWED = "not_allowed"
    CONFLICT = "conflict"
    UNKNOWN = "unknown"
    REJECTED = "rejected"
    QUOTA_EXCEEDED = "quota_exceeded"
    BUDGET_EXCEEDED = "budget_exceeded"
    STILL_RUNNING = "still_running"
    STORE_BUSY = "store_busy"
    MEDIA_MISSING = "media_missing"
    BAD_HANDLE = "bad_handle"
    NO_KEYRING = "no_keyring"
    BAD_CONFIGURATION = "bad_configuration"
    INTERRUPTED = "interrupted"
    INTERNAL = "internal"
    TWIN = "twin"


@dataclass(frozen=True)
class ProviderAnswer:
    """The provider's own code for a refusal (None when it gave none, e.g. never sent)."""

    code: int | None


@dataclass(frozen=True)
class Problem:
    """Why an answer is not a plain success: a code, words for the user, and what goes with it
    (the field at fault, the provider's code, a conflict's parameter diff and a RequestId for
    a new slot)."""

    code: ProblemCode
    message: str
    field: str | None = None
    provider: ProviderAnswer | None = None
    diff: dict[str, dict[str, Any]] | None = None
    suggested_request_id: str | None = None
    #: An action the slot does not offer: which, and why as a type (``domain.states.Refusal``).
    refused: SlotOffer | None = None
    #: A rule's refusal (INVALID), typed: what it refuses and the values its words need.
    rule: Rule | None = None
    values: dict[str, object] | None = None
    #: Why the action changed nothing, typed (recover: not confirmed, list silent, lookup's finds).
    unchanged: Unchanged | None = None
    #: Why the task was refused, failed or is unknown, typed (``error.reason`` in the JSON).
    reason: FailReason | None = None
    #: The shot-list row the problem is about (``batch``); ``message`` does not repeat it.
    row: int | None = None

    @property
    def full_message(self) -> str:
        """The message as the command line writes it: its row first (``row 3: …``) if any."""
        return self.message if self.row is None else f"row {self.row}: {self.message}"


@dataclass(frozen=True)
class Result(Generic[P]):
    kind: OutcomeKind
    request_id: str | None = None
    task: TaskView | None = None
    problem: Problem | None = None
    payload: P | None = None


# -- payloads ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class HistoryEvent:
    at: float
    event: str
    state: State | None
    detail: str | None
    data: dict[str, Any] | None


#: Said with a slot that holds more than one task (made before the store enforced one).
DUPLICATES_NOTE = (
    "this slot holds more than one task, made before the store enforced one task "
    "per slot; each may have been paid, all are kept: the first is shown as the "
    'slot\'s task, the others under "duplicates"'
)


@dataclass(frozen=True)
class History:
    """A slot's events, oldest first (the events of every task of the slot), and the slot's
    other tasks where it holds several (made before the slot boundary)."""

    events: tuple[HistoryEvent, ...]
    duplicates: tuple[TaskView, ...] = ()


@dataclass(frozen=True)
class SlotTasks:
    """``status`` of a slot that holds more than one task: the others (the first is the
    answer's ``task``)."""

    duplicates: tuple[TaskView, ...]


@dataclass(frozen=True)
class SlotList:
    """Slots, newest first."""

    slots: tuple[TaskView, ...]


@dataclass(frozen=True)
class EarlierPrompt:
    """A prompt this user wrote before: its text, when it was last used, how many slots."""

    text: str
    last_used: float
    uses: int


@dataclass(frozen=True)
class PromptList:
    """This user's earlier prompts, the last used first (prompt recall)."""

    prompts: tuple[EarlierPrompt, ...]


@dataclass(frozen=True)
class QuotaUse:
    used: int
    limit: int | None


@dataclass(frozen=True)
class BudgetReport:
    """Today's use of the daily money budget: what today's slots count for (``spent``: the
    domain's :class:`~app.domain.cost.SpendTotal`, unknown creates at their estimate), the
    ``limit`` (None: no budget) and what is left (None: no budget, or today's spend has a part
    of unknown price)."""

    day: str
    currency: str
    limit: Decimal | None
    spent: SpendTotal

    @property
    def remaining(self) -> Money:
        if self.limit is None or self.spent.estimate is None:
            return None
        return max(Decimal(0), self.limit - self.spent.estimate)


@dataclass(frozen=True)
class QuotaReport:
    """Today's use and limits, per kind (``limit`` None: no limit), and the daily budget."""

    day: str
    video: QuotaUse
    image: QuotaUse
    budget: BudgetReport | None = None
    music: QuotaUse | None = None
    speech: QuotaUse | None = None
    voice: QuotaUse | None = None


@dataclass(frozen=True)
class SpendReport:
    """``spend``: the domain's totals and groups, and the filters that chose the slots."""

    spend: Spend
    project: str | None = None
    since: str | None = None


@dataclass(frozen=True)
class PriceLine:
    """One price of the table in use: a model's whole price (``part`` empty) or one part of it
    (a resolution, ``768P/6`` for a clip, ``input``/``output`` for tokens); ``amount`` None when
    unknown; ``confidence`` official, secondary (shown as "about") or yours."""

    model: str
    kind: str
    scheme: str
    part: str
    amount: Money
    source: str
    confidence: str


@dataclass(frozen=True)
class PricesReport:
    """``prices list``: every price of the table this user's creates are judged by."""

    currency: str
    as_of: str
    lines: tuple[PriceLine, ...]
    changed: PriceLine | None = None  # what ``prices set`` / ``unset`` changed


@dataclass(frozen=True)
class DraftCost:
    """What a draft would cost if created now: the estimate (price table × the normalized
    parameters) and the words the form shows ("about $0.48", "price unknown")."""

    cost: Cost
    text: str
    #: the price table's billing scheme for it (``per_token``: no figure before the answer)
    scheme: str | None = None


@dataclass(frozen=True)
class ExportedFile:
    path: str
    sha256: str
    bytes: int


@dataclass(frozen=True)
class Exported:
    files: tuple[ExportedFile, ...]


@dataclass(frozen=True)
class PrunedSlot:
    """One slot whose local media files ``prune-media`` deleted (the record stays)."""

    request_id: str
    files: tuple[ExportedFile, ...]

    @property
    def bytes(self) -> int:
        return sum(f.bytes for f in self.files)


@dataclass(frozen=True)
class Pruned:
    slots: tuple[PrunedSlot, ...]
    older_than_days: float | None = None

    @property
    def files(self) -> int:
        return sum(len(s.files) for s in self.slots)

    @property
    def bytes(self) -> int:
        return sum(s.bytes for s in self.slots)


@dataclass(frozen=True)
class Candidate:
    """A task at the provider that may be an unknown slot's create."""

    task_id: str
    created_at: float
    model: str | None
    status: str | None


@dataclass(frozen=True)
class LookupReport:
    """What a lookup saw: the window (Unix seconds), how many tasks the provider listed in it,
    those another slot owns, the candidates, and the one attached (None: nothing changed)."""

    window_start: int
    window_end: int
    listed: int
    owned_by_other_slots: tuple[str, ...]
    candidates: tuple[Candidate, ...]
    attached: str | None = None
    #: Candidates another unknown or submitting slot of this user could have made: (task id,
    #: those slots' RequestIds). While any is contested, nothing is attached.
    contested: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class VoiceEntry:
    """One voice as ``voice list`` shows it: its kind (system, designed, cloned), when it was
    made, its last use by a speech slot of this store, the day MiniMax deletes it if unused
    (designed and cloned voices), and the voice slot that made it (None: made elsewhere)."""

    voice_id: str
    kind: str
    made: str | None
    last_used: str | None
    deleted_after: str | None
    request_id: str | None


@dataclass(frozen=True)
class VoicesReport:
    voices: tuple[VoiceEntry, ...]


# -- batches ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Twin:
    """Another slot of this designer with exactly a draft's parameters, made or being made
    (:data:`~app.domain.states.PAID_OR_PAYING`): creating the draft pays for it again. In a
    shot list, ``row`` is the row of the same file that makes it (None: a slot made before)."""

    request_id: str
    state: State
    row: int | None = None


@dataclass(frozen=True)
class BatchRow:
    """One row's answer. ``row``: its number as the user counts it (CSV: the line it starts
    on; YAML: the item number). ``cost``: its estimate (for a slot that exists: the task's
    stored cost). ``prompt``: the row's prompt, as the dry run read it (None: a row that could
    not be read, or one without a prompt). ``twin``: another slot, or an earlier row, with
    exactly this row's settings (outcome ``twin`` when the row was refused for it)."""

    row: int
    line: int
    request_id: str | None
    kind: str | None
    outcome: OutcomeKind
    task: TaskView | None = None
    problem: Problem | None = None
    cost: Cost | None = None
    prompt: str | None = None
    twin: Twin | None = None


@dataclass(frozen=True)
class BatchProgress:
    """One change of one row, as it happens: its answer (``outcome``), or, while waiting, a new
    state of its task (``outcome`` None). ``message`` is one line for people."""

    row: int
    request_id: str | None
    outcome: OutcomeKind | None
    state: State | None
    message: str


ProgressCallback = Callable[[BatchProgress], None]

#: The outcomes every batch answer counts (zeros included), in the order they are shown.
COUNTED = (
    OutcomeKind.CREATED,
    OutcomeKind.REPLAYED,
    OutcomeKind.CONFLICT,
    OutcomeKind.TWIN,
    OutcomeKind.INVALID,
    OutcomeKind.QUOTA_EXCEEDED,
    OutcomeKind.BUDGET_EXCEEDED,
    OutcomeKind.UNKNOWN,
    OutcomeKind.REJECTED,
)


@dataclass(frozen=True)
class BatchReport:
    """A batch's answer: every row in file order, the estimated cost of the rows created (or,
    in a dry run, of those that would be), and today's quota and budget after them (in a dry
    run: as they would be)."""

    dry_run: bool
    rows: tuple[BatchRow, ...]
    cost: Cost
    quota: QuotaReport
    budget: BudgetReport | None = None
    file: str | None = None

    @property
    def counts(self) -> dict[str, int]:
        out = {k.value: 0 for k in COUNTED}
        for r in self.rows:
            out[r.outcome.value] = out.get(r.outcome.value, 0) + 1
        return out


# -- common answers ---------------------------------------------------------------------------
def rid_or_none(request_id: object) -> str | None:
    return request_id if isinstance(request_id, str) else None


def invalid(request_id: object, exc: ValidationError, task: TaskView | None = None) -> Result[Any]:
    """Bad input, naming the field (nothing stored, nothing sent)."""
    return Result(
        OutcomeKind.INVALID,
        rid_or_none(request_id),
        task,
        Problem(
            ProblemCode.INVALID, str(exc), field=exc.field, rule=exc.rule, values=dict(exc.values)
        ),
    )


def not_found(
    request_id: str | None, message: str = "no such slot for this tenant and user"
) -> Result[Any]:
    return Result(
        OutcomeKind.NOT_FOUND, request_id, problem=Problem(ProblemCode.NOT_FOUND, message)
    )


def not_allowed(task: TaskView, message: str, refused: SlotOffer | None = None) -> Result[Any]:
    """The slot's state (or the provider) does not offer this; nothing changed."""
    return Result(
        OutcomeKind.INVALID,
        task.request_id,
        task,
        Problem(ProblemCode.NOT_ALLOWED, message, refused=refused),
    )
