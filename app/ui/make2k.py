""" "Make 2K": a finished 768P MiniMax-H3 video re-rendered at 2K as a slot of its own
(DESIGN.md "Derived slots"), offered in the slot pane and on gallery tiles.

Whether a slot may be regenerated, and why not, is :func:`app.domain.derived.why_not_regenerate`
(asked here with the slot's own facts); the new slot's name is
:func:`app.domain.derived.suggest`; its price is the service's estimate of the parameters the
service will submit (:func:`app.domain.derived.regeneration_params`). The confirm names the price
first; the window runs the regeneration through the controller (the service's ``regenerate``).
"""

from __future__ import annotations

import time
from typing import Any

from app.domain import derived
from app.present import words as said_words
from app.ui.qt import QMessageBox, QWidget, translate


def why_not(
    kind: str,
    params: dict[str, Any],
    state: Any,
    provider_task_id: str | None,
    created_at: float,
) -> str | None:
    """The domain's reason this slot cannot be made 2K (its message), or None."""
    err = derived.why_not_regenerate(
        kind,
        params,
        str(getattr(state, "value", state)),
        provider_task_id,
        created_at,
        time.time(),
    )
    if err is None:
        return None
    from app.present import words

    return words.rule_words(err.rule, err.values, None, translate, err.message)


def why_not_task(task: Any) -> str | None:
    """For a :class:`~app.service.views.TaskView`."""
    return why_not(
        task.kind,
        dict(task.params or {}),
        task.state,
        task.provider_task_id,
        task.created_at,
    )


def new_request_id(task: Any) -> str:
    return derived.suggest(task.request_id, derived.SUFFIX_2K)


def regeneration_params(task: Any) -> dict[str, Any]:
    """What the service will submit for the 2K slot (priced before it is asked)."""
    return derived.regeneration_params(
        task.request_id, dict(task.params), str(task.provider_task_id)
    )


def price_text(answer: Any) -> str:
    """The estimate (a Result of DraftCost, or None) as the confirm says it."""
    return said_words.cost_line(
        getattr(getattr(answer, "payload", None), "cost", None),
        translate,
        translate(
            "Make2K",
            "MiniMax publishes no price for a 2K regeneration. Slate records what the provider "
            "reports once it is done.",
        ),
    )


class Make2kConfirm(QMessageBox):
    """Asks before the paid regeneration: the price first, the new slot's name, the source kept."""

    def __init__(self, task: Any, answer: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("make2kConfirm")
        self.request_id = task.request_id
        self.new_request_id = new_request_id(task)
        scene = task.request_id.rsplit(":", 1)[-1]
        self.setWindowTitle(translate("Make2K", "Make 2K"))
        self.setIcon(QMessageBox.Icon.Question)
        self.setText(translate("Make2K", "Make a 2K version of %1?").replace("%1", scene))
        self.price = price_text(answer)
        self.setInformativeText(
            self.price
            + "\n\n"
            + translate(
                "Make2K",
                "MiniMax renders the finished video again at 2K as a new slot, %1. %2 stays "
                "exactly as it is; its history links to the new slot.",
            )
            .replace("%1", self.new_request_id.rsplit(":", 1)[-1])
            .replace("%2", scene)
        )
        self.make = self.addButton(
            translate("Make2K", "Make 2K"), QMessageBox.ButtonRole.AcceptRole
        )
        self.make.setObjectName("make2kButton")
        self.cancel = self.addButton(
            translate("Make2K", "Cancel"), QMessageBox.ButtonRole.RejectRole
        )
        self.setDefaultButton(self.cancel)  # a paid step is never the Enter key's default
        self.setEscapeButton(self.cancel)


__all__ = [
    "Make2kConfirm",
    "new_request_id",
    "price_text",
    "regeneration_params",
    "why_not",
    "why_not_task",
]
