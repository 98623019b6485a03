"""``python -m tests.bench [--quick] [--only GROUPS] [--pretty] [--compare FILE] [--save FILE]``:
run the benchmarks, print one JSON object (with ``--compare``, each figure beside an earlier run's, e.g. docs/bench-last.json).

Groups (each runs in its own child process, in this order): ``submit`` (figures 1-2),
``race`` (3), ``polling`` (6-7), ``gui`` (4, 5, 8), ``spend`` (9), ``gallery`` (the results
gallery: first thumbnails, scrolling, the thumbnail cache build, RSS). ``--quick`` is a smoke run
with small sizes (about 40 s); its figures are not comparable with the targets. The full run
takes a few minutes (plus a minute or two once to build the cached 100k stores).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sqlite3
import sys
import time
from typing import Any

from tests.bench import FIGURES, GROUPS
from tests.bench.common import emit, load_average, run_child

FULL = {
    "submit": ["--rounds", "8", "--ops", "100"],
    "race": ["--procs", "16", "--keys", "100"],
    "polling": ["--tasks", "1000", "--seconds", "30", "--idle-seconds", "3"],
    "polling_stress": ["--tasks", "1000", "--seconds", "15", "--idle-seconds", "1", "--rps", "50"],
    "gui": ["--slots", "100000", "--runs", "3"],
    "spend": ["--slots", "100000", "--runs", "5", "--claims", "200"],
    "gallery": ["--slots", "100000", "--results", "1000"],
}
QUICK = {
    "submit": ["--rounds", "2", "--ops", "30"],
    "race": ["--procs", "4", "--keys", "20"],
    "polling": ["--tasks", "200", "--seconds", "4", "--idle-seconds", "0.5"],
    "gui": ["--slots", "2000", "--runs", "1"],
    "spend": ["--slots", "2000", "--runs", "1", "--claims", "10"],
    "gallery": [
        "--slots",
        "2000",
        "--results",
        "200",
        "--idle-seconds",
        "0.5",
        "--media-per-result",
        "1.25",
    ],
}
MODULES = {
    "submit": "tests.bench.submit_cost",
    "race": "tests.bench.race",
    "polling": "tests.bench.polling",
    "polling_stress": "tests.bench.polling",
    "gui": "tests.bench.gui",
    "spend": "tests.bench.spend",
    "gallery": "tests.bench.gallery",
}
TIMEOUTS = {
    "submit": 300,
    "race": 300,
    "polling": 240,
    "polling_stress": 180,
    "gui": 600,
    "spend": 900,
    "gallery": 900,
}


def met(value: Any, target: str, cap: float | None = None) -> bool | None:
    if not isinstance(value, (int, float)):
        return None
    op, _, bound_text = target.partition(" ")
    bound = cap if bound_text == "cap" else float(bound_text)
    if bound is None:
        return None
    return {"<=": value <= bound, "<": value < bound, "==": value == bound}[op]


def figures_from(details: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The headline figures, each with its target and whether it was met in this run."""
    sub = details.get("submit", {})
    race = details.get("race", {})
    poll = details.get("polling", {})
    gui = details.get("gui", {})
    spend = details.get("spend", {})
    gallery = details.get("gallery", {})
    values: dict[str, tuple[Any, dict[str, Any]]] = {
        "submit_claim_ratio": (
            sub.get("claim_ratio"),
            {
                "claim_median_ms": sub.get("claim", {}).get("median_ms"),
                "raw_insert_median_ms": sub.get("raw_median_ms"),
            },
        ),
        "replay_ratio": (
            sub.get("replay_ratio"),
            {
                "replay_median_ms": sub.get("replay", {}).get("median_ms"),
                "raw_insert_median_ms": sub.get("raw_median_ms"),
            },
        ),
        "race_creates": (
            race.get("creates_total"),
            {
                "made_total": race.get("made_total"),
                "submits": race.get("submits"),
                "procs": race.get("procs"),
                "keys": race.get("keys"),
            },
        ),
        "race_submit_p99_ms": (
            race.get("p99_ms"),
            {
                "median_ms": race.get("latency", {}).get("median_ms"),
                "max_ms": race.get("latency", {}).get("max_ms"),
                "creates_p99_ms": race.get("latency_by_outcome", {})
                .get("created", {})
                .get("p99_ms"),
                "replays_p99_ms": race.get("latency_by_outcome", {})
                .get("replayed", {})
                .get("p99_ms"),
                # the same race on the stdlib alone, same run (tests/bench/race.py: floor)
                "floor_p99_ms": race.get("floor_p99_ms"),
                "floor_flock_p99_ms": race.get("floor_flock", {}).get("p99_ms"),
            },
        ),
        "history_first_rows_ms": (
            gui.get("first_rows_ms"),
            {
                "first_slot_rows_after_ms": gui.get("first_slots_after_rows_ms"),
                "slots": gui.get("store", {}).get("slots"),
                "events": gui.get("store", {}).get("events"),
            },
        ),
        "history_filter_text_ms": (
            gui.get("filter_text_ms"),
            {
                "no_match_ms": gui.get("filter_text_no_match_ms"),
                "to_first_slot_rows_ms": gui.get("filter_text_to_slots_ms"),
                "debounce_ms_not_included": gui.get("search_debounce_ms"),
            },
        ),
        "gui_rss_mb": (gui.get("rss_mb"), {"peak_rss_mb": gui.get("peak_rss_mb")}),
        "poll_loop_lag_p99_ms": (
            poll.get("lag_p99_ms"),
            {"idle_p99_ms": poll.get("idle", {}).get("p99_ms"), "tasks": poll.get("tasks")},
        ),
        "poll_loop_lag_max_ms": (
            poll.get("lag_max_ms"),
            {"idle_max_ms": poll.get("idle", {}).get("max_ms")},
        ),
        "poll_max_requests_per_second": (
            poll.get("max_requests_per_second"),
            {
                "cap": poll.get("rps_cap"),
                "client_side": poll.get("client_max_per_second"),
                "server_side": poll.get("server_max_per_second"),
            },
        ),
        "cold_start_s": (
            gui.get("cold_start_s"),
            {
                "to_first_slot_rows_s": gui.get("cold_start_to_slots_s"),
                "floor_s": gui.get("cold_start_floor_s"),  # a bare Qt window, same minutes
                "over_floor": gui.get("cold_start_over_floor"),
            },
        ),
        "spend_100k_ms": (
            spend.get("spend_ms"),
            {
                "slots": spend.get("slots"),
                "legacy_first_spend_ms": spend.get("legacy_first_spend", {}).get("ms"),
                "budget_today_ms": spend.get("stored", {}).get("budget_today", {}).get("median_ms"),
                "claim_with_budget_ratio": spend.get("claim_budget_ratio"),
            },
        ),
        "gallery_first_thumbnails_ms": (
            gallery.get("first_thumbnails_ms"),
            {
                "warm_cache_ms": gallery.get("first_thumbnails_warm_ms"),
                "tiles": gallery.get("first_thumbnails_cold", {}).get("tiles"),
                "first_page_ms": gallery.get("first_thumbnails_cold", {}).get("first_page_ms"),
            },
        ),
        "gallery_filtered_first_thumbnails_ms": (
            gallery.get("filtered_first_thumbnails_ms"),
            {
                name: {"ms": f.get("ms"), "first_page_ms": f.get("first_page_ms")}
                for name, f in (gallery.get("filtered") or {}).items()
            },
        ),
        "gallery_scroll_lag_p99_ms": (
            gallery.get("scroll_lag_p99_ms"),
            {
                "results_scrolled": gallery.get("scroll", {}).get("results_scrolled"),
                "idle_baseline_p99_ms": gallery.get("idle_lag_p99_ms"),
            },
        ),
        "gallery_scroll_lag_max_ms": (
            gallery.get("scroll_lag_max_ms"),
            {"idle_baseline_max_ms": gallery.get("idle_lag_max_ms")},
        ),
        "gallery_cache_build_lag_p99_ms": (
            gallery.get("cache_build_lag_p99_ms"),
            {
                "build_s": gallery.get("cache_build_s"),
                "thumbnails": gallery.get("cache_build", {}).get("thumbnails"),
                "lag_max_ms": gallery.get("cache_build_lag_max_ms"),
                "idle_baseline_p99_ms": gallery.get("idle_lag_p99_ms"),
            },
        ),
        "gallery_rss_mb": (
            gallery.get("rss_mb"),
            {
                "peak_rss_mb": gallery.get("peak_rss_mb"),
                "thumbnail_workers_rss_mb": gallery.get("workers_rss_mb"),
                "thumbnail_workers_pss_mb": gallery.get("workers_pss_mb"),
            },
        ),
    }
    out: dict[str, dict[str, Any]] = {}
    for key, (group, unit, target) in FIGURES.items():
        value, extra = values[key]
        if key == "race_creates" and race.get("keys"):
            target = f"== {race['keys']}"
        entry: dict[str, Any] = {
            "value": value,
            "unit": unit,
            "target": target,
            "met": met(value, target, poll.get("rps_cap")),
        }
        entry.update({k: v for k, v in extra.items() if v is not None})
        g = details.get(group)
        if g is None:
            entry["skipped"] = True
        elif "error" in g:
            entry["error"] = g["error"]
        out[key] = entry
    return out


