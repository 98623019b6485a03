"""One user has one daily quota and budget window, whatever the time zone of the process
(issue 24, point 2).

The day was the claiming process's local day: a desktop in one zone and a cron job or a container
in another, sharing one store, each had their own "today" — the quota and the budget counted
twice. Real processes race here from two zones 25 hours apart (UTC+14 and UTC−11: their local
dates always differ), on SQLite and PostgreSQL; the budget day is the UTC day
(docs/DECISIONS.md, "One budget day per user").
"""

from __future__ import annotations

import time
from collections import Counter

from tests.support.procs import race

RID = "article:20261202:zones:scene-"
#: POSIX zone rules (no tz database needed): 14 hours ahead of UTC, and 11 hours behind.
AHEAD, BEHIND = "KIR-14", "SST11"


def budget_day(ts: float | None = None) -> str:
    """The UTC day, as the rule says (computed here, not by the code under test)."""
    return time.strftime("%Y-%m-%d", time.gmtime(ts))


def _zones(n: int) -> list[dict[str, str]]:
    return [{"TZ": AHEAD if i % 2 else BEHIND} for i in range(n)]


def _video(i: int) -> list[str]:
    return [
        "submit", "--request-id", f"{RID}{i:02d}", "--kind", "video", "--prompt", f"z{i}",
        "--resolution", "768P",
    ]  # fmt: skip


def test_two_zones_racing_share_one_budget(slate_env, demo_sim, store_url, slate):
    """$0.84 is three 768P videos ($0.28 each): eight processes, half in each zone, make three."""
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_BUDGET_DAILY": "0.84"}
    results = race(env, [_video(i) for i in range(8)], envs=_zones(8))
    outcomes = Counter(out["outcome"] for _c, out in results)
    assert outcomes == {"created": 3, "budget_exceeded": 5}, results
    assert demo_sim.stats()["creates_total"] == 3
    for zone in (AHEAD, BEHIND):  # each zone sees the one window, spent
        quota = slate("quota", env={**env, "TZ": zone})
        assert quota.out["budget"]["spent"] == 0.84, (zone, quota.out)
        assert quota.out["budget"]["remaining"] == 0.0, (zone, quota.out)
    spend = slate("spend", "--by", "day", env={**env, "TZ": AHEAD})
    days = [g["key"] for g in spend.out["groups"]]
    assert days in ([budget_day()], [budget_day(time.time() - 60)]), spend.out


def test_two_zones_racing_share_one_quota(slate_env, demo_sim, store_url, slate):
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_QUOTA_VIDEO": "2"}
    results = race(env, [_video(i) for i in range(6)], envs=_zones(6))
    outcomes = Counter(out["outcome"] for _c, out in results)
    assert outcomes == {"created": 2, "quota_exceeded": 4}, results
    assert demo_sim.stats()["creates_total"] == 2
    for zone in (AHEAD, BEHIND):
        quota = slate("quota", env={**env, "TZ": zone})
        assert quota.out["quota"]["video"]["used"] == 2, (zone, quota.out)
        assert quota.out["quota"]["day"] in (budget_day(), budget_day(time.time() - 60))
