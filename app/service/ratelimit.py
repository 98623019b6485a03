"""A request-rate cap shared by every provider call of one service (token bucket)."""

from __future__ import annotations

import asyncio
import random
import time


class RateLimiter:
    """At most ``rate`` acquisitions per second, with a burst of ``burst``."""

    def __init__(self, rate: float, burst: int = 1) -> None:
        self.rate = max(rate, 0.001)
        self.burst = max(burst, 1)
        self._tokens = float(self.burst)
        self._last = time.monotonic()
        self._lock: asyncio.Lock | None = None

    async def acquire(self) -> None:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            while True:
                now = time.monotonic()
                self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
                self._last = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self.rate)


def backoff(base: float, failures: int, cap: float = 300.0, rng: random.Random | None = None) -> float:
    """Exponential backoff with full jitter in [0.5, 1.5) of the step."""
    rng = rng or random
    step = min(cap, base * (2 ** max(failures - 1, 0)))
    return step * (0.5 + rng.random())
