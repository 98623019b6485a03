"""The request-rate cap: never more than the cap in any one-second window, even after a pause."""

import asyncio
import time

import pytest

from app.service.ratelimit import RateLimiter
from tests.bench.polling import max_in_window


class Clock:
    """A test's clock: ``sleep`` moves it on at once (the rule, not the machine's speed), by a
    microsecond more than asked, as a real sleep never wakes early."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += max(seconds, 0.0) + 1e-6
        await asyncio.sleep(0)


async def test_sliding_window_never_exceeds_the_cap_after_pauses():
    clock = Clock()
    limiter = RateLimiter(30, clock=clock, sleep=clock.sleep)
    sent = []
    for _burst in range(3):
        for _ in range(40):
            await limiter.acquire()
            sent.append(clock())
        clock.now += 0.4  # a pause: a token bucket would now let a burst through
    assert max_in_window(sent) <= 30
    assert len(sent) == 120
    # the cap is the binding limit: each burst of 40 needs a second window, never a third
    assert max_in_window(sent, limiter.window) == 30
    assert all(0 < s <= limiter.window for s in clock.slept), clock.slept


async def test_fractional_rates_space_single_requests_on_a_test_clock():
    clock = Clock()
    limiter = RateLimiter(2.5, clock=clock, sleep=clock.sleep)  # n = 2 in every 0.8 s window
    sent = []
    for _ in range(7):
        await limiter.acquire()
        sent.append(clock())
    assert limiter.n == 2 and limiter.window == pytest.approx(0.8 + 0.08)
    assert max_in_window(sent, limiter.window) == 2
    assert sent[-1] >= 3 * limiter.window  # 7 sends, 2 a window: the 7th opens the 4th window


async def test_fractional_rates_space_single_requests():
    """The real clock: the limiter really waits (one short run; the rule is tested above)."""
    limiter = RateLimiter(20)
    t0 = time.monotonic()
    for _ in range(30):
        await limiter.acquire()
    assert time.monotonic() - t0 >= 0.5  # 30 sends at 20/s need more than one window


# -- Retry-After: obeyed only within a cap (issue 15, point 2) ---------------------------------
def test_retry_after_is_capped_and_only_a_finite_positive_number_counts():
    import math

    from app.service.ratelimit import RETRY_AFTER_CAP, retry_delay

    assert RETRY_AFTER_CAP == 60.0
    assert retry_delay(1e9, 2.0) == 60.0  # a server asking for 31 years gets a minute
    assert retry_delay(math.inf, 2.0) == 60.0
    assert retry_delay(7.0, 2.0) == 7.0
    for junk in (None, math.nan, -5.0, 0.0, True):
        assert retry_delay(junk, 2.5) == 2.5  # our own backoff instead
    assert retry_delay(90.0, 1.0, cap=30.0) == 30.0
