"""Task states, their groups, the provider status whitelist, and the rules on them.

The allowed-actions table, which recover ways a task offers, and when an existing record may be
claimed again live here once: the service enforces them and the UI shows them; neither keeps a
copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Mapping, Protocol

from app.domain.capabilities import Capabilities
from app.domain.protocols import T2A, V1, V2


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
    CANCELLED = "cancelled"

    def __str__(self) -> str:
        return self.value


class Action(str, Enum):
    CREATE = "create"
    QUERY = "query"
    RECOVER = "recover"
    EXPORT = "export"
    OPEN = "open"
    NEW_SLOT = "new_slot"
    CANCEL = "cancel"

    def __str__(self) -> str:
        return self.value


TERMINAL = frozenset({State.SUCCESS, State.FAIL, State.CANCELLED})
IN_FLIGHT = frozenset(
    {State.SUBMITTING, State.PREPARING, State.QUEUEING, State.PROCESSING, State.DOWNLOADING}
)
#: States of a slot whose create was paid or may be: in flight, unknown (the provider may have
#: it), or a success. A new slot with the same parameters as one of these asks first.
PAID_OR_PAYING = IN_FLIGHT | {State.UNKNOWN, State.SUCCESS}
#: States the poller keeps asking about (a submitting record has no task id yet).
POLLABLE = frozenset({State.PREPARING, State.QUEUEING, State.PROCESSING, State.DOWNLOADING})
#: States ``wait`` stops on: nothing more happens without the user.
STOP_STATES = frozenset({State.SUCCESS, State.FAIL, State.UNKNOWN, State.REJECTED, State.CANCELLED})
#: The slot browser's filter groups besides single states.
FILTER_GROUPS: dict[str, tuple[State, ...]] = {
    "running": (
        State.SUBMITTING,
        State.PREPARING,
        State.QUEUEING,
        State.PROCESSING,
        State.DOWNLOADING,
    ),
    "attention": (State.UNKNOWN, State.FAIL, State.REJECTED),
}

#: ``None`` stands for the empty slot (no task yet).
ALLOWED_ACTIONS: dict[State | None, tuple[Action, ...]] = {
    None: (Action.CREATE,),
    State.REJECTED: (Action.CREATE, Action.NEW_SLOT),
    State.SUBMITTING: (Action.QUERY,),
    State.PREPARING: (Action.QUERY,),
    State.QUEUEING: (Action.QUERY, Action.CANCEL),
    State.PROCESSING: (Action.QUERY,),
    State.DOWNLOADING: (Action.QUERY,),
    State.UNKNOWN: (Action.QUERY, Action.RECOVER),
    State.SUCCESS: (Action.EXPORT, Action.OPEN, Action.NEW_SLOT),
    State.FAIL: (Action.RECOVER, Action.NEW_SLOT),
    State.CANCELLED: (Action.NEW_SLOT,),
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
    Action.CANCEL: "only a task the provider still has queued can be cancelled, and only where "
    "the provider can cancel (MiniMax V2)",
}

#: The provider status whitelists, per protocol: exact words only.
PROVIDER_STATUS: dict[str, State] = {
    "Preparing": State.PREPARING,
    "Queueing": State.QUEUEING,
    "Processing": State.PROCESSING,
    "Success": State.DOWNLOADING,  # the provider's claim; local success needs verified media
    "Fail": State.FAIL,
}
PROVIDER_STATUS_V2: dict[str, State] = {
    "queued": State.QUEUEING,
    "running": State.PROCESSING,
    "succeeded": State.DOWNLOADING,  # the provider's claim, as on V1
    "failed": State.FAIL,
    "cancelled": State.CANCELLED,
}
#: Asynchronous speech: ``Failed`` is not billed, ``Expired`` is (the audio was made and is gone).
PROVIDER_STATUS_T2A: dict[str, State] = {
    "Processing": State.PROCESSING,
    "Success": State.DOWNLOADING,
    "Failed": State.FAIL,
    "Expired": State.FAIL,
}
STATUS_WORDS = {V1: PROVIDER_STATUS, V2: PROVIDER_STATUS_V2, T2A: PROVIDER_STATUS_T2A}
#: Status words of a failure the provider bills all the same.
BILLED_FAILURES: dict[str, frozenset[str]] = {T2A: frozenset({"Expired"})}
#: Status words after which the provider has billed the generation, whatever happens locally
#: afterwards: each protocol's success word, and the failures it bills all the same (async
#: speech's ``Expired``: the audio was made and is gone). The one rule spend, the budget and a
#: slot's charge read (:func:`app.store.spend.provider_billed` and its SQL twin).
BILLED_WORDS: frozenset[str] = frozenset(
    word
    for words in STATUS_WORDS.values()
    for word, state in words.items()
    if state is State.DOWNLOADING
).union(*BILLED_FAILURES.values())


def state_for_status_word(word: object, protocol: str = V1) -> State:
    """Map a provider status word through its protocol's whitelist; anything else (a V1 word
    on V2, another spelling, an empty word) is ``unknown``."""
    words = STATUS_WORDS[protocol]
    if isinstance(word, str) and word in words:
        return words[word]
    return State.UNKNOWN


def allowed_actions(
    state: State | str | None,
    *,
    has_results: bool = False,
    can_cancel: bool = False,
    can_query: bool = True,
) -> tuple[Action, ...]:
    """Actions the user may take. ``fail`` offers recover only when results remain; a queued
    task offers cancel only where its provider can cancel (``can_cancel``: MiniMax V2); an
    unknown task offers query only where there is something to ask (``can_query``: not music
    or synchronous speech, which have no task id)."""
    key = State(state) if state is not None else None
    actions = ALLOWED_ACTIONS[key]
    if key is State.UNKNOWN and not can_query:
        actions = tuple(a for a in actions if a is not Action.QUERY)
    if key is State.FAIL and not has_results:
        actions = tuple(a for a in actions if a is not Action.RECOVER)
    if not can_cancel:
        actions = tuple(a for a in actions if a is not Action.CANCEL)
    return actions


def is_allowed(
    action: Action,
    state: State | str | None,
    *,
    has_results: bool = False,
    can_cancel: bool = False,
    can_query: bool = True,
) -> bool:
    return action in allowed_actions(
        state, has_results=has_results, can_cancel=can_cancel, can_query=can_query
    )


#: Why an unknown music or synchronous speech slot offers neither query nor attach.
NO_TASK_ID = (
    "music and synchronous speech have no task id at MiniMax: there is nothing to ask about "
    "or attach; recover --declare-failed when you are sure"
)


#: A designed voice has no task id: its slot's own voice id is what ``get_voice`` is asked for.
VOICE_BY_ID = (
    "a voice design has no task id: recover --lookup asks MiniMax's voice list for the "
    "slot's own voice id"
)


def has_task_id(kind: str, params: Mapping[str, Any] | None) -> bool:
    """Whether a slot of this kind can have a provider task id to query or attach: not music,
    not synchronous speech (asynchronous speech does)."""
    if kind in ("music", "voice"):
        return False
    if kind == "speech":
        return (params or {}).get("protocol") == "async"
    return True


# -- what a slot offers ------------------------------------------------------------------------
class Refusal(str, Enum):
    """Why a slot does not offer an action: a type, not a sentence. The service and the command
    line say it in their words (:data:`REFUSAL_WHY`), the app in the designer's (``app.present.words``)."""

    STATE = "state"  # the table gives it no such action in this state
    RECOVER_FIRST = "recover_first"  # new slot on an unknown slot: recover or declare failed first
    NO_TASK_ID = "no_task_id"  # unknown, the create's answer never came: nothing to ask about
    #: as NO_TASK_ID, and the provider lists its tasks for this protocol: a lookup may find it
    NO_TASK_ID_LOOKUP = "no_task_id_lookup"
    NO_QUERY = "no_query"  # the kind has no task the provider can be asked about (images)
    #: music and synchronous speech: no task id, and MiniMax keeps no record to look up
    NO_RECORD = "no_record"
    #: a designed voice: no task to query, but get_voice settles it by the slot's own voice id
    VOICE_LOOKUP = "voice_lookup"
    NO_RESULTS = "no_results"  # fail: nothing left to download again
    NO_CANCEL = "no_cancel"  # queued, but this task's protocol cannot cancel (V1)
    MEDIA_REMOVED = "media_removed"  # export: the local media were deleted (tidy-up)

    def __str__(self) -> str:
        return self.value


