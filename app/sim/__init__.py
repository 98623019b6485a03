"""The demo provider: a MiniMax-compatible HTTP server on loopback (embedded or ``slate sim``).

The server module loads on first use (PEP 562): building ``slate``'s argument parser names
``slate sim``'s options, and a start with an API key never runs the demo provider at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.sim.config import UNKNOWN_STATUS_WORDS, Faults, SimConfig

if TYPE_CHECKING:
    from app.sim.server import SimServer, start_sim

__all__ = ["Faults", "SimConfig", "SimServer", "UNKNOWN_STATUS_WORDS", "start_sim"]


def __getattr__(name: str) -> Any:
    if name in ("SimServer", "start_sim"):
        from app.sim import server

        return getattr(server, name)
    raise AttributeError(f"module 'app.sim' has no attribute {name!r}")
