"""Shared fixtures: data dirs, stores (SQLite file; PostgreSQL via tests.support.pg), the demo provider,
services wired like the app, and runners for the `slate` command: in this process (``slate``:
the CLI's entry point with its own environment, streams and exit code) and as a real subprocess
(``slate_process``: the process boundary itself)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterator

import pytest

from app.config import Config
from app.providers.demo import DemoProvider
from app.service.slate import SlateService
from app.sim import SimConfig, SimServer, start_sim
from app.store.aio import Store, open_store
from app.store.repository import Repository

ROOT = Path(__file__).resolve().parents[2]
SECRET = b"\x01" * 32


#: The run's folder of rendered demo media, shared by its xdist workers (set once a test runs:
#: ``_shared_sim_media``). Media are a pure function of their parameters and the renderer, and
#: a folder lives one run, so a video the fixtures' prompts make in one worker (a 2K clip costs
#: seconds of CPU) is read, not encoded again, by the others.
MEDIA_CACHE: Path | None = None


@pytest.fixture(scope="session", autouse=True)
def _shared_sim_media(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> None:
    global MEDIA_CACHE
    base = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):  # an xdist worker: the run's folder is above
        base = base.parent
    MEDIA_CACHE = base / "sim-media"


def fast_sim_config(**kw: Any) -> SimConfig:
    base: dict[str, Any] = dict(
        preparing=0.05, queueing=0.05, processing=0.1, image_latency=0.0, media_cache=MEDIA_CACHE
    )
    base.update(kw)
    return SimConfig(**base)


@pytest.fixture
def demo_sim() -> Iterator[SimServer]:
    server = start_sim(fast_sim_config())
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    d.mkdir()
    return d


def sqlite_url(data_dir: Path) -> str:
    return f"sqlite:///{(data_dir / 'slate.sqlite3').as_posix()}"


@pytest.fixture(scope="session")
def migrated_store(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of one SQLite store file migrated to the newest revision, made once per worker:
    migrating a new store (Alembic loading and running every script) costs ~0.1 s of CPU warm
    and ~0.4 s cold, paid otherwise by every test for a store it does not ask to see migrated."""
    folder = tmp_path_factory.mktemp("store-template")
    open_store(sqlite_url(folder)).close()
    return (folder / "slate.sqlite3").read_bytes()


def copy_migrated_store(template: bytes, data_dir: Path) -> None:
    """``data_dir``'s store: a copy of ``template``, made 0600 as Slate makes its store file,
    with a random store id of its own (migration 0005 draws one per store)."""
    path = data_dir / "slate.sqlite3"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, template)
    finally:
        os.close(fd)
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute(
                "UPDATE store_info SET value = ? WHERE name = 'store_id'", (uuid.uuid4().hex,)
            )
    finally:
        conn.close()


@pytest.fixture(params=["sqlite", "pg"])
def store_url(request: pytest.FixtureRequest, data_dir: Path) -> Iterator[str]:
    """A fresh store per test. Parametrized over every backend the suite has.

    Each backend: a copy of a store already migrated to the newest revision (opening finds it
    at head: a SQLite file; a PostgreSQL database holding what a copy of the migrated template
    holds, reset for the next test after this one, ``pg.reused_database``), or an empty one
    for a test marked ``empty_store`` (the migration tests; on SQLite, opening the empty file
    migrates it)."""
    empty = request.node.get_closest_marker("empty_store") is not None
    if request.param == "sqlite":
        if not empty:
            copy_migrated_store(request.getfixturevalue("migrated_store"), data_dir)
        yield sqlite_url(data_dir)
        return
    from tests.support import pg  # PostgreSQL: a database of its own on the test server

    with pg.fresh_database() if empty else pg.reused_database() as url:
        yield url


def make_config(data_dir: Path, store: str, **kw: Any) -> Config:
    base: dict[str, Any] = dict(
        data_dir=data_dir,
        store=store,
        provider="demo",
        base_url=None,
        tenant="studio-a",
        user="lin",
        timeout=5.0,
        poll_interval=0.05,
        max_requests_per_second=200.0,
        max_concurrent_polls=16,
    )
    base.update(kw)
    return Config(**base)


