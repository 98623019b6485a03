"""The user-facing view of a task and its media: what the GUI shows and the CLI prints.

Views hold no owner internals and no secrets; handles are signed for the viewing user.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from app.domain.capabilities import Capabilities
from app.domain.cost import NOT_CHARGED_STATES, Cost
from app.domain.errors import FailReason
from app.domain.prices import Money
from app.domain.states import Action, RecoverOption, RecoverWay, SlotOffer, State


@dataclass(frozen=True)
class ProviderInfo:
    """The provider a service talks to, as the UI shows it. ``capabilities`` are its V1 side's
    (images and the legacy video models); ``v2`` its MiniMax-H3 side's. What it can do for one
    slot is :meth:`ServiceContext.caps <app.service.context.ServiceContext.caps>` (its
    protocol's), carried in the task's view."""

    name: str
    endpoint: str
    capabilities: Capabilities = Capabilities()
    v2: Capabilities = Capabilities()

    @property
    def demo(self) -> bool:
        return self.name == "demo"

    @property
    def label(self) -> str:
        return f"{self.name} · {self.endpoint}"


@dataclass(frozen=True)
class MediaView:
    path: str
    sha256: str
    bytes: int
    content_type: str
    width: int | None
    height: int | None
    duration: float | None = None
    handle: str | None = None


@dataclass(frozen=True)
class TaskError:
    """Why a task failed, was refused or is unknown: the stored code and message (the
    provider's or Slate's own words, kept as evidence) and the reason, typed (None for a row
    from before reasons whose code could not be mapped: shown as it is). ``said``: the
    designer's own words where the reason is theirs (a declared failure), kept whole."""

    code: str | None
    message: str | None
    reason: FailReason | None = None
    said: str | None = None


#: The task's ``results`` key that keeps a declared failure's reason as the designer gave it.
DECLARED_REASON = "declared_reason"


@dataclass
class TaskView:
    """One slot's task as the user sees it (no owner internals, no secrets)."""

    id: int
    request_id: str
    handle: str
    kind: str
    state: State
    provider: str
    provider_task_id: str | None
    provider_status: str | None
    fingerprint: str
    params: dict[str, Any]
    media: list[MediaView]
    error: TaskError | None
    allowed_actions: list[Action]
    created_at: float
    updated_at: float
    next_poll_at: float | None
    has_results: bool = False
    project: str | None = None
    failed_count: int | None = None  # images blocked by the provider's safety filter
    #: The task's cost: the estimate stored at claim (price table × parameters), the provider's
    #: report priced with the same table; None only when no price table could be read.
    cost: Cost | None = None
    #: What the slot counts for in spend and the daily budget (``domain.cost.charge``): the
    #: reported figure, 0 where the provider documents no charge, else the estimate.
    charged: Money = None
    #: A slot of kind ``prompt``: the enhanced prompt (its result is text, not media).
    text: str | None = None
    #: Hidden from the browser (``slate hide``); the record and everything in it stay.
    hidden: bool = False
    #: Verified media whose local files were deleted (``slate prune-media``): not in ``media``.
    removed_media: list[MediaView] = field(default_factory=list)
    #: Every action, offered or refused with its reason (``domain.states.slot_offers`` with the
    #: capabilities of this slot's protocol); ``allowed_actions`` are the offered ones.
    offers: dict[Action, SlotOffer] = field(default_factory=dict)
    #: A slot of kind ``voice``: the voice id it sends and owns (from its idempotency key).
    voice_id: str | None = None
    #: Which recover ways it offers, each with its why-not (``domain.states.recover_options``,
    #: with the same capabilities).
    recover: dict[RecoverWay, RecoverOption] = field(default_factory=dict)

    @property
    def demo(self) -> bool:
        return self.provider == "demo"

    @property
    def not_charged(self) -> bool:
        """The provider documents no charge for this outcome (failed, refused, cancelled)."""
        return (
            self.charged == Decimal(0)
            and self.state.value in NOT_CHARGED_STATES
            and (self.cost is None or self.cost.reported is None)
        )
