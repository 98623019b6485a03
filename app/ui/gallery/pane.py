"""The results gallery pane: a virtualized grid of every result of the selection (a ``QListView``
in icon mode over :class:`~app.ui.gallery.model.GalleryModel`, painted by one delegate — never a
widget per tile), with a state badge per tile (colour *and* shape), and the words for an empty
or loading gallery.

Click → :attr:`GalleryPane.slotActivated` (the window shows that slot); double-click, Space or
Return → :attr:`viewerWanted`; two tiles selected and C → :attr:`compareWanted`. The context
menu also offers "Use as first frame / last frame / reference" for an image result (a video's
last frame as first frame or reference) when :attr:`offer_use` is set: the window sets it and
answers :attr:`useResultWanted` with a new draft (``MainWindow.use_gallery_result``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.domain.states import State
from app.domain.listing import ResultRow
from app.ui.dragout import DragOut, gallery_files
from app.ui.gallery.model import (
    GalleryModel,
    GalleryScope,
    ThumbRole,
    is_sound,
    is_video,
    scene_label,
)
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QAbstractItemView,
    QColor,
    QFont,
    QFontMetrics,
    QHBoxLayout,
    QLabel,
    QModelIndex,
    QPainter,
    QPen,
    QPixmap,
    QPushButton,
    QRect,
    QSize,
    QSlider,
    QStackedWidget,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QtCore,
    QtGui,
    QtWidgets,
    QVBoxLayout,
    QWidget,
    Signal,
    translate,
)
from app.ui.flow import FlowLayout
from app.ui.picks import PickActions, PickFilters, key_of, marks_text
from app.ui.style import badge_pixmap, state_word

TILE = 168  # the picture's box at its smallest
MAX_TILE = 256  # and largest (the cached thumbnails' edge)
SMALLEST_TILE = 96  # the size slider's smallest tile
CANNOT_SHOW = QT_TRANSLATE_NOOP("GalleryPane", "Cannot show this file")
LOADING = QT_TRANSLATE_NOOP("GalleryPane", "Loading…")
SOUND = QT_TRANSLATE_NOOP("GalleryPane", "Sound")
CAPTION = 22
PREFETCH_SCREENS = 2  # the next page is read while this many screens are still ahead
#: "Use as …" per kind of result: (role, words). A video gives its last frame (as the finished
#: slot's results menu offers it).
IMAGE_USES = (
    ("first_frame", QT_TRANSLATE_NOOP("GalleryPane", "Use as first frame")),
    ("last_frame", QT_TRANSLATE_NOOP("GalleryPane", "Use as last frame")),
    ("reference", QT_TRANSLATE_NOOP("GalleryPane", "Use as reference")),
    ("edit", QT_TRANSLATE_NOOP("GalleryPane", "Edit this image (MiniMax-H3-Image)")),
)
VIDEO_USES = (
    (
        "first_frame",
        QT_TRANSLATE_NOOP("GalleryPane", "Continue: last frame of this video as first frame"),
    ),
    ("reference", QT_TRANSLATE_NOOP("GalleryPane", "Last frame of this video as reference")),
)
SOUND_USES = (
    (
        "reference_audio",
        QT_TRANSLATE_NOOP(
            "GalleryPane", "Use as soundtrack / reference audio of a MiniMax-H3 slot"
        ),
    ),
)


@dataclass(frozen=True)
class ResultRef:
    """A result handed to another part of the window (chaining, compare)."""

    request_id: str
    path: str
    sha256: str
    kind: str
    content_type: str
    width: int | None
    height: int | None


def ref_of(row: ResultRow) -> ResultRef | None:
    if row.path is None or row.sha256 is None:
        return None
    return ResultRef(
        row.request_id,
        row.path,
        row.sha256,
        "sound" if is_sound(row) else "video" if is_video(row) else "image",
        row.content_type or "",
        row.width,
        row.height,
    )


def use_choices(ref: ResultRef | None) -> list[tuple[str, str]]:
    """The "Use as …" choices for a result (role, translated words); none without a file."""
    if ref is None:
        return []
    return [
        (role, translate("GalleryPane", text))
        for role, text in {"video": VIDEO_USES, "sound": SOUND_USES}.get(ref.kind, IMAGE_USES)
    ]


def duration_text(seconds: float | None) -> str:
    if not seconds:
        return ""
    s = round(seconds)
    return f"{s // 60}:{s % 60:02d}"


BOX = QColor("#23272e")  # the picture's box
WORDS = QColor("#aab2bd")  # a tile's words where its picture would be
CHIP = QColor(0, 0, 0, 150)  # under a video's mark
MARKS_CHIP = QColor(0, 0, 0, 160)  # under the pick and rating
SPOT = QColor(255, 255, 255, 230)  # under the state badge
WHITE = QColor("#ffffff")
PICKED = QColor("#ffd166")
REJECTED = QColor("#ff9b9b")
SELECTED = QColor("#3b6ea5")
CENTERED = Qt.AlignmentFlag.AlignCenter
WRAPPED = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
CAPTION_ALIGN = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


class TileDelegate(QStyledItemDelegate):
    """Paints a tile: the picture letterboxed in a dark box, the state badge, a video mark, and
    the scene name under it. Each tile is drawn once into a pixmap (kept for the last few screens
    of tiles, ``keep``) and blitted while the grid scrolls; only the selection frame is drawn
    each time. A tile without a picture starts from its box with its words (``Loading…``, a state,
    ``Sound``), drawn once per words and size and shared by every such tile; a caption is elided
    once per (text, width). A new tile size (or screen ratio) drops what was drawn at the old one.
    :attr:`scaled` counts the pictures smooth-scaled into a tile."""

    def __init__(self, parent: Any = None, *, keep: int = 64) -> None:
        super().__init__(parent)
        from collections import OrderedDict

        self._tiles: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._keep = keep
        self._boxes: dict[tuple[Any, ...], QPixmap] = {}
        self._size: tuple[int, int, float] | None = None
        self._elided: dict[tuple[str, int, str], str] = {}
        self.scaled = 0  # pictures smooth-scaled into a tile (tests and benchmarks count them)

    def sizeHint(self, option: QStyleOptionViewItem, index: Any) -> QSize:  # noqa: N802
        tile = getattr(self.parent(), "tile", TILE)
        return QSize(tile + 8, tile + CAPTION + 8)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Any) -> None:
        model = index.model()
        row = model.row_at(index.row()) if isinstance(model, GalleryModel) else None
        if row is not None:
            selected = bool(option.state & QStyle.StateFlag.State_Selected)
            self.paint_tile(
                painter,
                option,
                option.rect,
                model,
                row,
                selected,
                painter.device().devicePixelRatioF(),
            )

    def tiles_kept(self) -> int:
        """How many drawn tiles are kept (at most ``keep``)."""
        return len(self._tiles)

    def paint_tile(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        rect: QRect,
        model: GalleryModel,
        row: ResultRow,
        selected: bool,
        ratio: float,
    ) -> None:
        """Blit the tile of ``row`` at ``rect`` (drawn into the tile cache first if needed)."""
        pix = model.thumbnail(row)
        failed = pix is None and model.thumb_failed(row)
        w, h = rect.width(), rect.height()
        if self._size != (w, h, ratio):  # another tile size: what was drawn at the old one goes
            self._size = (w, h, ratio)
            self._tiles.clear()
            self._boxes.clear()
            self._elided.clear()
        marks = (row.pick, row.rating)
        pixkey = pix.cacheKey() if pix is not None else None
        key = (row.key, row.state, marks, w, h, ratio, pixkey, failed)
        tile = self._tiles.get(key)
        if tile is None:
            tile = self._draw(option, w, h, ratio, row, pix, failed)
            self._tiles[key] = tile
            while len(self._tiles) > self._keep:
                self._tiles.popitem(last=False)
        else:
            self._tiles.move_to_end(key)
        painter.drawPixmap(rect.topLeft(), tile)
        if selected:
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            r = rect.adjusted(4, 4, -4, -4)
            box = QRect(r.left(), r.top(), r.width(), r.height() - CAPTION)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(SELECTED, 3))
            painter.drawRoundedRect(box.adjusted(1, 1, -1, -1), 6, 6)
            painter.restore()

    def _draw(
        self,
        option: QStyleOptionViewItem,
        w: int,
        h: int,
        ratio: float,
        row: ResultRow,
        pix: Any,
        failed: bool,
    ) -> QPixmap:
        """The tile of ``row``, drawn: its box with the picture (or its words), the marks over
        it, the caption under it."""
        base = option.palette.color(option.palette.ColorRole.Base)
        tile = QPixmap(QSize(int(w * ratio), int(h * ratio)))
        tile.setDevicePixelRatio(ratio)
        tile.fill(base)  # opaque: a fast blit
        pictured = pix is not None and not pix.isNull()
        words = None if pictured else self._words_box(option, w, h, ratio, base, row, failed)
        p = QPainter(tile)
        if words is not None:  # the shared box, its pixels as they are
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            p.drawPixmap(0, 0, words)
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        if words is None:
            self._draw_box(p, option, QRect(0, 0, w, h), pix, "")
            self.scaled += 1
        self._marks(p, option, QRect(0, 0, w, h), row, scene_label(row))
        p.end()
        return tile

    def _words_box(
        self,
        option: QStyleOptionViewItem,
        w: int,
        h: int,
        ratio: float,
        base: QColor,
        row: ResultRow,
        failed: bool,
    ) -> QPixmap:
        """The box of a tile without a picture, with its words (drawn once per words)."""
        if row.path is None:
            text = state_word(row.state)
        elif is_sound(row):  # no picture: what it is and how long
            text = f"♪ {translate('GalleryPane', SOUND)} {duration_text(row.duration)}"
        elif failed:
            text = translate("GalleryPane", CANNOT_SHOW)
        else:
            text = translate("GalleryPane", LOADING)
        key = (text, option.font.key(), base.rgba(), w, h, ratio)
        box = self._boxes.get(key)
        if box is None:
            if len(self._boxes) > 64:  # one per state, sound length and language: a few
                self._boxes.clear()
            box = QPixmap(QSize(int(w * ratio), int(h * ratio)))
            box.setDevicePixelRatio(ratio)
            box.fill(base)
            p = QPainter(box)
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            self._draw_box(p, option, QRect(0, 0, w, h), None, text)
            p.end()
            self._boxes[key] = box
        return box

    def _draw_box(
        self, painter: QPainter, option: QStyleOptionViewItem, rect: QRect, pix: Any, text: str
    ) -> None:
        """The dark box with the picture smooth-scaled into it (or the words)."""
        r = rect.adjusted(4, 4, -4, -4)
        box = QRect(r.left(), r.top(), r.width(), r.height() - CAPTION)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(BOX)
        painter.drawRoundedRect(box, 6, 6)
        if pix is not None:
            dpr = pix.devicePixelRatio() or 1.0
            size = QSize(int(pix.width() / dpr), int(pix.height() / dpr))
            size.scale(box.size() - QSize(4, 4), Qt.AspectRatioMode.KeepAspectRatio)
            target = QRect(0, 0, size.width(), size.height())
            target.moveCenter(box.center())
            painter.drawPixmap(target, pix)
        else:
            painter.setPen(WORDS)
            painter.setFont(option.font)
            painter.drawText(box.adjusted(8, 8, -8, -8), WRAPPED, text)

    def _elide(self, fm: QFontMetrics, font: QFont, label: str, width: int) -> str:
        """The caption elided to ``width``: laid out once per (text, width, font)."""
        key = (label, width, font.key())
        text = self._elided.get(key)
        if text is None:
            if len(self._elided) > 4096:
                self._elided.clear()
            text = self._elided[key] = fm.elidedText(label, Qt.TextElideMode.ElideMiddle, width)
        return text

    def _marks(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        rect: QRect,
        row: ResultRow,
        label: str,
    ) -> None:
        """What is drawn over the box: a video's mark, the state badge, the marks; the name."""
        r = rect.adjusted(4, 4, -4, -4)
        box = QRect(r.left(), r.top(), r.width(), r.height() - CAPTION)
        font = option.font
        fm = QFontMetrics(font)
        painter.setFont(font)
        if is_video(row) and row.path is not None:
            mark = f"▶ {duration_text(row.duration)}".strip()
            w = fm.horizontalAdvance(mark) + 10
            chip = QRect(box.left() + 6, box.bottom() - 6 - fm.height() - 2, w, fm.height() + 2)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(CHIP)
            painter.drawRoundedRect(chip, 4, 4)
            painter.setPen(WHITE)
            painter.drawText(chip, CENTERED, mark)
        if row.state != State.SUCCESS or row.path is None:
            badge = badge_pixmap(row.state.value, 18)
            spot = QRect(box.right() - 26, box.top() + 6, 22, 22)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(SPOT)
            painter.drawEllipse(spot)
            painter.drawPixmap(spot.adjusted(2, 2, -2, -2), badge)
        marks = marks_text(row.pick, row.rating)
        if marks:
            w = fm.horizontalAdvance(marks) + 10
            chip = QRect(
                box.right() - 6 - w, box.bottom() - 6 - fm.height() - 2, w, fm.height() + 2
            )
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(MARKS_CHIP)
            painter.drawRoundedRect(chip, 4, 4)
            painter.setPen(PICKED if row.pick != "reject" else REJECTED)
            painter.drawText(chip, CENTERED, marks)
        caption = QRect(r.left(), box.bottom() + 3, r.width(), CAPTION - 3)
        painter.setPen(option.palette.color(option.palette.ColorRole.Text))
        painter.drawText(caption, CAPTION_ALIGN, self._elide(fm, font, label, caption.width()))


