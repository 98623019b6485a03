"""The request-rate cap: never more than the cap in any one-second window, even after a pause."""

import asyncio
import time

from app.service.ratelimit import RateLimiter
from tests.bench.polling import max_in_window


async def test_sliding_window_never_exceeds_the_cap_after_pauses():
    limiter = RateLimiter(30)
    sent = []
    for _burst in range(3):
        for _ in range(40):
            await limiter.acquire()
            sent.append(time.monotonic())
        await asyncio.sleep(0.4)  # a pause: a token bucket would now let a burst through
    assert max_in_window(sent) <= 30
    assert len(sent) == 120


async def test_fractional_rates_space_single_requests():
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
