"""Initial store: tasks, slot events, media, quota use; narrow boundary (tenant, key)."""

import sqlalchemy as sa
from alembic import op

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tasks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant", sa.String(64), nullable=False),
        sa.Column("user_hash", sa.String(64), nullable=False),
        sa.Column("slot_key", sa.String(64), nullable=False),
        sa.Column("idempotency_key", sa.String(80), nullable=False),
        sa.Column("provider", sa.String(16), nullable=False),
        sa.Column("endpoint", sa.String(16), nullable=False),
        sa.Column("request_id", sa.String(120), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("params", sa.JSON, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("provider_task_id", sa.String(128)),
        sa.Column("provider_status", sa.String(64)),
        sa.Column("results", sa.JSON),
        sa.Column("error_code", sa.String(32)),
        sa.Column("error_message", sa.Text),
        sa.Column("owner_host", sa.String(255)),
        sa.Column("owner_pid", sa.Integer),
        sa.Column("owner_started", sa.Float),
        sa.Column("lease_until", sa.Float),
        sa.Column("units", sa.Integer, nullable=False, server_default="1"),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("next_poll_at", sa.Float),
        sa.Column("poll_failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("project", sa.String(120)),
    )
    op.create_index("uq_tasks_tenant_key", "tasks", ["tenant", "idempotency_key"], unique=True)
    op.create_index("ix_tasks_slot", "tasks", ["tenant", "slot_key", "provider", "endpoint"])
    op.create_index(
        "ix_tasks_owner_list", "tasks", ["tenant", "user_hash", "provider", "endpoint", "id"]
    )
    op.create_index("ix_tasks_poll", "tasks", ["state", "next_poll_at"])
    op.create_table(
        "slot_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant", sa.String(64), nullable=False),
        sa.Column("slot_key", sa.String(64), nullable=False),
        sa.Column("provider", sa.String(16), nullable=False),
        sa.Column("endpoint", sa.String(16), nullable=False),
        sa.Column("task_id", sa.Integer, sa.ForeignKey("tasks.id", ondelete="CASCADE")),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("event", sa.String(32), nullable=False),
        sa.Column("state", sa.String(16)),
        sa.Column("detail", sa.Text),
        sa.Column("data", sa.JSON),
    )
    op.create_index(
        "ix_events_slot", "slot_events", ["tenant", "slot_key", "provider", "endpoint", "id"]
    )
    op.create_table(
        "media",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "task_id", sa.Integer, sa.ForeignKey("tasks.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("bytes", sa.Integer, nullable=False),
        sa.Column("content_type", sa.String(64), nullable=False),
        sa.Column("width", sa.Integer),
        sa.Column("height", sa.Integer),
        sa.Column("duration", sa.Float),
        sa.Column("verified_at", sa.Float, nullable=False),
    )
    op.create_index("ix_media_task_id", "media", ["task_id"])
    op.create_table(
        "quota_use",
        sa.Column("tenant", sa.String(64), primary_key=True),
        sa.Column("user_hash", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("used", sa.Integer, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("quota_use")
    op.drop_table("media")
    op.drop_table("slot_events")
    op.drop_table("tasks")
