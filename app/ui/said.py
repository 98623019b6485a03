"""The state, progress and spend words live in :mod:`app.present.said` (Qt-free, said by the
command line too); the window's modules keep importing them by this name."""

from __future__ import annotations

from app.present.said import *  # noqa: F403 - the window's name for the shared words
from app.present.said import __all__ as __all__