class GalleryView(QtWidgets.QListView):
    """The grid: list mode flowing left to right and wrapping, with uniform tiles (icon mode
    lays every item out again on each change: slow at thousands of rows); more is fetched as it
    scrolls."""

    activatedKey = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("galleryView")
        self.setViewMode(QtWidgets.QListView.ViewMode.ListMode)
        self.setFlow(QtWidgets.QListView.Flow.LeftToRight)
        self.setWrapping(True)
        self.setResizeMode(QtWidgets.QListView.ResizeMode.Adjust)
        self.setMovement(QtWidgets.QListView.Movement.Static)
        self.setUniformItemSizes(True)
        self.setSpacing(0)  # the tiles' own margins make the gaps
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalScrollBar().setSingleStep(24)
        self.tile = TILE
        self.smallest = TILE  # the size slider: the smallest a tile may be (columns follow)
        self.setItemDelegate(TileDelegate(self))
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self._fit_tiles()

    def setModel(self, model: Any) -> None:  # noqa: N802 - Qt override
        """Over a gallery model the viewport is declared opaque: :meth:`paintEvent` fills every
        damaged pixel itself. The app's style sheet (a background on ``QListView``) turns the
        viewport's own background fill off, and a viewport Qt does not know to be opaque
        cannot be scrolled by moving its pixels: each scroll step repainted all of it instead
        of the strip it exposes."""
        super().setModel(model)
        self.viewport().setAttribute(
            Qt.WidgetAttribute.WA_OpaquePaintEvent, isinstance(model, GalleryModel)
        )

    def verticalScrollbarValueChanged(self, value: int) -> None:  # noqa: N802 - Qt override
        """Over a gallery model, :meth:`_prefetch` instead of QAbstractItemView's own: that one
        asks for the next page only at the very bottom, and gives the hover to the tile under
        the pointer at each step — the tiles draw no hover, and it repainted the tile the
        pointer left and the one it came over beside the strip each step of a wheel exposes."""
        if isinstance(self.model(), GalleryModel):
            self._prefetch(value)
        else:
            super().verticalScrollbarValueChanged(value)

    def _prefetch(self, value: int) -> None:
        """The next page is asked for while :data:`PREFETCH_SCREENS` screens of tiles are still
        ahead, and at the very bottom whatever the viewport's height."""
        model = self.model()
        ahead = self.verticalScrollBar().maximum() - value
        if (ahead <= 0 or ahead < PREFETCH_SCREENS * self.viewport().height()) and (
            model.canFetchMore(QModelIndex())
        ):
            model.fetchMore(QModelIndex())

    def _fit_tiles(self) -> None:
        """Tiles grow with the grid (whole columns, 168 to 256 px): big results on a big
        window, never a ragged gap on the right."""
        width = self.viewport().width() - 16  # slack: the flow never wraps a column early
        per = self.smallest + 8 + 2 * self.spacing()
        columns = max(1, width // per)
        tile = max(self.smallest, min(MAX_TILE, width // columns - 8 - 2 * self.spacing()))
        if tile != self.tile or not self.gridSize().isValid():
            self.tile = tile
            self.setGridSize(
                QSize(tile + 8 + 2 * self.spacing(), tile + CAPTION + 8 + 2 * self.spacing())
            )

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_tiles()

    def set_smallest(self, size: int) -> None:
        """The thumbnail-size slider: tiles at least ``size`` px, as many columns as fit."""
        self.smallest = max(SMALLEST_TILE, min(MAX_TILE, int(size)))
        self._fit_tiles()

    def _tiles_in(self, area: QRect, count: int) -> Any:
        """(row, rect) of the tiles meeting ``area``: computed from the uniform grid (each
        ``visualRect`` from Python asks the model's ``rowCount`` many times over), checked
        against the view's own layout once, which is asked instead if they differ."""
        grid = self.gridSize()
        gw, gh = grid.width(), grid.height()
        if count == 0 or gw <= 0 or gh <= 0:
            return
        cols = max(1, self.viewport().width() // gw)
        dx, dy = self.horizontalOffset(), self.verticalOffset()
        first_line = max(0, (area.top() + dy) // gh)
        probe = min(count - 1, first_line * cols)
        expected = QRect((probe % cols) * gw - dx, (probe // cols) * gh - dy, gw, gh)
        if self.visualRect(self.model().index(probe)) != expected:  # not the layout assumed
            for i in range(count):
                rect = self.visualRect(self.model().index(i))
                if rect.intersects(area):
                    yield i, rect
            return
        line = first_line
        while line * gh - dy <= area.bottom():
            for col in range(cols):
                i = line * cols + col
                if i >= count:
                    return
                rect = QRect(col * gw - dx, line * gh - dy, gw, gh)
                if rect.intersects(area):
                    yield i, rect
            line += 1

    def dataChanged(
        self,
        top_left: Any,
        bottom_right: Any,  # noqa: N802 - Qt override
        roles: Any = (),
    ) -> None:
        """Arrived pictures repaint only their tiles on screen (QAbstractItemView repaints the
        whole viewport for a range of rows, and a hand-off is a range)."""
        model = self.model()
        if (
            not isinstance(model, GalleryModel)
            or list(roles) != [ThumbRole]
            or not top_left.isValid()
        ):
            super().dataChanged(top_left, bottom_right, roles)
            return
        first, last = top_left.row(), bottom_right.row()
        port = self.viewport()
        region = QtGui.QRegion()
        for i, rect in self._tiles_in(port.rect(), model.rowCount()):
            if first <= i <= last:
                region += rect
        if not region.isEmpty():
            port.update(region)

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        """Only the tiles in the damaged area, each one cached blit (QListView's own painting
        builds a style option and calls the delegate through Python for every item on screen:
        too slow to scroll smoothly)."""
        model = self.model()
        if not isinstance(model, GalleryModel):
            super().paintEvent(event)
            return
        port = self.viewport()
        painter = QPainter(port)
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        area = event.rect()
        painter.fillRect(area, option.palette.color(option.palette.ColorRole.Base))
        delegate = self.itemDelegate()
        ratio = port.devicePixelRatioF()
        selection = self.selectionModel()
        with model.loader.batch():  # the screen's pictures asked for together, at the end
            for i, rect in self._tiles_in(area, model.rowCount()):
                row = model.row_at(i)
                if row is not None:
                    delegate.paint_tile(
                        painter,
                        option,
                        rect,
                        model,
                        row,
                        selection.isSelected(model.index(i)),
                        ratio,
                    )
        painter.end()

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.activatedKey.emit()
            return
        super().keyPressEvent(event)


class GalleryPane(QWidget):
    """The results gallery: title, scope, the grid, and its empty and loading words."""

    slotActivated = Signal(str)  # request_id: show this slot
    viewerWanted = Signal(int)  # row of the gallery model
    compareWanted = Signal(int, int)  # rows A and B
    # Chaining hook: ("first_frame" | "last_frame" | "reference", ResultRef). The window (or
    # whoever feeds a new slot) connects it and sets ``offer_use`` so the menu offers it.
    useResultWanted = Signal(str, object)
    make2kWanted = Signal(str)  # request_id: re-render this finished video at 2K (a new slot)
    scopeCleared = Signal()
    tileSizeChanged = Signal(int)  # the size slider moved (the window remembers it)

    def __init__(self, model: GalleryModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("galleryPane")
        self.model = model
        self.offer_use = False
        self.title = QLabel(self.tr("RESULTS"), objectName="paneTitle")
        self.scope_label = QLabel(objectName="hint")
        self.scope_label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.all_button = QPushButton(self.tr("Show all projects"), objectName="galleryAllButton")
        self.all_button.setAccessibleName(self.tr("Show the results of all projects"))
        self.all_button.clicked.connect(self.scopeCleared)
        #: marks results (F, X, 1–5, 0, the menu): set by the window (``set_picks``)
        self.picks: PickActions | None = None
        self.ask_board: Any = None  # "Add to board…": asks for a name (the window's dialog)
        self.filters = PickFilters("gallery", self)
        self.view = GalleryView()
        self.view.setAccessibleName(self.tr("Results"))
        self.view.setModel(model)
        self.empty = QLabel(objectName="galleryEmpty", alignment=Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.empty)
        head = QHBoxLayout()
        head.setSpacing(8)
        head.addWidget(self.title)
        head.addWidget(self.scope_label, 1)
        head.addWidget(self.all_button)
        narrow = FlowLayout(spacing=6)  # the pick filters wrap: the grid's width is its own
        for combo in self.filters.combos():
            narrow.addWidget(combo)
        self.size_slider = QSlider(Qt.Orientation.Horizontal, objectName="tileSizeSlider")
        self.size_slider.setRange(SMALLEST_TILE, MAX_TILE)
        self.size_slider.setValue(TILE)
        self.size_slider.setFixedWidth(110)
        self.size_slider.setAccessibleName(self.tr("Thumbnail size"))
        self.size_slider.setToolTip(self.tr("Thumbnail size"))
        self.size_slider.valueChanged.connect(self.view.set_smallest)
        self.size_slider.valueChanged.connect(self.tileSizeChanged)
        narrow.addWidget(self.size_slider)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(head)
        box.addLayout(narrow)
        box.addWidget(self.stack, 1)

        self.view.clicked.connect(self._clicked)
        self.view.doubleClicked.connect(lambda idx: self.viewerWanted.emit(idx.row()))
        self.view.activatedKey.connect(self._open_current)
        self.view.customContextMenuRequested.connect(self._menu)
        self.view.installEventFilter(self)
        self.drag_out = DragOut(
            self.view.viewport(), lambda pos: gallery_files(model, self.view.indexAt(pos).row())
        )
        model.modelReset.connect(self._update_state)
        model.rowsInserted.connect(self._update_state)
        model.rowsInserted.connect(self._ask_first_screen)
        model.loadingChanged.connect(self._update_state)
        self._update_state()

    def set_picks(self, picks: PickActions, ask_board: Any) -> None:
        """Results are marked through ``picks``; ``ask_board()`` names a board (or None)."""
        self.picks = picks
        self.ask_board = ask_board
        picks.marked.connect(self._marked)

    def _marked(self, _rid: str, position: int, pick: Any, rating: int) -> None:
        for i in range(self.model.rowCount()):
            row = self.model.row_at(i)
            if row is not None and row.request_id == _rid and row.position == position:
                self.model.update_pick(row.task_id, position, pick, rating)
                return

    def marked_rows(self) -> list[ResultRow]:
        """The results the marks apply to: the selected tiles (or the current one), with media."""
        rows = self.selected_rows() or (
            [self.view.currentIndex().row()] if self.view.currentIndex().isValid() else []
        )
        out = [self.model.row_at(i) for i in rows]
        return [r for r in out if r is not None and r.path is not None]

    def mark(self, key: str) -> bool:
        """F, X, 1–5 or 0 on the selected results (the first one's flag decides the toggle)."""
        rows = self.marked_rows()
        if self.picks is None or not rows:
            return False
        current = rows[0].pick
        for r in rows:
            self.picks.mark_key(r.request_id, r.position, key, current)
        return True

    # -- scope ---------------------------------------------------------------------------------
    def set_scope(self, scope: GalleryScope) -> None:
        self.model.set_scope(scope)
        self._say_scope()

    def _say_scope(self) -> None:
        s = self.model.scope
        if s.project is None:
            text = self.tr("All projects")
        else:
            name = s.project or self.tr("No project")
            text = f"{name} · {s.day}" if s.day else name
        self.scope_label.setText(text)
        self.all_button.setVisible(s.project is not None)

    def _ask_first_screen(self, _parent: Any, first: int, _last: int) -> None:
        """A first page arrived: the pictures of the tiles it puts on screen are asked for now,
        not when the grid first paints them (a turn of the event loop and a paint later). The
        grid is laid out first, as it would be before that paint: which tiles are on screen
        depends on where its scroll bar ends up."""
        if first != 0:
            return
        self.view.executeDelayedItemsLayout()
        model = self.model
        with model.loader.batch():  # the first tile's picture is made first
            for i in self.visible_rows():
                row = model.row_at(i)
                if row is not None:
                    model.thumbnail(row)

    def _update_state(self, *_: Any) -> None:
        m = self.model
        self._say_scope()
        if m.rowCount() > 0:
            self.stack.setCurrentWidget(self.view)
            return
        if m.loading or not m.started:
            self.empty.setText(self.tr("Gathering your results…"))
        elif (
            m.scope.filter.search
            or m.scope.filter.states
            or m.scope.filter.kind
            or m.scope.filter.since is not None
            or m.scope.filter.pick
            or m.scope.filter.min_rating
            or m.scope.filter.board is not None
        ):
            self.empty.setText(
                self.tr(
                    "No results match these filters.\n"
                    "Clear the search or choose another state, kind or day."
                )
            )
        else:
            self.empty.setText(
                self.tr(
                    "Nothing here yet.\nEvery image and video you create "
                    "gathers here, newest first."
                )
            )
        self.stack.setCurrentWidget(self.empty)

    # -- what the designer does -----------------------------------------------------------------
    def _clicked(self, index: QModelIndex) -> None:
        row = self.model.row_at(index.row())
        if row is not None:
            self.slotActivated.emit(row.request_id)

    def _open_current(self) -> None:
        idx = self.view.currentIndex()
        if idx.isValid():
            self.viewerWanted.emit(idx.row())

    def visible_rows(self) -> list[int]:
        """The rows whose tiles are on screen now."""
        area = self.view.viewport().rect()
        return [i for i, _ in self.view._tiles_in(area, self.model.rowCount())]

    def pictures_shown(self) -> bool:
        """Every tile on screen that has a picture shows it (none still loading)."""
        model = self.model
        for i in self.visible_rows():
            row = model.row_at(i)
            if row is None or row.path is None or model.thumb_failed(row):
                continue
            if model.thumbnail(row, ask=False) is None:
                return False
        return True

    def selected_rows(self) -> list[int]:
        return sorted(i.row() for i in self.view.selectionModel().selectedIndexes())

    def compare_selected(self) -> bool:
        rows = self.selected_rows()
        if len(rows) != 2:
            return False
        self.compareWanted.emit(rows[0], rows[1])
        return True

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        if (
            obj is self.view
            and event.type() == QtCore.QEvent.Type.KeyPress
            and event.key() == Qt.Key.Key_C
            and not event.modifiers()
        ):
            return self.compare_selected()
        if obj is self.view and event.type() == QtCore.QEvent.Type.KeyPress:
            key = key_of(event)
            if key is not None and self.mark(key):
                return True
        return super().eventFilter(obj, event)

    def menu_for(self, index: QModelIndex) -> QtWidgets.QMenu:
        """The context menu of a tile (built, not shown: tests read it)."""
        menu = QtWidgets.QMenu(self)
        row = self.model.row_at(index.row())
        if row is None:
            return menu
        i = index.row()
        menu.addAction(self.tr("Open in viewer"), lambda: self.viewerWanted.emit(i))
        menu.addAction(self.tr("Show slot"), lambda: self.slotActivated.emit(row.request_id))
        rows = self.selected_rows()
        if len(rows) == 2 and i in rows:
            menu.addAction(self.tr("Compare the two selected (C)"), self.compare_selected)
        if self.picks is not None and row.path is not None:
            menu.addSeparator()
            marked = [(r.request_id, r.position) for r in self.marked_rows()]
            if (row.request_id, row.position) not in marked:
                marked = [(row.request_id, row.position)]
            self.picks.fill_menu(menu, marked, row.pick, self.ask_board or (lambda: None))
        ref = ref_of(row)
        choices = use_choices(ref) if self.offer_use else []
        if choices:
            menu.addSeparator()
        for role, text in choices:
            menu.addAction(text, lambda r=role: self.useResultWanted.emit(r, ref))
        if self.offer_use and row.kind == "video" and row.path is not None:
            self._add_make2k(menu, row)
        return menu

    def _add_make2k(self, menu: QtWidgets.QMenu, row: Any) -> None:
        """ "Make 2K…" for a finished video: enabled when the domain allows it, else disabled
        with its reason (the menu shows tooltips)."""
        from app.ui.make2k import why_not

        params = {
            "model": row.model,
            "resolution": row.resolution,
            "source_task_id": row.source_task_id,
            "regenerate_from": None,
        }
        why = why_not(row.kind, params, row.state, row.provider_task_id, row.created_at)
        act = menu.addAction(self.tr("Make 2K…"), lambda: self.make2kWanted.emit(row.request_id))
        act.setObjectName("make2kAction")
        act.setEnabled(why is None)
        act.setToolTip(why or self.tr("Render this video again at 2K, as a new slot"))
        menu.setToolTipsVisible(True)

    def _menu(self, pos: Any) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid():
            return
        menu = self.menu_for(index)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.view.viewport().mapToGlobal(pos))
