"""The left pane: search and filters over the slot tree (filtering runs in SQL, in the model).

Bound to :class:`~app.ui.current.CurrentSlot`: the tree follows the slot on screen (its row is
brought into view, its groups opened and its page loaded when needed), and a click on a slot row
is reported as :attr:`SlotBrowser.slotActivated`.
"""

from __future__ import annotations

import time
from typing import Any

from app.domain.states import FILTER_GROUPS, State
from app.domain.listing import SlotFilter
from app.ui.current import CurrentSlot
from app.ui.models import NodeKindRole, RequestIdRole, SlotTreeModel, age_text, row_from_view
from app.ui.flow import FlowLayout
from app.ui.picks import PickFilters
from app.ui.qt import (
    QEvent,
    QToolButton,
    QAbstractItemView,
    QByteArray,
    QCheckBox,
    QComboBox,
    QMenu,
    QHeaderView,
    QLabel,
    QLineEdit,
    QModelIndex,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTimer,
    QTreeView,
    QVBoxLayout,
    QWidget,
    Signal,
)
from app.ui.style import slot_icon_size, state_word


def essential_name(label: str) -> str:
    """What of a slot's name must always be read: all of it, or for a derived slot or an attempt
    (``scene-01.enhanced``, ``scene-02.2k``, ``scene-03.t2``) its suffix whole and the scene's
    last two characters, after the ellipsis the slot list cuts it with (``…01.enhanced``)."""
    head, dot, tail = label.partition(".")
    if not dot or len(head) <= 2:
        return label
    return "…" + head[-2:] + dot + tail


