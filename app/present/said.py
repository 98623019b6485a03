"""Words and figures the desktop app and the command line both say, Qt-free: the state words,
the progress line's estimate, a spend total with unknown prices.

Each is marked with ``QT_TRANSLATE_NOOP`` in the context it has always had (the translations
stay) and said through the ``translate`` the caller passes: Qt's in the app, the command
line's (``app.present.translations.translator``) in a terminal.
"""

from __future__ import annotations

from typing import Any

from app.domain.cost import format_money
from app.domain.states import State
from app.present.noop import QT_TRANSLATE_NOOP
from app.present.translations import Translate, plain


#: The words for states, said the same everywhere ("State" context).
STATE_WORDS = {
    None: QT_TRANSLATE_NOOP("State", "Empty slot"),
    State.SUBMITTING: QT_TRANSLATE_NOOP("State", "Sending"),
    State.PREPARING: QT_TRANSLATE_NOOP("State", "Preparing"),
    State.QUEUEING: QT_TRANSLATE_NOOP("State", "Queueing"),
    State.PROCESSING: QT_TRANSLATE_NOOP("State", "Processing"),
    State.DOWNLOADING: QT_TRANSLATE_NOOP("State", "Downloading"),
    State.SUCCESS: QT_TRANSLATE_NOOP("State", "Done"),
    State.FAIL: QT_TRANSLATE_NOOP("State", "Failed"),
    State.REJECTED: QT_TRANSLATE_NOOP("State", "Refused"),
    State.UNKNOWN: QT_TRANSLATE_NOOP("State", "Unknown"),
    State.CANCELLED: QT_TRANSLATE_NOOP("State", "Cancelled"),
}


def state_word(state: State | None, translate: Translate = plain) -> str:
    return translate("State", STATE_WORDS.get(state, STATE_WORDS[None]))


# The progress line (the "MainWindow" and "Banner" contexts keep the translations they had).
ELAPSED = QT_TRANSLATE_NOOP("MainWindow", "%1 · elapsed %2")
USUALLY = QT_TRANSLATE_NOOP("Banner", "usually %1–%2 (from your last %3 like it)")
LEFT = QT_TRANSLATE_NOOP("Banner", "about %1 left")
OVERDUE = QT_TRANSLATE_NOOP("Banner", "taking longer than usual")
NO_ESTIMATE = QT_TRANSLATE_NOOP("Banner", "no estimate yet: none like it finished before")


def clock(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on."""
    seconds = int(max(0, seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def elapsed_text(state_said: str, elapsed: float, translate: Translate = plain) -> str:
    """ "Processing · elapsed 0:12"."""
    return translate("MainWindow", ELAPSED).replace("%1", state_said).replace("%2", clock(elapsed))


def estimate_text(est: Any, elapsed: float, translate: Translate = plain) -> str:
    """What the past says of a running task (``est``: an ``app.present.progress.Estimate`` or None):
    "usually 0:40–1:00 (from your last 5 like it) · about 0:30 left"."""
    if est is None:
        return translate("Banner", NO_ESTIMATE)
    usual = (
        translate("Banner", USUALLY)
        .replace("%1", clock(est.low))
        .replace("%2", clock(est.high))
        .replace("%3", str(est.samples))
    )
    _low, high = est.left(elapsed)
    left = (
        translate("Banner", LEFT).replace("%1", clock(high))
        if high > 0
        else translate("Banner", OVERDUE)
    )
    return f"{usual} · {left}"


# Spend ("SpendDialog" context, as the Spend view always said it).
SOME_UNKNOWN = QT_TRANSLATE_NOOP("SpendDialog", "%1 + %2 unknown")
#: Every slot of the total has no price: no "$0.00" before the unknown part.
ALL_UNKNOWN = QT_TRANSLATE_NOOP("SpendDialog", "unknown (%1 without a price)")


def spend_estimate(total: Any, currency: str, translate: Translate = plain) -> str:
    """A spend total's estimate: "$4.96", "$4.96 + 1 unknown" where some prices are unknown,
    or "unknown (2 without a price)" where all are (``total``: a ``domain.cost.SpendTotal``)."""
    if total.estimate is not None:
        return format_money(total.estimate, currency)
    if not total.known_estimate and total.unknown_slots >= total.slots:
        return translate("SpendDialog", ALL_UNKNOWN).replace("%1", str(total.unknown_slots))
    return (
        translate("SpendDialog", SOME_UNKNOWN)
        .replace("%1", format_money(total.known_estimate, currency))
        .replace("%2", str(total.unknown_slots))
    )


SPEND_DETAIL = QT_TRANSLATE_NOOP("SpendDialog", "%1 slots · reported %2 (%3 slots)")
NONE_YET = QT_TRANSLATE_NOOP("SpendDialog", "none yet")
NO_PROJECT = QT_TRANSLATE_NOOP("SpendDialog", "(no project)")


def spend_detail(total: Any, currency: str, translate: Translate = plain) -> str:
    """ "4 slots · reported $1.20 (2 slots)": how many slots, and what the provider reported."""
    reported = (
        translate("SpendDialog", NONE_YET)
        if total.reported is None
        else format_money(total.reported, currency)
    )
    return (
        translate("SpendDialog", SPEND_DETAIL)
        .replace("%1", str(total.slots))
        .replace("%2", reported)
        .replace("%3", str(total.reported_slots))
    )


__all__ = [
    "ALL_UNKNOWN",
    "ELAPSED",
    "LEFT",
    "NONE_YET",
    "NO_ESTIMATE",
    "NO_PROJECT",
    "OVERDUE",
    "SOME_UNKNOWN",
    "SPEND_DETAIL",
    "STATE_WORDS",
    "Translate",
    "USUALLY",
    "clock",
    "elapsed_text",
    "estimate_text",
    "plain",
    "spend_detail",
    "spend_estimate",
    "state_word",
]
