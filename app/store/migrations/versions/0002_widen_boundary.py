"""Widen the idempotency boundary to (tenant, key, provider, endpoint).

The new unique index is created and read back from the catalog before the narrow one is
dropped, so there is never a moment without a boundary (a crash midway leaves both).
"""

from app.store.migrations.indexes import replace_unique_index

revision = "0002_widen_boundary"
down_revision = "0001_initial"
branch_labels = None
depends_on = None

NARROW = ("tenant", "idempotency_key")
WIDE = ("tenant", "idempotency_key", "provider", "endpoint")


def upgrade() -> None:
    replace_unique_index("tasks", old="uq_tasks_tenant_key", new="uq_tasks_boundary", columns=WIDE)


def downgrade() -> None:
    replace_unique_index(
        "tasks", old="uq_tasks_boundary", new="uq_tasks_tenant_key", columns=NARROW
    )
