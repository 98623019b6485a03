#!/usr/bin/env python3
"""Render Slate's app icon from its SVG to the PNG sizes desktops and bundles ask for.

    .venv/bin/python packaging/render-icons.py           # write the PNGs (commit them)
    .venv/bin/python packaging/render-icons.py --check   # exit 1 if a committed PNG is stale

The SVG is ``resources/icons/hicolor/scalable/apps/io.slate.Slate.svg``; the PNGs go beside it in
the freedesktop icon-theme layout (``hicolor/NxN/apps/io.slate.Slate.png``), so the folder can be
copied as is into ``share/icons``. Qt's own SVG renderer draws them (the pinned PySide6), so a
render is the same on every machine.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons" / "hicolor"
NAME = "io.slate.Slate"
SVG = ICONS / "scalable" / "apps" / f"{NAME}.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def png_path(size: int, icons: Path = ICONS) -> Path:
    return icons / f"{size}x{size}" / "apps" / f"{NAME}.png"


def render(size: int, svg: Path = SVG):  # -> QImage
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"render-icons: {svg} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image.convertToFormat(QImage.Format.Format_ARGB32)


#: How far one channel of one pixel may differ from a fresh render: Qt's raster engine takes
#: other SIMD paths on other CPUs, and its antialiasing then differs by one step in a few edge
#: pixels (seen: 1 at most, on up to 11 pixels of 512×512). A changed SVG differs far more.
TOLERANCE = 2


def _differs(committed, fresh) -> bool:  # QImage, QImage
    if committed.size() != fresh.size():
        return True
    a = bytes(committed.constBits())[: committed.sizeInBytes()]
    b = bytes(fresh.constBits())[: fresh.sizeInBytes()]
    if a == b:
        return False
    return len(a) != len(b) or any(abs(x - y) > TOLERANCE for x, y in zip(a, b) if x != y)


def stale(icons: Path = ICONS) -> list[str]:
    """The sizes whose committed PNG is missing or differs from a fresh render (pixel by pixel,
    channel by channel, beyond :data:`TOLERANCE`)."""
    from PySide6.QtGui import QImage

    out = []
    for size in SIZES:
        committed = QImage(str(png_path(size, icons)))
        fresh = render(size)
        if committed.isNull() or _differs(committed.convertToFormat(fresh.format()), fresh):
            out.append(f"{size}x{size}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the committed PNGs")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])  # fonts, painting
    if args.check:
        bad = stale()
        if bad:
            print(
                f"render-icons: stale PNGs ({', '.join(bad)}); run packaging/render-icons.py",
                file=sys.stderr,
            )
            return 1
        return 0
    for size in SIZES:
        path = png_path(size)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not render(size).save(str(path), "PNG"):
            print(f"render-icons: could not write {path}", file=sys.stderr)
            return 1
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
