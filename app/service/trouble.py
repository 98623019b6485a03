"""An error of the app's own work, typed once where it is caught.

The window's task runner catches what a coroutine raised; :func:`trouble_of` turns the exception
into a :class:`Trouble` there, once: the technical line for Details and the log, and why as a
type — the domain's :class:`~app.domain.errors.FailReason` for the network (a connection that
never opened: nothing was sent) and a provider's refusal, or a code (a ``SlateError``'s own, or
the store's lock or full disk read from the database driver's error code). The words
(``app.present.words.for_error``) are chosen by these, never by the exception's text.
"""

from __future__ import annotations

import errno
import sqlite3
import sys
from dataclasses import dataclass

from app.domain.errors import BadConfiguration, FailReason, Rule, SlateError, ValidationError
from app.providers.base import ProviderError
from app.providers.codes import reason_of

#: The store's lock was held (SQLite's BUSY and LOCKED; PostgreSQL's lock_not_available).
STORE_BUSY = "store_busy"
#: The disk under the store or the data dir is full (SQLite's FULL; PostgreSQL's disk_full,
#: ENOSPC, a data dir found on a full disk).
STORE_FULL = "store_full"

_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_FULL = 5, 6, 13
_PG_LOCK_NOT_AVAILABLE, _PG_DISK_FULL = "55P03", "53100"


@dataclass(frozen=True)
class Trouble:
    """What the runner caught: ``message`` (``"what: Type: words"``, behind Details), and why as
    a type: ``reason`` (a :class:`FailReason`) or ``code`` (a ``SlateError``'s code, or
    :data:`STORE_BUSY` / :data:`STORE_FULL`); neither when nothing more is known. A refused
    value (``invalid``) keeps its ``field``, ``rule`` and ``values`` for its own words."""

    message: str
    reason: FailReason | None = None
    code: str | None = None
    field: str | None = None
    rule: Rule | None = None
    values: dict[str, object] | None = None

    def __str__(self) -> str:
        return self.message


def _store_code(exc: BaseException) -> str | None:
    """The store's lock or full disk, from the driver's own error code (never its text)."""
    import sqlalchemy.exc  # here: the window's runner imports this module before the store

    if isinstance(exc, sqlalchemy.exc.DBAPIError) and exc.orig is not None:
        exc = exc.orig
    primary = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, sqlite3.Error) and isinstance(primary, int):
        primary &= 0xFF  # an extended code's primary part
        if primary in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return STORE_BUSY
        if primary == _SQLITE_FULL:
            return STORE_FULL
    state = getattr(exc, "sqlstate", None) or getattr(exc, "pgcode", None)
    if state == _PG_LOCK_NOT_AVAILABLE:
        return STORE_BUSY
    if state == _PG_DISK_FULL:
        return STORE_FULL
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return STORE_FULL
    return None


def trouble_of(exc: BaseException, what: str = "") -> Trouble:
    """``exc``, raised by the work named ``what``, typed once."""
    message = f"{what + ': ' if what else ''}{type(exc).__name__}: {exc}"
    httpx = sys.modules.get("httpx")  # its exceptions exist only once it is imported
    if httpx is not None and isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout)):
        return Trouble(message, reason=FailReason.NEVER_SENT)
    if isinstance(exc, ProviderError):
        return Trouble(message, reason=reason_of(exc))
    if isinstance(exc, BadConfiguration) and exc.reason == "disk_full":
        return Trouble(message, code=STORE_FULL)
    if isinstance(exc, ValidationError):
        return Trouble(message, code=exc.code, field=exc.field, rule=exc.rule, values=exc.values)
    if isinstance(exc, SlateError):
        return Trouble(message, code=exc.code)
    return Trouble(message, code=_store_code(exc))
