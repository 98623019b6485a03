"""Provider values kept whole, the owner's boot and PID namespace, and the store's own id.

* ``provider_task_id``, ``provider_status`` and ``error_code`` become TEXT: PostgreSQL refused
  a task id over 128 characters *after* the create (the slot went ``unknown``, the id was lost)
  and clipped long status words and codes. SQLite never enforced the lengths; its columns are
  left as they are (no table rebuild).
* ``owner_boot`` and ``owner_pidns`` (the owner's ``/proc/sys/kernel/random/boot_id`` and
  ``/proc/self/ns/pid``): a process id is trusted only within the same boot and PID namespace.
* ``store_info`` with a random ``store_id``: handles name the store that made them.
"""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from alembic import op

revision = "0005_owner_text_store_id"
down_revision = "0004_slot_boundary"
branch_labels = None
depends_on = None

PROVIDER_COLUMNS = (("provider_task_id", 128), ("provider_status", 64), ("error_code", 32))


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name, _width in PROVIDER_COLUMNS:
            op.alter_column("tasks", name, type_=sa.Text, existing_nullable=True)
    op.add_column("tasks", sa.Column("owner_boot", sa.Text))
    op.add_column("tasks", sa.Column("owner_pidns", sa.Text))
    info = op.create_table(
        "store_info",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.bulk_insert(info, [{"name": "store_id", "value": uuid.uuid4().hex}])


def downgrade() -> None:
    op.drop_table("store_info")
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("owner_pidns")
        batch.drop_column("owner_boot")
    if op.get_bind().dialect.name == "postgresql":
        for name, width in PROVIDER_COLUMNS:
            # A value longer than the old width would not fit: keep its head (the history
            # keeps the provider's raw answer).
            op.execute(
                sa.text(
                    f"UPDATE tasks SET {name} = left({name}, {width}) "
                    f"WHERE length({name}) > {width}"
                )
            )
            op.alter_column("tasks", name, type_=sa.String(width), existing_nullable=True)
