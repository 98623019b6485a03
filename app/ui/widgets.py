"""Small widgets the panes share."""

from __future__ import annotations

from typing import Any

from app.ui.qt import QLabel, QSizePolicy, Qt, QWidget


class ElidedLabel(QLabel):
    """One line that never overflows its pane: elided in the middle when too long (the whole text
    in the tooltip and in :meth:`full_text`). A RequestId keeps its start and its scene."""

    def __init__(self, text: str = "", parent: QWidget | None = None, **kw: Any) -> None:
        super().__init__(parent, **kw)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(40)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        self._full = text
        self._fit()

    def full_text(self) -> str:
        return self._full

    def _fit(self) -> None:
        width = max(0, self.contentsRect().width())
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideMiddle, width)
        super().setText(shown)
        self.setToolTip(self._full if shown != self._full else "")

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit()


__all__ = ["ElidedLabel"]
