"""The demo provider's PNGs: the drawn picture, pixel for pixel, in an 8-bit RGB PNG that
Qt and Pillow both read (written by the sim itself: libpng's row-filter search cost twice the
CPU for these flat pictures)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from app.sim import media


@pytest.mark.parametrize("size", [(1024, 1024), (1366, 768), (333, 77), (1, 1)])
def test_a_demo_png_holds_exactly_the_drawn_picture(qapp: Any, size: tuple[int, int]) -> None:
    from PySide6.QtGui import QImage

    width, height = size
    data = media.render_png(width, height, "a lighthouse at dawn", index=1, seed=7)
    drawn = media._draw(
        width, height, "#2", "a lighthouse at dawn", media._seed("a lighthouse at dawn", 1, 7), None
    )
    read = QImage.fromData(data)
    assert not read.isNull()
    assert read.convertToFormat(QImage.Format.Format_RGB888) == drawn
    with Image.open(io.BytesIO(data)) as pil:
        assert (pil.format, pil.mode, pil.size) == ("PNG", "RGB", size)
        pil.load()
        assert (
            pil.getpixel((width // 2, height - 1))
            == drawn.pixelColor(width // 2, height - 1).getRgb()[:3]
        )


def test_without_qt_the_plain_png_is_read_too() -> None:
    data = media._plain_png(40, 30, media._seed("x"))
    with Image.open(io.BytesIO(data)) as pil:
        pil.load()
        assert (pil.mode, pil.size) == ("RGB", (40, 30))
        assert pil.getpixel((0, 0)) == (255, 200, 0)  # the band
        assert pil.getpixel((0, 29)) == media._color(media._seed("x"))
