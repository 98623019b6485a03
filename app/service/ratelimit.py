"""A request-rate cap shared by every provider call of one service.

A sliding window, not a token bucket: at most ``n`` sends in any window of ``n / rate``
seconds (``n`` = the rate rounded down, at least 1), so no second ever sees more than the cap —
also after a pause, where a bucket would let a burst through. A margin of a tenth of the window
(at least 50 ms) absorbs the jitter between our sending and the provider's counting: measured
at the provider, a 20 ms margin still let 6 requests into one second at a cap of 5.
"""

from __future__ import annotations

import asyncio
import collections
import math
import random
import time
from collections.abc import Awaitable, Callable

MARGIN_SHARE, MARGIN_MIN = 0.1, 0.05  # added to each window, for scheduling and network jitter


class RateLimiter:
    """At most ``rate`` acquisitions per second, counted over any sliding window."""

    def __init__(
        self,
        rate: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.rate = max(rate, 0.001)
        self._clock, self._sleep = clock, sleep  # a test's clock, where the rule is the point
        self.n = max(1, int(self.rate))
        base = self.n / self.rate
        self.window = base + max(MARGIN_MIN, MARGIN_SHARE * base)
        self._sent: collections.deque[float] = collections.deque()
        self._lock: asyncio.Lock | None = None

    async def acquire(self) -> None:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            while True:
                now = self._clock()
                while self._sent and now - self._sent[0] >= self.window:
                    self._sent.popleft()
                if len(self._sent) < self.n:
                    self._sent.append(now)
                    return
                await self._sleep(self.window - (now - self._sent[0]))


def backoff(
    base: float, failures: int, cap: float = 300.0, rng: random.Random | None = None
) -> float:
    """Exponential backoff with full jitter in [0.5, 1.5) of the step."""
    draw = rng.random() if rng is not None else random.random()
    step = min(cap, base * (2 ** max(failures - 1, 0)))
    return float(step * (0.5 + draw))


#: The longest pause a provider's ``Retry-After`` can impose: beyond it, Slate waits this long.
RETRY_AFTER_CAP = 60.0


def retry_delay(retry_after: float | None, fallback: float, cap: float | None = None) -> float:
    """How long to wait before asking again: the provider's ``Retry-After`` when it is a
    positive number of seconds, at most ``cap`` (a server answering ``Retry-After: 1e9`` or
    ``inf`` is not obeyed); else (none, NaN, zero, negative) our own ``fallback``, a backoff
    bounded already. ``cap`` defaults to :data:`RETRY_AFTER_CAP`."""
    cap = RETRY_AFTER_CAP if cap is None else cap
    if (
        isinstance(retry_after, (int, float))
        and not isinstance(retry_after, bool)
        and not math.isnan(retry_after)
        and retry_after > 0
    ):
        return float(min(retry_after, cap))
    return float(fallback)
