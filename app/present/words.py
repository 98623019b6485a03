"""The designer's words for what the provider and the service say: one mapping, in both languages.

Provider failure reasons (codes such as 1026 or 1008, V2's ``new_sensitive``), the service's
messages for an action's outcome (``Problem``), and errors of the app itself are turned into a
plain sentence: what happened and what the designer can do, with no CLI flags, exception class
names, API field names, paths or ids. The original text is kept as :attr:`Said.detail`, which the
window shows one click away ("Details") and the history keeps.

Qt-free (``app.present``, said by the window and the command line alike): the sentences are
marked with ``QT_TRANSLATE_NOOP`` in the ``Words`` context and translated by the ``translate``
function the caller passes (Qt's in the app, ``app.present.translations.translator`` in a
terminal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from app.domain.cost import BudgetCheck, BudgetRefusal, format_money
from app.domain.drafts import Notice, NoticeKind, Problem, ProblemKind, Unavailable
from app.domain.errors import FailReason, Rule, Unchanged
from app.domain.states import (
    Action,
    RecoverWay,
    Refusal,
    SlotOffer,
    State,
    state_for_status_word,
)
from app.present.noop import QT_TRANSLATE_NOOP
from app.present.translations import Translate
from app.present.translations import plain as _plain

CONTEXT = "Words"


# -- the sentences ---------------------------------------------------------------------------------
INPUT_SENSITIVE = QT_TRANSLATE_NOOP(
    "Words",
    "The provider's safety check refused the prompt or an input image. Reword the prompt "
    "or change the image, then try again in a new slot.",
)
OUTPUT_SENSITIVE = QT_TRANSLATE_NOOP(
    "Words",
    "The provider's safety check stopped the generated result, so nothing was delivered. "
    "Try a different prompt in a new slot.",
)
BALANCE = QT_TRANSLATE_NOOP(
    "Words",
    "The MiniMax account has no balance left. Top it up in the MiniMax console, then create again.",
)
RATE_LIMIT = QT_TRANSLATE_NOOP(
    "Words",
    "The provider is receiving too many requests right now (rate limit). Nothing was "
    "made; try again in a minute.",
)
WRONG_KEY = QT_TRANSLATE_NOOP(
    "Words",
    "The API key was refused. A key works only in its own region (international or "
    "mainland China): check the key and the region in Settings.",
)
PLAN_QUOTA = QT_TRANSLATE_NOOP(
    "Words",
    "Your MiniMax plan's allowance is used up for now. Try again later, or raise the "
    "plan's limit in the MiniMax console.",
)
NOT_IN_PLAN = QT_TRANSLATE_NOOP(
    "Words", "This model is not part of your MiniMax plan. Choose another model."
)
BAD_PARAMS = QT_TRANSLATE_NOOP(
    "Words",
    "The provider did not accept these settings. Check the model, duration, resolution "
    "and input images.",
)
VERIFY_ACCOUNT = QT_TRANSLATE_NOOP(
    "Words", "The MiniMax account needs real-name verification before it can generate."
)
BAD_CHARACTERS = QT_TRANSLATE_NOOP(
    "Words",
    "The prompt contains characters the provider does not accept. Remove unusual symbols "
    "and try again.",
)
PROMPT_TOO_LONG = QT_TRANSLATE_NOOP(
    "Words", "The prompt is too long for the provider. Shorten it and try again."
)
NEVER_SENT = QT_TRANSLATE_NOOP(
    "Words",
    "The request never left this computer, so nothing was made or billed. Check the "
    "network connection, then create again.",
)
LOST_ANSWER = QT_TRANSLATE_NOOP(
    "Words",
    "The request left, but the connection broke before the provider's answer arrived. "
    "The task may exist at the provider: look it up, or declare the slot failed if you "
    "are sure it does not.",
)
NO_ANSWER_IN_TIME = QT_TRANSLATE_NOOP(
    "Words",
    "The request left, but no answer came back in time. The task may exist at the "
    "provider: look it up, or declare the slot failed if you are sure it does not.",
)
APP_CLOSED = QT_TRANSLATE_NOOP(
    "Words",
    "Slate was closed while the request was being sent. The task may exist at the "
    "provider: look it up, or declare the slot failed if you are sure it does not.",
)
#: The same, for a slot nothing can be looked up for (an image, a song, a short voice line: the
#: service offers neither attach nor lookup): nothing to look up.
NO_RECORD_SENTENCES = {
    LOST_ANSWER: QT_TRANSLATE_NOOP(
        "Words",
        "The request left, but the connection broke before the answer arrived. MiniMax keeps "
        "no record of this kind of create that Slate could look up: declare the slot failed "
        "when you are sure.",
    ),
    NO_ANSWER_IN_TIME: QT_TRANSLATE_NOOP(
        "Words",
        "The request left, but no answer came back in time. MiniMax keeps no record of this "
        "kind of create that Slate could look up: declare the slot failed when you are sure.",
    ),
    APP_CLOSED: QT_TRANSLATE_NOOP(
        "Words",
        "Slate was closed while the request was being sent. MiniMax keeps no record of this "
        "kind of create that Slate could look up: declare the slot failed when you are sure.",
    ),
}
OVERFULL = QT_TRANSLATE_NOOP(
    "Words",
    "The provider answered with more results than were asked for: a wrong answer, so Slate "
    "kept none of them. It may have made and billed this create; MiniMax keeps no record of "
    "this kind of create that Slate could look up: declare the slot failed when you are sure.",
)
STRANGE_STATUS = QT_TRANSLATE_NOOP(
    "Words",
    "The provider answered with a status Slate does not know, so Slate stopped here and "
    "downloaded nothing. Ask the provider again later.",
)
NO_FILE = QT_TRANSLATE_NOOP("Words", "The provider said the task finished but delivered no file.")
BAD_FILE = QT_TRANSLATE_NOOP(
    "Words",
    "The downloaded file did not pass Slate's check (it does not open as a picture or a "
    "video). Download it again with Recover.",
)
PROVIDER_FAILED = QT_TRANSLATE_NOOP("Words", "The provider reports that the task failed.")
BAD_ANSWER = QT_TRANSLATE_NOOP(
    "Words",
    "The provider's answer could not be read, so Slate cannot tell whether the task was "
    "made. Use Recover to settle it.",
)
LOCAL_ERROR = QT_TRANSLATE_NOOP(
    "Words",
    "Something went wrong inside Slate after the request was sent, so Slate cannot tell "
    "whether the task was made. Use Recover to settle it.",
)
NOT_WRITTEN = QT_TRANSLATE_NOOP(
    "Words",
    "The result was made and billed, but it could not be saved on this computer (is the disk "
    "full?).",
)
REFUSED = QT_TRANSLATE_NOOP(
    "Words",
    "The provider refused the request, so nothing was made. The details say why.",
)
PROVIDER_ERROR = QT_TRANSLATE_NOOP(
    "Words", "The provider had an internal problem with this request."
)
DECLARED = QT_TRANSLATE_NOOP("Words", "This slot was declared failed. The reason given: %1")
# outcomes of the slot pane's actions
LOOKUP_NOTHING = QT_TRANSLATE_NOOP(
    "Words",
    "The provider lists no task that matches this slot. If you find it in the provider's "
    "console, attach its task id with Recover.",
)
LOOKUP_MANY = QT_TRANSLATE_NOOP(
    "Words",
    "The provider lists several tasks that could be this slot and cannot show their "
    "prompts, so none was chosen. Find the right one in the provider's console and attach its "
    "task id with Recover.",
)
LOOKUP_CONTESTED = QT_TRANSLATE_NOOP(
    "Words",
    "The provider lists a task that fits this slot, but another of your slots that is still "
    "unknown could have made it too, so Slate attached nothing. If the provider's console "
    "shows it is this slot's task, attach its task id with Recover.",
)
NOT_CONFIRMED = QT_TRANSLATE_NOOP(
    "Words",
    "The provider did not confirm that task id, so nothing changed. Check the id in "
    "the provider's console.",
)
LIST_SILENT = QT_TRANSLATE_NOOP(
    "Words", "The provider's task list did not answer, so nothing changed. Try again in a moment."
)
QUOTA = QT_TRANSLATE_NOOP(
    "Words",
    "Today's quota is used up, so nothing was sent. It starts again tomorrow, or can be "
    "raised in Settings.",
)
BUDGET = QT_TRANSLATE_NOOP(
    "Words",
    "This would go over today's budget, so nothing was sent. The budget can be changed "
    "in Settings.",
)
STORE_BUSY = QT_TRANSLATE_NOOP(
    "Words", "The slot store is busy with another Slate right now. Try again in a moment."
)
MEDIA_MISSING = QT_TRANSLATE_NOOP(
    "Words", "The media files are no longer on this computer. Use Recover to download them again."
)
NOT_FOUND = QT_TRANSLATE_NOOP(
    "Words", "This slot does not exist (any more) for this team and designer."
)
STILL_RUNNING = QT_TRANSLATE_NOOP(
    "Words", "The task is still running; its media can be exported once it is done."
)
INTERNAL = QT_TRANSLATE_NOOP(
    "Words", "Something went wrong inside Slate. The details below and in the log say what."
)
NETWORK = QT_TRANSLATE_NOOP(
    "Words",
    "The provider could not be reached, so nothing was sent. Check the network connection, "
    "then try again.",
)
STORE_FULL = QT_TRANSLATE_NOOP(
    "Words",
    "The disk that holds Slate's slots is full, so this could not be saved. Nothing stored "
    "was lost; free some space, then try again.",
)
KEYRING = QT_TRANSLATE_NOOP(
    "Words",
    "The system's password store is not available, so the API key cannot be kept. Set "
    "the key in the environment instead (see Settings).",
)
# what a history event's detail says, in the designer's words (the rest is behind Details)
#: Counted words: (one, many); a language with one form translates both alike.
D_IMAGES = (QT_TRANSLATE_NOOP("Words", "1 image"), QT_TRANSLATE_NOOP("Words", "%1 images"))
D_VIDEO = QT_TRANSLATE_NOOP("Words", "video")
D_FILES = (QT_TRANSLATE_NOOP("Words", "1 file"), QT_TRANSLATE_NOOP("Words", "%1 files"))
D_UPLOADED = (
    QT_TRANSLATE_NOOP("Words", "1 input file uploaded"),
    QT_TRANSLATE_NOOP("Words", "%1 input files uploaded"),
)
D_SOUND = QT_TRANSLATE_NOOP("Words", "sound")
D_RETRY = QT_TRANSLATE_NOOP("Words", "nothing was made; sending again in %1 s")
D_NOT_BILLED = QT_TRANSLATE_NOOP("Words", "not billed")
D_NEXT_TRY = QT_TRANSLATE_NOOP("Words", "the result is safe; next try in %1 s")

#: Why an action changed nothing (the service's ``Problem.unchanged``).
STILL_UNKNOWN = QT_TRANSLATE_NOOP(
    "Words",
    "Create stays off: this slot's earlier create has no known outcome, and creating again "
    "could pay twice. Use Recover to settle it.",
)
UNCHANGED_WORDS: dict[Unchanged, str] = {
    Unchanged.STILL_UNKNOWN: STILL_UNKNOWN,
    Unchanged.NOT_CONFIRMED: NOT_CONFIRMED,
    Unchanged.STRANGE_STATUS: STRANGE_STATUS,
    Unchanged.LIST_SILENT: LIST_SILENT,
    Unchanged.LOOKUP_NOTHING: LOOKUP_NOTHING,
    Unchanged.LOOKUP_MANY: LOOKUP_MANY,
    Unchanged.LOOKUP_CONTESTED: LOOKUP_CONTESTED,
}

#: Why a task was refused, failed or is unknown (``FailReason``, typed by the service).
#: ``DECLARED_FAILED`` is said with the designer's own reason (:func:`for_task`).
REASON_WORDS: dict[FailReason, str] = {
    FailReason.NEVER_SENT: NEVER_SENT,
    FailReason.NO_ANSWER: NO_ANSWER_IN_TIME,
    FailReason.CONNECTION_LOST: LOST_ANSWER,
    FailReason.BAD_ANSWER: BAD_ANSWER,
    FailReason.OVERFULL_ANSWER: OVERFULL,
    FailReason.OWNER_GONE: APP_CLOSED,
    FailReason.LOCAL_ERROR: LOCAL_ERROR,
    FailReason.UNRECOGNIZED_STATUS: STRANGE_STATUS,
    FailReason.NO_MEDIA: NO_FILE,
    FailReason.MEDIA_BAD: BAD_FILE,
    FailReason.NOT_WRITTEN: NOT_WRITTEN,
    FailReason.PROVIDER_FAILED: PROVIDER_FAILED,
    FailReason.DECLARED_FAILED: DECLARED,
    FailReason.BALANCE: BALANCE,
    FailReason.RATE_LIMIT: RATE_LIMIT,
    FailReason.SENSITIVE_INPUT: INPUT_SENSITIVE,
    FailReason.SENSITIVE_OUTPUT: OUTPUT_SENSITIVE,
    FailReason.WRONG_KEY: WRONG_KEY,
    FailReason.PLAN_QUOTA: PLAN_QUOTA,
    FailReason.NOT_IN_PLAN: NOT_IN_PLAN,
    FailReason.INVALID_PARAMS: BAD_PARAMS,
    FailReason.PROMPT_TOO_LONG: PROMPT_TOO_LONG,
    FailReason.BAD_CHARACTERS: BAD_CHARACTERS,
    FailReason.VERIFY_ACCOUNT: VERIFY_ACCOUNT,
    FailReason.SERVER_ERROR: PROVIDER_ERROR,
    FailReason.REFUSED: REFUSED,
}


def reason_words(reason: FailReason, *, no_record: bool = False) -> str:
    """The untranslated sentence (context ``Words``) for a typed failure reason; for a slot
    nothing can be looked up for (``no_record``), the words that offer no lookup."""
    said = REASON_WORDS[reason]
    return NO_RECORD_SENTENCES.get(said, said) if no_record else said


def _reason_of(value: Any) -> FailReason | None:
    """A reason as the service gives it (the enum) or as JSON and stored events carry it."""
    return value if isinstance(value, FailReason) else FailReason.of(value)


# -- why an action cannot be taken now (the action bar's tooltips; context ``WhyNot``) ------------
#: A slot whose state has no such action (``Refusal.STATE``), per action.
WHY_NOT_WORDS: dict[Action, str] = {
    Action.CREATE: QT_TRANSLATE_NOOP(
        "WhyNot",
        "This slot already has a task. Create again only after a definitive refusal; "
        "use New slot for other parameters.",
    ),
    Action.QUERY: QT_TRANSLATE_NOOP(
        "WhyNot", "There is no provider task to ask about in this state."
    ),
    Action.RECOVER: QT_TRANSLATE_NOOP(
        "WhyNot", "Recover is for unknown tasks, and for failed tasks with results left."
    ),
    Action.EXPORT: QT_TRANSLATE_NOOP("WhyNot", "Only verified media can be exported."),
    Action.OPEN: QT_TRANSLATE_NOOP("WhyNot", "Only verified media can be opened."),
    Action.NEW_SLOT: QT_TRANSLATE_NOOP("WhyNot", "Finish or recover this slot first."),
    Action.CANCEL: QT_TRANSLATE_NOOP(
        "WhyNot",
        "Only a task the provider still has queued can be cancelled, and only where "
        "the provider can cancel (MiniMax-H3).",
    ),
}
#: The slot's other refusals (``domain.states.Refusal``).
REFUSAL_WORDS: dict[Refusal, str] = {
    Refusal.RECOVER_FIRST: QT_TRANSLATE_NOOP(
        "WhyNot",
        "The task of this slot may still be made and billed at the provider. Recover it, or "
        "declare it failed, before starting a new slot from it.",
    ),
    Refusal.NO_TASK_ID: QT_TRANSLATE_NOOP(
        "WhyNot",
        "The create's answer never arrived, so there is no provider task to ask "
        "about. Use Recover: attach the task id from the provider's console, or declare the "
        "slot failed.",
    ),
    Refusal.NO_TASK_ID_LOOKUP: QT_TRANSLATE_NOOP(
        "WhyNot",
        "The create's answer never arrived, so there is no provider task to ask about. Use "
        "Recover: look the task up at the provider, attach its task id from the provider's "
        "console, or declare the slot failed.",
    ),
    Refusal.NO_QUERY: QT_TRANSLATE_NOOP(
        "WhyNot",
        "The provider cannot look up image tasks. Use Recover to declare the slot failed.",
    ),
    Refusal.NO_RECORD: QT_TRANSLATE_NOOP(
        "WhyNot",
        "The sound's answer was lost and MiniMax keeps no record of it to look up. Use "
        "Recover to declare the slot failed.",
    ),
    Refusal.VOICE_LOOKUP: QT_TRANSLATE_NOOP(
        "WhyNot",
        "A designed voice has no task to ask about. Use Recover: Slate looks the voice up in "
        "your MiniMax voices by the id this slot sent, or you declare the slot failed.",
    ),
    Refusal.NO_RESULTS: WHY_NOT_WORDS[Action.RECOVER],
    Refusal.NO_CANCEL: WHY_NOT_WORDS[Action.CANCEL],
    Refusal.MEDIA_REMOVED: QT_TRANSLATE_NOOP(
        "WhyNot",
        "The media of this slot were deleted from this computer: nothing to export. Download "
        "them again first where the provider still has them.",
    ),
}
#: What the window itself is waiting for: (context, text) per ``ui.current.Why`` value.
WAIT_WORDS: dict[str, tuple[str, str]] = {
    "no_draft": (
        "WhyNot",
        QT_TRANSLATE_NOOP("WhyNot", "Nothing to create yet: start a new slot."),
    ),
    "loading": ("WhyNot", QT_TRANSLATE_NOOP("WhyNot", "Loading the slot…")),
    "settings": ("MainWindow", QT_TRANSLATE_NOOP("MainWindow", "Applying settings…")),
}
#: "Already running", per kind of work (``ui.current.Busy`` value): (context, text).
BUSY_WORDS: dict[str, tuple[str, str]] = {
    "create": ("MainWindow", QT_TRANSLATE_NOOP("MainWindow", "Sending…")),
    "query": ("MainWindow", QT_TRANSLATE_NOOP("MainWindow", "Asking the provider…")),
    "recover": ("WhyNot", QT_TRANSLATE_NOOP("WhyNot", "Recovering…")),
    "export": ("WhyNot", QT_TRANSLATE_NOOP("WhyNot", "Exporting…")),
    "cancel": ("WhyNot", QT_TRANSLATE_NOOP("WhyNot", "Cancelling…")),
    "settings": ("MainWindow", QT_TRANSLATE_NOOP("MainWindow", "Applying settings…")),
}


def refusal_words(offer: SlotOffer) -> str:
    """The designer's sentence (untranslated, context ``WhyNot``) for a refused offer."""
    if offer.refusal is None:
        return ""
    if offer.refusal is Refusal.STATE:
        return WHY_NOT_WORDS[offer.action]
    return REFUSAL_WORDS[offer.refusal]


