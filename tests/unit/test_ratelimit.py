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
