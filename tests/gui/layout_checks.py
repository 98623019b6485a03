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


def outside(window: QWidget) -> list[str]:
    """Visible buttons, labels, fields and combo boxes not wholly shown: cut off by the window's
    edge or by a pane too narrow for them (Qt clips a child to its parents), except inside a
    scroll area (scrolled to, not cut)."""
    from app.ui.qt import QAbstractButton, QAbstractScrollArea, QLineEdit

    found: list[str] = []
    area = window.rect()
    kinds = (QAbstractButton, QLabel, QComboBox, QLineEdit)
    for w in window.findChildren(QWidget):
        if not isinstance(w, kinds) or not w.isVisible() or w.window() is not window:
            continue
        if w.width() <= 1 or w.height() <= 1:
            continue
        p = w.parentWidget()
        scrolled = False
        while p is not None and p is not window:
            if isinstance(p, QAbstractScrollArea):
                scrolled = True
                break
            p = p.parentWidget()
        shown = w.visibleRegion().boundingRect()
        if scrolled and shown.isEmpty():
            continue  # scrolled out of view (vertically): reached by scrolling, not cut
        top_left = w.mapTo(window, w.rect().topLeft())
        bottom_right = w.mapTo(window, w.rect().bottomRight())
        # Slate's scroll areas scroll vertically only: a widget cut at the side is cut for good.
        if (
            not scrolled and not (area.contains(top_left) and area.contains(bottom_right))
        ) or shown.width() < w.width() - 1:
            text = w.currentText() if isinstance(w, QComboBox) else w.text()
            found.append(
                f"{w.objectName() or type(w).__name__}: {text!r} at "
                f"{top_left.x()},{top_left.y()} ({shown.width()} of {w.width()} px)"
            )
    return found


def elided_rows(tree: Any) -> list[str]:
    """Rows of a tree view whose first-column text does not fit the column (shown with "…")."""
    found: list[str] = []
    model = tree.model()
    fm = tree.fontMetrics()

    def walk(parent: Any, depth: int) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            text = str(model.data(index) or "")
            rect = tree.visualRect(index)
            if text and rect.isValid() and rect.height() > 0:
                spanned = tree.isFirstColumnSpanned(row, parent)
                width = tree.viewport().width() - rect.x() if spanned else rect.width()
                icon = (
                    0
                    if model.data(index, Qt.ItemDataRole.DecorationRole) is None
                    else (tree.iconSize().width() + 6 if tree.iconSize().width() > 0 else 22)
                )
                if fm.horizontalAdvance(text) + icon + 8 > width:
                    found.append(f"{text!r} ({width} px)")
            if tree.isExpanded(index):
                walk(index, depth + 1)

    from app.ui.qt import QModelIndex

    walk(QModelIndex(), 0)
    return found


#: Air a menu button's text needs: left of the text, between the text and the menu arrow, and
#: right of the arrow (pixels each).
MENU_AIR = 6


def cramped_menus(root: QWidget) -> list[str]:
    """Visible buttons with a menu whose text and arrow do not both fit with air between them
    (text width + arrow + 3 × MENU_AIR > button width), or that are shorter than the push
    buttons beside them."""
    from app.ui.qt import QAbstractButton, QtWidgets

    found: list[str] = []
    for w in root.findChildren(QAbstractButton):
        menu = w.menu() if hasattr(w, "menu") else None
        if menu is None or not w.isVisible() or not w.text():
            continue
        style = w.style()
        arrow = style.pixelMetric(QtWidgets.QStyle.PixelMetric.PM_MenuButtonIndicator, None, w)
        need = w.fontMetrics().horizontalAdvance(w.text()) + arrow + 3 * MENU_AIR
        if need > w.width():
            found.append(
                f"{w.objectName() or type(w).__name__}: {w.text()!r} needs {need} px, "
                f"has {w.width()} px"
            )
        row = w.parentWidget()
        others = (
            [
                b
                for b in row.findChildren(QPushButton)
                if b is not w and b.isVisible() and b.parentWidget() is row and b.menu() is None
            ]
            if row is not None
            else []
        )
        if others and w.height() < max(b.height() for b in others):
            found.append(
                f"{w.objectName() or type(w).__name__}: {w.height()} px tall beside "
                f"buttons of {max(b.height() for b in others)} px"
            )
    return found
