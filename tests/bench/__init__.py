"""Slate's benchmarks: ``python -m tests.bench`` prints one JSON object of figures.

No timing is asserted anywhere in the test suite; ``tests/integration/test_bench_smoke.py``
only checks that a ``--quick`` run reports every figure. See ``docs/BENCHMARKS.md``.
"""

from __future__ import annotations

#: figure key → (group that measures it, unit, target as text). The order is the issue's table.
FIGURES: dict[str, tuple[str, str, str]] = {
    "submit_claim_ratio": ("submit", "ratio", "<= 1.5"),
    "replay_ratio": ("submit", "ratio", "<= 0.5"),
    "race_creates": ("race", "creates", "== 100"),
    "race_submit_p99_ms": ("race", "ms", "< 50"),
    #: issue 34's targets (a designer opens Slate dozens of times a day)
    "history_first_rows_ms": ("gui", "ms", "< 100"),
    "history_filter_text_ms": ("gui", "ms", "< 50"),
    "gui_rss_mb": ("gui", "MB", "< 250"),
    "poll_loop_lag_p99_ms": ("polling", "ms", "< 16"),
    "poll_loop_lag_max_ms": ("polling", "ms", "< 50"),
    "poll_max_requests_per_second": ("polling", "requests in any 1 s", "<= cap"),
    "cold_start_s": ("gui", "s", "< 0.7"),
    "spend_100k_ms": ("spend", "ms", "< 1000"),
    "gallery_first_thumbnails_ms": ("gallery", "ms", "< 150"),
    #: the slowest of the picks/boards filters' first screens (issue 23: the figures hold)
    "gallery_filtered_first_thumbnails_ms": ("gallery", "ms", "< 150"),
    "gallery_scroll_lag_p99_ms": ("gallery", "ms", "< 16"),
    "gallery_scroll_lag_max_ms": ("gallery", "ms", "< 50"),
    "gallery_cache_build_lag_p99_ms": ("gallery", "ms", "< 16"),
    "gallery_rss_mb": ("gallery", "MB", "< 300"),
}

GROUPS = ("submit", "race", "polling", "gui", "spend", "gallery")