@dataclass
class Harness:
    """A service wired as the app wires it, on a real store and the demo provider over HTTP."""

    config: Config
    store: Store
    provider: DemoProvider
    service: SlateService
    sim: SimServer

    others: list[SlateService] = field(default_factory=list)

    @property
    def repo(self) -> Repository:
        return self.store.repo

    def other(self, **kw: Any) -> SlateService:
        """Another service on the same store and provider (another user, tenant, …)."""
        cfg = make_config(self.config.data_dir, self.config.store, **kw)
        svc = SlateService(cfg, self.store, self.provider, SECRET)
        self.others.append(svc)
        return svc


@contextlib.asynccontextmanager
async def open_harness(data_dir: Path, store: str, sim: SimServer) -> AsyncIterator[Harness]:
    """A wired service on ``store`` and ``sim``; closes every service it handed out."""
    config = make_config(data_dir, store)
    opened = open_store(store)
    provider = DemoProvider(sim.base_url, timeout=5.0, connect_timeout=10.0)
    service = SlateService(config, opened, provider, SECRET)
    h = Harness(config, opened, provider, service, sim)
    try:
        yield h
    finally:
        for svc in [service, *h.others]:
            await svc.aclose()
        await provider.aclose()
        opened.close()


@pytest.fixture
async def harness(data_dir: Path, store_url: str, demo_sim: SimServer) -> AsyncIterator[Harness]:
    async with open_harness(data_dir, store_url, demo_sim) as h:
        yield h


@dataclass
class CliResult:
    code: int
    out: dict[str, Any]
    stdout: str
    stderr: str


@pytest.fixture
def slate_env(tmp_path: Path, data_dir: Path, demo_sim: SimServer) -> dict[str, str]:
    """Environment for `slate` subprocesses: demo provider over loopback, test keyring."""
    env = dict(os.environ)
    env.update(
        SLATE_DATA_DIR=str(data_dir),
        SLATE_PROVIDER="demo",
        SLATE_BASE_URL=demo_sim.base_url,
        SLATE_TENANT="studio-a",
        SLATE_USER="lin",
        SLATE_POLL_INTERVAL="0.05",
        SLATE_TEST_KEYRING_FILE=str(tmp_path / "keyring.json"),
        SLATE_TIMEOUT="5",
    )
    return env


def _one_json_line(code: int, stdout: str, stderr: str) -> CliResult:
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, f"expected exactly one JSON line, got {stdout!r} / {stderr!r}"
    return CliResult(code, json.loads(lines[0]), stdout, stderr)


