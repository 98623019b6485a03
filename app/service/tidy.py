"""Tidy-up that never touches the ledger: hide a slot from the browser, delete local media.

Nothing here deletes a slot record: a RequestId once used stays used (deleting it would let the
next create pay again). ``hide``/``unhide`` flag every task of the slot (the browser and the
gallery leave it out; ``status``, ``history``, ``list``, ``spend`` and a submit of the same
intent — ``replayed`` — see it as before). ``prune_media`` deletes the local files of a slot's
verified media (or of every slot of this user whose media were verified more than N days ago):
each media row keeps its path, SHA-256 and size and is marked removed, with a history event;
the slot's state, fingerprint, events and cost are untouched.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from app.service.context import ServiceContext
from app.service.results import (
    ExportedFile,
    OutcomeKind,
    Problem,
    ProblemCode,
    Pruned,
    PrunedSlot,
    Result,
)
from app.store.rows import MediaRow, TaskRow

#: ``--older-than`` at most this many days (about 100 years): a bound, not a policy.
MAX_DAYS = 36_500.0


class Tidy:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def _slot(self, request_id: object) -> TaskRow | Result[Any]:
        return await self.ctx.load_or_answer(request_id)

    async def set_hidden(self, request_id: object, hidden: bool) -> Result[Any]:
        """Hide (``hidden``) or show again a slot in the browser and the gallery: ``ok`` with the
        slot (also when it already was so); the record stays as it is."""
        got = await self._slot(request_id)
        if isinstance(got, Result):
            return got
        ctx = self.ctx
        await ctx.store.set_hidden(ctx.scope, got.slot_key, hidden, got.id)
        task = await ctx.store.task(got.id) or got
        ctx.notify(task)
        return Result(OutcomeKind.OK, task.request_id, ctx.view(task))

    async def prune_media(
        self, request_id: object | None = None, older_than_days: object | None = None
    ) -> Result[Pruned]:
        """Delete local media files: one slot's (``request_id``), or every slot's of this user
        whose media were verified more than ``older_than_days`` days ago. Exactly one of the
        two. Files outside the data folder are never touched."""
        ctx = self.ctx
        if (request_id is None) == (older_than_days is None):
            return Result(
                OutcomeKind.INVALID,
                None,
                problem=Problem(
                    ProblemCode.INVALID,
                    "request_id: give a RequestId or --older-than DAYS, not both",
                    field="request_id",
                ),
            )
        if request_id is not None:
            got = await self._slot(request_id)
            if isinstance(got, Result):
                return got
            done = await self._prune(got, "deleted by prune-media")
            task = await ctx.store.task(got.id) or got
            ctx.notify(task)
            return Result(
                OutcomeKind.OK, task.request_id, ctx.view(task), payload=Pruned(tuple(done))
            )
        days = _days(older_than_days)
        if isinstance(days, Problem):
            return Result(OutcomeKind.INVALID, None, problem=days)
        before = time.time() - days * 86_400
        slots = []
        for task in await ctx.store.with_local_media(ctx.scope, before):
            done = await self._prune(
                task, f"deleted by prune-media --older-than {days:g}", verified_before=before
            )
            if done:
                slots.append(done[0])
            ctx.notify(await ctx.store.task(task.id))
        return Result(OutcomeKind.OK, None, payload=Pruned(tuple(slots), older_than_days=days))

    async def _prune(
        self, task: TaskRow, detail: str, verified_before: float | None = None
    ) -> list[PrunedSlot]:
        ctx = self.ctx
        task = await ctx.store.task(task.id) or task  # with its media
        root = ctx.config.data_dir.resolve()
        gone: list[MediaRow] = []
        files: list[ExportedFile] = []
        for m in task.media:
            if m.removed_at is not None:
                continue
            if verified_before is not None and m.verified_at >= verified_before:
                continue
            path = Path(m.path) if Path(m.path).is_absolute() else ctx.config.data_dir / m.path
            try:
                inside = path.resolve().is_relative_to(root)
            except OSError:
                inside = False
            if not inside:
                continue  # a record pointing outside the data folder: never delete that file
            path.unlink(missing_ok=True)
            gone.append(m)
            files.append(ExportedFile(str(path), m.sha256, m.bytes))
        if not gone:
            return []
        await ctx.store.mark_media_removed(ctx.scope, task, gone, detail)
        return [PrunedSlot(task.request_id, tuple(files))]


def _days(value: object) -> float | Problem:
    try:
        days = float(str(value).strip())
    except ValueError:
        days = math.nan
    if not math.isfinite(days) or not 0 <= days <= MAX_DAYS:
        return Problem(
            ProblemCode.INVALID,
            f"older_than: a number of days from 0 to {MAX_DAYS:g}, e.g. 30",
            field="older_than",
        )
    return days
