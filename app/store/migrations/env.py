"""Alembic environment: runs on the engine Slate hands over (SQLite or PostgreSQL)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from app.store.engine import writer

engine = context.config.attributes["engine"]

with writer(engine).connect() as connection:
    context.configure(connection=connection, target_metadata=None, transaction_per_migration=False)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Several Slate processes may open a fresh team store at once: one migrates.
            connection.execute(text("SELECT pg_advisory_xact_lock(7405321)"))
        context.run_migrations()
