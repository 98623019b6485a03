"""``slate gui --describe``: what a person would see in the real window, as one JSON object.

The window is the app's own (started offscreen by the command line), shown at its size and in its
language, with the slot ``--select`` names on screen. Once it has settled — the slot's record
shown, the controller's work done, any dialog that work opened — :func:`describe` reads the
widgets, generically: every visible push or tool button and every window action by its object
name, the banner's title and text, the form's fields by object name (or accessible name) and
value, and the area the selected slot's result takes. It reads public Qt state only and changes
nothing; tests and scripts check what the app offers without reading its code.

The keys are stable (an acceptance suite reads them; README "Seeing the app from outside")::

    {"outcome": "ok",
     "window": {"width", "height", "lang"},
     "selected": RID | null,                       # what --select asked for
     "slot": {"request_id", "kind", "state"} | null,   # the record on screen (null: a draft)
     "banner": {"title", "text"},
     "buttons": [{"name", "text", "enabled", "why_not"}],   # visible, top to bottom
     "actions": [{"name", "text", "enabled", "why_not", "shortcut"}],
     "form": {"visible", "fields": [{"name", "label", "type", "value", "enabled",
                                     "read_only"}], "error"},
     "message": TEXT,                              # the slot pane's message line
     "dialogs": [{"name", "title", "buttons": [...]}],
     "result": {"share": FRACTION}}                # of the window's area (0 without media)

``why_not`` is the button's tooltip when it is disabled (the slot's reason in the designer's
words), else null.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from app.ui.qt import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPoint,
    QPushButton,
    QRadioButton,
    QRect,
    QToolButton,
    QtWidgets,
    QWidget,
)

QAbstractSpinBox = QtWidgets.QAbstractSpinBox
QSlider = QtWidgets.QSlider

#: How long the window may take to show the selected slot and finish its work (seconds).
SETTLE_TIMEOUT = 30.0


def _text(raw: str) -> str:
    """A button's text as shown: mnemonic ampersands dropped (``&&`` is one ``&``)."""
    return raw.replace("&&", "\0").replace("&", "").replace("\0", "&")


