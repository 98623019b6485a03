"""Tidy-up on the slot on screen: hide it from the browser, delete its local media files.

Nothing here deletes a slot record (a RequestId once used stays used). A slot whose media were
deleted says "Media removed here" and offers **Download again** exactly where the service offers
``recover --redownload`` (``TaskView.recover``, decided by :mod:`app.domain.tidy`); the pane
shows that answer, it never decides it.
"""

from __future__ import annotations

from typing import Any

from app.domain.states import Action, RecoverWay
from app.service.commands import Redownload
from app.service.results import OutcomeKind, Pruned, Result
from app.present import words
from app.ui.current import CurrentSlot
from app.ui.qt import (
    QAction,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QToolButton,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
    translate,
)


def may_redownload(task: Any) -> bool:
    """The service offers ``recover --redownload`` for this slot (its own answer, read)."""
    if task is None:
        return False
    offer = getattr(task, "offers", {}).get(Action.RECOVER)
    way = getattr(task, "recover", {}).get(RecoverWay.REDOWNLOAD)
    return bool(offer is not None and offer.offered and way is not None and way.offered)


class TidyBar(QWidget):
    """ "Hidden from the browser", "Media removed here" (with Download again where offered),
    and the Tidy up menu button (:attr:`menu_button`, placed by the slot pane beside the
    slot's name)."""

    #: A slot was hidden (True) or shown again (False): the browser reloads its rows.
    hiddenChanged = Signal(str, bool)
    #: Download again: the slot pane recovers the slot with ``Redownload``.
    recoverWanted = Signal(str, object)
    #: A sentence for the slot pane's message line: (text, error).
    said = Signal(str, bool)

    def __init__(self, controller: Any, slot: CurrentSlot, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tidyBar")
        self.controller = controller
        self.slot = slot
        self.confirm: QMessageBox | None = None
        self.note = QLabel(objectName="mediaRemovedNote")
        self.note.setWordWrap(True)
        self.redownload_button = QPushButton(
            self.tr("Download again"), objectName="redownloadButton"
        )
        self.redownload_button.setToolTip(
            self.tr(
                "The provider still has this result: download it and check it again. "
                "Never creates, never pays again."
            )
        )
        self.redownload_button.clicked.connect(self._redownload)
        self.menu_button = QToolButton(objectName="tidyButton")
        self.menu_button.setText("⋯")  # compact: the slot's name beside it stays whole
        self.menu_button.setToolTip(self.tr("Tidy up"))
        self.menu_button.setAccessibleName(self.tr("Tidy up this slot"))
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QMenu(self.menu_button)
        self.hide_action = QAction(self.tr("Hide slot"), self, objectName="hideSlotAction")
        self.hide_action.triggered.connect(self._toggle_hidden)
        self.delete_action = QAction(
            self.tr("Delete local media…"), self, objectName="deleteMediaAction"
        )
        self.delete_action.triggered.connect(self.ask_delete)
        self.menu.addAction(self.hide_action)
        self.menu.addAction(self.delete_action)
        self.menu_button.setMenu(self.menu)
        self.hidden_note = QLabel(objectName="hint")
        self.hidden_note.setWordWrap(True)

        removed = QHBoxLayout()
        removed.setContentsMargins(0, 0, 0, 0)
        removed.addWidget(self.note, 1)
        removed.addWidget(self.redownload_button, 0, Qt.AlignmentFlag.AlignTop)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(4)
        box.addWidget(self.hidden_note)
        box.addLayout(removed)
        slot.task_changed.connect(self.show_task)
        self.show_task(slot.task)

    # -- showing ----------------------------------------------------------------------------------
    def show_task(self, task: Any) -> None:
        self.menu_button.setVisible(task is not None)
        if task is None:
            self.hide()
            return
        removed = list(getattr(task, "removed_media", []) or [])
        gone = bool(removed) and not task.media
        again = gone and may_redownload(task)
        if gone:
            size = words.file_size(sum(m.bytes for m in removed))
            text = (
                self.tr("Media removed here: %1 file(s), %2, deleted from this computer.")
                .replace("%1", str(len(removed)))
                .replace("%2", size)
            )
            if not again:
                text += " " + self.tr(
                    "The provider has nothing left to download again; the record keeps each "
                    "file's SHA-256."
                )
            self.note.setText(text)
        self.note.setVisible(gone)
        self.redownload_button.setVisible(again)
        hidden = bool(getattr(task, "hidden", False))
        self.hidden_note.setText(self.tr("Hidden from the browser.") if hidden else "")
        self.hidden_note.setVisible(hidden)
        self.hide_action.setText(
            self.tr("Show in the browser again") if hidden else self.tr("Hide slot")
        )
        self.delete_action.setEnabled(bool(task.media))
        self.setVisible(gone or hidden)

    # -- acting -----------------------------------------------------------------------------------
    def _redownload(self) -> None:
        task = self.slot.task
        if may_redownload(task):
            self.recoverWanted.emit(task.request_id, Redownload())

    def _toggle_hidden(self) -> None:
        task = self.slot.task
        if task is None:
            return
        self.set_hidden(task.request_id, not task.hidden)

    def set_hidden(self, request_id: str, hidden: bool) -> None:
        def done(out: Result[Any]) -> None:
            if out.kind is OutcomeKind.OK:
                self.hiddenChanged.emit(request_id, hidden)
                self.said.emit(
                    self.tr("Hidden from the browser; “Show hidden” finds it.")
                    if hidden
                    else self.tr("Shown in the browser again."),
                    False,
                )
            else:
                self.said.emit(words.for_outcome(out.problem, translate=translate).text, True)

        self.controller.set_hidden(request_id, hidden, done)

    def ask_delete(self) -> None:
        """Ask first, naming how much is deleted; the slot's record is never touched."""
        task = self.slot.task
        if task is None or not task.media:
            return
        rid = task.request_id
        total = words.file_size(sum(m.bytes for m in task.media))
        box = QMessageBox(self.window())
        box.setObjectName("deleteMediaConfirm")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(self.tr("Delete local media"))
        box.setText(
            self.tr("Delete %1 file(s), %2 in all, from this computer?")
            .replace("%1", str(len(task.media)))
            .replace("%2", total)
        )
        box.setInformativeText(
            self.tr(
                "Only the files of %1 go. The slot, its history and its cost stay, and its "
                "RequestId stays used: creating it again is never paid twice."
            ).replace("%1", rid)
        )
        delete = box.addButton(self.tr("Delete media"), QMessageBox.ButtonRole.DestructiveRole)
        delete.setObjectName("deleteMediaButton")
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        delete.clicked.connect(lambda: self._delete(rid))
        box.finished.connect(lambda _r: setattr(self, "confirm", None))
        self.confirm = box
        box.open()

    def _delete(self, request_id: str) -> None:
        def done(out: Result[Any]) -> None:
            if out.kind is OutcomeKind.OK and isinstance(out.payload, Pruned):
                self.said.emit(
                    self.tr("Deleted %1 file(s), %2, from this computer. The slot stays.")
                    .replace("%1", str(out.payload.files))
                    .replace("%2", words.file_size(out.payload.bytes)),
                    False,
                )
            else:
                self.said.emit(words.for_outcome(out.problem, translate=translate).text, True)

        self.controller.prune_media(request_id, done)
