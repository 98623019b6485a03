"""Task, upload, image and billing records of the demo provider, in SQLite.

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
from typing import Any, Callable, Iterator

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
CREATE TABLE IF NOT EXISTS v2_tasks (
    task_id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    prompt TEXT NOT NULL,
    params TEXT NOT NULL,
    outcome TEXT NOT NULL,
    extra_seconds REAL NOT NULL DEFAULT 0,
    cancelled_at REAL,
    deleted_at REAL
);
CREATE INDEX IF NOT EXISTS v2_tasks_created ON v2_tasks (created_at);
CREATE TABLE IF NOT EXISTS files (
    file_id INTEGER PRIMARY KEY,
    created_at REAL NOT NULL,
    purpose TEXT NOT NULL,
    filename TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    info TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cancels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    prompt TEXT NOT NULL
);
"""
#: Columns added after the first release: (table, column, declaration) for older state files.
_ADDED_COLUMNS = (("tasks", "extra_seconds", "REAL NOT NULL DEFAULT 0"),)
_TASK_COLUMNS = "task_id, created_at, prompt, params, outcome, file_id, extra_seconds"
_V2_COLUMNS = (
    "task_id, created_at, prompt, params, outcome, extra_seconds, cancelled_at, deleted_at"
)


def _new_numeric_id() -> str:
    """A MiniMax-like 15-digit decimal id (exact as a JSON number in any client)."""
    return f"{int(time.time())}{secrets.randbelow(10**5):05d}"


