"""Browsing at 100,000 slots: the prompt as a plain column, and an index per project.

``prompt_text`` copies ``params.prompt`` (the parameters stay the source of truth) so a text
search is a LIKE over one column instead of a JSON extraction per row; the index serves the
slot browser's project → day → slot levels. The unique boundary is untouched.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_browse_index"
down_revision = "0002_widen_boundary"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tasks", sa.Column("prompt_text", sa.Text))
    if op.get_bind().dialect.name == "postgresql":
        op.execute("UPDATE tasks SET prompt_text = params::jsonb ->> 'prompt'")
    else:
        op.execute("UPDATE tasks SET prompt_text = json_extract(params, '$.prompt')")
    op.create_index(
        "ix_tasks_browse",
        "tasks",
        ["tenant", "user_hash", "provider", "endpoint", "project", "created_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_tasks_browse", table_name="tasks")
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("prompt_text")
