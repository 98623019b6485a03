"""MiniMax-H3-Image's reference images, read and probed before the claim.

Each ``reference_image`` given is an ``https://`` URL (sent as it is), a ``data:`` URL or a local
file (read, probed, fingerprinted by SHA-256, sent as a data URL), or the RequestId of another
slot of this user: that slot's verified image (its first image result) is used, and the
normalized item names the slot (``request_id``) besides the content's facts. A slot that has no
verified image is refused naming the field; nothing is stored or sent.

A replay needs the fingerprint, not the reference's bytes: when the referenced slot's image is
no longer on this machine (``prune-media``), the slot being submitted (``replaying``) already
exists, is not one a create may claim again, and its own record names that slot's image by the
SHA-256 the referenced slot still records, the stored item is the reference (its facts, no
bytes): the same parameters then give the same fingerprint and the submit answers ``replayed``
(other parameters: ``conflict``), while nothing can ever be sent from it. Any other draft needs
the image itself and is refused as before.

The rules for what a reference may be live in :mod:`app.domain.params_h3image`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.domain.errors import ValidationError
from app.domain.params_h3image import check_reference
from app.domain.params_v2 import MediaFacts
from app.domain.slots import validate_request_id
from app.domain.states import State
from app.service import inputs
from app.service.context import ServiceContext

FIELD = "reference_image"


async def prepare(
    ctx: ServiceContext, raw: Mapping[str, Any], replaying: str | None = None
) -> tuple[dict[str, Any], dict[str, inputs.LocalInput]]:
    """The raw parameters with every local reference replaced by its facts (a slot's by its
    facts and RequestId), and the local content by SHA-256. ``replaying``: the RequestId of the
    slot these parameters are submitted to (its record may stand in for a pruned reference)."""
    value = raw.get(FIELD)
    if value in (None, "", []):
        return dict(raw), {}
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    out = dict(raw)
    local: dict[str, inputs.LocalInput] = {}
    new: list[Any] = []
    for v in values:
        if not isinstance(v, str) or not v or v.startswith(("https://", "http://")):
            new.append(v)
            continue
        if v.startswith("data:"):
            got = await asyncio.to_thread(inputs.from_data_url, v, "image", FIELD)
            check_reference(got.facts, FIELD)
            local.setdefault(got.facts.sha256, got)
            new.append(got.facts)
            continue
        if Path(v).expanduser().is_file():
            got = await asyncio.to_thread(inputs.from_file, v, "image", FIELD)
            check_reference(got.facts, FIELD)
            local.setdefault(got.facts.sha256, got)
            new.append(got.facts)
            continue
        got, rid = await _from_slot(ctx, v, replaying)
        local.setdefault(got.facts.sha256, got)
        new.append({"request_id": rid, **got.facts.item()})
    out[FIELD] = new
    return out, local


async def _from_slot(
    ctx: ServiceContext, value: str, replaying: str | None
) -> tuple[inputs.LocalInput, str]:
    try:
        rid = validate_request_id(value)
    except ValidationError:
        raise ValidationError(
            FIELD, f"{value!r} is neither an https:// URL, a data: URL, a file nor a RequestId"
        ) from None
    task = await ctx.load(rid)
    if task is None:
        raise ValidationError(FIELD, f"{rid}: no such file, and no slot with this RequestId")
    task = await ctx.with_media(task)
    images = [m for m in task.media if (m.content_type or "").startswith("image/")]
    if task.state != State.SUCCESS or not images:
        raise ValidationError(
            FIELD, f"slot {rid} has no verified image to use as a reference (it is {task.state})"
        )
    media = images[0]
    path = Path(media.path)
    if not path.is_absolute():
        path = ctx.config.data_dir / path
    if not path.is_file():
        kept = await _kept_reference(ctx, rid, media.sha256, replaying)
        if kept is not None:
            return kept, rid
        raise ValidationError(
            FIELD, f"slot {rid}'s image is no longer on this machine (recover --redownload)"
        )
    got = await asyncio.to_thread(inputs.from_file, str(path), "image", FIELD)
    if got.facts.sha256 != media.sha256:
        raise ValidationError(FIELD, f"slot {rid}'s image changed on disk since it was verified")
    got = replace(got, facts=replace(got.facts, name=f"slot {rid}'s image"))
    check_reference(got.facts, FIELD)
    return got, rid


async def _kept_reference(
    ctx: ServiceContext, rid: str, sha256: str, replaying: str | None
) -> inputs.LocalInput | None:
    """Slot ``rid``'s pruned image as the record of slot ``replaying`` keeps it (its facts, no
    bytes), when that record exists, may not be claimed again (a ``rejected`` one would be
    created anew, and that needs the image) and names ``rid``'s image by ``sha256``."""
    if replaying is None or replaying == rid:
        return None
    task = await ctx.load(replaying)
    if task is None or task.kind != "image" or task.state == State.REJECTED:
        return None
    for item in task.params.get(FIELD) or []:
        if (
            isinstance(item, Mapping)
            and item.get("request_id") == rid
            and item.get("sha256") == sha256
            and isinstance(item.get("bytes"), int)
            and isinstance(item.get("format"), str)
        ):
            facts = MediaFacts(
                "image",
                sha256,
                item["bytes"],
                item["format"],
                f"slot {rid}'s image (pruned; as slot {replaying} recorded it)",
                item.get("width"),
                item.get("height"),
            )
            check_reference(facts, FIELD)
            return inputs.LocalInput(facts)
    return None
