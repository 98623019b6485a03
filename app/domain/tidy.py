"""The tidy-up rules (``slate hide``, ``slate prune-media``), once, for the service and the app.

A slot whose local media files were deleted keeps its record; where the provider still has the
result (a file id, image links, or a V2 task a query links again) it offers ``recover
--redownload``, which fetches and verifies the media again and leaves the slot ``success``.
"""

from __future__ import annotations

from typing import Any, Mapping

from app.domain.states import Action, RecoverOption, RecoverWay, Refusal, SlotOffer, State

#: What a fresh download needs from the provider's answer: links or ids, not inline bytes.
REFETCHABLE = ("file_id", "image_urls", "url_by_query")


def may_refetch(state: State | str | None, results: Mapping[str, Any] | None, removed: int) -> bool:
    """A success whose local media were deleted, with something the provider can give again."""
    r = results or {}
    return state == State.SUCCESS and removed > 0 and any(r.get(k) for k in REFETCHABLE)


def with_refetch(
    offers: dict[Action, SlotOffer],
    recover: dict[RecoverWay, RecoverOption],
    refetch: bool,
    media_gone: bool = False,
) -> tuple[dict[Action, SlotOffer], dict[RecoverWay, RecoverOption]]:
    """A pruned slot's offers (``domain.states.slot_offers``) and recover ways: where the
    provider still has its result, ``recover`` joins them, with redownload as its only way;
    with every local file deleted (``media_gone``) export is refused, saying why."""
    if media_gone and offers.get(Action.EXPORT) is not None and offers[Action.EXPORT].offered:
        offers = {**offers, Action.EXPORT: SlotOffer(Action.EXPORT, Refusal.MEDIA_REMOVED)}
    if not refetch:
        return offers, recover
    offers = {**offers, Action.RECOVER: SlotOffer(Action.RECOVER)}
    recover = {**recover, RecoverWay.REDOWNLOAD: RecoverOption(True)}
    return offers, recover


WHY_NOT_REFETCH = (
    "the provider left nothing to download again (no file id or links); the record keeps "
    "each file's SHA-256"
)
