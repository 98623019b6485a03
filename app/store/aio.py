"""The store as the service sees it: one async face over the write side, the lean SQLite claim
and the read side, composed by :func:`open_store`.

This is the one place that decides whether a store call runs in place or in a worker thread,
and the one place that decides whether a claim needs the write transaction at all:

* a point read of one slot or task on SQLite (WAL) never waits for a writer and takes tens of
  microseconds, less than the hop to a worker thread, so it runs in place; on PostgreSQL it is
  a network round trip and goes to a worker thread, like every write and every larger read;
* :meth:`Store.claim` reads the slot first, without the write lock: a replay or a conflict is
  answered from that read; only an empty slot or a re-creatable ``rejected`` record goes on to
  the claim transaction (the lean SQLite claim first, the general one where it declines).

The service does not know which database it is on.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
import time
from typing import Any, Awaitable, Callable, Coroutine, Sequence, TypeVar

from sqlalchemy import Engine

from app.domain.cost import SlotCost
from app.domain.prices import PriceTable
from app.domain.states import State, may_reclaim
from app.store import gallery as gallery_queries
from app.store import picks as picks_store
from app.store import user_prices as user_prices_store
from app.store import queries
from app.store.gallery import ResultRow
from app.store.engine import make_engine, release_engine, write_queue
from app.store.repository import Repository
from app.store.rows import (
    ClaimRequest,
    ClaimResult,
    EventRow,
    Group,
    MediaRow,
    Owner,
    Scope,
    SlotFilter,
    SlotRow,
    TaskRow,
)
from app.store.sqlite_claim import SqliteClaim
from app.store.statements import statements_for

T = TypeVar("T")


async def _awaited(begun: Awaitable[T]) -> T:
    return await begun


class Store:
    """Async store calls for the service. Built by :func:`open_store`."""

    def __init__(self, repo: Repository, fast_claim: SqliteClaim | None = None) -> None:
        self.repo = repo
        self.engine: Engine = repo.engine
        self._fast = fast_claim
        #: SQLite: point reads run in place (see the module docstring).
        self._inline = repo.dialect == "sqlite"
        self._offset: float | None = None  # the store's clock minus this machine's
        self._store_id: str | None = None
        self._facts = threading.Lock()
        self._closed = False

    # -- the store's own facts --------------------------------------------------------------
    def clock(self) -> float:
        """Now, in the store's clock (blocking, once per store: one read of the database's
        clock). Leases are written and judged in it, so a machine whose own clock is off by an
        hour neither writes a lease that looks expired nor sees a live one as expired."""
        if self._offset is None:
            with self._facts:
                if self._offset is None:
                    before = time.time()
                    store = self.repo.store_now()
                    self._offset = store - (before + time.time()) / 2
        return time.time() + self._offset

    @property
    def store_id(self) -> str:
        """The store's random id: handles name the store that made them (blocking, once)."""
        if self._store_id is None:
            with self._facts:
                if self._store_id is None:
                    found = self.repo.store_id()
                    if found is None:
                        raise RuntimeError("the store has no id: it is not migrated to 0005")
                    self._store_id = found
        return self._store_id

    async def now(self) -> float:
        """:meth:`clock`, off the event loop the first time on PostgreSQL."""
        if self._offset is None and not self._inline:
            return await self._thread(self.clock)
        return self.clock()

    async def renew_lease(self, task_id: int, owner: Owner, seconds: float) -> float | None:
        return await self._thread(self.repo.renew_lease, task_id, owner, seconds)

    # -- where a call runs ----------------------------------------------------------------
    async def _point(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        if self._inline:
            return fn(*args, **kw)
        return await asyncio.to_thread(fn, *args, **kw)

    @staticmethod
    async def _thread(fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        return await asyncio.to_thread(fn, *args, **kw)

    @staticmethod
    def _begun(fn: Callable[..., T], *args: Any, **kw: Any) -> Coroutine[Any, Any, T]:
        """``fn`` in a worker thread like :meth:`_thread`, but begun when asked for, not when
        the awaiting task first runs: the browser asks for its pages from Qt's signals, and a
        new task's first step waits behind the window's layout and paint already posted (a new
        filter's text laid out, its clear button painted), and the read waited with it. Without
        a running loop (``asyncio.run(store.projects(...))``) it begins when awaited."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return Store._thread(fn, *args, **kw)
        call = functools.partial(contextvars.copy_context().run, fn, *args, **kw)
        return _awaited(loop.run_in_executor(None, call))

    # -- the claim ------------------------------------------------------------------------
    def read_slot(self, scope: Scope, slot_key: str) -> TaskRow | None:
        """The slot's task row without media, read without the write lock (blocking)."""
        if self._fast is not None:
            return self._fast.find_slot(scope, slot_key)
        return self.repo.get_slot(scope, slot_key, with_media=False)

    @staticmethod
    def _answered_as_is(found: TaskRow, req: ClaimRequest) -> bool:
        return not may_reclaim(
            found.state,
            found.kind,
            found.fingerprint,
            found.user_hash,
            req.kind,
            req.fingerprint,
            req.scope.user_hash,
        )

    def claim_transaction(self, req: ClaimRequest) -> ClaimResult:
        """The claim's write transaction (blocking): the lean SQLite claim, or the general one
        where it declines (re-claim, lost race, quota refusal) and on PostgreSQL."""
        if self._fast is not None:
            fast = self._fast.claim(req)
            if fast is not None:
                return fast
        return self.repo.claim(req)

    def claim_blocking(self, req: ClaimRequest) -> ClaimResult:
        """Read first, then claim only if the slot is free or re-creatable (blocking)."""
        found = self.read_slot(req.scope, req.slot_key)
        if found is not None and self._answered_as_is(found, req):
            return ClaimResult.existing(found)
        return self.claim_transaction(req)

    async def claim(
        self, req: ClaimRequest, before_write: Callable[[], object] | None = None
    ) -> ClaimResult:
        """Claim the slot for ``req`` — or answer with the record that holds it, or refuse on
        quota. Decides alone whether a create may be sent (``ClaimResult.claimed``).

        ``before_write``: called on the caller's thread once the read found no record that
        answers ``req`` as it is, before the write transaction — what must be ready before the
        record (the provider's HTTP client: a submit sends right after it) is made only then,
        not for a replay or a conflict answered from the record."""
        if not self._inline:
            if before_write is None:
                return await self._thread(self.claim_blocking, req)  # one hop: read, then claim
            found = await self._thread(self.read_slot, req.scope, req.slot_key)
        else:
            found = self.read_slot(req.scope, req.slot_key)  # in place: a replay never hops
        if found is not None and self._answered_as_is(found, req):
            return ClaimResult.existing(found)
        if before_write is not None:
            before_write()
        return await self._thread(self.claim_transaction, req)

    # -- point reads ----------------------------------------------------------------------
    async def slot(self, scope: Scope, slot_key: str) -> TaskRow | None:
        """The slot's task with its media."""
        return await self._point(self.repo.get_slot, scope, slot_key)

    async def task(self, task_id: int) -> TaskRow | None:
        """A task by id, with its media."""
        return await self._point(self.repo.get_task, task_id)

    async def slot_copies(self, scope: Scope, slot_key: str) -> list[TaskRow]:
        """The slot's other tasks, kept from before the slot boundary (usually none)."""
        return await self._point(self.repo.slot_copies, scope, slot_key)

    # -- writes and lifecycle reads (a worker thread) ---------------------------------------
    async def transition(self, task: TaskRow, **kw: Any) -> TaskRow | None:
        return await self._thread(self.repo.transition, task, **kw)

    async def add_event(
        self, scope: Scope, slot_key: str, task_id: int | None, event: str, **kw: Any
    ) -> None:
        await self._thread(self.repo.add_event, scope, slot_key, task_id, event, **kw)

    async def set_hidden(self, scope: Scope, slot_key: str, hidden: bool, task_id: int) -> bool:
        return await self._thread(self.repo.set_hidden, scope, slot_key, hidden, task_id)

    async def mark_media_removed(
        self, scope: Scope, task: TaskRow, removed: Sequence[MediaRow], detail: str
    ) -> None:
        await self._thread(self.repo.mark_media_removed, scope, task, removed, detail)

    async def replace_media(
        self, scope: Scope, task: TaskRow, media: Sequence[dict[str, Any]], detail: str
    ) -> None:
        await self._thread(self.repo.replace_media, scope, task, media, detail)

    async def with_local_media(self, scope: Scope, verified_before: float) -> list[TaskRow]:
        return await self._thread(self.repo.with_local_media, scope, verified_before)

    async def add_notes(self, scope: Scope, notes: Sequence[dict[str, Any]]) -> None:
        await self._thread(self.repo.add_notes, scope, notes)

    async def history(self, scope: Scope, slot_key: str) -> list[EventRow]:
        return await self._thread(self.repo.history, scope, slot_key)

    async def owners_of(
        self,
        provider: str,
        endpoint: str,
        provider_task_ids: Sequence[str],
        except_task: int | None = None,
    ) -> set[str]:
        """Which provider task ids some task of this store (any tenant or user) holds."""
        return await self._thread(
            self.repo.owners_of, provider, endpoint, provider_task_ids, except_task
        )

    async def quota_used(self, scope: Scope, day: str) -> dict[str, int]:
        return await self._thread(self.repo.quota_used, scope, day)

    async def price_unpriced(self, scope: Scope, table: PriceTable, day: str) -> int:
        """Store the cost of slots claimed before costs were stored (once; then a no-op)."""
        return await self._thread(self.repo.price_unpriced, scope, table, day)

    async def cost_rows(
        self, scope: Scope, table: PriceTable, **filters: Any
    ) -> list[tuple[SlotCost, int]]:
        """The slots' costs, counted in SQL (``store.spend.cost_rows``: ``by``, ``project``,
        ``since``, ``day``)."""
        return await self._thread(self.repo.cost_rows, scope, table, **filters)

    async def due_tasks(
        self, scope: Scope | None, states: Sequence[State], now: float, limit: int
    ) -> list[TaskRow]:
        return await self._thread(self.repo.due_tasks, scope, states, now, limit)

    async def tasks_in_states(self, scope: Scope | None, states: Sequence[State]) -> list[TaskRow]:
        return await self._thread(self.repo.tasks_in_states, scope, states)

    async def next_due_at(self, scope: Scope | None, states: Sequence[State]) -> float | None:
        return await self._thread(self.repo.next_due_at, scope, states)

    async def schedule_polls(self, due: Sequence[tuple[int, float]]) -> None:
        await self._thread(self.repo.schedule_polls, due)

    # -- the read side (a worker thread) ----------------------------------------------------
    async def list_slots(self, scope: Scope, **kw: Any) -> list[TaskRow]:
        return await self._thread(queries.list_slots, self.engine, scope, **kw)

    async def twin(
        self, scope: Scope, kind: str, fingerprint: str, slot_key: str, states: Sequence[str]
    ) -> TaskRow | None:
        """The newest other slot with this kind and fingerprint in one of ``states``."""
        return await self._thread(
            queries.twin, self.engine, scope, kind, fingerprint, slot_key, states
        )

    async def prompts(
        self, scope: Scope, search: str = "", limit: int = 50
    ) -> list[tuple[str, float, int]]:
        return await self._thread(queries.prompts, self.engine, scope, search, limit)

    async def request_ids_with_prefix(self, scope: Scope, prefix: str) -> list[str]:
        return await self._thread(queries.request_ids_with_prefix, self.engine, scope, prefix)

    # the browser's pages: begun at once (see _begun)
    def projects(
        self, scope: Scope, flt: SlotFilter, *, after: int | None = None, limit: int = 100
    ) -> Coroutine[Any, Any, list[Group]]:
        return self._begun(queries.projects, self.engine, scope, flt, after=after, limit=limit)

    def days(
        self,
        scope: Scope,
        flt: SlotFilter,
        project: str,
        *,
        after: str | None = None,
        limit: int = 100,
    ) -> Coroutine[Any, Any, list[Group]]:
        return self._begun(queries.days, self.engine, scope, flt, project, after=after, limit=limit)

    def slots(
        self,
        scope: Scope,
        flt: SlotFilter,
        project: str,
        day: str,
        *,
        before_id: int | None = None,
        limit: int = 200,
    ) -> Coroutine[Any, Any, list[SlotRow]]:
        return self._begun(
            queries.slots, self.engine, scope, flt, project, day, before_id=before_id, limit=limit
        )

    async def slot_row(self, scope: Scope, request_id: str) -> SlotRow | None:
        return await self._thread(queries.slot_by_request_id, self.engine, scope, request_id)

    async def neighbours(
        self, scope: Scope, flt: SlotFilter, task_id: int
    ) -> tuple[int | None, int | None]:
        return await self._thread(queries.neighbours, self.engine, scope, flt, task_id)

    async def count(self, scope: Scope, flt: SlotFilter) -> int:
        return await self._thread(queries.count, self.engine, scope, flt)

    async def failing_queries(self, scope: Scope) -> int:
        return await self._thread(queries.failing_queries, self.engine, scope)

    def results(
        self,
        scope: Scope,
        flt: SlotFilter,
        project: str | None = None,
        day: str | None = None,
        *,
        before_id: int | None = None,
        limit: int = 120,
    ) -> Coroutine[Any, Any, list[ResultRow]]:
        """The gallery's page, begun at once like the browser's (see :meth:`_begun`)."""
        return self._begun(
            gallery_queries.results,
            self.engine,
            scope,
            flt,
            project,
            day,
            before_id=before_id,
            limit=limit,
        )

    # -- picks and boards (never the ledger) ----------------------------------------------
    async def set_pick(self, scope: Scope, task_id: int, position: int, **kw: Any) -> Any:
        return await self._thread(picks_store.set_pick, self.repo, scope, task_id, position, **kw)

    async def picks_of(self, scope: Scope, task_ids: Sequence[int]) -> list[Any]:
        return await self._thread(picks_store.picks_of, self.repo, scope, task_ids)

    async def boards(self, scope: Scope) -> list[Any]:
        return await self._thread(picks_store.boards, self.repo, scope)

    async def boards_of(self, scope: Scope, task_ids: Sequence[int]) -> dict[Any, list[str]]:
        return await self._thread(picks_store.boards_of, self.repo, scope, task_ids)

    async def add_to_board(
        self, scope: Scope, name: str, results: Sequence[tuple[int, int]]
    ) -> tuple[int, int]:
        return await self._thread(picks_store.add_to_board, self.repo, scope, name, results)

    async def remove_from_board(
        self, scope: Scope, name: str, results: Sequence[tuple[int, int]]
    ) -> int | None:
        return await self._thread(picks_store.remove_from_board, self.repo, scope, name, results)

    async def delete_board(self, scope: Scope, name: str) -> bool:
        return await self._thread(picks_store.delete_board, self.repo, scope, name)

    async def board_entries(self, scope: Scope, board_id: int) -> list[Any]:
        return await self._thread(picks_store.board_entries, self.repo, scope, board_id)

    # -- prices a designer gives -------------------------------------------------------------
    def given_prices_now(self, scope: Scope, currency: str) -> list[Any]:
        """This user's prices (blocking: read once when the price table is first needed)."""
        return user_prices_store.given_prices(self.repo, scope, currency)

    async def given_prices(self, scope: Scope, currency: str) -> list[Any]:
        return await self._thread(user_prices_store.given_prices, self.repo, scope, currency)

    async def give_price(self, scope: Scope, price: Any, currency: str) -> Any:
        return await self._thread(user_prices_store.give_price, self.repo, scope, price, currency)

    async def take_back_price(self, scope: Scope, model: str, part: str) -> bool:
        return await self._thread(user_prices_store.take_back_price, self.repo, scope, model, part)

    # -- life -----------------------------------------------------------------------------
    @property
    def dialect(self) -> str:
        return self.repo.dialect

    def close(self) -> None:
        """Give the store's engine back (the last user of it in this process closes it)."""
        if not self._closed:
            self._closed = True
            if self._fast is not None:
                self._fast.close()
            release_engine(self.engine)


def compose(engine: Engine, *, migrate: bool = True) -> Store:
    """A store over ``engine``: the repository, and the lean claim on SQLite."""
    queue = write_queue(engine)
    repo = Repository(engine, migrate=migrate, queue=queue)
    fast = None
    if repo.dialect == "sqlite":
        fast = SqliteClaim(engine, statements_for("sqlite"), queue)
    return Store(repo, fast)


def open_store(url: str, *, migrate: bool = True) -> Store:
    """Open (and migrate) the store at a SQLAlchemy URL."""
    return compose(make_engine(url), migrate=migrate)
