"""The app's own lookup for an unknown MiniMax-H3 slot: what the provider's task list shows for
it, and the user's choice. Nothing is attached until the user says so.

The window runs :meth:`SlateService.look <app.service.slate.SlateService.look>` (through the
controller) when an unknown slot whose provider can list tasks comes on screen, and opens this
dialog with the report: one candidate → "1 matching task found at MiniMax — attach?"; several →
a list to pick from; none → said, with attach by id and declare failed offered (the recover
dialog). A candidate the service found contested (``LookupReport.contested``: another unknown or
submitting slot of the same shape could have made it) is said with the slots that compete for
it, nothing is chosen for the user, and attaching it is by its id, on the user's word. The
choice is a :class:`~app.service.commands.AttachTask` for the task the user picked.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from app.service.commands import AttachTask
from app.service.results import LookupReport
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
    translate,
)


#: The provider's status words (V2), said for people.
STATUS_WORDS = {
    "queued": QT_TRANSLATE_NOOP("LookupDialog", "queued"),
    "running": QT_TRANSLATE_NOOP("LookupDialog", "generating"),
    "succeeded": QT_TRANSLATE_NOOP("LookupDialog", "finished"),
    "failed": QT_TRANSLATE_NOOP("LookupDialog", "failed"),
    "cancelled": QT_TRANSLATE_NOOP("LookupDialog", "cancelled"),
}


def _when(at: float) -> str:
    return dt.datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M:%S")


class LookupDialog(QDialog):
    """What the lookup found for one unknown slot; Attach only on the user's word."""

    attach = Signal(object)  # AttachTask of the candidate the user confirmed
    otherWays = Signal()  # none found (or none fits): attach by id, declare failed

    def __init__(
        self,
        request_id: str,
        report: LookupReport,
        provider: str = "MiniMax",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("lookupDialog")
        self.setWindowTitle(self.tr("Looking for this slot's task at %1").replace("%1", provider))
        self.setMinimumSize(520, 320)
        self.request_id = request_id
        self.report = report
        n = len(report.candidates)
        #: task id → the other slots that could have made it (the service's verdict)
        self.contested = {tid: tuple(by) for tid, by in report.contested}
        rivals = sorted({rid for by in self.contested.values() for rid in by})
        if self.contested and n == 1:
            head = self.tr(
                "1 matching task found at %1, but another of your slots could have made it too."
            ).replace("%1", provider)
        elif self.contested:
            head = (
                self.tr(
                    "%1 matching tasks found at %2, and other slots of yours could have made "
                    "them too."
                )
                .replace("%1", str(n))
                .replace("%2", provider)
            )
        elif n == 1:
            head = self.tr("1 matching task found at %1 — attach?").replace("%1", provider)
        elif n > 1:
            head = (
                self.tr("%1 matching tasks found at %2 — pick the one this slot made:")
                .replace("%1", str(n))
                .replace("%2", provider)
            )
        else:
            head = self.tr("No matching task found at %1.").replace("%1", provider)
        self.heading = QLabel(head, objectName="lookupHeading")
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-weight: 600;")
        window = (
            self.tr(
                "Slate looked at the tasks made between %1 and %2 with this slot's "
                "model, duration, resolution and ratio. The prompt is not in the "
                "list, so check the time before you attach."
            )
            .replace("%1", _when(report.window_start))
            .replace("%2", _when(report.window_end))
        )
        if n == 0:
            window = (
                self.tr(
                    "Slate looked at the tasks made between %1 and %2; none has this "
                    "slot's parameters. If you find the task in the console, attach "
                    "its id; otherwise declare the slot failed."
                )
                .replace("%1", _when(report.window_start))
                .replace("%2", _when(report.window_end))
            )
        if self.contested:
            window = self.tr(
                "%1 also waits for a task of this model, duration, resolution and ratio, "
                "made at about the same time, so Slate does not choose for you. Check the "
                "time and the prompt in the provider's console: if a task is this slot's, "
                "select it and attach it by its id; otherwise leave it for now."
            ).replace("%1", ", ".join(rivals))
        self.explain = QLabel(window, objectName="hint")
        self.explain.setWordWrap(True)
        self.table = QTreeWidget(objectName="candidateTable")
        self.table.setHeaderLabels(
            [
                self.tr("Task id"),
                self.tr("Made at"),
                self.tr("Model"),
                self.tr("Status"),
                self.tr("Could also be"),
            ]
        )
        self.table.setRootIsDecorated(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAccessibleName(self.tr("Matching tasks"))
        for c in report.candidates:
            status = STATUS_WORDS.get((c.status or "").lower())
            item = QTreeWidgetItem(
                [
                    c.task_id,
                    _when(c.created_at),
                    c.model or "",
                    translate("LookupDialog", status) if status else c.status or "",
                    ", ".join(self.contested.get(c.task_id, ())),
                ]
            )
            self.table.addTopLevelItem(item)
        for col in range(5):
            self.table.resizeColumnToContents(col)
        self.table.setColumnHidden(4, not self.contested)
        self.table.setVisible(n > 0)
        if n == 1 and not self.contested:  # a contested task is the user's choice, never ours
            self.table.setCurrentItem(self.table.topLevelItem(0))
        buttons = QDialogButtonBox()
        self.attach_button = buttons.addButton(
            self.tr("Attach"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.attach_button.setObjectName("attachFoundButton")
        if self.contested:
            self.attach_button.setText(self.tr("Attach by its id"))
        self.attach_button.setProperty("primary", True)
        self.other_button = buttons.addButton(
            self.tr("Attach by id or declare failed…"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.other_button.setObjectName("otherWaysButton")
        self.later_button = buttons.addButton(
            self.tr("Not now"), QDialogButtonBox.ButtonRole.RejectRole
        )
        self.later_button.setObjectName("notNowButton")
        self.attach_button.setVisible(n > 0)
        box = QVBoxLayout(self)
        box.addWidget(self.heading)
        box.addWidget(self.explain)
        box.addWidget(self.table, 1)
        box.addWidget(buttons)
        self.table.itemSelectionChanged.connect(self._update)
        self.attach_button.clicked.connect(self._attach)
        self.other_button.clicked.connect(self._other)
        self.later_button.clicked.connect(self.reject)
        self._update()

    def chosen(self) -> str | None:
        item = self.table.currentItem()
        return item.text(0) if item is not None and item.isSelected() else None

    def _update(self) -> None:
        self.attach_button.setEnabled(self.chosen() is not None)

    def _attach(self) -> None:
        task_id = self.chosen()
        if task_id is not None:
            self.attach.emit(AttachTask(task_id))
            self.accept()

    def _other(self) -> None:
        self.reject()
        self.otherWays.emit()


__all__ = ["LookupDialog", "Any"]
