"""Typed failure reasons (issue 36): ``tasks.error_reason``, beside ``error_code`` and
``error_message`` (which stay as they are: the provider's raw code and words, the evidence).

The column holds a ``FailReason`` value (``app.domain.errors``): never_sent, no_answer,
connection_lost, balance, sensitive_input, … Create–verify: the nullable column is added in
place (both backends), every earlier row whose stored code names its reason without doubt is
given it, and before the migration commits the rows are read back — each such row must hold
exactly its reason, else the upgrade raises and rolls back. A row whose code cannot be mapped
(``unknown``: a lost answer, a broken connection and a closed app were all stored so; a code of
a newer Slate) keeps NULL and is shown with its own text. The mapping is frozen here, as the
codes were written up to this revision; downgrade drops the column.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_error_reason"
down_revision = "0010_text_search"
branch_labels = None
depends_on = None

#: MiniMax's codes as stored by earlier versions (``str(code)``), by reason.
PROVIDER_CODES = {
    "rate_limit": ("1002", "1041", "2045"),
    "wrong_key": ("1004", "2049"),
    "balance": ("1008",),
    "sensitive_input": ("1026",),
    "sensitive_output": ("1027",),
    "plan_quota": ("1028", "1030", "2056"),
    "not_in_plan": ("2061",),
    "invalid_params": ("2013",),
    "prompt_too_long": ("1039",),
    "bad_characters": ("1042",),
    "verify_account": ("2038",),
    "server_error": ("1000", "1001", "1013", "1024", "1033"),
}
#: Slate's own codes as stored by earlier versions, by reason.
SLATE_CODES = {
    "never_sent": ("never_sent",),
    "unrecognized_status": ("unknown_status",),
    "no_media": ("no_media", "expired"),  # expired: a speech file gone before its download
    "sensitive_output_blocked": ("blocked",),  # every image blocked by the safety filter
    "media_bad": ("verification_failed",),
    "declared_failed": ("declared_failed",),
    "overfull_answer": ("overfull_answer",),
    "provider_failed": ("provider_fail",),
    "not_written": ("not_written",),
}


def mapping() -> dict[str, str]:
    """Stored error code → reason, for every code whose reason is certain."""
    out: dict[str, str] = {}
    for reason, codes in {**PROVIDER_CODES, **SLATE_CODES}.items():
        for code in codes:
            out[code] = reason.removesuffix("_blocked")
    return out


class ReasonVerificationError(RuntimeError):
    """The reasons did not read back as written: the upgrade rolls back."""


def upgrade() -> None:
    op.add_column("tasks", sa.Column("error_reason", sa.Text, nullable=True))
    tasks = sa.table("tasks", sa.column("id"), sa.column("error_code"), sa.column("error_reason"))
    conn = op.get_bind()
    by_code = mapping()
    for code, reason in by_code.items():
        conn.execute(tasks.update().where(tasks.c.error_code == code).values(error_reason=reason))
    # verify: every mapped row holds its reason, no other row holds one
    rows = conn.execute(sa.select(tasks.c.id, tasks.c.error_code, tasks.c.error_reason)).all()
    wrong = [r.id for r in rows if by_code.get(r.error_code) != r.error_reason]
    if wrong:
        raise ReasonVerificationError(
            f"error_reason did not read back for {len(wrong)} task(s) (first: {wrong[:5]}); "
            "rolled back"
        )


def downgrade() -> None:
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("error_reason")
