"""The draft being written, without Qt: its parameters, and what the domain says about them.

:class:`DraftModel` holds what the create form shows — the kind, the parameters as the rules check
them (local media by their facts), whether the form is read-only, today's budget use — and derives,
from :mod:`app.domain` alone:

- ``availability``: for each field that can be out of reach (MiniMax-H3's prompt expansion, the
  "adaptive" ratio, the frames, the references), None or why not
  (:class:`~app.domain.drafts.Unavailable`);
- ``problem``: the first thing that stops the draft (:class:`~app.domain.drafts.Problem`: a rule
  refusing a field, no prompt yet, or the daily budget's refusal);
- ``cost``: the draft's estimate (a :class:`~app.domain.cost.Cost`, from the ``estimator`` the
  window hands over: the service prices with its table);
- ``verdict``: the daily budget's answer (:class:`~app.domain.cost.BudgetCheck`), the very rule
  the claim applies (:func:`~app.domain.cost.check_budget`);
- ``quota``: what creating it takes from today's quota (:func:`~app.domain.params.units`);
- ``notices``: what MiniMax will not do as the draft seems to ask
  (:class:`~app.domain.drafts.Notice`: a ratio a frame image overrides, with the size it makes).

:class:`~app.ui.form.CreateForm` binds its widgets to it and words its answers with
:mod:`app.present.words`. Observable like :class:`~app.ui.current.CurrentSlot`: every property has a
``<name>_changed`` signal, and ``derived_changed`` fires once per batch when any derived value
changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.domain import params_sound
from app.domain import params_v2 as v2
from app.domain.cost import BudgetCheck, Cost
from app.domain.drafts import (
    Notice,
    Problem,
    Unavailable,
    budget_verdict,
    first_problem,
    v2_availability,
    v2_notices,
)
from app.domain.params import IMAGE_PROMPT_MAX, VIDEO_PROMPT_MAX, units
from app.domain.protocols import V2, protocol_for
from app.ui.current import Observable, Property, Signal

#: ``estimator(kind, params)``: the draft's Cost, or a Result whose payload has ``cost``, or None.
Estimator = Callable[[str, Mapping[str, Any]], Any]


def _cost_of(answer: Any) -> Cost | None:
    if answer is None or isinstance(answer, Cost):
        return answer
    return getattr(getattr(answer, "payload", None), "cost", None)


class DraftModel(Observable):
    """The draft's parameters and the domain's answers about them (see the module)."""

    kind: Property[str] = Property("video")
    #: the parameters as the rules check them (local media by their facts)
    params: Property[Mapping[str, Any]] = Property({})
    read_only: Property[bool] = Property(False)
    #: today's budget use (a BudgetReport: ``limit`` None means no budget), None until known
    budget: Property[Any] = Property(None)

    def __init__(self, estimator: Estimator | None = None) -> None:
        super().__init__()
        self.derived_changed = Signal()
        self._estimator = estimator
        self.availability: dict[str, Unavailable | None] = {}
        self.notices: tuple[Notice, ...] = ()
        self.problem: Problem | None = None
        self.cost: Cost | None = None
        self.verdict: BudgetCheck | None = None
        #: the price table's billing scheme of the estimate (``per_token``: unknown before the
        #: answer reports its usage), None when not said
        self.priced_by: str | None = None
        self._derive()

    @property
    def estimator(self) -> Estimator | None:
        return self._estimator

    @estimator.setter
    def estimator(self, estimator: Estimator | None) -> None:
        self._estimator = estimator
        self._changed({"estimator"})

    def reprice(self) -> None:
        """The price table changed (a designer gave or took back a price): judge again."""
        self._changed({"prices"})

    def update(self, **changes: Any) -> None:
        """Several properties at once (one batch: ``derived_changed`` fires once)."""
        with self.changes():
            for name, value in changes.items():
                if name == "params":
                    value = dict(value)
                setattr(self, name, value)

    # -- derived -----------------------------------------------------------------------------
    @property
    def model(self) -> str:
        return str(self.params.get("model") or "")

    @property
    def is_v2(self) -> bool:
        return self.kind == "video" and protocol_for("video", self.model or None) == V2

    @property
    def prompt_limit(self) -> int:
        if self.is_v2:
            return v2.PROMPT_MAX
        return VIDEO_PROMPT_MAX if self.kind == "video" else IMAGE_PROMPT_MAX

    @property
    def speech_protocol(self) -> str | None:
        """A voice line's protocol, ``sync`` or ``async``, by the domain's length rule (None
        for another kind)."""
        text = self.params.get("text")
        if self.kind != params_sound.SPEECH or not isinstance(text, str):
            return None
        return params_sound.speech_protocol(text)

    @property
    def quota(self) -> tuple[str, int]:
        """What creating the draft takes from today's quota: (kind, units)."""
        return self.kind, units(self.kind, self.params)

    @property
    def can_create(self) -> bool:
        return not self.read_only and self.problem is None

    def why(self, field: str) -> Unavailable | None:
        """Why ``field`` (a :data:`~app.domain.drafts.V2_FIELDS` key) cannot be used now."""
        return self.availability.get(field)

    def notice(self, field: str) -> Notice | None:
        """The draft's warning about ``field``, if any."""
        return next((n for n in self.notices if n.field == field), None)

    def _derive(self) -> tuple[Any, ...]:
        kind, raw = self.kind, self.params
        self.availability = v2_availability(raw) if self.is_v2 else {}
        self.notices = v2_notices(raw) if self.is_v2 and not self.read_only else ()
        valid = first_problem(kind, raw) is None
        self.cost = None
        self.priced_by = None
        if valid and not self.read_only and self._estimator is not None:
            answer = self._estimator(kind, raw)
            self.cost = _cost_of(answer)
            self.priced_by = getattr(getattr(answer, "payload", None), "scheme", None)
        b = self.budget
        self.verdict = (
            budget_verdict(b.limit, b.spent, self.cost) if b is not None and valid else None
        )
        self.problem = None if self.read_only else first_problem(kind, raw, self.verdict)
        return (self.availability, self.notices, self.problem, self.cost, self.verdict)

    def _changed(self, names: set[str]) -> None:
        before = (self.availability, self.notices, self.problem, self.cost, self.verdict)
        if self._derive() != before:
            self.derived_changed.emit()


__all__ = ["DraftModel", "Estimator"]
