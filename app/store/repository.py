"""The write side of the store and its point reads: the claim, task transitions, events, media,
quota, and the lifecycle's reads (one slot, one task, due polls).

Every write runs in one short write transaction (``BEGIN IMMEDIATE`` on SQLite). The unique
boundary index is the final arbiter of a slot: an insert that loses the race reads the winner
back. Quota is counted, and the daily budget checked, inside the claim transaction, so racing
processes cannot exceed either.

Connection trouble (PostgreSQL): a server restart, a dropped connection or a server that is
still starting raises a transient ``OperationalError``. Reads simply run again (the pool's
pre-ping reconnects). A write transaction runs again too: if it failed before COMMIT, the server
rolled it back. If the connection died *during* COMMIT the outcome is unknown, and the retry is
told so (``ambiguous``): it re-reads first and recognizes its own committed work by the exact
timestamps it wrote (the claim also by its owner and lease), so nothing is created or applied
twice. SQLite never retries here: its locking is handled by the busy timeout.
"""

from __future__ import annotations

import functools
import logging
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    Select,
    and_,
    bindparam,
    case,
    exists,
    func,
    literal_column,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError, NoResultFound, OperationalError

from app.domain.cost import BudgetCheck, SlotCost
from app.domain.errors import StoreBusy
from app.domain.prices import PriceTable
from app.domain.states import State, may_reclaim
from app.scrub import scrub
from app.store import engine as engine_mod
from app.store.engine import WriteQueue, few, write_queue, writer
from app.store.migrate import upgrade
from app.store.models import events, media_t, quota_t, store_info_t, tasks
from app.store.prepared import Compiled, Prepared, RowReader, compile_once, prepare
from app.store.rows import (
    ClaimOutcome,
    ClaimRequest,
    ClaimResult,
    ClaimWrite,
    EventRow,
    MediaRow,
    Owner,
    Scope,
    TaskRow,
    bounded,
    event_row,
    jsonable,
    media_row,
    pg_clean,
    state_text,
    task_row,
)
from app.store.spend import check_budget_in_claim
from app.store.spend import cost_rows as spend_rows
from app.store.spend import price_unpriced as store_prices
from app.store.statements import statements_for
from app.store import text_search

log = logging.getLogger(__name__)
T = TypeVar("T")

#: How long a store call keeps retrying through connection trouble (PostgreSQL) before it
#: gives up and raises. Covers a server restart or a fail-over of a few seconds.
RETRY_SECONDS = 30.0
#: How often a claim runs again after losing an insert race on a unique index that is not its
#: ``ON CONFLICT`` target (PostgreSQL: the idempotency key's, checked before the slot's).
CLAIM_RACE_RETRIES = 3
#: PostgreSQL's SQLSTATE for a lock wait that ran past ``lock_timeout``.
PG_LOCK_NOT_AVAILABLE = "55P03"

#: The store's clock, in seconds since the epoch, read by the database itself.
_NOW_SQL = {
    "postgresql": "extract(epoch from clock_timestamp())",
    "sqlite": "((julianday('now') - 2440587.5) * 86400.0)",
}


def is_transient(exc: BaseException) -> bool:
    """A database error worth running the transaction again for: the connection was lost or
    could not be made (server restarting, shutting down, not yet accepting connections), or
    the server rolled the transaction back (deadlock, serialization)."""
    if not isinstance(exc, DBAPIError):
        return False
    return bool(exc.connection_invalidated) or isinstance(exc, OperationalError)


def _retrying_read(method: Callable[..., T]) -> Callable[..., T]:
    """A read-only repository method, run again through transient connection trouble.
    Never for writes: they go through :meth:`Repository._run_write`, which knows about a lost
    COMMIT."""

    @functools.wraps(method)
    def wrapper(self: "Repository", *args: Any, **kw: Any) -> T:
        return self._retrying(lambda: method(self, *args, **kw), method.__name__)

    return wrapper


#: The other tasks a transition's ``unique_provider_task`` condition looks at (an alias is
#: immutable: made once, not on every attach — it copies every column of the table).
_OTHER_TASK = tasks.alias("other")


class _QuotaExceeded(Exception):
    def __init__(self, used: int) -> None:
        self.used = used


class _BudgetExceeded(Exception):
    def __init__(self, check: BudgetCheck) -> None:
        self.check = check