class Reason(Protocol):
    """Why an action cannot be taken now (``ui.current.Reason``)."""

    @property
    def why(self) -> Enum: ...

    @property
    def action(self) -> Action: ...

    @property
    def detail(self) -> str: ...

    @property
    def refusal(self) -> Refusal | None: ...


def why_not(reason: Reason, translate: Translate | None = None) -> str:
    """The tooltip's sentence for why an action cannot be taken now (translated by
    ``translate(context, text)`` when given)."""
    why = reason.why.value
    if why == "refused":
        context, text = (
            "WhyNot",
            refusal_words(SlotOffer(reason.action, reason.refusal or Refusal.STATE)),
        )
    elif why == "busy":
        context, text = BUSY_WORDS[reason.detail]
    elif why == "draft_invalid":
        return reason.detail  # the form's words, already the designer's
    else:
        context, text = WAIT_WORDS[why]
    return translate(context, text) if translate is not None else text


#: The history's events in the designer's words (context ``Event``).
EVENT_WORDS = {
    "submitted": QT_TRANSLATE_NOOP("Event", "slot claimed, create about to be sent"),
    "create_sent": QT_TRANSLATE_NOOP("Event", "create request sent"),
    "created": QT_TRANSLATE_NOOP("Event", "created at the provider"),
    "status": QT_TRANSLATE_NOOP("Event", "status"),
    "unknown": QT_TRANSLATE_NOOP("Event", "outcome unknown"),
    "rejected": QT_TRANSLATE_NOOP("Event", "refused by the provider"),
    "rate_limited": QT_TRANSLATE_NOOP("Event", "rate limited, waiting"),
    "conflict": QT_TRANSLATE_NOOP("Event", "conflict: other parameters refused"),
    "replayed": QT_TRANSLATE_NOOP("Event", "asked again: answered from the record"),
    "downloaded": QT_TRANSLATE_NOOP("Event", "downloaded"),
    "verified": QT_TRANSLATE_NOOP("Event", "media verified"),
    "verification_failed": QT_TRANSLATE_NOOP("Event", "verification failed"),
    "query_failed": QT_TRANSLATE_NOOP("Event", "query failed"),
    "foreign_answer": QT_TRANSLATE_NOOP("Event", "answer about another task, ignored"),
    "download_stalled": QT_TRANSLATE_NOOP("Event", "download too slow, paused"),
    "media_not_written": QT_TRANSLATE_NOOP(
        "Event", "could not be saved on this computer (disk full?), will try again"
    ),
    "recovered": QT_TRANSLATE_NOOP("Event", "recovered"),
    "declared_failed": QT_TRANSLATE_NOOP("Event", "declared failed"),
    "exported": QT_TRANSLATE_NOOP("Event", "exported"),
    "quota_refused": QT_TRANSLATE_NOOP("Event", "refused: daily quota used up"),
    "budget_refused": QT_TRANSLATE_NOOP("Event", "refused: daily budget would be exceeded"),
    "cancelled": QT_TRANSLATE_NOOP("Event", "cancelled"),
    "deleted": QT_TRANSLATE_NOOP("Event", "removed at the provider instead of cancelled"),
    "inputs": QT_TRANSLATE_NOOP("Event", "input files sent"),
    "journal_replayed": QT_TRANSLATE_NOOP("Event", "the provider's answer, kept safe, recorded"),
    "late_answer": QT_TRANSLATE_NOOP("Event", "the provider's answer came late"),
    "lookup": QT_TRANSLATE_NOOP("Event", "looked up at the provider"),
    "derived": QT_TRANSLATE_NOOP("Event", "a new slot was made from this one"),
    "hidden": QT_TRANSLATE_NOOP("Event", "hidden from the browser (the record stays)"),
    "unhidden": QT_TRANSLATE_NOOP("Event", "shown in the browser again"),
    "media_removed": QT_TRANSLATE_NOOP("Event", "files deleted on this computer (the slot stays)"),
    "redownloaded": QT_TRANSLATE_NOOP("Event", "downloaded again"),
    "": QT_TRANSLATE_NOOP("Event", "other event"),  # one this version of Slate does not know
}
#: An event and its detail on one line ("status: generating"; Chinese puts a full-width colon).
EVENT_LINE = {"format": QT_TRANSLATE_NOOP("Event", "%1: %2")}
#: Events whose stored detail only repeats the event's name (kept behind Details).
QUIET_DETAILS = frozenset({"submitted", "create_sent", "replayed"})


