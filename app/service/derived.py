"""Derived slots (DESIGN.md "Derived slots: enhance and regenerate"): each a slot with its own
RequestId, fingerprint, cost and history, submitted with the ordinary submit semantics.

``regenerate(source, to, request_id)``: the source slot is read (never changed); what it must
be is :func:`app.domain.derived.why_not_regenerate`; the new slot's parameters come from
:func:`app.domain.derived.regeneration_params` and go through :class:`Submitter` (claim, replay,
conflict, the create once, ``unknown`` on a lost answer and recover by lookup, which matches
``task_type: regeneration``). When the new slot is created, the source's history records it
(``derived`` event naming the new RequestId) — once, however often the command is replayed.

``enhance(source, request_id)``: the source's prompt through MiniMax-H3's Context-IR as a slot
of kind ``prompt`` (:mod:`app.domain.enhance`); the command waits for the enhanced prompt (the
answer inline, or its task queried) within the create's timeout, else leaves it to
``query``/``wait``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from app.domain import derived, enhance
from app.domain.errors import ValidationError
from app.domain.slots import validate_request_id
from app.service.context import ServiceContext
from app.service.results import OutcomeKind, Result, invalid, not_found
from app.service.submit import Submitter


class Derivations:
    def __init__(self, ctx: ServiceContext, submitter: Submitter) -> None:
        self.ctx = ctx
        self.submitter = submitter

    async def regenerate(
        self,
        source_request_id: Any,
        to: Any,
        request_id: Any,
        *,
        wait: bool = False,
        max_seconds: float | None = None,
    ) -> Result[Any]:
        ctx = self.ctx
        try:
            source_rid = validate_request_id(source_request_id)
            new_rid = validate_request_id(request_id)
        except ValidationError as exc:
            return invalid(request_id, exc)
        if new_rid == source_rid:
            return invalid(
                new_rid,
                ValidationError(
                    "request_id",
                    "a regeneration needs its own RequestId, e.g. "
                    + derived.suggest(source_rid, derived.SUFFIX_2K),
                ),
            )
        source = await ctx.load(source_rid)
        if source is None:
            return not_found(source_rid)
        existing = await ctx.load(new_rid)
        if existing is None:
            why = derived.why_not_regenerate(
                source.kind,
                source.params,
                source.state.value,
                source.provider_task_id,
                source.created_at,
                ctx.store.clock(),
                str(to),
            )
            if why is not None:
                return invalid(new_rid, why)
        elif str(to) not in derived.TARGETS:
            return invalid(new_rid, ValidationError("to", "a regeneration makes 2K"))
        if not source.provider_task_id:
            return invalid(new_rid, ValidationError("source", "the source has no provider task"))
        params = derived.regeneration_params(
            source_rid, source.params, source.provider_task_id, str(to)
        )
        out = await self.submitter.submit(
            new_rid, "video", params, wait=wait, max_seconds=max_seconds
        )
        if existing is None and out.kind in (OutcomeKind.CREATED, OutcomeKind.UNKNOWN):
            await self._record_on_source(source, new_rid, "regenerate", "regenerated at 2K")
        return out

    async def enhance(
        self,
        source_request_id: Any,
        request_id: Any,
        *,
        draft: tuple[str, Mapping[str, Any]] | None = None,
    ) -> Result[Any]:
        """``draft``: the (kind, parameters) of a draft named ``source_request_id`` that is not
        stored yet (the app's "Enhance prompt" before Create); a stored slot of that name wins."""
        ctx = self.ctx
        try:
            source_rid = validate_request_id(source_request_id)
            new_rid = validate_request_id(request_id)
        except ValidationError as exc:
            return invalid(request_id, exc)
        if new_rid == source_rid:
            suggestion = derived.suggest(source_rid, derived.SUFFIX_ENHANCED)
            return invalid(
                new_rid,
                ValidationError(
                    "request_id", f"an enhanced prompt needs its own RequestId, e.g. {suggestion}"
                ),
            )
        source = await ctx.load(source_rid)
        if source is None and draft is None:
            return not_found(source_rid)
        if source is not None:
            kind, params = source.kind, dict(source.params)
        else:
            assert draft is not None
            kind, params = draft[0], dict(draft[1])
        why = enhance.why_not_enhance(kind, params)
        if why is not None:
            return invalid(new_rid, why)
        existing = await ctx.load(new_rid)
        out = await self.submitter.submit(
            new_rid,
            enhance.KIND,
            enhance.enhance_params(source_rid, params),
            wait=True,
            max_seconds=max(ctx.config.timeout, 1.0),
        )
        if (
            source is not None
            and existing is None
            and out.kind in (OutcomeKind.CREATED, OutcomeKind.UNKNOWN)
        ):
            await self._record_on_source(source, new_rid, "enhance", "prompt enhanced")
        return out

    async def _record_on_source(self, source: Any, new_rid: str, action: str, said: str) -> None:
        await self.ctx.store.add_event(
            self.ctx.scope,
            source.slot_key,
            source.id,
            "derived",
            state=source.state,
            detail=f"{said} as {new_rid}",
            data={"action": action, "request_id": new_rid, "at": time.time()},
        )
