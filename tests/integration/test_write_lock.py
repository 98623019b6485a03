"""A stopped Slate process never blocks the writers forever (issue 15, point 12).

SQLite: the writers' file lock (``flock`` on ``<db>.writers``) had no bound, so a Slate process
stopped (SIGSTOP) while holding it blocked every writer for good. Now the wait is bounded like
SQLite's busy timeout, and the writer that gives up says who holds the lock (pid and host,
written beside the lock). PostgreSQL, the same class: a stopped process holding a row lock in an
open transaction; Slate's connections bound their lock waits, name themselves, and ask the
server to end a session stuck in a transaction.

The bounds are shortened in the child processes (module constants), the rules are Slate's own.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from app.domain.errors import StoreBusy
from app.store.engine import WriteQueue
from tests.support.machines import cancel, go, go_finish, spawn, start_python

RID = "article:20260816:tide-eye:scene-02"
SUBMIT = ["submit", "--request-id", RID, "--kind", "image", "--prompt", "p"]

_HOLD = r"""
import sys, time
from app.store import engine
engine.PG_IDLE_IN_TRANSACTION_MS = int(sys.argv[3])
from app.store.aio import open_store
from sqlalchemy import text
if sys.stdin.readline() != "go\n":
    sys.exit(0)  # the test ended without letting it take the lock
store = open_store(sys.argv[1])
with store.repo.write() as conn:
    if sys.argv[2] != "-":
        conn.execute(text("UPDATE tasks SET updated_at = updated_at WHERE request_id = :r"),
                     {"r": sys.argv[2]})
        print("holding", conn.execute(text("SELECT pg_backend_pid()")).scalar(), flush=True)
    else:
        print("holding", flush=True)
    time.sleep(600)