@dataclass(frozen=True)
class Said:
    """A designer's sentence (translated) and the technical original behind it ("" if none)."""

    text: str
    detail: str = ""


_CODE_SENTENCES: dict[str, str] = {
    "1026": INPUT_SENSITIVE,
    "1027": OUTPUT_SENSITIVE,
    "1008": BALANCE,
    "1002": RATE_LIMIT,
    "2045": RATE_LIMIT,
    "1041": RATE_LIMIT,
    "1004": WRONG_KEY,
    "2049": WRONG_KEY,
    "1028": PLAN_QUOTA,
    "1030": PLAN_QUOTA,
    "2056": PLAN_QUOTA,
    "2061": NOT_IN_PLAN,
    "2013": BAD_PARAMS,
    "2038": VERIFY_ACCOUNT,
    "1042": BAD_CHARACTERS,
    "1039": PROMPT_TOO_LONG,
    "1000": PROVIDER_ERROR,
    "1013": PROVIDER_ERROR,
    "1024": PROVIDER_ERROR,
    "1033": PROVIDER_ERROR,
    "never_sent": NEVER_SENT,
    "unknown_status": STRANGE_STATUS,
    "overfull_answer": OVERFULL,
    "no_media": NO_FILE,
    "verification_failed": BAD_FILE,
    "declared_failed": DECLARED,
}


