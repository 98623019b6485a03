"""Profiles of the figures issue 34 missed, written under ``docs/profiles/`` (pyinstrument).

``python -m tests.bench.profiles [--out docs/profiles]`` writes:

* ``cold-start.txt`` — ``slate gui`` on the cached 100k-slot store, from the first line of the
  process to the first rows of the slot tree (the bench's "cold start"); the profiler starts
  before anything of Slate is imported and stops on the first rows.
* ``claim.txt`` — 2,000 fresh claims (``Store.claim_blocking``, as the submit bench times them).
* ``replay.txt`` — 2,000 replays (``await SlateService.submit`` of existing slots).

Each file begins with what was measured and how; pyinstrument's text tree follows. Needs
``pip install pyinstrument`` (not a test dependency: these are read, not asserted).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.common import ROOT, child_env, compiled, run_dir

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
        env = child_env(
            {
                "SLATE_DATA_DIR": facts["data_dir"],
                "SLATE_STORE": facts["store"],
                "SLATE_PROVIDER": "demo",
                "SLATE_TENANT": facts["tenant"],
                "SLATE_USER": facts["user"],
                "XDG_CONFIG_HOME": str(Path(tmp) / "config"),
                "XDG_DATA_HOME": str(Path(tmp) / "share"),
                "XDG_STATE_HOME": str(Path(tmp) / "state"),
                "XDG_CACHE_HOME": str(Path(tmp) / "cache"),
                "SLATE_TEST_KEYRING_FILE": str(Path(tmp) / "keyring.json"),
            }
        )
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


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "profiles")
    p.add_argument("--only", choices=["cold", "store"], default=None)
    p.add_argument("-n", type=int, default=2000)
    ns = p.parse_args(argv)
    if ns.only in (None, "store"):
        asyncio.run(_store_work(ns.out, ns.n))
    if ns.only in (None, "cold"):
        cold_start(ns.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
