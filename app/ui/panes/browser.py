"""The left pane: search and filters over the slot tree (filtering runs in SQL, in the model).

Bound to :class:`~app.ui.current.CurrentSlot`: the tree follows the slot on screen (its row is
brought into view, its groups opened and its page loaded when needed), and a click on a slot row
is reported as :attr:`SlotBrowser.slotActivated`.
"""

from __future__ import annotations

import time
from typing import Any

from app.domain.states import FILTER_GROUPS, State
from app.service.reads import SlotFilter
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
    Qt,
    QTimer,
    QTreeView,
    QVBoxLayout,
    QWidget,
    Signal,
)
from app.ui.style import state_word


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
        model.revealed.connect(self.show_index)
        model.opened.connect(self.open_index)
        model.modelReset.connect(self._update_empty)
        model.rowsInserted.connect(self._update_empty)
        model.loadingChanged.connect(lambda _l: self._update_empty())
        model.loadingChanged.connect(self._retry_step)
        model.modelReset.connect(self._forget)
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
            narrow = event.size().width() < self.NARROW
            for col in (2, 3):
                if self.tree.isColumnHidden(col) != narrow:
                    self.tree.setColumnHidden(col, narrow)
        return super().eventFilter(obj, event)

    def _span_groups(self, parent: QModelIndex, first: int, last: int) -> None:
        """Project and day rows use the whole width: their name and count are never cut off."""
        for row in range(first, last + 1):
            if self.model.index(row, 0, parent).data(NodeKindRole) in ("project", "day"):
                self.tree.setFirstColumnSpanned(row, parent, True)

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