def code_words(code: Any) -> str | None:
    """The untranslated sentence for a stored error code, looked up as a whole (a MiniMax code
    such as ``1008``, or one of Slate's own codes), or None: the code says nothing more. Never
    read out of a message: a code is a key, text is shown as it is."""
    return _CODE_SENTENCES.get(str(code).strip()) if code is not None else None


def for_task(task: Any, translate: Translate = _plain) -> Said:
    """A failed, refused or unknown task's reason in the designer's words ("" when it has none);
    the provider's or Slate's original words as the detail. Said from the typed reason, else
    the stored code looked up whole; a row with neither is shown with its own words."""
    error = getattr(task, "error", None)
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
        typed, own = _reason_of(error.get("reason")), error.get("said")
    else:
        code, message = getattr(error, "code", None), getattr(error, "message", None)
        typed, own = _reason_of(getattr(error, "reason", None)), getattr(error, "said", None)
    if not code and not message and typed is None:
        return Said("")
    state = State(task.state) if task is not None else None
    detail = " · ".join(p for p in (str(code or ""), str(message or "")) if p and p != "unknown")
    if typed is FailReason.DECLARED_FAILED or code == "declared_failed":
        if own:  # the designer's own reason, kept as they gave it
            return Said(translate(CONTEXT, DECLARED).replace("%1", str(own)), str(message or ""))
        return Said(str(message or code), "")  # an earlier row: its stored words
    if typed is not None:  # the service's typed reason: no text read back
        return Said(translate(CONTEXT, REASON_WORDS[typed]), detail)
    said = code_words(code)
    if said is not None:
        return Said(translate(CONTEXT, said), detail)
    if message:  # a row that cannot be mapped: its own words, as they were stored
        return Said(str(message), str(code or "") if code != "unknown" else "")
    said = PROVIDER_FAILED if state is State.FAIL else PROVIDER_ERROR
    if state is State.UNKNOWN:
        said = LOST_ANSWER
    return Said(translate(CONTEXT, said), detail)


def nothing_to_look_up(task: Any) -> bool:
    """The service offers neither attach nor lookup for this slot (its ``recover`` options):
    an image, a song, a short voice line — "look it up" would promise what cannot be done."""
    options = getattr(task, "recover", None) or {}
    ways = [options.get(w) for w in (RecoverWay.ATTACH, RecoverWay.LOOKUP)]
    return bool(options) and not any(o is not None and o.offered for o in ways)


def for_outcome(
    problem: Any,
    *,
    translate: Translate = _plain,
    no_record: bool = False,
) -> Said:
    """An action's answer (a service ``Problem``) in the designer's words; its message as the
    detail. Said from the problem's typed reasons: the offer it refused, the rule it broke, why
    it changed nothing (``Unchanged``), its code, the provider's code."""
    if problem is None:
        return Said("")
    code = getattr(getattr(problem, "code", None), "value", getattr(problem, "code", None))
    message = str(getattr(problem, "message", "") or "")
    provider = getattr(problem, "provider", None)
    said: str | None
    refused = getattr(problem, "refused", None)
    if isinstance(refused, SlotOffer) and refused.refusal is not None:
        return Said(translate("WhyNot", refusal_words(refused)), message)
    rule = getattr(problem, "rule", None)
    if code == "invalid" and isinstance(rule, Rule) and rule is not Rule.OTHER:
        said = rule_words(rule, getattr(problem, "values", None) or {}, problem.field, translate)
        return Said(said[:1].upper() + said[1:], message)
    if code == "invalid":
        return Said(message)
    unchanged = getattr(problem, "unchanged", None)
    typed = _reason_of(getattr(problem, "reason", None))
    if isinstance(unchanged, Unchanged):
        said = UNCHANGED_WORDS[unchanged]
    elif typed is not None and typed is not FailReason.DECLARED_FAILED:
        said = REASON_WORDS[typed]
    else:
        said = {
            "quota_exceeded": QUOTA,
            "budget_exceeded": BUDGET,
            "store_busy": STORE_BUSY,
            "media_missing": MEDIA_MISSING,
            "not_found": NOT_FOUND,
            "still_running": STILL_RUNNING,
            "no_keyring": KEYRING,
            "internal": INTERNAL,
        }.get(str(code))
        if said is None:
            said = code_words(getattr(provider, "code", None))
    if said is None:
        said = INTERNAL if code in (None, "interrupted") else PROVIDER_ERROR
    if no_record and said in NO_RECORD_SENTENCES:  # nothing to look up: not offered
        said = NO_RECORD_SENTENCES[said]
    return Said(translate(CONTEXT, said), message)


#: Reasons an error of the app's own work is said by (the rest are about a task's journey and
#: would say more than is known): a connection never made, and the provider's refusals.
_ERROR_REASONS: dict[FailReason, str] = {
    FailReason.NEVER_SENT: NETWORK,
    **{
        r: REASON_WORDS[r]
        for r in (
            FailReason.BALANCE,
            FailReason.RATE_LIMIT,
            FailReason.SENSITIVE_INPUT,
            FailReason.WRONG_KEY,
            FailReason.PLAN_QUOTA,
            FailReason.NOT_IN_PLAN,
            FailReason.INVALID_PARAMS,
            FailReason.PROMPT_TOO_LONG,
            FailReason.BAD_CHARACTERS,
            FailReason.VERIFY_ACCOUNT,
            FailReason.SERVER_ERROR,
            FailReason.REFUSED,
        )
    },
}
#: Codes of an error of the app's own work (a ``SlateError``'s, or the store's, typed where
#: the error was caught: ``app.service.trouble``).
_ERROR_CODES: dict[str, str] = {
    "store_busy": STORE_BUSY,
    "store_full": STORE_FULL,
    "not_found": NOT_FOUND,
    "no_keyring": KEYRING,
}