#: The command line's words for a refusal that is not the table's (those are :data:`WHY_NOT`).
REFUSAL_WHY: dict[Refusal, str] = {
    Refusal.RECOVER_FIRST: "an unknown slot may still be made and billed at the provider; "
    "recover it or declare it failed first (recover --declare-failed --reason TEXT)",
    Refusal.NO_TASK_ID: "the create's answer never arrived, so there is no provider task id to "
    "query; find the task in the provider console and recover --task-id ID, or "
    "recover --declare-failed",
    Refusal.NO_TASK_ID_LOOKUP: "the create's answer never arrived, so there is no provider task "
    "id to query; try recover --lookup (the provider lists its recent tasks), or find the task in "
    "the provider console and recover --task-id ID, or recover --declare-failed",
    Refusal.NO_QUERY: "this kind of task cannot be queried at the provider (it has no task id); "
    "recover --declare-failed when you are sure",
    Refusal.NO_RECORD: NO_TASK_ID,
    Refusal.VOICE_LOOKUP: "a voice design has no task to query; recover --lookup asks the "
    "provider's voice list for the voice id this slot sent, or recover --declare-failed",
    Refusal.NO_RESULTS: "recover is for failed tasks only while results are left to download",
    Refusal.NO_CANCEL: "only a task the provider still has queued can be cancelled, and only "
    "where the provider can cancel (MiniMax V2)",
    Refusal.MEDIA_REMOVED: "the media of this slot were deleted from this machine (prune-media); "
    "the record keeps their SHA-256",
}


