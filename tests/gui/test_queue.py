"""Progress and queue: an estimate learned from this designer's own past tasks of the same model,
resolution and duration (median, shown as a range), and the queue panel's groups."""

from __future__ import annotations

import re
import time

import pytest

from app.ui.progress import estimate
from app.ui.qt import Qt
from tests.gui.bulk import insert_slot
from tests.gui.conftest import shown

RUNNING = "article:20260816:tide-eye:scene-05"


def past(gui, n: int, took: list[float], **params) -> None:
    """``n`` successful tasks that took ``took[i]`` seconds, written as another process would."""
    from sqlalchemy import update

    from app.store.models import tasks

    now = time.time()
    for i in range(n):
        rid = f"article:20260801:past:scene-{i:02d}-{params.get('resolution', 'x')}"
        tid = insert_slot(gui.service, rid, "success", created_at=now - 3600 - i * 60)
        with gui.service.store.engine.begin() as conn:
            row = conn.execute(tasks.select().where(tasks.c.id == tid)).mappings().one()
            merged = {**row["params"], **params}
            conn.execute(
                update(tasks)
                .where(tasks.c.id == tid)
                .values(params=merged, updated_at=row["created_at"] + took[i])
            )


def test_the_estimate_is_a_median_with_the_middle_half_as_range():
    e = estimate([60, 70, 80, 90, 300])
    assert e.median == 80 and e.low == 70 and e.high == 90 and e.samples == 5
    assert estimate([50]) is None  # one task says nothing
    assert estimate([50, 70]).low == 50 and estimate([50, 70]).high == 70
    assert e.fraction(40) == pytest.approx(0.5) and e.fraction(1000) == 0.99
    assert e.left(75) == (0, 15)


def test_a_running_slot_shows_the_time_its_like_usually_takes(gui, make_window):
    # five past 768P / 6 s tasks of the same model (one slow outlier), and others that must
    # not count: another resolution
    past(gui, 5, [60, 70, 80, 90, 600], resolution="768P", duration=6)
    past(gui, 3, [500, 500, 500], resolution="1080P", duration=6)
    created = time.time() - 30
    insert_slot(gui.service, RUNNING, "processing", provider_task_id="t-5", created_at=created)
    from sqlalchemy import update

    from app.store.models import tasks

    with gui.service.store.engine.begin() as conn:
        row = conn.execute(tasks.select().where(tasks.c.request_id == RUNNING)).mappings().one()
        conn.execute(
            update(tasks)
            .where(tasks.c.id == row["id"])
            .values(params={**row["params"], "resolution": "768P", "duration": 6})
        )
    window = make_window(start=False)
    window.select(RUNNING)
    gui.until(lambda: shown(window, RUNNING), what="running slot")
    banner = window.slot_pane.banner
    gui.until(lambda: banner.estimate is not None, what="estimate")
    assert banner.estimate.median == 80 and banner.estimate.samples == 5
    text = banner.progress.text()
    value = banner.bar.value()
    ran = time.time() - created  # at least 30 s; more on a busy machine
    assert "usually 1:10–1:30 (from your last 5 like it)" in text, text
    # the time left counts down to the usual range's end (1:30): 1:00 when 30 s ran
    left = re.search(r"about (\d+):(\d\d) left", text)
    assert left is not None, text
    seconds = int(left.group(1)) * 60 + int(left.group(2))
    assert 90 - ran - 1 <= seconds <= 60, (text, ran)
    assert banner.bar.isVisible() and banner.bar.maximum() == 1000
    assert 1000 * 30 / 80 - 5 <= value <= 1000 * ran / 80 + 5, (value, ran)  # 30 s of 80 s


def test_no_estimate_without_past_tasks_like_it(gui, make_window):
    insert_slot(gui.service, RUNNING, "processing", provider_task_id="t-5")
    window = make_window(start=False)
    window.select(RUNNING)
    gui.until(lambda: shown(window, RUNNING), what="running slot")
    banner = window.slot_pane.banner
    gui.until(lambda: "no estimate yet" in banner.progress.text(), what="said")
    assert banner.bar.isVisible() and banner.bar.maximum() == 0  # moving, not measuring


