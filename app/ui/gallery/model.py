"""The results gallery's model: one row per result (a slot without media is one row showing its
state), newest slot first, paged by keyset through :meth:`SlotReader.results`.

The view asks for more with ``canFetchMore``/``fetchMore`` as it scrolls; the read runs on the
controller's runner (a worker thread) and the page is appended when it arrives. Thumbnails come
from a :class:`~app.ui.gallery.thumbs.ThumbLoader`: ``data(index, ThumbRole)`` answers from a
small in-memory cache or asks the loader, which answers later (``dataChanged``).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from app.domain.states import State
from app.domain.listing import ResultRow, SlotFilter
from app.ui.gallery.thumbs import ThumbLoader, ThumbRequest
from app.ui.picks import marks_words
from app.ui.qt import (
    QImage,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPixmap,
    Qt,
    QtCore,
    QTimer,
    Signal,
)

ResultRole = Qt.ItemDataRole.UserRole + 40
ThumbRole = Qt.ItemDataRole.UserRole + 41
StateRole = Qt.ItemDataRole.UserRole + 42
RequestIdRole = Qt.ItemDataRole.UserRole + 43
PickRole = Qt.ItemDataRole.UserRole + 44  # (pick, rating)

PAGE = 120  # slots per page: about three screens of tiles
FIRST_PAGE = 40  # the first page: one large screen, shown sooner
HANDOFF_MS = 12  # at most one hand-off of arrived thumbnails per this (one repaint for them)
HANDOFF_BATCH = 24  # at most this many pixmaps made per hand-off (about one screen)
Index = QModelIndex | QPersistentModelIndex
NO_PARENT = QModelIndex()


def is_video(row: ResultRow) -> bool:
    return row.kind == "video" or (row.content_type or "").startswith("video/")


def is_sound(row: ResultRow) -> bool:
    """A song or a voice line: no picture; its tile says so, the viewer plays it."""
    return row.kind in ("music", "speech") or (row.content_type or "").startswith("audio/")


def thumb_request(row: ResultRow) -> ThumbRequest | None:
    if row.path is None or row.sha256 is None or is_sound(row):
        return None
    return ThumbRequest(
        row.path, row.sha256, int(row.bytes or 0), "video" if is_video(row) else "image"
    )


def scene_label(row: ResultRow) -> str:
    """``article:20260816:tide-eye:scene-02`` → ``scene-02`` (with ``#2`` for a second image)."""
    rid = row.request_id
    name = rid.rsplit(":", 1)[-1] if ":" in rid else rid
    return f"{name} #{row.position + 1}" if row.position else name


@dataclass(frozen=True)
class GalleryScope:
    """Which results: the browser's filter, and optionally one project and one day."""

    filter: SlotFilter = field(default_factory=SlotFilter)
    project: str | None = None
    day: str | None = None


class GalleryModel(QtCore.QAbstractListModel):
    """Every result of the scope, loaded page by page; thumbnails decoded off the UI thread."""

    loadingChanged = Signal(bool)
    pageLoaded = Signal(int)  # rows added

    def __init__(
        self,
        controller: Any,
        loader: ThumbLoader,
        parent: QObject | None = None,
        *,
        page: int = PAGE,
        memory: int = 240,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.loader = loader
        self.page = page
        self.scope = GalleryScope()
        self.rows: list[ResultRow] = []
        self._by_thumb: dict[str, list[int]] = {}
        self._by_task: dict[int, list[int]] = {}
        self._pixmaps: OrderedDict[str, QPixmap] = OrderedDict()
        self._failed: set[str] = set()
        self._memory = memory
        self._cursor: int | None = None
        self._exhausted = False
        self._generation = 0
        self.loading = False
        self.started = False  # the first page has arrived (empty states may be said)
        self._arrived: dict[str, QImage] = {}
        self._handoff = QTimer(self)
        self._handoff.setSingleShot(True)
        self._last_handoff = 0.0
        self._handoff.timeout.connect(self._hand_off)
        self.handoffs = 0  # dataChanged signals said for thumbnails (tests)
        loader.ready.connect(self._thumb_ready)

    # -- scope and paging ---------------------------------------------------------------------
    def set_scope(self, scope: GalleryScope) -> None:
        if scope == self.scope and (self.started or self.loading):
            return  # shown, or its first page on the way (asked again, it would be read twice)
        self.scope = scope
        self.reload()

    def reload(self) -> None:
        self._generation += 1
        # the pictures asked for the old rows are not made: their tiles (and the viewer and the
        # compare view, which close with the reset) are gone; the new rows ask for their own
        self.loader.drop_queued()
        self.beginResetModel()
        self.rows = []
        self._by_thumb.clear()
        self._by_task.clear()
        self._cursor = None
        self._exhausted = False
        self.started = False
        self._set_loading(False)
        self.endResetModel()
        self._fetch()

    def _set_loading(self, value: bool) -> None:
        if value != self.loading:
            self.loading = value
            self.loadingChanged.emit(value)

    def canFetchMore(self, parent: Index = NO_PARENT) -> bool:  # noqa: N802
        return not parent.isValid() and not self._exhausted and not self.loading

    def fetchMore(self, parent: Index = NO_PARENT) -> None:  # noqa: N802
        if not parent.isValid():
            self._fetch()

    def _fetch(self) -> None:
        if self.loading or self._exhausted:
            return
        self._set_loading(True)
        generation = self._generation
        s = self.scope
        limit = min(self.page, FIRST_PAGE) if self._cursor is None else self.page
        read = self.controller.reader.results(
            s.filter, s.project, s.day, before_id=self._cursor, limit=limit
        )

        def done(rows: list[ResultRow]) -> None:
            if generation != self._generation:
                return
            self._append(rows, limit)

        self.controller.load(read, done=done)

    def _append(self, rows: list[ResultRow], limit: int) -> None:
        self.started = True
        slots = {r.task_id for r in rows}
        if len(slots) < limit:
            self._exhausted = True
        if rows:
            self._cursor = min(slots)
            first = len(self.rows)
            self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
            for i, r in enumerate(rows, first):
                self.rows.append(r)
                self._index_row(i, r)
            self.endInsertRows()
        self._set_loading(False)
        self.pageLoaded.emit(len(rows))

    def _index_row(self, i: int, r: ResultRow) -> None:
        self._by_task.setdefault(r.task_id, []).append(i)
        req = thumb_request(r)
        if req is not None:
            self._by_thumb.setdefault(req.key, []).append(i)

    @property
    def exhausted(self) -> bool:
        return self._exhausted

    # -- live changes -------------------------------------------------------------------------
    def update_state(self, task_id: int, state: State) -> bool:
        """A slot's state changed: its tiles redraw. True when the gallery holds it."""
        rows = self._by_task.get(task_id)
        if not rows:
            return False
        for i in rows:
            self.rows[i] = replace(self.rows[i], state=state)
            idx = self.index(i)
            self.dataChanged.emit(idx, idx, [StateRole, Qt.ItemDataRole.AccessibleTextRole])
        return True

    def update_pick(self, task_id: int, position: int, pick: str | None, rating: int) -> bool:
        """A result's marks changed: its tile redraws (it stays even when the filter would now
        leave it out: nothing moves under the designer's hand). True when the gallery holds it."""
        for i in self._by_task.get(task_id, ()):
            if self.rows[i].position == position:
                self.rows[i] = replace(self.rows[i], pick=pick, rating=rating)
                idx = self.index(i)
                self.dataChanged.emit(idx, idx, [PickRole, Qt.ItemDataRole.AccessibleTextRole])
                return True
        return False

    def has_media(self, task_id: int) -> bool:
        return any(self.rows[i].path is not None for i in self._by_task.get(task_id, ()))

    # -- the model ----------------------------------------------------------------------------
    def rowCount(self, parent: Index = NO_PARENT) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.rows)

    def row_at(self, i: int) -> ResultRow | None:
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def row_of(self, key: tuple[int, int]) -> int:
        for i in self._by_task.get(key[0], ()):
            if self.rows[i].key == key:
                return i
        return -1

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        f = Qt.ItemFlag
        return f.ItemIsEnabled | f.ItemIsSelectable | f.ItemNeverHasChildren

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or index.column() != 0:
            return None
        row = self.row_at(index.row())
        if row is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return scene_label(row)
        if role == ResultRole:
            return row
        if role == RequestIdRole:
            return row.request_id
        if role == StateRole:
            return row.state
        if role == ThumbRole:
            return self.thumbnail(row)
        if role == PickRole:
            return (row.pick, row.rating)
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            text = f"{row.request_id} — {row.prompt or ''}".strip(" —")
            marks = marks_words(row.pick, row.rating)
            return f"{text} · {marks}" if marks else text
        return None

    def thumbnail(self, row: ResultRow, *, ask: bool = True) -> QPixmap | None:
        """The tile's picture when it is decoded (else None, and the loader is asked)."""
        req = thumb_request(row)
        if req is None:
            return None
        pix = self._pixmaps.get(req.key)
        if pix is not None:
            self._pixmaps.move_to_end(req.key)
            return pix
        if ask and req.key not in self._failed and req.key not in self._arrived:
            self.loader.request(req)
        return None

    def thumb_failed(self, row: ResultRow) -> bool:
        req = thumb_request(row)
        return req is not None and req.key in self._failed

    def _thumb_ready(self, key: str, image: QImage) -> None:
        """A thumbnail arrived: handed to the grid at once when the last hand-off is a frame
        old or no other picture is on its way (none to wait for), else with the others
        arriving within that frame (one repaint for them)."""
        self._arrived[key] = image
        last = not self.loader.pending()  # nothing else to wait for
        if not self._handoff.isActive():
            wait = 0.0 if last else self._last_handoff + HANDOFF_MS / 1000 - time.monotonic()
            self._handoff.start(max(0, math.ceil(wait * 1000)))
        elif last and self._handoff.remainingTime() > 0:
            self._handoff.start(0)

    def _hand_off(self) -> None:
        """Turn the arrived thumbnails into pixmaps (at most :data:`HANDOFF_BATCH` per frame, the
        rest at the next one) and say which rows changed: one ``dataChanged`` per run of
        adjacent rows."""
        self._last_handoff = time.monotonic()
        rows: list[int] = []
        while self._arrived and len(rows) < HANDOFF_BATCH:
            key, image = next(iter(self._arrived.items()))
            del self._arrived[key]
            if image.isNull():
                self._failed.add(key)
            else:
                self._pixmaps[key] = QPixmap.fromImage(image)
                self._pixmaps.move_to_end(key)
            rows.extend(self._by_thumb.get(key, ()))
        while len(self._pixmaps) > self._memory:
            self._pixmaps.popitem(last=False)
        if self._arrived:
            self._handoff.start(HANDOFF_MS)
        rows.sort()
        start = 0
        for k in range(1, len(rows) + 1):
            if k == len(rows) or rows[k] > rows[k - 1] + 1:
                self.dataChanged.emit(self.index(rows[start]), self.index(rows[k - 1]), [ThumbRole])
                self.handoffs += 1
                start = k

    def forget_pictures(self) -> None:
        """Drop the decoded pictures held in memory (they come back from the disk cache)."""
        self._pixmaps.clear()
        self._failed.clear()
        self._arrived.clear()

    def thumbs_shown(self) -> int:
        """How many rows have their picture in memory (for tests and benchmarks)."""
        return sum(1 for key in self._by_thumb if key in self._pixmaps)


__all__ = ["GalleryModel", "GalleryScope", "ResultRole", "ThumbRole"]
