"""Engines for SQLite (WAL, busy timeout, synchronous=FULL, BEGIN IMMEDIATE for writes) and PostgreSQL.

Writes go through ``writer`` (an engine copy whose transactions start with ``BEGIN IMMEDIATE``
on SQLite, so a read-then-write transaction never fails with "database is locked" halfway);
reads use the plain engine with deferred transactions, which never block writers under WAL.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, Engine, create_engine, event, func
from sqlalchemy.engine import make_url

from app.domain.errors import StoreBusy, ValidationError
from app.files import STORE_FILES_LOCK, enable_wal, open_private, prepare_sqlite, private_dir

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 30_000
#: How long a writer waits for the writers' file lock before it gives up (as SQLite's busy
#: timeout bounds its own lock): a stopped or hung process never blocks writers forever.
WRITE_LOCK_TIMEOUT = BUSY_TIMEOUT_MS / 1000
#: PostgreSQL: how long a statement waits for a row or table lock (as SQLite's busy timeout),
#: and how long the server keeps a session that sits idle inside a transaction — a stopped or
#: hung Slate process — before it ends it and frees its locks. Slate's transactions never
#: wait on anything but the database, so neither ever cuts a healthy one short.
PG_LOCK_TIMEOUT_MS = BUSY_TIMEOUT_MS
PG_IDLE_IN_TRANSACTION_MS = 2 * BUSY_TIMEOUT_MS


def pg_connect_args() -> dict[str, Any]:
    """Per-connection settings of a PostgreSQL store: the lock bounds above, and a name that
    says which Slate process holds a connection (``pg_stat_activity.application_name``)."""
    return {
        "options": f"-c lock_timeout={PG_LOCK_TIMEOUT_MS} "
        f"-c idle_in_transaction_session_timeout={PG_IDLE_IN_TRANSACTION_MS}",
        "application_name": f"slate pid {os.getpid()} host {socket.gethostname()}"[:63],
    }


def _sqlite_path(url: str) -> Path | None:
    db = make_url(url).database
    if not db or db == ":memory:":
        return None
    return Path(db)


#: File systems a SQLite store may live on: local ones, whose locking SQLite can trust. Anything
#: else — network and cluster file systems (nfs, cifs, vboxsf, virtiofs, ceph, glusterfs,
#: lustre, ocfs2, davfs, 9p, …), every FUSE file system (``fuse.*``, ``fuseblk``) and any name
#: not listed — is refused. (Linux names; ``apfs``/``hfs`` are macOS's, read from ``mount``.)
LOCAL_FILESYSTEMS = frozenset(
    {
        "ext2",
        "ext3",
        "ext4",
        "xfs",
        "btrfs",
        "zfs",
        "f2fs",
        "bcachefs",
        "jfs",
        "reiserfs",
        "nilfs2",
        "tmpfs",
        "ramfs",
        "overlay",
        "rootfs",
        "ecryptfs",
        "vfat",
        "exfat",
        "ntfs3",
        "hfs",
        "hfsplus",
        "apfs",
        "ufs",
    }
)
#: Where Linux lists the mounted file systems (a parameter of :func:`store_filesystem`, so
#: tests can hand it another table).
MOUNTS_FILE = Path("/proc/mounts")


def _unescape_mount(field: str) -> str:
    """/proc/mounts writes space, tab, newline and backslash in paths as octal escapes."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mount_table(mounts_file: Path | None = None) -> list[tuple[str, str]] | None:
    """(mount point, file system type) of every mount, or None where no table can be read."""
    source = MOUNTS_FILE if mounts_file is None else mounts_file
    try:
        lines = source.read_text().splitlines()
    except OSError:
        lines = None
    if lines is not None:
        out = []
        for line in lines:
            parts = line.split()
            if len(parts) >= 3:
                out.append((_unescape_mount(parts[1]), parts[2]))
        return out
    if mounts_file is None and sys.platform == "darwin":
        return _bsd_mounts()
    return None


