"""Typed SQLAlchemy models: tasks, slot events (the history), media, quota use, and the store's
own facts (its id).

Index columns never hold a raw user name or RequestId: users enter as SHA-256 digests and
slots as ``slot_key``; the readable ``request_id`` is in no B-tree index — only the text
filter's index holds it (migration 0010: FTS5 on SQLite, pg_trgm on PostgreSQL).
Whatever a provider says (task ids, status words, error codes) is kept whole in TEXT columns:
no provider-controlled value can make a write fail after the create.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    text,
)

#: Core tables, no ORM: the store runs Core statements only, and importing ``sqlalchemy.orm``
#: cost every start a tenth of a second (issue 34). The schema itself is the migrations'; a
#: column is ``nullable=False`` unless NULL means something.
metadata = MetaData()


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


tasks = Table(
    "tasks",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tenant", String(64), nullable=False),
    Column("user_hash", String(64), nullable=False),
    Column("slot_key", String(64), nullable=False),
    Column("idempotency_key", String(80), nullable=False),
    Column("provider", String(16), nullable=False),
    Column("endpoint", String(16), nullable=False),
    Column("request_id", String(120), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("params", JSON, nullable=False),
    Column("state", String(16), nullable=False),
    Column("provider_task_id", Text),
    Column("provider_status", Text),
    Column("results", JSON),
    Column("error_code", Text),
    Column("error_message", Text),
    #: Why, typed (a ``FailReason`` value, migration 0011); NULL where an earlier row's code
    #: could not be mapped (its code and message are shown as they are).
    Column("error_reason", Text),
    Column("owner_host", String(255)),
    Column("owner_pid", Integer),
    Column("owner_started", Float),
    #: The owner's boot and PID namespace: its pid means something only where both match.
    Column("owner_boot", Text),
    Column("owner_pidns", Text),
    #: In the store's clock (see ``Repository.store_now``), never a machine's own.
    Column("lease_until", Float),
    Column("units", Integer, default=1, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("next_poll_at", Float),
    Column("poll_failures", Integer, default=0, nullable=False),
    Column("project", String(120)),
    Column("prompt_text", Text),  # params["prompt"], for search
    Column("slot_copy", Integer, default=0, server_default="0", nullable=False),
    # The cost (migration 0006): the estimate stored at claim time (exact decimal text, NULL
    # when the price is unknown), its currency (NULL: not priced at claim — a slot from before
    # 0006), how it was computed, the provider's report priced with the same table, and the
    # local day of the claim (what the daily budget and spend by day count by).
    Column("cost_estimate", String(40)),
    Column("cost_currency", String(3)),
    Column("cost_basis", Text),
    Column("cost_reported", String(40)),
    Column("cost_day", String(10)),
    #: Hidden from the browser and the gallery at this time (``slate hide``); the record stays.
    Column("hidden_at", Float),
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
        # partial on both stores (migration 0006 makes it so); only SQLite's clause is named
        # here: a ``postgresql_where`` would import the PostgreSQL dialect into every start
        sqlite_where=text("cost_currency IS NULL"),
    ),
)


events = Table(
    "slot_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tenant", String(64), nullable=False),
    Column("slot_key", String(64), nullable=False),
    Column("provider", String(16), nullable=False),
    Column("endpoint", String(16), nullable=False),
    Column("task_id", Integer, ForeignKey("tasks.id", ondelete="CASCADE")),
    Column("at", Float, nullable=False),
    Column("event", String(32), nullable=False),
    Column("state", String(16)),
    Column("detail", Text),
    Column("data", JSON),
    Index("ix_events_slot", "tenant", "slot_key", "provider", "endpoint", "id"),
)


media_t = Table(
    "media",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "task_id", Integer, ForeignKey("tasks.id", ondelete="CASCADE"), index=True, nullable=False
    ),
    Column("position", Integer, nullable=False),
    Column("path", Text, nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("bytes", Integer, nullable=False),
    Column("content_type", String(64), nullable=False),
    Column("width", Integer),
    Column("height", Integer),
    Column("duration", Float),
    Column("verified_at", Float, nullable=False),
    #: The local file was deleted at this time (``slate prune-media``); the row keeps its SHA-256.
    Column("removed_at", Float),
)


#: Picks (migration 0008): one row per result a designer marked, per user — a result is a media
#: item of a slot (its task and position). Never part of the ledger: no slot, event or cost row
#: is written or read for a pick.
PICK_INDEX = "uq_picks_result"
PICK_COLUMNS = ("tenant", "user_hash", "task_id", "position")
BOARD_INDEX = "uq_boards_name"
BOARD_COLUMNS = ("tenant", "user_hash", "name")
BOARD_ITEM_INDEX = "uq_board_items_result"
BOARD_ITEM_COLUMNS = ("board_id", "task_id", "position")


#: A designer's favourite / reject flag and 0–5 rating on one result.
picks_t = Table(
    "picks",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tenant", String(64), nullable=False),
    Column("user_hash", String(64), nullable=False),
    Column("task_id", Integer, ForeignKey("tasks.id", ondelete="CASCADE"), nullable=False),
    Column("position", Integer, nullable=False),
    #: ``favourite``, ``reject`` or NULL (a rating alone).
    Column("pick", String(16)),
    Column("rating", Integer, default=0, server_default="0", nullable=False),
    Column("updated_at", Float, nullable=False),
    Index(PICK_INDEX, *PICK_COLUMNS, unique=True),
    Index("ix_picks_pick", "tenant", "user_hash", "pick", "task_id"),
    Index("ix_picks_rating", "tenant", "user_hash", "rating", "task_id"),
)


#: A designer's named collection of results, across projects.
boards_t = Table(
    "boards",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tenant", String(64), nullable=False),
    Column("user_hash", String(64), nullable=False),
    Column("name", String(80), nullable=False),
    Column("created_at", Float, nullable=False),
    Index(BOARD_INDEX, *BOARD_COLUMNS, unique=True),
)


#: One result on one board (a result can be on several boards).
board_items_t = Table(
    "board_items",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("board_id", Integer, ForeignKey("boards.id", ondelete="CASCADE"), nullable=False),
    Column("task_id", Integer, ForeignKey("tasks.id", ondelete="CASCADE"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("added_at", Float, nullable=False),
    Index(BOARD_ITEM_INDEX, *BOARD_ITEM_COLUMNS, unique=True),
    Index("ix_board_items_task", "task_id", "position"),
)


#: Prices a designer gave (migration 0009): one row per model and part, per user.
USER_PRICE_INDEX = "uq_user_prices_part"
USER_PRICE_COLUMNS = ("tenant", "user_hash", "model", "part")


#: A price this user gave a model (or one part of its price: ``part`` is a resolution,
#: ``RES/SECONDS`` for a clip, ``input``/``output`` for tokens, or empty for the whole).
user_prices_t = Table(
    "user_prices",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tenant", String(64), nullable=False),
    Column("user_hash", String(64), nullable=False),
    Column("model", String(80), nullable=False),
    Column("part", String(32), default="", server_default="", nullable=False),
    Column("amount", String(40), nullable=False),  # exact decimal text
    Column("currency", String(8), nullable=False),
    Column("set_at", Float, nullable=False),
    Index(USER_PRICE_INDEX, *USER_PRICE_COLUMNS, unique=True),
)


quota_t = Table(
    "quota_use",
    metadata,
    Column("tenant", String(64), primary_key=True),
    Column("user_hash", String(64), primary_key=True),
    Column("kind", String(8), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("used", Integer, default=0, nullable=False),
)


#: Facts about the store itself: ``store_id`` (random, made once) binds handles to it.
store_info_t = Table(
    "store_info",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)
