"""Prices a designer gives: a model's price (or one part of it: a resolution, a clip, a token
direction) set by this user (``slate prices set``, Settings → Prices), over the shipped table.

One new table; nothing of the ledger (tasks, events, media, quota) is touched. Its unique index
is created and read back from the catalog before the migration commits (the create–verify
discipline of every index change; there is no old index to drop). Downgrade drops the table.
"""

import sqlalchemy as sa
from alembic import op

from app.store.migrations.indexes import create_verified_unique_index

revision = "0009_user_prices"
down_revision = "0008_picks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "user_prices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant", sa.String(64), nullable=False),
        sa.Column("user_hash", sa.String(64), nullable=False),
        sa.Column("model", sa.String(80), nullable=False),
        sa.Column("part", sa.String(32), nullable=False, server_default=""),
        sa.Column("amount", sa.String(40), nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("set_at", sa.Float, nullable=False),
    )
    create_verified_unique_index(
        "user_prices", "uq_user_prices_part", ("tenant", "user_hash", "model", "part")
    )


def downgrade() -> None:
    op.drop_table("user_prices")
