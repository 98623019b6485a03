"""The confirm before a new slot pays again for what another slot already has (issue 18, "never
pay twice from the window"): the service names the twin (:meth:`SlateService.twin_of`), this
dialog says it in a designer's words — which slot, how far it got, and the draft's price — and
offers to open that slot, create anyway, or cancel."""

from __future__ import annotations

from typing import Any

from app.present import words as said_words
from app.domain.states import IN_FLIGHT, State
from app.ui.qt import QT_TRANSLATE_NOOP, QMessageBox, QWidget, translate

#: How far the twin got, as the sentence says it in brackets.
HOW_FAR = {
    State.SUCCESS: QT_TRANSLATE_NOOP("TwinConfirm", "finished"),
    State.UNKNOWN: QT_TRANSLATE_NOOP("TwinConfirm", "unknown — the provider may be making it"),
}
BEING_MADE = QT_TRANSLATE_NOOP("TwinConfirm", "being made now")


def how_far(state: State) -> str:
    if state in IN_FLIGHT:
        return translate("TwinConfirm", BEING_MADE)
    return translate("TwinConfirm", HOW_FAR.get(state, BEING_MADE))


def scene(request_id: str) -> str:
    """The slot's own name (``…:scene-01`` → ``scene-01``)."""
    return request_id.rsplit(":", 1)[-1]


def price_text(cost: Any) -> str:
    """The draft's estimate (a Cost, or None) as the sentence ends ("about $0.32")."""
    money = said_words.price_of(cost, translate)
    if money is None:
        return translate("TwinConfirm", "the price is unknown")
    return translate("TwinConfirm", "about %1").replace("%1", money)


class TwinConfirm(QMessageBox):
    """Asks before a draft with exactly another slot's settings is created (and paid) again."""

    def __init__(
        self, twin: Any, request_id: str, cost: Any, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("twinConfirm")
        self.twin = twin
        self.request_id = request_id
        self.setWindowTitle(
            translate("TwinConfirm", "Same settings as %1").replace("%1", scene(twin.request_id))
        )
        self.setIcon(QMessageBox.Icon.Question)
        self.setText(
            translate("TwinConfirm", "%1 already has exactly these settings (%2).")
            .replace("%1", scene(twin.request_id))
            .replace("%2", how_far(twin.state))
        )
        self.setInformativeText(
            translate("TwinConfirm", "Creating %1 makes and pays for it again — %2.")
            .replace("%1", scene(request_id))
            .replace("%2", price_text(cost))
        )
        self.open_twin = self.addButton(
            translate("TwinConfirm", "Open %1").replace("%1", scene(twin.request_id)),
            QMessageBox.ButtonRole.ActionRole,
        )
        self.open_twin.setObjectName("twinOpen")
        self.create_anyway = self.addButton(
            translate("TwinConfirm", "Create anyway"), QMessageBox.ButtonRole.AcceptRole
        )
        self.create_anyway.setObjectName("twinCreate")
        self.cancel = self.addButton(
            translate("TwinConfirm", "Cancel"), QMessageBox.ButtonRole.RejectRole
        )
        self.cancel.setObjectName("twinCancel")
        self.setDefaultButton(self.cancel)  # paying again is never the Enter key's default
        self.setEscapeButton(self.cancel)


__all__ = ["TwinConfirm", "how_far", "price_text"]
