"""The top bar: Slate's name and promise, "+ New slot" and "⚙ Settings".

Bound to :class:`~app.ui.current.CurrentSlot`: Settings waits while settings are being applied.
"""

from __future__ import annotations

from app.ui.current import Busy, CurrentSlot
from typing import Any

from app.ui.qt import QHBoxLayout, QLabel, QPushButton, Qt, QtWidgets, QWidget, Signal


class TopBar(QWidget):
    """The window's first row."""

    newWanted = Signal()  # a blank slot
    settingsWanted = Signal()
    spendWanted = Signal()
    queueToggled = Signal(bool)  # the queue panel opened or closed

    def __init__(self, slot: CurrentSlot, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("topBar")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 6)
        title = QLabel("Slate")
        title.setStyleSheet("font-size: 18px; font-weight: 700;")
        title.setProperty("tone", "link")
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
        self.spend_button = QPushButton(self.tr("Spend"), objectName="spendButton")
        self.spend_button.setToolTip(
            self.tr("What your slots cost: today, this week, per project (Ctrl+Shift+S)")
        )
        # A push button like its neighbours, its menu arrow in a room of its own (style.py:
        # #shotListButton), never over the text, in either language
        self.shots_button = QPushButton(self.tr("Shot list"), objectName="shotListButton")
        self.shots_button.setToolTip(self.tr("Import a shot list, or make scenes from a template"))
        self.shots_button.setAccessibleName(self.tr("Shot list"))
        self.shots_menu = QtWidgets.QMenu(self.shots_button)
        self.shots_button.setMenu(self.shots_menu)
        self.shots_button.setProperty("hasMenu", True)
        row.addWidget(self.shots_button)
        row.addWidget(self.spend_button)
        row.addWidget(self.queue_button)
        row.addWidget(self.new_button)
        row.addWidget(self.settings_button)
        # A click opens a menu or a dialog and leaves the focus where the designer was (the
        # prompt): the button never keeps a highlight after its dialog closes. Tab still
        # reaches every one of them.
        for button in (
            self.shots_button,
            self.spend_button,
            self.queue_button,
            self.new_button,
            self.settings_button,
        ):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.new_button.clicked.connect(self.newWanted)
        self.settings_button.clicked.connect(self.settingsWanted)
        self.spend_button.clicked.connect(self.spendWanted)
        slot.busy_changed.connect(
            lambda busy: self.settings_button.setEnabled(Busy.SETTINGS not in busy)
        )

    def set_shot_list_actions(self, *actions: Any) -> None:
        """The window's shot-list actions (Import shot list…, Scenes from a template…)."""
        for action in actions:
            self.shots_menu.addAction(action)