def _bsd_mounts() -> list[tuple[str, str]] | None:
    """macOS: ``/sbin/mount`` prints ``dev on /path (apfs, local, journaled)``."""
    import subprocess

    try:
        text = subprocess.run(
            ["/sbin/mount"], capture_output=True, text=True, timeout=5, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    out = []
    for line in text.splitlines():
        m = re.match(r".+? on (.+) \(([^,)]+)", line)
        if m:
            out.append((m.group(1), m.group(2).strip()))
    return out


def store_filesystem(path: Path, mounts_file: Path | None = None) -> str | None:
    """The type of the file system the store file ``path`` lives on (its folder's longest
    mount point), or None when the system keeps no mount table (Windows)."""
    table = mount_table(mounts_file)
    if table is None:
        return None
    target = str(path.resolve().parent)
    best, fstype = "", "unknown"
    for point, kind in table:
        if target == point or target.startswith(point.rstrip("/") + "/"):
            if len(point) >= len(best):
                best, fstype = point, kind
    return fstype


def unsupported_filesystem(path: Path, mounts_file: Path | None = None) -> str | None:
    """The file system type when ``path`` is not on a known local file system, else None."""
    fs = store_filesystem(path, mounts_file)
    if fs is None or fs in LOCAL_FILESYSTEMS:
        return None
    return fs


def filesystem_refusal(path: Path, fs: str) -> str:
    """The one message for every file system a SQLite store may not live on."""
    return (
        f"{path} is on a {fs} file system, which is not a local file system Slate knows "
        "(ext4, xfs, btrfs, zfs, apfs, tmpfs, …); SQLite's locking is not reliable there. "
        "Keep the store on a local disk, or use a shared PostgreSQL store for several "
        "machines (see README)."
    )


#: The former name of :func:`unsupported_filesystem`.
warn_if_network_share = unsupported_filesystem


class _Shared:
    """One store's engine in this process, and how many openers still use it."""

    def __init__(self, engine: Engine, queue: "WriteQueue | None") -> None:
        self.engine = engine
        self.queue = queue
        self.users = 0


#: The engine of every store open in this process, by (process id, store): one engine per
#: store per process, shared by everything in it (the window, a rebuilt service after a
#: settings change, the demo provider's checks, doctor). A second engine would not be wrong in
#: itself, but building one is where a store file was touched; one engine also means one pool
#: and one write queue per store. The process id keeps a forked child from using its parent's
#: connections (it opens its own).
_SHARED: dict[tuple[int, str, bool], _Shared] = {}


def _key(url: str, echo: bool) -> tuple[int, str, bool] | None:
    """Which store ``url`` names, in this process; None for one that is not shared (an
    in-memory SQLite database is its engine's own)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = _sqlite_path(url)
        if path is None:
            return None
        where = str(path.expanduser().resolve())
        query = "&".join(f"{k}={v}" for k, v in sorted(parsed.query.items()))
        return os.getpid(), f"sqlite:{where}?{query}", echo
    return os.getpid(), parsed.render_as_string(hide_password=False), echo


def make_engine(url: str, *, echo: bool = False) -> Engine:
    """The engine of the store at ``url`` in this process, with Slate's durability and locking
    settings: made on first use, the same engine (counted) afterwards. Give it back with
    :func:`release_engine` (``Store.close`` does)."""
    try:
        key = _key(url, echo)
    except Exception as exc:  # noqa: BLE001 - SQLAlchemy raises ArgumentError on junk
        raise ValidationError("store", f"not a database URL: {exc}") from None
    if key is None:
        return _new_engine(url, echo=echo)
    with STORE_FILES_LOCK:
        shared = _SHARED.get(key)
        if shared is None:
            engine = _new_engine(url, echo=echo)
            path = _sqlite_path(url) if engine.dialect.name == "sqlite" else None
            shared = _Shared(engine, WriteQueue(path) if path is not None else None)
            _SHARED[key] = shared
        shared.users += 1
        return shared.engine


def _shared_of(engine: Engine) -> tuple[tuple[int, str, bool], _Shared] | None:
    for key, shared in _SHARED.items():
        if shared.engine is engine and key[0] == os.getpid():
            return key, shared
    return None


def release_engine(engine: Engine) -> None:
    """One opener is done with ``engine``: the last one closes its connections (the next
    :func:`make_engine` of that store builds a new engine)."""
    with STORE_FILES_LOCK:
        found = _shared_of(engine)
        if found is not None:
            key, shared = found
            shared.users -= 1
            if shared.users > 0:
                return
            del _SHARED[key]
            if shared.queue is not None:
                shared.queue.close()
    engine.dispose()


def _new_engine(url: str, *, echo: bool = False) -> Engine:
    """A new engine for a store URL (see :func:`make_engine`, which shares it)."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        path = _sqlite_path(url)
        if path is not None:
            private_dir(path.parent, tighten_existing=False)
            fs = unsupported_filesystem(path)
            if fs:
                raise ValidationError("store", filesystem_refusal(path, fs))
            prepare_sqlite(path)  # 0600 before SQLite creates its WAL and SHM beside it
        engine = create_engine(url, echo=echo, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # let us emit BEGIN ourselves
            enable_wal(dbapi_conn, BUSY_TIMEOUT_MS / 1000)
            cur = dbapi_conn.cursor()
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
            url,
            echo=echo,
            pool_pre_ping=True,
            pool_size=5,
            max_overflow=5,
            pool_recycle=1800,
            connect_args=pg_connect_args(),
        )
    raise ValidationError("store", f"unsupported database {backend!r}; use sqlite or postgresql")


class WriteQueue:
    """Writers to one SQLite file wait in line in the kernel, not in SQLite's busy handler.

    SQLite's busy handler sleeps in growing steps (up to 100 ms) while it waits for the write
    lock, so under contention a waiter often sleeps on after the lock is free. An exclusive
    ``flock`` on ``<db>.writers`` (taken around every write transaction, by every Slate process)
    wakes the next writer the moment the lock is released. A thread lock orders the writers of
    one process, which share the file descriptor. Readers never touch it (WAL).

    The wait is bounded (:data:`WRITE_LOCK_TIMEOUT`, like SQLite's busy timeout): a writer that
    finds the lock taken waits in a helper thread's blocking ``flock`` and gives up after the
    bound with :class:`StoreBusy`, naming the holder — every holder writes its process id, host
    and the time into the lock file as it takes the lock. A stopped process (SIGSTOP) holding
    the lock therefore costs the others one bounded wait, never their life.
    """

    def __init__(self, db_path: Path, timeout: float | None = None) -> None:
        self.path = db_path.with_name(db_path.name + ".writers")
        self.timeout = timeout
        self._thread_lock = threading.Lock()
        self._state = threading.Lock()
        self._fd: int | None = None
        self._record = b""
        self._record_pid = -1
        #: A helper thread blocked in ``flock`` for a waiter that gave up: the next waiter
        #: takes it over (never two ``flock`` calls on one descriptor at once).
        self._pending: threading.Event | None = None
        self._waiting = False

    # -- who holds it ---------------------------------------------------------------------
    def _holder_record(self) -> bytes:
        pid = os.getpid()
        if self._record_pid != pid:  # after a fork: this process's own record
            line = f"pid {pid} host {socket.gethostname()}"
            self._record = line.encode()[:200]
            self._record_pid = pid
        return self._record

    def _mark_holder(self, fd: int) -> None:
        record = self._holder_record() + f" since {time.time():.3f}\n".encode()
        try:
            os.pwrite(fd, record.ljust(256), 0)
        except OSError:
            pass  # who holds it is a courtesy; the lock itself is what counts

    def holder(self) -> str | None:
        """Who holds (or last held) the lock, as written in the lock file."""
        try:
            with open(self.path, "rb") as f:
                text = f.read(256).decode("utf-8", "replace").strip()
        except OSError:
            return None
        return text or None

    def _busy(self, waited: float) -> StoreBusy:
        who = self.holder()
        said = f"held by {who}" if who else "held by a process that did not say who it is"
        alive = ""
        m = re.match(r"pid (\d+) host (\S+)", who or "")
        if m and m.group(2) == socket.gethostname():
            alive = (
                " (that process is still there: stopped or hung?)"
                if _pid_exists(int(m.group(1)))
                else " (that process is gone)"
            )
        return StoreBusy(
            f"store busy: its write lock {self.path} was not free after {waited:.0f} s; "
            f"{said}{alive}. Nothing was written; try again once that process has finished or "
            "been ended."
        )

    # -- taking it ------------------------------------------------------------------------
    def _open(self) -> int:
        if self._fd is None:
            self._fd = open_private(self.path, os.O_RDWR)
        return self._fd

    def __enter__(self) -> "WriteQueue":
        import fcntl

        limit = WRITE_LOCK_TIMEOUT if self.timeout is None else self.timeout
        start = time.monotonic()
        if not self._thread_lock.acquire(timeout=limit):
            raise self._busy(time.monotonic() - start)
        try:
            fd = self._open()
            if self._pending is None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError as exc:
                    if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                        raise
                    self._wait(fd, start + limit - time.monotonic(), start)
            else:
                self._wait(fd, start + limit - time.monotonic(), start)
            self._mark_holder(fd)
        except BaseException:
            self._thread_lock.release()
            raise
        return self

    def _wait(self, fd: int, remaining: float, start: float) -> None:
        """Block in ``flock`` in a helper thread, for at most ``remaining`` seconds."""
        with self._state:
            event = self._pending
            if event is None:
                event = self._pending = threading.Event()
                threading.Thread(
                    target=self._block, args=(fd, event), daemon=True, name="slate-write-lock"
                ).start()
            self._waiting = True
        event.wait(max(remaining, 0.0))
        with self._state:
            self._waiting = False
            if event.is_set():
                self._pending = None
                return
        raise self._busy(time.monotonic() - start)

    def _block(self, fd: int, event: threading.Event) -> None:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)
        with self._state:
            if self._waiting:
                event.set()  # handed to the waiter, who now holds the lock
                return
            # Everyone gave up meanwhile: let go at once.
            self._pending = None
            fcntl.flock(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Close the lock file (its store's engine was released; no writer is in line)."""
        with self._thread_lock:
            fd, self._fd = self._fd, None
            if fd is not None and self._pending is None:
                os.close(fd)

    def __exit__(self, *exc: object) -> None:
        import fcntl

        try:
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._thread_lock.release()


def _pid_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def write_queue(engine: Engine) -> "WriteQueue | None":
    """The write queue of a SQLite file store (None for PostgreSQL or in-memory SQLite): the
    one of its shared engine, so the writers of one process wait in one line."""
    if engine.dialect.name != "sqlite":
        return None
    with STORE_FILES_LOCK:
        found = _shared_of(engine)
        if found is not None:
            return found[1].queue
    path = _sqlite_path(str(engine.url))
    return WriteQueue(path) if path is not None else None


def few(dialect: str, cond: ColumnElement[bool]) -> ColumnElement[bool]:
    """``cond`` marked for SQLite's planner as true of few rows (``unlikely()``; the condition
    still drives an index). For the unfinished states: a handful of tasks among a history of
    thousands, but SQLite's statistics (ANALYZE) give each state the same share, so the planner
    weighs ``state IN (4 states)`` as every task and scans them all — 50–160 ms a poll on a
    100k-slot store, for the nothing it finds. PostgreSQL knows from its own statistics."""
    if dialect != "sqlite":
        return cond
    # untyped: a Boolean function is compared with 1 on SQLite, and `unlikely(…) = 1` drives
    # no index
    hinted: ColumnElement[bool] = func.unlikely(cond)
    return hinted


def writer(engine: Engine) -> Engine:
    """The same engine, with write transactions (``BEGIN IMMEDIATE`` on SQLite)."""
    return engine.execution_options(slate_write=True)
