"""Calendar days: as the designer sees them (this machine's local time zone, daylight saving
included) for browsing, and the one budget day of every user for the daily quota and budget.

The budget day is the UTC calendar day, whatever the time zone of the process: a desktop in
Shanghai, a cron job in UTC and a container in Los Angeles sharing one store all count one
user's quota and budget in one window (a window per process zone gave each its own "today",
doubling both). Decision and trade-offs: docs/DECISIONS.md ("One budget day per user")."""

from __future__ import annotations

import datetime as dt
import time


def local_day(ts: float | None = None) -> str:
    """The local calendar day (``YYYY-MM-DD``) of a timestamp; now when none is given."""
    return time.strftime("%Y-%m-%d", time.localtime(ts))


def budget_day(ts: float | None = None) -> str:
    """The budget day (``YYYY-MM-DD``, UTC) of a timestamp; now when none is given. Quota counts,
    the daily budget and the cost day a slot is spent on are keyed by it."""
    return time.strftime("%Y-%m-%d", time.gmtime(ts))


def day_bounds(day: str) -> tuple[float, float]:
    """The first and the first-after-last second of a local calendar day (DST-aware)."""
    start = dt.datetime.strptime(day, "%Y-%m-%d")
    return start.timestamp(), (start + dt.timedelta(days=1)).timestamp()