def run_slate(
    env: dict[str, str], *args: str, timeout: float = 60, stdin: str | None = None
) -> CliResult:
    """``slate --json ARGS`` as a real subprocess (``python -m app``)."""
    proc = subprocess.run(
        [sys.executable, "-m", "app", "--json", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        input=stdin,
    )
    return _one_json_line(proc.returncode, proc.stdout, proc.stderr)


#: One in-process command at a time: the environment, the streams and the keyring are the
#: process's own (a test that races commands runs them as subprocesses).
_IN_PROCESS = threading.Lock()


def call_slate(
    env: dict[str, str], argv: list[str], stdin: str | None = None
) -> tuple[int, str, str]:
    """``app.cli.main(argv)`` in this process as ``python -m app`` would run it in a child:
    exactly ``env`` as the environment, stdin from ``stdin`` (empty: /dev/null), stdout and
    stderr captured, the working directory the repository, the keyring chosen afresh from the
    environment, logging configured afresh. Everything is put back afterwards (no handler,
    variable, keyring or time zone outlives the call). Returns (exit code, stdout, stderr).

    The command runs on this thread, or on a thread of its own when this one runs an event loop
    (an async test), as the CLI starts its own loop."""
    import logging
    import time

    import keyring
    import keyring.core

    from app import cli, logs

    with _IN_PROCESS:
        saved_env = dict(os.environ)
        saved_std = sys.stdin, sys.stdout, sys.stderr
        saved_cwd = os.getcwd()
        saved_keyring = keyring.get_keyring()
        root = logging.getLogger()
        saved_handlers, saved_level = list(root.handlers), root.level
        noisy = {n: logging.getLogger(n).level for n in ("httpx", "httpcore")}
        saved_configured, saved_lang = logs._configured, cli._LANG
        out, err = io.StringIO(), io.StringIO()
        result: list[int] = []
        failure: list[BaseException] = []

        def run() -> None:
            try:
                result.append(cli.main(argv))
            except SystemExit as exc:  # as the interpreter turns it into an exit status
                if exc.code is None or isinstance(exc.code, int):
                    result.append(exc.code or 0)
                else:
                    err.write(f"{exc.code}\n")
                    result.append(1)
            except BaseException as exc:  # noqa: BLE001 - re-raised on the test's thread
                failure.append(exc)

        try:
            os.environ.clear()
            os.environ.update(env)
            time.tzset()
            os.chdir(ROOT)
            keyring.core.init_backend()  # PYTHON_KEYRING_BACKEND of this environment
            logs._configured = False
            cli._LANG = None
            sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin or ""), out, err
            try:
                import asyncio

                asyncio.get_running_loop()
            except RuntimeError:
                run()
            else:
                worker = threading.Thread(target=run, name="slate-in-process")
                worker.start()
                worker.join()
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved_std
            for handler in root.handlers[:]:
                if handler not in saved_handlers:
                    root.removeHandler(handler)
                    handler.close()
            root.setLevel(saved_level)
            for name, level in noisy.items():
                logging.getLogger(name).setLevel(level)
            logs._configured, cli._LANG = saved_configured, saved_lang
            keyring.set_keyring(saved_keyring)
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
            time.tzset()
        if failure:
            raise failure[0]
        return result[0], out.getvalue(), err.getvalue()


def slate_in_process(
    env: dict[str, str], *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``slate ARGS`` (any output, human or JSON) through the CLI's entry point in this process
    (``call_slate``), answered as ``subprocess.run(..., capture_output=True, text=True)`` answers
    for a child: returncode, stdout, stderr."""
    code, out, err = call_slate(env, list(args), stdin=stdin)
    return subprocess.CompletedProcess(["slate", *args], code, out, err)


def run_slate_in_process(
    env: dict[str, str], *args: str, timeout: float = 60, stdin: str | None = None
) -> CliResult:
    """``slate --json ARGS`` through the CLI's entry point in this process (``call_slate``);
    the answer checked as ``run_slate`` checks a child's. ``timeout`` is the test's own
    (pytest-timeout): a command cannot be stopped from outside its thread."""
    del timeout
    return _one_json_line(*call_slate(env, ["--json", *args], stdin=stdin))


@pytest.fixture
def slate(slate_env: dict[str, str]) -> Callable[..., CliResult]:
    """``slate("submit", ...)``: the command in this process (``run_slate_in_process``), or as
    a subprocess where ``SLATE_TEST_CLI=subprocess`` (the same tests across the process boundary)."""
    runner = run_slate if os.environ.get("SLATE_TEST_CLI") == "subprocess" else run_slate_in_process

    def run(*args: str, env: dict[str, str] | None = None, **kw: Any) -> CliResult:
        return runner({**slate_env, **(env or {})}, *args, **kw)

    return run


@pytest.fixture
def slate_process(slate_env: dict[str, str]) -> Callable[..., CliResult]:
    """``slate_process("submit", ...)``: the command as a real subprocess (``run_slate``), for
    what only a process shows: its exit status, its streams, its stdin, its signals."""

    def run(*args: str, env: dict[str, str] | None = None, **kw: Any) -> CliResult:
        return run_slate({**slate_env, **(env or {})}, *args, **kw)

    return run
