"""The queue panel: every slot in flight, grouped as the designer thinks of them — generating at
the provider, queued at the provider, waiting for the rate limit, being sent or downloaded — with
how long each has run and how long it usually takes. A click shows the slot.

Bound to the controller: it shows the slots of the controller's status (``Status.queue``, read
every couple of seconds and on each task change) — the very read whose count the status bar
says, so the two always agree.
"""

from __future__ import annotations

import time
from typing import Any

import shiboken6

from app.domain.states import State
from app.ui.panes.banner import clock
from app.ui.progress import Estimates
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QFrame,
    QLabel,
    Qt,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
    translate,
)
from app.ui.style import state_word

#: The groups, in order: (key, words).
GROUPS = (
    ("running", QT_TRANSLATE_NOOP("QueuePanel", "Generating at the provider")),
    ("queued", QT_TRANSLATE_NOOP("QueuePanel", "Queued at the provider")),
    ("rate", QT_TRANSLATE_NOOP("QueuePanel", "Waiting for the rate limit")),
    ("sending", QT_TRANSLATE_NOOP("QueuePanel", "Being sent")),
    ("downloading", QT_TRANSLATE_NOOP("QueuePanel", "Downloading")),
)
EMPTY = QT_TRANSLATE_NOOP("QueuePanel", "Nothing is running.")
TITLE = QT_TRANSLATE_NOOP("QueuePanel", "QUEUE")
ROW = QT_TRANSLATE_NOOP("QueuePanel", "%1 · %2")  # name · time running (the group says what)
USUAL = QT_TRANSLATE_NOOP("QueuePanel", "usually %1")
MORE = QT_TRANSLATE_NOOP("QueuePanel", "and %1 more")


def _tr(text: str) -> str:
    return translate("QueuePanel", text)


def group_of(state: State, rate_limited: bool) -> str:
    if rate_limited:
        return "rate"
    return {
        State.QUEUEING: "queued",
        State.SUBMITTING: "sending",
        State.DOWNLOADING: "downloading",
    }.get(state, "running")


class QueuePanel(QFrame):
    """The slots in flight, grouped; a click asks for the slot (``slotWanted``)."""

    slotWanted = Signal(str)

    def __init__(
        self, controller: Any, estimates: Estimates | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("queuePanel")
        self.controller = controller
        self.estimates = estimates
        self.entries: list[Any] = []
        self.total = 0  # the slots in flight (more than the rows when there are very many)
        self.title = QLabel(_tr(TITLE), objectName="paneTitle")
        self.tree = QTreeWidget(objectName="queueTree")
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setIndentation(10)
        self.tree.setWordWrap(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.setAccessibleName(_tr(QT_TRANSLATE_NOOP("QueuePanel", "Queue")))
        self.empty = QLabel(_tr(EMPTY), objectName="hint")
        self.empty.setWordWrap(True)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 6)
        box.setSpacing(4)
        box.addWidget(self.title)
        box.addWidget(self.tree)
        box.addWidget(self.empty)
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemClicked.connect(self._activated)
        controller.statusChanged.connect(self._status_changed)  # a method: gone with the panel
        if estimates is not None:  # an estimate arrived: say it beside its rows
            estimates.changed.append(self._estimated)
        self.show_entries([])

    def _status_changed(self, status: Any) -> None:
        self.show_entries(list(status.queue), total=status.running)

    def _estimated(self) -> None:
        if shiboken6.isValid(self):
            self.show_entries(self.entries, total=self.total)

    def refresh(self) -> None:
        """Ask for the status again (the panel and the status bar are redrawn from it)."""
        self.controller.refresh_status_soon()

    def count(self) -> int:
        """How many slots the panel says are in flight."""
        return self.total

    def show_entries(
        self, entries: list[Any], now: float | None = None, *, total: int | None = None
    ) -> None:
        now = time.time() if now is None else now
        self.entries = list(entries)
        self.total = max(len(entries), total or 0)
        self.tree.clear()
        groups: dict[str, list[Any]] = {}
        for e in entries:
            groups.setdefault(group_of(State(e.row.state), e.rate_limited), []).append(e)
        for key, words in GROUPS:
            if key not in groups:
                continue
            head = QTreeWidgetItem([f"{_tr(words)} · {len(groups[key])}"])
            font = head.font(0)
            font.setBold(True)
            head.setFont(0, font)
            head.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.tree.addTopLevelItem(head)
            for e in groups[key]:
                row = e.row
                name = row.request_id.rsplit(":", 1)[-1]
                text = _tr(ROW).replace("%1", name).replace("%2", clock(now - row.created_at))
                est = self.estimates.get(e) if self.estimates is not None else None
                if est is not None:
                    text += " · " + _tr(USUAL).replace("%1", clock(est.median))
                item = QTreeWidgetItem([text])
                item.setData(0, Qt.ItemDataRole.UserRole, row.request_id)
                item.setToolTip(0, f"{row.request_id}\n{state_word(State(row.state))}")
                self.tree.addTopLevelItem(item)
        if self.total > len(entries):
            more = QTreeWidgetItem([_tr(MORE).replace("%1", str(self.total - len(entries)))])
            more.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.tree.addTopLevelItem(more)
        self.tree.setVisible(bool(entries))
        self.empty.setVisible(not entries)
        # as tall as its rows (at most eight): the slot tree keeps the rest of the column
        rows = self.tree.topLevelItemCount()
        height = self.tree.sizeHintForRow(0) if rows else 0
        self.tree.setFixedHeight(
            min(8, max(rows, 1)) * max(height, 18) + 2 * self.tree.frameWidth() + 4
        )

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        rid = item.data(0, Qt.ItemDataRole.UserRole)
        if rid:
            self.slotWanted.emit(str(rid))

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        status = getattr(self.controller, "status", None)
        if status is not None:  # the latest status at once, a fresh one soon
            self._status_changed(status)
        self.refresh()


__all__ = ["GROUPS", "QueuePanel", "group_of"]
