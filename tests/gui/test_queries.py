"""The slot browser's read-side queries on every backend: slots are grouped by the designer's local
day — this machine's time zone, daylight saving included — never the database server's."""

from __future__ import annotations

import datetime as dt
import time
from typing import Iterator

import pytest

from app.domain.days import local_day
from app.store import queries
from app.store.rows import SlotFilter
from tests.gui.bulk import insert_slot

#: Far from UTC and from any server's zone; +12:45 in (southern) winter, +13:45 in summer.
ZONE = "Pacific/Chatham"


@pytest.fixture
def local_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("TZ", ZONE)
    time.tzset()
    try:
        yield ZONE
    finally:
        monkeypatch.undo()
        time.tzset()


def local(*args: int) -> float:
    return dt.datetime(*args).timestamp()  # naive = this machine's local time (TZ above)


async def test_days_are_the_designers_local_days_on_every_backend(harness, local_zone):
    service = harness.service
    stamps = {
        "article:20260815:tide-eye:late-winter": local(2026, 8, 15, 23, 50),
        "article:20260816:tide-eye:early-winter": local(2026, 8, 16, 0, 10),  # UTC: still the 15th
        "article:20261130:tide-eye:late-summer": local(2026, 11, 30, 23, 55),
        "article:20261201:tide-eye:early-summer": local(2026, 12, 1, 0, 5),  # UTC: still the 30th
    }
    for rid, ts in stamps.items():
        insert_slot(service, rid, "success", created_at=ts)
    engine, scope = harness.store.engine, service.scope

    groups = queries.days(engine, scope, SlotFilter(), "tide-eye")
    assert [(g.key, g.count) for g in groups] == [
        ("2026-12-01", 1),
        ("2026-11-30", 1),
        ("2026-08-16", 1),
        ("2026-08-15", 1),
    ]
    # each day lists exactly the slots it counts, and a slot's day is the group it sits in
    for g in groups:
        rows = queries.slots(engine, scope, SlotFilter(), "tide-eye", g.key)
        assert len(rows) == g.count
        assert all(r.day == g.key for r in rows)
        assert {r.request_id for r in rows} == {
            rid for rid, ts in stamps.items() if local_day(ts) == g.key
        }
    # keyset paging by day continues below the last day seen
    rest = queries.days(engine, scope, SlotFilter(), "tide-eye", after="2026-11-30")
    assert [g.key for g in rest] == ["2026-08-16", "2026-08-15"]
    page = queries.days(engine, scope, SlotFilter(), "tide-eye", limit=1)
    assert [g.key for g in page] == ["2026-12-01"]


def test_local_offsets_follow_daylight_saving(local_zone):
    winter, summer = local(2026, 8, 1, 12, 0), local(2026, 12, 1, 12, 0)
    offsets = queries.local_offsets(winter, summer)
    assert [off for _, off in offsets] == [12 * 3600 + 45 * 60, 13 * 3600 + 45 * 60]
    change = offsets[1][0]  # the exact second daylight saving began
    assert time.localtime(change - 1).tm_gmtoff != time.localtime(change).tm_gmtoff
