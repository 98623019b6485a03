"""Loading the price table: the one Slate ships, with the user's override file applied.

The shipped table is ``prices.toml`` in the package ``app.resources`` (the top-level
``resources/`` folder). The override is ``prices.toml`` in Slate's config folder
(``platformdirs.user_config_dir("Slate")``); its entries win leaf by leaf. A bad override is an
error naming the file, line and field (:class:`~app.domain.prices.PriceTableError`) — Slate never
falls back to the shipped price, and never to 0, behind the user's back.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import platformdirs

from app.domain.prices import PriceTable, PriceTableError, parse_table, parse_with_override

APP_NAME = "Slate"
PRICES_FILE = "prices.toml"


def shipped_text() -> str:
    """The text of the price table Slate ships."""
    try:
        return files("app.resources").joinpath(PRICES_FILE).read_text(encoding="utf-8")
    except ModuleNotFoundError:
        # A source checkout run without (re)installing: the package mapping lives in the
        # installed metadata, the folder is right here.
        root = Path(__file__).resolve().parents[2] / "resources"
        return (root / PRICES_FILE).read_text(encoding="utf-8")


def override_path() -> Path:
    """Where the user's own prices live: ``prices.toml`` in Slate's config folder."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / PRICES_FILE


def load_price_table(override: Path | None = None) -> PriceTable:
    """The shipped table with the override file applied (``override`` or the default path).

    A missing override file is not an error; an unreadable or invalid one is."""
    path = override_path() if override is None else override
    shipped = shipped_text()
    if not path.exists():
        return parse_table(shipped)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PriceTableError(str(path), 0, "file", f"cannot be read: {exc.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise PriceTableError(str(path), line, "file", "is not UTF-8 text") from None
    return parse_with_override(shipped, text, str(path))
