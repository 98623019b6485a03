"""Where the files Slate ships live: icons and translations, found through ``importlib.resources``.

The top-level ``resources/`` folder is installed as the package ``app.resources``, so the same
lookup works in a source checkout, an editable install, an installed wheel and a bundle.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from app.ui.qt import QIcon, QSize

APP_ID = "io.slate.Slate"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def _root() -> Path:
    try:
        return Path(str(files("app.resources")))
    except ModuleNotFoundError:
        # A source checkout run without (re)installing, e.g. PYTHONPATH=. python -m app: the
        # package mapping lives in the installed metadata, the folder is right here.
        return Path(__file__).resolve().parents[2] / "resources"


def resource(*parts: str) -> Path:
    """A file or folder of ``app.resources`` as a path on disk (Qt wants real paths)."""
    return _root().joinpath(*parts)


def translations_dir() -> Path:
    return resource("translations")


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