def code_state() -> dict[str, Any]:
    """The commit measured, and which files under app/ differed from it (work in progress)."""
    import subprocess

    from tests.bench.common import ROOT

    def git(*args: str) -> str:
        try:
            return subprocess.run(
                ["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError):
            return ""

    dirty = [ln[3:] for ln in git("status", "--porcelain", "--", "app").splitlines() if ln]
    return {
        "commit": git("rev-parse", "--short", "HEAD").strip() or None,
        "uncommitted_app_files": dirty,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a smoke run with small sizes (~30 s)")
    p.add_argument(
        "--only",
        default=",".join(GROUPS),
        help=f"comma-separated groups to run: {', '.join(GROUPS)} (default: all)",
    )
    p.add_argument("--no-stress", action="store_true", help="skip the 50 req/s polling pass")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.add_argument(
        "--compare",
        metavar="FILE",
        help="an earlier run's JSON (e.g. docs/bench-last.json): each figure beside it",
    )
    p.add_argument("--save", metavar="FILE", help="also write this run's JSON to FILE")
    ns = p.parse_args(argv)
    last = None
    if ns.compare:  # read before the run: a bad file is said at once, not after minutes
        try:
            last = load_run(ns.compare)
        except ValueError as exc:
            p.error(str(exc))
    groups = [g.strip() for g in ns.only.split(",") if g.strip()]
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        p.error(f"unknown group(s) {', '.join(unknown)}; choose from {', '.join(GROUPS)}")
    plan = QUICK if ns.quick else FULL
    started = time.time()
    load_start = load_average()
    details: dict[str, dict[str, Any]] = {}
    for group in GROUPS:
        if group not in groups:
            continue
        details[group] = run_child(MODULES[group], plan[group], timeout=TIMEOUTS[group])
        if group == "polling" and "polling_stress" in plan and not ns.no_stress:
            details["polling_stress"] = run_child(
                MODULES["polling_stress"],
                plan["polling_stress"],
                timeout=TIMEOUTS["polling_stress"],
            )
    try:
        from importlib.metadata import version

        qt_version: str | None = version("PySide6")
    except Exception:  # noqa: BLE001 - informative only
        qt_version = None
    result = {
        "bench": "slate",
        "command": "python -m tests.bench " + " ".join(argv if argv is not None else sys.argv[1:]),
        "quick": ns.quick,
        "groups": groups,
        "started_at": dt.datetime.fromtimestamp(started).isoformat(timespec="seconds"),
        "elapsed_s": round(time.time() - started, 1),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "sqlite": sqlite3.sqlite_version,
            "pyside6": qt_version,
            "load_average_start": load_start,
            "load_average_end": load_average(),
            "note": "a shared VM: other work (other test runs) may run at the same time; "
            "ratios are measured within one run, interleaved",
        },
        "code": code_state(),
        "figures": figures_from(details),
        "details": details,
    }
    if last is not None:
        result["compare"] = compare(result, last, ns.compare)
    if ns.save:
        import json

        with open(ns.save, "w", encoding="utf-8") as f:
            f.write(json.dumps(result, indent=2) + "\n")
    if ns.pretty:
        import json

        sys.stdout.write(json.dumps(result, indent=2, sort_keys=False) + "\n")
    else:
        emit(result)
    return 0


def load_run(path: str) -> dict[str, Any]:
    """An earlier run's JSON, checked enough to compare with (a clear error naming the file)."""
    import json

    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise ValueError(f"--compare: cannot read {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"--compare: {path} is not JSON ({exc.msg}, line {exc.lineno})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("figures"), dict):
        raise ValueError(f'--compare: {path} holds no benchmark figures (no "figures" object)')
    return data


def compare(now: dict[str, Any], last: dict[str, Any], path: str) -> dict[str, Any]:
    """Each figure of this run beside the same figure of ``last``: both values, the ratio
    (now ÷ last) and whether the target was met then and now. Runs of different sizes (a
    ``--quick`` run against a full one) are compared but marked ``comparable: false``."""
    rows: dict[str, Any] = {}
    before = last.get("figures", {})
    for key, entry in now.get("figures", {}).items():
        old = before.get(key, {}) if isinstance(before.get(key), dict) else {}
        a, b = entry.get("value"), old.get("value")
        ratio = None
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b:
            ratio = round(a / b, 3)
        rows[key] = {
            "now": a,
            "last": b,
            "ratio": ratio,
            "unit": entry.get("unit"),
            "met_now": entry.get("met"),
            "met_last": old.get("met"),
        }
    return {
        "file": path,
        "last_commit": (last.get("code") or {}).get("commit"),
        "last_started_at": last.get("started_at"),
        "last_load_average_start": (last.get("machine") or {}).get("load_average_start"),
        "comparable": bool(now.get("quick")) == bool(last.get("quick")),
        "figures": rows,
    }


if __name__ == "__main__":
    raise SystemExit(main())
