"""The reads a window makes as it opens, on indexes that answer them (issue 34).

On a store of 100,000 slots the window's first second ran a dozen statements of 40–220 ms
each, side by side: each state's newest slots of the owner (``state = ?`` ordered by id) walked
the whole owner's list, the poller's and the status bar's reads of unfinished slots (``state
IN (...)`` of a tenant) scanned the table, and the projects' first page read every row to learn
whether it was hidden. Three indexes, no data changed:

* ``ix_tasks_owner_state`` — (scope, state, id): an owner's slots in one state, newest first.
* ``ix_tasks_active`` — (tenant, provider, endpoint, state): the slots of a state across the
  tenant's users (the poller, the resume, the status bar's counts).
* ``ix_tasks_browse`` gains ``hidden_at`` after (scope, project, created_at), so the projects'
  and days' groups read the index alone.

Indexes only: a failed upgrade leaves the store as it was (the transaction rolls back on
PostgreSQL; on SQLite each step is its own DDL and the upgrade can be run again).
"""

from alembic import op

revision = "0012_read_indexes"
down_revision = "0011_error_reason"
branch_labels = None
depends_on = None

SCOPE = ["tenant", "user_hash", "provider", "endpoint"]


def upgrade() -> None:
    op.create_index("ix_tasks_owner_state", "tasks", [*SCOPE, "state", "id"])
    op.create_index("ix_tasks_active", "tasks", ["tenant", "provider", "endpoint", "state"])
    op.drop_index("ix_tasks_browse", table_name="tasks")
    op.create_index("ix_tasks_browse", "tasks", [*SCOPE, "project", "created_at", "hidden_at"])


def downgrade() -> None:
    op.drop_index("ix_tasks_browse", table_name="tasks")
    op.create_index("ix_tasks_browse", "tasks", [*SCOPE, "project", "created_at"])
    op.drop_index("ix_tasks_active", table_name="tasks")
    op.drop_index("ix_tasks_owner_state", table_name="tasks")