class SlotFacts(Protocol):
    """What the offer rules look at: a stored task, its view, or a test's stand-in."""

    @property
    def state(self) -> State | str: ...

    @property
    def kind(self) -> str: ...

    @property
    def has_results(self) -> bool: ...

    @property
    def provider_task_id(self) -> str | None: ...


@dataclass(frozen=True)
class SlotOffer:
    """One action of one slot: offered, or refused with a typed reason."""

    action: Action
    refusal: Refusal | None = None

    @property
    def offered(self) -> bool:
        return self.refusal is None

    @property
    def why_not(self) -> str:
        """The command line's sentence for the refusal ("" when offered)."""
        if self.refusal is None:
            return ""
        if self.refusal is Refusal.STATE:
            return WHY_NOT[self.action]
        return REFUSAL_WHY[self.refusal]


#: Kinds whose create answers with a task id the provider can be asked about later.
ASKABLE_KINDS = frozenset({"video", "prompt"})


def asks_provider(kind: str, caps: Capabilities, params: Mapping[str, Any] | None = None) -> bool:
    """Whether a slot of ``kind`` has a task the provider can be asked about: video and prompt
    tasks have a task id; asynchronous speech too (:func:`has_task_id`); music and synchronous
    speech never; images none, unless the provider can query them (``can_query_images``)."""
    if kind in ("music", "speech", "voice"):
        return has_task_id(kind, params)
    return kind in ASKABLE_KINDS or caps.can_query_images


