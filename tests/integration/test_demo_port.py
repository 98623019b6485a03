"""The embedded demo provider's links outlive it (issue 33, point 6).

Each `slate` process with no API key starts its own demo provider for the data dir, as the app
does on every start and every settings change. A slot's stored links name the port of the one
that made it; "Download again" (``recover --redownload``) must still bring the media back —
the same bytes, no second create — after a restart (the port is kept per data dir) and when
that port is taken (the demo adapter re-points its own links at the running demo provider).
"""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

from app.bootstrap import DEMO_PORT_FILE
from app.providers.demo import DemoProvider
from app.sim.store import SimStore
from tests.support.fixtures import run_slate_in_process
from tests.support.machines import cancel, go_finish, spawn

RID = "article:20261203:budget:scene-01"


def _embedded(slate_env: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in slate_env.items() if k not in ("SLATE_BASE_URL", "MINIMAX_API_KEY")}
    env["SLATE_PROVIDER"] = "demo"
    return env


def _creates(data_dir: Path) -> int:
    store = SimStore(data_dir / "demo-provider.sqlite3")
    try:
        return int(store.create_counts()["creates_total"])
    finally:
        store.close()


def _download_again(env: dict[str, str], recover: subprocess.Popen[str], sha: str) -> None:
    pruned = run_slate_in_process(env, "prune-media", RID)
    assert pruned.code == 0 and pruned.out["files"] == 1, pruned.out
    back = go_finish(recover)
    assert back.code == 0, (back.out, back.stderr[-2000:])
    assert [m["sha256"] for m in back.out["task"]["media"]] == [sha]
    assert os.path.exists(back.out["task"]["media"][0]["path"])


def test_download_again_works_after_the_demo_provider_restarts(
    slate_env: dict[str, str], data_dir: Path
) -> None:
    env = _embedded(slate_env)
    # "Download again" runs in a process of its own (its own demo provider); both are started
    # now and run their command when the test says. The submit and the prunes before them run
    # in this process (``run_slate_in_process``: its demo provider is stopped as it ends).
    recovers = [spawn(env, ["recover", RID, "--redownload"], gated=True) for _ in range(2)]
    try:
        made = run_slate_in_process(
            env, "submit", "--request-id", RID, "--kind", "image", "--prompt", "p"
        )
        assert made.code == 0 and made.out["task"]["state"] == "success", made.out
        sha = made.out["task"]["media"][0]["sha256"]
        port = int((data_dir / DEMO_PORT_FILE).read_text())
        assert (data_dir / DEMO_PORT_FILE).stat().st_mode & 0o077 == 0
        assert _creates(data_dir) == 1
        # A restart: another process, its own demo provider, on the same port again.
        _download_again(env, recovers[0], sha)
        assert int((data_dir / DEMO_PORT_FILE).read_text()) == port
        # The port taken by something else: a fresh port, and the stored link still works.
        with socket.socket() as holder:
            holder.bind(("127.0.0.1", port))
            holder.listen()
            _download_again(env, recovers[1], sha)
        assert _creates(data_dir) == 1  # never a second create
    finally:
        cancel(*recovers)


def test_the_demo_adapter_repoints_only_its_own_loopback_links() -> None:
    demo = DemoProvider("http://127.0.0.1:4000")
    old = "http://127.0.0.1:39999/_sim/images/abc/0.png?Expires=1&Signature=x"
    new = "http://127.0.0.1:4000/_sim/images/abc/0.png?Expires=1&Signature=x"
    assert demo.current_link(old) == new
    for kept in (
        "http://127.0.0.1:4000/_sim/images/abc/0.png?Expires=1",  # already here
        "https://cdn.example.com/_sim/images/abc/0.png",  # not this computer
        "http://127.0.0.1:39999/other/0.png",  # not a demo link
    ):
        assert demo.current_link(kept) == kept
