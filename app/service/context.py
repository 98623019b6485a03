"""The plumbing every service module shares: config, store, provider, scope, the signing secret,
the request-rate cap, task listeners, the task view, and the queue of history notes.

One :class:`ServiceContext` serves one tenant and user against one provider and endpoint.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, TypeVar

from app.config import Config
from app.domain import handles, params_voice
from app.domain.capabilities import Capabilities
from app.domain.cost import Cost, charge_of
from app.domain.errors import FailReason, ValidationError
from app.domain.prices import Money, PriceTable, PriceTableError, with_given_prices
from app.domain.protocols import V1, V2, VideoProtocol, protocol_of
from app.domain.slots import SlotRef, validate_request_id
from app.domain.states import Action, Refusal, State, recover_options, slot_offers
from app.domain.tidy import may_refetch, with_refetch
from app.providers.base import Provider, VideoApi
from app.service.prices import load_price_table
from app.service.ratelimit import RateLimiter
from app.service.results import (
    OutcomeKind,
    Problem,
    ProblemCode,
    Result,
    invalid,
    not_allowed,
    not_found,
)
from app.service.early import user_hash_of
from app.service.views import DECLARED_REASON, MediaView, ProviderInfo, TaskError, TaskView
from app.store.aio import Store
from app.store.rows import Scope, TaskRow
from app.store.spend import DECLARED_FAILED, amount, lazy_cost, provider_billed

log = logging.getLogger(__name__)
T = TypeVar("T")

NOTE_FLUSH_DELAY = 0.25


def _text_result(task: TaskRow) -> str | None:
    """A text result (an enhanced prompt), or None."""
    text = (task.results or {}).get("prompt") if task.kind == "prompt" else None
    return text if isinstance(text, str) else None


def voice_id_of(task: TaskRow) -> str | None:
    """A voice slot's own voice id (a pure function of its idempotency key), else None."""
    if task.kind != params_voice.VOICE:
        return None
    return params_voice.voice_id_for(task.idempotency_key)


def _failed_count(task: TaskRow) -> int | None:
    """Images the provider's safety filter blocked (image-01's ``failed_count``), if any."""
    if task.kind != "image" or not task.results:
        return None
    n = task.results.get("failed_count")
    return n if isinstance(n, int) and n > 0 else None


class NoteQueue:
    """Informational history notes (replays), written in batches off the answer path: shortly
    after, before a slot's history is read, and when the service closes."""

    def __init__(self, store: Store, scope: Scope, delay: float = NOTE_FLUSH_DELAY) -> None:
        self.store = store
        self.scope = scope
        self.delay = delay
        self._pending: list[dict[str, Any]] = []
        self._flush: asyncio.Task[None] | None = None

    def add(self, slot_key: str, task: TaskRow, event: str, detail: str) -> None:
        self._pending.append(
            {
                "slot_key": slot_key,
                "task_id": task.id,
                "at": time.time(),
                "event": event,
                "state": task.state,
                "detail": detail,
            }
        )
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._flush_later())

    async def _flush_later(self) -> None:
        await asyncio.sleep(self.delay)
        await self.flush()

    async def flush(self) -> None:
        notes, self._pending = self._pending, []
        if notes:
            await self.store.add_notes(self.scope, notes)

    async def aclose(self) -> None:
        if self._flush is not None and not self._flush.done():
            self._flush.cancel()
        await self.flush()


