"""The slot on screen, without Qt: what it is, what runs, and what the designer may do now.

:class:`CurrentSlot` holds the slot the main window shows — the task (or none: a draft being
written), its history events, the draft's parameters, what is loading or running — and computes
the **offers**: every :class:`~app.domain.states.Action` with whether it can be taken now, why not
(:class:`Reason`), and which one is the primary button. What a slot offers is the domain's answer
(:func:`~app.domain.states.slot_offers`), which the service computes for each task with the
capabilities of that task's own protocol and hands over in the task's view (``offers``); this
object never decides it again. It only adds what passes: the slot is still loading, settings are
being applied, the action is already running, the draft does not validate. The sentences for the
reasons are :mod:`app.present.words`'s.

It is observable the krita-ai-diffusion way: every :class:`Property` has a ``<name>_changed``
:class:`Signal`, and the derived ``state_changed`` and ``offers_changed`` fire when what they
compute changes. A compound change (``select``, ``show``, ``start_draft``…) is one batch: the
signals fire once, at the end, when every property already holds its new value. No PySide6 here:
the object is tested with plain pytest, and a widget binds with ``slot.offers_changed.connect(…)``.

It needs only a minimal task shape (:class:`SlotTask`), so the service's view type may change
without this module noticing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar, overload, runtime_checkable

from app.domain.params import units
from app.domain.states import EMPTY_SLOT_OFFERS, IN_FLIGHT, Action, Refusal, SlotOffer, State
from app.present.noop import QT_TRANSLATE_NOOP


# -- a tiny observable ---------------------------------------------------------------------------
class Signal:
    """A Qt-free signal: ``connect`` callables, ``emit`` calls them in connection order."""

    __slots__ = ("_slots",)

    def __init__(self) -> None:
        self._slots: list[Callable[..., object]] = []

    def connect(self, slot: Callable[..., object]) -> Callable[[], None]:
        """Connect ``slot``; the returned function disconnects it."""
        self._slots.append(slot)
        return lambda: self.disconnect(slot)

    def disconnect(self, slot: Callable[..., object]) -> None:
        with suppress(ValueError):
            self._slots.remove(slot)

    def emit(self, *args: Any) -> None:
        for slot in tuple(self._slots):
            slot(*args)

    def __len__(self) -> int:
        return len(self._slots)


T = TypeVar("T")


class Property(Generic[T]):
    """An observable attribute of an :class:`Observable`: assigning a different value emits the
    owner's ``<name>_changed`` signal with the new value (after the current batch)."""

    def __init__(self, default: T) -> None:
        self.default = default
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Property[T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> T | Property[T]:
        if obj is None:
            return self
        return obj.__dict__.get(self.name, self.default)  # type: ignore[no-any-return]

    def __set__(self, obj: Observable, value: T) -> None:
        obj._assign(self.name, value)


class Observable:
    """Base of Qt-free state objects: a ``<name>_changed`` :class:`Signal` per :class:`Property`,
    batched changes (:meth:`changes`) and a hook for derived values (:meth:`_changed`)."""

    def __init__(self) -> None:
        self._depth = 0
        self._pending: dict[str, None] = {}
        for name in self._property_names():
            setattr(self, f"{name}_changed", Signal())

    @classmethod
    def _property_names(cls) -> list[str]:
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            names += [
                n for n, v in vars(klass).items() if isinstance(v, Property) and n not in names
            ]
        return names

    def _assign(self, name: str, value: Any) -> None:
        old = getattr(self, name)
        if old is value or (type(old) is type(value) and old == value):
            return
        self.__dict__[name] = value
        self._pending[name] = None
        if not self._depth:
            self._flush()

    @contextmanager
    def changes(self) -> Iterator[None]:
        """Change several properties; their signals fire once, after the last change."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if not self._depth:
                self._flush()

    def _flush(self) -> None:
        while self._pending:
            names, self._pending = list(self._pending), {}
            for name in names:
                getattr(self, f"{name}_changed").emit(getattr(self, name))
            self._changed(set(names))

    def _changed(self, names: set[str]) -> None:
        """Called after the signals of ``names`` fired: recompute derived values here."""


# -- what the slot object needs of the rest of the app ------------------------------------------
@runtime_checkable
class SlotTask(Protocol):
    """The task facts :class:`CurrentSlot` reads (the service's task view has them, and more).
    ``error`` (a mapping or an object with ``message``) is read when present."""

    @property
    def request_id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def state(self) -> str: ...

    @property
    def has_results(self) -> bool: ...

    @property
    def provider_task_id(self) -> str | None: ...

    @property
    def created_at(self) -> float: ...

    @property
    def updated_at(self) -> float: ...

    @property
    def next_poll_at(self) -> float | None: ...

    @property
    def offers(self) -> Mapping[Action, SlotOffer]:
        """What the slot offers (``domain.states.slot_offers`` for this task's protocol)."""


@dataclass(frozen=True)
class Draft:
    """A slot being written: nothing stored yet. ``problem`` is the form's first complaint, in
    the designer's words (already translated), or None when it can be created; ``hint``: that
    complaint only asks for what is not written yet (not a refusal); ``unpriced``: the model
    whose unknown price is why the daily budget refuses the draft (it can be given one)."""

    request_id: str = ""
    kind: str = "video"
    params: Mapping[str, Any] = field(default_factory=dict)
    problem: str | None = None
    hint: bool = False
    unpriced: str | None = None


class Busy(str, Enum):
    """Work under way that some actions must wait for."""

    CREATE = "create"
    QUERY = "query"
    RECOVER = "recover"
    EXPORT = "export"
    CANCEL = "cancel"
    SETTINGS = "settings"  # settings being applied: the service is rebuilt, nothing may act

    def __str__(self) -> str:
        return self.value


# What each kind of work holds back (SETTINGS: everything).
BLOCKS: dict[Busy, frozenset[Action] | None] = {
    Busy.CREATE: frozenset({Action.CREATE}),
    Busy.QUERY: frozenset({Action.QUERY}),
    Busy.RECOVER: frozenset({Action.RECOVER}),
    Busy.EXPORT: frozenset({Action.EXPORT}),
    Busy.CANCEL: frozenset({Action.CANCEL}),
    Busy.SETTINGS: None,
}


# -- offers ----------------------------------------------------------------------------------
class Why(str, Enum):
    """Why an action cannot be taken now (most lasting first)."""

    REFUSED = "refused"  # the slot does not offer it (``refusal``: the domain's typed reason)
    NO_DRAFT = "no_draft"  # nothing to create: no draft on screen
    DRAFT_INVALID = "draft_invalid"  # the draft does not validate (``detail`` says how)
    BUSY = "busy"  # the same work is already running (``detail`` names it)
    LOADING = "loading"  # the slot's record is on its way
    SETTINGS = "settings"  # settings are being applied

    def __str__(self) -> str:
        return self.value


# The primary action per state, in order of preference: the first one the slot can take is the
# highlighted button. An unknown slot without a task id cannot be queried, so Recover leads.
PRIMARY: dict[State | None, tuple[Action, ...]] = {
    None: (Action.CREATE,),
    State.REJECTED: (Action.CREATE,),
    State.UNKNOWN: (Action.QUERY, Action.RECOVER),
    State.SUCCESS: (Action.EXPORT,),
    State.FAIL: (Action.NEW_SLOT,),
    State.CANCELLED: (Action.NEW_SLOT,),
}


@dataclass(frozen=True)
class Reason:
    """Why ``action`` cannot be taken now."""

    why: Why
    action: Action
    detail: str = ""  # DRAFT_INVALID: the form's words; BUSY: the Busy value
    refusal: Refusal | None = None  # REFUSED: the domain's reason

    @property
    def rule(self) -> str | None:
        """The domain's own sentence (as the CLI says it) when the slot refuses."""
        if self.why is not Why.REFUSED or self.refusal is None:
            return None
        return SlotOffer(self.action, self.refusal).why_not


@dataclass(frozen=True)
class Offer:
    """One action as the slot pane shows it: a button enabled or not, why not, primary or not."""

    action: Action
    enabled: bool
    reason: Reason | None = None  # None exactly when enabled
    primary: bool = False  # the highlighted button (only ever an enabled one)


@dataclass(frozen=True)
class Progress:
    """Times for the banner's progress line."""

    state: State
    running: bool  # in flight at the provider (or being sent / downloaded)
    elapsed: float  # seconds since the create was recorded
    next_query_in: float | None  # seconds until the poller asks (running only; 0: now)
    took: float | None  # success or fail: seconds from create to the end
    last_change: float  # when the record last changed (epoch seconds)


def _state_of(task: SlotTask | None) -> State | None:
    return State(task.state) if task is not None else None


# -- the slot on screen ----------------------------------------------------------------------
class CurrentSlot(Observable):
    """The slot the main window shows, as plain observable state (see the module's docstring).

    Signals (``connect(callable)``): ``selected_changed``, ``task_changed``, ``events_changed``,
    ``draft_changed``, ``loading_changed``, ``busy_changed`` (each with the new value), and the
    derived ``state_changed(State | None)`` and ``offers_changed(dict)``.
    """

    selected: Property[str | None] = Property(None)  # the RequestId chosen; None in a draft
    task: Property[SlotTask | None] = Property(None)  # its record; None: a draft or no record
    events: Property[tuple[Any, ...]] = Property(())  # its history, oldest first
    draft: Property[Draft | None] = Property(None)  # the slot being written
    loading: Property[bool] = Property(False)  # selected, its record not yet shown
    busy: Property[frozenset[Busy]] = Property(frozenset())
    #: The slot a draft was started from ("New slot", a result used as an input): its result
    #: stays on screen beside the draft. None otherwise.
    source: Property[SlotTask | None] = Property(None)

    def __init__(self) -> None:
        super().__init__()
        self.state_changed = Signal()
        self.offers_changed = Signal()
        self._last_state: State | None = None
        self._last_offers = self.offers()

    # -- commands: what the window and the controller tell it --------------------------------
    def start_draft(
        self,
        request_id: str = "",
        kind: str = "video",
        params: Mapping[str, Any] | None = None,
        problem: str | None = None,
        source: SlotTask | None = None,
    ) -> None:
        """A new slot being written (blank, or "New slot" from the one on screen: ``source``)."""
        with self.changes():
            self.source = source
            self.selected = None
            self.task = None
            self.events = ()
            self.loading = False
            self.draft = Draft(request_id, kind, dict(params or {}), problem)

    def edit_draft(self, **changes: Any) -> None:
        """The form or the composer changed: ``request_id``, ``kind``, ``params``, ``problem``,
        ``hint``, ``unpriced``."""
        if self.draft is None:
            raise RuntimeError("edit_draft: no draft on screen")
        if "params" in changes:
            changes["params"] = dict(changes["params"])
        self.draft = dataclasses.replace(self.draft, **changes)

    def select(self, request_id: str) -> None:
        """The designer chose a slot: nothing may act until its record is shown."""
        with self.changes():
            self.source = None
            self.draft = None
            self.selected = request_id
            self.task = None
            self.events = ()
            self.loading = True

    def show(self, request_id: str, task: SlotTask | None, events: Iterable[Any] = ()) -> bool:
        """A slot's record arrived. Ignored (False) unless it is the selected slot's."""
        if request_id != self.selected or self.draft is not None:
            return False
        with self.changes():
            self.task = task
            self.events = tuple(events)
            self.loading = False
        return True

    def update_task(self, task: SlotTask) -> bool:
        """A live change of some task: taken (True) when it is the selected slot's."""
        if task.request_id != self.selected or self.draft is not None:
            return False
        self.task = task
        return True

    def begin(self, work: Busy) -> None:
        self.busy = self.busy | {work}

    def end(self, work: Busy) -> None:
        self.busy = self.busy - {work}

    # -- derived -----------------------------------------------------------------------------
    @property
    def state(self) -> State | None:
        return _state_of(self.task)

    @property
    def is_draft(self) -> bool:
        return self.draft is not None

    @property
    def request_id(self) -> str | None:
        """The RequestId on screen: the record's, the selected one, or the draft's (may be "")."""
        if self.task is not None:
            return self.task.request_id
        if self.selected is not None:
            return self.selected
        return self.draft.request_id if self.draft is not None else None

    def slot_offers(self) -> Mapping[Action, SlotOffer]:
        """What the slot offers, whatever runs: the task's own (``TaskView.offers``), or the
        empty slot's."""
        task = self.task
        return task.offers if task is not None else EMPTY_SLOT_OFFERS

    def _lasting_reason(self, action: Action) -> Reason | None:
        """Why not, from what the slot offers and the draft (not what runs)."""
        domain = self.slot_offers().get(action)
        if domain is None or domain.refusal is not None:
            return Reason(Why.REFUSED, action, refusal=domain.refusal if domain else Refusal.STATE)
        task = self.task
        if action is Action.CREATE and task is None:
            if self.draft is None:
                return Reason(Why.NO_DRAFT, action)
            if self.draft.problem:
                return Reason(Why.DRAFT_INVALID, action, self.draft.problem)
        return None

    def _passing_reason(self, action: Action) -> Reason | None:
        """Why not now: settings being applied, the slot loading, the same work running."""
        if Busy.SETTINGS in self.busy:
            return Reason(Why.SETTINGS, action)
        if self.loading:
            return Reason(Why.LOADING, action)
        for work in sorted(self.busy, key=list(Busy).index):
            blocked = BLOCKS[work]
            if blocked is None or action in blocked:
                return Reason(Why.BUSY, action, work.value)
        return None

    @property
    def primary(self) -> Action | None:
        """The state's preferred action that the slot can take (whatever runs right now)."""
        if self.loading:
            return None
        for action in PRIMARY.get(self.state, ()):
            if self._lasting_reason(action) is None:
                return action
        return None

    def offers(self) -> dict[Action, Offer]:
        """Every action, in the domain's order, with whether it can be taken now and why not."""
        primary = self.primary
        out: dict[Action, Offer] = {}
        for action in Action:
            reason = self._passing_reason(action) or self._lasting_reason(action)
            enabled = reason is None
            out[action] = Offer(action, enabled, reason, enabled and action is primary)
        return out

    def offer(self, action: Action) -> Offer:
        return self.offers()[action]

    def enabled_actions(self) -> tuple[Action, ...]:
        return tuple(a for a, o in self.offers().items() if o.enabled)

    @property
    def problem(self) -> str:
        """The provider's or Slate's words for a failed, refused or unknown slot ("" otherwise)."""
        task = self.task
        if task is None or self.state not in (State.FAIL, State.REJECTED, State.UNKNOWN):
            return ""
        error = getattr(task, "error", None)
        if isinstance(error, Mapping):
            return str(error.get("message") or "")
        return str(getattr(error, "message", "") or "")

    @property
    def cost(self) -> tuple[str, int] | None:
        """What creating the draft takes from today's quota: (kind, count)."""
        draft = self.draft
        if draft is None or self.task is not None:
            return None
        return draft.kind, units(draft.kind, draft.params)

    def progress(self, now: float) -> Progress | None:
        task = self.task
        if task is None:
            return None
        state = State(task.state)
        running = state in IN_FLIGHT
        next_in = None
        if running and task.next_poll_at:
            next_in = max(0.0, task.next_poll_at - now)
        took = task.updated_at - task.created_at if state in (State.SUCCESS, State.FAIL) else None
        return Progress(
            state, running, max(0.0, now - task.created_at), next_in, took, task.updated_at
        )

    def _changed(self, names: set[str]) -> None:
        state = self.state
        if state != self._last_state:
            self._last_state = state
            self.state_changed.emit(state)
        offers = self.offers()
        if offers != self._last_offers:
            self._last_offers = offers
            self.offers_changed.emit(offers)


__all__ = [
    "BLOCKS",
    "PRIMARY",
    "QT_TRANSLATE_NOOP",
    "Busy",
    "CurrentSlot",
    "Draft",
    "Observable",
    "Offer",
    "Progress",
    "Property",
    "Reason",
    "Signal",
    "SlotTask",
    "Why",
]
