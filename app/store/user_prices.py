"""Prices a designer gives (``slate prices set``, Settings → Prices): one row per model and part
of its price, per user (on a team store every designer keeps their own). Never part of the
ledger: no task, event, media or quota row is written here.

These functions block; :class:`app.store.aio.Store` runs them in a worker thread.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from sqlalchemy import Connection, and_, delete, select

from app.domain.prices import GivenPrice
from app.store.models import USER_PRICE_COLUMNS, user_prices_t
from app.store.picks import _insert, _owner
from app.store.rows import Scope

if TYPE_CHECKING:
    from app.store.repository import Repository


def given_prices(repo: "Repository", scope: Scope, currency: str) -> list[GivenPrice]:
    """This user's prices in ``currency`` (a price given in another currency is left out)."""
    with repo.read() as conn:
        rows = conn.execute(
            select(
                user_prices_t.c.model,
                user_prices_t.c.part,
                user_prices_t.c.amount,
                user_prices_t.c.set_at,
            )
            .where(*_owner(user_prices_t, scope), user_prices_t.c.currency == currency)
            .order_by(user_prices_t.c.model, user_prices_t.c.part)
        ).all()
    return [GivenPrice(r.model, r.part, Decimal(r.amount), float(r.set_at)) for r in rows]


def give_price(repo: "Repository", scope: Scope, price: GivenPrice, currency: str) -> GivenPrice:
    """Set (or replace) this user's price of one model's part, in one transaction."""

    def write(conn: Connection, _ambiguous: bool) -> GivenPrice:
        values = {"amount": str(price.amount), "currency": currency, "set_at": price.set_at}
        ins = _insert(conn, user_prices_t).values(
            tenant=scope.tenant,
            user_hash=scope.user_hash,
            model=price.model,
            part=price.part,
            **values,
        )
        conn.execute(
            ins.on_conflict_do_update(index_elements=list(USER_PRICE_COLUMNS), set_=values)
        )
        return price

    return repo._run_write(write)


def take_back_price(repo: "Repository", scope: Scope, model: str, part: str) -> bool:
    """Remove this user's price of one model's part; True if there was one."""

    def write(conn: Connection, _ambiguous: bool) -> bool:
        where = and_(
            *_owner(user_prices_t, scope),
            user_prices_t.c.model == model,
            user_prices_t.c.part == part,
        )
        return bool(conn.execute(delete(user_prices_t).where(where)).rowcount)

    return repo._run_write(write)
