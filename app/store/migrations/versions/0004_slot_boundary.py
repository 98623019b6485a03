"""The boundary is the slot: a unique index over (tenant, slot_key, provider, endpoint, slot_copy).

Until now only the kind-prefixed idempotency key was unique, so an image and a video submit of
one RequestId racing on PostgreSQL could both insert (READ COMMITTED lets both reads find
nothing). The slot itself is now unique, whatever the kind; the idempotency key stays unique too.

A store may already hold several tasks for one slot (made by that race). Each of them may be a
paid task, so none is dropped or hidden: the first (lowest id) keeps ``slot_copy`` 0, the others
get 1, 2, …; both get a ``duplicate_slot`` event in the slot's history, the migration logs them,
and ``status``/``history``/``doctor`` show them. Every row written from now on has
``slot_copy`` 0, so the index holds for every new row.

Discipline (docs/DECISIONS.md): the unique index is created and read back from the catalog
before anything is dropped; only then the plain index it supersedes goes. The old boundary (the
idempotency key) is never touched, so there is no moment without one; a failure anywhere rolls
the whole migration back (one transaction).
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from alembic import op

from app.store.migrations.indexes import create_verified_unique_index

revision = "0004_slot_boundary"
down_revision = "0003_browse_index"
branch_labels = None
depends_on = None

log = logging.getLogger("app.store.migrations")

SLOT_INDEX = "uq_tasks_slot"
SLOT_COLUMNS = ("tenant", "slot_key", "provider", "endpoint", "slot_copy")
PLAIN_SLOT_INDEX = "ix_tasks_slot"
PLAIN_SLOT_COLUMNS = ("tenant", "slot_key", "provider", "endpoint")

_tasks = sa.table(
    "tasks",
    sa.column("id", sa.Integer),
    sa.column("tenant", sa.String),
    sa.column("slot_key", sa.String),
    sa.column("provider", sa.String),
    sa.column("endpoint", sa.String),
    sa.column("kind", sa.String),
    sa.column("state", sa.String),
    sa.column("provider_task_id", sa.String),
    sa.column("request_id", sa.String),
    sa.column("created_at", sa.Float),
    sa.column("slot_copy", sa.Integer),
)
_events = sa.table(
    "slot_events",
    sa.column("tenant", sa.String),
    sa.column("slot_key", sa.String),
    sa.column("provider", sa.String),
    sa.column("endpoint", sa.String),
    sa.column("task_id", sa.Integer),
    sa.column("at", sa.Float),
    sa.column("event", sa.String),
    sa.column("state", sa.String),
    sa.column("detail", sa.Text),
    sa.column("data", sa.JSON),
)


def _mark_duplicates(bind: sa.Connection) -> int:
    """Number the tasks of every slot that has more than one; report them. Returns how many
    slots had duplicates."""
    key = (_tasks.c.tenant, _tasks.c.slot_key, _tasks.c.provider, _tasks.c.endpoint)
    crowded = sa.select(*key).group_by(*key).having(sa.func.count() > 1).subquery()
    rows = (
        bind.execute(
            sa.select(_tasks)
            .join(crowded, sa.and_(*(c == crowded.c[c.name] for c in key)))
            .order_by(*key, _tasks.c.id)
        )
        .mappings()
        .all()
    )
    groups: dict[tuple[str, ...], list[Any]] = defaultdict(list)
    for row in rows:
        groups[(row["tenant"], row["slot_key"], row["provider"], row["endpoint"])].append(row)
    now = time.time()
    for (tenant, slot_key, provider, endpoint), tasks in groups.items():
        for copy, task in enumerate(tasks):
            if copy:
                bind.execute(
                    sa.update(_tasks).where(_tasks.c.id == task["id"]).values(slot_copy=copy)
                )
        listed = [
            {
                "task": t["id"],
                "kind": t["kind"],
                "state": t["state"],
                "provider_task_id": t["provider_task_id"],
                "created_at": t["created_at"],
            }
            for t in tasks
        ]
        said = ", ".join(
            f"{t['kind']} task {t['id']} ({t['state']}, provider task "
            f"{t['provider_task_id'] or 'unknown'})"
            for t in tasks
        )
        detail = (
            f"this slot holds {len(tasks)} tasks, made before the store enforced one task "
            f"per slot: {said}. Each may have been paid; all are kept."
        )
        bind.execute(
            _events.insert(),
            [
                {
                    "tenant": tenant,
                    "slot_key": slot_key,
                    "provider": provider,
                    "endpoint": endpoint,
                    "task_id": t["id"],
                    "at": now,
                    "event": "duplicate_slot",
                    "state": t["state"],
                    "detail": detail,
                    "data": {"tasks": listed},
                }
                for t in tasks
            ],
        )
        log.warning(
            "store migration: slot %s (RequestId %s, tenant %s, %s/%s) holds %d tasks: "
            "%s; all kept, numbered by slot_copy",
            slot_key[:16],
            tasks[0]["request_id"],
            tenant,
            provider,
            endpoint,
            len(tasks),
            said,
        )
    return len(groups)


def upgrade() -> None:
    bind = op.get_bind()
    op.add_column("tasks", sa.Column("slot_copy", sa.Integer, nullable=False, server_default="0"))
    _mark_duplicates(bind)
    create_verified_unique_index("tasks", SLOT_INDEX, SLOT_COLUMNS, keeping=PLAIN_SLOT_INDEX)
    # Verified: the plain index over the same leading columns is superseded.
    op.drop_index(PLAIN_SLOT_INDEX, table_name="tasks")


def downgrade() -> None:
    op.create_index(PLAIN_SLOT_INDEX, "tasks", list(PLAIN_SLOT_COLUMNS))
    op.drop_index(SLOT_INDEX, table_name="tasks")
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("slot_copy")
