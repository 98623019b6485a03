"""The Spend view's numbers equal ``slate spend`` (run as the command, over the same store):
today, this week, all time, per day, per project and per model, estimate and reported."""

from __future__ import annotations

import json
import os
from decimal import Decimal
from pathlib import Path

from app.domain.cost import format_money
from app.ui.spend import SpendDialog
from tests.support.fixtures import slate_in_process

ROOT = Path(__file__).resolve().parents[2]


def slate_spend(gui, tmp_path, *args, human=False):
    env = dict(
        os.environ,
        SLATE_DATA_DIR=str(gui.config.data_dir),
        SLATE_PROVIDER="demo",
        SLATE_BASE_URL=gui.sim.base_url,
        SLATE_TENANT="studio-a",
        SLATE_USER="lin",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    proc = slate_in_process(env, "spend", *([] if human else ["--json"]), *args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout if human else json.loads(proc.stdout)


def text(amount, currency):
    return "—" if amount is None else format_money(Decimal(str(amount)), currency)


def estimate_text(total, currency):
    """An estimate as the view words it: the sum, or the known part and how many are unknown."""
    if total["estimate"] is not None:
        return text(total["estimate"], currency)
    if not total["known_estimate"] and total["unknown_slots"] >= total["slots"]:
        return f"unknown ({total['unknown_slots']} without a price)"
    return f"{text(total['known_estimate'], currency)} + {total['unknown_slots']} unknown"


def test_the_spend_view_equals_slate_spend(gui, make_window, tmp_path):
    svc = gui.other_service()
    gui.run(
        svc.submit(
            "article:20260816:tide-eye:scene-01",
            "video",
            {"model": "MiniMax-H3", "prompt": "tide eye", "duration": 8},
            wait=True,
        ),
        timeout=40,
    )
    gui.run(
        svc.submit(
            "article:20260816:tide-eye:scene-02",
            "video",
            {"prompt": "waves", "resolution": "768P"},
            wait=True,
        ),
        timeout=40,
    )
    gui.run(
        svc.submit(
            "article:20260816:harbor:still-01", "image", {"prompt": "a harbor", "n": 2}, wait=True
        ),
        timeout=40,
    )
    gui.sim.config.processing = 60.0  # one still generating: counted at its estimate
    gui.run(
        svc.submit(
            "article:20260816:harbor:scene-01",
            "video",
            {"model": "MiniMax-H3-Max", "prompt": "harbor", "duration": 10},
        )
    )
    window = make_window()
    window.top_bar.spend_button.click()
    dialog = gui.until(
        lambda: isinstance(window.dialog, SpendDialog) and window.dialog, what="the Spend view"
    )
    gui.until(dialog.loaded, what="all figures")
    queries = dialog.queries()

    for key in ("today", "week", "all"):
        args = [a for k, v in queries[key].items() for a in (f"--{k}", v)]
        js = slate_spend(gui, tmp_path, *args)
        value, detail = dialog.cards[key]
        cur = js["currency"]
        assert value.text() == estimate_text(js["total"], cur), key
        said = slate_spend(gui, tmp_path, *args, human=True)  # the same sentence, word for word
        assert f"  {value.text()} · {detail.text()}\n" in said, (said, key)
        assert js["total"]["known_estimate"] > 0
        assert f"{js['total']['slots']} slots" in detail.text()
        assert js["total"]["slots"] == 4
        assert text(js["total"]["reported"], cur) in detail.text()
        assert f"({js['total']['reported_slots']} slots)" in detail.text()

    for key in ("day", "project", "model"):
        args = [a for k, v in queries[key].items() for a in (f"--{k}", v)]
        js = slate_spend(gui, tmp_path, *args)
        cur = js["currency"]
        table = dialog.tables[key]
        rows = [
            [table.topLevelItem(i).text(c) for c in range(4)]
            for i in range(table.topLevelItemCount())
        ]
        expected = [
            [
                g["key"] or "(no project)",
                str(g["slots"]),
                estimate_text(g, cur),
                text(g["reported"], cur),
            ]
            for g in js["groups"]
        ]
        assert rows == expected, key
        assert len(dialog.charts[key].bars) == len(js["groups"])
    assert {
        r[0]
        for r in [
            [dialog.tables["project"].topLevelItem(i).text(0)]
            for i in range(dialog.tables["project"].topLevelItemCount())
        ]
    } == {"tide-eye", "harbor"}


def test_a_group_of_unknown_price_is_never_drawn_as_a_zero_bar(gui, make_window):
    """Issue 33 point 1: a song (music-2.6: no price in the table) beside a priced clip. The
    per-model chart says the song's group is unknown (an outline, its figure "unknown"), never
    "$0.00"; the clip's bar says its price."""
    svc = gui.other_service()
    song = {"prompt": "a harbor at dawn", "instrumental": True}
    gui.run(svc.submit("article:20260816:harbor:song-01", "music", song, wait=True), timeout=40)
    clip = {"prompt": "waves", "resolution": "768P"}
    gui.run(svc.submit("article:20260816:harbor:scene-01", "video", clip, wait=True), timeout=40)
    window = make_window()
    window.top_bar.spend_button.click()
    dialog = gui.until(
        lambda: isinstance(window.dialog, SpendDialog) and window.dialog, what="the Spend view"
    )
    gui.until(dialog.loaded, what="all figures")
    chart = dialog.charts["model"]
    bars = {b.label: b for b in chart.bars}
    assert bars["music-2.6"].all_unknown
    assert bars["music-2.6"].said == "unknown (1 without a price)"
    assert "$0.00" not in chart.accessibleDescription()
    [priced] = [b for label, b in bars.items() if label != "music-2.6"]
    assert not priced.all_unknown and priced.said.startswith("$") and priced.known > 0
    chart.resize(420, 170)
    assert not chart.grab().isNull()  # it paints both kinds of bar
