"""Picks and boards in the app: the marks a designer puts on a result (favourite, reject, a 0–5
rating) from the slot pane, the gallery and the viewer, "Add to board…", and the filter choices
by pick, rating and board the browser and the gallery share.

What a key does is the domain's (``app.domain.picks.pick_change``); the marks are stored by the
service (``SlateService.pick``, ``board_add``), called through the controller's runner by
:class:`PickActions` — the one object of the window that marks results. Widgets here only show
and ask.
"""

from __future__ import annotations

from typing import Any, Callable

from app.domain.picks import pick_change
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QEvent,
    QObject,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Qt,
    Signal,
    translate,
)

CONTEXT = "Picks"
TOOLTIP = Qt.ItemDataRole.ToolTipRole
FAVOURITE = QT_TRANSLATE_NOOP("Picks", "Favourite")
REJECT = QT_TRANSLATE_NOOP("Picks", "Reject")
RATING = QT_TRANSLATE_NOOP("Picks", "Rating")
NO_RATING = QT_TRANSLATE_NOOP("Picks", "No rating")
ONE_STAR = QT_TRANSLATE_NOOP("Picks", "1 star")
STARS = QT_TRANSLATE_NOOP("Picks", "%1 stars")
ADD_TO_BOARD = QT_TRANSLATE_NOOP("Picks", "Add to board…")
FAVOURITE_MARK = "♥"
REJECT_MARK = "✕"
#: the keys that mark a result (F favourite, X reject, 1–5 rating, 0 no rating)
PICK_KEYS = {
    Qt.Key.Key_F: "F",
    Qt.Key.Key_X: "X",
    **{getattr(Qt.Key, f"Key_{n}"): str(n) for n in range(6)},
}


def tr(text: str) -> str:
    return translate(CONTEXT, text)


def marks_text(pick: str | None, rating: int) -> str:
    """A result's marks in a few signs: ♥ or ✕, then its stars (empty: none)."""
    flag = {"favourite": FAVOURITE_MARK, "reject": REJECT_MARK}.get(pick or "", "")
    stars = "★" * rating
    return f"{flag} {stars}".strip()


def stars_words(n: int) -> str:
    """The rating in words: 1 star, 3 stars, No rating (0)."""
    if not n:
        return tr(NO_RATING)
    return tr(ONE_STAR) if n == 1 else tr(STARS).replace("%1", str(n))


def with_key(words: str, key: str) -> str:
    return f"{words} ({key})"


def marks_words(pick: str | None, rating: int) -> str:
    """The marks in words (a screen reader's, a tooltip's)."""
    parts = []
    if pick == "favourite":
        parts.append(tr(FAVOURITE))
    elif pick == "reject":
        parts.append(tr(REJECT))
    if rating:
        parts.append(stars_words(rating))
    return " · ".join(parts)


def key_of(event: Any) -> str | None:
    """The pick key of a key press without modifiers (None: not one)."""
    if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
        return None
    return PICK_KEYS.get(Qt.Key(event.key()))


def key_rows() -> list[tuple[str, str]]:
    """The marking keys as the shortcuts overlay lists them: (what it does, its keys)."""
    return [
        (tr(FAVOURITE), "F"),
        (tr(REJECT), "X"),
        (tr(RATING), "1–5"),
        (tr(NO_RATING), "0"),
    ]


