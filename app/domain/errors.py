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


class BadConfiguration(SlateError):
    """A setting that names something Slate cannot use: a data dir that is a file, sits under a
    file, cannot be written or is on a full disk; a store that is not a database. ``setting``
    is the config field (``data_dir``, ``store``), ``path`` what it names, ``reason`` which of
    :data:`REASONS` — the CLI and the app each say it in their own words."""

    code = "bad_configuration"

    #: reason → (what is wrong, the way out): the sentence's two halves, in English.
    REASONS = {
        "is_file": ("is a file, not a folder", "give a folder instead"),
        "under_file": (
            "cannot be made (a part of its path is a file)",
            "give a path that is not under a file",
        ),
        "not_writable": ("cannot be written", "make it writable or give another folder"),
        "disk_full": (
            "is on a full disk",
            "free some space or give a folder on another disk; nothing stored was lost",
        ),
        "not_database": (
            "is not a Slate database",
            "give another file, or move this one aside to start a new store",
        ),
        "cannot_open": ("cannot be opened", "check that the file can be read and written"),
        "is_folder": ("is a folder, not a database file", "name a file, e.g. slate.sqlite3 in it"),
    }
    #: setting → (flag, environment variable).
    SETTINGS = {"data_dir": ("--data-dir", "SLATE_DATA_DIR"), "store": ("--store", "SLATE_STORE")}

    def __init__(self, setting: str, path: str, reason: str) -> None:
        self.setting, self.path, self.reason = setting, path, reason
        self.field = setting
        super().__init__(self.sentence())

    def sentence(self) -> str:
        """One sentence naming the setting, the path and the way out."""
        what, way_out = self.REASONS[self.reason]
        flag, env = self.SETTINGS[self.setting]
        noun = "data dir" if self.setting == "data_dir" else "store"
        return f"The {noun} {self.path} ({flag} or {env}) {what}: {way_out}."