"""


def holder(
    store_url: str, env: dict[str, str], row: str = "-", idle_ms: int = 600_000
) -> subprocess.Popen[str]:
    """A Slate process, its imports done, that opens the store and enters a write transaction
    (SQLite: holding the writers' lock too) when ``take`` lets it: started early, while the
    test does something else."""
    return start_python(env, ["-c", _HOLD, store_url, row, str(idle_ms)])


def hold(
    store_url: str, env: dict[str, str], row: str = "-", idle_ms: int = 600_000
) -> subprocess.Popen[str]:
    """A Slate process inside a write transaction (SQLite: holding the writers' lock too), back
    once it holds it (``holder`` then ``take``; test_journal and test_sound use it)."""
    return take(holder(store_url, env, row, idle_ms))


def take(proc: subprocess.Popen[str]) -> subprocess.Popen[str]:
    """Let a ``holder`` open the store and take its lock; back once it holds it."""
    assert proc.stdout is not None
    go(proc)
    line = proc.stdout.readline()
    assert line.split()[:1] == ["holding"], proc.stderr.read()[-2000:]  # type: ignore[union-attr]
    proc.holding = line  # type: ignore[attr-defined]  # PostgreSQL: "holding <backend pid>"
    return proc


def backend_of(pid: int, url: str) -> bool:
    """Whether the server still has the session of backend ``pid``."""
    import psycopg

    from tests.support import pg

    with psycopg.connect(pg._psycopg_dsn(url), autocommit=True) as conn:
        row = conn.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()
    return row is not None


def end(proc: subprocess.Popen[str]) -> None:
    if proc.returncode is None:  # not ended (and waited for) already
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def test_a_stopped_process_holding_the_sqlite_write_lock_is_named_not_waited_on_forever(
    slate, slate_env, data_dir, demo_sim
):
    store = f"sqlite:///{(data_dir / 'slate.sqlite3').as_posix()}"
    env = {**slate_env, "SLATE_STORE": store}
    # The holder, the writer and the reader are processes of their own, started side by side
    # now; each does its part when the test lets it (the writer's start-up is not timed).
    owner = holder(store, env)
    writer = spawn(env, SUBMIT, patches={"app.store.engine.WRITE_LOCK_TIMEOUT": 2.0}, gated=True)
    reader = spawn(env, ["list"], gated=True)
    try:
        assert slate("quota", env=env).code == 0  # the store exists and is migrated
        take(owner)
        os.kill(owner.pid, signal.SIGSTOP)
        began = time.monotonic()
        res = go_finish(writer, timeout=60)
        took = time.monotonic() - began
        assert res.code == 1 and res.out["outcome"] == "invalid", res.out
        assert res.out["error"]["code"] == "store_busy", res.out
        message = res.out["error"]["message"]
        assert f"pid {owner.pid} host {socket.gethostname()}" in message, message
        assert "still there: stopped or hung" in message, message
        assert took < 20, took
        assert demo_sim.stats()["creates_total"] == 0  # refused before anything was sent
        # readers never wait for the writers' lock
        assert go_finish(reader, timeout=30).code == 0
    finally:
        end(owner)
        cancel(writer, reader)
    again = slate(*SUBMIT, env=env)  # the holder is gone: its locks went with it
    assert again.code == 0 and again.out["outcome"] == "created", again.out


def test_a_stopped_process_holding_a_postgres_row_lock_is_bounded_and_named(
    slate, slate_env, demo_sim
):
    from tests.support.pg import fresh_database

    with fresh_database() as url:
        env = {**slate_env, "SLATE_STORE": url}
        # The two holders and the bounded reader are processes of their own, started side by
        # side now; each does its part when the test lets it.
        first, second = holder(url, env, row=RID), holder(url, env, row=RID, idle_ms=2_000)
        reader = spawn(
            env,
            ["query", RID],
            patches={"app.store.engine.PG_LOCK_TIMEOUT_MS": 1500},
            gated=True,
        )
        try:
            made = slate("submit", "--request-id", RID, "--kind", "video", "--prompt", "p", env=env)
            assert made.out["outcome"] == "created", made.out
            # A holder whose idle bound is far off: however slowly a busy machine runs the
            # reader, the lock is still held when it reads (a bound of a few seconds raced the
            # reader's start-up, and on a loaded machine the server had already freed the row).
            take(first)
            os.kill(first.pid, signal.SIGSTOP)
            try:
                res = go_finish(reader, timeout=60)
                assert res.code == 1 and res.out["error"]["code"] == "store_busy", res.out
                message = res.out["error"]["message"]
                assert f"slate pid {first.pid} host" in message, message
                assert "idle in transaction" in message, message
            finally:
                end(first)
            # A holder stopped in its transaction with a short idle bound: the server ends the
            # stopped session after the bound (waited for, not slept on), and the row is free
            # again while the process is still stopped.
            take(second)
            os.kill(second.pid, signal.SIGSTOP)
            try:
                backend = int(second.holding.split()[1])  # type: ignore[attr-defined]
                from tests.support import pg

                admin = pg.server().url
                began = time.monotonic()
                while backend_of(backend, admin):
                    assert time.monotonic() - began < 60, "the server kept the stopped session"
                    time.sleep(0.1)
                assert second.poll() is None  # still there, stopped: the server ended its session
                later = slate("query", RID, env=env)
                assert later.code == 0 and later.out["outcome"] == "ok", later.out
            finally:
                end(second)
        finally:
            end(first)
            end(second)
            cancel(reader)


# -- the lock itself, in one process ---------------------------------------------------------
def test_a_writer_that_gives_up_says_who_holds_the_lock_and_the_lock_is_not_lost(tmp_path: Path):
    db = tmp_path / "s.sqlite3"
    first, second = WriteQueue(db, timeout=5), WriteQueue(db, timeout=0.3)
    with first:
        began = time.monotonic()
        with pytest.raises(StoreBusy) as exc:
            with second:
                pass
        assert 0.25 < time.monotonic() - began < 3
        assert f"pid {os.getpid()} host {socket.gethostname()}" in str(exc.value)
    # second's helper was still waiting in flock: it takes the freed lock and lets it go at once,
    # so both can take it again, in turn, without a double hold.
    order: list[str] = []

    def use(q: WriteQueue, name: str) -> None:
        with q:
            order.append(f"{name} in")
            time.sleep(0.05)
            order.append(f"{name} out")

    threads = [threading.Thread(target=use, args=(q, n)) for q, n in ((first, "a"), (second, "b"))]
    for _ in range(20):
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        threads = [
            threading.Thread(target=use, args=(q, n)) for q, n in ((first, "a"), (second, "b"))
        ]
    ins = [i for i, e in enumerate(order) if e.endswith("in")]
    assert all(order[i + 1] == order[i].replace("in", "out") for i in ins), order
    assert len(order) == 80


def test_a_waiter_takes_over_an_abandoned_wait(tmp_path: Path):
    """A waiter that gave up leaves its helper blocked in flock; the next waiter of the same
    queue takes that helper over and gets the lock the moment it is free."""
    db = tmp_path / "s.sqlite3"
    holder, waiter = WriteQueue(db, timeout=5), WriteQueue(db, timeout=0.2)
    holder.__enter__()
    with pytest.raises(StoreBusy):
        waiter.__enter__()
    waiter.timeout = 5
    threading.Timer(0.3, holder.__exit__, args=(None, None, None)).start()
    began = time.monotonic()
    with waiter:
        assert waiter._pending is None
    assert time.monotonic() - began < 2
