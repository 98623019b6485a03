"""What a `slate` command that never calls the provider loads (issue 34: every script and agent
start pays it, and so do the thousands of commands the suite runs). Counted, not timed: the
modules ``python -X importtime -m app`` reports. A read-only command on a store at head loads
no HTTP stack (httpx and its TLS context load with the provider's first request), no Alembic (a
store at head is read, not migrated), no Qt and no demo provider."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.fixtures import ROOT

#: Loaded only when needed: (module prefix, what loads it).
NOT_FOR_A_READ = {
    "httpx": "the provider's first request (app.providers.http)",
    "httpcore": "the provider's first request",
    "alembic": "a store that is not at head (app.store.migrate)",
    "PySide6": "the desktop app, or the demo provider's media",
    "app.sim.server": "the embedded demo provider's first request",
    "app.ui": "the desktop app",
}


def loaded(env: dict[str, str], *args: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "app", "--json", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the header line
                names.add(name)
    assert "app.cli" in names, proc.stderr[-2000:]  # the report was read
    return names


def test_a_read_only_command_loads_no_http_stack_migrations_qt_or_demo_provider(tmp_path, demo_sim):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLATE_")}
    env.pop("MINIMAX_API_KEY", None)
    env.update(SLATE_DATA_DIR=str(tmp_path / "data"), SLATE_TENANT="studio-a", SLATE_USER="lin")
    embedded = dict(env)  # no key, no base URL: the embedded demo provider
    remote = {**env, "SLATE_PROVIDER": "demo", "SLATE_BASE_URL": demo_sim.base_url}
    subprocess.run(  # the store is made (and migrated) by a first command
        [sys.executable, "-m", "app", "--json", "list"],
        env=env,
        cwd=ROOT,
        timeout=120,
        check=True,
        capture_output=True,
    )
    for name, run_env, args in (
        ("embedded list", embedded, ("list",)),
        ("embedded spend", embedded, ("spend",)),
        ("remote list", remote, ("list",)),
    ):
        names = loaded(run_env, *args)
        found = {
            prefix: why
            for prefix, why in NOT_FOR_A_READ.items()
            if any(n == prefix or n.startswith(prefix + ".") for n in names)
        }
        assert found == {}, (name, found)
    assert demo_sim.stats()["requests_total"] == 0  # and nothing asked the provider
