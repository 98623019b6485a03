"""What a designer frowns at, as checks: text cut off in buttons, combo boxes and labels."""

from __future__ import annotations

from typing import Any

from app.ui.qt import QComboBox, QLabel, QPushButton, Qt, QWidget


def clipped(root: QWidget) -> list[str]:
    """Visible widgets whose text doesn't fit: ``["objectName/class: text", ...]``."""
    found: list[str] = []

    def name(w: Any, text: str) -> str:
        return f"{w.objectName() or type(w).__name__}: {text!r} ({w.width()} px)"

    for w in root.findChildren(QWidget):
        if not w.isVisible() or w.width() <= 1:
            continue
        if isinstance(w, QPushButton) and w.text():
            if w.width() < w.sizeHint().width():
                found.append(name(w, w.text()))
        elif isinstance(w, QComboBox) and w.count():
            # every choice, not only the current one: picking another must not cut it off either
            if w.width() < w.minimumSizeHint().width() or w.width() < w.sizeHint().width():
                found.append(name(w, w.currentText()))
        elif isinstance(w, QLabel) and w.text() and not w.wordWrap() and w.pixmap().isNull():
            if w.textFormat() == Qt.TextFormat.RichText or "<" in w.text():
                continue
            need = max(w.fontMetrics().horizontalAdvance(line) for line in w.text().splitlines())
            if need > w.contentsRect().width() + 1:
                found.append(name(w, w.text()))
    return found
