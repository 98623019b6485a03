"""The slot pane's bottom bar: what a create costs, the action buttons, why Create is off, and
the last message.

The reason Create is off is the draft's first problem (the same words the form shows), always in
sight beside Create — the form above may be scrolled; a draft the daily budget refuses for want of
its model's price gets "Give it a price…" beside it (:attr:`ActionBar.priceWanted`).

The buttons show :meth:`CurrentSlot.offers <app.ui.current.CurrentSlot.offers>` and nothing else:
enabled or not, the reason in the tooltip when not (``Reason.say``), and the ``primary``
property on the one highlighted button. A click is reported as :attr:`ActionBar.triggered`;
the slot pane decides what it does.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.domain.cost import format_money
from app.domain.states import Action, Refusal, State
from app.ui.current import CurrentSlot, Offer, Reason, Why
from app.present import words
from app.ui.flow import FlowLayout
from app.ui.style import set_tone
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
    translate,
)

#: The buttons, left to right: action, object name, label, shortcut (said in the tooltip).
ACTION_BUTTONS = (
    (Action.CREATE, "createButton", QT_TRANSLATE_NOOP("MainWindow", "Create"), "Ctrl+Return"),
    (Action.QUERY, "queryButton", QT_TRANSLATE_NOOP("MainWindow", "Query"), "F5"),
    (Action.RECOVER, "recoverButton", QT_TRANSLATE_NOOP("MainWindow", "Recover…"), None),
    (Action.EXPORT, "exportButton", QT_TRANSLATE_NOOP("MainWindow", "Export…"), "Ctrl+E"),
    (Action.CANCEL, "cancelButton", QT_TRANSLATE_NOOP("MainWindow", "Cancel task"), None),
    (
        Action.NEW_SLOT,
        "newSlotButton",
        QT_TRANSLATE_NOOP("MainWindow", "Edit as new slot"),
        "Ctrl+Shift+N",
    ),
)
ACTION_HELP = {
    Action.CREATE: QT_TRANSLATE_NOOP("MainWindow", "Send this slot to the provider (once)."),
    Action.QUERY: QT_TRANSLATE_NOOP("MainWindow", "Ask the provider about this task now."),
    Action.RECOVER: QT_TRANSLATE_NOOP(
        "MainWindow", "Attach a task id, download again, or declare failed. Never creates."
    ),
    Action.EXPORT: QT_TRANSLATE_NOOP("MainWindow", "Copy the verified media to a folder."),
    Action.NEW_SLOT: QT_TRANSLATE_NOOP(
        "MainWindow", "Start a new slot from these parameters (this slot stays as it is)."
    ),
    Action.CANCEL: QT_TRANSLATE_NOOP(
        "MainWindow", "Ask the provider to drop this queued task; nothing is billed for it."
    ),
}
GIVE_PRICE = QT_TRANSLATE_NOOP("MainWindow", "Give it a price…")
GIVE_PRICE_HELP = QT_TRANSLATE_NOOP("MainWindow", "Open Prices with %1 selected.")
DETAILS = QT_TRANSLATE_NOOP("MainWindow", "Details")
DETAILS_NAME = QT_TRANSLATE_NOOP("MainWindow", "Show the technical details")
USES_QUOTA = QT_TRANSLATE_NOOP("MainWindow", "Uses %1 of today's quota.")
IMAGES = (QT_TRANSLATE_NOOP("MainWindow", "1 image"), QT_TRANSLATE_NOOP("MainWindow", "%1 images"))
ONE_VIDEO = QT_TRANSLATE_NOOP("MainWindow", "1 video")
ONE_OF = {
    "music": QT_TRANSLATE_NOOP("MainWindow", "1 song"),
    "speech": QT_TRANSLATE_NOOP("MainWindow", "1 voice line"),
}
COST_REPORTED = QT_TRANSLATE_NOOP(
    "MainWindow", "Cost: %1 as reported by the provider (estimated %2)"
)
COST_REPORTED_ONLY = QT_TRANSLATE_NOOP("MainWindow", "Cost: %1 as reported by the provider")
COST_ESTIMATED = QT_TRANSLATE_NOOP(
    "MainWindow", "Cost: about %1 (estimate; the provider has not reported it yet)"
)
COST_UNKNOWN = QT_TRANSLATE_NOOP("MainWindow", "Cost: price unknown (not in the price table)")
NOT_CHARGED = QT_TRANSLATE_NOOP(
    "MainWindow", "Not charged: the provider bills nothing for this outcome."
)


def _tr(text: str) -> str:
    return translate("MainWindow", text)


def is_state(reason: Reason) -> bool:
    """The slot's state has no such action at all (not a fact of this task, not work running)."""
    return reason.why is Why.REFUSED and reason.refusal is Refusal.STATE


