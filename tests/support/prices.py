"""Price overrides for tests: the shipped table with prices the shipped one leaves unknown.

``image-01`` is priced (MiniMax does not publish it, so the shipped table says unknown): with it,
image slots have a cost and the image rules (``n``, ``success_count``, blocked images) show in
figures. ``write_override`` writes the file for a service (``Config.prices_file``) and, under
``<dir>/Slate/prices.toml``, for a `slate` subprocess run with ``XDG_CONFIG_HOME=<dir>``.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

IMAGE_PRICE = Decimal("0.0035")
CLIP_768P_6S = Decimal("0.28")  # shipped: MiniMax-Hailuo-2.3, 768P, 6 s

OVERRIDE = f"""\
as_of = "2026-11"
source = "test prices"

[models."image-01"]
per_image = {IMAGE_PRICE}
"""


def write_override(config_home: Path, text: str = OVERRIDE) -> Path:
    """The override as ``<config_home>/Slate/prices.toml``; returns its path."""
    folder = config_home / "Slate"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "prices.toml"
    path.write_text(text, encoding="utf-8")
    return path
