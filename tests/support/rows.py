"""A slot's row in the store's ``tasks`` table, for tests that write rows straight to a store
(``tests.gui.bulk``'s fill, the bench's big store, a store from before a migration).

``slot_row(scope, ...)`` gives the values of :data:`SLOT_COLUMNS`, the columns every slot row
fills since the first schema, as one tuple (a driver's ``executemany`` takes it as it is); a
writer puts its own columns after them. ``slot_dict`` is the same row as a dict, with the
writer's own columns in it.
"""

from __future__ import annotations

from typing import Any

from app.store.rows import Scope

#: The columns of :func:`slot_row`'s values, in their order.
SLOT_COLUMNS = (
    "tenant",
    "user_hash",
    "slot_key",
    "idempotency_key",
    "provider",
    "endpoint",
    "request_id",
    "kind",
    "fingerprint",
    "params",
    "state",
    "units",
    "created_at",
    "updated_at",
    "poll_failures",
)


def slot_row(
    scope: Scope,
    request_id: str,
    kind: str,
    *,
    slot_key: str,
    idempotency_key: str,
    fingerprint: str,
    params: Any,
    state: str,
    created_at: float,
    updated_at: float | None = None,
    units: int = 1,
) -> tuple[Any, ...]:
    """One slot of ``scope``, in :data:`SLOT_COLUMNS` order: no poll failed yet, and updated
    when it was created unless ``updated_at`` says otherwise. ``params`` as the writer binds
    them (a dict for a JSON column, or their JSON text for the driver)."""
    return (
        scope.tenant,
        scope.user_hash,
        slot_key,
        idempotency_key,
        scope.provider,
        scope.endpoint,
        request_id,
        kind,
        fingerprint,
        params,
        state,
        units,
        created_at,
        created_at if updated_at is None else updated_at,
        0,
    )


def slot_dict(
    scope: Scope, request_id: str, kind: str, *, more: dict[str, Any] | None = None, **row: Any
) -> dict[str, Any]:
    """:func:`slot_row` as ``{column: value}``, then the writer's own columns (``more``)."""
    return {**dict(zip(SLOT_COLUMNS, slot_row(scope, request_id, kind, **row))), **(more or {})}
