"""A window holds the store while scripts come and go: nothing written is lost, nothing is paid
twice (issue 31, the whole class).

The window (offscreen, built as ``slate gui`` builds it) is this process; a long ``slate wait``
is a second process holding the store; meanwhile other processes run ``list``, ``submit`` and
``doctor`` and exit — after the window went through its real Settings → Save, which once
built a second engine and, by opening and closing the database file, dropped the window's
locks: the next command deleted the WAL under it, the window's next create went to a deleted
file, ``slate status`` answered ``not_found`` and ``slate submit`` paid again. Afterwards every
write of every process is visible to all, no holder has a deleted store file open, and the
provider counts one create per slot. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator

import pytest

from app.bootstrap import build
from app.files import SQLITE_COMPANIONS
from app.service.results import OutcomeKind
from app.ui import app as app_mod
from app.ui.controller import Controller
from app.ui.settings import Settings
from app.ui.window import MainWindow
from tests.gui.conftest import Gui, _gui, close
from tests.gui.test_settings import save
from tests.support.fixtures import ROOT, CliResult, copy_migrated_store, run_slate, sqlite_url

WINDOW_RID = "article:20261203:wal:img-01"
SCRIPT_RID = "article:20261203:wal:img-02"
WAIT_RID = "article:20261203:wal:clip-01"
IMAGE = {"prompt": "a tide pool at dawn, ink wash", "aspect_ratio": "1:1", "n": 1}
SCRIPT_IMAGE = {**IMAGE, "prompt": "a heron in the shallows, ink wash"}


@pytest.fixture(params=["sqlite", "pg"])
def held(request, qtbot, qloop, data_dir, sim, tmp_path, migrated_store) -> Iterator[Gui]:
    """The window's service on a store of its own: a copy of the migrated one (no rows, newest
    schema), as the ``gui`` fixture's, or on PostgreSQL a database holding the same."""
    if request.param == "sqlite":
        copy_migrated_store(migrated_store, data_dir)
        g = _gui(qtbot, qloop, data_dir, sim, tmp_path, url=sqlite_url(data_dir))
        try:
            yield g
        finally:
            g.run(g.provider.aclose())
            g.store.close()
        return
    from tests.support.pg import reused_database

    with reused_database() as url:
        g = _gui(qtbot, qloop, data_dir, sim, tmp_path, url=url)
        try:
            yield g
        finally:
            g.run(g.provider.aclose())
            g.store.close()