def for_error(trouble: Any, translate: Translate = _plain) -> Said:
    """An error of the app's own work (the runner's ``Trouble``: "load slot: OperationalError:
    …" with its typed ``reason`` or ``code``) in the designer's words, its message behind
    Details. Chosen by the type only: a plain message, or one with nothing typed, gets the
    general words (the message is never read for its words)."""
    message = str(getattr(trouble, "message", trouble) or "")
    typed = _reason_of(getattr(trouble, "reason", None))
    code = getattr(trouble, "code", None)
    rule = getattr(trouble, "rule", None)
    if typed is not None and typed in _ERROR_REASONS:
        return Said(translate(CONTEXT, _ERROR_REASONS[typed]), message)
    if code == "invalid" and isinstance(rule, Rule) and rule is not Rule.OTHER:
        field = getattr(trouble, "field", None)
        said = rule_words(rule, getattr(trouble, "values", None) or {}, field, translate)
        return Said(said[:1].upper() + said[1:], message)
    if isinstance(code, str) and code in _ERROR_CODES:
        return Said(translate(CONTEXT, _ERROR_CODES[code]), message)
    return Said(translate(CONTEXT, INTERNAL), message)


def status_word(word: str, state_word: Callable[[State], str]) -> str:
    """A provider status word ("Preparing", "Processing", "Success") in the designer's language:
    the state it stands for, said by ``state_word``; an unknown word stays as it is."""
    for protocol in ("v1", "v2"):
        state = state_for_status_word(word, protocol)
        if state is not State.UNKNOWN:
            return state_word(state)
    return word


def event_detail(
    event: str,
    detail: str,
    state_word: Callable[[State], str],
    translate: Translate = _plain,
    data: Mapping[str, Any] | None = None,
    *,
    no_record: bool = False,
    state: State | None = None,
) -> tuple[str, str]:
    """A history event's detail as the timeline shows it: (shown, technical). Only the designer's
    words are shown — a status word in the designer's language, a failure reason's sentence, how
    many images, how large — and every other word the service kept (ids, hashes, content types,
    paths, URLs, its English sentences) is the technical part, behind Details. The facts come
    from the event's ``data`` only (and a status event's ``state``); an event an earlier version
    wrote without them keeps its stored words as they are — a reason as the line, the rest
    behind Details — never read for facts."""
    if not detail:
        return "", ""
    facts: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
    shown = ""
    if event in ("status", "recovered"):
        word = facts.get("status")
        if isinstance(word, str) and _is_status_word(word):
            shown = status_word(word, state_word)
        elif event == "status" and state is not None and not isinstance(word, str):
            shown = state_word(State(state))  # an earlier event: the state it recorded
    elif event == "declared_failed":  # the designer's own reason, in their own words
        return detail, ""
    elif event in REASON_EVENTS:
        reason = _event_reason(event, facts)
        if reason is None:  # an earlier version's event: its stored words, as they are
            return detail, ""
        if no_record and reason in NO_RECORD_SENTENCES:  # nothing to look up: not offered
            reason = NO_RECORD_SENTENCES[reason]
        shown = translate(CONTEXT, reason)
    elif event == "created" and isinstance(facts.get("images"), int):
        shown = counted(facts["images"], D_IMAGES, translate)
    elif event == "verified" and isinstance(facts.get("media"), list) and facts["media"]:
        shown = _verified_media(facts["media"], translate)
    elif event == "downloaded" and isinstance(facts.get("bytes"), int):
        size = file_size(facts["bytes"])
        w, h = facts.get("width"), facts.get("height")
        shown = f"{size} · {w}×{h}" if w and h else size
    elif event == "exported" and isinstance(facts.get("files"), int):
        shown = counted(facts["files"], D_FILES, translate)
    elif event == "inputs" and isinstance(facts.get("inputs"), Mapping):
        uploaded = sum(
            1
            for given in facts["inputs"].values()
            if isinstance(given, Mapping) and given.get("sent_as") not in (None, "data URL")
        )
        shown = counted(uploaded, D_UPLOADED, translate) if uploaded else ""
    elif event == "rate_limited":
        seconds = _seconds(facts.get("retry_in"))
        shown = translate(CONTEXT, D_RETRY).replace("%1", f"{seconds:.0f}") if seconds else ""
    elif event == "download_stalled":
        seconds = _seconds(facts.get("next_try_in"))
        shown = (
            translate(CONTEXT, D_NEXT_TRY).replace("%1", f"{seconds:.0f}")
            if seconds is not None
            else ""
        )
    elif event == "cancelled":
        shown = translate(CONTEXT, D_NOT_BILLED) if facts.get("billed") is False else ""
    elif event == "quota_refused":
        shown = translate(CONTEXT, QUOTA)
    elif event == "budget_refused":
        shown = translate(CONTEXT, BUDGET)
    return shown, (detail if shown != detail else "")


#: Events whose detail is a reason: said from the event's typed data.
REASON_EVENTS = frozenset(
    {"unknown", "rejected", "query_failed", "verification_failed", "deleted", "lookup"}
)


def _event_reason(event: str, facts: Mapping[str, Any]) -> str | None:
    """The untranslated sentence for a reason event, from its data alone: the lookup's
    evidence, the typed reason, the provider's code looked up whole; None: no such data."""
    if event == "lookup":
        unchanged = facts.get("unchanged")
        if unchanged in {u.value for u in Unchanged}:
            return UNCHANGED_WORDS[Unchanged(unchanged)]
        if "candidates" in facts:  # the lookup's evidence, kept with the event: what it found
            if facts.get("contested"):
                return LOOKUP_CONTESTED
            return LOOKUP_MANY if facts.get("candidates") else LOOKUP_NOTHING
        evidence = facts.get("lookup")
        if isinstance(evidence, Mapping) and evidence.get("listed") is False:
            # a designed voice's lookup written before it carried its ``unchanged`` reason:
            # its evidence's typed flag says get_voice did not list it
            return LOOKUP_NOTHING
        return None
    typed = _reason_of(facts.get("reason"))
    if typed is not None and typed is not FailReason.DECLARED_FAILED:
        return REASON_WORDS[typed]
    return code_words(facts.get("code"))


def _seconds(given: Any) -> float | None:
    """Seconds the event's data says (None: it says none)."""
    if isinstance(given, (int, float)) and not isinstance(given, bool):
        return float(given)
    return None


def _is_status_word(word: str) -> bool:
    return any(state_for_status_word(word, p) is not State.UNKNOWN for p in ("v1", "v2"))


def counted(
    n: int, forms: tuple[str, str], translate: Translate = _plain, context: str = CONTEXT
) -> str:
    """``n`` things in words: ``forms`` (one, many) — "1 image", "3 images" (3 张图片)."""
    return translate(context, forms[0] if n == 1 else forms[1]).replace("%1", str(n))


def file_size(size: int) -> str:
    """Bytes as a designer reads them: "57 KB", "2.4 MB"."""
    return f"{size / 1024 / 1024:.1f} MB" if size >= 1024 * 1024 else f"{size / 1024:.0f} KB"


