"""The top bar: Slate's name and promise, "+ New slot" and "⚙ Settings".

Bound to :class:`~app.ui.current.CurrentSlot`: Settings waits while settings are being applied.
"""

from __future__ import annotations

from app.ui.current import Busy, CurrentSlot
from app.ui.qt import QHBoxLayout, QLabel, QPushButton, QWidget, Signal


class TopBar(QWidget):
    """The window's first row."""

    newWanted = Signal()  # a blank slot
    settingsWanted = Signal()
    queueToggled = Signal(bool)  # the queue panel opened or closed

    def __init__(self, slot: CurrentSlot, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("topBar")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 6)
        title = QLabel("Slate")
        title.setStyleSheet("font-size: 18px; font-weight: 700; color: #3b6ea5;")
        tagline = QLabel(self.tr("every generation paid once"), objectName="hint")
        self.new_button = QPushButton(self.tr("+ New slot"), objectName="newDraftButton")
        self.new_button.setToolTip(self.tr("Start a blank slot (Ctrl+N)"))
        self.settings_button = QPushButton(self.tr("⚙ Settings"), objectName="settingsButton")
        self.settings_button.setToolTip(self.tr("API key, region, team, quotas (Ctrl+,)"))
        self.queue_button = QPushButton(self.tr("Queue"), objectName="queueButton")
        self.queue_button.setCheckable(True)
        self.queue_button.setToolTip(self.tr("What is running, queued or waiting (Ctrl+Shift+Q)"))
        self.queue_button.setAccessibleName(self.tr("Queue"))
        self.queue_button.toggled.connect(self.queueToggled)
        self.new_button.setAccessibleName(self.tr("New slot"))
        self.settings_button.setAccessibleName(self.tr("Settings"))
        row.addWidget(title)
        row.addWidget(tagline)
        row.addStretch(1)
        row.addWidget(self.queue_button)
        row.addWidget(self.new_button)
        row.addWidget(self.settings_button)
        self.new_button.clicked.connect(self.newWanted)
        self.settings_button.clicked.connect(self.settingsWanted)
        slot.busy_changed.connect(
            lambda busy: self.settings_button.setEnabled(Busy.SETTINGS not in busy))
