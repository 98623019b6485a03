"""The lean claim's kept connection stays its process's: a child forked after it was made
never uses it (a SQLite connection must not cross a fork); the parent keeps using it."""

from __future__ import annotations

from pathlib import Path

from app.store.aio import open_store
from tests.support.procs import in_forked_child


def test_a_forked_child_never_uses_the_parents_kept_connection(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'slate.sqlite3'}")
    try:
        fast = store._fast
        assert fast is not None
        kept = fast._kept_connection()
        assert kept is not None  # the parent's own, made now
        assert in_forked_child(lambda: fast._kept_connection() is None), (
            "the forked child was given its parent's connection"
        )
        assert fast._kept_connection() is kept  # the parent's, still
    finally:
        store.close()
