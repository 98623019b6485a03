"""Replacing a unique index without a moment of no boundary: create, verify, then drop."""

from __future__ import annotations

from typing import Sequence

import sqlalchemy as sa
from alembic import op


class IndexVerificationError(RuntimeError):
    pass


def unique_indexes(bind: sa.Connection, table: str) -> dict[str, tuple[str, ...]]:
    """Unique indexes of ``table`` as read back from the database catalog."""
    insp = sa.inspect(bind)
    found = {
        ix["name"]: tuple(c for c in ix["column_names"] if c)
        for ix in insp.get_indexes(table)
        if ix.get("unique")
    }
    for uc in insp.get_unique_constraints(table):
        if uc.get("name"):
            found.setdefault(uc["name"], tuple(uc["column_names"]))
    return found


def create_verified_unique_index(
    table: str, new: str, columns: Sequence[str], keeping: str | None = None
) -> None:
    """Create the unique index ``new`` and read it back from the catalog: raise (the migration
    rolls back, whatever it would have dropped stays) unless it is there, unique, over exactly
    ``columns``."""
    bind = op.get_bind()
    op.create_index(new, table, list(columns), unique=True)
    got = unique_indexes(bind, table).get(new)
    if got != tuple(columns):
        raise IndexVerificationError(
            f"unique index {new} on {table} reads back as {got}, expected {tuple(columns)}"
            + (f"; keeping {keeping}" if keeping else "")
        )


def replace_unique_index(table: str, old: str, new: str, columns: Sequence[str]) -> None:
    """Create ``new``, read it back from the catalog, and only then drop ``old``."""
    create_verified_unique_index(table, new, columns, keeping=old)
    op.drop_index(old, table_name=table)
