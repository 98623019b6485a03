"""The welcome page: what a slot is, one button to start, and whether the demo provider runs.

Shown in place of the slot pane on first launch (no slot at all, nothing being written). Bound
to the controller's ``reset``: the demo note follows the provider.
"""

from __future__ import annotations

from typing import Any

from app.ui.qt import QFrame, QHBoxLayout, QLabel, QPushButton, Qt, QVBoxLayout, QWidget, Signal


class WelcomePage(QFrame):
    """One sentence on slots, "Create your first slot", and the demo note."""

    startWanted = Signal()  # "Create your first slot"

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pane")
        self.controller = controller
        headline = QLabel(self.tr("Welcome to Slate"))
        headline.setStyleSheet("font-size: 22px; font-weight: 600;")
        explain = QLabel(
            self.tr(
                "A slot is one piece of work with a stable name, such as "
                "article:20260816:tide-eye:scene-02. Slate sends each slot to the provider once, "
                "keeps its history, and never pays twice for it."
            )
        )
        explain.setWordWrap(True)
        self.first_button = QPushButton(
            self.tr("Create your first slot"), objectName="firstSlotButton"
        )
        self.first_button.setProperty("primary", True)
        self.first_button.clicked.connect(self.startWanted)
        self.demo_note = QLabel(objectName="hint")
        self.demo_note.setWordWrap(True)
        column = QWidget()
        column.setMaximumWidth(520)
        colbox = QVBoxLayout(column)
        colbox.setSpacing(14)
        colbox.addWidget(headline)
        colbox.addWidget(explain)
        colbox.addWidget(self.first_button, 0, Qt.AlignmentFlag.AlignLeft)
        colbox.addWidget(self.demo_note)
        centered = QHBoxLayout()
        centered.addStretch(1)
        centered.addWidget(column, 3)
        centered.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(40, 40, 40, 40)
        box.addStretch(1)
        box.addLayout(centered)
        box.addStretch(2)
        controller.reset.connect(self.show_provider)
        controller.ready.connect(self.show_provider)
        self.show_provider()

    def show_provider(self) -> None:
        self.demo_note.setText(
            self.tr(
                "The demo provider is active until you set an API key in Settings: try everything, "
                "nothing is billed."
            )
            if self.controller.demo
            else ""
        )
