"""Profiles of the figures issue 34 missed, written under ``docs/profiles/`` (pyinstrument).

``python -m tests.bench.profiles [--out docs/profiles]`` writes:

* ``cold-start.txt`` — ``slate gui`` on the cached 100k-slot store, from the first line of the
  process to the first rows of the slot tree (the bench's "cold start"); the profiler starts
  before anything of Slate is imported and stops on the first rows.
* ``claim.txt`` — 2,000 fresh claims (``Store.claim_blocking``, as the submit bench times them).
* ``replay.txt`` — 2,000 replays (``await SlateService.submit`` of existing slots).
* ``text-filter.txt`` — the slot browser's text filter on the cached 100k-slot store, as the gui
  bench applies it (``Probe.apply_text``): the window's thread while each filter is applied
  (from the clear list), the projects read in its worker thread, and the floor — the same
  statement on a bare ``sqlite3`` connection.
* ``race.txt`` — the 16 × 100 race: one worker's loop, where every create's time went (the
  writers' lock: waiting, holding; HTTP; journal; the rest) and the stdlib floor, same run.

Each file begins with what was measured and how; pyinstrument's text tree follows. Needs
``pip install pyinstrument`` (not a test dependency: these are read, not asserted).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.common import ROOT, app_env, compiled, run_dir

INTERVAL = 0.0005  # seconds between samples


def _text(profiler: Any) -> str:
    return str(profiler.output_text(unicode=True, color=False, show_all=False))


def _write(out: Path, name: str, head: str, body: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / name).write_text(head.rstrip() + "\n\n" + body)
    print(out / name)


# -- cold start ----------------------------------------------------------------------------------
def cold_child(facts: dict[str, Any], dest: str) -> None:
    """In the child: profile from here to the first rows, exactly as the gui bench's child runs
    ``slate gui`` (its probe watches the window)."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=INTERVAL, async_mode="disabled")
    profiler.start()
    t0 = time.time()
    from tests.bench import gui

    original = gui.Probe._first

    def rows(self: Any) -> None:
        original(self)
        if "t_first_rows" in self.out and profiler.is_running:
            profiler.stop()
            Path(dest).write_text(
                json.dumps({"to_first_rows_s": round(self.out["t_first_rows"] - t0, 3)})
                + "\n"
                + _text(profiler)
            )
            self.window.close()

    gui.Probe._first = rows  # type: ignore[method-assign]
    gui.Probe.script = lambda self: asyncio.sleep(0)  # type: ignore[method-assign,assignment,return-value]
    gui.child(facts)


