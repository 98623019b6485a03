"""What the window shows before the service is built (issue 34: paint first, load after).

The app makes its window first, from an :class:`Early` start: the configuration, the provider it
will build (``Config.provider_identity``, the composition root's choice) and whose slots to show
(the store's scope, as :class:`~app.service.context.ServiceContext` makes it). The browser's first
page comes straight from the store's file (:func:`app.store.first_page.read`, the store's own
statement) while the store, SQLAlchemy and the provider load behind the window.

Nothing here imports the store: the window's modules import this one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from dataclasses import dataclass, field
from typing import Any

from app.domain.listing import Group
from app.domain.slots import SlotRef
from app.service.views import ProviderInfo


def user_hash_of(tenant: str, user: str) -> str:
    """The user's hash in the store's scope (every slot of one tenant and user carries it)."""
    return SlotRef.parse(tenant, user, "placeholder-id").user_hash


@dataclass(frozen=True)
class Early:
    """The start of a window whose service is still being built."""

    config: Any
    provider: str
    endpoint: str
    user_hash: str
    #: First pages being read ahead (:meth:`prefetch`), by their size; each is used once.
    _ahead: dict[int, concurrent.futures.Future[list[Group] | None]] = field(
        default_factory=dict, compare=False, repr=False
    )

    @classmethod
    def of(cls, config: Any, *, has_key: bool) -> Early:
        provider, endpoint = config.provider_identity(has_key)
        return cls(config, provider, endpoint, user_hash_of(config.tenant, config.user))

    @property
    def owner(self) -> tuple[str, str, str, str]:
        """Whose slots: tenant, user hash, provider, endpoint (the store's scope)."""
        return (self.config.tenant, self.user_hash, self.provider, self.endpoint)

    @property
    def info(self) -> ProviderInfo:
        """The provider as the window shows it; its capabilities come with the service."""
        return ProviderInfo(self.provider, self.endpoint)

    def first_page(self, limit: int) -> list[Group] | None:
        """The browser's first page of projects from the store's file; None when the file
        cannot tell (not SQLite, not there yet, another schema): it comes with the service.
        Blocks on the file: run it in a worker thread."""
        from app.store import first_page

        return first_page.read(self.config.store, self.owner, limit)

    def prefetch(self, limit: int) -> None:
        """Start reading the first page now, in a thread of its own: SQLite reads without the
        interpreter's lock, so the page is read while the window's modules are imported."""
        ahead: concurrent.futures.Future[list[Group] | None] = concurrent.futures.Future()

        def read() -> None:
            try:
                ahead.set_result(self.first_page(limit))
            except BaseException as exc:  # noqa: BLE001 - handed to whoever awaits the page
                ahead.set_exception(exc)

        self._ahead[limit] = ahead
        threading.Thread(target=read, name="first-page", daemon=True).start()

    def first_page_ready(self, limit: int) -> list[Group] | None:
        """The page read ahead, if it is already read (then it is used, once); None when it is
        still being read, was not asked for, or the file could not tell."""
        ahead = self._ahead.get(limit)
        if ahead is None or not ahead.done() or ahead.exception() is not None:
            return None
        page = ahead.result()
        if page is not None:
            del self._ahead[limit]
        return page

    async def read_first_page(self, limit: int) -> list[Group] | None:
        """The first page: the one read ahead when there is one (once), else read now in a
        worker thread."""
        ahead = self._ahead.pop(limit, None)
        if ahead is not None:
            return await asyncio.wrap_future(ahead)
        return await asyncio.to_thread(self.first_page, limit)

    def shows(self, owner: Any) -> bool:
        """Whether the built service (``owner``: the ``bootstrap.Slate``) is the one this start
        showed: the same store, tenant, user and provider."""
        info = owner.service.provider_info
        return (self.config.store, self.config.tenant, self.config.user) == (
            owner.config.store,
            owner.config.tenant,
            owner.config.user,
        ) and (self.provider, self.endpoint) == (info.name, info.endpoint)


__all__ = ["Early", "user_hash_of"]
