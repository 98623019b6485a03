"""The slot's state in words, at the top of the slot pane: a badge, a title, one or two sentences
(the provider's words first for a slot that ended badly), and a progress line that ticks.

Bound to :class:`~app.ui.current.CurrentSlot`: it redraws when the record on screen changes and
keeps what it shows while the next record loads (no flash of an empty banner between slots).
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from app.domain.states import Action, Refusal, State
from app.present import words
from app.ui.current import CurrentSlot, Progress
from app.ui.progress import Estimate, Estimates
from app.present.said import ELAPSED, clock, estimate_text
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QToolButton,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    translate,
)
from app.ui.style import badge_pixmap, state_word

BANNERS = {
    None: (
        QT_TRANSLATE_NOOP("Banner", "New slot"),
        QT_TRANSLATE_NOOP(
            "Banner",
            "Nothing has been sent yet. Name the slot, write the prompt, then press Create.",
        ),
    ),
    State.SUBMITTING: (
        QT_TRANSLATE_NOOP("Banner", "Sending"),
        QT_TRANSLATE_NOOP(
            "Banner",
            "The create request is on its way. Slate "
            "recorded it first, so it can never be sent twice.",
        ),
    ),
    State.PREPARING: (
        QT_TRANSLATE_NOOP("Banner", "Running at the provider"),
        QT_TRANSLATE_NOOP(
            "Banner",
            "The provider accepted the task and is "
            "preparing it. You can close Slate: it picks up where it "
            "left off.",
        ),
    ),
    State.QUEUEING: (
        QT_TRANSLATE_NOOP("Banner", "Waiting in the provider's queue"),
        QT_TRANSLATE_NOOP(
            "Banner",
            "The task is queued at the provider. You can "
            "close Slate: it picks up where it left off.",
        ),
    ),
    State.PROCESSING: (
        QT_TRANSLATE_NOOP("Banner", "Generating"),
        QT_TRANSLATE_NOOP(
            "Banner",
            "The provider is generating. You can close Slate: it picks up where it left off.",
        ),
    ),
    State.DOWNLOADING: (
        QT_TRANSLATE_NOOP("Banner", "Downloading"),
        QT_TRANSLATE_NOOP(
            "Banner", "The provider finished. Slate is downloading and verifying the media."
        ),
    ),
    State.SUCCESS: (
        QT_TRANSLATE_NOOP("Banner", "Done"),
        QT_TRANSLATE_NOOP(
            "Banner",
            "The media are checked and saved on this "
            "computer. Export them, or use Edit as new slot for a "
            "variation.",
        ),
    ),
    State.FAIL: (
        QT_TRANSLATE_NOOP("Banner", "Failed"),
        QT_TRANSLATE_NOOP(
            "Banner", "This slot will not change again. Start a New slot to try again."
        ),
    ),
    State.REJECTED: (
        QT_TRANSLATE_NOOP("Banner", "Refused by the provider"),
        QT_TRANSLATE_NOOP(
            "Banner",
            "No task was made and nothing was billed. You "
            "may Create again with the same parameters, or start a "
            "New slot.",
        ),
    ),
    State.UNKNOWN: (
        QT_TRANSLATE_NOOP("Banner", "Unknown"),
        QT_TRANSLATE_NOOP(
            "Banner",
            "The create request left and no clear answer "
            "came back. Slate will not create again. Query the "
            "provider, or Recover.",
        ),
    ),
    State.CANCELLED: (
        QT_TRANSLATE_NOOP("Banner", "Cancelled"),
        QT_TRANSLATE_NOOP(
            "Banner",
            "The provider cancelled the task while it was "
            "queued; nothing was billed. Start a New slot to try "
            "again.",
        ),
    ),
}
UNKNOWN_SENT_AT = QT_TRANSLATE_NOOP(
    "Banner",
    "The create request left at %1 and no clear answer came back. Slate will not create "
    "again. Query the provider, or Recover.",
)
#: An unknown slot that cannot be queried says what it offers instead (``Refusal`` of Query).
UNKNOWN_NOT_QUERIED = {
    Refusal.NO_TASK_ID: QT_TRANSLATE_NOOP(
        "Banner",
        "The create request left at %1 and its answer never arrived, so there is no task to "
        "ask the provider about. Slate will not create again. Recover: attach the task id "
        "from the provider's console, or declare the slot failed.",
    ),
    Refusal.NO_TASK_ID_LOOKUP: QT_TRANSLATE_NOOP(
        "Banner",
        "The create request left at %1 and its answer never arrived, so there is no task to "
        "ask the provider about. Slate will not create again. Recover: look the task up at "
        "the provider, attach its task id, or declare the slot failed.",
    ),
    Refusal.NO_RECORD: QT_TRANSLATE_NOOP(
        "Banner",
        "The create request left at %1 and its answer, the sound itself, was lost. MiniMax "
        "keeps no record of a song or a short voice line to look up, so there is nothing to ask "
        "and nothing to attach. Slate will not create again: it may have been made and billed. "
        "Recover and declare the slot failed, then make it again in a new slot.",
    ),
    Refusal.VOICE_LOOKUP: QT_TRANSLATE_NOOP(
        "Banner",
        "The voice design request left at %1 and its answer was lost. The voice may have been "
        "made and billed; Slate will not send it again. Recover: Slate looks the voice up in "
        "your MiniMax voices by the id this slot sent — found, it is attached; not found, "
        "declare the slot failed.",
    ),
    Refusal.NO_QUERY: QT_TRANSLATE_NOOP(
        "Banner",
        "The create request left at %1 and no clear answer came back. Slate will not create "
        "again. The provider cannot be asked about image tasks, so there is nothing to query: "
        "when you are sure nothing was made, Recover and declare the slot failed.",
    ),
}
BANNER_BG = {
    State.SUCCESS: "#e8f3ec",
    State.FAIL: "#fbeaea",
    State.REJECTED: "#f0f0f1",
    State.UNKNOWN: "#fdf3e1",
    None: "#eef2f7",
}
SLOT_STATE = QT_TRANSLATE_NOOP("MainWindow", "Slot state")
#: A success whose local media were deleted by tidy-up (instead of "saved on this computer").
MEDIA_REMOVED = QT_TRANSLATE_NOOP(
    "Banner",
    "The media were checked, then deleted from this computer by Tidy up. The record stays.",
)
DETAILS = QT_TRANSLATE_NOOP("Banner", "Details")
DETAILS_NAME = QT_TRANSLATE_NOOP("Banner", "Show the provider's own words")
PROGRESS_NAME = QT_TRANSLATE_NOOP("Banner", "Progress")
# Said by the progress line (the "MainWindow" context keeps the translations they always had).
TOOK = QT_TRANSLATE_NOOP("MainWindow", "Took %1 · last change %2")
LAST_CHANGE = QT_TRANSLATE_NOOP("MainWindow", "Last change %1")
NEXT_QUERY = QT_TRANSLATE_NOOP("MainWindow", "next query in %1 s")
QUERYING_NOW = QT_TRANSLATE_NOOP("MainWindow", "querying now")


def progress_text(p: Progress | None) -> str:
    """The progress line: elapsed and next query for running work, else how long it took."""
    if p is None:
        return ""
    if not p.running:
        changed = dt.datetime.fromtimestamp(p.last_change).strftime("%Y-%m-%d %H:%M")
        if p.took is not None:
            return translate("MainWindow", TOOK).replace("%1", clock(p.took)).replace("%2", changed)
        return translate("MainWindow", LAST_CHANGE).replace("%1", changed)
    text = (
        translate("MainWindow", ELAPSED)
        .replace("%1", state_word(p.state))
        .replace("%2", clock(p.elapsed))
    )
    if p.next_query_in is not None:
        text += " · " + (
            translate("MainWindow", NEXT_QUERY).replace("%1", str(int(p.next_query_in) + 1))
            if p.next_query_in > 0
            else translate("MainWindow", QUERYING_NOW)
        )
    return text


class Banner(QFrame):
    """A badge, a title, one or two sentences, and the progress line of the slot on screen."""

    #: the bar's (value, maximum) each time the progress of running work is shown (maximum 0:
    #: no estimate to measure against): the running canvas fills as far as this
    progressShown = Signal(int, int)

    def __init__(self, slot: CurrentSlot, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.slot = slot
        self._drawn: tuple[object, ...] | None = None
        self.icon = QLabel()
        self.icon.setFixedSize(28, 28)
        self.title = QLabel(objectName="bannerTitle")
        self.body = QLabel(objectName="bannerBody")
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QLabel(objectName="progressLabel")
        self.progress.setWordWrap(True)
        self.estimates: Estimates | None = None  # set by the slot pane (it has the controller)
        self.estimate: Estimate | None = None  # the running task's, once known
        self.bar = QProgressBar(objectName="progressBar")
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(6)
        self.bar.setAccessibleName(translate("Banner", PROGRESS_NAME))
        self.bar.hide()
        # the provider's or Slate's own words behind the sentence: one click away
        self.details_button = QToolButton(objectName="bannerDetailsButton")
        self.details_button.setText(translate("Banner", DETAILS))
        self.details_button.setAccessibleName(translate("Banner", DETAILS_NAME))
        self.details_button.setCheckable(True)
        self.details_button.setAutoRaise(True)
        self.details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.hide()
        self.details = QLabel(objectName="bannerDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setStyleSheet("font-family: monospace; font-size: 9pt;")
        self.details.setProperty("tone", "detail")
        self.details.hide()
        self.details_button.toggled.connect(self._toggle_details)
        text = QVBoxLayout()
        text.setSpacing(2)
        self._head = QHBoxLayout()  # the title; compact, the sentence beside it
        self._head.setSpacing(10)
        self._head.addWidget(self.title, 0, Qt.AlignmentFlag.AlignTop)
        text.addLayout(self._head)
        text.addWidget(self.body)
        self._text = text
        text.addWidget(self.progress)
        text.addWidget(self.bar)
        text.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignLeft)
        text.addWidget(self.details)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 10, 12, 10)
        self._row = row
        self.compact = False
        row.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        row.addLayout(text, 1)
        self.setAccessibleName(translate("MainWindow", SLOT_STATE))
        slot.task_changed.connect(lambda _task: self.redraw())
        slot.loading_changed.connect(lambda _loading: self.redraw())
        self._tick = QTimer(self, interval=1000)
        self._tick.timeout.connect(self.update_progress)
        self._tick.start()
        self.redraw()

    def set_compact(self, on: bool) -> None:
        """Compact (a result on screen below it): the sentence beside the title, less air; the
        same words, in fewer lines."""
        if on == self.compact:
            return
        self.compact = on
        if on:
            self._head.addWidget(self.body, 1)
            self._row.setContentsMargins(12, 6, 12, 6)
        else:
            self._text.insertWidget(1, self.body)
            self._row.setContentsMargins(12, 10, 12, 10)
        self._place_progress()

    def _progress_fits_beside(self) -> bool:
        """Compact, the title, the sentence and the progress line fit in one line as they are."""
        if not self.compact or not self.progress.text() or "\n" in self.body.text():
            return False
        m = self._row.contentsMargins()
        room = self.width() - m.left() - m.right() - self.icon.width() - self._row.spacing()
        need = (
            self.title.sizeHint().width()
            + self.body.fontMetrics().horizontalAdvance(self.body.text())
            + self.progress.fontMetrics().horizontalAdvance(self.progress.text())
            + 3 * self._head.spacing()  # and air between the sentence and the progress
        )
        return need <= room

    def _place_progress(self) -> None:
        """The progress line beside the sentence when it all fits (a result below takes the
        line saved), else under it."""
        beside = self._progress_fits_beside()
        if beside == (self._head.indexOf(self.progress) >= 0):
            return
        self.progress.setWordWrap(not beside)  # beside: one line, the sentence wraps first
        if beside:
            self._head.addWidget(self.progress, 0)
        else:
            self._text.insertWidget(self._text.indexOf(self.bar), self.progress)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._place_progress()

    def redraw(self) -> None:
        """Show the slot's state (kept as it is while the next record loads)."""
        slot = self.slot
        if slot.loading:
            return
        said = words.for_task(slot.task, translate) if slot.task is not None else words.Said("")
        query = slot.slot_offers().get(Action.QUERY)  # what an unknown slot offers instead
        task = (
            slot.state,
            said.text,
            slot.task.created_at if slot.task is not None else None,
            said.detail,
            query.refusal if query is not None else None,
            bool(getattr(slot.task, "removed_media", None)) and not slot.task.media,
        )
        if task != self._drawn:
            self._drawn = task
            self.show_state(*task)
        self.update_progress()

    def _toggle_details(self, on: bool) -> None:
        self.details_button.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.details.setVisible(on and bool(self.details.text()))

    def show_state(
        self,
        state: State | None,
        problem: str = "",
        sent_at: float | None = None,
        detail: str = "",
        no_query: Refusal | None = None,
        media_removed: bool = False,
    ) -> None:
        """The title and sentence of ``state``: the provider's ``problem`` above the sentence;
        an unknown slot says when its create left instead (one sentence, not two), and, when it
        cannot be queried (``no_query``: why), what it offers instead."""
        title, sentence = BANNERS.get(state, BANNERS[State.UNKNOWN])
        self.icon.setPixmap(badge_pixmap(state, 28))
        word = translate("Banner", title)
        self.title.setText(word)
        text = translate("Banner", MEDIA_REMOVED if media_removed else sentence)
        if state is State.UNKNOWN and sent_at is not None:
            sent = dt.datetime.fromtimestamp(sent_at).strftime("%H:%M:%S")
            said = UNKNOWN_NOT_QUERIED.get(no_query, UNKNOWN_SENT_AT) if no_query else None
            text = translate("Banner", said or UNKNOWN_SENT_AT).replace("%1", sent)
        elif problem:
            text = f"{problem}\n{text}"
        self.body.setText(text)
        self.details.setText(detail)
        self.details_button.setVisible(bool(detail))
        self.details.setVisible(bool(detail) and self.details_button.isChecked())
        tone = state.value if state in BANNER_BG and state is not None else "running"
        if self.property("tone") != tone:  # its colours: the theme's (style.stylesheet)
            self.setProperty("tone", tone)
            for w in (self, self.title):
                w.style().unpolish(w)
                w.style().polish(w)
        self.setAccessibleDescription(f"{word}. {text}")

    def update_progress(self) -> None:
        if self.slot.loading:
            return
        p = self.slot.progress(time.time())
        text = progress_text(p)
        running = p is not None and p.running
        est = None
        if running and self.estimates is not None and self.slot.task is not None:
            est = self.estimates.get(self.slot.task)
        self.estimate = est
        if running:
            assert p is not None
            if est is not None or self.estimates is not None:
                text += " · " + estimate_text(est, p.elapsed, translate)
            if est is not None:
                self.bar.setRange(0, 1000)
                self.bar.setValue(int(est.fraction(p.elapsed) * 1000))
            else:
                self.bar.setRange(0, 0)  # moving: no estimate to measure against
            self.progressShown.emit(self.bar.value(), self.bar.maximum())
        self.bar.setVisible(running)
        self.progress.setText(text)
        self.progress.setVisible(bool(text))
        self._place_progress()
