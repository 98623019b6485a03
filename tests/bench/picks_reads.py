"""The gallery's and the browser's first reads with picks and boards filters on the big store,
SQL only (no window, no media files): what the filters add to a read at 100,000 slots.

A copy of the cached big store (:mod:`tests.bench.bigstore`) gets media rows for the newest
2,500 results of successful slots (paths only) and the gallery benchmark's picks and boards
(:func:`tests.bench.gallery._write_picks`); then each filter's first gallery page (40 slots) and
the browser's first page (projects, the first project's days, the first day's slots) are read
``--runs`` times through ``app.store.gallery`` / ``app.store.queries``; the median and the
worst are printed, with the unfiltered reads beside them.

``python -m tests.bench.picks_reads [--slots 100000] [--runs 5]`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.common import bench_dir, emit, ms
from tests.bench.gallery import BOARD, SPARSE, _migrated, _write_picks


def _media_rows(db_path: Path, want: int) -> int:
    db = sqlite3.connect(str(db_path), isolation_level=None)
    ids = db.execute(
        "SELECT id FROM tasks WHERE state = 'success' ORDER BY id DESC LIMIT ?", (want,)
    ).fetchall()
    now = time.time()
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO media (task_id, position, path, sha256, bytes, content_type, width, "
        "height, verified_at) VALUES (?, 0, ?, 'h', 1, 'image/png', 640, 360, ?)",
        [(i, f"m/{i}.png", now) for (i,) in ids],
    )
    db.execute("COMMIT")
    db.close()
    return len(ids)


def run(slots: int, runs: int) -> dict[str, Any]:
    from app.store import gallery, queries
    from app.store.engine import make_engine
    from app.store.rows import Scope, SlotFilter
    from tests.bench.bigstore import build

    facts = build(slots, 1)
    with tempfile.TemporaryDirectory(prefix="slate-bench-picks-", dir=bench_dir()) as tmp:
        db = Path(tmp) / "slate.sqlite3"
        src, dst = sqlite3.connect(facts["path"]), sqlite3.connect(str(db))
        src.backup(dst)
        src.close()
        dst.close()
        media = _media_rows(_migrated(db), 2500)
        picks = _write_picks(db)
        engine = make_engine(f"sqlite:///{db}")
        try:
            with engine.connect() as conn:
                row = conn.exec_driver_sql(
                    "SELECT tenant, user_hash, provider, endpoint FROM tasks LIMIT 1"
                ).one()
                boards = dict(conn.exec_driver_sql("SELECT name, id FROM boards").all())
            scope = Scope(*row)
            filters = {
                "none": SlotFilter(),
                "favourite": SlotFilter(pick="favourite"),
                "unrejected": SlotFilter(pick="unrejected"),
                "rating_4": SlotFilter(min_rating=4),
                "board": SlotFilter(board=boards[BOARD]),
                "sparse_board": SlotFilter(board=boards[SPARSE]),
            }

            def browser(flt: Any) -> int:
                groups = queries.projects(engine, scope, flt)
                if not groups:
                    return 0
                days = queries.days(engine, scope, flt, groups[0].key)
                return len(queries.slots(engine, scope, flt, groups[0].key, days[0].key))

            out: dict[str, Any] = {}
            for name, flt in filters.items():
                times: dict[str, list[float]] = {"gallery": [], "browser": []}
                found = {}
                for _ in range(runs):
                    t0 = time.perf_counter()
                    found["gallery"] = len(gallery.results(engine, scope, flt, limit=40))
                    t1 = time.perf_counter()
                    found["browser"] = browser(flt)
                    t2 = time.perf_counter()
                    times["gallery"].append(t1 - t0)
                    times["browser"].append(t2 - t1)
                out[name] = {
                    f"{k}_{stat}_ms": ms(fn(v))
                    for k, v in times.items()
                    for stat, fn in (("median", statistics.median), ("max", max))
                } | {f"{k}_rows": n for k, n in found.items()}
        finally:
            engine.dispose()
    return {"slots": facts["slots"], "media_rows": media, "picks": picks, "filters": out}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--slots", type=int, default=100_000)
    p.add_argument("--runs", type=int, default=5)
    ns = p.parse_args(argv)
    emit(run(ns.slots, ns.runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
