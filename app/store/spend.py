"""What slots cost, read from the store: the rows spend and the daily budget sum, and the budget
check the claim transaction runs next to the quota.

The rules are the domain's (:mod:`app.domain.cost`: :func:`~app.domain.cost.charge`,
:func:`~app.domain.cost.spend_counted`, :func:`~app.domain.cost.check_budget`); this module only
reads. Slots priced at claim are counted in SQL — grouped by what spend looks at (the group
key, the state, a declared failure, the stored amounts and currency) — so 100,000 slots arrive
as a few hundred ``(SlotCost, count)`` pairs and the amounts are summed exactly, as
:class:`~decimal.Decimal`, in Python. Slots claimed before the cost columns existed
(``cost_currency`` NULL) are priced one by one from their parameters and results with the
current table.

These functions block; :class:`app.store.aio.Store` runs them in a worker thread, and the
claim calls :func:`check_budget_in_claim` inside its own transaction.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal, InvalidOperation
from typing import Any, Sequence

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    bindparam,
    case,
    func,
    literal,
    literal_column,
    not_,
    select,
    text,
)

from app.domain.cost import (
    BudgetCheck,
    Cost,
    GroupBy,
    ReportOutOfRange,
    SlotCost,
    check_budget,
    estimate,
    reported,
    spend_counted,
    usage_of,
)
from app.domain.days import budget_day
from app.domain.naming import project_of
from app.domain.prices import MAX_MONEY, Money, PriceTable, has_given_prices
from app.domain.states import BILLED_WORDS, State
from app.store.models import tasks
from app.store.rows import BudgetRule, Scope

#: The error code of a task the user declared failed (it keeps counting its estimate).
DECLARED_FAILED = "declared_failed"


def amount(text_value: object) -> Money:
    """A stored amount (exact decimal text) back as a Decimal; None for NULL, garbage or a
    figure out of range (above ``MAX_MONEY``: a read never breaks on one)."""
    if text_value is None:
        return None
    try:
        out = Decimal(str(text_value))
    except (InvalidOperation, ValueError):
        return None
    return out if out.is_finite() and 0 <= out <= MAX_MONEY else None


#: The states :func:`provider_billed` reads, as the stored text (an enum member's ``.value``
#: is a descriptor call: every view and spend row asks).
_SUCCEEDED = (State.DOWNLOADING.value, State.SUCCESS.value)
_FAILED = State.FAIL.value


def provider_billed(state: str, provider_status: str | None) -> bool:
    """Whether the provider billed the generation, whatever our download did: it said it
    succeeded, or ended it in a failure it bills (``BILLED_WORDS``: async speech's Expired)."""
    return state in _SUCCEEDED or (state == _FAILED and provider_status in BILLED_WORDS)


PRICED_NOW = "priced now: the slot was claimed before Slate stored costs"
#: A slot claimed at an unknown price, priced at the price the user gave later.
PRICED_GIVEN = "priced now: at the price you gave after it was made"


def lazy_cost(
    kind: str,
    params: dict[str, Any],
    state: str,
    provider_status: str | None,
    results: dict[str, Any] | None,
    stored_reported: str | None,
    table: PriceTable,
    note: str = PRICED_NOW,
) -> Cost:
    """The cost of a slot stored without one (claimed before the cost columns existed): priced
    from its parameters, and its report from its results, with ``table``; the basis says so."""
    est = estimate(kind, params, table)
    rep = amount(stored_reported)
    if rep is None:
        usage = usage_of(kind, results, provider_billed(state, provider_status))
        try:
            rep = reported(kind, params, usage, table)
        except ReportOutOfRange:
            rep = None  # kept raw in the results; counted as if unreported
    return Cost(est.estimate, est.currency, f"{est.basis} ({note})", rep)


def price_unpriced(conn: Connection, scope: Scope, table: PriceTable, day: str, limit: int) -> int:
    """Store a cost for up to ``limit`` slots of ``scope`` claimed before the cost columns
    existed, priced with ``table`` (found through the partial index ``ix_tasks_unpriced``, empty
    once every slot is priced). Returns how many were priced; 0: none is left."""
    rows = conn.execute(
        select(
            tasks.c.id,
            tasks.c.kind,
            tasks.c.params,
            tasks.c.state,
            tasks.c.provider_status,
            tasks.c.results,
            tasks.c.cost_reported,
        )
        .where(*_in_scope(scope), tasks.c.cost_currency.is_(None))
        .limit(limit)
    ).all()
    note = f"priced {day}, when first counted: the slot was claimed before Slate stored costs"
    values = []
    for r in rows:
        record = lazy_cost(
            r.kind,
            r.params or {},
            r.state,
            r.provider_status,
            r.results,
            r.cost_reported,
            table,
            note,
        ).to_record()
        values.append(
            {
                "b_id": r.id,
                "b_estimate": record["estimate"],
                "b_currency": record["currency"],
                "b_basis": record["basis"],
                "b_reported": record["reported"],
            }
        )
    if values:
        conn.execute(_PRICE_UPDATE, values)
    return len(rows)


#: One statement for a batch of slots priced (executemany).
_PRICE_UPDATE = (
    tasks.update()
    .where(tasks.c.id == bindparam("b_id"), tasks.c.cost_currency.is_(None))
    .values(
        cost_estimate=bindparam("b_estimate"),
        cost_currency=bindparam("b_currency"),
        cost_basis=bindparam("b_basis"),
        cost_reported=bindparam("b_reported"),
    )
)


def _in_scope(scope: Scope) -> list[ColumnElement[bool]]:
    return [
        tasks.c.tenant == scope.tenant,
        tasks.c.user_hash == scope.user_hash,
        tasks.c.provider == scope.provider,
        tasks.c.endpoint == scope.endpoint,
    ]


def _model_expr(conn: Connection) -> ColumnElement[Any]:
    # constants inlined, not bound: GROUP BY must repeat the select's expression exactly
    # (PostgreSQL binds on the server, so two bound parameters are two expressions)
    if conn.dialect.name == "sqlite":
        return func.json_extract(tasks.c.params, literal_column("'$.model'"))
    return tasks.c.params.op("->>")(literal_column("'model'"))


def cost_rows(
    conn: Connection,
    scope: Scope,
    table: PriceTable,
    *,
    by: GroupBy | None = None,
    project: str | None = None,
    since: str | None = None,
    day: str | None = None,
    exclude_id: int | None = None,
) -> list[tuple[SlotCost, int]]:
    """The slots of ``scope`` as ``(SlotCost, count)`` pairs for :func:`spend_counted`, in the
    table's currency (amounts stored in another currency count as unknown). Filters: the
    ``project``, claim days from ``since`` (``YYYY-MM-DD``), or exactly ``day``; ``exclude_id``
    leaves one task out (the claim's own row)."""
    cond = _in_scope(scope)
    if project is not None:
        cond.append(tasks.c.project == project)
    if day is not None:
        cond.append(tasks.c.cost_day == day)
    elif since is not None:
        cond.append(tasks.c.cost_day >= since)
    if exclude_id is not None:
        cond.append(tasks.c.id != exclude_id)
    key: ColumnElement[Any]
    if by == "day":
        key = tasks.c.cost_day
    elif by == "project":
        key = tasks.c.project
    elif by == "model":
        key = _model_expr(conn)
    else:
        key = literal(None)
    declared = case(
        (tasks.c.error_code == literal_column(f"'{DECLARED_FAILED}'"), literal_column("1")),
        else_=literal_column("0"),
    )
    billed = case(  # the provider billed it: provider_billed's words (domain.cost.charge)
        (
            tasks.c.provider_status.in_([literal_column(f"'{w}'") for w in sorted(BILLED_WORDS)]),
            literal_column("1"),
        ),
        else_=literal_column("0"),
    )
    count = func.count()
    group = [
        tasks.c.state,
        declared,
        billed,
        tasks.c.cost_estimate,
        tasks.c.cost_reported,
        tasks.c.cost_currency,
    ]
    if by is not None:
        group.insert(0, key)
    stored = tasks.c.cost_currency.is_not(None)
    unknown = and_(stored, tasks.c.cost_estimate.is_(None), tasks.c.cost_reported.is_(None))
    # Slots claimed at an unknown price count at the price this user gave later (DESIGN.md
    # "budget"): with any price given, they are priced again, one by one, like older slots.
    reprice = has_given_prices(table)
    stmt = (
        select(
            key.label("key"),
            tasks.c.state,
            declared.label("declared"),
            billed.label("billed"),
            tasks.c.cost_estimate,
            tasks.c.cost_reported,
            tasks.c.cost_currency,
            count.label("n"),
        )
        .where(and_(*cond, stored, *([not_(unknown)] if reprice else [])))
        .group_by(*group)
    )
    out: list[tuple[SlotCost, int]] = []
    for r in conn.execute(stmt):
        same = r.cost_currency == table.currency
        out.append(
            (
                _slot(
                    by,
                    r.key,
                    r.state,
                    bool(r.declared),
                    amount(r.cost_estimate) if same else None,
                    amount(r.cost_reported) if same else None,
                    bool(r.billed),
                ),
                int(r.n),
            )
        )
    out.extend((slot, 1) for slot in _unpriced(conn, scope, table, cond, by, since, day))
    if reprice:
        again = _unpriced(conn, scope, table, cond, by, since, day, unknown, PRICED_GIVEN)
        out.extend((slot, 1) for slot in again)
    return out


def _slot(
    by: GroupBy | None,
    key: Any,
    state: str,
    declared: bool,
    est: Money,
    rep: Money,
    billed: bool = False,
) -> SlotCost:
    key_text = None if key is None else str(key)
    return SlotCost(
        request_id="",
        model=key_text if by == "model" else "",
        day=key_text if by == "day" else "",
        state=state,
        estimate=est,
        reported=rep,
        declared_failed=declared,
        project=key_text if by == "project" else None,
        billed=billed,
    )


def _unpriced(
    conn: Connection,
    scope: Scope,
    table: PriceTable,
    cond: Sequence[Any],
    by: GroupBy | None,
    since: str | None,
    day: str | None,
    which: ColumnElement[bool] | None = None,
    note: str | None = None,
) -> list[SlotCost]:
    """Slots claimed before the cost columns existed (or those ``which`` names): priced now,
    one by one."""
    rows = conn.execute(
        select(
            tasks.c.request_id,
            tasks.c.kind,
            tasks.c.params,
            tasks.c.state,
            tasks.c.error_code,
            tasks.c.provider_status,
            tasks.c.results,
            tasks.c.cost_reported,
            tasks.c.cost_day,
            tasks.c.created_at,
            tasks.c.project,
        ).where(and_(*cond, tasks.c.cost_currency.is_(None) if which is None else which))
    ).all()
    out = []
    for r in rows:
        slot_day = r.cost_day or budget_day(r.created_at)
        if (day is not None and slot_day != day) or (since is not None and slot_day < since):
            continue
        params = r.params or {}
        cost = lazy_cost(
            r.kind,
            params,
            r.state,
            r.provider_status,
            r.results,
            r.cost_reported,
            table,
            note or PRICED_NOW,
        )
        out.append(
            SlotCost(
                request_id=r.request_id,
                model=str(params.get("model") or ""),
                day=slot_day,
                state=r.state,
                estimate=cost.estimate,
                reported=cost.reported,
                declared_failed=r.error_code == DECLARED_FAILED,
                project=r.project or project_of(r.request_id),
                billed=provider_billed(r.state, r.provider_status),
            )
        )
    return out


# -- the daily budget in the claim ---------------------------------------------------------


def _lock_key(scope: Scope) -> int:
    digest = hashlib.sha256(
        f"slate-budget\0{scope.tenant}\0{scope.user_hash}\0{scope.provider}\0{scope.endpoint}".encode()
    ).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def check_budget_in_claim(
    conn: Connection, scope: Scope, rule: BudgetRule, day: str, cost: Cost | None, own_id: int
) -> BudgetCheck:
    """The budget's answer for this claim, inside the claim's transaction: today's spend of this
    user (the claim's own row left out) plus this create's estimate against the limit.

    Racing claims are serialized so none can read today's spend while another's is still
    uncommitted: SQLite's ``BEGIN IMMEDIATE`` already admits one writer at a time; on
    PostgreSQL a transaction-scoped advisory lock per user (and provider, endpoint) is taken
    before the spend is read, and the read (a new statement under READ COMMITTED) then sees
    every claim committed before the lock was granted."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _lock_key(scope)})
    rows = cost_rows(conn, scope, rule.table, day=day, exclude_id=own_id)
    today = spend_counted(rows, rule.table.currency).total
    this = cost if cost is not None else Cost(None, rule.table.currency, "not priced")
    return check_budget(rule.limit, today, this)
