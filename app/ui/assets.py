"""Where the files Slate ships live: icons and translations, found through ``importlib.resources``
(the folder itself by ``app.present.translations.resources_dir``, which needs no Qt).

The top-level ``resources/`` folder is installed as the package ``app.resources``, so the same
lookup works in a source checkout, an editable install, an installed wheel and a bundle.
"""

from __future__ import annotations

from pathlib import Path

from app.present.translations import resources_dir
from app.present.translations import translations_dir as translations_dir
from app.ui.qt import QIcon, QSize

APP_ID = "io.slate.Slate"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def resource(*parts: str) -> Path:
    """A file or folder of ``app.resources`` as a path on disk (Qt wants real paths)."""
    return resources_dir().joinpath(*parts)


def ui_icon(name: str) -> Path:
    """An SVG the stylesheet draws, e.g. ``chevron-down.svg``."""
    return resource("icons", "ui", name)


def app_icon_file(size: int | None = None) -> Path:
    """The app icon: the PNG of ``size`` px, or the SVG source when ``size`` is None."""
    if size is None:
        return resource("icons", "hicolor", "scalable", "apps", f"{APP_ID}.svg")
    return resource("icons", "hicolor", f"{size}x{size}", "apps", f"{APP_ID}.png")


def app_icon() -> QIcon:
    """Slate's icon at every size it ships (Qt picks the nearest for the title bar, the task bar
    and the window switcher)."""
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(app_icon_file(size)), QSize(size, size))
    return icon
