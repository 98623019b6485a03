"""The task repository: the claim transaction, task updates, events, media and quota.

Every write runs in one short write transaction (``BEGIN IMMEDIATE`` on SQLite). The unique
boundary index is the final arbiter of a slot: an insert that loses the race reads the winner
back. Quota is counted inside the claim transaction, so racing processes cannot exceed it.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

from sqlalchemy import Connection, Engine, and_, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from app.store.engine import writer
from app.store.migrate import upgrade
from app.store.models import BOUNDARY_COLUMNS, Media, QuotaUse, SlotEvent, Task

tasks = Task.__table__
events = SlotEvent.__table__
media_t = Media.__table__
quota_t = QuotaUse.__table__


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
        self.dialect = engine.dialect.name
        if migrate:
            upgrade(engine)

    # -- transactions -------------------------------------------------------------------
    @contextmanager
    def write(self) -> Iterator[Connection]:
        with self.writer.begin() as conn:
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    def _insert(self, table: Any) -> Any:
        return (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(table)

    # -- the claim ----------------------------------------------------------------------
    def find_slot(self, conn: Connection, scope: Scope, slot_key: str) -> TaskRow | None:
        row = conn.execute(
            select(tasks).where(
                tasks.c.tenant == scope.tenant,
                tasks.c.slot_key == slot_key,
                tasks.c.provider == scope.provider,
                tasks.c.endpoint == scope.endpoint,
            ).order_by(tasks.c.id).limit(1)
        ).mappings().first()
        return _task(row) if row else None

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
    ) -> ClaimResult:
        """Claim the slot in ``submitting`` (or re-claim a ``rejected`` one with the same
        fingerprint), or return the existing record untouched. Quota is checked here."""
        now = time.time() if now is None else now
        host, pid, started = owner
        try:
            with self.write() as conn:
                existing = self.find_slot(conn, scope, slot_key)
                if existing is not None:
                    if not (
                        existing.state == "rejected"
                        and existing.fingerprint == fingerprint
                        and existing.kind == kind
                        and existing.user_hash == scope.user_hash
                    ):
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
                else:
                    stmt = (
                        self._insert(tasks)
                        .values(
                            tenant=scope.tenant, user_hash=scope.user_hash, slot_key=slot_key,
                            idempotency_key=idempotency_key, provider=scope.provider,
                            endpoint=scope.endpoint, request_id=request_id, kind=kind,
                            fingerprint=fingerprint, params=params, state="submitting",
                            owner_host=host, owner_pid=pid, owner_started=started,
                            lease_until=lease_until, units=units, created_at=now,
                            updated_at=now, poll_failures=0, project=project,
                        )
                        .on_conflict_do_nothing(index_elements=list(BOUNDARY_COLUMNS))
                        .returning(tasks.c.id)
                    )
                    task_id = conn.execute(stmt).scalar()
                    if task_id is None:
                        winner = self.find_slot(conn, scope, slot_key)
                        if winner is None:  # the winner has another kind: same key space
                            winner = self._find_by_key(conn, scope, idempotency_key)
                        return ClaimResult(winner, lost_race=True)
                used = self._count_quota(conn, scope, kind, day, units, quota_limit)
                self._add_event(
                    conn, scope, slot_key, task_id, now, "submitted", "submitting",
                    f"{kind} slot claimed", event_data,
                )
                row = conn.execute(select(tasks).where(tasks.c.id == task_id)).mappings().one()
                return ClaimResult(_task(row), claimed=True, quota_used=used)
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
        ins = self._insert(quota_t).values(
            tenant=scope.tenant, user_hash=scope.user_hash, kind=kind, day=day, used=units
        )
        stmt = ins.on_conflict_do_update(
            index_elements=["tenant", "user_hash", "kind", "day"],
            set_={"used": quota_t.c.used + units},
            where=(quota_t.c.used + units <= limit) if limit is not None else None,
        ).returning(quota_t.c.used)
        used = conn.execute(stmt).scalar()
        if used is None:
            raise _QuotaExceeded(self._quota_used(conn, scope, kind, day))
        return int(used)

    def _quota_used(self, conn: Connection, scope: Scope, kind: str, day: str) -> int:
        return int(
            conn.execute(
                select(quota_t.c.used).where(
                    quota_t.c.tenant == scope.tenant, quota_t.c.user_hash == scope.user_hash,
                    quota_t.c.kind == kind, quota_t.c.day == day,
                )
            ).scalar() or 0
        )

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
        durable: bool = True,
    ) -> None:
        """Append to a slot's history. ``durable=False`` skips the fsync (replay notes)."""
        if durable or self.dialect != "sqlite":
            with self.write() as conn:
                self._add_event(conn, scope, slot_key, task_id, time.time(), event, state, detail, data)
            return
        with self.writer.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            raw.execute("PRAGMA synchronous=NORMAL")  # outside any transaction, as SQLite needs
            try:
                with conn.begin():
                    self._add_event(
                        conn, scope, slot_key, task_id, time.time(), event, state, detail, data
                    )
            finally:
                raw.execute("PRAGMA synchronous=FULL")

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
    def get_slot(self, scope: Scope, slot_key: str) -> TaskRow | None:
        with self.read() as conn:
            task = self.find_slot(conn, scope, slot_key)
            if task is not None:
                task.media = self._media_for(conn, task.id)
            return task

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

    def get_media(self, media_id: int) -> MediaRow | None:
        with self.read() as conn:
            row = conn.execute(select(media_t).where(media_t.c.id == media_id)).mappings().first()
        return _media(row) if row else None

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
        with self.write() as conn:
            cond = [tasks.c.id == task.id]
            if expect is not None:
                cond.append(tasks.c.state.in_(list(expect)))
            if "results" in values and values["results"] is not None:
                values["results"] = _jsonable(values["results"])
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

    def tasks_in_states(self, scope: Scope | None, states: Sequence[str]) -> list[TaskRow]:
        cond = [tasks.c.state.in_(list(states))]
        if scope is not None:
            cond += [tasks.c.tenant == scope.tenant, tasks.c.provider == scope.provider, tasks.c.endpoint == scope.endpoint]
        with self.read() as conn:
            rows = conn.execute(select(tasks).where(*cond).order_by(tasks.c.id)).mappings().all()
        return [_task(r) for r in rows]

    def next_due_at(self, scope: Scope | None, states: Sequence[str]) -> float | None:
        cond = [tasks.c.state.in_(list(states))]
        if scope is not None:
            cond += [tasks.c.tenant == scope.tenant, tasks.c.provider == scope.provider, tasks.c.endpoint == scope.endpoint]
        with self.read() as conn:
            return conn.execute(select(func.min(func.coalesce(tasks.c.next_poll_at, 0.0))).where(*cond)).scalar()

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
