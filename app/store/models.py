"""Typed SQLAlchemy models: tasks, slot events (the history), media, quota use, and the store's
own facts (its id).

Index columns never hold a raw user name or RequestId: users enter as SHA-256 digests and
slots as ``slot_key``; the readable ``request_id`` is in no B-tree index — only the text
filter's index holds it (migration 0010: FTS5 on SQLite, pg_trgm on PostgreSQL).
Whatever a provider says (task ids, status words, error codes) is kept whole in TEXT columns:
no provider-controlled value can make a write fail after the create.
"""

from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


#: The slot boundary (DESIGN.md, "task"): one task per slot — tenant, user and RequestId (in
#: ``slot_key``), provider, endpoint — whatever its kind, enforced by the database. Every row
#: written since revision 0004 has ``slot_copy`` 0; a store that already held several tasks
#: for one slot keeps them all, numbered 1, 2, … after the first (see migration 0004). The
#: claim's ``ON CONFLICT`` names exactly these columns.
SLOT_INDEX = "uq_tasks_slot"
SLOT_COLUMNS = ("tenant", "slot_key", "provider", "endpoint", "slot_copy")
#: The kind-prefixed idempotency key stays unique too.
KEY_INDEX = "uq_tasks_boundary"
KEY_COLUMNS = ("tenant", "idempotency_key", "provider", "endpoint")
#: The boundary a claim relies on, as of the newest revision.
BOUNDARY_INDEX = SLOT_INDEX
BOUNDARY_COLUMNS = SLOT_COLUMNS
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
    provider_task_id: Mapped[Optional[str]] = mapped_column(Text)
    provider_status: Mapped[Optional[str]] = mapped_column(Text)
    results: Mapped[Optional[dict[str, Any]]] = mapped_column(JSON)
    error_code: Mapped[Optional[str]] = mapped_column(Text)
    error_message: Mapped[Optional[str]] = mapped_column(Text)
    #: Why, typed (a ``FailReason`` value, migration 0011); NULL where an earlier row's code
    #: could not be mapped (its code and message are shown as they are).
    error_reason: Mapped[Optional[str]] = mapped_column(Text)
    owner_host: Mapped[Optional[str]] = mapped_column(String(255))
    owner_pid: Mapped[Optional[int]] = mapped_column(Integer)
    owner_started: Mapped[Optional[float]] = mapped_column(Float)
    #: The owner's boot and PID namespace: its pid means something only where both match.
    owner_boot: Mapped[Optional[str]] = mapped_column(Text)
    owner_pidns: Mapped[Optional[str]] = mapped_column(Text)
    #: In the store's clock (see ``Repository.store_now``), never a machine's own.
    lease_until: Mapped[Optional[float]] = mapped_column(Float)
    units: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    next_poll_at: Mapped[Optional[float]] = mapped_column(Float)
    poll_failures: Mapped[int] = mapped_column(Integer, default=0)
    project: Mapped[Optional[str]] = mapped_column(String(120))
    prompt_text: Mapped[Optional[str]] = mapped_column(Text)  # params["prompt"], for search
    slot_copy: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The cost (migration 0006): the estimate stored at claim time (exact decimal text, NULL
    # when the price is unknown), its currency (NULL: not priced at claim — a slot from before
    # 0006), how it was computed, the provider's report priced with the same table, and the
    # local day of the claim (what the daily budget and spend by day count by).
    cost_estimate: Mapped[Optional[str]] = mapped_column(String(40))
    cost_currency: Mapped[Optional[str]] = mapped_column(String(3))
    cost_basis: Mapped[Optional[str]] = mapped_column(Text)
    cost_reported: Mapped[Optional[str]] = mapped_column(String(40))
    cost_day: Mapped[Optional[str]] = mapped_column(String(10))
    #: Hidden from the browser and the gallery at this time (``slate hide``); the record stays.
    hidden_at: Mapped[Optional[float]] = mapped_column(Float)

    __table_args__ = (
        Index(SLOT_INDEX, *SLOT_COLUMNS, unique=True),
        Index(KEY_INDEX, *KEY_COLUMNS, unique=True),
        Index(
            "ix_tasks_browse",
            "tenant",
            "user_hash",
            "provider",
            "endpoint",
            "project",
            "created_at",
            "hidden_at",  # the projects' and days' groups read the index alone (0012)
        ),
        Index("ix_tasks_owner_list", "tenant", "user_hash", "provider", "endpoint", "id"),
        # an owner's slots in one state, newest first (0012)
        Index("ix_tasks_owner_state", "tenant", "user_hash", "provider", "endpoint", "state", "id"),
        # the slots of a state across the tenant's users: the poller, resume, the status (0012)
        Index("ix_tasks_active", "tenant", "provider", "endpoint", "state"),
        Index("ix_tasks_poll", "state", "next_poll_at"),
        Index(COST_DAY_INDEX, "tenant", "user_hash", "provider", "endpoint", "cost_day"),
        # slots claimed before costs were stored (empty once spend has priced them)
        Index(
            UNPRICED_INDEX,
            "tenant",
            "user_hash",
            "provider",
            "endpoint",
            sqlite_where=text("cost_currency IS NULL"),
            postgresql_where=text("cost_currency IS NULL"),
        ),
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
    #: The local file was deleted at this time (``slate prune-media``); the row keeps its SHA-256.
    removed_at: Mapped[Optional[float]] = mapped_column(Float)


#: Picks (migration 0008): one row per result a designer marked, per user — a result is a media
#: item of a slot (its task and position). Never part of the ledger: no slot, event or cost row
#: is written or read for a pick.
PICK_INDEX = "uq_picks_result"
PICK_COLUMNS = ("tenant", "user_hash", "task_id", "position")
BOARD_INDEX = "uq_boards_name"
BOARD_COLUMNS = ("tenant", "user_hash", "name")
BOARD_ITEM_INDEX = "uq_board_items_result"
BOARD_ITEM_COLUMNS = ("board_id", "task_id", "position")


class Pick(Base):
    """A designer's favourite / reject flag and 0–5 rating on one result."""

    __tablename__ = "picks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant: Mapped[str] = mapped_column(String(64))
    user_hash: Mapped[str] = mapped_column(String(64))
    task_id: Mapped[int] = mapped_column(ForeignKey("tasks.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    #: ``favourite``, ``reject`` or NULL (a rating alone).
    pick: Mapped[Optional[str]] = mapped_column(String(16))
    rating: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        Index(PICK_INDEX, *PICK_COLUMNS, unique=True),
        Index("ix_picks_pick", "tenant", "user_hash", "pick", "task_id"),
        Index("ix_picks_rating", "tenant", "user_hash", "rating", "task_id"),
    )


class Board(Base):
    """A designer's named collection of results, across projects."""

    __tablename__ = "boards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant: Mapped[str] = mapped_column(String(64))
    user_hash: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index(BOARD_INDEX, *BOARD_COLUMNS, unique=True),)


class BoardItem(Base):
    """One result on one board (a result can be on several boards)."""

    __tablename__ = "board_items"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"))
    task_id: Mapped[int] = mapped_column(ForeignKey("tasks.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    added_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        Index(BOARD_ITEM_INDEX, *BOARD_ITEM_COLUMNS, unique=True),
        Index("ix_board_items_task", "task_id", "position"),
    )


#: Prices a designer gave (migration 0009): one row per model and part, per user.
USER_PRICE_INDEX = "uq_user_prices_part"
USER_PRICE_COLUMNS = ("tenant", "user_hash", "model", "part")


class UserPrice(Base):
    """A price this user gave a model (or one part of its price: ``part`` is a resolution,
    ``RES/SECONDS`` for a clip, ``input``/``output`` for tokens, or empty for the whole)."""

    __tablename__ = "user_prices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant: Mapped[str] = mapped_column(String(64))
    user_hash: Mapped[str] = mapped_column(String(64))
    model: Mapped[str] = mapped_column(String(80))
    part: Mapped[str] = mapped_column(String(32), default="", server_default="")
    amount: Mapped[str] = mapped_column(String(40))  # exact decimal text
    currency: Mapped[str] = mapped_column(String(8))
    set_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index(USER_PRICE_INDEX, *USER_PRICE_COLUMNS, unique=True),)


class QuotaUse(Base):
    __tablename__ = "quota_use"

    tenant: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    used: Mapped[int] = mapped_column(Integer, default=0)


class StoreInfo(Base):
    """Facts about the store itself: ``store_id`` (random, made once) binds handles to it."""

    __tablename__ = "store_info"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


#: The Core tables, for statements and queries.
tasks = Task.__table__
events = SlotEvent.__table__
media_t = Media.__table__
quota_t = QuotaUse.__table__
store_info_t = StoreInfo.__table__
picks_t = Pick.__table__
boards_t = Board.__table__
board_items_t = BoardItem.__table__
user_prices_t = UserPrice.__table__