def in_flight_three_ways(gui) -> None:
    """One slot generating, one queued at the provider, one waiting for the rate limit."""
    insert_slot(gui.service, RUNNING, "processing", provider_task_id="t-5")
    insert_slot(
        gui.service, "article:20260816:tide-eye:scene-06", "queueing", provider_task_id="t-6"
    )
    sending = "article:20260816:tide-eye:scene-07"
    insert_slot(gui.service, sending, "submitting")
    from app.domain.slots import SlotRef

    ref = SlotRef.parse(gui.service.tenant, gui.service.user, sending)
    task = gui.run(gui.service.store.slot(gui.service.scope, ref.slot_key))
    gui.run(
        gui.service.store.add_event(
            gui.service.scope,
            ref.slot_key,
            task.id,
            "rate_limited",
            state=task.state,
            detail="1002 rate limit; sending again in 2.0 s",
        )
    )


def test_the_queue_panel_groups_what_runs_and_is_open_at_start(gui, make_window):
    in_flight_three_ways(gui)
    insert_slot(gui.service, "article:20260816:tide-eye:still-01", "success")
    window = make_window(start=False)
    queue = window.queue
    gui.until(lambda: queue.isVisible(), what="queue open at start")
    queue.refresh()
    gui.until(lambda: len(queue.entries) == 3, what="three in flight")
    tree = queue.tree
    texts = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    assert texts[0] == "Generating at the provider · 1" and texts[1].startswith("scene-05 · 0:")
    assert "Queued at the provider · 1" in texts and "Waiting for the rate limit · 1" in texts
    assert not any("still-01" in t for t in texts)  # done: not in the queue
    row = next(
        tree.topLevelItem(i)
        for i in range(tree.topLevelItemCount())
        if tree.topLevelItem(i).text(0).startswith("scene-06")
    )
    queue._activated(row)
    gui.until(lambda: shown(window, "article:20260816:tide-eye:scene-06"), what="slot shown")
    # always reachable: the top bar's button and a shortcut close and open it
    window.top_bar.queue_button.click()
    assert not queue.isVisible()
    window.shortcut_actions["queue"].trigger()
    assert queue.isVisible() and window.top_bar.queue_button.isChecked()


def _heads(queue) -> list[str]:
    tree = queue.tree
    return [
        tree.topLevelItem(i).text(0)
        for i in range(tree.topLevelItemCount())
        if not tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole)
    ]


def test_the_queue_panel_and_the_status_bar_say_the_same_slots_at_every_refresh(gui, make_window):
    in_flight_three_ways(gui)
    window = make_window(start=False)
    queue, bar = window.queue, window.status_pane.running_label
    seen = []  # (status bar, panel's count, panel's groups) right after each status arrived
    window.controller.statusChanged.connect(
        lambda _s: seen.append((bar.text(), queue.count(), _heads(queue)))
    )
    gui.until(lambda: queue.isVisible(), what="queue open at start")
    window.controller.refresh_status_soon()
    gui.until(lambda: seen and seen[-1][1] == 3, what="a status with the three")
    assert seen[-1][:2] == ("3 running", 3)
    assert seen[-1][2] == [
        "Generating at the provider · 1",
        "Queued at the provider · 1",
        "Waiting for the rate limit · 1",
    ]
    rows = [queue.tree.topLevelItem(i) for i in range(queue.tree.topLevelItemCount())]
    assert rows[1].data(0, Qt.ItemDataRole.UserRole) == RUNNING  # under "Generating"
    # a slot started elsewhere, one that ends: the two say it together, at the same refresh
    insert_slot(
        gui.other_service(),
        "article:20260816:tide-eye:scene-08",
        "processing",
        provider_task_id="t-8",
    )
    window.controller.refresh_status_soon()  # (a read begun before may still say three)
    gui.until(lambda: seen[-1][1] == 4, what="a status with the fourth")
    assert seen[-1][:2] == ("4 running", 4)
    assert seen[-1][2][0] == "Generating at the provider · 2"
    assert all(text == f"{count} running" for text, count, _ in seen), seen


def test_past_its_rows_the_panel_says_how_many_more(gui, make_window):
    from app.ui.controller import QUEUE_LIMIT

    for i in range(QUEUE_LIMIT + 2):
        insert_slot(
            gui.service,
            f"article:20260816:many:scene-{i:02d}",
            "processing",
            provider_task_id=f"t-{i}",
        )
    window = make_window(start=False)
    queue = window.queue
    gui.until(lambda: queue.count() == QUEUE_LIMIT + 2, what="the queue")
    assert len(queue.entries) == QUEUE_LIMIT
    assert window.status_pane.running_label.text() == f"{QUEUE_LIMIT + 2} running"
    assert _heads(queue)[-1] == "and 2 more"
