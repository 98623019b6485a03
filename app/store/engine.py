"""Engines for SQLite (WAL, busy timeout, synchronous=FULL, BEGIN IMMEDIATE for writes) and PostgreSQL.

Writes go through ``writer`` (an engine copy whose transactions start with ``BEGIN IMMEDIATE``
on SQLite, so a read-then-write transaction never fails with "database is locked" halfway);
reads use the plain engine with deferred transactions, which never block writers under WAL.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

from app.domain.errors import ValidationError

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 30_000


def _sqlite_path(url: str) -> Path | None:
    db = make_url(url).database
    if not db or db == ":memory:":
        return None
    return Path(db)


def warn_if_network_share(path: Path) -> str | None:
    """SQLite on a network file system loses locking guarantees; say so (Linux: /proc/mounts)."""
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return None
    best, fstype = "", ""
    target = str(path.resolve().parent)
    for line in mounts:
        parts = line.split()
        if len(parts) >= 3 and (target == parts[1] or target.startswith(parts[1].rstrip("/") + "/")):
            if len(parts[1]) > len(best):
                best, fstype = parts[1], parts[2]
    if fstype in {"nfs", "nfs4", "cifs", "smb3", "smbfs", "sshfs", "fuse.sshfs", "9p", "afs"}:
        return fstype
    return None


def make_engine(url: str, *, echo: bool = False) -> Engine:
    """Create the engine for a store URL, with Slate's durability and locking settings."""
    try:
        parsed = make_url(url)
    except Exception as exc:  # noqa: BLE001 - SQLAlchemy raises ArgumentError on junk
        raise ValidationError("store", f"not a database URL: {exc}") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        path = _sqlite_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            fs = warn_if_network_share(path)
            if fs:
                raise ValidationError(
                    "store",
                    f"{path} is on a network file system ({fs}); SQLite locking is not reliable "
                    "there. Use a shared PostgreSQL store for several machines (see README).",
                )
        engine = create_engine(url, echo=echo, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # let us emit BEGIN ourselves
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Any) -> None:
            if conn.get_execution_options().get("slate_write"):
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                conn.exec_driver_sql("BEGIN")

        return engine
    if backend == "postgresql":
        return create_engine(
            url, echo=echo, pool_pre_ping=True, pool_size=5, max_overflow=5, pool_recycle=1800
        )
    raise ValidationError("store", f"unsupported database {backend!r}; use sqlite or postgresql")


class WriteQueue:
    """Writers to one SQLite file wait in line in the kernel, not in SQLite's busy handler.

    SQLite's busy handler sleeps in growing steps (up to 100 ms) while it waits for the write
    lock, so under contention a waiter often sleeps on after the lock is free. An exclusive
    ``flock`` on ``<db>.writers`` (taken around every write transaction, by every Slate process)
    wakes the next writer the moment the lock is released. A thread lock orders the writers of
    one process, which share the file descriptor. Readers never touch it (WAL).
    """

    def __init__(self, db_path: Path) -> None:
        import threading

        self.path = db_path.with_name(db_path.name + ".writers")
        self._thread_lock = threading.Lock()
        self._fd: int | None = None

    def __enter__(self) -> "WriteQueue":
        import fcntl
        import os

        self._thread_lock.acquire()
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        except BaseException:
            self._thread_lock.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        import fcntl

        try:
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._thread_lock.release()


def write_queue(engine: Engine) -> "WriteQueue | None":
    """The write queue of a SQLite file store (None for PostgreSQL or in-memory SQLite)."""
    if engine.dialect.name != "sqlite":
        return None
    path = _sqlite_path(str(engine.url))
    return WriteQueue(path) if path is not None else None


def writer(engine: Engine) -> Engine:
    """The same engine, with write transactions (``BEGIN IMMEDIATE`` on SQLite)."""
    return engine.execution_options(slate_write=True)
