"""Alembic environment: runs on the engine Slate hands over (SQLite or PostgreSQL)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from app.store.engine import writer

engine = context.config.attributes["engine"]

with writer(engine).connect() as connection:
    # One transaction for the whole upgrade, on SQLite too (Alembic treats SQLite's DDL as
    # non-transactional by default, and then two Slate processes opening a fresh store at the
    # same instant could both run a migration). On SQLite the writer begins with BEGIN
    # IMMEDIATE, so a second process waits, then finds the store at head.
    context.configure(
        connection=connection,
        target_metadata=None,
        transaction_per_migration=False,
        transactional_ddl=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Several Slate processes may open a fresh team store at once: one migrates.
            connection.execute(text("SELECT pg_advisory_xact_lock(7405321)"))
        context.run_migrations()
