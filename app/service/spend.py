"""Money: ``spend`` (what the slots cost, grouped), today's use of the daily budget, and the cost
of a draft before Create.

The rules are the domain's (:mod:`app.domain.cost`); the store counts the slots
(:mod:`app.store.spend`). Every figure here is in the price table's currency; an amount that is
not known is None, never 0.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import time
from typing import Any, Mapping

from app.domain.cost import GROUP_BY, Cost, GroupBy, SpendTotal, estimate, format_money
from app.domain.cost import price_key, spend_counted
from app.domain.days import budget_day
from app.domain.errors import ValidationError
from app.domain.params import normalize
from app.domain.prices import (
    GivenPrice,
    Money,
    PriceTable,
    confidence,
    parse_money,
    price_part,
)
from app.domain.slots import KINDS, unknown_kind
from app.service.context import ServiceContext
from app.service.prices import load_price_table
from app.service.results import (
    BudgetReport,
    DraftCost,
    OutcomeKind,
    PriceLine,
    PricesReport,
    Result,
    SpendReport,
    invalid,
)

log = logging.getLogger(__name__)
_DATE = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})")


def parse_since(value: object) -> str:
    """``--since``: a calendar day, ``2026-08-16`` or ``20260816``, as ``YYYY-MM-DD``."""
    if not isinstance(value, str) or not _DATE.fullmatch(value.strip()):
        raise ValidationError("since", f"{value!r}: write a date such as 2026-08-16")
    m = _DATE.fullmatch(value.strip())
    assert m is not None
    try:
        day = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        raise ValidationError("since", f"{value!r} is not a calendar day") from None
    return day.isoformat()


def draft_text(cost: Cost) -> str:
    """What the form shows before Create: "about $0.48", or that the price is unknown."""
    if cost.estimate is None:
        return "price unknown"
    return f"about {format_money(cost.estimate, cost.currency)}"


class Spending:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def spend(
        self, *, project: str | None = None, since: str | None = None, by: str | None = None
    ) -> Result[SpendReport]:
        """What this user's slots (of this provider and endpoint) cost: the total and, with
        ``by`` (day, project, model), groups. ``since`` counts slots claimed on that day or
        later; ``project`` the slots of one project of the naming scheme."""
        ctx = self.ctx
        try:
            if by is not None and by not in GROUP_BY:
                raise ValidationError("by", f"{by!r}: one of {', '.join(GROUP_BY)}")
            if project is not None and not project.strip():
                raise ValidationError("project", "must not be empty")
            day = None if since is None else parse_since(since)
            table = ctx.prices
        except ValidationError as exc:
            return invalid(None, exc)
        group: GroupBy | None = by  # checked against GROUP_BY above
        await self._price_old_slots(table)
        rows = await ctx.store.cost_rows(
            ctx.scope,
            table,
            by=group,
            project=None if project is None else project.strip(),
            since=day,
        )
        report = SpendReport(
            spend_counted(rows, table.currency, group),
            None if project is None else project.strip(),
            day,
        )
        return Result(OutcomeKind.OK, payload=report)

    async def _price_old_slots(self, table: PriceTable) -> None:
        """Slots claimed before Slate stored costs are priced once, with the table in use, and
        stored (their basis says when); a store that cannot be written now is read as it is
        (those slots are then priced as they are read)."""
        try:
            n = await self.ctx.store.price_unpriced(self.ctx.scope, table, budget_day())
        except Exception:  # noqa: BLE001 - the figures come out right either way
            log.exception("could not store the cost of older slots; pricing them as read")
            return
        if n:
            log.info("stored the cost of %d slots claimed before Slate stored costs", n)

    async def budget_today(self) -> BudgetReport:
        """Today's use of the daily budget (also without a budget: ``limit`` is then None).
        Raises PriceTableError when the price table cannot be read."""
        ctx = self.ctx
        table = ctx.prices
        day = budget_day()
        rows = await ctx.store.cost_rows(ctx.scope, table, day=day)
        total: SpendTotal = spend_counted(rows, table.currency).total
        return BudgetReport(day, table.currency, ctx.config.budget_daily, total)

    def estimate(self, kind: Any, params: Mapping[str, Any]) -> Result[DraftCost]:
        """The cost of a draft from its parameters as the form states them (defaults applied
        as the submit applies them), before anything is stored or sent."""
        try:
            if kind not in KINDS:
                raise unknown_kind(kind)
            norm = normalize(kind, params)
            table = self.ctx.prices
        except ValidationError as exc:
            return invalid(None, exc)
        cost = estimate(kind, norm, table)
        entry = table.get(price_key(norm))
        scheme = entry.scheme if entry is not None and entry.kind == kind else None
        return Result(OutcomeKind.OK, payload=DraftCost(cost, draft_text(cost), scheme))


# -- the prices a designer gives ---------------------------------------------------------------
def price_lines(table: PriceTable) -> tuple[PriceLine, ...]:
    """Every price of ``table``, one line per model and part (the amounts the table gives)."""
    out: list[PriceLine] = []
    for name in sorted(table.models):
        entry = table.models[name]
        source = entry.source or table.source
        said = confidence(table, entry)
        parts: list[tuple[str, Money]]
        if entry.scheme == "per_image":
            parts = [("", entry.per_image)]
        elif entry.scheme == "per_song":
            parts = [("", entry.per_song)]
        elif entry.scheme == "per_character":
            parts = [("", entry.per_character)]
        elif entry.scheme == "per_voice":
            parts = [("", entry.per_voice)]
        elif entry.scheme == "per_token":
            parts = [(p, entry.per_token.get(p)) for p in sorted(entry.per_token)]
        elif entry.scheme == "per_second":
            parts = sorted(entry.per_second.items())
        else:
            parts = [(f"{r}/{s}", v) for (r, s), v in sorted(entry.per_clip.items())]
        for part, amount in parts:
            out.append(PriceLine(name, entry.kind, entry.scheme, part, amount, source, said))
    return tuple(out)


class Prices:
    """``slate prices list|set|unset`` and Settings → Prices: the table this user's creates
    are judged by, and the prices they give over it (kept per user in the store)."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    def _report(self, changed: PriceLine | None = None) -> Result[PricesReport]:
        table = self.ctx.prices
        lines = price_lines(table)
        return Result(
            OutcomeKind.OK, None, payload=PricesReport(table.currency, table.as_of, lines, changed)
        )

    async def list(self) -> Result[PricesReport]:
        try:
            self.ctx.reload_prices()  # another process may have given a price meanwhile
            return self._report()
        except ValidationError as exc:
            return invalid(None, exc)

    def _part(
        self, model: Any, resolution: Any, duration: Any, tokens: Any
    ) -> tuple[PriceTable, str, str]:
        if not isinstance(model, str) or not model.strip():
            raise ValidationError("model", "name a model of the price table (slate prices list)")
        base = load_price_table(self.ctx.config.prices_file)
        entry = base.get(model.strip())
        if entry is None:
            raise ValidationError(
                "model", f"{model!r} is not in the price table (slate prices list names them)"
            )
        if duration is not None and (isinstance(duration, bool) or not isinstance(duration, int)):
            raise ValidationError("duration", "must be whole seconds")
        return base, entry.model, price_part(entry, resolution, duration, tokens)

    async def set(
        self,
        model: Any,
        amount: Any,
        *,
        resolution: str | None = None,
        duration: int | None = None,
        tokens: str | None = None,
    ) -> Result[PricesReport]:
        """Give ``model`` (or one part of its price) this user's own ``amount``: every create,
        budget and spend from now on is judged by it, slots made earlier at an unknown price
        included."""
        ctx = self.ctx
        try:
            base, name, part = self._part(model, resolution, duration, tokens)
            price = parse_money(amount, "amount")
            given = GivenPrice(name, part, price, time.time())
            await ctx.store.give_price(ctx.scope, given, base.currency)
            ctx.reload_prices()
            changed = [ln for ln in price_lines(ctx.prices) if (ln.model, ln.part) == (name, part)]
            return self._report(changed[0] if changed else None)
        except ValidationError as exc:
            return invalid(None, exc)

    async def unset(
        self,
        model: Any,
        *,
        resolution: str | None = None,
        duration: int | None = None,
        tokens: str | None = None,
    ) -> Result[PricesReport]:
        """Take back this user's price of ``model`` (or of one part): the table's again."""
        ctx = self.ctx
        try:
            _base, name, part = self._part(model, resolution, duration, tokens)
            await ctx.store.take_back_price(ctx.scope, name, part)
            ctx.reload_prices()
            changed = [ln for ln in price_lines(ctx.prices) if (ln.model, ln.part) == (name, part)]
            return self._report(changed[0] if changed else None)
        except ValidationError as exc:
            return invalid(None, exc)
