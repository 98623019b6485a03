"""A layout that lines its widgets up left to right and wraps to the next row when the width runs
out (Qt's "Flow Layout" example): the action bar's buttons never leave a narrow pane."""

from __future__ import annotations

from typing import Any

from app.ui.qt import QLayout, QPoint, QRect, QSize, Qt, QWidget


#: The heights kept for as many widths at most (a layout asks a few for one change).
_KEPT_WIDTHS = 8


class FlowLayout(QLayout):
    """Rows of widgets, wrapped at the layout's width; hidden widgets take no room."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[Any] = []
        self._spacing = spacing
        self._hfw: dict[int, int] = {}  # width → height, as asked since the last change
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: Any) -> None:  # noqa: N802 - Qt override
        self._items.append(item)
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> Any:  # noqa: N802 - Qt override
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> Any:  # noqa: N802 - Qt override
        if not 0 <= index < len(self._items):
            return None
        item = self._items.pop(index)
        self.invalidate()
        return item

    def invalidate(self) -> None:
        """A widget of it changed its size, text or visibility (Qt says so here): heights are
        worked out again."""
        self._hfw.clear()
        super().invalidate()

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt override
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt override
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt override
        """Kept for each width asked until :meth:`invalidate` (as Qt's box layouts keep theirs):
        a window's layout asks it many times over for one change, each a walk in Python, and
        by turns for two or more widths (the splitter's panes weighed against each other)."""
        height = self._hfw.get(width)
        if height is None:
            if len(self._hfw) >= _KEPT_WIDTHS:  # a window dragged wider: no endless list
                self._hfw.clear()
            height = self._hfw[width] = self._arrange(QRect(0, 0, width, 0), move=False)
        return height

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt override
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self.minimumSize()

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt override
        size = QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.sizeHint())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, row_height = area.x(), area.y(), 0
        for item in self._items:
            if item.isEmpty():
                continue
            hint = item.sizeHint()
            if x > area.x() and x + hint.width() > area.right() + 1:
                x, y = area.x(), y + row_height + self._spacing
                row_height = 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._spacing
            row_height = max(row_height, hint.height())
        return y + row_height - rect.y() + m.bottom()


__all__ = ["FlowLayout"]
