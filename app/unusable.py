"""What makes the configured data dir or store unusable, told as a :class:`BadConfiguration`.

The composition root (``bootstrap.build``) hands every error of opening the data dir and the
store to :func:`at_open`; an error later, while a command writes, goes to :func:`while_writing`,
which answers only for a full disk or a store that turned read-only (anything else stays what
it is). Both return None for an error that is not about the configuration.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

from app.domain.errors import BadConfiguration

_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG}
_NOT_WRITABLE = {errno.EACCES, errno.EPERM, errno.EROFS}
#: Free bytes below which an I/O error of the store is taken for a full disk.
NEARLY_FULL = 1 << 20


def _sqlite_path(config: Any) -> Path | None:
    """The file of a SQLite store; None for PostgreSQL (its database name is no path here)."""
    from sqlalchemy.engine import make_url

    from app.store.engine import _sqlite_path as path_of

    try:
        if make_url(config.store).get_backend_name() != "sqlite":
            return None
        return path_of(config.store)
    except Exception:  # noqa: BLE001 - not a SQLite URL, or not one we can read
        return None


def _sqlite_code(exc: BaseException) -> str | None:
    """SQLite's own error name (``SQLITE_FULL``, ``SQLITE_NOTADB``…) inside ``exc``, if any."""
    seen: BaseException | None = exc
    for _ in range(4):
        if seen is None:
            return None
        name = getattr(seen, "sqlite_errorname", None)
        if isinstance(name, str):
            return name
        seen = getattr(seen, "orig", None) or seen.__cause__
    return None


def _os_errno(exc: BaseException) -> int | None:
    seen: BaseException | None = exc
    for _ in range(4):
        if seen is None:
            return None
        if isinstance(seen, OSError) and seen.errno is not None:
            return seen.errno
        seen = getattr(seen, "orig", None) or seen.__cause__
    return None


def _on_disk(config: Any, reason: str) -> BadConfiguration:
    """A full disk or a read-only file: the store's own file when the user named one outside
    the data dir, else the data dir."""
    store = _sqlite_path(config)
    data_dir = Path(config.data_dir)
    if store is not None and _abs(data_dir) not in _abs(store).parents:
        return BadConfiguration("store", str(store), reason)
    return BadConfiguration("data_dir", str(data_dir), reason)


def _nearly_full(config: Any) -> bool:
    """Less than :data:`NEARLY_FULL` bytes left where the store or the data dir lives."""
    for place in (_sqlite_path(config), Path(config.data_dir)):
        while place is not None and not place.exists() and place != place.parent:
            place = place.parent
        if place is None:
            continue
        try:
            st = os.statvfs(place if place.is_dir() else place.parent)
        except (OSError, AttributeError):
            continue
        if st.f_bavail * st.f_frsize < NEARLY_FULL:
            return True
    return False


def while_writing(exc: BaseException, config: Any) -> BadConfiguration | None:
    """A full disk (``ENOSPC``; SQLite's ``SQLITE_FULL``, or an I/O error with the disk all but
    full: SQLite cannot grow its WAL index there) or a store turned read-only."""
    if isinstance(exc, BadConfiguration):
        return exc
    code = _sqlite_code(exc)
    if code is not None and code.startswith("SQLITE_FULL"):
        return _on_disk(config, "disk_full")
    if code is not None and code.startswith("SQLITE_IOERR") and _nearly_full(config):
        return _on_disk(config, "disk_full")
    if code is not None and code.startswith("SQLITE_READONLY"):
        return _on_disk(config, "not_writable")
    if _os_errno(exc) in _FULL:
        return _on_disk(config, "disk_full")
    return None


def media_not_written(exc: OSError, config: Any) -> BadConfiguration | None:
    """Media this machine could not write into the data dir: a full disk as
    :func:`while_writing` says it; a file where a media folder should be, or a folder that
    cannot be written, named by its own path."""
    full = while_writing(exc, config)
    if full is not None:
        return full
    where = _abs(getattr(exc, "filename", None) or config.data_dir)
    if exc.errno in (errno.EEXIST, errno.ENOTDIR):
        return BadConfiguration("data_dir", str(where), "under_file")
    if exc.errno in _NOT_WRITABLE:
        return BadConfiguration("data_dir", str(where), "not_writable")
    return None


def at_open(exc: BaseException, config: Any) -> BadConfiguration | None:
    """An error of preparing the data dir or opening the store, said as what is wrong."""
    late = while_writing(exc, config)
    if late is not None:
        return late
    data_dir = str(config.data_dir)
    code = _sqlite_code(exc)
    store = _sqlite_path(config)
    if code is not None and store is not None:
        if code.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
            return BadConfiguration("store", str(store), "not_database")
        if code.startswith("SQLITE_CANTOPEN"):
            return BadConfiguration("store", str(store), "cannot_open")
    number = _os_errno(exc)
    if number is None:
        return None
    where = _abs(getattr(exc, "filename", None) or data_dir)
    store_side = (
        store is not None
        and where in (_abs(store), _abs(store.parent))
        and _abs(store.parent) != _abs(data_dir)
    )
    setting, path = ("store", str(store)) if store_side else ("data_dir", data_dir)
    if number == errno.EISDIR and setting == "store":
        return BadConfiguration(setting, path, "is_folder")
    if number in (errno.EEXIST, errno.ENOTDIR) and setting == "store":
        return BadConfiguration(setting, path, "under_file")  # its folder is a file
    if number == errno.EEXIST:
        return BadConfiguration(setting, path, "is_file")
    if number == errno.ENOTDIR:
        return BadConfiguration(setting, path, "under_file")
    if number in _NOT_WRITABLE:
        return BadConfiguration(setting, path, "not_writable")
    return None


def _abs(path: Any) -> Path:
    return Path(os.path.abspath(os.fspath(path)))


def another_folder(config: Any, folder: Path, problem: BadConfiguration) -> Any:
    """The config to continue with in ``folder``, the desktop app's way out: that folder as the
    data dir, and its own SQLite store unless the store is elsewhere and not at fault (a team's
    PostgreSQL store stays)."""
    folder = Path(folder)
    keep_store = problem.setting != "store" and _sqlite_path(config) is None
    if keep_store:
        return config.with_(data_dir=folder)
    return config.with_(data_dir=folder, store=f"sqlite:///{(folder / 'slate.sqlite3').as_posix()}")