def repolish(widget: QWidget) -> None:
    """Apply the stylesheet again after a dynamic property changed."""
    widget.style().unpolish(widget)
    widget.style().polish(widget)


class ActionBar(QWidget):
    """The cost line, one button per action the slot pane offers, and the message line."""

    triggered = Signal(object)  # the Action of the button clicked
    priceWanted = Signal(str)  # "Give it a price…": the model the draft needs a price for

    def __init__(self, slot: CurrentSlot, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("actionBar")
        self.slot = slot
        self.cost = QLabel(objectName="hint")
        self.cost.setWordWrap(True)
        self.buttons: dict[Action, QPushButton] = {}
        row = FlowLayout(spacing=6)  # wraps in a narrow pane: no button is ever cut off
        for action, name, text, keys in ACTION_BUTTONS:
            button = QPushButton(_tr(text), objectName=name)
            button.setAccessibleName(_tr(text).rstrip("…"))
            if keys:
                button.setProperty("keys", keys)
            button.clicked.connect(lambda _checked=False, a=action: self.triggered.emit(a))
            self.buttons[action] = button
            row.addWidget(button)
        # why Create is off: the draft's first problem, in sight whatever the form's scroll
        self.why_create = QLabel(objectName="createWhy")
        self.why_create.setWordWrap(True)
        self.why_create.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.why_create.hide()
        self.price_button = QPushButton(_tr(GIVE_PRICE), objectName="givePriceLink")
        self.price_button.setFlat(True)
        self.price_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.price_button.setStyleSheet(
            "QPushButton { color: palette(link); text-decoration: underline; border: none;"
            " padding: 0 2px; text-align: left; }"
        )
        self.price_button.clicked.connect(self._price_wanted)
        self.price_button.hide()
        why_row = QHBoxLayout()
        why_row.setContentsMargins(0, 0, 0, 0)
        why_row.setSpacing(6)
        why_row.addWidget(self.why_create, 1)
        why_row.addWidget(self.price_button, 0, Qt.AlignmentFlag.AlignTop)
        self.message = QLabel(objectName="messageLabel")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.hide()  # shown with words in it (show_message)
        # the technical words behind a message: one click away, never in the message itself
        self.details_button = QToolButton(objectName="messageDetailsButton")
        self.details_button.setText(_tr(DETAILS))
        self.details_button.setAccessibleName(_tr(DETAILS_NAME))
        self.details_button.setCheckable(True)
        self.details_button.setAutoRaise(True)
        self.details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.hide()
        self.details = QLabel(objectName="messageDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setStyleSheet("font-family: monospace; font-size: 9pt;")
        self.details.setProperty("tone", "detail")
        self.details.hide()
        self.details_button.toggled.connect(self._toggle_details)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 2, 4, 0)
        box.setSpacing(4)
        box.addWidget(self.cost)
        box.addLayout(row)
        box.addLayout(why_row)
        box.addWidget(self.message)
        box.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignLeft)
        box.addWidget(self.details)
        slot.offers_changed.connect(self.show_offers)
        slot.draft_changed.connect(lambda _draft: self.show_cost())
        slot.draft_changed.connect(lambda _draft: self.show_why())
        slot.task_changed.connect(lambda _task: self.show_cost())
        self.show_offers(slot.offers())
        self.show_cost()

    def show_offers(self, offers: Mapping[Action, Offer]) -> None:
        """Enable exactly what is offered; say why in the tooltip when not; mark the primary.
        Cancel is shown only while it can be used (it is rare, and the bar stays short)."""
        for action, button in self.buttons.items():
            offer = offers[action]
            button.setEnabled(offer.enabled)
            if offer.enabled or offer.reason is None:
                keys = button.property("keys")
                tip = _tr(ACTION_HELP[action]) + (f" ({keys})" if keys else "")
            else:
                tip = words.why_not(offer.reason, translate)
            button.setToolTip(tip)
            if action is Action.NEW_SLOT:  # shown where the slot's state has it, or must recover
                button.setVisible(not (offer.reason is not None and is_state(offer.reason)))
            if action is Action.CANCEL:  # shown only where it can act: a queued MiniMax-H3 task
                button.setVisible(
                    offer.enabled or (offer.reason is not None and offer.reason.why is Why.BUSY)
                )
            if bool(button.property("primary")) != offer.primary:
                button.setProperty("primary", offer.primary)
                repolish(button)
        self.show_why(offers)

    def show_why(self, offers: Mapping[Action, Offer] | None = None) -> None:
        """Beside Create: the draft's first problem while it keeps Create off (the form's own
        words), and "Give it a price…" when the budget refuses it for want of a price."""
        offer = (offers or self.slot.offers())[Action.CREATE]
        reason = offer.reason
        draft = self.slot.draft
        text = ""
        if not offer.enabled and reason is not None and reason.why is Why.DRAFT_INVALID:
            text = reason.detail
        self.why_create.setText(text)
        set_tone(self.why_create, "muted" if draft is not None and draft.hint else "error")
        self.why_create.setVisible(bool(text))
        model = draft.unpriced if text and draft is not None else None
        self.price_button.setVisible(bool(model))
        if model:
            self.price_button.setToolTip(_tr(GIVE_PRICE_HELP).replace("%1", model))

    def _price_wanted(self) -> None:
        draft = self.slot.draft
        if draft is not None and draft.unpriced:
            self.priceWanted.emit(draft.unpriced)

    def show_cost(self) -> None:
        cost = self.slot.cost
        text = ""
        task = self.slot.task
        if task is not None and result_on_screen(task):
            text = ""  # said at the end of the result's summary line (FinishedView.cost)
        elif task is not None:
            text = task_cost_text(task)
        elif cost is not None:
            kind, n = cost
            what = (
                words.counted(n, IMAGES, translate, "MainWindow")
                if kind == "image"
                else _tr(ONE_VIDEO)
            )
            if kind in ONE_OF:
                what = _tr(ONE_OF[kind])
            text = _tr(USES_QUOTA).replace("%1", what)
        if text != self.cost.text():
            self.cost.setText(text)
        self.cost.setVisible(bool(text))  # an empty line takes no room from the result

    def show_message(self, text: str, error: bool = True, detail: str = "") -> None:
        """The last message in the designer's words; ``detail`` (the service's or provider's own
        words) behind the Details button."""
        self.message.setText(text)
        self.message.setVisible(bool(text))  # an empty line takes no room from the result
        set_tone(self.message, "error" if text and error else "")
        detail = detail if detail and detail != text else ""
        self.details.setText(detail)
        self.details_button.setVisible(bool(detail))
        self.details.setVisible(bool(detail) and self.details_button.isChecked())

    def _toggle_details(self, on: bool) -> None:
        self.details_button.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.details.setVisible(on and bool(self.details.text()))


def result_on_screen(task: object) -> bool:
    """A finished slot whose results the slot pane shows (FinishedView)."""
    return getattr(task, "state", None) == State.SUCCESS and bool(getattr(task, "media", None))


def task_cost_text(task: object) -> str:
    """A stored slot's cost in words: reported (and the estimate beside it), the estimate, not
    charged, or unknown — never $0 for a price Slate does not know."""
    cost = getattr(task, "cost", None)
    if cost is None:
        return ""
    if getattr(task, "not_charged", False):
        return _tr(NOT_CHARGED)
    if cost.reported is not None and cost.estimate is None:  # billed by usage: no estimate
        return _tr(COST_REPORTED_ONLY).replace("%1", format_money(cost.reported, cost.currency))
    if cost.reported is not None:
        return (
            _tr(COST_REPORTED)
            .replace("%1", format_money(cost.reported, cost.currency))
            .replace("%2", format_money(cost.estimate, cost.currency))
        )
    if cost.estimate is None:
        return _tr(COST_UNKNOWN)
    return _tr(COST_ESTIMATED).replace("%1", format_money(cost.estimate, cost.currency))
