"""Task states, the provider status whitelist and the one allowed-actions table.

The service enforces this table and the UI shows it; neither keeps a copy.
"""

from __future__ import annotations

from enum import Enum


class State(str, Enum):
    SUBMITTING = "submitting"
    PREPARING = "preparing"
    QUEUEING = "queueing"
    PROCESSING = "processing"
    DOWNLOADING = "downloading"
    SUCCESS = "success"
    FAIL = "fail"
    REJECTED = "rejected"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


class Action(str, Enum):
    CREATE = "create"
    QUERY = "query"
    RECOVER = "recover"
    EXPORT = "export"
    OPEN = "open"
    NEW_SLOT = "new_slot"

    def __str__(self) -> str:
        return self.value


TERMINAL = frozenset({State.SUCCESS, State.FAIL})
IN_FLIGHT = frozenset(
    {State.SUBMITTING, State.PREPARING, State.QUEUEING, State.PROCESSING, State.DOWNLOADING}
)
#: States the poller keeps asking about (a submitting record has no task id yet).
POLLABLE = frozenset({State.PREPARING, State.QUEUEING, State.PROCESSING, State.DOWNLOADING})

#: ``None`` stands for the empty slot (no task yet).
ALLOWED_ACTIONS: dict[State | None, tuple[Action, ...]] = {
    None: (Action.CREATE,),
    State.REJECTED: (Action.CREATE, Action.NEW_SLOT),
    State.SUBMITTING: (Action.QUERY,),
    State.PREPARING: (Action.QUERY,),
    State.QUEUEING: (Action.QUERY,),
    State.PROCESSING: (Action.QUERY,),
    State.DOWNLOADING: (Action.QUERY,),
    State.UNKNOWN: (Action.QUERY, Action.RECOVER),
    State.SUCCESS: (Action.EXPORT, Action.OPEN, Action.NEW_SLOT),
    State.FAIL: (Action.RECOVER, Action.NEW_SLOT),
}

#: Why an action is not offered, per state, for tooltips and error messages.
WHY_NOT: dict[Action, str] = {
    Action.CREATE: "this slot already has a task; create again only after a definitive rejection "
    "(use New slot for other parameters)",
    Action.QUERY: "there is no provider task to ask about in this state",
    Action.RECOVER: "recover is for unknown tasks and for failed tasks with results left",
    Action.EXPORT: "only verified media can be exported",
    Action.OPEN: "only verified media can be opened",
    Action.NEW_SLOT: "finish or recover this slot first",
}

#: The provider status whitelist: exact words only.
PROVIDER_STATUS: dict[str, State] = {
    "Preparing": State.PREPARING,
    "Queueing": State.QUEUEING,
    "Processing": State.PROCESSING,
    "Success": State.DOWNLOADING,  # the provider's claim; local success needs verified media
    "Fail": State.FAIL,
}


def state_for_status_word(word: object) -> State:
    """Map a provider status word through the whitelist; anything else is ``unknown``."""
    if isinstance(word, str) and word in PROVIDER_STATUS:
        return PROVIDER_STATUS[word]
    return State.UNKNOWN


def allowed_actions(state: State | str | None, *, has_results: bool = False) -> tuple[Action, ...]:
    """Actions the user may take. ``fail`` offers recover only when results remain."""
    key = State(state) if state is not None else None
    actions = ALLOWED_ACTIONS[key]
    if key is State.FAIL and not has_results:
        actions = tuple(a for a in actions if a is not Action.RECOVER)
    return actions


def is_allowed(action: Action, state: State | str | None, *, has_results: bool = False) -> bool:
    return action in allowed_actions(state, has_results=has_results)
