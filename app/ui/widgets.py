"""Small widgets the panes share."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from app.ui.qt import QEvent, QLabel, QObject, QPixmap, QSizePolicy, Qt, QtWidgets, QWidget

_WHEEL = QEvent.Type.Wheel
_POLISH = QEvent.Type.Polish
P = ParamSpec("P")
R = TypeVar("R")


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
    pass under the pointer. Installed once on the application (:func:`guard_wheel`): such a
    widget takes the focus by click or Tab only (never by the wheel), and a wheel turn over it
    while it has no focus goes on to its parents (the page scrolls)."""

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        # every event of the application passes here: the cheap test first (an event's type
        # is made a Python enum on each call; asking it of every event cost a tenth of the
        # window's construction)
        if not _guarded(obj):
            return False
        kind = event.type()
        if kind == _WHEEL:
            return not obj.hasFocus()
        if kind == _POLISH:
            _no_wheel_focus(obj)
        return False


#: What the wheel must not change unless focused (spin boxes and date edits, combo boxes, sliders;
#: never a scroll bar).
GUARDED = (QtWidgets.QAbstractSpinBox, QtWidgets.QComboBox, QtWidgets.QSlider)


def _guarded(obj: Any) -> bool:
    return isinstance(obj, GUARDED)


def _no_wheel_focus(widget: Any) -> None:
    if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


def guard_wheel(app: Any) -> WheelGuard:
    """Install the :class:`WheelGuard` on ``app`` (once; later calls return the same guard),
    and take the wheel focus from the widgets that exist already. Made during an
    :func:`unguarded_build`, it goes on at the build's end."""
    guard = app.findChild(WheelGuard, "wheelGuard")
    if guard is None:
        guard = WheelGuard(app)
        guard.setObjectName("wheelGuard")
        if not _builds:
            _install(app, guard)
    return guard


def _install(app: Any, guard: WheelGuard) -> None:
    for widget in app.allWidgets():
        if _guarded(widget):
            _no_wheel_focus(widget)
    app.installEventFilter(guard)


#: The unguarded builds running (on the GUI thread; one may call another).
_builds = 0


def unguarded_build(build: Callable[P, R]) -> Callable[P, R]:
    """``build`` (a window's construction) runs with the :class:`WheelGuard` off the
    application: a build sends thousands of events (each widget made, parented, styled and
    polished), each one a call into Python through the guard, and no wheel turn reaches a
    widget while it is being built. When the outermost build ends the guard is on (put back,
    or on for the first time if the build made it), and the widgets the build polished are
    given the focus policy the guard gives at a polish."""

    @functools.wraps(build)
    def built(*args: P.args, **kwargs: P.kwargs) -> R:
        global _builds
        app = QtWidgets.QApplication.instance()
        if app is None:
            return build(*args, **kwargs)
        guard = app.findChild(WheelGuard, "wheelGuard")
        if guard is not None and not _builds:
            app.removeEventFilter(guard)
        _builds += 1
        try:
            return build(*args, **kwargs)
        finally:
            _builds -= 1
            guard = app.findChild(WheelGuard, "wheelGuard")
            if guard is not None and not _builds:
                _install(app, guard)

    return built


__all__ += ["WheelGuard", "guard_wheel", "unguarded_build"]
