"""Commands with more than one shape, as small frozen dataclasses (light to import: the command
line builds them before anything else is loaded)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class AttachTask:
    """Attach the provider task id found in the provider's console."""

    task_id: str


@dataclass(frozen=True)
class Lookup:
    """Find the task at the provider by the slot's parameters (where the provider lists tasks)."""


@dataclass(frozen=True)
class Redownload:
    """Fetch a fresh link for the results of a failed download and verify again."""


@dataclass(frozen=True)
class DeclareFailed:
    """Treat the unknown task as failed, for a stated reason (a charge may exist)."""

    reason: str


RecoverHow = Union[AttachTask, Lookup, Redownload, DeclareFailed]
