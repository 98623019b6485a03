"""What a provider can do beyond create and query: the facts the recover and cancel rules read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Capabilities:
    """One provider's abilities. MiniMax V1 has none of these; the demo provider lists tasks."""

    can_list_tasks: bool = False
    can_cancel: bool = False
    can_upload: bool = False
    can_query_images: bool = False