class SimStore:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._memory: sqlite3.Connection | None = None
        if path is None:
            self._memory = sqlite3.connect(
                ":memory:", check_same_thread=False, isolation_level=None
            )
            self._memory.executescript(_SCHEMA)
        else:
            from app.files import prepare_sqlite, private_dir

            private_dir(path.parent, tighten_existing=False)
            prepare_sqlite(path)  # the demo provider keeps prompts too: 0600, WAL/SHM alike
            from app.files import enable_wal

            with self._connect() as db:
                enable_wal(db)
                db.executescript(_SCHEMA)
        with self._write() as db:
            for table, column, decl in _ADDED_COLUMNS:
                have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")

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

    def add_task(
        self,
        prompt: str,
        params: dict[str, Any],
        outcome: str,
        created_at: float | None = None,
        extra_seconds: float = 0.0,
    ) -> dict[str, Any]:
        created = time.time() if created_at is None else created_at
        for _ in range(20):
            task_id = _new_numeric_id()
            file_id = int(_new_numeric_id())
            try:
                with self._write() as db:
                    db.execute(
                        "INSERT INTO tasks (task_id, created_at, prompt, params, outcome, file_id,"
                        " extra_seconds) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            task_id,
                            created,
                            prompt,
                            json.dumps(params),
                            outcome,
                            file_id,
                            extra_seconds,
                        ),
                    )
                return {
                    "task_id": task_id,
                    "created_at": created,
                    "prompt": prompt,
                    "params": params,
                    "outcome": outcome,
                    "file_id": file_id,
                    "extra_seconds": extra_seconds,
                }
            except sqlite3.IntegrityError:
                continue
        raise RuntimeError("could not allocate a task id")

    @staticmethod
    def _task_row(row: tuple) -> dict[str, Any]:
        return {
            "task_id": row[0],
            "created_at": row[1],
            "prompt": row[2],
            "params": json.loads(row[3]),
            "outcome": row[4],
            "file_id": row[5],
            "extra_seconds": row[6] or 0.0,
        }

    def get_task(self, task_id: str) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute(
                f"SELECT {_TASK_COLUMNS} FROM tasks WHERE task_id = ?",
                (task_id,),
            ).fetchone()
        return self._task_row(row) if row else None

    def task_by_file(self, file_id: int) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute(
                f"SELECT {_TASK_COLUMNS} FROM tasks WHERE file_id = ?",
                (file_id,),
            ).fetchone()
        return self._task_row(row) if row else None

    def list_tasks(self) -> list[dict[str, Any]]:
        with self._connect() as db:
            rows = db.execute(f"SELECT {_TASK_COLUMNS} FROM tasks ORDER BY created_at").fetchall()
        return [self._task_row(r) for r in rows]

    # ------------------------------------------------------------------ V2 tasks

    def add_v2_task(
        self,
        prompt: str,
        params: dict[str, Any],
        outcome: str,
        created_at: float,
        extra_seconds: float = 0.0,
    ) -> dict[str, Any]:
        for _ in range(20):
            task_id = _new_numeric_id()
            try:
                with self._write() as db:
                    db.execute(
                        "INSERT INTO v2_tasks (task_id, created_at, prompt, params, outcome,"
                        " extra_seconds) VALUES (?, ?, ?, ?, ?, ?)",
                        (task_id, created_at, prompt, json.dumps(params), outcome, extra_seconds),
                    )
                return {
                    "task_id": task_id,
                    "created_at": created_at,
                    "prompt": prompt,
                    "params": params,
                    "outcome": outcome,
                    "extra_seconds": extra_seconds,
                    "cancelled_at": None,
                    "deleted_at": None,
                }
            except sqlite3.IntegrityError:
                continue
        raise RuntimeError("could not allocate a task id")

    @staticmethod
    def _v2_row(row: tuple) -> dict[str, Any]:
        return {
            "task_id": row[0],
            "created_at": row[1],
            "prompt": row[2],
            "params": json.loads(row[3]),
            "outcome": row[4],
            "extra_seconds": row[5] or 0.0,
            "cancelled_at": row[6],
            "deleted_at": row[7],
        }

    def get_v2_task(self, task_id: str) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute(
                f"SELECT {_V2_COLUMNS} FROM v2_tasks WHERE task_id = ?", (task_id,)
            ).fetchone()
        return self._v2_row(row) if row else None

    def list_v2_tasks(self, since: float | None = None) -> list[dict[str, Any]]:
        """Tasks not deleted, created at or after ``since``, newest first."""
        with self._connect() as db:
            rows = db.execute(
                f"SELECT {_V2_COLUMNS} FROM v2_tasks WHERE deleted_at IS NULL AND created_at >= ?"
                " ORDER BY created_at DESC, task_id DESC",
                (float("-inf") if since is None else since,),
            ).fetchall()
        return [self._v2_row(r) for r in rows]

    def v2_delete(
        self, task_id: str, now: float, decide: Callable[[dict[str, Any]], str]
    ) -> tuple[str, dict[str, Any] | None]:
        """Cancel or delete in one write transaction: ``decide(task)`` answers ``cancelled``,
        ``deleted`` or a refusal word, judged on the row as it is inside the transaction."""
        with self._write() as db:
            row = db.execute(
                f"SELECT {_V2_COLUMNS} FROM v2_tasks WHERE task_id = ?", (task_id,)
            ).fetchone()
            if row is None:
                return "missing", None
            task = self._v2_row(row)
            action = decide(task)
            if action == "cancelled":
                db.execute("UPDATE v2_tasks SET cancelled_at = ? WHERE task_id = ?", (now, task_id))
                db.execute("INSERT INTO cancels (at, prompt) VALUES (?, ?)", (now, task["prompt"]))
            elif action == "deleted":
                db.execute("UPDATE v2_tasks SET deleted_at = ? WHERE task_id = ?", (now, task_id))
            return action, task

    # ------------------------------------------------------------------ uploads

    def add_file(
        self, created_at: float, purpose: str, filename: str, size: int, info: dict[str, Any]
    ) -> dict[str, Any]:
        for _ in range(20):
            file_id = int(_new_numeric_id())
            try:
                with self._write() as db:
                    db.execute(
                        "INSERT INTO files (file_id, created_at, purpose, filename, bytes, info)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (file_id, created_at, purpose, filename, size, json.dumps(info)),
                    )
                return {
                    "file_id": file_id,
                    "created_at": created_at,
                    "purpose": purpose,
                    "filename": filename,
                    "bytes": size,
                    "info": info,
                }
            except sqlite3.IntegrityError:
                continue
        raise RuntimeError("could not allocate a file id")

    def get_file(self, file_id: int) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute(
                "SELECT file_id, created_at, purpose, filename, bytes, info FROM files"
                " WHERE file_id = ?",
                (file_id,),
            ).fetchone()
        if not row:
            return None
        return {
            "file_id": row[0],
            "created_at": row[1],
            "purpose": row[2],
            "filename": row[3],
            "bytes": row[4],
            "info": json.loads(row[5]),
        }

    # ------------------------------------------------------------------ images

    def add_images(self, prompt: str, params: dict[str, Any]) -> str:
        for _ in range(20):
            image_id = _new_numeric_id()
            try:
                with self._write() as db:
                    db.execute(
                        "INSERT INTO images (image_id, created_at, prompt, params)"
                        " VALUES (?, ?, ?, ?)",
                        (image_id, time.time(), prompt, json.dumps(params)),
                    )
                return image_id
            except sqlite3.IntegrityError:
                continue
        raise RuntimeError("could not allocate an image id")

    def get_images(self, image_id: str) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute(
                "SELECT image_id, created_at, prompt, params FROM images WHERE image_id = ?",
                (image_id,),
            ).fetchone()
        if not row:
            return None
        return {
            "image_id": row[0],
            "created_at": row[1],
            "prompt": row[2],
            "params": json.loads(row[3]),
        }

    def list_images(self) -> list[dict[str, Any]]:
        with self._connect() as db:
            rows = db.execute("SELECT image_id, created_at, prompt, params FROM images").fetchall()
        return [
            {"image_id": r[0], "created_at": r[1], "prompt": r[2], "params": json.loads(r[3])}
            for r in rows
        ]

    # ------------------------------------------------------------------ create log

    def log_create(self, kind: str, prompt: str, made: bool) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO creates (at, kind, prompt, made) VALUES (?, ?, ?, ?)",
                (time.time(), kind, prompt, 1 if made else 0),
            )

    def create_counts(self) -> dict[str, Any]:
        with self._connect() as db:
            by_prompt = db.execute(
                "SELECT prompt, COUNT(*) FROM creates GROUP BY prompt"
            ).fetchall()
            made = db.execute(
                "SELECT prompt, COUNT(*) FROM creates WHERE made = 1 GROUP BY prompt"
            ).fetchall()
            total = db.execute("SELECT COUNT(*) FROM creates").fetchone()[0]
            tasks = db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
            v2_tasks = db.execute("SELECT COUNT(*) FROM v2_tasks").fetchone()[0]
            cancelled = db.execute(
                "SELECT prompt, COUNT(*) FROM cancels GROUP BY prompt"
            ).fetchall()
        return {
            "creates_total": total,
            "creates_by_prompt": dict(by_prompt),
            "made_by_prompt": dict(made),
            "cancelled_by_prompt": dict(cancelled),
            "tasks_total": tasks + v2_tasks,
        }

    def clear_create_log(self) -> None:
        with self._write() as db:
            db.execute("DELETE FROM creates")
            db.execute("DELETE FROM cancels")

    def close(self) -> None:
        if self._memory is not None:
            with self._lock:
                self._memory.close()