def _verified_media(media: list[Any], translate: Translate) -> str:
    """The verified media as the event's data lists them → "3 images · 1024×1024"."""
    first = media[0] if isinstance(media[0], Mapping) else {}
    kind = str(first.get("content_type") or "").split("/", 1)[0]
    what = (
        translate(CONTEXT, D_VIDEO) if kind == "video" else counted(len(media), D_IMAGES, translate)
    )
    if kind == "audio":
        what = translate(CONTEXT, D_SOUND)
    w, h = first.get("width"), first.get("height")
    return f"{what} · {w}×{h}" if w and h else what


def event_line(
    event: str,
    detail: str | None,
    state_word: Callable[[State], str],
    translate: Translate = _plain,
    data: Mapping[str, Any] | None = None,
    *,
    no_record: bool = False,
    state: State | None = None,
) -> tuple[str, str]:
    """A history event as one line of the timeline (without its time): (line, technical). The
    line is the event's words and its designer detail; ``technical`` the service's own words.
    ``no_record``: the slot has no task id to look up (music, synchronous speech); ``state``:
    the state the event recorded."""
    known = bool(event) and event in EVENT_WORDS
    word = translate("Event", EVENT_WORDS[event if known else ""])
    technical = "" if known else event
    if detail and event in QUIET_DETAILS:
        return word, detail
    shown, rest = event_detail(
        event, detail or "", state_word, translate, data, no_record=no_record, state=state
    )
    technical = " · ".join(t for t in (technical, rest) if t)
    if not shown:
        return word, technical
    return translate("Event", EVENT_LINE["format"]).replace("%1", word).replace(
        "%2", shown
    ), technical


# -- the draft: why a field is out of reach, the budget's answer ------------------------------------
#: Why a draft's field cannot be used → (context, sentence); ``%1`` is the model.
UNAVAILABLE: dict[Unavailable, tuple[str, str]] = {
    Unavailable.NO_EXPANSION: (
        "CreateForm",
        QT_TRANSLATE_NOOP(
            "CreateForm",
            "Prompt expansion is a MiniMax-H3-Max feature; %1 follows your prompt as written.",
        ),
    ),
    Unavailable.ADAPTIVE_NEEDS_MEDIA: (
        "CreateForm",
        QT_TRANSLATE_NOOP(
            "CreateForm",
            "“adaptive” takes its shape from a first frame or a reference "
            "image or video; without one, choose a fixed ratio.",
        ),
    ),
    Unavailable.FRAMES_WITH_REFERENCES: (
        "CreateForm",
        QT_TRANSLATE_NOOP(
            "CreateForm",
            "Frames and references don't mix: remove the references to start from a frame.",
        ),
    ),
    Unavailable.REFERENCES_WITH_FRAMES: (
        "CreateForm",
        QT_TRANSLATE_NOOP(
            "CreateForm",
            "References and frames don't mix: clear the first and last frame to use references.",
        ),
    ),
    Unavailable.LAST_NEEDS_FIRST: (
        "CreateForm",
        QT_TRANSLATE_NOOP("CreateForm", "%1 needs a first frame before a last frame."),
    ),
}
WRITE_PROMPT = ("CreateForm", QT_TRANSLATE_NOOP("CreateForm", "Write a prompt to start."))
COST_ABOUT = ("CreateForm", QT_TRANSLATE_NOOP("CreateForm", "Cost: about %1"))
COST_UNKNOWN = ("CreateForm", QT_TRANSLATE_NOOP("CreateForm", "Cost: price unknown"))


def price_of(cost: Any, translate: Translate = _plain) -> str | None:
    """A cost's estimate as money ("$0.32"), or None where the price is unknown."""
    estimate = getattr(cost, "estimate", None)
    if estimate is None:
        return None
    return format_money(estimate, getattr(cost, "currency", "USD"))


def cost_line(cost: Any, translate: Translate = _plain, why_unknown: str = "") -> str:
    """The one line that says what a click will cost before it pays — the create form, the voice
    design dialog, the enhance and 2K confirmations: "Cost: about $0.32", or "Cost: price
    unknown" and, where given, why it is unknown (never $0.00)."""
    money = price_of(cost, translate)
    if money is not None:
        return translate(*COST_ABOUT).replace("%1", money)
    unknown = translate(*COST_UNKNOWN)
    return f"{unknown} — {why_unknown}" if why_unknown else unknown


BUDGET_USED = ("CreateForm", QT_TRANSLATE_NOOP("CreateForm", " · today %1 of %2 budget"))
BUDGET_USED_PARTLY = QT_TRANSLATE_NOOP(
    "Words", " · today %1 of the %2 budget (%3 without a price yet, left out)"
)
#: The budget's refusal of a draft → its sentence (``%1`` today's spend, ``%2`` this draft's
#: estimate, ``%3`` the budget, ``%4`` what is left, ``%5`` today's slots of unknown price,
#: ``%6`` the model that has no price).
BUDGET_REFUSALS: dict[BudgetRefusal, str] = {
    BudgetRefusal.OVER: QT_TRANSLATE_NOOP(
        "Words",
        "Create is off: this draft (about %2) would go over today's budget — %1 of %3 is "
        "used, %4 is left. The budget can be changed in Settings.",
    ),
    BudgetRefusal.PRICE_UNKNOWN: QT_TRANSLATE_NOOP(
        "Words",
        "Create is off: %6 has no price yet, and with a daily budget of %3 Slate creates only "
        "what it can price. Give it a price (Settings → Prices, or slate prices set), or "
        "change the budget. Everything else can still be created.",
    ),
    BudgetRefusal.SPEND_UNKNOWN: QT_TRANSLATE_NOOP(
        "Words",
        "Create is off: today's budget of %3 cannot be checked, because slots of unknown "
        "price were made today (%5). The budget can be changed in Settings.",
    ),
}


#: A draft's warning (``app.domain.drafts.Notice``) → its sentence, with the size when it is
#: known and without (``{frame}`` the frame's name, ``{ratio}``, ``{width}``×``{height}``).
NOTICE_WORDS: dict[NoticeKind, tuple[str, str]] = {
    NoticeKind.RATIO_IGNORED: (
        QT_TRANSLATE_NOOP(
            "Words",
            "MiniMax follows the shape of {frame} and ignores the ratio: this video will be "
            "{width}×{height}, not {ratio}.",
        ),
        QT_TRANSLATE_NOOP(
            "Words",
            "MiniMax follows the shape of {frame} and ignores the ratio: this video will not "
            "be {ratio} unless the picture is.",
        ),
    ),
}
#: The frame a notice names, as its sentence says it.
FRAME_WORDS = {
    "first_frame_image": QT_TRANSLATE_NOOP("Words", "the first frame"),
    "last_frame_image": QT_TRANSLATE_NOOP("Words", "the last frame"),
}


def notice(found: Notice, translate: Translate = _plain) -> str:
    """A draft's warning in the designer's words (context ``Words``), its places filled."""
    sized, unsized = NOTICE_WORDS[NoticeKind(found.kind)]
    values = dict(found.values)
    said = translate(CONTEXT, sized if "width" in values else unsized)
    frame = FRAME_WORDS.get(str(values.get("frame") or ""), FRAME_WORDS["first_frame_image"])
    values["frame"] = translate(CONTEXT, frame)
    for key, value in values.items():
        said = said.replace("{" + key + "}", str(value))
    return said


def unavailable(why: Unavailable, model: str, translate: Translate = _plain) -> str:
    """The designer's sentence for a field out of reach."""
    context, text = UNAVAILABLE[Unavailable(why)]
    return translate(context, text).replace("%1", model)