def slot_offers(task: SlotFacts | None, caps: Capabilities) -> dict[Action, SlotOffer]:
    """Every action, in the table's order, offered or refused with its reason, for ``task`` (None:
    the empty slot) with ``caps``, what the provider can do for **this task's protocol**.

    The table (:data:`ALLOWED_ACTIONS`) narrowed by the task's facts: an unknown slot is queried
    only where it has a task id the provider can be asked about; it never offers a new slot
    (recover or declare failed first); a failed one offers recover only with results left; cancel
    only where the protocol can cancel."""
    if task is None:
        state: State | None = None
        kind, results, task_id = "", False, False
    else:
        state = State(task.state)
        kind, results, task_id = task.kind, bool(task.has_results), bool(task.provider_task_id)
    params = getattr(task, "params", None)
    tasked, askable = has_task_id(kind, params), asks_provider(kind, caps, params)
    return dict(_slot_offers(state, kind, results, task_id, tasked, askable, caps))


@lru_cache(maxsize=512)  # a few states × kinds × facts: every view of a slot asks again
def _slot_offers(
    state: State | None,
    kind: str,
    results: bool,
    task_id: bool,
    tasked: bool,
    askable: bool,
    caps: Capabilities,
) -> dict[Action, SlotOffer]:
    """:func:`slot_offers` from the facts it reads (``tasked``: :func:`has_task_id`;
    ``askable``: :func:`asks_provider`). Callers get a copy: this one is kept."""
    table = ALLOWED_ACTIONS[state]
    out: dict[Action, SlotOffer] = {}
    for action in Action:
        refusal: Refusal | None = None
        if action not in table:
            refusal = Refusal.STATE
            if action is Action.NEW_SLOT and state is State.UNKNOWN:
                refusal = Refusal.RECOVER_FIRST
        elif action is Action.QUERY and state is State.UNKNOWN:
            if kind == "voice":
                refusal = Refusal.VOICE_LOOKUP
            elif kind in ("music", "speech") and not tasked:
                refusal = Refusal.NO_RECORD
            elif not askable:
                refusal = Refusal.NO_QUERY
            elif not task_id:
                refusal = Refusal.NO_TASK_ID_LOOKUP if caps.can_list_tasks else Refusal.NO_TASK_ID
        elif action is Action.RECOVER and state is State.FAIL and not results:
            refusal = Refusal.NO_RESULTS
        elif action is Action.CANCEL and not caps.can_cancel:
            refusal = Refusal.NO_CANCEL
        out[action] = SlotOffer(action, refusal)
    return out


#: The empty slot's offers (create only): no task, so no provider to ask about.
EMPTY_SLOT_OFFERS = slot_offers(None, Capabilities())


def offered(task: SlotFacts | None, caps: Capabilities) -> tuple[Action, ...]:
    """The actions :func:`slot_offers` offers, in the table's order (a task's
    ``allowed_actions``)."""
    return tuple(a for a, o in slot_offers(task, caps).items() if o.offered)


def has_results(results: Mapping[str, Any] | None) -> bool:
    """The provider left something to download (a file id, image URLs, inline images, or a V2
    task whose video a fresh query links again)."""
    r = results or {}
    return bool(
        r.get("file_id")
        or r.get("image_urls")
        or r.get("images")
        or r.get("url_by_query")
        or r.get("file_by_query")  # V1 Success without a file: a fresh query may name it
    )


# -- claiming a slot ----------------------------------------------------------------------------
def same_intent(
    existing_kind: str,
    existing_fp: str,
    existing_user_hash: str,
    kind: str,
    fp: str,
    user_hash: str,
) -> bool:
    """A submit asks for what the record holds: same kind, fingerprint and owner. Anything else
    is a conflict (nothing is sent)."""
    return existing_kind == kind and existing_fp == fp and existing_user_hash == user_hash


def may_reclaim(
    existing_state: State | str,
    existing_kind: str,
    existing_fp: str,
    existing_user_hash: str,
    kind: str,
    fp: str,
    user_hash: str,
) -> bool:
    """A definitively ``rejected`` record may be claimed again by the same intent (nothing was
    created, nothing billed). Every other existing record is answered as it is."""
    return existing_state == State.REJECTED and same_intent(
        existing_kind, existing_fp, existing_user_hash, kind, fp, user_hash
    )


