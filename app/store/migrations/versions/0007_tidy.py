"""Tidy-up without touching the ledger: ``tasks.hidden_at`` (a slot hidden from the browser and
the gallery, ``slate hide``) and ``media.removed_at`` (a local file deleted by ``slate
prune-media``; the row keeps path, SHA-256 and size, so the slot, its fingerprint, events and
cost stay and a later submit of the same intent is still a replay).

Two nullable columns, added in place on both backends; no index changes (the unique boundary is
untouched), no data rewritten. Downgrade drops them.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_tidy"
down_revision = "0006_cost"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tasks", sa.Column("hidden_at", sa.Float, nullable=True))
    op.add_column("media", sa.Column("removed_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("media") as batch:
        batch.drop_column("removed_at")
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("hidden_at")
