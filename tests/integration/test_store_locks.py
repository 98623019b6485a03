"""The store keeps its locks while it is open: nothing in Slate opens and closes a store file.

On POSIX, closing *any* descriptor of a file drops *all* of the process's (fcntl) locks on it,
SQLite's own among them. A process that lost its locks looks absent to the others: the next
one to close the store believes it is the last, checkpoints and deletes the WAL, and the first
process's later writes go to a deleted file that nobody else ever reads (SQLite, "How To
Corrupt An SQLite Database File", 2.2). Slate once did exactly that whenever it built a second
engine on an open store (a settings change in the window): these tests show it no longer does,
with real processes, and that no Python-level open of a store file comes back.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
from sqlalchemy import text

from app.bootstrap import build
from app.files import SQLITE_COMPANIONS, prepare_sqlite
from app.store.aio import open_store
from app.store.engine import make_engine, release_engine, write_queue, writer
from tests.support.procs import in_forked_child
from tests.support.fixtures import make_config, sqlite_url


def rows_seen_by_another_process(db: Path) -> int:
    """What a fresh process reads from the test table (it opens and closes the store)."""
    code = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "print(c.execute('SELECT COUNT(*) FROM t').fetchone()[0]); c.close()"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(db)], capture_output=True, text=True, check=True
    )
    return int(out.stdout)


def deleted_store_files(pid: int, db: Path) -> list[str]:
    """The store's files process ``pid`` still has open although they were deleted."""
    names = {str(db)} | {str(db) + s for s in SQLITE_COMPANIONS}
    gone = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.endswith(" (deleted)") and target[: -len(" (deleted)")] in names:
            gone.append(target)
    return gone


def insert(engine: Any, value: int) -> None:
    with writer(engine).begin() as conn:
        conn.execute(text("INSERT INTO t VALUES (:v)"), {"v": value})


@pytest.mark.parametrize("second", ["make_engine", "prepare_sqlite", "open_store"])
def test_a_second_opening_in_one_process_keeps_the_first_ones_locks(tmp_path, second):
    """An open store; the same process opens it once more; another process opens and closes
    it; the first process's next write is seen by everyone (before: lost in a deleted WAL)."""
    db = tmp_path / "slate.sqlite3"
    url = f"sqlite:///{db}"
    engine = make_engine(url)
    with writer(engine).begin() as conn:
        conn.execute(text("CREATE TABLE t (x INTEGER)"))
    insert(engine, 1)
    again: Any = None
    if second == "make_engine":
        again = make_engine(url)
    elif second == "prepare_sqlite":
        prepare_sqlite(db)  # what building an engine did to the file
    else:
        again = open_store(url, migrate=False)
    assert rows_seen_by_another_process(db) == 1
    assert (tmp_path / "slate.sqlite3-wal").exists(), "the WAL was deleted under its holder"
    insert(engine, 2)
    assert rows_seen_by_another_process(db) == 2
    assert deleted_store_files(os.getpid(), db) == []
    if second == "make_engine":
        release_engine(again)
    elif second == "open_store":
        again.close()
    release_engine(engine)


def test_one_engine_per_store_per_process_shared_until_the_last_user_lets_go(tmp_path):
    db = tmp_path / "data" / "slate.sqlite3"
    url = f"sqlite:///{db}"
    first = open_store(url)
    second = open_store(f"sqlite:///{tmp_path}/data/../data/slate.sqlite3")  # the same file
    assert second.engine is first.engine
    assert write_queue(first.engine) is write_queue(second.engine)  # one line of writers
    first.close()
    first.close()  # closing twice gives the engine back once
    with second.engine.connect() as conn:  # still open for the other user
        assert conn.execute(text("SELECT COUNT(*) FROM tasks")).scalar() == 0
    second.close()
    third = open_store(url)
    assert third.engine is not first.engine  # the last user closed it: a new one now
    third.close()
    other = open_store(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    assert other.engine is not third.engine
    other.close()


def test_a_forked_child_opens_its_own_engine(tmp_path):
    url = f"sqlite:///{tmp_path / 'slate.sqlite3'}"
    store = open_store(url)
    # the child: never its parent's connections
    own = in_forked_child(lambda: make_engine(url) is not store.engine)
    store.close()
    assert own


# -- no Python-level open of a store file, ever --------------------------------------------
_WATCH: dict[str, Any] = {"on": False, "names": (), "seen": []}
_WATCH_LOCK = threading.Lock()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event != "open" or not _WATCH["on"]:
        return
    path, _mode, flags = args
    if not isinstance(path, (str, bytes, os.PathLike)):
        return  # a descriptor
    name = os.path.basename(os.fsdecode(path))
    if name.startswith(_WATCH["names"]):
        with _WATCH_LOCK:
            _WATCH["seen"].append((os.fsdecode(path), flags))


@pytest.fixture
def store_file_opens() -> Iterator[list[tuple[str, int]]]:
    """Every ``open``/``os.open`` of a store file or companion made by Python code meanwhile."""
    if not _WATCH.get("hooked"):
        sys.addaudithook(_audit)  # audit hooks cannot be removed: it sleeps when off
        _WATCH["hooked"] = True
    _WATCH.update(on=True, names=("slate.sqlite3", "demo-provider.sqlite3"), seen=[])
    try:
        yield _WATCH["seen"]
    finally:
        _WATCH["on"] = False


def test_nothing_opens_a_store_file_that_exists(tmp_path, store_file_opens, monkeypatch):
    """Build the app twice over one data dir (a settings change) with the embedded demo
    provider, run doctor, close: the only opens of a store file Python makes are the ones
    that create it (O_EXCL). SQLite's own opens are SQLite's (it keeps its locks across its
    connections)."""
    from app.doctor import diagnose

    monkeypatch.delenv("MINIMAX_API_KEY", raising=False)
    data = tmp_path / "data"
    config = make_config(data, sqlite_url(data), provider=None, demo_stage_seconds=0.05)

    async def twice() -> None:
        first = build(config)
        second = build(config)  # while the first is open, as Settings → Save does
        diagnose(config)
        await first.aclose()
        third = build(config)
        await second.aclose()
        await third.aclose()

    asyncio.run(twice())
    assert store_file_opens, "the watch saw nothing: it would not see a bad open either"
    reopened = [(p, f) for p, f in store_file_opens if not f & os.O_EXCL]
    assert reopened == [], f"store files opened outside SQLite: {reopened}"
