"""Calendar days as the designer sees them: this machine's local time zone, daylight saving
included."""

from __future__ import annotations

import datetime as dt
import time


def local_day(ts: float | None = None) -> str:
    """The local calendar day (``YYYY-MM-DD``) of a timestamp; now when none is given."""
    return time.strftime("%Y-%m-%d", time.localtime(ts))


def day_bounds(day: str) -> tuple[float, float]:
    """The first and the first-after-last second of a local calendar day (DST-aware)."""
    start = dt.datetime.strptime(day, "%Y-%m-%d")
    return start.timestamp(), (start + dt.timedelta(days=1)).timestamp()