class SlotNameDelegate(QStyledItemDelegate):
    """A slot's name cut from the left when the column is narrow: what tells slots apart is at
    the end (``scene-02.2k``, ``scene-01.enhanced``, ``scene-03.t2``), so ``…e-02.2k`` is shown,
    never ``scene-0…``. Project and day rows span the width and are cut as usual."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Any) -> None:  # noqa: N802
        super().initStyleOption(option, index)
        if index.data(NodeKindRole) not in ("project", "day"):
            option.textElideMode = Qt.TextElideMode.ElideLeft


class SlotBrowser(QWidget):
    """Search, state/kind/date filters and the grouped slot tree."""

    slotActivated = Signal(str)  # request_id
    hideWanted = Signal(str)  # "Hide slot" on a row's context menu (the record stays)

    def __init__(
        self, model: SlotTreeModel, slot: CurrentSlot, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("slotBrowser")
        self.model = model
        self.slot = slot
        self._followed: str | None = None  # the slot whose row was last brought into view
        self._revealing = False
        self._pending_step: bool | None = None
        self._step_from: Any = None
        self.title = QLabel(self.tr("SLOTS"), objectName="paneTitle")
        self.search = QLineEdit(objectName="searchEdit")
        self.search.setPlaceholderText(self.tr("Search slots and prompts…"))
        self.search.setClearButtonEnabled(True)
        for clear in self.search.findChildren(QToolButton):  # Qt's own clear button: name it
            clear.setAccessibleName(self.tr("Clear the search"))
        self.search.setAccessibleName(self.tr("Search slots"))
        self.state = QComboBox(objectName="stateFilter")
        self.state.addItem(self.tr("All states"), ())
        self.state.addItem(self.tr("Running"), FILTER_GROUPS["running"])
        self.state.addItem(self.tr("Needs attention"), FILTER_GROUPS["attention"])
        for s in (State.SUCCESS, State.UNKNOWN, State.FAIL, State.REJECTED):
            self.state.addItem(state_word(s), (s,))
        self.kind = QComboBox(objectName="kindFilter")
        self.kind.addItem(self.tr("All kinds"), None)
        self.kind.addItem(self.tr("Videos"), "video")
        self.kind.addItem(self.tr("Images"), "image")
        self.date = QComboBox(objectName="dateFilter")
        self.date.addItem(self.tr("Any day"), None)
        self.date.addItem(self.tr("Today"), 0)
        self.date.addItem(self.tr("Last 7 days"), 7)
        self.date.addItem(self.tr("Last 30 days"), 30)
        for w, n in (
            (self.state, self.tr("State filter")),
            (self.kind, self.tr("Kind filter")),
            (self.date, self.tr("Date filter")),
        ):
            w.setAccessibleName(n)
        self.show_hidden = QCheckBox(self.tr("Show hidden"), objectName="showHiddenFilter")
        self.show_hidden.setToolTip(self.tr("Also the slots hidden from the browser"))
        self.tree = QTreeView(objectName="slotList")
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.tree.setAccessibleName(self.tr("Slots"))
        self.tree.setModel(model)
        self.tree.setUniformRowHeights(True)
        self.tree.setIconSize(slot_icon_size())  # the state badge and the kind's glyph
        self._names = SlotNameDelegate(self.tree)
        self.tree.setItemDelegateForColumn(0, self._names)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setAlternatingRowColors(False)
        self.tree.setAnimated(False)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.setIndentation(14)
        header.setMinimumSectionSize(40)
        for col, width in ((1, 76), (2, 96), (3, self._age_width())):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        self.empty = QLabel(objectName="hint")
        self.empty.setWordWrap(True)
        self.empty.hide()
        self.tree.installEventFilter(self)

        self.picks = PickFilters("browser", self)  # by pick, rating and board
        for combo in (self.state, self.kind, self.date):
            # as wide as the longest choice in the current language: a filter never reads cut off
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        filters = FlowLayout(spacing=6)  # wraps in a narrow pane: a filter is never cut off
        for combo in (self.state, self.kind, self.date, *self.picks.combos()):
            filters.addWidget(combo)
        filters.addWidget(self.show_hidden)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.title)
        box.addWidget(self.search)
        box.addLayout(filters)
        box.addWidget(self.tree, 1)
        box.addWidget(self.empty)

        self._debounce = QTimer(self, singleShot=True, interval=250)
        self._debounce.timeout.connect(self.apply_filter)
        self.search.textChanged.connect(self._debounce.start)
        for combo in (self.state, self.kind, self.date):
            combo.currentIndexChanged.connect(self.apply_filter)
        self.show_hidden.toggled.connect(self.apply_filter)
        self.picks.changed.connect(self.apply_filter)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        model.rowsInserted.connect(self._span_groups)
        self._widest_name = 0  # the widest slot name loaded (essential_name), in pixels
        self._widths: dict[int, int] = {}  # the kind and age columns' widths when shown
        model.rowsInserted.connect(self._measure_names)
        #: groups to open again as they load after :meth:`reload_keeping_open`, by their keys
        self._reopen: set[tuple[str, ...]] = set()
        model.rowsInserted.connect(self._reopen_rows)
        model.modelReset.connect(self._reopen.clear)
        model.modelReset.connect(self._forget_names)
        model.revealed.connect(self.show_index)
        model.opened.connect(self.open_index)
        model.modelReset.connect(self._update_empty)
        model.rowsInserted.connect(self._update_empty)
        model.loadingChanged.connect(lambda _l: self._update_empty())
        model.loadingChanged.connect(self._retry_step)
        model.modelReset.connect(self._forget)
        # a new filter's rows come in with the reset (no empty tree first): shown from the top,
        # as an emptied tree's scroll bar brought them
        model.modelReset.connect(self.tree.scrollToTop)
        self._ages = QTimer(self, interval=30_000)
        self._ages.timeout.connect(model.refresh_ages)
        self._ages.timeout.connect(model.refresh)  # other processes (the CLI, a teammate) write too
        self._ages.start()
        slot.selected_changed.connect(self._follow_selection)
        slot.task_changed.connect(self._follow_record)

    def _age_width(self) -> int:
        """The Age column as wide as its widest words in this language and font ("59 min",
        "23 h", "999 d"): an age never reads "10 …"."""
        fm = self.tree.fontMetrics()
        samples = (age_text(0, now) for now in (59 * 60 + 1, 23 * 3600 + 1, 999 * 86400, 0))
        return max(fm.horizontalAdvance(t) for t in samples) + 16

    #: Below this width the tree shows the slot and its state only (kind and age come back when
    #: the pane is wider): a slot's name is never cut to "sc…".
    NARROW = 330

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        if obj is self.tree and event.type() == QEvent.Type.Resize:
            self._fit_columns(event.size().width())
            QTimer.singleShot(0, self._fit_columns)  # again once the layout has settled
        return super().eventFilter(obj, event)

    def _name_room(self) -> int:
        """How wide the Slot column must be for the widest slot name loaded: its indent (a
        slot sits under a project and a day), state badge, margins and text."""
        icon = self.tree.iconSize().width()  # the state badge and the kind's glyph
        return 3 * self.tree.indentation() + icon + 20 + self._widest_name

    def _fit_columns(self, width: int | None = None) -> None:
        """Age, then kind, then the state's word (its badge stays beside the name) make way when
        the slot names could not be told apart beside them (a derived slot's ``…01.enhanced`` is
        read whole), and below :attr:`NARROW` in any case."""
        tree, header = self.tree, self.tree.header()
        width = tree.width() if width is None else width
        frame = tree.width() - tree.viewport().width()
        for col in (1, 2, 3):  # a hidden column's width is 0: its own is the last one it had
            if not tree.isColumnHidden(col) and header.sectionSize(col) > 0:
                self._widths[col] = header.sectionSize(col)
        state = self._widths.get(1, header.sectionSize(1))
        kind = self._widths.get(2, 96)
        room = width - frame - state - self._name_room()
        # the Age column's own width, else its words measured (four translated and measured:
        # only when asked, every reset fits the columns, a new filter's included)
        hide_age = width < self.NARROW or room < kind + (
            self._widths[3] if 3 in self._widths else self._age_width()
        )
        hide_kind = width < self.NARROW or room < kind
        # last, the state's word: the badge beside each name still says the state
        hide_state = room < 0 and self._widest_name > 0
        for col, hide in ((1, hide_state), (2, hide_kind), (3, hide_age)):
            if tree.isColumnHidden(col) != hide:
                tree.setColumnHidden(col, hide)

    def _measure_names(self, parent: QModelIndex, first: int, last: int) -> None:
        """The widest slot name loaded (rows arrive page by page) as it must be read at least
        (:func:`essential_name`), for :meth:`_fit_columns`."""
        if self._rows_kind(parent) != "slot":
            return
        fm = self.tree.fontMetrics()
        widest = self._widest_name
        for row in range(first, last + 1):
            index = self.model.index(row, 0, parent)
            if index.data(RequestIdRole):
                widest = max(widest, fm.horizontalAdvance(essential_name(str(index.data()))))
        if widest != self._widest_name:
            self._widest_name = widest
            self._fit_columns()

    def _forget_names(self) -> None:
        """The tree was reset: its columns fitted to no name loaded. The reset lays the tree out
        and paints it whole anyway, so the header's signals are held meanwhile: the tree's own
        repaint of a column shown or hidden would paint it a second time (a new filter's rows
        painted twice)."""
        self._widest_name = 0
        header = self.tree.header()
        held = header.blockSignals(True)
        try:
            self._fit_columns()
        finally:
            header.blockSignals(held)

    def open_groups(self) -> set[tuple[str, ...]]:
        """The groups open in the tree, each by its keys: ``(project,)``, ``(project, day)``."""
        found: set[tuple[str, ...]] = set()

        def walk(parent: QModelIndex, path: tuple[str, ...]) -> None:
            for row in range(self.model.rowCount(parent)):
                index = self.model.index(row, 0, parent)
                key = self.model.group_key(index)
                if key is not None and self.tree.isExpanded(index):
                    found.add((*path, key))
                    walk(index, (*path, key))

        walk(QModelIndex(), ())
        return found

    def reload_keeping_open(self) -> None:
        """Load the slots afresh (the service was replaced: settings applied) and open again
        the groups that were open as they arrive, so the list looks as the designer left it."""
        opened = self.open_groups()
        self.model.reload()
        self._reopen.update(opened)

    def _reopen_rows(self, parent: QModelIndex, first: int, last: int) -> None:
        if not self._reopen:
            return
        path: tuple[str, ...] = ()
        up = parent
        while up.isValid():
            path = (self.model.group_key(up) or "", *path)
            up = up.parent()
        for row in range(first, last + 1):
            index = self.model.index(row, 0, parent)
            key = self.model.group_key(index)
            if key is not None and (*path, key) in self._reopen:
                self._reopen.discard((*path, key))
                self.tree.expand(index)

    def _span_groups(self, parent: QModelIndex, first: int, last: int) -> None:
        """Project and day rows use the whole width: their name and count are never cut off."""
        if self._rows_kind(parent) in ("project", "day"):
            for row in range(first, last + 1):
                self.tree.setFirstColumnSpanned(row, parent, True)

    @staticmethod
    def _rows_kind(parent: QModelIndex) -> str:
        """What the rows under ``parent`` are: all of one kind, projects under the root, days
        under a project, slots under a day (asked once per insert, not once per row)."""
        if not parent.isValid():
            return "project"
        return {"project": "day", "day": "slot"}.get(parent.data(NodeKindRole), "")

    def current_filter(self) -> SlotFilter:
        days = self.date.currentData()
        since = None
        if days is not None:
            start = time.localtime()
            midnight = time.mktime((start.tm_year, start.tm_mon, start.tm_mday, 0, 0, 0, 0, 0, -1))
            since = midnight - days * 86400
        states = tuple(State(s) for s in self.state.currentData() or ())
        return SlotFilter(
            search=self.search.text().strip(),
            states=states,
            kind=self.kind.currentData(),
            since=since,
            hidden=self.show_hidden.isChecked(),
            **self.picks.values(),
        )

    def apply_filter(self) -> None:
        self._debounce.stop()
        self.model.set_filter(self.current_filter())

    def filtered(self) -> bool:
        return self.current_filter() != SlotFilter()

    def _update_empty(self, *_: Any) -> None:
        nothing = self.model.rowCount() == 0 and not self.model.loading and self.model.started
        self.empty.setVisible(nothing and self.filtered())
        self.empty.setText(self.tr("No slot matches these filters."))

    def _context_menu(self, pos: Any) -> None:
        """A slot row: "Hide slot" (shown slots only; a hidden one is shown again from its pane)."""
        rid = self.tree.indexAt(pos).data(RequestIdRole)
        if not rid or self.show_hidden.isChecked():
            return
        self.menu = QMenu(self)
        act = self.menu.addAction(self.tr("Hide slot"))
        act.setObjectName("hideRowAction")
        act.triggered.connect(lambda _c=False: self.hideWanted.emit(rid))
        self.menu.popup(self.tree.viewport().mapToGlobal(pos))

    def focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    # -- following the slot on screen -----------------------------------------------------------
    def _forget(self) -> None:
        self._followed = None

    def _follow_selection(self, request_id: str | None) -> None:
        if request_id is None:  # a draft: no row is the slot on screen
            self._followed = None
            self.tree.clearSelection()
            return
        index = self.model.index_of(request_id)
        if index.isValid() and self.tree.currentIndex().siblingAtColumn(0) != index:
            self.show_index(index)

    def _follow_record(self, task: Any) -> None:
        """A record on screen: its row is up to date, and in view the first time it shows."""
        if task is None:
            return
        row = row_from_view(task)
        self.model.upsert(row)
        if self._followed == task.request_id:
            return
        self._followed = task.request_id
        index = self.model.index_of(task.request_id)
        if index.isValid():
            self.show_index(index)
        else:
            self.model.reveal(row)

    # -- layout ---------------------------------------------------------------------------------
    def save_layout(self) -> QByteArray:
        return self.tree.header().saveState()

    def restore_layout(self, state: QByteArray) -> None:
        self.tree.header().restoreState(state)
        header = self.tree.header()
        header.resizeSection(3, max(header.sectionSize(3), self._age_width()))

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        rid = current.data(RequestIdRole) if current.isValid() else None
        if self._revealing:
            return
        if rid:
            self.slotActivated.emit(rid)
        elif current.isValid() and not self.tree.isExpanded(current.siblingAtColumn(0)):
            self.tree.expand(current.siblingAtColumn(0))

    def open_index(self, index: QModelIndex) -> None:
        """Open the groups above ``index`` (a running slot at start): seen, not selected."""
        parent = index.parent()
        while parent.isValid():
            self.tree.expand(parent)
            parent = parent.parent()
        if not self.tree.currentIndex().isValid():
            self.tree.scrollTo(index)

    def show_index(self, index: QModelIndex) -> None:
        parent = index.parent()
        while parent.isValid():
            self.tree.expand(parent)
            parent = parent.parent()
        self.tree.scrollTo(index)
        self._revealing = True
        try:
            self.tree.setCurrentIndex(index)
        finally:
            self._revealing = False

    def _retry_step(self, *_: Any) -> None:
        if self._pending_step is None or self.model.loading:
            return
        forward, self._pending_step = self._pending_step, None
        self.step(forward, self._step_from)

    def step(self, forward: bool, start: Any = None) -> None:
        """Move to the next (or previous) slot, opening groups on the way."""
        view = self.tree
        index = start if start is not None and start.isValid() else view.currentIndex()
        if not index.isValid():
            index = self.model.index(0, 0)
            if not index.isValid():
                return
            if index.data(RequestIdRole):
                view.setCurrentIndex(index)
                return
        index = index.siblingAtColumn(0)
        for _ in range(10_000):
            if forward and self.model.hasChildren(index) and not view.isExpanded(index):
                view.expand(index)
                if self.model.canFetchMore(index):
                    self.model.fetchMore(index)
            nxt = view.indexBelow(index) if forward else view.indexAbove(index)
            if not nxt.isValid() or (forward and nxt.parent() != index and self.model.loading):
                if self.model.loading:  # a group is still loading: continue when rows arrive
                    self._pending_step = forward
                    self._step_from = index
                return
            index = nxt
            if index.data(RequestIdRole):
                view.setCurrentIndex(index)
                view.scrollTo(index)
                return
        return
