"""Alembic migrations, applied automatically whenever Slate opens a store."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, inspect, text

from app.store import text_search

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).parent / "migrations"
#: The newest revision; a test checks it against the scripts so the fast path stays honest.
HEAD_REVISION = "0012_read_indexes"


def alembic_config(engine: Engine) -> "Config":
    from alembic.config import Config  # loaded only when a migration runs: start-up stays fast

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["engine"] = engine
    return cfg


def script_head(engine: Engine) -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config(engine)).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the store to ``revision``. Cheap when already there (no Alembic load)."""
    if revision == "head" and current_revision(engine) == HEAD_REVISION:
        return
    from alembic import command

    log.info("migrating store to %s", revision)
    try:
        command.upgrade(alembic_config(engine), revision)
    finally:
        text_search.forget(engine)


def downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    try:
        command.downgrade(alembic_config(engine), revision)
    finally:
        text_search.forget(engine)