# -- recover --------------------------------------------------------------------------------------
class RecoverWay(str, Enum):
    ATTACH = "attach"
    LOOKUP = "lookup"
    REDOWNLOAD = "redownload"
    DECLARE_FAILED = "declare_failed"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RecoverOption:
    """Whether one recover way is offered, and if not, why. ``state_allows`` is False when the
    slot's state alone rules it out (the rest is the kind or the provider)."""

    offered: bool
    why_not: str = ""
    state_allows: bool = True


class TaskFacts(Protocol):
    """What the recover rules look at: a stored task or its view."""

    @property
    def state(self) -> State: ...

    @property
    def kind(self) -> str: ...

    @property
    def has_results(self) -> bool: ...


def recover_options(
    task: TaskFacts, caps: Capabilities, *, provider: str = "this"
) -> dict[RecoverWay, RecoverOption]:
    """Which recover ways a task offers (none of them ever creates), each with its why-not.

    attach: an unknown task whose provider task id the user found (images only where the
    provider can query them); lookup: an unknown task, where the provider lists tasks;
    redownload: a failed task with results left; declare-failed: an unknown task.
    """
    params = getattr(task, "params", None)
    return dict(
        _recover_options(
            State(task.state),
            task.kind,
            bool(task.has_results),
            has_task_id(task.kind, params),
            asks_provider(task.kind, caps, params),
            asks_provider(task.kind, caps),
            caps.can_list_tasks,
            provider,
        )
    )


@lru_cache(maxsize=512)
def _recover_options(
    state: State,
    kind: str,
    results: bool,
    tasked: bool,
    askable: bool,
    listed: bool,
    can_list_tasks: bool,
    provider: str,
) -> dict[RecoverWay, RecoverOption]:
    """:func:`recover_options` from the facts it reads (``askable``: :func:`asks_provider`
    with the task's parameters; ``listed``: without them). Callers get a copy."""
    unknown = state == State.UNKNOWN

    def unknown_only(what: str) -> RecoverOption:
        return RecoverOption(
            False, f"{what} is for unknown tasks; this one is {state}", state_allows=False
        )

    attach = unknown_only("attach")
    sound = kind in ("music", "speech")
    if unknown:
        attach = RecoverOption(True)
        if sound and not tasked:
            attach = RecoverOption(False, NO_TASK_ID)
        elif not askable:
            attach = RecoverOption(False, "MiniMax cannot query image tasks; use --declare-failed")
    if unknown and kind == "voice":
        attach = RecoverOption(False, VOICE_BY_ID)
    lookup = unknown_only("lookup")
    if unknown:
        lookup = RecoverOption(True)
        if kind == "voice":
            pass  # get_voice lists the slot's own voice id, or not: exact evidence
        elif sound:
            lookup = RecoverOption(
                False,
                NO_TASK_ID
                if not tasked
                else "MiniMax lists no speech tasks; attach the task id with --task-id",
            )
        elif not listed:  # not in any task list: it never had a task id
            lookup = RecoverOption(
                False,
                "a task of this kind is not in the provider's task list; use --declare-failed",
            )
        elif not can_list_tasks:
            lookup = RecoverOption(
                False,
                f"the {provider} provider cannot list tasks; find the "
                "task id in its console and use --task-id",
            )
    redownload = RecoverOption(True)
    if not (state == State.FAIL and results):
        redownload = RecoverOption(
            False, "redownload needs a failed task with results left", state_allows=False
        )
    declare = RecoverOption(True) if unknown else unknown_only("declare-failed")
    return {
        RecoverWay.ATTACH: attach,
        RecoverWay.LOOKUP: lookup,
        RecoverWay.REDOWNLOAD: redownload,
        RecoverWay.DECLARE_FAILED: declare,
    }
