"""The task repository: the claim transaction, task updates, events, media and quota.

Every write runs in one short write transaction (``BEGIN IMMEDIATE`` on SQLite). The unique
boundary index is the final arbiter of a slot: an insert that loses the race reads the winner
back. Quota is counted inside the claim transaction, so racing processes cannot exceed it.

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
import json
import logging
import math
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence, TypeVar

from sqlalchemy import Connection, Engine, String, and_, bindparam, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, OperationalError

from app.store.engine import write_queue, writer
from app.store.sqlite_claim import SqliteClaim
from app.store.migrate import upgrade
from app.store.models import BOUNDARY_COLUMNS, Media, QuotaUse, SlotEvent, Task

tasks = Task.__table__
events = SlotEvent.__table__
media_t = Media.__table__
quota_t = QuotaUse.__table__

log = logging.getLogger(__name__)
T = TypeVar("T")

#: How long a store call keeps retrying through connection trouble (PostgreSQL) before it
#: gives up and raises. Covers a server restart or a fail-over of a few seconds.
RETRY_SECONDS = 30.0


def is_transient(exc: BaseException) -> bool:
    """A database error worth running the transaction again for: the connection was lost or
    could not be made (server restarting, shutting down, not yet accepting connections), or
    the server rolled the transaction back (deadlock, serialization)."""
    if not isinstance(exc, DBAPIError):
        return False
    return bool(exc.connection_invalidated) or isinstance(exc, OperationalError)


def _retrying_read(method: Callable[..., T]) -> Callable[..., T]:
    """A read-only repository method, run again through transient connection trouble."""

    @functools.wraps(method)
    def wrapper(self: "Repository", *args: Any, **kw: Any) -> T:
        return self._retrying(lambda: method(self, *args, **kw), method.__name__)

    return wrapper


def _pg_clean(value: Any) -> Any:
    """What PostgreSQL cannot store (SQLite can): NUL characters in text, NaN/Infinity in JSON."""
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd") if "\x00" in value else value
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {_pg_clean(k): _pg_clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_pg_clean(v) for v in value]
    return value


@dataclass(frozen=True)
class Scope:
    """Who and where: every query of the repository is bound to one of these."""

    tenant: str
    user_hash: str
    provider: str
    endpoint: str


@dataclass
class TaskRow:
    id: int
    tenant: str
    user_hash: str
    slot_key: str
    idempotency_key: str
    provider: str
    endpoint: str
    request_id: str
    kind: str
    fingerprint: str
    params: dict[str, Any]
    state: str
    provider_task_id: str | None
    provider_status: str | None
    results: dict[str, Any] | None
    error_code: str | None
    error_message: str | None
    owner_host: str | None
    owner_pid: int | None
    owner_started: float | None
    lease_until: float | None
    units: int
    created_at: float
    updated_at: float
    next_poll_at: float | None
    poll_failures: int
    project: str | None
    prompt_text: str | None
    media: list["MediaRow"] = field(default_factory=list)

    @property
    def has_results(self) -> bool:
        r = self.results or {}
        return bool(r.get("file_id") or r.get("image_urls") or r.get("images"))


@dataclass
class MediaRow:
    id: int
    task_id: int
    position: int
    path: str
    sha256: str
    bytes: int
    content_type: str
    width: int | None
    height: int | None
    duration: float | None
    verified_at: float


@dataclass
class EventRow:
    id: int
    task_id: int | None
    at: float
    event: str
    state: str | None
    detail: str | None
    data: dict[str, Any] | None


@dataclass
class ClaimResult:
    """``claimed``: this caller now owns a fresh ``submitting`` record and must send the create."""

    task: TaskRow | None
    claimed: bool = False
    lost_race: bool = False
    quota_exceeded: bool = False
    quota_used: int = 0


class _QuotaExceeded(Exception):
    def __init__(self, used: int) -> None:
        self.used = used


def _task(row: Mapping[str, Any]) -> TaskRow:
    return TaskRow(**{k: row[k] for k in tasks.c.keys()})


def _media(row: Mapping[str, Any]) -> MediaRow:
    return MediaRow(**{k: row[k] for k in media_t.c.keys()})


def _event(row: Mapping[str, Any]) -> EventRow:
    return EventRow(
        id=row["id"], task_id=row["task_id"], at=row["at"], event=row["event"],
        state=row["state"], detail=row["detail"], data=row["data"],
    )


def _jsonable(value: Any) -> Any:
    """Round-trip through JSON so nothing unserializable reaches a JSON column."""
    return json.loads(json.dumps(value, default=str))


class Repository:
    """All store access of the service layer (widgets never come here)."""

    def __init__(self, engine: Engine, *, migrate: bool = True) -> None:
        self.engine = engine
        self.writer = writer(engine)
        self._write_queue = write_queue(engine)
        self.dialect = engine.dialect.name
        #: Retry through connection trouble for this long (PostgreSQL only; 0 turns it off).
        self.retry_seconds = RETRY_SECONDS if self.dialect == "postgresql" else 0.0
        # The claim's statements, built once: a submit is the hot path (docs/BENCHMARKS.md).
        self._find_stmt = (
            select(tasks)
            .where(
                tasks.c.tenant == bindparam("tenant"), tasks.c.slot_key == bindparam("slot_key"),
                tasks.c.provider == bindparam("provider"), tasks.c.endpoint == bindparam("endpoint"),
            )
            .order_by(tasks.c.id)
            .limit(1)
        )
        self._claim_stmt = (
            self._insert(tasks)
            .on_conflict_do_nothing(index_elements=list(BOUNDARY_COLUMNS))
            .returning(*tasks.c)
        )
        self._event_stmt = events.insert()
        self._quota_stmts: dict[bool, Any] = {}
        self._sqlite_claim = SqliteClaim(self, tasks, events) if self.dialect == "sqlite" else None
        if migrate:
            # One transaction under an advisory lock (PostgreSQL): safe to run again.
            self._retrying(lambda: upgrade(engine), "migrate")

    # -- transactions -------------------------------------------------------------------
    @contextmanager
    def write(self) -> Iterator[Connection]:
        with self.write_turn():
            with self.writer.begin() as conn:
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
        log.warning("store %s: connection trouble (%s); trying again in %.2f s",
                    what, str(exc).splitlines()[0][:200], pause)
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
                self._retry_pause(exc, attempt, deadline, "write")
                ambiguous = ambiguous or committing

    def _clean(self, values: dict[str, Any]) -> dict[str, Any]:
        """Make values storable on PostgreSQL (no-op on SQLite): no NUL characters or NaN, and
        short status columns clipped to their width (the raw answer is kept in the history)."""
        if self.dialect != "postgresql":
            return values
        out = {}
        for k, v in values.items():
            v = _pg_clean(v)
            col = tasks.c.get(k)
            if (
                k in {"provider_status", "error_code"} and isinstance(v, str) and col is not None
                and isinstance(col.type, String) and col.type.length and len(v) > col.type.length
            ):
                v = v[: col.type.length]
            out[k] = v
        return out

    def _insert(self, table: Any) -> Any:
        return (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(table)

    # -- the claim ----------------------------------------------------------------------
    def find_slot(self, conn: Connection, scope: Scope, slot_key: str) -> TaskRow | None:
        row = conn.execute(
            self._find_stmt,
            {"tenant": scope.tenant, "slot_key": slot_key, "provider": scope.provider,
             "endpoint": scope.endpoint},
        ).mappings().first()
        return _task(row) if row else None

    @staticmethod
    def _answered_as_is(existing: TaskRow, scope: Scope, kind: str, fingerprint: str) -> bool:
        """An existing record that a claim answers untouched (anything but a re-creatable
        ``rejected`` record with the same kind and fingerprint)."""
        return not (
            existing.state == "rejected" and existing.fingerprint == fingerprint
            and existing.kind == kind and existing.user_hash == scope.user_hash
        )

    def claim(
        self,
        scope: Scope,
        *,
        slot_key: str,
        idempotency_key: str,
        request_id: str,
        kind: str,
        fingerprint: str,
        params: dict[str, Any],
        units: int,
        owner: tuple[str, int, float],
        lease_until: float,
        quota_limit: int | None,
        day: str,
        project: str | None = None,
        now: float | None = None,
        event_data: dict[str, Any] | None = None,
        read_first: bool = True,
    ) -> ClaimResult:
        """Claim the slot in ``submitting`` (or re-claim a ``rejected`` one with the same
        fingerprint), or return the existing record untouched. Quota is checked here.
        ``read_first=False``: the caller has just read the slot and found nothing to answer."""
        now = time.time() if now is None else now
        host, pid, started = owner
        base = {"tenant": scope.tenant, "slot_key": slot_key, "provider": scope.provider,
                "endpoint": scope.endpoint, "at": now, "state": "submitting"}
        claim_events = [
            {**base, "event": "submitted", "detail": f"{kind} slot claimed",
             "data": _jsonable(event_data) if event_data is not None else None},
            {**base, "event": "create_sent", "detail": "create request sent to the provider",
             "data": None},
        ]
        if self._sqlite_claim is not None:
            fast = self._sqlite_claim.claim(scope, {
                "tenant": scope.tenant, "user_hash": scope.user_hash, "slot_key": slot_key,
                "idempotency_key": idempotency_key, "provider": scope.provider,
                "endpoint": scope.endpoint, "request_id": request_id, "kind": kind,
                "fingerprint": fingerprint, "params": params, "state": "submitting",
                "owner_host": host, "owner_pid": pid, "owner_started": started,
                "lease_until": lease_until, "units": units, "created_at": now, "updated_at": now,
                "poll_failures": 0, "project": project, "prompt_text": params.get("prompt"),
                "provider_task_id": None,
                "provider_status": None, "results": None, "error_code": None,
                "error_message": None, "next_poll_at": None, "day": day,
            }, quota_limit=quota_limit, events=claim_events, read_first=read_first)
            if fast is not None:
                return fast
        elif read_first:
            # Read first, without the write lock: a replay or a conflict never waits.
            found = self.get_slot(scope, slot_key, with_media=False)
            if found is not None and self._answered_as_is(found, scope, kind, fingerprint):
                return ClaimResult(found)

        def claim_tx(conn: Connection, ambiguous: bool) -> ClaimResult:
            existing = self.find_slot(conn, scope, slot_key)
            if existing is not None and ambiguous and (
                existing.state == "submitting"
                and (existing.owner_host, existing.owner_pid, existing.owner_started) == (host, pid, started)
                and existing.lease_until == lease_until and existing.updated_at == now
                and existing.fingerprint == fingerprint and existing.kind == kind
            ):
                # Our earlier attempt's COMMIT went through (its answer was lost): the
                # claim, its quota unit and its event are ours. Nothing was sent yet.
                return ClaimResult(existing, claimed=True,
                                   quota_used=self._quota_used(conn, scope, kind, day))
            if existing is not None:
                if self._answered_as_is(existing, scope, kind, fingerprint):
                    return ClaimResult(existing)
                done = conn.execute(
                    update(tasks)
                    .where(tasks.c.id == existing.id, tasks.c.state == "rejected")
                    .values(
                        state="submitting", owner_host=host, owner_pid=pid,
                        owner_started=started, lease_until=lease_until, updated_at=now,
                        error_code=None, error_message=None, next_poll_at=None,
                        poll_failures=0,
                    )
                ).rowcount
                if done != 1:  # pragma: no cover - BEGIN IMMEDIATE makes this unreachable
                    return ClaimResult(self.find_slot(conn, scope, slot_key))
                task_id = existing.id
                row = None
            else:
                row = conn.execute(self._claim_stmt, {
                    "tenant": scope.tenant, "user_hash": scope.user_hash, "slot_key": slot_key,
                    "idempotency_key": idempotency_key, "provider": scope.provider,
                    "endpoint": scope.endpoint, "request_id": request_id, "kind": kind,
                    "fingerprint": fingerprint,
                    "params": _pg_clean(params) if self.dialect == "postgresql" else params,
                    "state": "submitting", "owner_host": host, "owner_pid": pid,
                    "owner_started": started, "lease_until": lease_until, "units": units,
                    "created_at": now, "updated_at": now, "poll_failures": 0, "project": project,
                    "prompt_text": params.get("prompt"),
                }).mappings().first()
                if row is None:
                    winner = self.find_slot(conn, scope, slot_key)
                    if winner is None:  # the winner has another kind: same key space
                        winner = self._find_by_key(conn, scope, idempotency_key)
                    return ClaimResult(winner, lost_race=True)
                task_id = row["id"]
            used = self._count_quota(conn, scope, kind, day, units, quota_limit)
            # both events durable, in this transaction, before the request leaves
            conn.execute(self._event_stmt, [{**e, "task_id": task_id} for e in claim_events])
            if row is None:
                row = conn.execute(select(tasks).where(tasks.c.id == task_id)).mappings().one()
            return ClaimResult(_task(row), claimed=True, quota_used=used)

        try:
            return self._run_write(claim_tx)
        except _QuotaExceeded as exc:
            return ClaimResult(None, quota_exceeded=True, quota_used=exc.used)

    def _find_by_key(self, conn: Connection, scope: Scope, key: str) -> TaskRow | None:
        row = conn.execute(
            select(tasks).where(
                tasks.c.tenant == scope.tenant, tasks.c.idempotency_key == key,
                tasks.c.provider == scope.provider, tasks.c.endpoint == scope.endpoint,
            )
        ).mappings().first()
        return _task(row) if row else None

    def _count_quota(
        self, conn: Connection, scope: Scope, kind: str, day: str, units: int, limit: int | None
    ) -> int:
        if limit is not None and units > limit:
            raise _QuotaExceeded(self._quota_used(conn, scope, kind, day))
        stmt = self._quota_stmt(limit is not None)
        values = {"tenant": scope.tenant, "user_hash": scope.user_hash, "kind": kind, "day": day,
                  "used": units}
        if limit is not None:
            values["limit"] = limit
        used = conn.execute(stmt, values).scalar()
        if used is None:
            raise _QuotaExceeded(self._quota_used(conn, scope, kind, day))
        return int(used)

    def _quota_stmt(self, limited: bool) -> Any:
        """Count ``used`` units for today, only up to ``limit`` when ``limited``."""
        stmt = self._quota_stmts.get(limited)
        if stmt is None:
            ins = self._insert(quota_t)
            stmt = ins.on_conflict_do_update(
                index_elements=["tenant", "user_hash", "kind", "day"],
                set_={"used": quota_t.c.used + ins.excluded.used},
                where=(quota_t.c.used + ins.excluded.used <= bindparam("limit")) if limited else None,
            ).returning(quota_t.c.used)
            self._quota_stmts[limited] = stmt
        return stmt

    def _quota_used(self, conn: Connection, scope: Scope, kind: str, day: str) -> int:
        return int(
            conn.execute(
                select(quota_t.c.used).where(
                    quota_t.c.tenant == scope.tenant, quota_t.c.user_hash == scope.user_hash,
                    quota_t.c.kind == kind, quota_t.c.day == day,
                )
            ).scalar() or 0
        )

    @_retrying_read
    def quota_used(self, scope: Scope, day: str) -> dict[str, int]:
        with self.read() as conn:
            rows = conn.execute(
                select(quota_t.c.kind, quota_t.c.used).where(
                    quota_t.c.tenant == scope.tenant, quota_t.c.user_hash == scope.user_hash,
                    quota_t.c.day == day,
                )
            ).all()
        out = {"image": 0, "video": 0}
        out.update({k: int(u) for k, u in rows})
        return out

    # -- events -------------------------------------------------------------------------
    def _add_event(
        self, conn: Connection, scope: Scope, slot_key: str, task_id: int | None, at: float,
        event: str, state: str | None, detail: str | None, data: dict[str, Any] | None,
    ) -> None:
        if self.dialect == "postgresql":
            detail, data = _pg_clean(detail), _pg_clean(data)
        conn.execute(
            events.insert().values(
                tenant=scope.tenant, slot_key=slot_key, provider=scope.provider,
                endpoint=scope.endpoint, task_id=task_id, at=at, event=event, state=state,
                detail=detail, data=_jsonable(data) if data is not None else None,
            )
        )

    def add_event(
        self, scope: Scope, slot_key: str, task_id: int | None, event: str, *,
        state: str | None = None, detail: str | None = None, data: dict[str, Any] | None = None,
    ) -> None:
        """Append to a slot's history, durably, in its own transaction."""
        at = time.time()

        def add(conn: Connection, ambiguous: bool) -> None:
            if ambiguous and conn.execute(
                select(events.c.id).where(
                    events.c.tenant == scope.tenant, events.c.slot_key == slot_key,
                    events.c.event == event, events.c.at == at,
                )
            ).first():
                return  # the earlier attempt's COMMIT went through
            self._add_event(conn, scope, slot_key, task_id, at, event, state, detail, data)

        self._run_write(add)

    def add_notes(self, scope: Scope, notes: Sequence[dict[str, Any]]) -> None:
        """Append informational history notes (replays) in one transaction, without an fsync
        on SQLite: losing a note in a power cut loses no money and no result. Each note has
        ``slot_key``, ``task_id``, ``at``, ``event``, ``state``, ``detail``."""
        if not notes:
            return
        rows = [{"tenant": scope.tenant, "provider": scope.provider, "endpoint": scope.endpoint,
                 "data": None, **n} for n in notes]
        if self.dialect != "sqlite":
            self._run_write(lambda conn, _ambiguous: conn.execute(self._event_stmt, rows))
            return
        with self.write_turn(), self.writer.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            raw.execute("PRAGMA synchronous=NORMAL")  # outside any transaction, as SQLite needs
            try:
                with conn.begin():
                    conn.execute(self._event_stmt, rows)
            finally:
                raw.execute("PRAGMA synchronous=FULL")

    @_retrying_read
    def history(self, scope: Scope, slot_key: str) -> list[EventRow]:
        with self.read() as conn:
            rows = conn.execute(
                select(events).where(
                    events.c.tenant == scope.tenant, events.c.slot_key == slot_key,
                    events.c.provider == scope.provider, events.c.endpoint == scope.endpoint,
                ).order_by(events.c.id)
            ).mappings().all()
        return [_event(r) for r in rows]

    # -- tasks --------------------------------------------------------------------------
    @_retrying_read
    def get_slot(self, scope: Scope, slot_key: str, *, with_media: bool = True) -> TaskRow | None:
        if not with_media and self._sqlite_claim is not None:
            row = self._sqlite_claim.find_slot(scope, slot_key)
            return _task(row) if row else None
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
            task = _task(row)
            task.media = self._media_for(conn, task.id)
            return task

    def _media_for(self, conn: Connection, task_id: int) -> list[MediaRow]:
        rows = conn.execute(
            select(media_t).where(media_t.c.task_id == task_id).order_by(media_t.c.position)
        ).mappings().all()
        return [_media(r) for r in rows]

    @_retrying_read
    def transition(
        self,
        task: TaskRow,
        *,
        expect: Sequence[str] | None = None,
        event: str | None = None,
        detail: str | None = None,
        data: dict[str, Any] | None = None,
        media: Sequence[dict[str, Any]] | None = None,
        **values: Any,
    ) -> TaskRow | None:
        """Update a task (optionally only if its state is in ``expect``), add an event and
        media rows in the same transaction. Returns the new row, or None if ``expect`` failed."""
        now = time.time()
        scope = Scope(task.tenant, task.user_hash, task.provider, task.endpoint)
        if "results" in values and values["results"] is not None:
            values["results"] = _jsonable(values["results"])
        values = self._clean(values)

        def apply(conn: Connection, ambiguous: bool) -> TaskRow | None:
            if ambiguous:
                row = conn.execute(select(tasks).where(tasks.c.id == task.id)).mappings().first()
                if row is not None and row["updated_at"] == now:
                    # The earlier attempt's COMMIT went through (update, media and event).
                    out = _task(row)
                    out.media = self._media_for(conn, task.id)
                    return out
            cond = [tasks.c.id == task.id]
            if expect is not None:
                cond.append(tasks.c.state.in_(list(expect)))
            done = conn.execute(update(tasks).where(*cond).values(updated_at=now, **values)).rowcount
            if done != 1:
                return None
            if media is not None:
                conn.execute(media_t.delete().where(media_t.c.task_id == task.id))
                for pos, m in enumerate(media):
                    conn.execute(media_t.insert().values(task_id=task.id, position=pos, verified_at=now, **m))
            if event is not None:
                self._add_event(
                    conn, scope, task.slot_key, task.id, now, event,
                    values.get("state", task.state), detail, data,
                )
            row = conn.execute(select(tasks).where(tasks.c.id == task.id)).mappings().one()
            out = _task(row)
            out.media = self._media_for(conn, task.id)
            return out

        return self._run_write(apply)

    @_retrying_read
    def due_tasks(self, scope: Scope | None, states: Sequence[str], now: float, limit: int) -> list[TaskRow]:
        """Non-terminal tasks whose next poll is due, soonest first."""
        cond = [tasks.c.state.in_(list(states)), or_(tasks.c.next_poll_at.is_(None), tasks.c.next_poll_at <= now)]
        if scope is not None:
            cond += [
                tasks.c.tenant == scope.tenant, tasks.c.provider == scope.provider,
                tasks.c.endpoint == scope.endpoint,
            ]
        with self.read() as conn:
            rows = conn.execute(
                select(tasks).where(and_(*cond)).order_by(tasks.c.next_poll_at.nulls_first(), tasks.c.id).limit(limit)
            ).mappings().all()
        return [_task(r) for r in rows]

    @_retrying_read
    def tasks_in_states(self, scope: Scope | None, states: Sequence[str]) -> list[TaskRow]:
        cond = [tasks.c.state.in_(list(states))]
        if scope is not None:
            cond += [tasks.c.tenant == scope.tenant, tasks.c.provider == scope.provider, tasks.c.endpoint == scope.endpoint]
        with self.read() as conn:
            rows = conn.execute(select(tasks).where(*cond).order_by(tasks.c.id)).mappings().all()
        return [_task(r) for r in rows]

    @_retrying_read
    def next_due_at(self, scope: Scope | None, states: Sequence[str]) -> float | None:
        cond = [tasks.c.state.in_(list(states))]
        if scope is not None:
            cond += [tasks.c.tenant == scope.tenant, tasks.c.provider == scope.provider, tasks.c.endpoint == scope.endpoint]
        with self.read() as conn:
            return conn.execute(select(func.min(func.coalesce(tasks.c.next_poll_at, 0.0))).where(*cond)).scalar()

    @_retrying_read
    def schedule_polls(self, due: Sequence[tuple[int, float]]) -> None:
        """Set ``next_poll_at`` of many tasks in one transaction: ``[(task id, when), ...]``."""
        if not due:
            return
        stmt = update(tasks).where(tasks.c.id == bindparam("b_id")).values(next_poll_at=bindparam("b_due"))
        rows = [{"b_id": i, "b_due": when} for i, when in due]
        self._run_write(lambda conn, _ambiguous: conn.execute(stmt, rows))

    def list_slots(
        self, scope: Scope, *, state: str | None = None, kind: str | None = None,
        search: str | None = None, limit: int = 100, before_id: int | None = None,
        since: float | None = None, until: float | None = None,
    ) -> list[TaskRow]:
        """Slots newest first, keyset-paginated by id (``before_id``)."""
        cond = [
            tasks.c.tenant == scope.tenant, tasks.c.user_hash == scope.user_hash,
            tasks.c.provider == scope.provider, tasks.c.endpoint == scope.endpoint,
        ]
        if state:
            cond.append(tasks.c.state == state)
        if kind:
            cond.append(tasks.c.kind == kind)
        if before_id is not None:
            cond.append(tasks.c.id < before_id)
        if since is not None:
            cond.append(tasks.c.created_at >= since)
        if until is not None:
            cond.append(tasks.c.created_at < until)
        if search:
            pattern = "%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            prompt = func.json_extract(tasks.c.params, "$.prompt") if self.dialect == "sqlite" else tasks.c.params["prompt"].as_string()
            cond.append(or_(tasks.c.request_id.like(pattern, escape="\\"), prompt.like(pattern, escape="\\")))
        with self.read() as conn:
            rows = conn.execute(
                select(tasks).where(*cond).order_by(tasks.c.id.desc()).limit(limit)
            ).mappings().all()
        return [_task(r) for r in rows]

    @_retrying_read
    def request_ids_like(self, scope: Scope, prefix: str) -> set[str]:
        with self.read() as conn:
            rows = conn.execute(
                select(tasks.c.request_id).where(
                    tasks.c.tenant == scope.tenant, tasks.c.user_hash == scope.user_hash,
                    tasks.c.provider == scope.provider, tasks.c.endpoint == scope.endpoint,
                    tasks.c.request_id.like(prefix.replace("%", "") + "%"),
                )
            ).scalars().all()
        return set(rows)
