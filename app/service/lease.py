"""The owner's lease on a ``submitting`` record, held while its create is out.

A claim writes the record with a lease (the create's timeout plus a margin, in the store's
clock). While the owner works — waiting for the request-rate cap, sending, waiting out a rate
limit's backoff — :class:`Lease` renews it every :data:`RENEW_EVERY` seconds, so another
machine or container, which can judge the owner only by its lease, never sees a live owner's
lease run out. Before each send the owner checks that it still holds the record; a record it
no longer holds gets no create.
"""

from __future__ import annotations

import asyncio
import logging
import time
from types import TracebackType

from app.aiotools import cancel_and_wait
from app.service.context import ServiceContext
from app.store.rows import Owner, TaskRow

log = logging.getLogger(__name__)

#: Beyond the create's timeout, how long a lease lasts from its last renewal.
LEASE_MARGIN = 120.0
#: How often a live owner renews its lease (at most a quarter of the lease).
RENEW_EVERY = 30.0
#: A lease renewed this recently (at most an eighth of its length) needs no store round trip
#: to be known held before a send: it cannot have run out, and its owner is alive.
CONFIRM_AFTER = 5.0


def lease_seconds(ctx: ServiceContext) -> float:
    """How long a lease lasts from its last renewal: the create's timeout plus the margin."""
    return ctx.config.timeout + LEASE_MARGIN


class Lease:
    """``async with Lease(ctx, task, owner):`` renews the lease in the background;
    :meth:`confirm` checks it is still held before a send."""

    def __init__(self, ctx: ServiceContext, task: TaskRow, owner: Owner) -> None:
        self.ctx = ctx
        self.task = task
        self.owner = owner
        self.seconds = lease_seconds(ctx)
        self.every = min(RENEW_EVERY, self.seconds / 4)
        self.confirm_after = min(CONFIRM_AFTER, self.seconds / 8)
        self.held = True
        self._renewed = time.monotonic()  # the claim wrote a full lease just now
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> "Lease":
        self._task = asyncio.get_running_loop().create_task(self._keep())
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._task is not None:
            await cancel_and_wait(self._task)

    async def renew(self) -> bool:
        """Extend the lease now; False once the record is no longer this owner's."""
        if not self.held:
            return False
        until = await self.ctx.store.renew_lease(self.task.id, self.owner, self.seconds)
        if until is None:
            self.held = False
            log.warning(
                "task %s: this process no longer holds the submitting record (it was "
                "declared unknown or answered elsewhere)",
                self.task.id,
            )
            return False
        self._renewed = time.monotonic()
        return True

    async def confirm(self) -> bool:
        """Whether this owner still holds the record, right before a send: a lease renewed
        moments ago is known held (it cannot have run out); an older one is renewed first."""
        if not self.held:
            return False
        if time.monotonic() - self._renewed < self.confirm_after:
            return True
        return await self.renew()

    async def _keep(self) -> None:
        while self.held:
            await asyncio.sleep(self.every)
            try:
                await self.renew()
            except Exception:  # noqa: BLE001 - store trouble: try again at the next turn
                log.exception("task %s: renewing the lease failed; trying again", self.task.id)
