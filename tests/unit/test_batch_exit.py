"""`batch` exit codes: 0 when every row was created or replayed; otherwise by precedence
2 invalid, 3 conflict, 5 quota/budget, 4 unknown, 6 rejected (or failed), 7 still running."""

from __future__ import annotations

import itertools

import pytest

from app.cli import batch_exit_code, exit_code, render
from app.domain.cost import Cost, SpendTotal
from app.domain.states import State
from app.service.results import (
    BatchReport,
    BatchRow,
    BudgetReport,
    OutcomeKind,
    Problem,
    ProblemCode,
    QuotaReport,
    QuotaUse,
    Result,
)
from app.service.views import TaskView

K = OutcomeKind
PRECEDENCE = [
    (K.INVALID, 2),
    (K.CONFLICT, 3),
    (K.QUOTA_EXCEEDED, 5),
    (K.BUDGET_EXCEEDED, 5),
    (K.UNKNOWN, 4),
    (K.REJECTED, 6),
]


def view(state: State) -> TaskView:
    return TaskView(
        id=1,
        request_id="article:20260816:p:scene-01",
        handle="h",
        kind="video",
        state=state,
        provider="demo",
        provider_task_id=None,
        provider_status=None,
        fingerprint="f",
        params={},
        media=[],
        error=None,
        allowed_actions=[],
        created_at=0.0,
        updated_at=0.0,
        next_poll_at=None,
    )


def report(*rows: BatchRow) -> Result[BatchReport]:
    quota = QuotaReport("2026-08-16", QuotaUse(0, None), QuotaUse(0, None))
    return Result(K.OK, payload=BatchReport(False, rows, Cost(None, "USD", ""), quota))


def row(
    outcome: OutcomeKind, task: TaskView | None = None, problem: Problem | None = None
) -> BatchRow:
    return BatchRow(1, 1, "article:20260816:p:scene-01", "video", outcome, task, problem)


def test_every_row_created_or_replayed_exits_0():
    assert exit_code(report(row(K.CREATED), row(K.REPLAYED))) == 0


@pytest.mark.parametrize(
    "combo", [c for n in (1, 2, 3) for c in itertools.combinations(PRECEDENCE, n)]
)
def test_the_first_outcome_in_the_precedence_decides(combo):
    rows = [row(K.CREATED)] + [row(outcome) for outcome, _code in reversed(combo)]
    assert exit_code(report(*rows)) == combo[0][1]


def test_a_failed_task_exits_6_after_unknown_and_still_running_7_last():
    assert exit_code(report(row(K.CREATED, view(State.FAIL)))) == 6
    assert exit_code(report(row(K.CREATED, view(State.FAIL)), row(K.UNKNOWN))) == 4
    running = row(
        K.CREATED, view(State.PROCESSING), Problem(ProblemCode.STILL_RUNNING, "still processing")
    )
    assert exit_code(report(running)) == 7
    assert exit_code(report(running, row(K.CREATED, view(State.FAIL)))) == 6
    internal = row(K.INVALID, problem=Problem(ProblemCode.INTERNAL, "boom"))
    assert batch_exit_code(report(internal, row(K.CONFLICT)).payload) == 1


def test_a_file_that_cannot_be_read_is_invalid_with_its_field():
    out = Result(K.INVALID, problem=Problem(ProblemCode.INVALID, "file: missing", field="file"))
    assert exit_code(out) == 2 and render(out)["error"]["field"] == "file"


def test_the_batch_json_keys():
    budget = BudgetReport("2026-08-16", "USD", None, SpendTotal())
    rep = report(row(K.CREATED))
    rep = Result(
        K.OK,
        payload=BatchReport(
            True,
            rep.payload.rows,
            Cost(None, "USD", "1 create"),
            rep.payload.quota,
            budget,
            "shots.csv",
        ),
    )
    js = render(rep)
    assert {"outcome", "dry_run", "rows", "counts", "cost"} <= set(js)
    assert js["outcome"] == "ok" and js["dry_run"] is True
    assert {"row", "request_id", "outcome", "task", "error"} <= set(js["rows"][0])
    assert set(js["cost"]) >= {"estimate", "currency"}
    assert js["counts"]["created"] == 1 and js["counts"]["budget_exceeded"] == 0


def test_a_rows_problem_carries_its_row_and_the_json_message_still_names_it():
    """The row travels as a field (the window reads it and the message as they are); the
    command line's ``error.message`` keeps its documented ``row N: field: …`` text."""
    bad = Problem(ProblemCode.INVALID, "duration: must be 4–15", field="duration", row=6)
    assert bad.message == "duration: must be 4–15" and bad.row == 6
    js = render(report(row(K.INVALID, problem=bad)))
    assert js["rows"][0]["error"]["message"] == "row 6: duration: must be 4–15"
    assert js["rows"][0]["error"]["field"] == "duration"
    plain = Problem(ProblemCode.INVALID, "file: missing", field="file")
    assert plain.full_message == "file: missing"
