"""The PostgreSQL test databases are reused (tests/support/pg.py, ``reused_database``): a test
gets a database holding exactly what a new copy of the migrated template holds, whatever the
test before it did with its rows, sequences and sessions; a database changed beyond its rows
is dropped, never handed on; and a process the earlier test left behind cannot reach the
database under its old name."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from tests.support import pg


def _connect(url: str) -> Any:
    return psycopg.connect(pg._psycopg_dsn(url), autocommit=True, connect_timeout=10)


def _contents(url: str) -> dict[str, Any]:
    """Every table's rows (as COPY writes them, sorted), every sequence's state, the shape."""
    with _connect(url) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            ).fetchall()
        ]
        rows = {}
        with conn.cursor() as cur:
            for table in tables:
                with cur.copy(f"COPY {table} TO STDOUT") as copy:
                    rows[table] = sorted(b"".join(bytes(c) for c in copy).splitlines())
        sequences = conn.execute(
            "SELECT sequencename, last_value FROM pg_sequences ORDER BY 1"
        ).fetchall()
        shape = conn.execute(pg._SHAPE).fetchone()[0]
    return {"rows": rows, "sequences": sequences, "shape": shape}


def _fresh_contents() -> dict[str, Any]:
    with pg.fresh_database(migrated=True) as url:
        return _contents(url)


def _exists(name: str) -> bool:
    with _connect(pg.server().url) as admin:
        return bool(
            admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        )


def _dbname(url: str) -> str:
    return str(pg.make_url(url).database)


def test_a_reused_database_holds_what_a_new_copy_holds() -> None:
    fresh = _fresh_contents()
    assert any(fresh["rows"].values()), "the template has rows of its own (store_info)"
    with pg.reused_database() as url:
        first = _dbname(url)
        assert _contents(url) == fresh
        with _connect(url) as conn:
            conn.execute("UPDATE store_info SET value = 'changed'")
            conn.execute(
                "INSERT INTO slot_events (tenant, slot_key, provider, endpoint, at, event)"
                " VALUES ('t', 'k', 'demo', 'image', 1.0, 'claimed')"
            )
            conn.execute("SELECT nextval(pg_get_serial_sequence('slot_events', 'id'))")
        assert _contents(url) != fresh
        left = _connect(url)  # a session the test leaves open, as a stray process would
        left.execute("BEGIN")
        left.execute("SELECT count(*) FROM store_info")
    pooled = list(pg._pool[pg.server().url])
    with pg.reused_database() as url:
        again = _dbname(url)
        assert again == pooled[-1], "the one given back (reset, not dropped)"
        assert again != first, "given back under a new name"
        assert _contents(url) == fresh, "rows, sequences and shape as a new copy"
    assert not _exists(first), "the old name reaches nothing"
    with pytest.raises(psycopg.OperationalError):
        left.execute("SELECT 1")  # its session was ended
    left.close()


#: What a test may change beyond rows, each of which must keep the database from being reused.
CHANGES = {
    "table-added": ["CREATE TABLE extra (x integer)"],
    "column-added": ["ALTER TABLE picks ADD COLUMN extra integer"],
    "default-changed": ["ALTER TABLE store_info ALTER COLUMN value SET DEFAULT 'x'"],
    "null-allowed": ["ALTER TABLE tasks ALTER COLUMN request_id DROP NOT NULL"],
    "index-added": ["CREATE INDEX extra_ix ON tasks (prompt_text)"],
    "constraint-added": ["ALTER TABLE picks ADD CONSTRAINT extra_ck CHECK (rating <= 5)"],
    "function-added": ["CREATE FUNCTION extra() RETURNS integer LANGUAGE sql AS 'SELECT 1'"],
    "view-added": ["CREATE VIEW extra_v AS SELECT 1 AS x"],
    "sequence-added": ["CREATE SEQUENCE extra_seq"],
    "schema-added": ["CREATE SCHEMA extra_ns"],
    "migration-changed": ["UPDATE alembic_version SET version_num = 'other'"],
    "setting-changed": ["ALTER DATABASE \"{db}\" SET work_mem = '8MB'"],
    "statistics-gathered": ["ANALYZE store_info"],
}


@pytest.mark.parametrize("change", list(CHANGES), ids=list(CHANGES))
def test_a_database_changed_beyond_its_rows_is_dropped_not_reused(change: str) -> None:
    fresh = _fresh_contents()
    pool = pg._pool.setdefault(pg.server().url, [])
    for _ in range(5):  # one in the pool at least (a database autovacuum analyzed is dropped)
        with pg.reused_database():
            pass
        if pool:
            break
    before = list(pool)
    assert before
    with pg.reused_database() as url:
        changed = _dbname(url)
        assert changed in before and changed not in pool
        with _connect(url) as conn:
            for statement in CHANGES[change]:
                conn.execute(statement.format(db=changed))
    assert sorted(pool) == sorted(n for n in before if n != changed), "not given back"
    assert not _exists(changed)
    assert len([n for n in before if _exists(n)]) == len(before) - 1, "dropped, not renamed"
    with pg.reused_database() as url:
        assert _contents(url) == fresh, "the next one as a new copy"
        with _connect(url) as conn:
            assert not conn.execute(pg._LEFT_BEHIND).fetchone()[0], "no statistics"
