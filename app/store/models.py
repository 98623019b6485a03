"""Typed SQLAlchemy models: tasks, slot events (the history), media and quota use.

Index columns never hold a raw user name or RequestId: users enter as SHA-256 digests and
slots as ``slot_key``; the readable ``request_id`` is stored for display only, unindexed.
"""

from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


#: The idempotency boundary, as of the newest revision.
BOUNDARY_INDEX = "uq_tasks_boundary"
BOUNDARY_COLUMNS = ("tenant", "idempotency_key", "provider", "endpoint")
#: A user's slots of one day, for the daily budget in the claim and for spend.
COST_DAY_INDEX = "ix_tasks_cost_day"
UNPRICED_INDEX = "ix_tasks_unpriced"


class Task(Base):
    __tablename__ = "tasks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant: Mapped[str] = mapped_column(String(64))
    user_hash: Mapped[str] = mapped_column(String(64))
    slot_key: Mapped[str] = mapped_column(String(64))
    idempotency_key: Mapped[str] = mapped_column(String(80))
    provider: Mapped[str] = mapped_column(String(16))
    endpoint: Mapped[str] = mapped_column(String(16))
    request_id: Mapped[str] = mapped_column(String(120))
    kind: Mapped[str] = mapped_column(String(8))
    fingerprint: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(16))
    provider_task_id: Mapped[Optional[str]] = mapped_column(String(128))
    provider_status: Mapped[Optional[str]] = mapped_column(String(64))
    results: Mapped[Optional[dict[str, Any]]] = mapped_column(JSON)
    error_code: Mapped[Optional[str]] = mapped_column(String(32))
    error_message: Mapped[Optional[str]] = mapped_column(Text)
    owner_host: Mapped[Optional[str]] = mapped_column(String(255))
    owner_pid: Mapped[Optional[int]] = mapped_column(Integer)
    owner_started: Mapped[Optional[float]] = mapped_column(Float)
    lease_until: Mapped[Optional[float]] = mapped_column(Float)
    units: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    next_poll_at: Mapped[Optional[float]] = mapped_column(Float)
    poll_failures: Mapped[int] = mapped_column(Integer, default=0)
    project: Mapped[Optional[str]] = mapped_column(String(120))
    prompt_text: Mapped[Optional[str]] = mapped_column(Text)  # params["prompt"], for search
    # The cost (migration 0006): the estimate stored at claim time (exact decimal text, NULL
    # when the price is unknown), its currency (NULL: not priced at claim — a slot from before
    # 0006), how it was computed, the provider's report priced with the same table, and the
    # local day of the claim (what the daily budget and spend by day count by).
    cost_estimate: Mapped[Optional[str]] = mapped_column(String(40))
    cost_currency: Mapped[Optional[str]] = mapped_column(String(3))
    cost_basis: Mapped[Optional[str]] = mapped_column(Text)
    cost_reported: Mapped[Optional[str]] = mapped_column(String(40))
    cost_day: Mapped[Optional[str]] = mapped_column(String(10))

    __table_args__ = (
        Index(BOUNDARY_INDEX, *BOUNDARY_COLUMNS, unique=True),
        Index("ix_tasks_browse", "tenant", "user_hash", "provider", "endpoint", "project", "created_at"),
        Index("ix_tasks_slot", "tenant", "slot_key", "provider", "endpoint"),
        Index("ix_tasks_owner_list", "tenant", "user_hash", "provider", "endpoint", "id"),
        Index("ix_tasks_poll", "state", "next_poll_at"),
        Index(COST_DAY_INDEX, "tenant", "user_hash", "provider", "endpoint", "cost_day"),
        # slots claimed before costs were stored (empty once spend has priced them)
        Index(UNPRICED_INDEX, "tenant", "user_hash", "provider", "endpoint",
              sqlite_where=text("cost_currency IS NULL"),
              postgresql_where=text("cost_currency IS NULL")),
    )


class SlotEvent(Base):
    __tablename__ = "slot_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant: Mapped[str] = mapped_column(String(64))
    slot_key: Mapped[str] = mapped_column(String(64))
    provider: Mapped[str] = mapped_column(String(16))
    endpoint: Mapped[str] = mapped_column(String(16))
    task_id: Mapped[Optional[int]] = mapped_column(ForeignKey("tasks.id", ondelete="CASCADE"))
    at: Mapped[float] = mapped_column(Float)
    event: Mapped[str] = mapped_column(String(32))
    state: Mapped[Optional[str]] = mapped_column(String(16))
    detail: Mapped[Optional[str]] = mapped_column(Text)
    data: Mapped[Optional[dict[str, Any]]] = mapped_column(JSON)

    __table_args__ = (Index("ix_events_slot", "tenant", "slot_key", "provider", "endpoint", "id"),)


class Media(Base):
    __tablename__ = "media"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    task_id: Mapped[int] = mapped_column(ForeignKey("tasks.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    path: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    bytes: Mapped[int] = mapped_column(Integer)
    content_type: Mapped[str] = mapped_column(String(64))
    width: Mapped[Optional[int]] = mapped_column(Integer)
    height: Mapped[Optional[int]] = mapped_column(Integer)
    duration: Mapped[Optional[float]] = mapped_column(Float)
    verified_at: Mapped[float] = mapped_column(Float)


class QuotaUse(Base):
    __tablename__ = "quota_use"

    tenant: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    used: Mapped[int] = mapped_column(Integer, default=0)


#: The Core tables, for statements and queries.
tasks = Task.__table__
events = SlotEvent.__table__
media_t = Media.__table__
quota_t = QuotaUse.__table__
