"""The designer's words live in :mod:`app.present.words` (Qt-free, said by the command line
too); the window's modules keep importing them by this name."""

from __future__ import annotations

from app.present.words import *  # noqa: F403 - the window's name for the shared words
from app.present.words import __all__ as __all__
