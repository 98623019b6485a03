"""How long a task will take, learned from this designer's own past tasks: the durations
(create to success) of the latest successful tasks of the same kind, model, resolution and
duration, turned by :func:`estimate` into a median and a range (the middle half: from the first
to the third quartile). Said by the window's banner and the command line's progress line alike;
the window's cache of them is ``app.ui.progress.Estimates``.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: Fewer past tasks than this say nothing worth showing.
MIN_SAMPLES = 2


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


__all__ = ["MIN_SAMPLES", "Estimate", "estimate", "key_of"]
