"""The text filter on an index (issue 34): RequestId and prompt, any substring.

SQLite: ``tasks_text``, an FTS5 table with the ``trigram`` tokenizer over ``tasks.request_id``
and ``tasks.prompt_text`` (external content: it stores the index only, rowid = ``tasks.id``),
kept in step by three triggers on ``tasks`` (insert; delete; an update of the id, the RequestId
or the prompt) so no write path can forget it. Create–verify: the triggers and the table are
made, the index is built from every row, and before the migration commits it must hold exactly
the rows of ``tasks`` (its per-row size table, id for id) and pass FTS5's integrity check;
otherwise the upgrade raises and rolls back, and the reads stay on the scan. A SQLite without
FTS5 or the trigram tokenizer (before 3.34) builds nothing and logs why: the reads see no
``tasks_text`` and keep the ``LIKE`` scan.

PostgreSQL: ``pg_trgm`` GIN indexes on ``request_id`` and ``prompt_text`` (the expressions
the filter's ``ILIKE`` reads), read back from the catalog before the migration commits. Where
the extension cannot be created (no contrib package, no right to create it) the migration
logs why and leaves the scan. Downgrade drops what was built (the extension stays: other
objects may use it).
"""

import logging

import sqlalchemy as sa
from alembic import op

from app.store.migrations.indexes import IndexVerificationError
from app.store.text_search import trigram_available

revision = "0010_text_search"
down_revision = "0009_user_prices"
branch_labels = None
depends_on = None

log = logging.getLogger(__name__)

TABLE = "tasks_text"

#: PostgreSQL: index name → column, each ``USING gin (column gin_trgm_ops)``.
PG_INDEXES = {"ix_tasks_request_id_trgm": "request_id", "ix_tasks_prompt_trgm": "prompt_text"}

_ROW = "new.id, new.request_id, new.prompt_text"
_OLD = "'delete', old.id, old.request_id, old.prompt_text"
_INSERT = f"INSERT INTO {TABLE}(rowid, request_id, prompt_text) VALUES ({_ROW});"
_DELETE = f"INSERT INTO {TABLE}({TABLE}, rowid, request_id, prompt_text) VALUES ({_OLD});"
TRIGGERS = {
    f"{TABLE}_insert": f"AFTER INSERT ON tasks BEGIN {_INSERT} END",
    f"{TABLE}_delete": f"AFTER DELETE ON tasks BEGIN {_DELETE} END",
    # state, polls and leases update tasks all day: only a change of the text re-indexes
    f"{TABLE}_update": (
        f"AFTER UPDATE OF id, request_id, prompt_text ON tasks BEGIN {_DELETE} {_INSERT} END"
    ),
}


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        _sqlite_up(bind)
    else:
        _postgresql_up(bind)


def _sqlite_up(bind: sa.Connection) -> None:
    why_not = trigram_available(bind)
    if why_not:
        log.warning("the text filter stays a scan: %s", why_not)
        return
    op.execute(
        f"CREATE VIRTUAL TABLE {TABLE} USING fts5(request_id, prompt_text, "
        "content='tasks', content_rowid='id', tokenize='trigram')"
    )
    for name, body in TRIGGERS.items():
        op.execute(f"CREATE TRIGGER {name} {body}")
    op.execute(f"INSERT INTO {TABLE}({TABLE}) VALUES ('rebuild')")
    verify_sqlite(bind)


def verify_sqlite(bind: sa.Connection) -> None:
    """Raise unless ``tasks_text`` indexes every row of ``tasks`` and nothing else."""
    tasks, indexed, missing = bind.execute(
        sa.text(
            f"SELECT (SELECT count(*) FROM tasks), (SELECT count(*) FROM {TABLE}_docsize), "
            f"(SELECT count(*) FROM tasks t WHERE NOT EXISTS "
            f"(SELECT 1 FROM {TABLE}_docsize d WHERE d.id = t.id))"
        )
    ).one()
    if indexed != tasks or missing:
        raise IndexVerificationError(
            f"{TABLE} indexes {indexed} rows ({missing} tasks missing), tasks holds {tasks}"
        )
    # FTS5 reads its whole index back against the content table (raises when they differ)
    bind.execute(sa.text(f"INSERT INTO {TABLE}({TABLE}) VALUES ('integrity-check')"))


def _postgresql_up(bind: sa.Connection) -> None:
    try:
        with bind.begin_nested():
            bind.execute(sa.text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
    except sa.exc.DBAPIError as exc:
        log.warning(
            "the text filter stays a scan: pg_trgm cannot be created here (%s)",
            str(exc.orig).splitlines()[0] if exc.orig else exc,
        )
        return
    for name, col in PG_INDEXES.items():
        op.execute(f"CREATE INDEX {name} ON tasks USING gin ({col} gin_trgm_ops)")
    got = dict(
        bind.execute(
            sa.text("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'tasks'")
        ).all()
    )
    for name, col in PG_INDEXES.items():
        definition = got.get(name, "")
        if "USING gin" not in definition or f"({col} gin_trgm_ops)" not in definition:
            raise IndexVerificationError(f"{name} reads back as {definition!r}")


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        for name in TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.execute(f"DROP TABLE IF EXISTS {TABLE}")
    else:
        for name in PG_INDEXES:
            op.execute(f"DROP INDEX IF EXISTS {name}")