class MarkKeys(QObject):
    """Passes the marking keys pressed in a widget (the slot list) to ``mark(key)``, which says
    whether it marked something (else the key goes on to the widget)."""

    def __init__(self, mark: Callable[[str], bool], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._mark = mark

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.KeyPress:
            key = key_of(event)
            if key is not None and self._mark(key):
                return True
        return super().eventFilter(obj, event)


class PickActions(QObject):
    """Marks results and keeps the list of boards, through the service on the controller's
    runner. ``marked`` says each change once stored: (request_id, position, pick, rating)."""

    marked = Signal(str, int, object, int)
    boardsChanged = Signal()
    refused = Signal(str)  # the service's words for a refused mark

    def __init__(self, controller: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.boards: list[Any] = []  # BoardInfo, by name

    def _run(self, call: Any, done: Callable[[Any], None]) -> None:
        self.controller.load(call, done=done)

    def mark(self, request_id: str, position: int, change: dict[str, Any]) -> None:
        """Set what ``change`` says (``pick`` and/or ``rating``) on one result."""
        svc = self.controller.service

        def done(out: Any) -> None:
            if out is None or out.kind.value != "ok":
                self.refused.emit(out.problem.message if out is not None and out.problem else "")
                return
            for r in out.payload.results:
                if r.result == position + 1:
                    self.marked.emit(request_id, position, r.pick, r.rating)

        self._run(svc.pick(request_id, result=position + 1, **change), done)

    def mark_key(self, request_id: str, position: int, key: str, current: str | None) -> bool:
        """What the key F, X, 0–5 does on a result whose flag is ``current``."""
        change = pick_change(key, current)
        if change is None:
            return False
        self.mark(request_id, position, change)
        return True

    def marks_of(self, request_id: str, done: Callable[[Any], None]) -> None:
        """The slot's marks (``PickReport``; None when it has none to show)."""

        def arrived(out: Any) -> None:
            done(out.payload if out is not None and out.kind.value == "ok" else None)

        self._run(self.controller.service.pick(request_id), arrived)

    def refresh_boards(self) -> None:
        def arrived(out: Any) -> None:
            if out is not None and out.kind.value == "ok":
                self.boards = list(out.payload.boards)
                self.boardsChanged.emit()

        self._run(self.controller.service.boards(), arrived)

    def add_to_board(self, name: str, results: list[tuple[str, int]]) -> None:
        """Put these results (request_id, position) on the board ``name`` (made if new), one
        after the other; the boards are read again at the end."""
        self._boards_one_by_one(self.controller.service.board_add, name, list(results))

    def remove_from_board(self, name: str, results: list[tuple[str, int]]) -> None:
        self._boards_one_by_one(self.controller.service.board_remove, name, list(results))

    def _boards_one_by_one(self, change: Any, name: str, results: list[tuple[str, int]]) -> None:
        if not results:
            self.refresh_boards()
            return
        (rid, position), rest = results[0], results[1:]

        def done(out: Any) -> None:
            if out is None or out.kind.value != "ok":
                self.refused.emit(out.problem.message if out is not None and out.problem else "")
            self._boards_one_by_one(change, name, rest)

        self._run(change(name, rid, position + 1), done)

    # -- menus ---------------------------------------------------------------------------------
    def fill_menu(
        self,
        menu: QMenu,
        results: list[tuple[str, int]],
        current: str | None,
        ask_board: Callable[[], str | None],
    ) -> None:
        """Favourite (F), Reject (X), Rating ▸, Add to board… for these results (the first one's
        flag decides what F and X toggle to)."""
        if not results:
            return

        def on_all(key: str) -> None:
            for rid, pos in results:
                self.mark_key(rid, pos, key, current)

        fav = menu.addAction(with_key(tr(FAVOURITE), "F"), lambda: on_all("F"))
        fav.setCheckable(True)
        fav.setChecked(current == "favourite")
        rej = menu.addAction(with_key(tr(REJECT), "X"), lambda: on_all("X"))
        rej.setCheckable(True)
        rej.setChecked(current == "reject")
        stars = menu.addMenu(tr(RATING))
        for n in range(6):
            stars.addAction(with_key(stars_words(n), str(n)), lambda n=n: on_all(str(n)))

        def to_board() -> None:
            name = ask_board()
            if name:
                self.add_to_board(name, results)

        menu.addAction(tr(ADD_TO_BOARD), to_board)


class BoardChooser(QDialog):
    """The "Add to board…" dialog: one of the designer's boards, or a new name typed in."""

    def __init__(self, names: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("boardChooser")
        self.setWindowTitle(self.tr("Add to board"))
        self.combo = QComboBox(objectName="boardName")
        self.combo.setEditable(True)
        self.combo.addItems(names)
        self.combo.setCurrentText(names[0] if names else "")
        self.combo.lineEdit().setPlaceholderText(self.tr("A board's name, e.g. Hero shots"))
        self.combo.setAccessibleName(self.tr("Board"))
        hint = QLabel(self.tr("Choose a board or type a new name: a new board is made."))
        hint.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(hint)
        box.addWidget(self.combo)
        box.addWidget(buttons)

    def name(self) -> str:
        return self.combo.currentText().strip()


def ask_board(actions: PickActions, parent: QWidget | None) -> str | None:
    """Ask which board (modal); None when cancelled. Tests replace this with a function."""
    dlg = BoardChooser([b.name for b in actions.boards], parent)
    return dlg.name() if dlg.exec() == QDialog.DialogCode.Accepted else None


class PickBar(QWidget):
    """The marks of one result as buttons: ♥ favourite, ✕ reject, five stars, "Add to board…".
    Shows what it is given (:meth:`show_marks`); a click says what to change (``wanted``)."""

    wanted = Signal(str)  # the key: F, X, 0–5
    boardWanted = Signal()

    def __init__(self, parent: QWidget | None = None, *, with_board: bool = True) -> None:
        """``with_board=False``: the "Add to board…" button (:attr:`board`) is left for the
        owner to place (a narrow pane wraps it to the next line)."""
        super().__init__(parent)
        self.setObjectName("pickBar")
        self.favourite = QToolButton(objectName="pickFavourite")
        self.favourite.setText(FAVOURITE_MARK)
        self.favourite.setCheckable(True)
        self.favourite.setToolTip(with_key(tr(FAVOURITE), "F"))
        self.favourite.setAccessibleName(tr(FAVOURITE))
        self.reject = QToolButton(objectName="pickReject")
        self.reject.setText(REJECT_MARK)
        self.reject.setCheckable(True)
        self.reject.setToolTip(with_key(tr(REJECT), "X"))
        self.reject.setAccessibleName(tr(REJECT))
        self.stars: list[QToolButton] = []
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(self.favourite)
        row.addWidget(self.reject)
        for n in range(1, 6):
            b = QToolButton(objectName=f"pickStar{n}")
            b.setText("☆")
            b.setAutoRaise(True)
            b.setProperty("star", True)  # drawn close together (style.py): the row fits
            b.setMaximumWidth(b.fontMetrics().horizontalAdvance("★") + 6)
            b.setToolTip(with_key(stars_words(n), str(n)))
            b.setAccessibleName(stars_words(n))
            b.clicked.connect(lambda _c=False, n=n: self._star(n))
            self.stars.append(b)
            row.addWidget(b)
        self.board = QToolButton(objectName="pickBoard")
        self.board.setText(tr(ADD_TO_BOARD))
        self.board.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        if with_board:
            row.addWidget(self.board)
        self.favourite.clicked.connect(lambda: self.wanted.emit("F"))
        self.reject.clicked.connect(lambda: self.wanted.emit("X"))
        self.board.clicked.connect(self.boardWanted)
        self.pick: str | None = None
        self.rating = 0

    def _star(self, n: int) -> None:
        self.wanted.emit("0" if n == self.rating else str(n))  # the same star again: none

    def show_marks(self, pick: str | None, rating: int) -> None:
        self.pick, self.rating = pick, rating
        self.favourite.setChecked(pick == "favourite")
        self.reject.setChecked(pick == "reject")
        for n, b in enumerate(self.stars, 1):
            b.setText("★" if n <= rating else "☆")


# -- the filters ----------------------------------------------------------------------------------
PICK_CHOICES = (
    (QT_TRANSLATE_NOOP("Picks", "Any pick"), None),
    (QT_TRANSLATE_NOOP("Picks", "Favourites"), "favourite"),
    (QT_TRANSLATE_NOOP("Picks", "Hide rejects"), "unrejected"),
    (QT_TRANSLATE_NOOP("Picks", "Rejects"), "reject"),
)
ANY_RATING = QT_TRANSLATE_NOOP("Picks", "Any rating")
AT_LEAST = QT_TRANSLATE_NOOP("Picks", "%1 or more")
ANY_BOARD = QT_TRANSLATE_NOOP("Picks", "Any board")


class PickFilters(QObject):
    """Three combo boxes — pick, rating, board — whose choice narrows a :class:`SlotFilter`
    (``pick``, ``min_rating``, ``board``). The browser and the gallery each have one; the window
    keeps them alike."""

    changed = Signal()

    def __init__(self, prefix: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pick = QComboBox(objectName=f"{prefix}PickFilter")
        for words, value in PICK_CHOICES:
            self.pick.addItem(tr(words), value)
        self.rating = QComboBox(objectName=f"{prefix}RatingFilter")
        self.rating.addItem(tr(ANY_RATING), 0)
        for n in range(1, 6):
            self.rating.addItem(f"★ {n}+", n)  # n stars or more
            self.rating.setItemData(n, tr(AT_LEAST).replace("%1", stars_words(n)), TOOLTIP)
        self.board = QComboBox(objectName=f"{prefix}BoardFilter")
        self.board.addItem(tr(ANY_BOARD), None)
        for combo, name in (
            (self.pick, QT_TRANSLATE_NOOP("Picks", "Pick filter")),
            (self.rating, QT_TRANSLATE_NOOP("Picks", "Rating filter")),
            (self.board, QT_TRANSLATE_NOOP("Picks", "Board filter")),
        ):
            combo.setAccessibleName(tr(name))
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.currentIndexChanged.connect(self._changed)
        self._quiet = False

    def combos(self) -> tuple[QComboBox, QComboBox, QComboBox]:
        return (self.pick, self.rating, self.board)

    def _changed(self, *_: Any) -> None:
        if not self._quiet:
            self.changed.emit()

    def values(self) -> dict[str, Any]:
        """The SlotFilter fields these choices set."""
        return {
            "pick": self.pick.currentData(),
            "min_rating": int(self.rating.currentData() or 0),
            "board": self.board.currentData(),
        }

    def set_values(self, pick: Any, min_rating: int, board: Any) -> None:
        """Choose these (quietly: no ``changed``); a board not listed is added as it is."""
        self._quiet = True
        try:
            for combo, value in ((self.pick, pick), (self.rating, min_rating)):
                i = combo.findData(value)
                combo.setCurrentIndex(max(0, i))
            i = self.board.findData(board)
            self.board.setCurrentIndex(max(0, i))
        finally:
            self._quiet = False

    def set_boards(self, boards: list[Any]) -> None:
        """The designer's boards as choices (the current one kept while it exists)."""
        current = self.board.currentData()
        self._quiet = True
        try:
            while self.board.count() > 1:
                self.board.removeItem(1)
            for b in boards:
                self.board.addItem(b.name, b.id)
            i = self.board.findData(current)
        finally:
            self._quiet = False
        if i < 0 and current is not None:
            self.board.setCurrentIndex(0)  # the board is gone: any board (says changed)
        else:
            self._quiet = True
            self.board.setCurrentIndex(max(0, i))
            self._quiet = False
