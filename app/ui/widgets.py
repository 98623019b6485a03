"""Small widgets the panes share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.ui.qt import QEvent, QLabel, QObject, QPixmap, QSizePolicy, Qt, QtWidgets, QWidget

_WHEEL = QEvent.Type.Wheel


class ElidedLabel(QLabel):
    """One line that never overflows its pane: elided in the middle when too long (the whole text
    in the tooltip and in :meth:`full_text`). A RequestId keeps its start and its scene.
    ``elide``: where the dots go (a sentence: at its end)."""

    elide = Qt.TextElideMode.ElideMiddle

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
        shown = self.fontMetrics().elidedText(self._full, self.elide, width)
        super().setText(shown)
        self.setToolTip(self._full if shown != self._full else "")

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit()


__all__ = ["ElidedLabel"]


def add_list_item(view: Any, text: str) -> Any:
    """Append an item that Qt makes (``addItem(text)``) to the list ``view`` and return it.

    An item made in Python (``QListWidgetItem(text)``) is a subclass whose C++ destructor looks
    its Python wrapper up again when ``clear()`` deletes it; under load that lookup met a freed
    wrapper and the app crashed inside ``QListWidget.clear()``. An item Qt makes has no such
    destructor: the wrapper returned here only borrows it."""
    view.addItem(text)
    return view.item(view.count() - 1)


def icon_of_row(view: Any, row: int, current: Callable[[], bool]) -> Callable[[Any], None]:
    """A thumbnail's ``done``: set the image as the icon of ``view``'s item at ``row`` while
    ``current()`` (the pane still shows what asked for it). The row, not the item: the Python
    wrapper of an item held by a pending callback could be freed by a collection on another
    thread while ``clear()`` deletes the item."""

    def show(img: Any) -> None:
        item = view.item(row) if current() else None
        if item is not None and not img.isNull():
            item.setIcon(QPixmap.fromImage(img))

    return show


def fit_icons(view: Any, largest: int, aspect: float = 1.0) -> None:
    """Size an icon-mode list's images as large as its viewport allows with every one in view:
    the columns that give the largest cells whose rows fit both the width and the height (cells
    ``aspect`` = height / width of the images, at most ``largest`` px wide, at least 48)."""
    from app.ui.qt import QSize, QStyle

    n = view.count()
    if not n:
        return
    # the width with room for a vertical scroll bar, shown or not: fitting never toggles it
    bar = (
        0
        if view.verticalScrollBar().isVisible()
        else view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, view)
    )
    width, height = view.viewport().width() - bar, view.viewport().height()
    pad, label = 2 * view.spacing() + 8, view.fontMetrics().height() + 8
    cell = 48
    for cols in range(1, n + 1):  # the columns that give the largest cells wholly in view
        rows = -(-n // cols)
        wide = (width - cols * pad) // cols
        tall = int(((height // rows) - label - pad) / max(aspect, 0.01))
        cell = max(cell, min(wide, tall))
    cell = min(cell, largest)
    tall = max(24, int(cell * aspect))
    view.setIconSize(QSize(cell, tall))
    for i in range(n):
        view.item(i).setSizeHint(QSize(cell + 8, tall + label))


class WheelGuard(QObject):
    """The mouse wheel changes a spin box, a combo box or a slider only when it has the focus:
    scrolling the page over the form never moves a paid setting (Duration, Ratio…) as the fields
    pass under the pointer. A wheel turn over such a widget while it has no focus goes on to its
    parents (the page scrolls). Installed on each such widget alone, by the application's style
    (:class:`GuardingStyle`): the events of every other object never call into Python here."""

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        # only the guarded widgets' own events pass here
        if event.type() != _WHEEL or obj.hasFocus():
            return False
        event.ignore()  # kept from the widget, and ignored: Qt offers it to the parents
        return True


#: What the wheel must not change unless focused (spin boxes and date edits, combo boxes, sliders;
#: never a scroll bar).
GUARDED = (QtWidgets.QAbstractSpinBox, QtWidgets.QComboBox, QtWidgets.QSlider)


class GuardingStyle(QtWidgets.QProxyStyle):
    """The application's style: the one it had (the platform's), which guards each
    :data:`GUARDED` widget as it is polished — before it is first shown, made with the window or
    later (a dialog, a row added), and again when a stylesheet changes (a stylesheet's style
    polishes with its base style, this one, first). Such a widget takes the focus by click or
    Tab only (never by the wheel) and gets the :class:`WheelGuard`."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.guard = WheelGuard(self)
        self.guard.setObjectName("wheelGuard")

    def polish(self, target: Any) -> Any:  # a widget, the application or a palette
        if isinstance(target, GUARDED):
            if target.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                target.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            target.installEventFilter(self.guard)  # once: installing again moves it first
        return super().polish(target)


def guard_wheel() -> WheelGuard:
    """Make the application's style a :class:`GuardingStyle` over its own (once; later calls
    return the same guard). The widgets polished already are polished again, so guarded too;
    a window or a form calls this before it makes its first widget."""
    app = QtWidgets.QApplication.instance()
    assert isinstance(app, QtWidgets.QApplication)
    style = app.style()
    if not isinstance(style, GuardingStyle):
        style = GuardingStyle(style.name())
        app.setStyle(style)
    return style.guard


__all__ += ["GUARDED", "GuardingStyle", "WheelGuard", "guard_wheel"]
