"""The gallery's tiles are drawn once and blitted after: a second paint of the same tiles scales
no picture, a new tile size draws them again at that size (what was drawn at the old one is
dropped), the tiles kept are bounded, every tile waiting for its picture starts from one shared
box with its words (the same pixels as drawing it afresh), and a tile is drawn at the screen's
pixel ratio."""

from __future__ import annotations

from typing import Any

from app.domain.listing import ResultRow
from app.domain.states import State
from app.ui.gallery.pane import CAPTION, MAX_TILE, GalleryView, TileDelegate
from app.ui.qt import QColor, QImage, QPainter, QPixmap, QRect, QStyleOptionViewItem
from tests.gui.gallery_data import gallery_shown


def _row(i: int, *, path: bool = True, pick: str | None = None, rating: int = 0) -> ResultRow:
    return ResultRow(
        i,
        f"article:20260816:tide-eye:scene-{i:02d}",
        State.SUCCESS,
        "image",
        None,
        "a lighthouse",
        "tide-eye",
        0.0,
        0,
        i if path else None,
        f"media/{i}.png" if path else None,
        f"{i:064x}" if path else None,
        1000 + i if path else None,
        "image/png" if path else None,
        256,
        144,
        None,
        pick=pick,
        rating=rating,
    )


class _Model:
    """What the delegate asks of the gallery's model: the decoded pictures."""

    def __init__(self, pictures: dict[tuple[int, int], QPixmap] | None = None) -> None:
        self.pictures = pictures or {}

    def thumbnail(self, row: ResultRow, *, ask: bool = True) -> QPixmap | None:
        return self.pictures.get(row.key)

    def thumb_failed(self, row: ResultRow) -> bool:
        return False


def _option(view: GalleryView) -> QStyleOptionViewItem:
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    return option


def _paint(delegate: TileDelegate, option: Any, model: Any, rows, size: int, ratio: float):
    """The tiles of ``rows`` side by side, as the grid paints them; the picture painted."""
    w, h = size + 8, size + CAPTION + 8
    target = QPixmap(int(w * len(rows) * ratio), int(h * ratio))
    target.setDevicePixelRatio(ratio)
    target.fill(QColor("#000000"))
    painter = QPainter(target)
    for i, row in enumerate(rows):
        delegate.paint_tile(painter, option, QRect(i * w, 0, w, h), model, row, False, ratio)
    painter.end()
    return target.toImage()


def _tile(image: QImage, i: int, size: int, ratio: float) -> QImage:
    w, h = int((size + 8) * ratio), int((size + CAPTION + 8) * ratio)
    return image.copy(i * w, 0, w, h)


def test_a_tile_is_drawn_once_and_again_only_at_a_new_size(qapp):
    view = GalleryView()
    option = _option(view)
    picture = QImage(256, 144, QImage.Format.Format_RGB32)
    picture.fill(QColor("#884422"))
    rows = [_row(i, pick="favourite" if i % 2 else None, rating=i % 6) for i in range(12)]
    model = _Model({r.key: QPixmap.fromImage(picture) for r in rows})
    delegate = TileDelegate(view, keep=16)
    first = _paint(delegate, option, model, rows, 168, 1.0)
    assert delegate.scaled == 12  # each picture scaled into its tile once
    again = _paint(delegate, option, model, rows, 168, 1.0)
    assert delegate.scaled == 12 and again == first  # a second paint only blits
    _paint(delegate, option, model, rows, 200, 1.0)
    assert delegate.scaled == 24  # a new tile size: drawn again at that size
    assert delegate.tiles_kept() == 12  # the old size's tiles dropped
    more = [_row(i) for i in range(100, 140)]
    model.pictures.update({r.key: QPixmap.fromImage(picture) for r in more})
    _paint(delegate, option, model, more, 200, 1.0)
    assert delegate.tiles_kept() == 16  # bounded: the last few screens' tiles


def test_tiles_waiting_for_their_pictures_share_one_box_with_the_same_pixels(qapp):
    view = GalleryView()
    option = _option(view)
    rows = [_row(i, rating=i % 3) for i in range(6)] + [_row(50, path=False)]
    for ratio in (1.0, 1.5, 2.0):
        shared = TileDelegate(view)
        together = _paint(shared, option, _Model(), rows, 168, ratio)
        assert shared.scaled == 0 and len(shared._boxes) == 2  # "Loading…" and a state's word
        for i, row in enumerate(rows):  # each drawn alone, by a delegate that has drawn nothing
            alone = _paint(TileDelegate(view), option, _Model(), [row], 168, ratio)
            assert _tile(together, i, 168, ratio) == alone, (ratio, i)


def test_a_tile_is_drawn_at_the_screens_pixel_ratio(qapp):
    view = GalleryView()
    option = _option(view)
    picture = QImage(256, 144, QImage.Format.Format_RGB32)
    picture.fill(QColor("#884422"))
    row = _row(1)
    delegate = TileDelegate(view)
    _paint(delegate, option, _Model({row.key: QPixmap.fromImage(picture)}), [row], 168, 2.0)
    (tile,) = delegate._tiles.values()
    assert tile.devicePixelRatio() == 2.0
    assert (tile.width(), tile.height()) == (2 * (168 + 8), 2 * (168 + CAPTION + 8))


def test_repainting_the_gallery_scales_no_picture_again(gui, make_window, tmp_path):
    window = gallery_shown(gui, make_window, tmp_path, 30)
    view = window.gallery.view
    delegate = view.itemDelegate()
    scaled = delegate.scaled
    assert scaled >= len(window.gallery.visible_rows()) >= 8
    view.viewport().repaint()
    assert delegate.scaled == scaled  # the whole screen again: blits only
    before = view.tile
    window.gallery.size_slider.setValue(MAX_TILE)
    assert view.tile != before
    gui.until(lambda: delegate.scaled > scaled, what="tiles drawn at the new size")
    gui.drained(view)  # every tile on screen repainted
    shown = len(window.gallery.visible_rows())
    assert delegate.scaled - scaled == shown  # each tile on screen drawn once at the new size