class Repository:
    """The store's write side and point reads (the service reaches it through ``aio.Store``)."""

    def __init__(
        self, engine: Engine, *, migrate: bool = True, queue: WriteQueue | None = None
    ) -> None:
        self.engine = engine
        self.writer = writer(engine)
        self._write_queue = queue if queue is not None else write_queue(engine)
        self.dialect = engine.dialect.name
        self.sql = statements_for(self.dialect)
        #: A transition's statements are compiled before the writers' turn on SQLite
        #: (:mod:`app.store.prepared`); these read their rows back as ``execute`` would.
        self._task_rows = RowReader(tasks, engine.dialect)
        self._media_rows = RowReader(media_t, engine.dialect)
        #: Retry through connection trouble for this long (PostgreSQL only; 0 turns it off).
        self.retry_seconds = RETRY_SECONDS if self.dialect == "postgresql" else 0.0
        if migrate:
            # One transaction under an advisory lock (PostgreSQL): safe to run again.
            self._retrying(lambda: upgrade(engine), "migrate")
        if self.dialect == "sqlite":
            text_search.has_index(engine)  # read once here, not inside the first filtered page

    @property
    def write_queue(self) -> WriteQueue | None:
        return self._write_queue

    # -- transactions -------------------------------------------------------------------
    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction. The pool's checkout and return run outside the write turn:
        the other writers wait only for the transaction itself."""
        with self.writer.connect() as conn:
            with self.write_turn():
                with conn.begin():
                    yield conn

    @contextmanager
    def write_turn(self) -> Iterator[None]:
        """Wait for this store's write turn (SQLite file: see engine.WriteQueue)."""
        if self._write_queue is None:
            yield
            return
        with self._write_queue:
            yield

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    def _retry_pause(self, exc: BaseException, attempt: int, deadline: float, what: str) -> None:
        """Sleep before the next attempt, or re-raise ``exc`` when it is not worth one."""
        if not is_transient(exc) or time.monotonic() >= deadline:
            raise exc
        pause = min(0.05 * 2 ** min(attempt, 5), 1.0)
        log.warning(
            "store %s: connection trouble (%s); trying again in %.2f s",
            what,
            str(exc).splitlines()[0][:200],
            pause,
        )
        time.sleep(pause)

    def _retrying(self, fn: Callable[[], T], what: str) -> T:
        """``fn()`` (idempotent: a read, a migration), run again through connection trouble."""
        deadline = time.monotonic() + self.retry_seconds
        attempt = 0
        while True:
            attempt += 1
            try:
                return fn()
            except DBAPIError as exc:
                self._retry_pause(exc, attempt, deadline, what)

    def _run_write(self, fn: Callable[[Connection, bool], T]) -> T:
        """``fn(conn, ambiguous)`` in one write transaction, run again through transient
        connection trouble. ``ambiguous`` is True when an earlier attempt's COMMIT may have
        succeeded (the connection died during it): ``fn`` must then re-read before writing."""
        deadline = time.monotonic() + self.retry_seconds
        attempt = 0
        ambiguous = False
        while True:
            attempt += 1
            committing = False
            try:
                with self.write() as conn:
                    result = fn(conn, ambiguous)
                    committing = True  # the COMMIT runs as the block exits
                return result
            except DBAPIError as exc:
                if self.dialect == "sqlite" and "database is locked" in str(exc.orig):
                    raise self._sqlite_busy() from None
                if getattr(exc.orig, "sqlstate", None) == PG_LOCK_NOT_AVAILABLE:
                    raise self._pg_busy() from None
                self._retry_pause(exc, attempt, deadline, "write")
                ambiguous = ambiguous or committing

    def _pg_busy(self) -> StoreBusy:
        """A lock this write needs stayed taken past ``lock_timeout``: say which sessions sit
        in a transaction (Slate names its connections: pid and host)."""
        who: list[str] = []
        try:
            with self.read() as conn:
                rows = conn.execute(
                    text(
                        "SELECT application_name, state, "
                        "extract(epoch from clock_timestamp() - xact_start) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                        "AND xact_start IS NOT NULL ORDER BY xact_start LIMIT 5"
                    )
                ).all()
            who = [
                f"{name or 'another client'} ({state}, {age:.0f} s)" for name, state, age in rows
            ]
        except DBAPIError:
            pass
        waited = engine_mod.PG_LOCK_TIMEOUT_MS / 1000
        return StoreBusy(
            f"store busy: a lock this write needs was not free after {waited:.0f} s"
            + (f"; in a transaction: {', '.join(who)}" if who else "")
            + ". Nothing was written; the server ends a session stuck in a transaction after "
            f"{engine_mod.PG_IDLE_IN_TRANSACTION_MS / 1000:.0f} s — try again then."
        )

    def _sqlite_busy(self) -> StoreBusy:
        """SQLite's own busy timeout ran out (a writer outside the writers' queue held it)."""
        who = self._write_queue.holder() if self._write_queue is not None else None
        return StoreBusy(
            "store busy: SQLite's write lock was not free after "
            f"{engine_mod.BUSY_TIMEOUT_MS / 1000:.0f} s"
            + (f"; the last Slate writer was {who}" if who else "")
            + ". Nothing was written; try again once the other writer has finished."
        )

    def _clean(self, values: dict[str, Any]) -> dict[str, Any]:
        """Make values storable on PostgreSQL (no-op on SQLite): no NUL characters or NaN.
        Provider values (task ids, status words, codes) are TEXT: stored whole, never clipped."""
        values = {k: scrub(v) for k, v in values.items()}  # the API key, wherever echoed
        if self.dialect != "postgresql":
            return values
        return {k: pg_clean(v) for k, v in values.items()}

    # -- the store itself ---------------------------------------------------------------
    @_retrying_read
    def store_now(self) -> float:
        """The store's clock (the database server's; SQLite: this machine's, as SQLite reads
        it): one clock for every process and machine sharing the store."""
        with self.read() as conn:
            return float(conn.execute(select(literal_column(_NOW_SQL[self.dialect]))).scalar())

    @_retrying_read
    def store_id(self) -> str | None:
        """The store's random id (made by migration 0005), or None before it."""
        from sqlalchemy import inspect

        with self.read() as conn:
            if not inspect(conn).has_table(store_info_t.name):
                return None
            return conn.execute(
                select(store_info_t.c.value).where(store_info_t.c.name == "store_id")
            ).scalar()

    # -- the claim ----------------------------------------------------------------------
    def find_slot(self, conn: Connection, scope: Scope, slot_key: str) -> TaskRow | None:
        row = (
            conn.execute(
                self.sql.find_slot,
                {
                    "tenant": scope.tenant,
                    "slot_key": slot_key,
                    "provider": scope.provider,
                    "endpoint": scope.endpoint,
                },
            )
            .mappings()
            .first()
        )
        return task_row(row) if row else None

    def claim(self, req: ClaimRequest) -> ClaimResult:
        """Claim the slot in ``submitting`` (or re-claim a ``rejected`` one of the same intent),
        or return the existing record untouched, in one write transaction. Quota and the daily
        budget are checked here."""
        scope, w = req.scope, req.write
        owner = Owner(*w.owner)
        now = req.now
        claim_events = req.claim_events()
        new_row = req.task_values()
        if self.dialect == "postgresql":
            new_row["params"] = pg_clean(new_row["params"])

        def claim_tx(conn: Connection, ambiguous: bool) -> ClaimResult:
            existing = self.find_slot(conn, scope, req.slot_key)
            if (
                existing is not None
                and ambiguous
                and (
                    existing.state == State.SUBMITTING
                    and (existing.owner_host, existing.owner_pid, existing.owner_started)
                    == (owner.host, owner.pid, owner.started)
                    and existing.lease_until == w.lease_until
                    and existing.updated_at == now
                    and existing.fingerprint == req.fingerprint
                    and existing.kind == req.kind
                )
            ):
                # Our earlier attempt's COMMIT went through (its answer was lost): the
                # claim, its quota unit and its event are ours. Nothing was sent yet.
                return ClaimResult(
                    ClaimOutcome.CLAIMED,
                    existing,
                    quota_used=self._quota_used(conn, scope, req.kind, w.day),
                )
            if existing is not None:
                if not may_reclaim(
                    existing.state,
                    existing.kind,
                    existing.fingerprint,
                    existing.user_hash,
                    req.kind,
                    req.fingerprint,
                    scope.user_hash,
                ):
                    return ClaimResult.existing(existing)
                done = conn.execute(
                    update(tasks)
                    .where(tasks.c.id == existing.id, tasks.c.state == State.REJECTED.value)
                    .values(
                        state=State.SUBMITTING.value,
                        owner_host=owner.host,
                        owner_pid=owner.pid,
                        owner_started=owner.started,
                        owner_boot=owner.boot,
                        owner_pidns=owner.pidns,
                        lease_until=w.lease_until,
                        updated_at=now,
                        error_code=None,
                        error_message=None,
                        error_reason=None,
                        next_poll_at=None,
                        poll_failures=0,
                        **w.cost_values(),
                    )
                ).rowcount
                if done != 1:  # pragma: no cover - BEGIN IMMEDIATE makes this unreachable
                    found = self.find_slot(conn, scope, req.slot_key)
                    assert found is not None
                    return ClaimResult.existing(found)
                task_id = existing.id
                row = None
            else:
                row = conn.execute(self.sql.claim_insert, new_row).mappings().first()
                if row is None:
                    winner = self.find_slot(conn, scope, req.slot_key)
                    if winner is None:  # the winner has another kind: same key space
                        winner = self._find_by_key(conn, scope, w.idempotency_key)
                    assert winner is not None
                    return ClaimResult.existing(winner, lost_race=True)
                task_id = row["id"]
            used = self._count_quota(conn, scope, req.kind, w.day, w.units, w.quota_limit)
            self._check_budget(conn, scope, w, task_id)
            # both events durable, in this transaction, before the request leaves
            conn.execute(self.sql.event_insert, [{**e, "task_id": task_id} for e in claim_events])
            if row is None:
                row = conn.execute(select(tasks).where(tasks.c.id == task_id)).mappings().one()
            return ClaimResult(ClaimOutcome.CLAIMED, task_row(row), quota_used=used)

        for attempt in range(CLAIM_RACE_RETRIES + 1):
            try:
                return self._run_write(claim_tx)
            except _QuotaExceeded as exc:
                return ClaimResult(ClaimOutcome.QUOTA_REFUSED, quota_used=exc.used)
            except _BudgetExceeded as exc:
                return ClaimResult(ClaimOutcome.BUDGET_REFUSED, budget=exc.check)
            except IntegrityError:
                # PostgreSQL checks the idempotency key's unique index before the slot's (the
                # ON CONFLICT target): a same-kind racer that inserted at the same instant is
                # refused there instead of skipped. Its transaction rolled back, nothing was
                # written; the winner is committed now, and the next attempt reads it.
                if attempt >= CLAIM_RACE_RETRIES:
                    raise
                log.debug("claim lost an insert race on another unique index; reading the winner")
        raise AssertionError("unreachable")  # pragma: no cover

    def _find_by_key(self, conn: Connection, scope: Scope, key: str) -> TaskRow | None:
        row = (
            conn.execute(
                select(tasks).where(
                    tasks.c.tenant == scope.tenant,
                    tasks.c.idempotency_key == key,
                    tasks.c.provider == scope.provider,
                    tasks.c.endpoint == scope.endpoint,
                )
            )
            .mappings()
            .first()
        )
        return task_row(row) if row else None

    def _count_quota(
        self, conn: Connection, scope: Scope, kind: str, day: str, units: int, limit: int | None
    ) -> int:
        if limit is not None and units > limit:
            raise _QuotaExceeded(self._quota_used(conn, scope, kind, day))
        values = {
            "tenant": scope.tenant,
            "user_hash": scope.user_hash,
            "kind": kind,
            "day": day,
            "used": units,
        }
        if limit is not None:
            values["limit"] = limit
        used = conn.execute(self.sql.quota_upsert[limit is not None], values).scalar()
        if used is None:
            raise _QuotaExceeded(self._quota_used(conn, scope, kind, day))
        return int(used)

    @staticmethod
    def _check_budget(conn: Connection, scope: Scope, w: ClaimWrite, task_id: int) -> None:
        """The daily budget, next to the quota in the claim transaction: a refusal rolls the
        whole claim back (nothing written, nothing sent). Rule: ``domain.cost.check_budget``;
        today's spend and the serialization of racing claims: ``store.spend``."""
        if w.budget is None:
            return
        check = check_budget_in_claim(conn, scope, w.budget, w.day, w.cost, task_id)
        if not check.allowed:
            raise _BudgetExceeded(check)

    @staticmethod
    def _give_back_quota(conn: Connection, task_id: int) -> None:
        """A create that made nothing (``rejected``) gives back the quota units its claim
        counted, on the day the claim counted them (the task's ``cost_day``), in the
        transaction that writes the rejection; never below 0. A re-claim counts them again."""
        row = conn.execute(
            select(
                tasks.c.tenant, tasks.c.user_hash, tasks.c.kind, tasks.c.units, tasks.c.cost_day
            ).where(tasks.c.id == task_id)
        ).first()
        if row is None or row.cost_day is None:
            return
        units = int(row.units or 1)
        conn.execute(
            update(quota_t)
            .where(
                quota_t.c.tenant == row.tenant,
                quota_t.c.user_hash == row.user_hash,
                quota_t.c.kind == row.kind,
                quota_t.c.day == row.cost_day,
            )
            .values(used=case((quota_t.c.used > units, quota_t.c.used - units), else_=0))
        )

    def _quota_used(self, conn: Connection, scope: Scope, kind: str, day: str) -> int:
        return int(
            conn.execute(
                select(quota_t.c.used).where(
                    quota_t.c.tenant == scope.tenant,
                    quota_t.c.user_hash == scope.user_hash,
                    quota_t.c.kind == kind,
                    quota_t.c.day == day,
                )
            ).scalar()
            or 0
        )

    @_retrying_read
    def quota_used(self, scope: Scope, day: str) -> dict[str, int]:
        with self.read() as conn:
            rows = conn.execute(
                select(quota_t.c.kind, quota_t.c.used).where(
                    quota_t.c.tenant == scope.tenant,
                    quota_t.c.user_hash == scope.user_hash,
                    quota_t.c.day == day,
                )
            ).all()
        out = {"image": 0, "video": 0}
        out.update({k: int(u) for k, u in rows})
        return out

    def price_unpriced(self, scope: Scope, table: PriceTable, day: str, batch: int = 2000) -> int:
        """Store the cost of the scope's slots claimed before costs were stored, in short write
        transactions of ``batch`` slots (``store.spend.price_unpriced``). Returns how many."""
        total = 0
        while True:
            done = self._run_write(
                lambda conn, _ambiguous: store_prices(conn, scope, table, day, batch)
            )
            total += done
            if done < batch:
                return total

    @_retrying_read
    def cost_rows(
        self, scope: Scope, table: PriceTable, **filters: Any
    ) -> list[tuple[SlotCost, int]]:
        """The slots' costs for spend and today's budget use (``store.spend.cost_rows``)."""
        with self.read() as conn:
            return spend_rows(conn, scope, table, **filters)

    # -- events -------------------------------------------------------------------------
    def _add_event(
        self,
        conn: Connection,
        scope: Scope,
        slot_key: str,
        task_id: int | None,
        at: float,
        event: str,
        state: State | None,
        detail: str | None,
        data: dict[str, Any] | None,
    ) -> None:
        values = self._event_values(scope, slot_key, task_id, at, event, state, detail, data)
        conn.execute(events.insert().values(**values))

    def _event_values(
        self,
        scope: Scope,
        slot_key: str,
        task_id: int | None,
        at: float,
        event: str,
        state: State | None,
        detail: str | None,
        data: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """One history event's columns, scrubbed and bounded."""
        detail, data = scrub(detail), bounded(scrub(data))
        if self.dialect == "postgresql":
            detail, data = pg_clean(detail), pg_clean(data)
        return {
            "tenant": scope.tenant,
            "slot_key": slot_key,
            "provider": scope.provider,
            "endpoint": scope.endpoint,
            "task_id": task_id,
            "at": at,
            "event": event,
            "state": state_text(state),
            "detail": detail,
            "data": jsonable(data) if data is not None else None,
        }

    def add_event(
        self,
        scope: Scope,
        slot_key: str,
        task_id: int | None,
        event: str,
        *,
        state: State | None = None,
        detail: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        """Append to a slot's history, durably, in its own transaction."""
        at = time.time()

        def add(conn: Connection, ambiguous: bool) -> None:
            if (
                ambiguous
                and conn.execute(
                    select(events.c.id).where(
                        events.c.tenant == scope.tenant,
                        events.c.slot_key == slot_key,
                        events.c.event == event,
                        events.c.at == at,
                    )
                ).first()
            ):
                return  # the earlier attempt's COMMIT went through
            self._add_event(conn, scope, slot_key, task_id, at, event, state, detail, data)

        self._run_write(add)

    # -- tidy-up: never deletes a record ---------------------------------------------------
    def set_hidden(self, scope: Scope, slot_key: str, hidden: bool, task_id: int) -> bool:
        """Hide (or show again) every task of a slot from the browser, with its history event,
        in one transaction. False when it already was so (nothing written)."""
        at = time.time()
        where = and_(
            tasks.c.tenant == scope.tenant,
            tasks.c.slot_key == slot_key,
            tasks.c.provider == scope.provider,
            tasks.c.endpoint == scope.endpoint,
            tasks.c.hidden_at.is_(None) if hidden else tasks.c.hidden_at.is_not(None),
        )

        def change(conn: Connection, _ambiguous: bool) -> bool:
            done = conn.execute(
                tasks.update().where(where).values(hidden_at=at if hidden else None)
            ).rowcount
            if not done:
                return False  # (after an ambiguous COMMIT too: it went through)
            self._add_event(
                conn,
                scope,
                slot_key,
                task_id,
                at,
                "hidden" if hidden else "unhidden",
                None,
                "hidden from the browser; the record stays" if hidden else "shown again",
                None,
            )
            return True

        return self._run_write(change)

    def mark_media_removed(
        self, scope: Scope, task: TaskRow, removed: Sequence[MediaRow], detail: str
    ) -> None:
        """Record that these media files were deleted from this machine (the rows stay, with
        their SHA-256), and the history event, in one transaction."""
        at = time.time()
        ids = [m.id for m in removed]

        def mark(conn: Connection, _ambiguous: bool) -> None:
            conn.execute(
                media_t.update()
                .where(media_t.c.id.in_(ids), media_t.c.removed_at.is_(None))
                .values(removed_at=at)
            )
            self._add_event(
                conn,
                scope,
                task.slot_key,
                task.id,
                at,
                "media_removed",
                task.state,
                detail,
                {"files": [m.path for m in removed], "bytes": sum(m.bytes for m in removed)},
            )

        self._run_write(mark)

    def replace_media(
        self, scope: Scope, task: TaskRow, media: Sequence[dict[str, Any]], detail: str
    ) -> None:
        """The slot's media downloaded and verified again (``recover --redownload`` after
        prune-media): the old rows replaced by the new ones, and the event, in one transaction.
        The task row itself (state, fingerprint, cost) is not written."""
        now = time.time()

        def put(conn: Connection, _ambiguous: bool) -> None:
            conn.execute(media_t.delete().where(media_t.c.task_id == task.id))
            for pos, m in enumerate(media):
                conn.execute(
                    media_t.insert().values(task_id=task.id, position=pos, verified_at=now, **m)
                )
            self._add_event(
                conn,
                scope,
                task.slot_key,
                task.id,
                now,
                "redownloaded",
                task.state,
                detail,
                {"media": [dict(m) for m in media]},
            )

        self._run_write(put)

    @_retrying_read
    def with_local_media(self, scope: Scope, verified_before: float) -> list[TaskRow]:
        """This user's tasks with local media files verified before ``verified_before`` and
        not removed yet (``prune-media --older-than``), oldest first, with their media."""
        with self.read() as conn:
            ids = (
                conn.execute(
                    select(tasks.c.id)
                    .where(
                        *self._in_scope(scope),
                        tasks.c.user_hash == scope.user_hash,
                        tasks.c.id.in_(
                            select(media_t.c.task_id).where(
                                media_t.c.removed_at.is_(None),
                                media_t.c.verified_at < verified_before,
                            )
                        ),
                    )
                    .order_by(tasks.c.id)
                )
                .scalars()
                .all()
            )
            out = []
            for task_id in ids:
                found = conn.execute(select(tasks).where(tasks.c.id == task_id)).mappings().one()
                task = task_row(found)
                task.media = self._media_for(conn, task.id)
                out.append(task)
        return out

    def add_notes(self, scope: Scope, notes: Sequence[dict[str, Any]]) -> None:
        """Append informational history notes (replays) in one transaction, without an fsync
        on SQLite: losing a note in a power cut loses no money and no result. Each note has
        ``slot_key``, ``task_id``, ``at``, ``event``, ``state``, ``detail``."""
        if not notes:
            return
        rows = [
            {
                "tenant": scope.tenant,
                "provider": scope.provider,
                "endpoint": scope.endpoint,
                "data": None,
                **scrub(n),
                "state": state_text(n.get("state")),
            }
            for n in notes
        ]
        for row in rows:
            row["data"] = bounded(row["data"])
        if self.dialect != "sqlite":
            self._run_write(lambda conn, _ambiguous: conn.execute(self.sql.event_insert, rows))
            return
        # the connection and its setting are made before the write turn: the turn holds only
        # the transaction
        with self.writer.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            raw.execute("PRAGMA synchronous=NORMAL")  # outside any transaction, as SQLite needs
            try:
                with self.write_turn(), conn.begin():
                    conn.execute(self.sql.event_insert, rows)
            finally:
                raw.execute("PRAGMA synchronous=FULL")

    @_retrying_read
    def history(self, scope: Scope, slot_key: str) -> list[EventRow]:
        with self.read() as conn:
            rows = (
                conn.execute(
                    select(events)
                    .where(
                        events.c.tenant == scope.tenant,
                        events.c.slot_key == slot_key,
                        events.c.provider == scope.provider,
                        events.c.endpoint == scope.endpoint,
                    )
                    .order_by(events.c.id)
                )
                .mappings()
                .all()
            )
        return [event_row(r) for r in rows]

    # -- tasks --------------------------------------------------------------------------
    @_retrying_read
    def get_slot(self, scope: Scope, slot_key: str, *, with_media: bool = True) -> TaskRow | None:
        with self.read() as conn:
            task = self.find_slot(conn, scope, slot_key)
            if task is not None and with_media:
                task.media = self._media_for(conn, task.id)
            return task

    @_retrying_read
    def get_task(self, task_id: int) -> TaskRow | None:
        with self.read() as conn:
            row = conn.execute(select(tasks).where(tasks.c.id == task_id)).mappings().first()
            if row is None:
                return None
            task = task_row(row)
            task.media = self._media_for(conn, task.id)
            return task

    def _media_for(
        self, conn: Connection, task_id: int, query: Select[Any] | None = None
    ) -> list[MediaRow]:
        """The task's media rows (``query``: :meth:`_media_query` of it, built beforehand)."""
        rows = conn.execute(query if query is not None else self._media_query(task_id))
        return [media_row(r) for r in rows.mappings().all()]

    @staticmethod
    def _media_query(task_id: Any) -> Select[Any]:
        return select(media_t).where(media_t.c.task_id == task_id).order_by(media_t.c.position)

    # -- a write's statements, made ready before its turn ---------------------------------
    @functools.cached_property
    def _templates(self) -> tuple[Compiled, Compiled, Compiled]:
        """SQLite: a task by its id, its media, one event — each compiled once (on the first
        transition), bound for each (:mod:`app.store.prepared`)."""
        dialect, task_id = self.engine.dialect, bindparam("task_id")
        return (
            compile_once(select(tasks).where(tasks.c.id == task_id), dialect),
            compile_once(self._media_query(task_id), dialect),
            compile_once(events.insert(), dialect, [c.key for c in events.c if c.key != "id"]),
        )

    @staticmethod
    def _run(conn: Connection, stmt: Any) -> Any:
        return stmt.run(conn) if isinstance(stmt, Prepared) else conn.execute(stmt)

    def _task_of(self, conn: Connection, stmt: Any) -> TaskRow | None:
        """The task row a ready ``select(tasks)`` finds (at most one), or None."""
        row = self._run(conn, stmt).mappings().first()
        if row is None:
            return None
        return task_row(self._task_rows.row(row) if isinstance(stmt, Prepared) else row)

    def _media_of(self, conn: Connection, stmt: Any) -> list[MediaRow]:
        """The media rows a ready :meth:`_media_query` finds."""
        rows = self._run(conn, stmt).mappings().all()
        if isinstance(stmt, Prepared):
            return [media_row(self._media_rows.row(r)) for r in rows]
        return [media_row(r) for r in rows]

    def transition(
        self,
        task: TaskRow,
        *,
        expect: Sequence[State] | None = None,
        event: str | None = None,
        detail: str | None = None,
        data: dict[str, Any] | None = None,
        media: Sequence[dict[str, Any]] | None = None,
        unique_provider_task: bool = False,
        unset: Sequence[str] = (),
        **values: Any,
    ) -> TaskRow | None:
        """Update a task (optionally only if its state is in ``expect`` and the columns named in
        ``unset`` are still NULL), add an event and media rows in the same transaction. Returns
        the new row, or None if a condition failed.

        ``unique_provider_task``: the new ``provider_task_id`` is written only while no other
        task of the same provider and endpoint holds it (an attach never makes two slots show
        one task); on PostgreSQL an advisory lock on the id serializes racing attaches."""
        now = time.time()
        scope = task.scope
        new_state = State(values["state"]) if "state" in values else task.state
        if "state" in values:
            values["state"] = new_state.value
        if "results" in values and values["results"] is not None:
            values["results"] = jsonable(values["results"])
        values = self._clean(values)
        # Every statement is built here, before the write lock is taken: under the lock the
        # transaction only runs them (other writers wait for as long as it is held).
        reread = select(tasks).where(tasks.c.id == task.id)
        media_query = self._media_query(task.id)
        cond = [tasks.c.id == task.id]
        if expect is not None:
            cond.append(tasks.c.state.in_([State(s).value for s in expect]))
        advisory: tuple[Any, dict[str, str]] | None = None
        if unique_provider_task and values.get("provider_task_id"):
            pid = values["provider_task_id"]
            if self.dialect == "postgresql":
                advisory = (
                    text("SELECT pg_advisory_xact_lock(hashtext(:k))"),
                    {"k": f"slate-task:{task.provider}:{task.endpoint}:{pid}"},
                )
            other = _OTHER_TASK
            cond.append(
                ~exists().where(
                    other.c.provider_task_id == pid,
                    other.c.provider == task.provider,
                    other.c.endpoint == task.endpoint,
                    other.c.id != task.id,
                )
            )
        cond.extend(tasks.c[name].is_(None) for name in unset)
        change = update(tasks).where(*cond).values(updated_at=now, **values)
        media_writes = (
            [media_t.delete().where(media_t.c.task_id == task.id)]
            + [
                media_t.insert().values(task_id=task.id, position=pos, verified_at=now, **m)
                for pos, m in enumerate(media)
            ]
            if media is not None
            else []
        )
        note = (
            self._event_values(scope, task.slot_key, task.id, now, event, new_state, detail, data)
            if event is not None
            else None
        )
        # On SQLite every statement is also compiled here, with its parameters: the writers'
        # turn then only runs them (app/store/prepared.py). PostgreSQL has no such turn.
        change_r: Any
        if self.dialect == "sqlite":
            by_id, media_of, event_t = self._templates
            key = {"task_id": task.id}
            dialect = self.engine.dialect
            change_r = prepare(change, dialect)
            reread_r: Any = Prepared(by_id.sql, by_id.args(key))
            media_r: Any = Prepared(media_of.sql, media_of.args(key))
            writes_r: list[Any] = [prepare(stmt, dialect) for stmt in media_writes]
            note_r: Any = Prepared(event_t.sql, event_t.args(note, none_too=True)) if note else None
        else:
            change_r, reread_r, media_r, writes_r = change, reread, media_query, media_writes
            note_r = events.insert().values(**note) if note else None

        def apply(conn: Connection, ambiguous: bool) -> TaskRow | None:
            if ambiguous:
                out = self._task_of(conn, reread_r)
                if out is not None and out.updated_at == now:
                    # The earlier attempt's COMMIT went through (update, media and event).
                    out.media = self._media_of(conn, media_r)
                    return out
            if advisory is not None:
                conn.execute(*advisory)
            done = self._run(conn, change_r).rowcount
            if done != 1:
                return None
            if new_state is State.REJECTED and task.state is not State.REJECTED:
                self._give_back_quota(conn, task.id)
            for stmt in writes_r:
                self._run(conn, stmt)
            if note_r is not None:
                self._run(conn, note_r)
            out = self._task_of(conn, reread_r)
            if out is None:  # updated in this very transaction: cannot be gone
                raise NoResultFound(f"task {task.id} vanished inside its own transition")
            out.media = self._media_of(conn, media_r)
            return out

        return self._run_write(apply)

    @_retrying_read
    def owners_of(
        self,
        provider: str,
        endpoint: str,
        provider_task_ids: Sequence[str],
        except_task: int | None = None,
    ) -> set[str]:
        """Which of ``provider_task_ids`` a task of the store (any tenant, any user) holds."""
        ids = sorted(set(provider_task_ids))
        found: set[str] = set()
        with self.read() as conn:
            for start in range(0, len(ids), 500):
                cond = [
                    tasks.c.provider == provider,
                    tasks.c.endpoint == endpoint,
                    tasks.c.provider_task_id.in_(ids[start : start + 500]),
                ]
                if except_task is not None:
                    cond.append(tasks.c.id != except_task)
                found.update(
                    conn.execute(select(tasks.c.provider_task_id).where(*cond)).scalars().all()
                )
        return found

    def renew_lease(self, task_id: int, owner: Owner, seconds: float) -> float | None:
        """Extend the lease of a ``submitting`` record this owner still holds to ``seconds``
        from now in the store's clock. Returns the new ``lease_until``, or None when the record
        is no longer this owner's ``submitting`` one (answered, or declared unknown)."""
        now_sql = literal_column(_NOW_SQL[self.dialect])

        def renew(conn: Connection, _ambiguous: bool) -> float | None:
            # Idempotent: running it again after a lost COMMIT just extends the lease again.
            done = conn.execute(
                update(tasks)
                .where(
                    tasks.c.id == task_id,
                    tasks.c.state == State.SUBMITTING.value,
                    tasks.c.owner_host == owner.host,
                    tasks.c.owner_pid == owner.pid,
                    tasks.c.owner_started == owner.started,
                )
                .values(lease_until=now_sql + seconds)
            ).rowcount
            if done != 1:
                return None
            return conn.execute(select(tasks.c.lease_until).where(tasks.c.id == task_id)).scalar()

        return self._run_write(renew)

    @_retrying_read
    def slot_copies(self, scope: Scope, slot_key: str) -> list[TaskRow]:
        """The other tasks of a slot that held several before the slot boundary (``slot_copy``
        1, 2, …), oldest first; usually none."""
        with self.read() as conn:
            rows = (
                conn.execute(
                    select(tasks)
                    .where(
                        tasks.c.tenant == scope.tenant,
                        tasks.c.slot_key == slot_key,
                        tasks.c.provider == scope.provider,
                        tasks.c.endpoint == scope.endpoint,
                        tasks.c.slot_copy > 0,
                    )
                    .order_by(tasks.c.slot_copy)
                )
                .mappings()
                .all()
            )
            out = [task_row(r) for r in rows]
            for task in out:
                task.media = self._media_for(conn, task.id)
        return out

    @_retrying_read
    def duplicate_slots(self) -> int:
        """How many slots of the whole store hold more than one task (made before 0004)."""
        with self.read() as conn:
            return int(
                conn.execute(
                    select(func.count(func.distinct(tasks.c.slot_key))).where(tasks.c.slot_copy > 0)
                ).scalar()
                or 0
            )

    @staticmethod
    def _in_scope(scope: Scope | None) -> list[Any]:
        if scope is None:
            return []
        return [
            tasks.c.tenant == scope.tenant,
            tasks.c.provider == scope.provider,
            tasks.c.endpoint == scope.endpoint,
        ]

    def _in_states(self, states: Sequence[State]) -> Any:
        """``state IN states``, marked as true of few tasks (:func:`engine.few`): the poller's
        states are a handful of tasks in a long history."""
        return few(self.dialect, tasks.c.state.in_([State(s).value for s in states]))

    @_retrying_read
    def due_tasks(
        self, scope: Scope | None, states: Sequence[State], now: float, limit: int
    ) -> list[TaskRow]:
        """Non-terminal tasks whose next poll is due, soonest first."""
        cond = [
            self._in_states(states),
            or_(tasks.c.next_poll_at.is_(None), tasks.c.next_poll_at <= now),
            *self._in_scope(scope),
        ]
        with self.read() as conn:
            rows = (
                conn.execute(
                    select(tasks)
                    .where(and_(*cond))
                    .order_by(tasks.c.next_poll_at.nulls_first(), tasks.c.id)
                    .limit(limit)
                )
                .mappings()
                .all()
            )
        return [task_row(r) for r in rows]

    @_retrying_read
    def tasks_in_states(self, scope: Scope | None, states: Sequence[State]) -> list[TaskRow]:
        cond = [self._in_states(states), *self._in_scope(scope)]
        with self.read() as conn:
            # ordered here, not by the statement: ORDER BY id made the planner walk every task
            # in id order rather than look up the few unfinished ones on ix_tasks_active
            rows = conn.execute(select(tasks).where(*cond)).mappings().all()
        return sorted((task_row(r) for r in rows), key=lambda t: t.id)

    @_retrying_read
    def next_due_at(self, scope: Scope | None, states: Sequence[State]) -> float | None:
        cond = [self._in_states(states), *self._in_scope(scope)]
        with self.read() as conn:
            return conn.execute(
                select(func.min(func.coalesce(tasks.c.next_poll_at, 0.0))).where(*cond)
            ).scalar()

    def schedule_polls(self, due: Sequence[tuple[int, float]]) -> None:
        """Set ``next_poll_at`` of many tasks in one transaction: ``[(task id, when), ...]``."""
        if not due:
            return
        stmt = (
            update(tasks)
            .where(tasks.c.id == bindparam("b_id"))
            .values(next_poll_at=bindparam("b_due"))
        )
        rows = [{"b_id": i, "b_due": when} for i, when in due]
        self._run_write(lambda conn, _ambiguous: conn.execute(stmt, rows))