def budget_line(budget: Any, translate: Translate = _plain) -> str:
    """Today's use of the daily budget, said beside a draft's cost ("" without a budget). Where
    today's spend has a part of unknown price, the known part and the number of such slots."""
    if budget is None or budget.limit is None:
        return ""
    spent, cur = budget.spent, budget.currency
    limit = format_money(budget.limit, cur)
    if not spent.unknown_slots:
        return (
            translate(*BUDGET_USED)
            .replace("%1", format_money(spent.estimate, cur))
            .replace("%2", limit)
        )
    return (
        translate(CONTEXT, BUDGET_USED_PARTLY)
        .replace("%1", format_money(spent.known_estimate, cur))
        .replace("%2", limit)
        .replace("%3", str(spent.unknown_slots))
    )


THIS_MODEL = QT_TRANSLATE_NOOP("Words", "this model")


def budget_refusal(
    check: BudgetCheck, currency: str, today: Any = None, translate: Translate = _plain
) -> str:
    """Why the daily budget refuses this draft, in a designer's words (``today``: the day's
    SpendTotal, for the number of slots of unknown price)."""
    refusal = check.refusal or BudgetRefusal.OVER

    def money(amount: Any) -> str:
        return format_money(amount, currency)

    return (
        translate(CONTEXT, BUDGET_REFUSALS[BudgetRefusal(refusal)])
        .replace("%1", money(check.spent))
        .replace("%2", money(check.estimate))
        .replace("%3", money(check.budget))
        .replace("%4", money(check.remaining))
        .replace("%5", str(getattr(today, "unknown_slots", "") or ""))
        .replace("%6", check.model or translate(CONTEXT, THIS_MODEL))
    )


# -- a rule's refusal, typed (``app.domain.errors.Rule``) → the designer's sentence ------
#: ``{name}`` style places are filled from the refusal's values (``{name}``: the file's name).
RULE_WORDS: dict[Rule, str] = {
    Rule.OTHER: QT_TRANSLATE_NOOP("Words", "this cannot be used with these settings."),
    Rule.REQUIRED: QT_TRANSLATE_NOOP("Words", "{model} needs this."),
    Rule.TOO_LONG: QT_TRANSLATE_NOOP(
        "Words", "{count} characters; the limit is {limit}. Shorten it a little."
    ),
    Rule.WHOLE_NUMBER: QT_TRANSLATE_NOOP("Words", "type a whole number."),
    Rule.OUT_OF_RANGE: QT_TRANSLATE_NOOP("Words", "choose a number from {low} to {high}."),
    Rule.NOT_OFFERED: QT_TRANSLATE_NOOP("Words", "{model} does not offer {value}; choose another."),
    Rule.NOT_TAKEN: QT_TRANSLATE_NOOP(
        "Words", "{model} does not take this; remove it or choose another model."
    ),
    Rule.NEEDS_FIRST_FRAME: QT_TRANSLATE_NOOP(
        "Words", "a last frame needs a first frame: add the first frame too."
    ),
    Rule.FRAMES_OR_REFERENCES: QT_TRANSLATE_NOOP(
        "Words", "frames and references don't mix: use one or the other."
    ),
    Rule.SOURCE: QT_TRANSLATE_NOOP(
        "Words", "choose a file, or paste a web address that starts with https://."
    ),
    Rule.PLAIN_HTTP: QT_TRANSLATE_NOOP(
        "Words", "only secure web addresses work: use https:// instead of http://."
    ),
    Rule.PRIVATE_ADDRESS: QT_TRANSLATE_NOOP(
        "Words",
        "{host} cannot be reached by the provider: use a public web address, or choose the file.",
    ),
    Rule.NOT_READ: QT_TRANSLATE_NOOP("Words", "this picture was not read yet: choose it again."),
    Rule.WRONG_KIND: QT_TRANSLATE_NOOP("Words", "{name} is {kind}; this takes {wanted}."),
    Rule.FORMAT: QT_TRANSLATE_NOOP("Words", "{name} is a {format} file; use {allowed}."),
    Rule.CODEC: QT_TRANSLATE_NOOP("Words", "{name} is encoded as {codec}; use {allowed}."),
    Rule.TOO_LARGE: QT_TRANSLATE_NOOP("Words", "{name} is {size} MB; the limit is {limit} MB."),
    Rule.SIDES: QT_TRANSLATE_NOOP(
        "Words", "{name} is {width}×{height} px; each side must be {low}–{high} px."
    ),
    Rule.SHORT_SIDE: QT_TRANSLATE_NOOP(
        "Words", "{name} is {width}×{height} px; its short side must be more than {low} px."
    ),
    Rule.ASPECT: QT_TRANSLATE_NOOP(
        "Words",
        "{name} is too wide or too tall (width/height {aspect}); use a shape from {low} to {high}.",
    ),
    Rule.CLIP_LENGTH: QT_TRANSLATE_NOOP(
        "Words", "{name} lasts {seconds} s; each clip must last {low}–{high} s."
    ),
    Rule.FPS: QT_TRANSLATE_NOOP("Words", "{name} plays {fps} frames a second; use {low}–{high}."),
    Rule.TOO_MANY: QT_TRANSLATE_NOOP("Words", "{count} given; at most {limit}. Remove some."),
    Rule.TOTAL_LENGTH: QT_TRANSLATE_NOOP(
        "Words", "{seconds} s in total; at most {limit} s. Use shorter clips."
    ),
    Rule.AUDIO_ALONE: QT_TRANSLATE_NOOP(
        "Words", "reference audio needs a reference picture or video too."
    ),
    Rule.ADAPTIVE_NEEDS_MEDIA: QT_TRANSLATE_NOOP(
        "Words", "“adaptive” takes its shape from a picture or a video; choose a fixed ratio."
    ),
    Rule.BODY_TOO_LARGE: QT_TRANSLATE_NOOP(
        "Words",
        "the inputs together are {size} MB; one request takes at most {limit} MB. Use smaller "
        "files.",
    ),
    Rule.UNREADABLE: QT_TRANSLATE_NOOP("Words", "{name} cannot be read as {wanted}."),
    Rule.LENGTH: QT_TRANSLATE_NOOP(
        "Words", "{count} characters; it must have {low} to {high} characters."
    ),
    Rule.CHARACTERS: QT_TRANSLATE_NOOP("Words", "“{bad}” cannot be used here; use only {allowed}."),
    Rule.REGEN_MODEL: QT_TRANSLATE_NOOP("Words", "Only a MiniMax-H3 video can be made 2K."),
    Rule.REGEN_OF_REGEN: QT_TRANSLATE_NOOP("Words", "This is already the 2K version."),
    Rule.REGEN_RESOLUTION: QT_TRANSLATE_NOOP(
        "Words", "Only a 768P video can be made 2K; this one is {value}."
    ),
    Rule.REGEN_NOT_FINISHED: QT_TRANSLATE_NOOP("Words", "Only a finished video can be made 2K."),
    Rule.REGEN_TOO_OLD: QT_TRANSLATE_NOOP(
        "Words",
        "MiniMax keeps a video for {days} days only; this one is older, so it can no longer be "
        "made 2K.",
    ),
    Rule.ENHANCE_MODEL: QT_TRANSLATE_NOOP(
        "Words", "Enhance prompt works on MiniMax-H3 videos only."
    ),
    Rule.ENHANCE_NO_PROMPT: QT_TRANSLATE_NOOP("Words", "Write a prompt first, then enhance it."),
    Rule.NO_FILE: QT_TRANSLATE_NOOP(
        "Words",
        "{name} is not a file on this computer, nor a web address that starts with https://.",
    ),
}
#: A refusal whose sentence depends on its field or values: (rule, field or value name) → words.
RULE_WORDS_FOR: dict[tuple[Rule, str], str] = {
    (Rule.REQUIRED, "voice"): QT_TRANSLATE_NOOP("Words", "Choose a voice, or type a voice id."),
    (Rule.CHARACTERS, "voice"): QT_TRANSLATE_NOOP(
        "Words", "A voice id holds an invisible character ({bad}): type it again without it."
    ),
    (Rule.REQUIRED, "prompt"): QT_TRANSLATE_NOOP(
        "Words", "{model} needs a prompt, even with a first frame: describe the shot."
    ),
    (Rule.REQUIRED, "first_frame_image"): QT_TRANSLATE_NOOP(
        "Words", "{model} starts from a picture: choose a first frame."
    ),
    (Rule.REQUIRED, "subject_reference"): QT_TRANSLATE_NOOP(
        "Words", "{model} needs a picture of the subject."
    ),
    (Rule.REQUIRED, ""): QT_TRANSLATE_NOOP("Words", "this is needed."),
    (Rule.REQUIRED, "request_id"): QT_TRANSLATE_NOOP(
        "Words", "name the slot first: its project, date and scene."
    ),
    (Rule.NOT_OFFERED, "instead"): QT_TRANSLATE_NOOP(
        "Words", "{model} does not offer {value}; choose {instead}."
    ),
    (Rule.NEEDS_FIRST_FRAME, "value"): QT_TRANSLATE_NOOP(
        "Words", "{model} makes {value} only from a first frame: add one, or choose another."
    ),
}
# -- the 7-day clock of designed voices (issue 37) ----------------------------------------
RULE_WORDS[Rule.VOICE_DELETED] = QT_TRANSLATE_NOOP(
    "Words",
    "{voice} is gone: MiniMax deletes a designed voice unused for {days} days, and this one was "
    "deleted after {deleted_after}. Design it again or choose another voice.",
)

