"""`slate` starts its embedded demo provider on first use: the first request its client makes.

A command with no API key and no base URL that never calls the provider (``list``, ``spend``,
``status``, …) starts no demo provider — no server module, no Qt application for its media, no
state file, no port remembered. One that calls it starts it then, on the main thread (its Qt
application renders the demo media: the same bytes as a demo provider started at once), and
later commands download what it made. Counted, not timed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from app.bootstrap import DEMO_PORT_FILE
from tests.support.fixtures import run_slate, run_slate_in_process

ROOT = Path(__file__).resolve().parents[2]
RID = "article:20261207:lazy:scene-01"

#: One command through the CLI's entry point, then what the process holds.
DRIVER = r"""
import json, sys
import app.cli

if sys.argv[1] == "eager":  # the demo provider started when the service is built (the app's way)
    import app.bootstrap as bootstrap

    build = bootstrap.build
    bootstrap.build = lambda config, lazy_demo=False: build(config)
rc = app.cli.main(sys.argv[3:])
held = {
    "rc": rc,
    "sim": sorted(m for m in sys.modules if m.startswith("app.sim.") and m != "app.sim.config"),
    "qt_app": "PySide6.QtWidgets" in sys.modules,
}
with open(sys.argv[2], "w") as f:
    json.dump(held, f)
"""


def _embedded(slate_env: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in slate_env.items() if k not in ("SLATE_BASE_URL", "MINIMAX_API_KEY")}
    env["SLATE_PROVIDER"] = "demo"
    return env


def _drive(env: dict[str, str], tmp_path: Path, how: str, *args: str) -> tuple[dict, dict]:
    """``slate --json ARGS`` in a fresh process; (its answer, what the process held)."""
    held = tmp_path / f"held-{os.getpid()}-{threading.get_ident()}.json"
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, how, str(held), "--json", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, (proc.stdout, proc.stderr[-3000:])
    return json.loads(proc.stdout.strip().splitlines()[-1]), json.loads(held.read_text())


def _demo_files(data_dir: Path) -> list[str]:
    return sorted(p.name for p in data_dir.iterdir() if p.name.startswith("demo-provider"))


def test_read_only_commands_start_no_demo_provider(
    slate_env: dict[str, str], data_dir: Path, tmp_path: Path
) -> None:
    env = _embedded(slate_env)
    for args in (["list"], ["spend"], ["status", RID]):
        answer, held = _drive(env, tmp_path, "lazy", *args)
        assert answer["outcome"] in ("ok", "not_found"), answer
        assert held["sim"] == [], (args, held)  # no server, no media rendering loaded
        assert held["qt_app"] is False, args  # no Qt application made for the demo media
        assert _demo_files(data_dir) == [], args  # no state file, no port remembered
    # in this process too: the read-only commands leave no demo provider behind
    assert run_slate_in_process(env, "list").code == 0
    assert run_slate_in_process(env, "history", RID).out["outcome"] == "not_found"
    assert _demo_files(data_dir) == []


def test_a_submit_starts_it_and_later_commands_download_what_it_made(
    slate_env: dict[str, str], data_dir: Path, tmp_path: Path
) -> None:
    env = _embedded(slate_env)
    submit = ("submit", "--request-id", RID, "--kind", "image", "--prompt", "a lazy cat", "--wait")
    # a first start: no port remembered yet, so the demo provider listens where it can
    made, held = _drive(env, tmp_path, "lazy", *submit)
    assert made["task"]["state"] == "success", made
    assert held["sim"] and held["qt_app"] is True
    sha = made["task"]["media"][0]["sha256"]
    port = int((data_dir / DEMO_PORT_FILE).read_text())
    assert (data_dir / DEMO_PORT_FILE).stat().st_mode & 0o077 == 0
    # the same submit again is answered from the record: nothing is sent, nothing started
    again, held = _drive(env, tmp_path, "lazy", *submit)
    assert again["outcome"] == "replayed" and again["task"]["media"][0]["sha256"] == sha
    assert held["sim"] == [] and held["qt_app"] is False, held
    # the same media as a demo provider started with the service (rendered by Qt on the main
    # thread; started elsewhere it would render other, text-less images)
    other = dict(env, SLATE_DATA_DIR=str(tmp_path / "eager"))
    eager, _ = _drive(other, tmp_path, "eager", *submit)
    assert [m["sha256"] for m in eager["task"]["media"]] == [sha]
    # later commands: the slot as it was, and its media downloaded again (a link of the
    # remembered port, which the demo provider listens on again)
    shown = run_slate(env, "status", RID)
    assert shown.out["task"]["media"][0]["sha256"] == sha
    pruned = run_slate_in_process(env, "prune-media", RID)
    assert pruned.code == 0 and pruned.out["files"] == 1, pruned.out
    back = run_slate(env, "recover", RID, "--redownload")
    assert back.code == 0, (back.out, back.stderr[-2000:])
    assert [m["sha256"] for m in back.out["task"]["media"]] == [sha]
    assert os.path.exists(back.out["task"]["media"][0]["path"])
    assert int((data_dir / DEMO_PORT_FILE).read_text()) == port
    # in this process: the command that started it stops it as it ends
    assert run_slate_in_process(env, "prune-media", RID).out["files"] == 1
    again = run_slate_in_process(env, "recover", RID, "--redownload")
    assert [m["sha256"] for m in again.out["task"]["media"]] == [sha], again.out
    assert f"slate-sim:{port}" not in [t.name for t in threading.enumerate()]
