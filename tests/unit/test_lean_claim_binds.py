"""The lean SQLite claim binds every tasks column by position: a column without a value must
fail loudly, never be stored as SQLAlchemy's REQUIRED marker (a new column once was)."""

from __future__ import annotations

import pytest
from sqlalchemy.dialects import sqlite

from app.store.models import tasks
from app.store.prepared import compile_once
from app.store.statements import statements_for


def _insert():
    return compile_once(
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


def test_the_binds_carry_the_statements_own_values_and_the_column_types() -> None:
    find = compile_once(statements_for("sqlite").find_slot, sqlite.dialect())
    slot = {"tenant": "t", "slot_key": "k", "provider": "demo", "endpoint": "local"}
    # the statement's own LIMIT/OFFSET come after the slot's four columns
    assert find.args(slot) == ("t", "k", "demo", "local", 1, 0)
    values = {c.key: None for c in tasks.c if c.key != "id"}
    values["params"] = {"prompt": "tide", "n": 2}
    args = _insert().args(values)
    at = [c.key for c in tasks.c if c.key != "id"].index("params")
    assert args[at] == '{"prompt": "tide", "n": 2}'  # the JSON column's own bind processor
    assert args.count(None) == len(values) - 1  # None stays NULL, never "null"


def test_the_claim_keeps_one_connection_of_its_own_and_closes_it_with_the_store(
    tmp_path,
) -> None:
    import sqlite3
    import threading

    from tests.bench.submit_cost import make_service, prepare_claim

    svc = make_service(tmp_path, f"sqlite:///{tmp_path}/s.db")
    store, fast = svc.store, svc.store._fast
    assert fast is not None
    try:
        assert store.claim_blocking(prepare_claim(svc, 1)).claimed
        own = fast._kept.dbapi_connection
        done: list = []  # a claim from another thread (the service's worker threads)
        other = threading.Thread(
            target=lambda: done.append(store.claim_blocking(prepare_claim(svc, 2)))
        )
        other.start()
        other.join(timeout=60)
        assert done and done[0].claimed
        assert fast._kept.dbapi_connection is own  # the same one, not the pool's
        assert store.engine.pool.checkedout() == 0  # nothing of the pool's is held
        # while the claim's connection is in use, a read takes the pool's, never waits on it
        req = prepare_claim(svc, 1)
        found: list = []
        with fast._using:
            reader = threading.Thread(
                target=lambda: found.append(store.read_slot(req.scope, req.slot_key))
            )
            reader.start()
            reader.join(timeout=60)
        assert found and found[0].request_id == req.write.request_id
    finally:
        store.close()
    with pytest.raises(sqlite3.ProgrammingError):  # closed with the store
        own.execute("SELECT 1")


def test_a_store_in_memory_claims_on_its_one_connection(tmp_path) -> None:
    from tests.bench.submit_cost import make_service, prepare_claim

    svc = make_service(tmp_path, "sqlite://")
    try:
        assert svc.store._fast is not None and svc.store._fast._kept_connection() is None
        req = prepare_claim(svc, 1)
        assert svc.store.claim_blocking(req).claimed  # on the pool's one connection
        assert svc.store.read_slot(req.scope, req.slot_key) is not None
    finally:
        svc.store.close()
