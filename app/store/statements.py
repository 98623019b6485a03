"""The prebuilt Core statements of the hot paths, built once per dialect.

A submit is the hot path (docs/BENCHMARKS.md): the claim's statements are built here once and
shared by the general claim (:mod:`app.store.repository`) and the lean SQLite claim
(:mod:`app.store.sqlite_claim`), which compiles these very statements for its DBAPI cursor.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sqlalchemy import Table, bindparam, select
from sqlalchemy.dialects import sqlite

from app.store.models import BOUNDARY_COLUMNS, events, quota_t, tasks


class Statements:
    """Core statements for one dialect (``sqlite`` or ``postgresql``)."""

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        #: The slot's task, by the kind-free slot key (binds: tenant, slot_key, provider, endpoint).
        self.find_slot = (
            select(tasks)
            .where(
                tasks.c.tenant == bindparam("tenant"),
                tasks.c.slot_key == bindparam("slot_key"),
                tasks.c.provider == bindparam("provider"),
                tasks.c.endpoint == bindparam("endpoint"),
            )
            .order_by(tasks.c.slot_copy)  # 0: the slot's task (others: kept from before 0004)
            .limit(1)
        )
        #: The claim: insert unless the boundary index holds the slot already; the new row back.
        self.claim_insert = (
            self.insert(tasks)
            .on_conflict_do_nothing(index_elements=list(BOUNDARY_COLUMNS))
            .returning(*tasks.c)
        )
        self.event_insert = events.insert()
        #: Count today's quota units; ``[True]`` only up to ``limit`` (no row back: refused).
        self.quota_upsert = {limited: self._quota(limited) for limited in (False, True)}

    def insert(self, table: Table) -> Any:
        if self.dialect == "postgresql":  # imported only where used: a SQLite start skips it
            from sqlalchemy.dialects import postgresql

            return postgresql.insert(table)
        return sqlite.insert(table)

    def _quota(self, limited: bool) -> Any:
        ins = self.insert(quota_t)
        return ins.on_conflict_do_update(
            index_elements=["tenant", "user_hash", "kind", "day"],
            set_={"used": quota_t.c.used + ins.excluded.used},
            where=(quota_t.c.used + ins.excluded.used <= bindparam("limit")) if limited else None,
        ).returning(quota_t.c.used)


@lru_cache(maxsize=None)
def statements_for(dialect: str) -> Statements:
    return Statements(dialect)
