"""What a `slate` command that never calls the provider loads (issue 34: every script and agent
start pays it, and so do the thousands of commands the suite runs). Counted, not timed: the
modules ``python -X importtime -m app`` reports, or ``sys.modules`` once a command started as
the console script starts it (``main()`` without arguments) has answered. A read-only command
on a store at head loads no HTTP stack (httpx and its TLS context load with the provider's
first request), no Alembic (a store at head is read, not migrated), no Qt and no demo provider,
no psutil (a process is looked up by a claim or for a stale record), no progress words (shown
on a terminal or with ``--progress`` only) and no voice preview. A replay is answered from the
record and loads what a read loads: the provider's HTTP client is made before a claim that
writes, not before one answered as it is. The console script's process freezes what it loaded
(``gc.freeze``, as ``python -m app`` does): the cycle collector and the interpreter's last
collections as it exits do not walk it again. ``list`` and ``status`` load no verified media,
no music, speech or voice module and no lookup: each loads with the command that uses it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.fixtures import ROOT, run_slate_in_process

#: Loaded only when needed: (module prefix, what loads it).
NOT_FOR_A_READ = {
    "httpx": "the provider's first request (app.providers.http)",
    "httpcore": "the provider's first request",
    "alembic": "a store that is not at head (app.store.migrate)",
    "PySide6": "the desktop app, or the demo provider's media",
    "app.sim.server": "the embedded demo provider's first request",
    "app.ui": "the desktop app",
    "psutil": "a claim's owner or a stale record (app.service.owner)",
    "app.cli_progress": "progress shown on a terminal or with --progress",
    "app.present": "words for a person (progress, output without --json)",
    "app.service.preview": "a voice's preview (SlateService.preview_price, preview_voice)",
    "app.domain.preview": "a voice's preview",
    "PIL": "a result verified as it downloads (app.service.media)",
}


def _found(names: set[str] | list[str], prefixes: dict[str, str]) -> dict[str, str]:
    """The entries of ``prefixes`` loaded: a module named so, or any module under it."""
    return {
        prefix: why
        for prefix, why in prefixes.items()
        if any(n == prefix or n.startswith(prefix + ".") for n in names)
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


def _clean_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLATE_")}
    env.pop("MINIMAX_API_KEY", None)
    env.update(SLATE_DATA_DIR=str(tmp_path / "data"), SLATE_TENANT="studio-a", SLATE_USER="lin")
    return env


def _make_store(env: dict[str, str]) -> None:
    """The store made (and migrated) by a first command, before the one measured."""
    subprocess.run(
        [sys.executable, "-m", "app", "--json", "list"],
        env=env,
        cwd=ROOT,
        timeout=120,
        check=True,
        capture_output=True,
    )


def test_a_read_only_command_loads_no_http_stack_migrations_qt_or_demo_provider(tmp_path, demo_sim):
    env = _clean_env(tmp_path)
    embedded = dict(env)  # no key, no base URL: the embedded demo provider
    remote = {**env, "SLATE_PROVIDER": "demo", "SLATE_BASE_URL": demo_sim.base_url}
    _make_store(env)
    for name, run_env, args in (
        ("embedded list", embedded, ("list",)),
        ("embedded spend", embedded, ("spend",)),
        ("remote list", remote, ("list",)),
    ):
        assert _found(loaded(run_env, *args), NOT_FOR_A_READ) == {}, name
    assert demo_sim.stats()["requests_total"] == 0  # and nothing asked the provider


RID = "article:20261207:start:scene-01"
SUBMIT = ("submit", "--request-id", RID, "--kind", "image", "--prompt", "a quiet harbour")

#: One command as the ``slate`` console script runs it, then what the process holds.
DRIVER = r"""
import gc, json, sys

out = sys.argv[1]
sys.argv = ["slate", *sys.argv[2:]]
from app.cli import main  # as the console script does

rc = main()
with open(out, "w") as f:
    json.dump({"rc": rc, "modules": sorted(sys.modules), "frozen": gc.get_freeze_count()}, f)
