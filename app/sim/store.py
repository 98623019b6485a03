"""Task, file and image records of the demo provider, in SQLite.

In memory for one process, or in a file (WAL, busy timeout, ``BEGIN IMMEDIATE``) so several
short-lived processes that each embed a server see the same tasks. A task's progress is derived
from its creation time, and its media from its parameters, so any process can answer for it.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tasks (
    task_id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    prompt TEXT NOT NULL,
    params TEXT NOT NULL,
    outcome TEXT NOT NULL,
    file_id INTEGER UNIQUE
);
CREATE TABLE IF NOT EXISTS images (
    image_id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    prompt TEXT NOT NULL,
    params TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS creates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    prompt TEXT NOT NULL,
    made INTEGER NOT NULL
);
"""


def _new_numeric_id() -> str:
    """A MiniMax-like 15-digit decimal id (exact as a JSON number in any client)."""
    return f"{int(time.time())}{secrets.randbelow(10**5):05d}"


class SimStore:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._memory: sqlite3.Connection | None = None
        if path is None:
            self._memory = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            self._memory.executescript(_SCHEMA)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        if self._memory is not None:
            with self._lock:
                yield self._memory
            return
        db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=30000")
            yield db
        finally:
            db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    # ------------------------------------------------------------------ tasks

    def add_task(self, prompt: str, params: dict[str, Any], outcome: str) -> dict[str, Any]:
        created = time.time()
        for _ in range(20):
            task_id = _new_numeric_id()
            file_id = int(_new_numeric_id())
            try:
                with self._write() as db:
                    db.execute(
                        "INSERT INTO tasks (task_id, created_at, prompt, params, outcome, file_id)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (task_id, created, prompt, json.dumps(params), outcome, file_id),
                    )
                return {"task_id": task_id, "created_at": created, "prompt": prompt,
                        "params": params, "outcome": outcome, "file_id": file_id}
            except sqlite3.IntegrityError:
                continue
        raise RuntimeError("could not allocate a task id")

    @staticmethod
    def _task_row(row: tuple) -> dict[str, Any]:
        return {"task_id": row[0], "created_at": row[1], "prompt": row[2],
                "params": json.loads(row[3]), "outcome": row[4], "file_id": row[5]}

    def get_task(self, task_id: str) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute(
                "SELECT task_id, created_at, prompt, params, outcome, file_id FROM tasks WHERE task_id = ?",
                (task_id,),
            ).fetchone()
        return self._task_row(row) if row else None

    def task_by_file(self, file_id: int) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute(
                "SELECT task_id, created_at, prompt, params, outcome, file_id FROM tasks WHERE file_id = ?",
                (file_id,),
            ).fetchone()
        return self._task_row(row) if row else None

    def list_tasks(self) -> list[dict[str, Any]]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT task_id, created_at, prompt, params, outcome, file_id FROM tasks ORDER BY created_at"
            ).fetchall()
        return [self._task_row(r) for r in rows]

    # ------------------------------------------------------------------ images

    def add_images(self, prompt: str, params: dict[str, Any]) -> str:
        for _ in range(20):
            image_id = _new_numeric_id()
            try:
                with self._write() as db:
                    db.execute(
                        "INSERT INTO images (image_id, created_at, prompt, params) VALUES (?, ?, ?, ?)",
                        (image_id, time.time(), prompt, json.dumps(params)),
                    )
                return image_id
            except sqlite3.IntegrityError:
                continue
        raise RuntimeError("could not allocate an image id")

    def get_images(self, image_id: str) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute(
                "SELECT image_id, created_at, prompt, params FROM images WHERE image_id = ?", (image_id,)
            ).fetchone()
        if not row:
            return None
        return {"image_id": row[0], "created_at": row[1], "prompt": row[2], "params": json.loads(row[3])}

    # ------------------------------------------------------------------ create log

    def log_create(self, kind: str, prompt: str, made: bool) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO creates (at, kind, prompt, made) VALUES (?, ?, ?, ?)",
                (time.time(), kind, prompt, 1 if made else 0),
            )

    def create_counts(self) -> dict[str, Any]:
        with self._connect() as db:
            by_prompt = db.execute("SELECT prompt, COUNT(*) FROM creates GROUP BY prompt").fetchall()
            made = db.execute(
                "SELECT prompt, COUNT(*) FROM creates WHERE made = 1 GROUP BY prompt"
            ).fetchall()
            total = db.execute("SELECT COUNT(*) FROM creates").fetchone()[0]
            tasks = db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
        return {
            "creates_total": total,
            "creates_by_prompt": dict(by_prompt),
            "made_by_prompt": dict(made),
            "tasks_total": tasks,
        }

    def clear_create_log(self) -> None:
        with self._write() as db:
            db.execute("DELETE FROM creates")

    def close(self) -> None:
        if self._memory is not None:
            with self._lock:
                self._memory.close()
