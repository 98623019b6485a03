"""The cost of every task: the estimate stored at claim time, the provider's report, the day.

``cost_estimate``/``cost_reported`` hold exact decimal text (NULL: unknown / not reported),
``cost_currency`` the price table's currency (NULL: the slot was not priced at claim — it was
claimed before this revision; Slate prices such a slot from its parameters when it is shown or
summed, and never as 0), ``cost_basis`` how the estimate was computed, and ``cost_day`` the
local calendar day of the claim, which the daily budget and ``spend --by day`` count by.

Existing slots get their ``cost_day`` here, from ``created_at`` in this machine's local time
(daylight saving included), in one statement; their cost is left NULL (the price table, with the
user's override, is the service's to read): ``spend`` prices them once, the first time it counts
them, and stores that. ``ix_tasks_cost_day`` serves the budget check in the claim transaction
(one user's slots of one day); the partial ``ix_tasks_unpriced`` finds the slots still to price
and is empty afterwards. The unique boundary is untouched.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_cost"
down_revision = "0005_owner_text_store_id"
branch_labels = None
depends_on = None

INDEX = "ix_tasks_cost_day"
UNPRICED = "ix_tasks_unpriced"
COLUMNS = (
    ("cost_estimate", sa.String(40)),
    ("cost_currency", sa.String(3)),
    ("cost_basis", sa.Text),
    ("cost_reported", sa.String(40)),
    ("cost_day", sa.String(10)),
)


def _backfill_days(bind: sa.Connection) -> None:
    from app.store.queries import local_offsets

    first, last = bind.execute(sa.text("SELECT min(created_at), max(created_at) FROM tasks")).one()
    if first is None:
        return
    offsets = local_offsets(float(first), float(last))

    def num(value: float) -> str:
        return repr(int(value)) if float(value).is_integer() else repr(float(value))

    if len(offsets) == 1:
        offset = num(offsets[0][1])
    else:
        whens = " ".join(
            f"WHEN created_at < {num(since)} THEN {num(off)}"
            for (since, _), (_, off) in zip(offsets[1:], offsets[:-1])
        )
        offset = f"CASE {whens} ELSE {num(offsets[-1][1])} END"
    if bind.dialect.name == "postgresql":
        day = f"to_char(to_timestamp(created_at + {offset}) AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
    else:
        day = f"strftime('%Y-%m-%d', created_at + {offset}, 'unixepoch')"
    bind.execute(sa.text(f"UPDATE tasks SET cost_day = {day} WHERE cost_day IS NULL"))


def upgrade() -> None:
    for name, type_ in COLUMNS:
        op.add_column("tasks", sa.Column(name, type_))
    _backfill_days(op.get_bind())
    op.create_index(INDEX, "tasks", ["tenant", "user_hash", "provider", "endpoint", "cost_day"])
    unpriced = sa.text("cost_currency IS NULL")
    op.create_index(
        UNPRICED,
        "tasks",
        ["tenant", "user_hash", "provider", "endpoint"],
        sqlite_where=unpriced,
        postgresql_where=unpriced,
    )


def downgrade() -> None:
    op.drop_index(UNPRICED, table_name="tasks")
    op.drop_index(INDEX, table_name="tasks")
    with op.batch_alter_table("tasks") as batch:
        for name, _type in reversed(COLUMNS):
            batch.drop_column(name)