def cold_start(out: Path) -> None:
    from tests.bench.bigstore import build

    facts = build(100_000, 10)
    compiled()
    with tempfile.TemporaryDirectory(prefix="slate-profile-") as tmp:
        dest = Path(tmp) / "profile.txt"
        env = app_env(tmp, facts["data_dir"], facts["store"], facts["tenant"], facts["user"])
        code = (
            "import json, sys; from tests.bench.profiles import cold_child; "
            "cold_child(json.loads(sys.argv[1]), sys.argv[2])"
        )
        t_spawn = time.time()
        proc = subprocess.run(
            [sys.executable, "-c", code, json.dumps(facts), str(dest)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        wall = time.time() - t_spawn
        if not dest.exists():
            raise SystemExit(f"no profile: exit {proc.returncode}\n{proc.stderr[-3000:]}")
        first, _, body = dest.read_text().partition("\n")
    head = (
        f"# Cold start to the first rows (issue 34), profiled\n"
        f"# `python -m tests.bench.profiles` — `slate gui` on the 100k-slot store, offscreen,\n"
        f"# demo provider; the profiler starts before Slate is imported and stops at the first\n"
        f"# rows; sampled every {INTERVAL * 1000:g} ms (the profiler slows the run somewhat).\n"
        f"# In the process: {json.loads(first)['to_first_rows_s']} s to the first rows; "
        f"whole child {wall:.2f} s.\n"
    )
    _write(out, "cold-start.txt", head, body)


# -- claim and replay ----------------------------------------------------------------------------
async def _store_work(out: Path, n: int) -> None:
    from pyinstrument import Profiler

    from app.service.results import OutcomeKind
    from tests.bench.submit_cost import KIND, make_service, params_for, prepare_claim, request_id

    workdir = run_dir("profiles")
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    try:
        svc = make_service(workdir, f"sqlite:///{(workdir / 'c.sqlite3').as_posix()}")
        keys = range(100)
        for i in keys:
            claim = svc.store.claim_blocking(prepare_claim(svc, i))
            svc.store.repo.transition(
                claim.task,  # type: ignore[arg-type]
                state="processing",
                provider_task_id=f"t{i}",
                owner_pid=None,
                lease_until=None,
                next_poll_at=time.time() + 3600,
            )
        for i in keys:  # warm every path
            await svc.submit(request_id(i), KIND, params_for(i))
        requests = [prepare_claim(svc, 1_000_000 + k) for k in range(n)]
        profiler = Profiler(interval=INTERVAL, async_mode="disabled")
        t0 = time.perf_counter()
        profiler.start()
        for req in requests:
            assert svc.store.claim_blocking(req).claimed
        profiler.stop()
        per = (time.perf_counter() - t0) / n * 1000
        _write(
            out,
            "claim.txt",
            f"# {n} fresh claims (Store.claim_blocking with the submit's ClaimRequest, built\n"
            f"# before the profiler started), SQLite WAL synchronous=FULL; {per:.3f} ms each\n"
            f"# under the profiler. `python -m tests.bench.profiles`.\n",
            _text(profiler),
        )
        profiler = Profiler(interval=INTERVAL, async_mode="disabled")
        t0 = time.perf_counter()
        profiler.start()
        for r in range(n // len(keys)):
            for i in keys:
                done = await svc.submit(request_id(i), KIND, params_for(i))
                assert done.kind is OutcomeKind.REPLAYED
        profiler.stop()
        per = (time.perf_counter() - t0) / n * 1000
        _write(
            out,
            "replay.txt",
            f"# {n} replays (await SlateService.submit of 100 existing slots, same parameters),\n"
            f"# SQLite; {per:.3f} ms each under the profiler. `python -m tests.bench.profiles`.\n",
            _text(profiler),
        )
        svc.store.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


# -- the text filter -----------------------------------------------------------------------------
FILTER_ROUNDS = 10


def filter_child(facts: dict[str, Any], dest: str, rounds: int) -> None:
    """In the child: ``slate gui`` as the gui bench runs it; once the start has settled, the
    bench's text is applied ``rounds`` times unprofiled, then ``rounds`` times with the window's
    thread profiled, each from the clear list (the clearing is neither timed nor profiled). The
    unprofiled ones are timed in parts: the filtered projects read in its worker thread (its
    start, wall and CPU), the rows put in the tree (``_arrived``, CPU), and the bench's clock."""
    from pyinstrument import Profiler

    from app.store import queries
    from app.ui.models import SlotTreeModel
    from tests.bench import gui

    marks: dict[str, float] = {}  # this application's moments (perf_counter) and CPU parts
    real = queries.projects

    def projects(*args: Any, **kw: Any) -> Any:
        t, c = time.perf_counter(), time.thread_time()
        try:
            return real(*args, **kw)
        finally:
            if args[2].search:
                marks.update(read_at=t, read_end=time.perf_counter())
                marks["read_cpu"] = time.thread_time() - c

    real_arrived = SlotTreeModel._arrived

    def arrived(model: Any, node: Any, items: Any) -> None:
        c = time.thread_time()
        real_arrived(model, node, items)
        if node.kind == "root":
            marks.update(rows_at=time.perf_counter(), rows_cpu=time.thread_time() - c)

    queries.projects = projects  # type: ignore[assignment]
    SlotTreeModel._arrived = arrived  # type: ignore[method-assign]

    async def script(self: Any) -> None:
        w = self.window
        parts = ("ms", "main_cpu_ms", "to_read_ms", "read_ms", "read_cpu_ms", "rows_cpu_ms")
        out: dict[str, Any] = {k: [] for k in (*parts, "profiled_ms")}
        try:
            await asyncio.wait_for(self.first_rows.wait(), 120)
            await w.controller.runner.settled(60)
            profiler = Profiler(interval=INTERVAL, async_mode="disabled")
            for profiled in [False] * rounds + [True] * rounds:
                await self.apply_text("")
                await asyncio.sleep(0.3)
                marks.clear()
                c, t0 = time.thread_time(), time.perf_counter()
                if profiled:
                    profiler.start()
                got = await apply_text_only(self, self.facts["search_hit"])
                if profiled:
                    profiler.stop()
                    out["profiled_ms"].append(got["ms"])
                else:
                    out["ms"].append(got["ms"])
                    out["main_cpu_ms"].append((time.thread_time() - c) * 1000)
                    out["to_read_ms"].append((marks["read_at"] - t0) * 1000)
                    out["read_ms"].append((marks["read_end"] - marks["read_at"]) * 1000)
                    out["read_cpu_ms"].append(marks["read_cpu"] * 1000)
                    out["rows_cpu_ms"].append(marks["rows_cpu"] * 1000)
                out["groups"] = got["groups"]
                await asyncio.sleep(0.3)
            Path(dest).write_text(json.dumps(out) + "\n" + _text(profiler))
        except Exception as exc:  # noqa: BLE001 - said in the file, the window closed anyway
            Path(dest).write_text(json.dumps({"error": repr(exc)}) + "\n")
        finally:
            w.close()

    async def apply_text_only(probe: Any, text: str) -> dict[str, Any]:
        """The bench's ``apply_text`` up to the filtered rows (not the first slots after)."""
        opened = gui.Probe.open_first
        gui.Probe.open_first = _no_open  # type: ignore[method-assign,assignment]
        try:
            got: dict[str, Any] = await probe.apply_text(text)
            return got
        finally:
            gui.Probe.open_first = opened  # type: ignore[method-assign]

    gui.Probe.script = script  # type: ignore[method-assign,assignment]
    gui.child(facts)


async def _no_open(self: Any, parent: Any) -> float:
    return 0.0


def _floor(facts: dict[str, Any], n: int = 15) -> tuple[dict[str, float], str]:
    """The filtered projects read of the bench's text: as Slate runs it (SQLAlchemy, the store's
    engine), and its statement on a bare ``sqlite3`` connection — new for each read (a cold page
    cache, as the window's first filter has) and kept (warm) — with the trigram index's MATCH
    alone beside it; CPU ms, median of ``n``. Reads only (``query_only``). And pyinstrument's
    profile of Slate's read."""
    import sqlite3
    import statistics

    from pyinstrument import Profiler
    from sqlalchemy import event

    from app.domain.listing import PROJECT_READ
    from app.store import queries
    from app.store.aio import open_store
    from app.store.rows import Scope, SlotFilter

    store = open_store(facts["store"])
    try:
        engine = store.engine
        path = facts["path"]
        with sqlite3.connect(path) as probe:
            (user_hash,) = probe.execute("SELECT user_hash FROM tasks LIMIT 1").fetchone()
        scope = Scope(facts["tenant"], user_hash, "demo", "local")
        flt = SlotFilter(search=facts["search_hit"])
        seen: list[tuple[str, Any]] = []

        def capture(_c: Any, _cur: Any, statement: str, parameters: Any, *_a: Any) -> None:
            seen.append((statement, parameters))

        event.listen(engine, "before_cursor_execute", capture)
        groups = queries.projects(engine, scope, flt, limit=PROJECT_READ)
        event.remove(engine, "before_cursor_execute", capture)
        sql, params = next((q, p) for q, p in seen if "GROUP BY" in q)

        def cpu(fn: Any) -> float:
            times = []
            for _ in range(n):
                c = time.thread_time()
                fn()
                times.append(time.thread_time() - c)
            return round(statistics.median(times) * 1000, 2)

        def bare_cold() -> None:
            conn = sqlite3.connect(path)
            conn.execute("PRAGMA query_only=1")
            assert len(conn.execute(sql, params).fetchall()) == len(groups)
            conn.close()

        kept = sqlite3.connect(path)
        kept.execute("PRAGMA query_only=1")
        match = "SELECT count(*) FROM tasks_text WHERE tasks_text MATCH ?"
        phrase = '"' + flt.search.replace('"', '""') + '"'
        figures = {
            "slate_read_cpu_ms": cpu(
                lambda: queries.projects(engine, scope, flt, limit=PROJECT_READ)
            ),
            "bare_sql_cold_cpu_ms": cpu(bare_cold),
            "bare_sql_warm_cpu_ms": cpu(lambda: kept.execute(sql, params).fetchall()),
            "fts_match_alone_cpu_ms": cpu(lambda: kept.execute(match, (phrase,)).fetchall()),
            "matches": kept.execute(match, (phrase,)).fetchone()[0],
            "groups": len(groups),
        }
        plan = " | ".join(str(r[-1]) for r in kept.execute(f"EXPLAIN QUERY PLAN {sql}", params))
        kept.close()
        profiler = Profiler(interval=INTERVAL, async_mode="disabled")
        profiler.start()
        for _ in range(n):
            queries.projects(engine, scope, flt, limit=PROJECT_READ)
        profiler.stop()
        return figures, f"# its plan: {plan}\n\n" + _text(profiler)
    finally:
        store.close()


def text_filter(out: Path, rounds: int = FILTER_ROUNDS) -> None:
    import statistics

    from tests.bench.bigstore import build

    facts = build(100_000, 10)
    compiled()
    with tempfile.TemporaryDirectory(prefix="slate-profile-") as tmp:
        dest = Path(tmp) / "profile.txt"
        env = app_env(tmp, facts["data_dir"], facts["store"], facts["tenant"], facts["user"])
        code = (
            "import json, sys; from tests.bench.profiles import filter_child; "
            "filter_child(json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3]))"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code, json.dumps(facts), str(dest), str(rounds)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if not dest.exists():
            raise SystemExit(f"no profile: exit {proc.returncode}\n{proc.stderr[-3000:]}")
        first, _, body = dest.read_text().partition("\n")
    got = json.loads(first)
    if "error" in got:
        raise SystemExit(f"the filter's profile failed: {got['error']}")
    floor, read_profile = _floor(facts)

    def med(key: str) -> str:
        return f"{statistics.median(got[key]):.1f}"

    head = (
        f"# The slot browser's text filter (issue 34's history_filter_text_ms), profiled\n"
        f"# `python -m tests.bench.profiles --only filter` — `slate gui` on the 100k-slot store,\n"
        f"# offscreen, demo provider, as the gui bench runs it; the text {facts['search_hit']!r}\n"
        f"# ({floor['matches']} matches, {got['groups']} projects) applied {rounds} times"
        f" unprofiled, then {rounds} times profiled, each from the clear list.\n"
        f"# Unprofiled, medians: applied to filtered rows in (the bench's clock) {med('ms')} ms"
        f" ({min(got['ms']):.1f}-{max(got['ms']):.1f}); of it, to the read's start"
        f" {med('to_read_ms')} ms,\n"
        f"# the projects read {med('read_ms')} ms in its worker thread ({med('read_cpu_ms')} ms"
        f" CPU), the rows put in the tree {med('rows_cpu_ms')} ms CPU, the rest the hops back\n"
        f"# and Qt's layout and paint; the window's thread's CPU in all {med('main_cpu_ms')} ms."
        f" Profiled: {med('profiled_ms')} ms.\n"
        f"# The floor, CPU ms (median of 15, outside the app): Slate's read"
        f" {floor['slate_read_cpu_ms']}; its statement on a bare sqlite3 connection"
        f" {floor['bare_sql_cold_cpu_ms']} (new connection) / {floor['bare_sql_warm_cpu_ms']}"
        f" (kept); the trigram MATCH alone {floor['fts_match_alone_cpu_ms']}.\n"
        f"# Load average at the end: {os.getloadavg()[0]:.2f}.\n"
        f"\n## The window's thread while the filter is applied (sampled every"
        f" {INTERVAL * 1000:g} ms)\n"
    )
    _write(
        out,
        "text-filter.txt",
        head,
        body + "\n## Slate's projects read, 15 times, outside the app\n" + read_profile,
    )


# -- the race ------------------------------------------------------------------------------------
def race(out: Path) -> None:
    """The 16 × 100 race (``tests.bench.race``) with its first worker profiled (pyinstrument,
    async mode: awaits are charged to the line that awaits), the split of each create's time and
    the stdlib floor of the same run."""
    from tests.bench.common import run_child

    compiled()
    dest = Path(tempfile.mkdtemp(prefix="race-profile-")) / "worker0.txt"
    try:
        load = os.getloadavg()
        got = run_child("tests.bench.race", ["--profile", str(dest)], timeout=600)
        tree = dest.read_text() if dest.exists() else "(no profile: " + str(got.get("error")) + ")"
    finally:
        shutil.rmtree(dest.parent, ignore_errors=True)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    by = got.get("latency_by_outcome", {})
    floor_by = got.get("floor", {}).get("latency_by_outcome", {})
    flock_by = got.get("floor_flock", {}).get("latency_by_outcome", {})

    def p(d: dict[str, Any], kind: str, key: str = "p99_ms") -> Any:
        return d.get(kind, {}).get(key)

    split = got.get("create_split", {})
    rows = "\n".join(
        f"#   {k:<10} {v['median_ms']:>9.1f} {v['p99_ms']:>9.1f} "
        f"{split.get('slowest_1pct_mean_ms', {}).get(k, float('nan')):>9.1f}"
        for k, v in split.items()
        if isinstance(v, dict) and "median_ms" in v
    )
    head = (
        f"# The race (16 processes x 100 video submits over the same 100 slots, one SQLite file,\n"
        f"# the demo provider on loopback): `python -m tests.bench.profiles --only race`\n"
        f"# (runs `python -m tests.bench.race --profile FILE`). Commit {commit}; load before the\n"
        f"# run {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} CPUs.\n#\n"
        f"# This run: p99 {got.get('p99_ms')} ms (creates' p99 {p(by, 'created')} ms, median "
        f"{p(by, 'created', 'median_ms')}; replays' p99 {p(by, 'replayed')} ms, median "
        f"{p(by, 'replayed', 'median_ms')}).\n"
        f"# Floor, same run (the same processes, keys and orders on the stdlib alone: one SELECT,\n"
        f"# BEGIN IMMEDIATE/INSERT/COMMIT, a bare HTTP POST, BEGIN IMMEDIATE/UPDATE/COMMIT):\n"
        f"#   SQLite's busy handler: p99 {got.get('floor_p99_ms')} ms (creates' "
        f"{p(floor_by, 'created')}, median {p(floor_by, 'created', 'median_ms')})\n"
        f"#   with an flock queue like Slate's: p99 {got.get('floor_flock', {}).get('p99_ms')} ms "
        f"(creates' {p(flock_by, 'created')}, median {p(flock_by, 'created', 'median_ms')})\n#\n"
        f"# Where each of Slate's creates spent its time (ms; timed in every worker):\n"
        f"#   {'part':<10} {'median':>9} {'p99':>9} {'slow 1%':>9}\n{rows}\n"
        f"# (lock_wait: waiting for the writers' flock; lock_held: inside it, the write\n"
        f"# transactions; http: the create over loopback; journal: the answer's journal entry;\n"
        f"# rest: everything else — the read, the thread hops, waiting for a core.)\n"
        f"# writes per create: {split.get('writes_per_create')}\n#\n"
        f"# Below: worker 0's own loop (pyinstrument, async mode, wall time).\n"
    )
    _write(out, "race.txt", head, tree)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "profiles")
    p.add_argument("--only", choices=["cold", "store", "filter", "race"], default=None)
    p.add_argument("-n", type=int, default=2000)
    ns = p.parse_args(argv)
    if ns.only in (None, "store"):
        asyncio.run(_store_work(ns.out, ns.n))
    if ns.only in (None, "cold"):
        cold_start(ns.out)
    if ns.only in (None, "filter"):
        text_filter(ns.out)
    if ns.only in (None, "race"):
        race(ns.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
