"""Domain errors: every refusal names the field it is about."""

from __future__ import annotations


class SlateError(Exception):
    """Base of all errors Slate reports to a user or a script."""

    code = "internal"


class ValidationError(SlateError):
    """Bad input, found before anything is stored or sent. ``field`` names the culprit."""

    code = "invalid"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class HandleError(SlateError):
    """A handle that is malformed, tampered with, or meant for another purpose."""

    code = "bad_handle"


class ForeignHandleError(HandleError):
    """A valid handle that belongs to another tenant or user: treated as not found."""

    code = "not_found"


class StoreBusy(SlateError):
    """The store's write lock stayed taken past its bound (a stopped or hung process holds it):
    nothing was written. The message names the holder where it is known."""

    code = "store_busy"
