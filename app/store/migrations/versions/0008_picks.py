"""Picks and boards: a designer's favourite / reject flag and 0–5 rating on a result
(``picks``), and named collections of results across projects (``boards``, ``board_items``),
each per user (on a team store every designer has their own).

Three new tables; nothing of the ledger (tasks, events, media, quota) is touched. Each unique
index is created and read back from the catalog before the migration commits (the
create–verify discipline of every index change; there is no old index to drop). Downgrade drops
the three tables.
"""

import sqlalchemy as sa
from alembic import op

from app.store.migrations.indexes import create_verified_unique_index

revision = "0008_picks"
down_revision = "0007_tidy"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "picks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant", sa.String(64), nullable=False),
        sa.Column("user_hash", sa.String(64), nullable=False),
        sa.Column(
            "task_id", sa.Integer, sa.ForeignKey("tasks.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("pick", sa.String(16), nullable=True),
        sa.Column("rating", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    create_verified_unique_index(
        "picks", "uq_picks_result", ("tenant", "user_hash", "task_id", "position")
    )
    op.create_index("ix_picks_pick", "picks", ["tenant", "user_hash", "pick", "task_id"])
    op.create_index("ix_picks_rating", "picks", ["tenant", "user_hash", "rating", "task_id"])
    op.create_table(
        "boards",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant", sa.String(64), nullable=False),
        sa.Column("user_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    create_verified_unique_index("boards", "uq_boards_name", ("tenant", "user_hash", "name"))
    op.create_table(
        "board_items",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "board_id", sa.Integer, sa.ForeignKey("boards.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "task_id", sa.Integer, sa.ForeignKey("tasks.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("added_at", sa.Float, nullable=False),
    )
    create_verified_unique_index(
        "board_items", "uq_board_items_result", ("board_id", "task_id", "position")
    )
    op.create_index("ix_board_items_task", "board_items", ["task_id", "position"])


def downgrade() -> None:
    op.drop_table("board_items")
    op.drop_table("boards")
    op.drop_table("picks")
