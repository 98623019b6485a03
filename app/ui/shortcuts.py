"""The keyboard shortcuts overlay (``?``): what each of the window's shortcut actions does and its
keys, read from the actions themselves (``MainWindow.shortcut_actions``) — the table they are
built from, not a second list that could drift."""

from __future__ import annotations

from typing import Any, Iterable

from app.ui.picks import key_rows
from app.ui.qt import (
    QDialog,
    QDialogButtonBox,
    QKeySequence,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)


def rows(actions: Iterable[Any]) -> list[tuple[str, str]]:
    """(what it does, its keys as this platform writes them) per action with a shortcut."""
    out = []
    for act in actions:
        keys: list[str] = []
        for k in act.shortcuts():  # Return and Enter are both "回车" in Chinese: said once
            text = k.toString(QKeySequence.SequenceFormat.NativeText)
            if text not in keys:
                keys.append(text)
        if keys:
            out.append((act.text().replace("&", ""), "  ·  ".join(keys)))
    return out


class ShortcutOverlay(QDialog):
    """A small sheet over the window listing the shortcuts; Esc or ``?`` again closes it."""

    def __init__(self, actions: Iterable[Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutOverlay")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.table = QTreeWidget(objectName="shortcutTable")
        self.table.setColumnCount(2)
        self.table.setHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.table.setRootIsDecorated(False)
        self.table.setAccessibleName(self.tr("Keyboard shortcuts"))
        for what, keys in [*rows(actions), *key_rows()]:
            QTreeWidgetItem(self.table, [what, keys])
        self.table.resizeColumnToContents(0)
        self.table.setColumnWidth(0, self.table.columnWidth(0) + 24)
        hint = QLabel(
            self.tr(
                "Typing in a field types the key; these work everywhere else. F, X and the "
                "digits mark the result on screen."
            ),
            objectName="hint",
        )
        hint.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(self.table, 1)
        box.addWidget(hint)
        box.addWidget(buttons)
        rows_h = self.table.sizeHintForRow(0) * max(1, self.table.topLevelItemCount())
        self.resize(460, min(620, rows_h + 150))
