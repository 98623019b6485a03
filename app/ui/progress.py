"""How long a task will take, learned from this designer's own past tasks.

The durations (create to success) of the latest successful tasks of the same kind, model,
resolution and duration come from ``SlotReader.durations``; :func:`estimate` turns them into a
median and a range (the middle half: from the first to the third quartile). :class:`Estimates`
asks the controller once per kind of task and keeps the answer for a minute (the panes ask on
every tick). Pure Python but for the controller it is handed.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: Fewer past tasks than this say nothing worth showing.
MIN_SAMPLES = 2
#: How long an answer is kept before it is asked again (seconds).
KEEP = 60.0


@dataclass(frozen=True)
class Estimate:
    """Seconds a task of this kind usually takes: ``low``–``high`` around ``median``, from
    ``samples`` past tasks."""

    median: float
    low: float
    high: float
    samples: int

    def fraction(self, elapsed: float) -> float:
        """How far along a task is after ``elapsed`` seconds (at most 0.99 until it is done)."""
        if self.median <= 0:
            return 0.0
        return min(0.99, max(0.0, elapsed / self.median))

    def left(self, elapsed: float) -> tuple[float, float]:
        """Seconds left, as a range (never below zero)."""
        return max(0.0, self.low - elapsed), max(0.0, self.high - elapsed)


def estimate(durations: Sequence[float]) -> Estimate | None:
    """The median and the middle half of ``durations``; None with fewer than ``MIN_SAMPLES``."""
    values = sorted(d for d in durations if d > 0)
    if len(values) < MIN_SAMPLES:
        return None
    median = statistics.median(values)
    if len(values) >= 4:
        q = statistics.quantiles(values, n=4, method="inclusive")
        low, high = q[0], q[2]
    else:
        low, high = values[0], values[-1]
    return Estimate(median, min(low, median), max(high, median), len(values))


def key_of(task: Any) -> tuple[str, str | None, str | None, int | None]:
    """What makes two tasks alike for the estimate: kind, model, resolution, duration."""
    p = dict(getattr(task, "params", None) or {})
    duration = p.get("duration")
    return (
        str(task.kind),
        p.get("model"),
        p.get("resolution"),
        int(duration) if isinstance(duration, (int, float)) else None,
    )


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
