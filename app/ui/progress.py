"""How long a task will take, as the window asks it: :class:`Estimates` asks the controller once
per kind of task (``SlotReader.durations``) and keeps the answer for a minute (the panes ask on
every tick); the estimate itself is ``app.present.progress`` (said by the command line too).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from app.present.progress import Estimate, estimate, key_of

#: How long an answer is kept before it is asked again (seconds).
KEEP = 60.0


class Estimates:
    """Estimates per kind of task, read through ``controller`` (its ``reader.durations``) and
    kept for :data:`KEEP` seconds. :meth:`get` answers at once from what it has (None while the
    first answer is on its way) and calls ``changed`` when an answer arrives."""

    def __init__(self, controller: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.controller = controller
        self.clock = clock
        self._known: dict[tuple[Any, ...], tuple[float, Estimate | None]] = {}
        self._asking: set[tuple[Any, ...]] = set()
        self.changed: list[Callable[[], None]] = []

    def get(self, task: Any) -> Estimate | None:
        key = key_of(task)
        known = self._known.get(key)
        if known is not None and self.clock() - known[0] < KEEP:
            return known[1]
        if key not in self._asking:
            self._asking.add(key)
            kind, model, resolution, duration = key

            def arrived(durations: list[float]) -> None:
                self._asking.discard(key)
                self._known[key] = (self.clock(), estimate(durations))
                for callback in list(self.changed):
                    callback()

            c = self.controller
            c.load(c.reader.durations(kind, model, resolution, duration), done=arrived)
        return known[1] if known is not None else None

    def forget(self) -> None:
        """A task ended: the next question reads the durations again."""
        self._known.clear()


__all__ = ["Estimate", "Estimates", "estimate", "key_of"]