def visible_rect(widget: QWidget, window: QWidget) -> QRect:
    """The part of ``widget`` on screen inside ``window``: clipped by every ancestor (a scroll
    area's viewport, a splitter's pane) and by the window."""
    rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        rect = rect.intersected(QRect(parent.mapTo(window, QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return rect.intersected(window.rect())


def _on_screen(widget: QWidget, root: QWidget) -> bool:
    return widget.isVisible() and not visible_rect(widget, root).isEmpty()


def _buttons(root: QWidget) -> list[dict[str, Any]]:
    found = [
        b
        for b in root.findChildren(QAbstractButton)
        if isinstance(b, (QPushButton, QToolButton)) and b.window() is root and _on_screen(b, root)
    ]
    found.sort(key=lambda b: (b.mapTo(root, QPoint(0, 0)).y(), b.mapTo(root, QPoint(0, 0)).x()))
    return [
        {
            "name": b.objectName(),
            "text": _text(b.text()),
            "enabled": b.isEnabled(),
            "why_not": (b.toolTip() or None) if not b.isEnabled() else None,
        }
        for b in found
    ]


def _actions(window: QWidget) -> list[dict[str, Any]]:
    return [
        {
            "name": a.objectName(),
            "text": _text(a.text()),
            "enabled": a.isEnabled(),
            "why_not": (a.toolTip() or None) if not a.isEnabled() else None,
            "shortcut": a.shortcut().toString(),
        }
        for a in window.actions()
        if a.objectName()
    ]


def _field(w: QWidget) -> dict[str, Any] | None:
    """One form field, or None for a widget that holds no value of its own."""
    value: Any
    read_only = False
    if isinstance(w, QLineEdit):
        if isinstance(w.parentWidget(), (QAbstractSpinBox, QComboBox)):
            return None  # the editor inside a spin or combo box: the box is the field
        kind, value, read_only = "text", w.text(), w.isReadOnly()
    elif isinstance(w, QPlainTextEdit):
        kind, value, read_only = "text", w.toPlainText(), w.isReadOnly()
    elif isinstance(w, QComboBox):
        kind, value = "choice", w.currentText()
    elif isinstance(w, QDateEdit):
        kind, value, read_only = "date", w.date().toString("yyyy-MM-dd"), w.isReadOnly()
    elif isinstance(w, QAbstractSpinBox):
        kind, value, read_only = "number", getattr(w, "value", w.text)(), w.isReadOnly()
    elif isinstance(w, (QCheckBox, QRadioButton)):
        kind, value = ("check" if isinstance(w, QCheckBox) else "radio"), w.isChecked()
    elif isinstance(w, QSlider):
        kind, value = "slider", w.value()
    else:
        return None
    return {
        "name": w.objectName(),
        "label": w.accessibleName() or (w.text() if isinstance(w, QAbstractButton) else ""),
        "type": kind,
        "value": value,
        "enabled": w.isEnabled(),
        "read_only": read_only,
    }


def _form(pane: QWidget, window: QWidget) -> dict[str, Any]:
    form = pane.findChild(QWidget, "createForm") or getattr(pane, "form", None)
    visible = form is not None and form.isVisible()
    fields = []
    for w in pane.findChildren(QWidget):
        if not w.isVisible() or not (w.objectName() or w.accessibleName()):
            continue
        entry = _field(w)
        if entry is not None:
            fields.append((visible_rect(w, window).topLeft(), entry))
    fields.sort(key=lambda f: (f[0].y(), f[0].x()))
    errors = [
        e.text() for e in pane.findChildren(QLabel, "fieldError") if e.isVisible() and e.text()
    ]
    return {"visible": visible, "fields": [f for _, f in fields], "error": " ".join(errors)}


def _label(root: QWidget, name: str) -> str:
    for label in root.findChildren(QLabel, name):
        if label.isVisible():
            return label.text()
    return ""


def _share(window: QWidget) -> float:
    """The fraction of the window's area the selected slot's result (its media) takes."""
    area = window.width() * window.height()
    if area <= 0:
        return 0.0
    taken = 0
    for media in window.findChildren(QWidget, "resultMedia"):
        if media.isVisible():
            r = visible_rect(media, window)
            taken += max(0, r.width()) * max(0, r.height())
    return round(min(1.0, taken / area), 4)


def _dialogs(window: QWidget) -> list[dict[str, Any]]:
    out = []
    for w in QApplication.topLevelWidgets():
        if w is window or not w.isVisible() or not isinstance(w, QDialog):
            continue
        out.append(
            {
                "name": w.objectName() or type(w).__name__,
                "title": w.windowTitle(),
                "buttons": _buttons(w),
            }
        )
    return out


def describe(window: Any, *, selected: str | None = None, lang: str = "en") -> dict[str, Any]:
    """What the window shows now, as the JSON object of the module's docstring."""
    task = window.slot.task
    pane = window.slot_pane
    return {
        "outcome": "ok",
        "window": {
            "width": window.width(),
            "height": window.height(),
            "lang": lang if lang and lang not in ("C", "POSIX") else "en",
        },
        "selected": selected,
        "slot": (
            {
                "request_id": task.request_id,
                "kind": task.kind,
                "state": getattr(task.state, "value", task.state),
            }
            if task is not None
            else None
        ),
        "banner": {"title": _label(window, "bannerTitle"), "text": _label(window, "bannerBody")},
        "buttons": _buttons(window),
        "actions": _actions(window),
        "form": _form(pane, window),
        "message": _label(window, "messageLabel"),
        "dialogs": _dialogs(window),
        "result": {"share": _share(window)},
    }


async def settle(window: Any, controller: Any, select: str | None) -> None:
    """Wait until the selected slot is on screen and the window's work is done (twice: work
    the first answers start, such as the lookup of an unknown slot, counts too)."""
    deadline = time.monotonic() + SETTLE_TIMEOUT
    while select and window.slot.loading and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    for _ in range(2):
        await controller.runner.settled(max(1.0, deadline - time.monotonic()))
        # Qt's events are the loop's own: awaiting lets them run. Never processEvents() here:
        # inside a task's step it may run another task's wakeup, which asyncio then refuses
        # ("Cannot enter into task") and drops, and that task never runs again.
        await asyncio.sleep(0.2)


__all__ = ["SETTLE_TIMEOUT", "describe", "settle", "visible_rect"]
