"""The slot browser's model: project → day → slot, each level paged by keyset from SQL.

Nothing is loaded until a view asks: ``canFetchMore``/``fetchMore`` start a read in a worker
thread (``controller.reader``) and rows are inserted when the page arrives, so the UI thread
never waits and 100,000 slots cost only what is on screen. Each read asks for one row more than
its page shows: a page that ends the list is known to, and no empty page is read after it.
Filtering happens in SQL (:class:`SlotFilter`); a proxy model would only ever see loaded rows.
A new filter's first page is read while the rows on screen stay; the tree is reset and filled
when it is in (:meth:`SlotTreeModel.set_filter`).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from app.domain.days import local_day
from app.domain.listing import Group, SlotFilter, SlotRow
from app.service.views import TaskView
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QAbstractItemModel,
    QColor,
    QFont,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
    translate,
)
from app.ui.style import current, slot_icon, state_ink, state_word
from app.domain.listing import PROJECT_PAGE as PROJECT_PAGE
from app.domain.listing import PROJECT_READ

DAY_PAGE = 60
SLOT_PAGE = 200

RequestIdRole = Qt.ItemDataRole.UserRole + 1
StateRole = Qt.ItemDataRole.UserRole + 2
NodeKindRole = Qt.ItemDataRole.UserRole + 3
SlotRowRole = Qt.ItemDataRole.UserRole + 4
COLUMNS = (
    QT_TRANSLATE_NOOP("SlotModel", "Slot"),
    QT_TRANSLATE_NOOP("SlotModel", "State"),
    QT_TRANSLATE_NOOP("SlotModel", "Kind · model"),
    QT_TRANSLATE_NOOP("SlotModel", "Age"),
)
NO_PROJECT = QT_TRANSLATE_NOOP("SlotModel", "Other slots")
#: What each kind of slot is called in the list (every kind the domain has: app.domain.slots).
SLOT_KINDS = {
    "video": QT_TRANSLATE_NOOP("SlotModel", "Video"),
    "image": QT_TRANSLATE_NOOP("SlotModel", "Image"),
    "music": QT_TRANSLATE_NOOP("SlotModel", "Music"),
    "speech": QT_TRANSLATE_NOOP("SlotModel", "Voice-over"),
    "prompt": QT_TRANSLATE_NOOP("SlotModel", "Prompt"),
}


def _tr(text: str) -> str:
    return translate("SlotModel", text)


def kind_word(kind: str) -> str:
    """What a slot of ``kind`` is called in the list: Image, Video, Music, Voice-over, Prompt."""
    said = SLOT_KINDS.get(kind)
    return _tr(said) if said is not None else kind


def row_from_view(view: TaskView) -> SlotRow:
    return SlotRow(
        id=view.id,
        request_id=view.request_id,
        kind=view.kind,
        state=view.state,
        model=view.params.get("model"),
        prompt=view.params.get("prompt"),
        project=view.project or "",
        created_at=view.created_at,
        updated_at=view.updated_at,
        next_poll_at=view.next_poll_at,
        has_results=view.has_results,
        provider_status=view.provider_status,
        error_message=view.error.message if view.error else None,
        extra={"hidden": True} if view.hidden else {},
    )


def short_model(model: str | None) -> str:
    if not model:
        return ""
    return model.replace("MiniMax-", "").replace("Hailuo-", "").replace("image-", "")


def age_text(ts: float, now: float | None = None) -> str:
    secs = max(0.0, (time.time() if now is None else now) - ts)
    if secs < 60:
        return _tr("now")
    if secs < 3600:
        return _tr("%1 min").replace("%1", str(int(secs // 60)))
    if secs < 86400:
        return _tr("%1 h").replace("%1", str(int(secs // 3600)))
    return _tr("%1 d").replace("%1", str(int(secs // 86400)))


def slot_label(request_id: str, project: str) -> str:
    """``article:20260816:tide-eye:scene-02`` shows as ``scene-02`` under its project and day."""
    if project:
        marker = f":{project}:"
        at = request_id.find(marker)
        if at >= 0 and at + len(marker) < len(request_id):
            return request_id[at + len(marker) :]
    return request_id


class Node:
    """One row of the tree: the root, a project, a day, or a slot."""

    __slots__ = (
        "kind",
        "parent",
        "children",
        "key",
        "count",
        "row",
        "exhausted",
        "pending",
        "started",
        "cursor",
        "newest",
    )

    def __init__(
        self,
        kind: str,
        parent: "Node | None",
        key: str = "",
        count: int = 0,
        row: SlotRow | None = None,
        newest: int = 0,
    ) -> None:
        self.kind = kind
        self.parent = parent
        self.children: list[Node] = []
        self.key = key
        self.count = count
        self.row = row
        self.newest = newest  # the group's newest task id: projects sort by it (newest activity)
        self.exhausted = kind == "slot"
        self.pending = False
        self.started = False
        self.cursor: Any = None

    def position(self) -> int:
        assert self.parent is not None
        return self.parent.children.index(self)

    def find(self, key: str) -> "Node | None":
        return next((c for c in self.children if c.key == key), None)


class SlotTreeModel(QAbstractItemModel):
    """Slots grouped by project then day, newest first, loaded page by page from SQL."""

    revealed = Signal(QModelIndex)
    opened = Signal(QModelIndex)  # a row loaded to be seen, not selected (running at start)
    loadingChanged = Signal(bool)

    def __init__(self, controller: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.filter = SlotFilter()
        self._root = Node("root", None)
        self._by_id: dict[int, Node] = {}
        self._generation = 0
        self._reveal: SlotRow | None = None
        self._pending = 0
        self._refresh_timer: Any = None
        #: A new filter's root while its first page is read (the old rows stay on screen).
        self._next: Node | None = None
        controller.taskChanged.connect(self.upsert_view)

    # -- filtering ------------------------------------------------------------------------
    def set_filter(self, flt: SlotFilter) -> None:
        """Show the slots ``flt`` matches. Their first page of projects is read at once, while
        the rows on screen stay; when it is in, the tree is reset and filled in one go. The
        view then lays out and paints once, on the new rows only (an empty tree first would be
        painted, and its scroll bar dropped and shown again: a second full paint). Until then
        nothing more is read into the old rows, and reads of them still under way are dropped.
        """
        if flt == self.filter:
            return
        self.filter = flt
        self._generation += 1
        self._pending = 0  # the old rows' reads are dropped as they arrive
        self._next = Node("root", None)
        self._fetch(self._next)

    def reload(self) -> None:
        self.beginResetModel()
        self._generation += 1
        self._root = Node("root", None)
        self._next = None
        self._by_id.clear()
        self._pending = 0
        self.endResetModel()
        self.loadingChanged.emit(False)

    def _swap_in(self, root: Node) -> None:
        """The new filter's first page is in: the tree is reset to ``root`` (still empty; the
        page's rows are inserted next, in the same call)."""
        self.beginResetModel()
        self._root = root
        self._next = None
        self._by_id.clear()
        self.endResetModel()

    # -- tree plumbing -----------------------------------------------------------------------
    def _node(self, index: QModelIndex | QPersistentModelIndex) -> Node:
        if not index.isValid():
            return self._root
        return index.internalPointer()  # type: ignore[no-any-return]

    def node_index(self, node: Node, column: int = 0) -> QModelIndex:
        if node.parent is None:
            return QModelIndex()
        return self.createIndex(node.position(), column, node)

    def index(
        self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()
    ) -> QModelIndex:
        if column < 0 or column >= len(COLUMNS) or row < 0:
            return QModelIndex()
        if parent.isValid() and parent.column() != 0:
            return QModelIndex()
        node = self._node(parent)
        if row >= len(node.children):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    def parent(self, index: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        node = self._node(index)
        if node.parent is None or node.parent.parent is None:
            return QModelIndex()
        return self.createIndex(node.parent.position(), 0, node.parent)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return len(COLUMNS)

    def hasChildren(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:
        if parent.isValid() and parent.column() != 0:
            return False
        node = self._node(parent)
        if node.kind == "slot":
            return False
        return bool(node.children) or not node.exhausted

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(COLUMNS)
        ):
            return _tr(COLUMNS[section])
        return None

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        node = self._node(index)
        col = index.column()
        if role == NodeKindRole:
            return node.kind
        if node.kind == "slot":
            return self._slot_data(node.row, col, role)  # type: ignore[arg-type]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                name = node.key or _tr(NO_PROJECT)
                if node.kind == "day":
                    name = self._day_label(node.key)
                return f"{name}  ·  {node.count}"
            return None
        if role == Qt.ItemDataRole.FontRole and col == 0 and node.kind == "project":
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and node.kind == "day":
            return QColor(current().muted)
        if role in (Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole) and col == 0:
            return f"{node.key or _tr(NO_PROJECT)}, {node.count}"
        return None

    @staticmethod
    def _day_label(day: str) -> str:
        today = local_day(time.time())
        yesterday = local_day(time.time() - 86400)
        if day == today:
            return _tr("Today")
        if day == yesterday:
            return _tr("Yesterday")
        return day

    def _slot_data(self, row: SlotRow, col: int, role: int) -> Any:
        if role == RequestIdRole:
            return row.request_id
        if role == StateRole:
            return row.state
        if role == SlotRowRole:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return slot_label(row.request_id, row.project)
            if col == 1:
                return state_word(row.state)
            if col == 2:
                kind = kind_word(row.kind)
                return f"{kind} · {short_model(row.model)}" if row.model else kind
            if col == 3:
                return age_text(row.created_at)
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 3:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            return slot_icon(row.state, row.kind)  # state and kind, at any width
        if role == Qt.ItemDataRole.ForegroundRole and col == 1:
            return state_ink(row.state)
        if role == Qt.ItemDataRole.ToolTipRole:
            prompt = (row.prompt or "").strip()
            if len(prompt) > 240:
                prompt = prompt[:240] + "…"
            said = f"{kind_word(row.kind)} · {row.model}" if row.model else kind_word(row.kind)
            return f"{row.request_id}\n{state_word(row.state)} · {said}" + (
                f"\n\n{prompt}" if prompt else ""
            )
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{row.request_id}, {kind_word(row.kind)}, {state_word(row.state)}"
        return None

    # -- paging -----------------------------------------------------------------------------
    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:
        if parent.isValid() and parent.column() != 0:
            return False
        node = self._node(parent)
        return not node.exhausted and not node.pending and self._next is None

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> None:
        if parent.isValid() and parent.column() != 0:
            return
        self._fetch(self._node(parent))

    @property
    def loading(self) -> bool:
        return self._pending > 0

    @property
    def started(self) -> bool:
        """The first page of projects has arrived: an empty tree now means no slot at all."""
        return self._root.started

    def _fetch(self, node: Node) -> None:
        if node.exhausted or node.pending:
            return
        if self._next is not None and node is not self._next:
            return  # a new filter's first page is coming: these rows go with it
        if node.kind == "root" and node.cursor is None:
            page = self.controller.first_page_now(self.filter, PROJECT_READ)
            if page is not None:  # read ahead from the file: in now, in the first paint
                idle = self._pending == 0
                if idle:
                    self.loadingChanged.emit(True)
                self._arrived(node, page)
                if idle:
                    self.loadingChanged.emit(False)
                return
        node.pending = True
        self._pending += 1
        if self._pending == 1:
            self.loadingChanged.emit(True)
        gen = self._generation
        c = self.controller
        flt = self.filter

        def arrived(items: list[Any]) -> None:
            if gen != self._generation:
                return
            self._pending -= 1
            self._arrived(node, items)
            if self._pending == 0:
                self.loadingChanged.emit(False)

        if node.kind == "root":
            c.load(c.reader.projects(flt, after=node.cursor, limit=PROJECT_READ), done=arrived)
        elif node.kind == "project":
            c.load(
                c.reader.days(flt, node.key, after=node.cursor, limit=DAY_PAGE + 1), done=arrived
            )
        else:
            assert node.parent is not None
            c.load(
                c.reader.slots(
                    flt, node.parent.key, node.key, before_id=node.cursor, limit=SLOT_PAGE + 1
                ),
                done=arrived,
            )

    def _arrived(self, node: Node, items: list[Any]) -> None:
        if node is self._next:
            self._swap_in(node)
        node.pending = False
        node.started = True
        page = {"root": PROJECT_PAGE, "project": DAY_PAGE, "day": SLOT_PAGE}[node.kind]
        fresh: list[Node] = []
        if node.kind == "slot":
            return
        more = len(items) > page  # each read asks for one row more than its page shows
        items = items[:page]
        child_kind = {"root": "project", "project": "day", "day": "slot"}[node.kind]
        for item in items:
            if isinstance(item, Group):
                if node.find(item.key) is not None:
                    continue
                fresh.append(Node(child_kind, node, item.key, item.count, newest=item.newest_id))
            else:
                if item.id in self._by_id:
                    continue
                fresh.append(Node("slot", node, item.request_id, row=item))
        if items:
            last = items[-1]
            node.cursor = (
                last.newest_id
                if node.kind == "root"
                else (last.key if node.kind == "project" else last.id)
            )
        node.exhausted = not more
        if fresh:
            first = len(node.children)
            self.beginInsertRows(self.node_index(node), first, first + len(fresh) - 1)
            node.children.extend(fresh)
            for f in fresh:
                if f.row is not None:
                    self._by_id[f.row.id] = f
            self.endInsertRows()
        elif node.parent is not None:
            idx = self.node_index(node)
            self.dataChanged.emit(idx, idx)
        self._continue_reveal()

    def fetch_all_roots(self) -> None:
        """Start loading the first page of projects (the view does this too, when shown)."""
        if not self._root.started:
            self._fetch(self._root)

    # -- live updates -----------------------------------------------------------------------
    def upsert_view(self, view: TaskView) -> None:
        self.upsert(row_from_view(view))

    def upsert(self, row: SlotRow) -> None:
        """A task changed: update its row; a new slot goes to the top of its day, and its project
        to the top of the tree (newest activity first). A slot that exists but isn't loaded yet
        changes nothing: it is already counted."""
        node = self._by_id.get(row.id)
        if node is not None:
            node.row = row
            idx = self.node_index(node)
            self.dataChanged.emit(idx, self.node_index(node, len(COLUMNS) - 1))
            return
        if not self.filter.matches(row) or not self._root.started or self._next is not None:
            return  # (a new filter's first page, still being read, has it or will not)
        project = self._root.find(row.project)
        if project is None:
            project = Node("project", self._root, row.project, 1, newest=row.id)
            project.exhausted = False
            self._insert(self._root, 0, project)
            if not self._root.exhausted:  # it may have older slots on a page not loaded yet
                self.schedule_refresh()
            return
        if row.id <= project.newest:
            return
        project.count += 1
        project.newest = row.id
        self._move_to(project, 0)
        pidx = self.node_index(project)
        self.dataChanged.emit(pidx, pidx)
        if not project.started:
            return
        day = project.find(row.day)
        if day is None:
            self._insert(
                project,
                self._day_position(project, row.day),
                Node("day", project, row.day, 1, newest=row.id),
            )
            return
        day.count += 1
        day.newest = max(day.newest, row.id)
        didx = self.node_index(day)
        self.dataChanged.emit(didx, didx)
        if day.started:
            slot = Node("slot", day, row.request_id, row=row)
            self._insert(day, 0, slot)
            self._by_id[row.id] = slot

    @staticmethod
    def _day_position(project: Node, day: str) -> int:
        return next(
            (i for i, d in enumerate(project.children) if d.key < day), len(project.children)
        )

    def _insert(self, parent: Node, at: int, node: Node) -> None:
        self.beginInsertRows(self.node_index(parent), at, at)
        parent.children.insert(at, node)
        self.endInsertRows()

    def _move_to(self, node: Node, at: int) -> None:
        assert node.parent is not None
        src = node.position()
        if src == at:
            return
        parent = self.node_index(node.parent)
        if not self.beginMoveRows(parent, src, src, parent, at if at < src else at + 1):
            return
        siblings = node.parent.children
        siblings.pop(src)
        siblings.insert(at, node)
        self.endMoveRows()

    # -- refreshing from the store (other processes write too) -------------------------------
    def schedule_refresh(self) -> None:
        """Refresh soon (several calls in a row make one refresh)."""
        if self._refresh_timer is None:
            from app.ui.qt import QTimer

            self._refresh_timer = QTimer(self, singleShot=True, interval=300)
            self._refresh_timer.timeout.connect(self.refresh)
        self._refresh_timer.start()

    def refresh(self) -> None:
        """Bring the loaded part of the tree up to date with the store, without a reset (the view
        keeps its selection and open groups): counts, projects re-sorted by newest activity, new
        projects, days and slots, and rows changed by other processes."""
        if not self._root.started or self._next is not None:
            return
        gen, c, flt = self._generation, self.controller, self.filter

        def projects_arrived(groups: list[Group]) -> None:
            if gen != self._generation:
                return
            for g in groups:
                node = self._root.find(g.key)
                if node is None:
                    node = Node("project", self._root, g.key, g.count, newest=g.newest_id)
                    node.exhausted = False
                    self._insert(self._root, self._project_position(g.newest_id), node)
                elif (node.count, node.newest) != (g.count, g.newest_id):
                    node.count, node.newest = g.count, g.newest_id
                    idx = self.node_index(node)
                    self.dataChanged.emit(idx, idx)
            self._sort_projects()
            for node in list(self._root.children):
                if node.started:
                    c.load(
                        c.reader.days(flt, node.key, limit=DAY_PAGE),
                        done=lambda items, n=node: days_arrived(n, items),
                    )

        def days_arrived(project: Node, groups: list[Group]) -> None:
            if gen != self._generation:
                return
            for g in groups:
                day = project.find(g.key)
                if day is None:
                    if not project.exhausted and g.key < min(
                        (d.key for d in project.children), default=""
                    ):
                        continue  # below the loaded page: paging brings it
                    self._insert(
                        project,
                        self._day_position(project, g.key),
                        Node("day", project, g.key, g.count, newest=g.newest_id),
                    )
                    continue
                if (day.count, day.newest) != (g.count, g.newest_id):
                    day.count, day.newest = g.count, g.newest_id
                    idx = self.node_index(day)
                    self.dataChanged.emit(idx, idx)
                if day.started:
                    c.load(
                        c.reader.slots(flt, project.key, day.key, limit=SLOT_PAGE),
                        done=lambda rows, d=day: slots_arrived(d, rows),
                    )

        def slots_arrived(day: Node, rows: list[SlotRow]) -> None:
            if gen != self._generation:
                return
            loaded = [n.row.id for n in day.children if n.row is not None]
            top = max(loaded, default=0)
            fresh = [r for r in rows if r.id not in self._by_id and r.id > top]
            for r in rows:
                node = self._by_id.get(r.id)
                if node is not None and node.row != r:
                    node.row = r
                    self.dataChanged.emit(
                        self.node_index(node), self.node_index(node, len(COLUMNS) - 1)
                    )
            if fresh:
                self.beginInsertRows(self.node_index(day), 0, len(fresh) - 1)
                nodes = [Node("slot", day, r.request_id, row=r) for r in fresh]
                day.children[0:0] = nodes
                for n in nodes:
                    self._by_id[n.row.id] = n  # type: ignore[union-attr]
                self.endInsertRows()
            self._continue_reveal()

        c.load(c.reader.projects(flt, limit=PROJECT_PAGE), done=projects_arrived)

    def _project_position(self, newest: int) -> int:
        return next(
            (i for i, p in enumerate(self._root.children) if p.newest < newest),
            len(self._root.children),
        )

    def _sort_projects(self) -> None:
        """Newest activity first, by moves (a view keeps its selection and open groups)."""
        target = sorted(self._root.children, key=lambda n: -n.newest)
        for at, node in enumerate(target):
            self._move_to(node, at)

    def refresh_ages(self) -> None:
        """Ages move on: repaint the age column of loaded slots."""
        for node in self._by_id.values():
            idx = self.node_index(node, 3)
            self.dataChanged.emit(idx, idx, [Qt.ItemDataRole.DisplayRole])

    # -- finding a slot ------------------------------------------------------------------------
    def group_key(self, index: QModelIndex | QPersistentModelIndex) -> str | None:
        """The project's or the day's key of a group row (``""``: no project); None for a slot."""
        node = self._node(index)
        return node.key if index.isValid() and node.kind in ("project", "day") else None

    def index_of(self, request_id: str) -> QModelIndex:
        for node in self._by_id.values():
            if node.row is not None and node.row.request_id == request_id:
                return self.node_index(node)
        return QModelIndex()

    def reveal(self, row: SlotRow) -> None:
        """Load what is needed to show ``row`` (project, day, slot pages), then emit ``revealed``."""
        self._reveal = row
        self._continue_reveal()

    def open_rows(self, rows: list[SlotRow]) -> None:
        """Load what is needed to show each of ``rows`` without selecting it, emitting ``opened``
        for each (the slots running at start: their groups are opened, not hidden)."""
        self._opening = list(rows)
        self._continue_reveal()

    def _walk(self, row: SlotRow) -> tuple[str, Node | None]:
        """("found", node), ("gone", None) when filtered out, or ("loading", None): a page of the
        way is being fetched (this is called again when it arrives)."""
        node = self._root
        for key in (row.project, row.day):
            child = node.find(key)
            if child is None:
                if node.exhausted:
                    return "gone", None
                self._fetch(node)
                return "loading", None
            node = child
        found = self._by_id.get(row.id)
        if found is None:
            if node.exhausted:
                return "gone", None
            self._fetch(node)
            return "loading", None
        return "found", found

    def _continue_reveal(self) -> None:
        if self._next is not None:
            return  # the rows shown are about to go: walk the new filter's once they are in
        row = self._reveal
        if row is not None:
            status, found = self._walk(row)
            if status != "loading":
                self._reveal = None
                if found is not None:
                    self.revealed.emit(self.node_index(found))
        opening = getattr(self, "_opening", [])
        while opening:
            status, found = self._walk(opening[0])
            if status == "loading":
                break
            opening.pop(0)
            if found is not None:
                self.opened.emit(self.node_index(found))


LoadFn = Callable[..., None]

#: Words translated at run time through ``_tr``, listed here so lupdate finds them.
_WORDS = (
    QT_TRANSLATE_NOOP("SlotModel", "now"),
    QT_TRANSLATE_NOOP("SlotModel", "%1 min"),
    QT_TRANSLATE_NOOP("SlotModel", "%1 h"),
    QT_TRANSLATE_NOOP("SlotModel", "%1 d"),
    QT_TRANSLATE_NOOP("SlotModel", "Today"),
    QT_TRANSLATE_NOOP("SlotModel", "Yesterday"),
)