"""


def _as_script(env: dict[str, str], held: Path, *args: str) -> dict:
    """``slate --json ARGS`` as the console script: (its answer, modules, freeze count)."""
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, str(held), "--json", *args],
        env={**env, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and held.exists(), (args, proc.stdout, proc.stderr[-3000:])
    got: dict = json.loads(held.read_text())
    got["answer"] = json.loads(proc.stdout.strip().splitlines()[-1])
    return got


def test_a_replay_and_a_finished_wait_load_what_a_read_loads(slate_env, tmp_path):
    made = run_slate_in_process(slate_env, *SUBMIT, "--wait")  # the slot they answer from
    assert made.out["task"]["state"] == "success", made.out
    for args, outcome in ((SUBMIT, "replayed"), (("wait", RID), "ok")):
        held = _as_script(slate_env, tmp_path / f"{args[0]}.json", *args)
        assert held["rc"] == 0 and held["answer"]["outcome"] == outcome, held["answer"]
        assert _found(held["modules"], NOT_FOR_A_READ) == {}, args[0]
        assert held["frozen"] > 0, f"slate {args[0]}: the console script froze nothing"


def test_a_new_submit_loads_the_client_and_the_owner_and_no_words(slate_env, tmp_path):
    assert run_slate_in_process(slate_env, "list").code == 0  # the store, made and migrated
    held = _as_script(slate_env, tmp_path / "submit.json", *SUBMIT)
    assert held["answer"]["outcome"] == "created", held["answer"]
    uses = {"httpx", "psutil", "PIL"}  # the provider's client, the claim's owner, the result
    assert set(_found(held["modules"], {p: "" for p in uses})) == uses
    rest = {p: why for p, why in NOT_FOR_A_READ.items() if p not in uses and p != "httpcore"}
    assert _found(held["modules"], rest) == {}  # --json, no terminal: no progress words
    assert held["frozen"] > 0


#: Not loaded by ``slate --json list`` or ``status`` (issue 38): each loads with the command
#: that uses it.
NOT_FOR_LIST_OR_STATUS = {
    "app.service.media": "a download, an export or a check of a result (verified media)",
    "app.service.sound": "music and speech: their send, download and voices (app.service.sound)",
    "app.service.sound_media": "music and speech's media (app.service.sound)",
    "app.service.voice": "a voice line's submit, a voice design, voice list, recover of a voice",
    "app.domain.lookup": "recover's lookup, a provider's task list or clock (ListedTask, Clock)",
    "app.providers.h3image": "MiniMax-H3-Image's request (MiniMaxProvider.generate_h3_image)",
    "app.providers.sound": "music, speech and the voice list's requests (MiniMaxProvider)",
    "app.providers.voice": "a voice design or get_voice (MiniMaxProvider)",
}


def test_list_and_status_load_no_media_sound_voice_or_lookup(slate_env):
    made = run_slate_in_process(slate_env, *SUBMIT, "--wait")  # the one slot they read
    assert made.out["task"]["state"] == "success", made.out
    for args in (("list",), ("status", RID)):
        names = loaded(slate_env, *args)
        assert "app.service.slate" in names and "app.providers.minimax" in names  # not vacuous
        got = _found(names, {**NOT_FOR_LIST_OR_STATUS, **NOT_FOR_A_READ})
        assert got == {}, f"slate {args[0]} loaded what it does not use: {got}"


def test_the_guard_names_what_got_in():
    names = ["app.cli", "psutil._pslinux", "httpx", "app.present.words", "app.presently"]
    assert sorted(_found(names, NOT_FOR_A_READ)) == ["app.present", "httpx", "psutil"]


#: Not loaded by a command that never opens the store (issue 38): ``slate --help``, ``slate sim
#: --help`` answer from the parser alone.
NOT_WITHOUT_A_STORE = {
    "asyncio": "a command on the store (app.cli: asyncio.run)",
    "sqlalchemy": "the store (app.store)",
    "app.bootstrap": "a command on the store",
    "keyring": "the API key or the handle-signing secret (app.service.secrets)",
    "secretstorage": "the keyring's backend, chosen on the first look-up",
    "app.providers": "a command on the store (app.bootstrap.make_provider)",
}


def test_help_loads_no_event_loop_store_keyring_or_provider(tmp_path):
    env = _clean_env(tmp_path)
    for args in (("--help",), ("sim", "--help")):
        assert _found(loaded(env, *args), NOT_WITHOUT_A_STORE) == {}, args
    assert not (tmp_path / "data").exists()  # and nothing was made


def test_a_read_with_an_api_key_loads_no_demo_provider(tmp_path):
    """With a key the provider is MiniMax: the demo provider's module is not loaded."""
    env = {**_clean_env(tmp_path), "MINIMAX_API_KEY": "sk-test-not-a-key"}
    demo = {"app.providers.demo": "the demo provider (no API key, or --provider demo)"}
    demo["app.sim"] = "the embedded demo provider"
    _make_store(env)
    names = loaded(env, "list")
    assert "app.providers.minimax" in names  # the provider was made: the check is not vacuous
    got = _found(names, {**demo, **NOT_FOR_A_READ, **NOT_FOR_LIST_OR_STATUS})
    assert got == {}, f"slate list with a key loaded what it does not use: {got}"
