"""Prompt recall: this user's earlier prompts (the service's ``prompts``, from the store), searched
as the designer types, put into the draft on screen or into a new slot.

The dialog reads and says; the window decides nothing here either: **Insert** is offered while
the slot on screen is a draft (``can_insert``), **New slot with it** always.
"""

from __future__ import annotations

from typing import Any, Callable

from app.service.results import OutcomeKind, PromptList, Result
from app.ui.models import age_text
from app.ui.qt import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)
from app.ui.widgets import add_list_item

#: How many prompts one search shows.
SHOWN = 200


class PromptRecall(QDialog):
    """A search field over this user's earlier prompts, the last used first."""

    insertWanted = Signal(str)  # into the draft on screen, at its cursor
    newSlotWanted = Signal(str)  # a new slot whose prompt is this one

    def __init__(
        self,
        read: Callable[[str, Callable[[Result[Any]], None]], None],
        can_insert: bool,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("promptRecall")
        self.setWindowTitle(self.tr("Earlier prompts"))
        self._read = read
        self._asked = ""
        self.search = QLineEdit(objectName="promptSearch")
        self.search.setPlaceholderText(self.tr("Search your earlier prompts…"))
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName(self.tr("Search your earlier prompts"))
        self.list = QListWidget(objectName="promptList")
        self.list.setWordWrap(True)
        self.list.setAccessibleName(self.tr("Earlier prompts"))
        self.list.setAlternatingRowColors(True)
        self.empty = QLabel(objectName="hint")
        self.empty.setWordWrap(True)
        self.empty.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.insert_button = QPushButton(
            self.tr("Insert into the draft"), objectName="insertPrompt"
        )
        self.new_button = QPushButton(self.tr("New slot with it"), objectName="newSlotFromPrompt")
        self.new_button.setProperty("primary", True)
        self.insert_button.setEnabled(False)
        self.new_button.setEnabled(False)
        self.can_insert = can_insert
        if not can_insert:
            self.insert_button.setToolTip(
                self.tr("The slot on screen is fixed; start a new slot with the prompt instead.")
            )
        buttons.addButton(self.insert_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.new_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(self.search)
        box.addWidget(self.list, 1)
        box.addWidget(self.empty)
        box.addWidget(buttons)
        self.resize(620, 460)

        self._debounce = QTimer(self, singleShot=True, interval=200)
        self._debounce.timeout.connect(self.refresh)
        self.search.textChanged.connect(self._debounce.start)
        self.list.currentItemChanged.connect(self._chosen)
        self.list.itemDoubleClicked.connect(lambda _i: self._use(self.can_insert))
        self.insert_button.clicked.connect(lambda: self._use(True))
        self.new_button.clicked.connect(lambda: self._use(False))
        self.refresh()

    def refresh(self) -> None:
        text = self.search.text().strip()
        self._asked = text
        self._read(text, lambda out: self._show(text, out))

    def _show(self, asked: str, out: Result[Any]) -> None:
        if asked != self._asked:
            return  # an older search answered late
        self.list.clear()
        prompts = out.payload.prompts if isinstance(out.payload, PromptList) else ()
        for p in prompts:
            uses = self.tr("used %1×").replace("%1", str(p.uses)) if p.uses > 1 else ""
            when = age_text(p.last_used)
            line = p.text if len(p.text) <= 240 else p.text[:239] + "…"
            item = add_list_item(self.list, f"{line}\n{when}{' · ' + uses if uses else ''}")
            item.setData(Qt.ItemDataRole.UserRole, p.text)
            item.setToolTip(p.text)
        if out.kind is not OutcomeKind.OK:
            self.empty.setText(out.problem.message if out.problem else "")
        elif not prompts:
            self.empty.setText(
                self.tr("No earlier prompt contains “%1”.").replace("%1", asked)
                if asked
                else self.tr("No earlier prompts yet: they appear here once you create slots.")
            )
        self.empty.setVisible(not prompts)
        if prompts:
            self.list.setCurrentRow(0)

    def chosen(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def _chosen(self, *_: Any) -> None:
        some = self.chosen() is not None
        self.insert_button.setEnabled(some and self.can_insert)
        self.new_button.setEnabled(some)

    def _use(self, insert: bool) -> None:
        text = self.chosen()
        if text is None or (insert and not self.can_insert):
            return
        (self.insertWanted if insert else self.newSlotWanted).emit(text)
        self.accept()
