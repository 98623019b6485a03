"""The journal of provider answers: whatever a create answered is durable before anything else
can fail.

A paid create's answer — a video task id, image URLs (which die in 24 h and cannot be queried
again), inline base64 images — is written to the journal, fsynced, *before* the store is
written. When the store write then fails (a held write lock, a full disk, a lost connection),
nothing is lost: the answer stays in the journal, the command says where, and the next Slate
that opens this store (any command, the desktop app) writes it into its slot
(:meth:`app.service.submit.Submitter.replay_journal`). Once the store has it, the entry goes.

The journal is a folder in the data dir, ``journal/<store id>/``, one file per answer
(``<record id>-<random>.json``, written to a temporary name, fsynced and renamed, the folder
fsynced): no two processes ever write one file, and a crash leaves a whole entry or none.
Folders are 0700, files 0600 (they hold task ids and image links). The API key is scrubbed
out like everywhere else.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.files import open_private, private_dir
from app.scrub import scrub
from app.store.rows import Owner, TaskRow

log = logging.getLogger(__name__)

VERSION = 1

#: Entries this process is writing into the store right now: never replayed by itself.
_in_flight: set[Path] = set()
_in_flight_lock = threading.Lock()


@dataclass(frozen=True)
class Entry:
    path: Path
    data: dict[str, Any]

    @property
    def answer(self) -> dict[str, Any]:
        found = self.data.get("answer")
        return found if isinstance(found, dict) else {}


def folder_for(data_dir: Path, store_id: str) -> Path:
    return data_dir / "journal" / store_id


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write(folder: Path, task: TaskRow, owner: Owner, answer: dict[str, Any]) -> Path:
    """Append one answer for ``task`` (durable when this returns) and mark it in flight."""
    private_dir(folder.parent)
    private_dir(folder)
    data = {
        "version": VERSION,
        "at": time.time(),
        "task_id": task.id,
        "tenant": task.tenant,
        "slot_key": task.slot_key,
        "request_id": task.request_id,
        "kind": task.kind,
        "provider": task.provider,
        "endpoint": task.endpoint,
        "owner": {
            "host": owner.host,
            "pid": owner.pid,
            "started": owner.started,
            "boot": owner.boot,
            "pidns": owner.pidns,
        },
        "answer": scrub(answer),
    }
    name = f"{task.id}-{uuid.uuid4().hex}.json"
    final = folder / name
    tmp = folder / f".{name}.part"
    fd = open_private(tmp, os.O_WRONLY | os.O_EXCL)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, final)
        _fsync_dir(folder)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    with _in_flight_lock:
        _in_flight.add(final)
    return final


def release(path: Path) -> None:
    """This process is done with ``path`` (whether or not the store has it)."""
    with _in_flight_lock:
        _in_flight.discard(path)


def settle(path: Path) -> None:
    """The store has the answer: the entry goes."""
    release(path)
    try:
        path.unlink(missing_ok=True)
        _fsync_dir(path.parent)
    except OSError as exc:  # a leftover entry is replayed as a no-op later
        log.warning("journal entry %s could not be removed: %s", path.name, exc)


def _dated(folder: Path) -> list[tuple[int, Path]]:
    """The folder's entries with their modification times; one removed meanwhile is left out."""
    out = []
    for path in folder.glob("*.json"):
        try:
            out.append((path.stat().st_mtime_ns, path))
        except FileNotFoundError:
            continue
    return out


def pending(folder: Path) -> list[Entry]:
    """The entries not yet in the store (oldest first), except this process's in-flight
    ones. An entry that does not parse is left where it is and logged."""
    if not folder.is_dir():
        return []
    out = []
    # another process of this store settles its entries while this one lists them: an entry
    # gone between the listing and its reading is settled, not an error
    for _mtime, path in sorted(_dated(folder)):
        with _in_flight_lock:
            if path in _in_flight:
                continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            continue
        except (OSError, ValueError) as exc:
            log.error("journal entry %s cannot be read (%s); left in place", path, exc)
            continue
        if isinstance(data, dict) and data.get("version") == VERSION:
            out.append(Entry(path, data))
        else:
            log.error("journal entry %s is of an unknown format; left in place", path)
    return out