#: What an input is, as the sentences name it.
MEDIA_KIND_WORDS = {
    "image": QT_TRANSLATE_NOOP("Words", "a picture"),
    "video": QT_TRANSLATE_NOOP("Words", "a video"),
    "audio": QT_TRANSLATE_NOOP("Words", "a sound clip"),
}
THIS_FILE = QT_TRANSLATE_NOOP("Words", "This file")
#: An input refused as it arrives ("Not added — …").
NOT_ADDED = QT_TRANSLATE_NOOP("Words", "Not added — %1")


def rule_words(
    rule: Rule,
    values: Mapping[str, object],
    field: str | None,
    translate: Translate = _plain,
    message: str = "",
) -> str:
    """A rule's refusal in the designer's words (context ``Words``), its places filled. A
    refusal not typed yet (``Rule.OTHER``) says its own ``message`` where it has one."""
    rule = Rule(rule)
    if rule is Rule.OTHER and message:
        return message
    text = RULE_WORDS_FOR.get((rule, field or ""))
    if rule is Rule.REQUIRED and text is None:
        text = RULE_WORDS_FOR[(rule, "")] if not values.get("model") else None
    if rule is Rule.NEEDS_FIRST_FRAME and values.get("value"):
        text = RULE_WORDS_FOR[(rule, "value")]
    if rule is Rule.NOT_OFFERED and values.get("instead"):
        text = RULE_WORDS_FOR[(rule, "instead")]
    said = translate(CONTEXT, text or RULE_WORDS[rule])
    filled = dict(values)
    filled["name"] = str(values.get("name") or "") or translate(CONTEXT, THIS_FILE)
    for key in ("kind", "wanted"):
        if key in values:
            filled[key] = translate(CONTEXT, MEDIA_KIND_WORDS.get(str(values[key]), ""))
    for key, value in filled.items():
        said = said.replace("{" + key + "}", str(value))
    return said


def refused_input(exc: Any, translate: Translate = _plain) -> str:
    """An input refused as it arrives, in the designer's words."""
    said = rule_words(exc.rule, exc.values, None, translate, exc.message)
    return translate(CONTEXT, NOT_ADDED).replace("%1", said)


def draft_problem(
    problem: Problem,
    field_label: str,
    currency: str = "USD",
    today: Any = None,
    translate: Translate = _plain,
) -> str:
    """A draft's first problem as the form says it: the budget's refusal, "write a prompt", or
    the field's label and the rule's message."""
    if problem.kind is ProblemKind.BUDGET and problem.budget is not None:
        return budget_refusal(problem.budget, currency, today, translate)
    if problem.kind is ProblemKind.NO_PROMPT:
        return translate(*WRITE_PROMPT)
    said = rule_words(problem.rule, problem.values, problem.field, translate, problem.message)
    if not field_label:
        said = said[:1].upper() + said[1:]
    return f"{field_label}{said}"


__all__ = [
    "APP_CLOSED",
    "BAD_ANSWER",
    "BAD_CHARACTERS",
    "BAD_FILE",
    "BAD_PARAMS",
    "BALANCE",
    "BUDGET",
    "BUDGET_REFUSALS",
    "BUDGET_USED",
    "BUDGET_USED_PARTLY",
    "BUSY_WORDS",
    "CONTEXT",
    "DECLARED",
    "D_FILES",
    "D_IMAGES",
    "D_NEXT_TRY",
    "D_NOT_BILLED",
    "D_RETRY",
    "D_SOUND",
    "D_UPLOADED",
    "D_VIDEO",
    "EVENT_LINE",
    "EVENT_WORDS",
    "FRAME_WORDS",
    "INPUT_SENSITIVE",
    "INTERNAL",
    "KEYRING",
    "LIST_SILENT",
    "LOCAL_ERROR",
    "LOOKUP_CONTESTED",
    "LOOKUP_MANY",
    "LOOKUP_NOTHING",
    "LOST_ANSWER",
    "MEDIA_KIND_WORDS",
    "MEDIA_MISSING",
    "NETWORK",
    "NEVER_SENT",
    "NOTICE_WORDS",
    "NOT_ADDED",
    "NOT_CONFIRMED",
    "NOT_FOUND",
    "NOT_IN_PLAN",
    "NOT_WRITTEN",
    "NO_ANSWER_IN_TIME",
    "NO_FILE",
    "NO_RECORD_SENTENCES",
    "OUTPUT_SENSITIVE",
    "OVERFULL",
    "PLAN_QUOTA",
    "PROMPT_TOO_LONG",
    "PROVIDER_ERROR",
    "PROVIDER_FAILED",
    "QUIET_DETAILS",
    "QUOTA",
    "RATE_LIMIT",
    "REASON_WORDS",
    "REFUSAL_WORDS",
    "REFUSED",
    "RULE_WORDS",
    "RULE_WORDS_FOR",
    "Reason",
    "STILL_RUNNING",
    "STILL_UNKNOWN",
    "STORE_BUSY",
    "STORE_FULL",
    "STRANGE_STATUS",
    "Said",
    "THIS_FILE",
    "THIS_MODEL",
    "Translate",
    "UNAVAILABLE",
    "UNCHANGED_WORDS",
    "VERIFY_ACCOUNT",
    "WAIT_WORDS",
    "WHY_NOT_WORDS",
    "WRITE_PROMPT",
    "WRONG_KEY",
    "budget_line",
    "budget_refusal",
    "counted",
    "draft_problem",
    "event_detail",
    "event_line",
    "file_size",
    "for_error",
    "for_outcome",
    "for_task",
    "nothing_to_look_up",
    "notice",
    "reason_words",
    "refusal_words",
    "refused_input",
    "rule_words",
    "status_word",
    "unavailable",
    "why_not",
    "COST_ABOUT",
    "COST_UNKNOWN",
    "cost_line",
    "code_words",
    "REASON_EVENTS",
    "price_of",
]
