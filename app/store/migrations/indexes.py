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


def replace_unique_index(table: str, old: str, new: str, columns: Sequence[str]) -> None:
    """Create ``new``, read it back from the catalog, and only then drop ``old``."""
    bind = op.get_bind()
    op.create_index(new, table, list(columns), unique=True)
    got = unique_indexes(bind, table).get(new)
    if got != tuple(columns):
        raise IndexVerificationError(
            f"unique index {new} on {table} reads back as {got}, expected {tuple(columns)}; "
            f"keeping {old}"
        )
    op.drop_index(old, table_name=table)
