"""Telling the designer that a slot they started here ended: a desktop notification (the system
tray's message) and a taskbar alert (``QApplication.alert``), once per outcome — done, failed or
unknown. Off by the ``notify_finished`` setting (Settings → Notifications).

Only slots created from this window are followed (:meth:`Notifier.track`): a slot made by the
command line or a teammate never pops up here.
"""

from __future__ import annotations

from typing import Any

from app.domain.states import State
from app.present import words
from app.ui.assets import app_icon
from app.ui.qt import QT_TRANSLATE_NOOP, QApplication, QObject, QSystemTrayIcon, translate

ENDED = {State.SUCCESS, State.FAIL, State.UNKNOWN}
TITLES = {
    State.SUCCESS: QT_TRANSLATE_NOOP("Notifier", "Done: %1"),
    State.FAIL: QT_TRANSLATE_NOOP("Notifier", "Failed: %1"),
    State.UNKNOWN: QT_TRANSLATE_NOOP("Notifier", "Outcome unknown: %1"),
}
BODIES = {
    State.SUCCESS: QT_TRANSLATE_NOOP("Notifier", "The media are checked and saved."),
    State.FAIL: QT_TRANSLATE_NOOP("Notifier", "The slot failed."),
    State.UNKNOWN: QT_TRANSLATE_NOOP(
        "Notifier", "No clear answer came back. Open the slot to look it up or recover it."
    ),
}


def _tr(text: str) -> str:
    return translate("Notifier", text)


class Notifier(QObject):
    """Follows the slots started in ``window`` and says when each one ends."""

    def __init__(self, window: Any, controller: Any, settings: Any) -> None:
        super().__init__(window)
        self.window = window
        self.settings = settings
        self.followed: dict[str, State | None] = {}  # request id → the outcome already said
        self._tray: QSystemTrayIcon | None = None
        self.said: list[tuple[str, str]] = []  # (title, body) of every notification, newest last
        controller.taskChanged.connect(self._task_changed)

    def track(self, request_id: str) -> None:
        """A create started from this window: its end will be said."""
        self.followed.setdefault(request_id, None)

    @property
    def tray(self) -> QSystemTrayIcon:
        """The tray icon that carries the messages (made on first use, shown while needed)."""
        if self._tray is None:
            self._tray = QSystemTrayIcon(app_icon(), self)
            self._tray.setToolTip("Slate")
            self._tray.messageClicked.connect(self._clicked)
        return self._tray

    def _task_changed(self, view: Any) -> None:
        rid = view.request_id
        if rid not in self.followed:
            return
        state = State(view.state)
        if state not in ENDED or self.followed[rid] is state:
            return
        self.followed[rid] = state
        if not self.settings.notify_finished:
            return
        name = rid.rsplit(":", 1)[-1]
        title = _tr(TITLES[state]).replace("%1", name)
        body = _tr(BODIES[state])
        if state is not State.SUCCESS:
            said = words.for_task(view, translate).text
            body = said or body
        self._clicked_slot = rid
        self.said.append((title, body))
        tray = self.tray
        if QSystemTrayIcon.isSystemTrayAvailable():
            tray.show()
        tray.showMessage(title, body, app_icon(), 8000)
        QApplication.alert(self.window, 0)

    def _clicked(self) -> None:
        rid = getattr(self, "_clicked_slot", None)
        if rid:
            self.window.select(rid)
            self.window.raise_()
            self.window.activateWindow()


__all__ = ["Notifier"]
