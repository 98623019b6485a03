"""Slate's files and folders are the user's alone: folders 0700, files 0600, whatever the umask.

The store, its WAL/SHM and lock files, logs, secrets, notices and media are created owner-only
and tightened when found wider (an older Slate, or a copy, left them 0644). A folder Slate
creates is 0700; an existing folder the user chose as data dir is left as it is — Slate cannot
know what else lives there — but warned about, and everything of Slate's inside it is
owner-only anyway. Windows has no such modes: there these calls only create.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
import time
from pathlib import Path
from typing import Any

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
#: What SQLite keeps beside a database file.
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def _posix() -> bool:
    return os.name == "posix"


def _owned(st: os.stat_result) -> bool:
    return not hasattr(os, "getuid") or st.st_uid == os.getuid()


def tighten(path: Path, mode: int) -> bool:
    """Make an existing file or folder of ours ``mode`` if others could read it; True if
    changed. A path owned by someone else is left alone (chmod would fail anyway)."""
    if not _posix():
        return False
    try:
        st = path.lstat()
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(st.st_mode):
        return False  # never through a link to something that is not Slate's
    if stat.S_IMODE(st.st_mode) & 0o077 and _owned(st):
        os.chmod(path, mode)
        return True
    return False


def private_dir(path: Path, *, tighten_existing: bool = True) -> Path:
    """Create ``path`` (and missing parents) with ``path`` itself 0700. An existing ``path``
    is tightened to 0700 when ``tighten_existing`` (Slate's own folders: media, logs,
    notices); a data dir the user chose is not (see :func:`others_can_read`)."""
    try:
        path.mkdir(parents=True)
    except FileExistsError:
        if not path.is_dir():
            raise
        if tighten_existing:
            tighten(path, PRIVATE_DIR)
        return path
    if _posix():
        os.chmod(path, PRIVATE_DIR)  # exact, whatever the umask
    return path


def open_private(path: Path, flags: int) -> int:
    """``os.open`` for a file that is the user's alone: created 0600 (whatever the umask),
    tightened to 0600 when it already existed wider."""
    fd = os.open(path, flags | os.O_CREAT, PRIVATE_FILE)
    if _posix():
        try:
            st = os.fstat(fd)
            if stat.S_IMODE(st.st_mode) != PRIVATE_FILE and _owned(st):
                os.fchmod(fd, PRIVATE_FILE)
        except BaseException:
            os.close(fd)
            raise
    return fd


def private_file(path: Path) -> Path:
    """Make sure ``path`` exists and is 0600 (created empty if missing). Opens the file: never
    use it on a SQLite store or its companions (see :func:`prepare_sqlite`)."""
    os.close(open_private(path, os.O_RDWR))
    return path


def create_private(path: Path) -> bool:
    """Create ``path`` empty and 0600 when it does not exist (True); an existing file is never
    opened — only tightened to 0600 with ``chmod`` when wider — and must be a readable,
    writable file (else the error ``os.open`` would have raised, naming it)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path)) from None
        if not os.access(path, os.R_OK | os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path)) from None
        tighten(path, PRIVATE_FILE)
        return False
    try:
        if _posix():
            os.fchmod(fd, PRIVATE_FILE)  # exact, whatever the umask
    finally:
        os.close(fd)  # a file made just now: no lock of this process's is on it yet
    return True


#: Serializes the creation of store files in this process with the engines opened on them
#: (``app.store.engine`` holds it while it prepares a file and builds its engine), so no
#: connection of this process can lock a file while :func:`create_private` still has it open.
STORE_FILES_LOCK = threading.RLock()


def prepare_sqlite(db: Path) -> None:
    """Before SQLite opens ``db``: the file exists and is 0600, so the WAL and SHM files SQLite
    creates beside it get 0600 too (SQLite gives them the database file's mode); companions
    left wider by an older Slate are tightened.

    Never opens an existing database file or companion: on POSIX, closing *any* descriptor of
    a file drops *all* of this process's locks on it — the locks of SQLite's own connections
    among them — and another process would then believe it is alone, checkpoint and delete the
    WAL under this one's feet (SQLite, "How To Corrupt An SQLite Database File", 2.2). An
    existing file is only ``chmod``-ed; a missing one is created before any connection to it."""
    with STORE_FILES_LOCK:
        create_private(db)
    for suffix in SQLITE_COMPANIONS:
        tighten(db.with_name(db.name + suffix), PRIVATE_FILE)


#: What Slate keeps in a data dir: folders (all of whose contents are Slate's) and file-name
#: prefixes. Nothing else in a data dir the user chose is ever touched.
SLATE_FOLDERS = ("media", "logs", "notices", "demo-media-cache", "demo-tls")
SLATE_FILE_PREFIXES = (
    "slate.sqlite3",
    "handle-secret",
    ".handle-secret.lock",
    "demo-provider.sqlite3",
    "demo-provider.port",
)
#: Written once the data dir's older files were tightened (so it is done once, not per start).
TIGHTENED_MARKER = ".private-v1"


def tighten_slate_files(data_dir: Path) -> int:
    """Once per data dir: make every file and folder of Slate's in it owner-only (an older
    Slate made them under the umask, e.g. 0644/0755). Returns how many were changed."""
    if not _posix():
        return 0
    marker = data_dir / TIGHTENED_MARKER
    if marker.exists():
        return 0
    changed = 0
    try:
        for entry in data_dir.iterdir():
            if entry.name in SLATE_FOLDERS and entry.is_dir() and not entry.is_symlink():
                changed += tighten(entry, PRIVATE_DIR)
                for root, dirs, files in os.walk(entry):
                    for name in dirs:
                        changed += tighten(Path(root, name), PRIVATE_DIR)
                    for name in files:
                        changed += tighten(Path(root, name), PRIVATE_FILE)
            elif entry.name.startswith(SLATE_FILE_PREFIXES) and entry.is_file():
                changed += tighten(entry, PRIVATE_FILE)
        private_file(marker)
    except OSError:
        pass  # a read-only or foreign data dir: the files are tightened as Slate meets them
    return changed


def others_can_read(path: Path) -> int | None:
    """The mode of a folder others can read or enter, or None (owner-only, or absent)."""
    if not _posix():
        return None
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return None
    return mode if mode & 0o077 else None


def enable_wal(conn: Any, seconds: float = 30.0) -> None:
    """``PRAGMA journal_mode=WAL`` on a SQLite DBAPI connection, waiting for the others.

    While another connection holds a lock on the file — several Slate processes opening one
    new store (or the demo provider's) at the same instant — SQLite answers the journal-mode
    change with "database is locked" at once, without its busy handler. A store already in WAL
    needs no change (the mode is read first, which takes no lock); otherwise the change is
    tried again, in growing pauses, for up to ``seconds`` (the busy timeout)."""
    import sqlite3

    deadline = time.monotonic() + seconds
    pause = 0.005
    while True:
        cur = conn.cursor()
        try:
            mode = cur.execute("PRAGMA journal_mode").fetchone()
            if mode is not None and str(mode[0]).lower() == "wal":
                return
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            words = str(exc).lower()
            if ("locked" not in words and "busy" not in words) or time.monotonic() >= deadline:
                raise
        finally:
            cur.close()
        time.sleep(pause)
        pause = min(pause * 2, 0.1)
