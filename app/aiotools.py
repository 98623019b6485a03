"""Small asyncio helpers the service and the CLI share."""

from __future__ import annotations

import asyncio
from typing import Any


async def cancel_and_wait(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` and wait until it has ended, its own cancellation swallowed.

    The usual ``try: await task / except CancelledError: pass`` also swallows the *caller's*
    cancellation when it comes while waiting (the app closing mid-submit): the caller would then
    run on as if never cancelled. Here only the task's ends are absorbed; a cancellation of the
    caller propagates. An error the task raised is raised here."""
    task.cancel()
    outcomes = await asyncio.gather(task, return_exceptions=True)
    outcome = outcomes[0]
    if isinstance(outcome, Exception):
        raise outcome
