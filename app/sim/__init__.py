"""The demo provider: a MiniMax-compatible HTTP server on loopback (embedded or ``slate sim``)."""

from app.sim.config import UNKNOWN_STATUS_WORDS, Faults, SimConfig
from app.sim.server import SimServer, start_sim

__all__ = ["Faults", "SimConfig", "SimServer", "UNKNOWN_STATUS_WORDS", "start_sim"]