class ServiceContext:
    def __init__(
        self,
        config: Config,
        store: Store,
        provider: Provider,
        secret: bytes,
        *,
        poll_interval: float | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.provider = provider
        self.secret = secret
        self.tenant = config.tenant
        self.user = config.user
        self.scope = Scope(
            config.tenant,
            user_hash_of(config.tenant, config.user),
            provider.name,
            provider.endpoint,
        )
        default_poll = 1.0 if provider.name == "demo" else 10.0
        self.poll_interval: float = poll_interval or config.poll_interval or default_poll
        self.limiter = RateLimiter(config.max_requests_per_second)
        self.rng = rng or random.Random()
        self.listeners: list[Callable[[TaskView], None]] = []
        #: Called as a download goes: (request id, bytes received, bytes in all or None).
        self.download_listeners: list[Callable[[str, int, int | None], None]] = []
        self.notes = NoteQueue(store, self.scope)
        self._prices: PriceTable | None = None

    @property
    def provider_info(self) -> ProviderInfo:
        return ProviderInfo(
            self.provider.name,
            self.provider.endpoint,
            self.provider.caps,
            self.provider.api(V2).caps,
        )

    # -- protocols ----------------------------------------------------------------------------
    @staticmethod
    def protocol(task: TaskRow) -> VideoProtocol:
        """The protocol a slot speaks, from its kind and model (``domain.protocols``)."""
        return protocol_of(task.kind, task.params)

    def api(self, task: TaskRow) -> VideoApi:
        """The provider's video endpoints for this slot's protocol."""
        return self.provider.api(self.protocol(task))

    def caps(self, task: TaskRow) -> Capabilities:
        """What the provider can do for this slot (list, cancel, upload)."""
        protocol = self.protocol(task)
        return self.provider.api(protocol).caps if protocol != V1 else self.provider.caps

    # -- prices -----------------------------------------------------------------------------
    @property
    def prices(self) -> PriceTable:
        """The price table (shipped, with the user's override file and the prices this user
        gave in the store: ``slate prices set``), read once. Raises
        :class:`~app.domain.prices.PriceTableError` (a ValidationError naming the file, line
        and field) when the override cannot be read: never a silent fallback."""
        if self._prices is None:
            table = load_price_table(self.config.prices_file)
            given = self.store.given_prices_now(self.scope, table.currency)
            self._prices = with_given_prices(table, given) if given else table
        return self._prices

    def reload_prices(self) -> PriceTable:
        """Read the price table again (after the user edited the override)."""
        self._prices = None
        return self.prices

    def prices_or_none(self) -> PriceTable | None:
        """The price table, or None (logged) where pricing is a side matter: a view, a report
        being recorded. Submits, batches and spend ask :attr:`prices` and refuse instead."""
        try:
            return self.prices
        except PriceTableError as exc:
            log.error("the price table cannot be read: %s", exc)
            return None

    def task_cost(self, task: TaskRow) -> tuple[Cost | None, Money]:
        """The task's cost (stored at claim; or, for a slot claimed before Slate stored costs,
        priced now) and what it counts for in spend and the budget."""
        state = task.state.value
        if task.cost_currency is not None:
            cost: Cost | None = Cost(
                amount(task.cost_estimate),
                task.cost_currency,
                task.cost_basis or "",
                amount(task.cost_reported),
            )
        else:
            table = self.prices_or_none()
            cost = (
                None
                if table is None
                else lazy_cost(
                    task.kind,
                    task.params,
                    state,
                    task.provider_status,
                    task.results,
                    task.cost_reported,
                    table,
                )
            )
        if cost is None:
            return None, None
        charged = charge_of(
            state,
            cost.estimate,
            cost.reported,
            billed=provider_billed(state, task.provider_status),
            declared_failed=task.error_code == DECLARED_FAILED,
        )
        return cost, charged

    # -- slots and views --------------------------------------------------------------------
    def slot(self, request_id: str) -> SlotRef:
        return SlotRef.parse(self.tenant, self.user, request_id)

    def handle_for(self, task: TaskRow) -> str:
        return handles.sign(
            self.secret, "task", task.tenant, task.user_hash, task.id, self.store.store_id
        )

    def owns(self, task: TaskRow) -> bool:
        """Whether a task fetched by id is this caller's: tenant, user, provider, endpoint."""
        s = self.scope
        return (task.tenant, task.user_hash, task.provider, task.endpoint) == (
            s.tenant,
            s.user_hash,
            s.provider,
            s.endpoint,
        )

    def view(self, task: TaskRow) -> TaskView:
        data_dir = self.config.data_dir
        media: list[MediaView] = []
        removed: list[MediaView] = []  # verified, their local files deleted since
        for m in task.media:
            (media if m.removed_at is None else removed).append(
                MediaView(
                    path=str(m.path if Path(m.path).is_absolute() else data_dir / m.path),
                    sha256=m.sha256,
                    bytes=m.bytes,
                    content_type=m.content_type,
                    width=m.width,
                    height=m.height,
                    duration=m.duration,
                    handle=handles.sign(
                        self.secret, "file", task.tenant, task.user_hash, m.id, self.store.store_id
                    ),
                )
            )
        err = None
        if task.error_code or task.error_message:
            own = (task.results or {}).get(DECLARED_REASON)
            err = TaskError(
                task.error_code,
                task.error_message,
                FailReason.of(task.error_reason),
                own if isinstance(own, str) else None,
            )
        cost, charged = self.task_cost(task)
        caps = self.caps(task)  # what the provider can do for this slot's own protocol
        offers, recover = with_refetch(
            slot_offers(task, caps),
            recover_options(task, caps, provider=self.provider.name),
            may_refetch(task.state, task.results, len(removed)),
            media_gone=bool(removed) and not media,
        )
        return TaskView(
            id=task.id,
            request_id=task.request_id,
            handle=self.handle_for(task),
            kind=task.kind,
            state=task.state,
            provider=task.provider,
            provider_task_id=task.provider_task_id,
            provider_status=task.provider_status,
            fingerprint=task.fingerprint,
            params=task.params,
            media=media,
            error=err,
            allowed_actions=[a for a, o in offers.items() if o.offered],
            offers=offers,
            recover=recover,
            created_at=task.created_at,
            updated_at=task.updated_at,
            next_poll_at=task.next_poll_at,
            has_results=task.has_results,
            project=task.project,
            failed_count=_failed_count(task),
            cost=cost,
            charged=charged,
            text=_text_result(task),
            voice_id=voice_id_of(task),
            hidden=task.hidden_at is not None,
            removed_media=removed,
        )

    def notify(self, task: TaskRow | None) -> None:
        """Tell the listeners (the GUI) that a task changed."""
        if task is None:
            return
        view = self.view(task)
        for listener in list(self.listeners):
            try:
                listener(view)
            except Exception:  # noqa: BLE001 - a listener's bug must not break the lifecycle
                log.exception("task listener failed")

    def bytes_heard(self, task: TaskRow) -> Callable[[int, int | None], None] | None:
        """What a download of ``task`` tells as it goes (None: nobody listens)."""
        if not self.download_listeners:
            return None

        def heard(received: int, total: int | None) -> None:
            for listener in list(self.download_listeners):
                try:
                    listener(task.request_id, received, total)
                except Exception:  # noqa: BLE001 - a listener's bug must not break a download
                    log.exception("download listener failed")

        return heard

    async def call(self, coro_fn: Callable[[], Awaitable[T]]) -> T:
        """One provider request, under the request-rate cap."""
        await self.limiter.acquire()
        return await coro_fn()

    # -- loading a slot -----------------------------------------------------------------------
    async def load(self, request_id: str) -> TaskRow | None:
        return await self.store.slot(self.scope, self.slot(request_id).slot_key)

    async def with_media(self, task: TaskRow) -> TaskRow:
        if task.media or task.state != State.SUCCESS:
            return task
        return (await self.store.task(task.id)) or task

    async def load_or_answer(self, request_id: object) -> TaskRow | Result[Any]:
        """The slot's task, or the answer for a bad RequestId (invalid) or no slot (not_found)."""
        try:
            rid = validate_request_id(request_id)
        except ValidationError as exc:
            return invalid(request_id, exc)
        task = await self.load(rid)
        return not_found(rid) if task is None else task

    async def actionable(self, request_id: object, action: Action) -> TaskRow | Result[Any]:
        """The slot's task if it offers ``action`` (``domain.states.slot_offers``: the table and
        the task's facts); else ``invalid`` with the typed refusal and its sentence."""
        task = await self.load_or_answer(request_id)
        if isinstance(task, Result):
            return task
        offer = slot_offers(task, self.caps(task))[action]
        if offer.refusal is not None:
            said = (
                f"{action} is not offered while the slot is {task.state}"
                if offer.refusal is Refusal.STATE
                else f"{action} is not offered"
            )
            return not_allowed(self.view(task), f"{said}: {offer.why_not}", offer)
        return task

    def by_state(self, task: TaskRow, kind: OutcomeKind = OutcomeKind.OK) -> Result[Any]:
        """Answer by the slot's state: unknown and rejected say so; anything else is ``kind``."""
        view = self.view(task)
        if task.state == State.UNKNOWN:
            return Result(
                OutcomeKind.UNKNOWN,
                task.request_id,
                view,
                Problem(
                    ProblemCode.UNKNOWN,
                    task.error_message or "outcome unknown",
                    reason=FailReason.of(task.error_reason),
                ),
            )
        if task.state == State.REJECTED:
            return Result(
                OutcomeKind.REJECTED,
                task.request_id,
                view,
                Problem(
                    ProblemCode.REJECTED,
                    task.error_message or "rejected",
                    reason=FailReason.of(task.error_reason),
                ),
            )
        return Result(kind, task.request_id, view)
