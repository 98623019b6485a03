"""The lean SQLite claim binds every tasks column by position: a column without a value must
fail loudly, never be stored as SQLAlchemy's REQUIRED marker (a new column once was)."""

from __future__ import annotations

import pytest
from sqlalchemy.dialects import sqlite

from app.store.models import tasks
from app.store.sqlite_claim import _compile
from app.store.statements import statements_for


def _insert():
    return _compile(
        statements_for("sqlite").claim_insert,
        sqlite.dialect(),
        [c.key for c in tasks.c if c.key != "id"],
    )


def test_every_tasks_column_needs_a_value() -> None:
    values = {c.key: None for c in tasks.c if c.key != "id"}
    assert len(_insert().args(values)) == len(values)  # all present: bound, in order
    del values["hidden_at"]
    with pytest.raises(KeyError, match="hidden_at"):
        _insert().args(values)


def test_the_claim_request_names_every_column() -> None:
    import tempfile
    from pathlib import Path

    from tests.bench.submit_cost import make_service, prepare_claim  # the claim as submit builds it

    with tempfile.TemporaryDirectory() as d:
        svc = make_service(Path(d), f"sqlite:///{d}/s.db")
        try:
            values = prepare_claim(svc, 1).task_values()
        finally:
            svc.store.close()
    assert {c.key for c in tasks.c if c.key != "id"} <= set(values)
    # priced like a submit's claim: the bench's replays then read the stored cost back
    assert values["cost_currency"] and values["cost_estimate"] is not None