def cli_env(gui: Gui, tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("MINIMAX_API_KEY", None)
    env.update(
        SLATE_DATA_DIR=str(gui.config.data_dir),
        SLATE_STORE=gui.config.store,
        SLATE_PROVIDER="demo",
        SLATE_BASE_URL=gui.sim.base_url,
        SLATE_TENANT=gui.config.tenant,
        SLATE_USER=gui.config.user,
        SLATE_POLL_INTERVAL="0.05",
        SLATE_TEST_KEYRING_FILE=str(tmp_path / "keyring.json"),
        SLATE_TIMEOUT="5",
    )
    return env


def deleted_store_files(pid: int, gui: Gui) -> list[str]:
    """Store files process ``pid`` still has open although they were deleted (SQLite only)."""
    if not gui.config.store.startswith("sqlite"):
        return []
    db = str(Path(gui.config.store.removeprefix("sqlite:///")))
    names = {db} | {db + s for s in SQLITE_COMPANIONS}
    gone = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.endswith(" (deleted)") and target.removesuffix(" (deleted)") in names:
            gone.append(target)
    return gone


def at_once(env: dict[str, str], *commands: list[str]) -> list[CliResult]:
    """``run_slate`` for each command, the processes side by side; the answers in order."""
    with ThreadPoolExecutor(len(commands)) as pool:
        return list(pool.map(lambda args: run_slate(env, *args), commands))


def submit_args(rid: str, kind: str, params: dict[str, Any]) -> list[str]:
    args = ["submit", "--request-id", rid, "--kind", kind]
    for name, value in params.items():
        args += [f"--{name.replace('_', '-')}", str(value)]
    return args


def test_a_window_and_scripts_share_one_store_without_losing_a_write(held, qtbot, tmp_path):
    gui = held
    env = cli_env(gui, tmp_path)
    slate = build(gui.config.with_(base_url=gui.sim.base_url, provider="demo"))
    controller = Controller(slate.service, owner=slate, rebuild=app_mod._build)
    window = MainWindow(controller, Settings(gui.settings(), fixed={"provider", "base_url"}))
    qtbot.addWidget(window)
    window.show()
    controller.start()
    waiter: subprocess.Popen[str] | None = None
    try:
        gui.until(lambda: window.model.started, what="first page of slots")
        # A second holder: a script waiting on a clip that runs until the test lets it end
        # (below), so the waiter holds the store through everything else however slow.
        gui.sim.config.processing = 600.0
        made = run_slate(env, *submit_args(WAIT_RID, "video", {"prompt": "slow tide"}))
        assert made.out["outcome"] == "created", made.out
        waiter = subprocess.Popen(
            [sys.executable, "-m", "app", "--json", "wait", WAIT_RID, "--max-seconds", "120"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

        save(gui, window)  # Settings → Save, nothing changed: the service is rebuilt

        # Scripts come and go while both hold the store (side by side: each still opens and
        # closes the store with the window and the waiter holding it).
        listed, script, doctor = at_once(
            env, ["list"], submit_args(SCRIPT_RID, "image", SCRIPT_IMAGE), ["doctor"]
        )
        assert listed.code == 0, listed.out
        assert script.out["outcome"] == "created", script.out
        assert doctor.out["store"]["reachable"] is True, doctor.out
        assert deleted_store_files(os.getpid(), gui) == [], "the window's store was deleted"
        assert deleted_store_files(waiter.pid, gui) == [], "the waiter's store was deleted"

        # The window creates a slot: the scripts see it, and nothing pays for it again.
        out = gui.run(controller.service.submit(WINDOW_RID, "image", IMAGE))
        assert out.kind is OutcomeKind.CREATED
        window.select(WINDOW_RID)
        gui.until(
            lambda: (
                window.slot.task is not None
                and window.slot.task.request_id == WINDOW_RID
                and window.slot.task.state == "success"
            ),
            what="the window's image done",
        )
        seen, again = at_once(env, ["status", WINDOW_RID], submit_args(WINDOW_RID, "image", IMAGE))
        assert seen.code == 0 and seen.out["task"]["state"] == "success", seen.out
        assert again.out["outcome"] == "replayed", again.out
        # …and the window sees what the scripts wrote.
        assert gui.run(controller.service.status(SCRIPT_RID)).task.state == "success"

        if waiter.poll() is not None:  # it must hold the store until now
            raise AssertionError(("the waiter ended early", waiter.communicate()))
        gui.sim.config.processing = 0.0  # the clip ends: the waiter downloads it and exits
        stdout, stderr = waiter.communicate(timeout=120)
        waited = json.loads(stdout.strip().splitlines()[-1])
        assert waiter.returncode == 0, (waited, stderr)
        assert waited["task"]["state"] == "success"
    finally:
        if waiter is not None and waiter.poll() is None:
            waiter.kill()
            waiter.wait()
        close(gui, controller, window)

    # Everyone gone: a fresh process reads every write of every process.
    after = run_slate(env, "list")
    states = {s["request_id"]: s["state"] for s in after.out["slots"]}
    assert states == {WINDOW_RID: "success", SCRIPT_RID: "success", WAIT_RID: "success"}, states
    counts = gui.sim.stats()
    one_each = {IMAGE["prompt"]: 1, SCRIPT_IMAGE["prompt"]: 1, "slow tide": 1}
    assert counts["creates_by_prompt"] == one_each, counts
