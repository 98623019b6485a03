"""What a draft may use now, and what stops it: typed answers the app words (``app.present.words``).

- :func:`v2_availability` — for a MiniMax-H3 draft, whether prompt expansion, the "adaptive"
  ratio, the first frame, the last frame and the reference media can be used with the inputs it
  already has, and why not (:class:`Unavailable`). Each answer asks the rules themselves
  (:func:`app.domain.params.normalize`) "what if this were added": nothing here restates a limit.
- :func:`first_problem` — the draft's first problem (:class:`Problem`, with the field and the
  rule's message), the budget's refusal included (:func:`app.domain.cost.check_budget`).
- :func:`v2_notices` — what a MiniMax-H3 draft that can be created will not do as it seems
  (:class:`Notice`): a ratio that a frame image overrides, with the size MiniMax will make.

Pure functions, no I/O: the app's draft model (``app.ui.draft``) and the CLI can both ask.
"""

from __future__ import annotations

from collections.abc import Mapping
import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any

from app.domain import params_v2 as v2
from app.domain.cost import BudgetCheck, BudgetRefusal, Cost, SpendTotal, check_budget
from app.domain.errors import Rule, ValidationError
from app.domain.params import normalize
from app.domain.params_v2 import MediaFacts

#: A picture the rules are asked "what if" with (it passes every image limit).
PROBE_IMAGE = MediaFacts("image", "0" * 64, 1000, "png", "probe", 1024, 576)

#: The availability keys of a MiniMax-H3 draft.
EXPANSION = "prompt_expansion"
ADAPTIVE = "ratio_adaptive"
FIRST = "first_frame_image"
LAST = "last_frame_image"
REFERENCES = "references"
V2_FIELDS = (EXPANSION, ADAPTIVE, FIRST, LAST, REFERENCES)


class Unavailable(str, Enum):
    """Why a field of a draft cannot be used now."""

    NO_EXPANSION = "no_expansion"  # the model has no prompt expansion
    ADAPTIVE_NEEDS_MEDIA = "adaptive_needs_media"  # nothing to take the shape from
    FRAMES_WITH_REFERENCES = "frames_with_references"  # references set: no frames
    REFERENCES_WITH_FRAMES = "references_with_frames"  # frames set: no references
    LAST_NEEDS_FIRST = "last_needs_first"  # the model needs a first frame first

    def __str__(self) -> str:
        return self.value


class ProblemKind(str, Enum):
    """What kind of problem stops a draft from being created."""

    NO_PROMPT = "no_prompt"  # nothing written yet (a hint, not an error)
    INVALID = "invalid"  # a rule refuses a field (``field``, ``message``)
    BUDGET = "budget"  # the daily budget refuses (``budget``: the domain's check)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Problem:
    """The first thing that stops a draft. ``field``/``message``: the rule's (INVALID,
    NO_PROMPT), ``rule``/``values`` what it refuses, typed; ``budget``: the budget's check
    (BUDGET)."""

    kind: ProblemKind
    field: str | None = None
    message: str = ""
    budget: BudgetCheck | None = None
    rule: Rule = Rule.OTHER
    values: Mapping[str, object] = dataclasses.field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, kind: ProblemKind, exc: ValidationError) -> Problem:
        """The problem a rule's refusal stands for."""
        return cls(kind, exc.field, exc.message, rule=exc.rule, values=dict(exc.values))

    @property
    def refusal(self) -> BudgetRefusal | None:
        return self.budget.refusal if self.budget is not None else None


class NoticeKind(str, Enum):
    """Something a draft can be created with, but that MiniMax will not do as it seems."""

    #: a frame image sets the video's shape, so the chosen ratio is not used. ``values``:
    #: ``ratio`` (the one chosen), ``frame`` (the field whose image sets the shape) and, when the
    #: image's size is known, ``width``×``height`` (the video's size in px).
    RATIO_IGNORED = "ratio_ignored"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Notice:
    """A warning about a draft, said before Create (``field``: the field it is about)."""

    kind: NoticeKind
    field: str
    values: Mapping[str, object] = dataclasses.field(default_factory=dict)


def _output_size(short_side: int, aspect: float) -> tuple[int, int]:
    """The size of a picture of ``aspect`` (width/height) whose short side is ``short_side``."""
    if aspect >= 1:
        return round(short_side * aspect), short_side
    return short_side, round(short_side / aspect)


def v2_notices(raw: Mapping[str, Any]) -> tuple[Notice, ...]:
    """For a MiniMax-H3 draft the rules take (``raw`` as :func:`v2_availability` has it): what
    MiniMax will not do as the draft seems to ask. With a frame image the video follows the
    image and the ratio is ignored (``../shared/MINIMAX_API.md``): a fixed ratio that the
    image's shape differs from is said, with the size the video will have."""
    try:
        params = v2.normalize({**raw, "prompt": "x"})
    except ValidationError:
        return ()
    ratio = params["ratio"]
    frames = [i for i in params["content"] if i["role"] in ("first_frame", "last_frame")]
    if ratio not in v2.RATIOS or not frames:
        return ()
    field = f"{frames[0]['role']}_image"
    want = v2.expected_output(params)
    if want.aspect is None:  # a web address: its shape is not known before it is sent
        return (Notice(NoticeKind.RATIO_IGNORED, "ratio", {"ratio": ratio, "frame": field}),)
    if abs(want.aspect - v2.RATIOS[ratio]) < 0.01:
        return ()
    width, height = _output_size(want.short_side, want.aspect)
    values = {"ratio": ratio, "frame": field, "width": width, "height": height}
    return (Notice(NoticeKind.RATIO_IGNORED, "ratio", values),)


def what_if(raw: Mapping[str, Any], kind: str = "video", **changes: Any) -> ValidationError | None:
    """Would the rules take the draft ``raw`` (a video, unless ``kind`` says otherwise) with
    ``changes`` (a prompt assumed)? None, or the rules' refusal."""
    asked = {**raw, "prompt": "x", **changes}
    asked = {k: v for k, v in asked.items() if v is not None}
    try:
        normalize(kind, asked)
        return None
    except ValidationError as exc:
        return exc


def refuses_input(raw: Mapping[str, Any], field: str, values: list[Any]) -> ValidationError | None:
    """Would the rules refuse the MiniMax-H3 draft ``raw`` with ``field`` set to ``values`` (an
    input being added)? Reference audio with no picture or clip yet is judged as if a picture
    were there: the designer adds one after, and the draft says so until then."""
    err = what_if(raw, "video", **{field: values})
    alone = not (raw.get("reference_image") or raw.get("reference_video"))
    if err is not None and field == "reference_audio" and err.field == field and alone:
        return what_if(raw, "video", **{field: values}, reference_image=[PROBE_IMAGE])
    return err


def _refused_reference(err: ValidationError | None) -> bool:
    return err is not None and err.field.startswith("reference")


def v2_availability(raw: Mapping[str, Any]) -> dict[str, Unavailable | None]:
    """For a MiniMax-H3 draft (``raw``: its parameters as the rules check them, local media by
    their facts): each of :data:`V2_FIELDS` → None (it can be used) or why not."""
    model = str(raw.get("model") or "")
    rule = v2.MODELS.get(model)
    out: dict[str, Unavailable | None] = dict.fromkeys(V2_FIELDS)
    if rule is None:
        return out
    if not rule.prompt_expansion:
        out[EXPANSION] = Unavailable.NO_EXPANSION
    err = what_if(raw, ratio=v2.ADAPTIVE)
    if err is not None and err.field == "ratio":
        out[ADAPTIVE] = Unavailable.ADAPTIVE_NEEDS_MEDIA
    has_refs = any(raw.get(f) for f in v2.REFERENCE_FIELDS)
    has_frames = bool(raw.get(FIRST) or raw.get(LAST))
    if has_refs and _refused_reference(what_if(raw, first_frame_image=PROBE_IMAGE)):
        out[FIRST] = Unavailable.FRAMES_WITH_REFERENCES
    if has_frames:
        without = what_if(
            raw, first_frame_image=None, last_frame_image=None, reference_image=[PROBE_IMAGE]
        )
        if without is None and _refused_reference(what_if(raw, reference_image=[PROBE_IMAGE])):
            out[REFERENCES] = Unavailable.REFERENCES_WITH_FRAMES
    out[LAST] = out[FIRST]
    if out[LAST] is None and not has_frames:
        err = what_if(raw, last_frame_image=PROBE_IMAGE)
        if err is not None and err.field == LAST:
            out[LAST] = Unavailable.LAST_NEEDS_FIRST
    return out


def validation_problem(kind: str, raw: Mapping[str, Any]) -> Problem | None:
    """The rules' first complaint about the draft (an empty prompt is NO_PROMPT), or None."""
    try:
        normalize(kind, raw)
        return None
    except ValidationError as exc:
        if exc.field == "prompt" and not str(raw.get("prompt") or "").strip():
            return Problem.of(ProblemKind.NO_PROMPT, exc)
        return Problem.of(ProblemKind.INVALID, exc)


def budget_verdict(limit: Any, today: SpendTotal | None, cost: Cost | None) -> BudgetCheck | None:
    """The daily budget's answer for this draft (the claim's own rule), or None when no budget
    is set or the draft's price or today's use is not known yet."""
    if limit is None or today is None or cost is None:
        return None
    return check_budget(limit, today, cost)


def first_problem(
    kind: str, raw: Mapping[str, Any], verdict: BudgetCheck | None = None
) -> Problem | None:
    """What stops the draft first: the rules, then the budget."""
    found = validation_problem(kind, raw)
    if found is not None:
        return found
    if verdict is not None and not verdict.allowed:
        return Problem(ProblemKind.BUDGET, None, verdict.reason or "", verdict)
    return None


__all__ = [
    "PROBE_IMAGE",
    "V2_FIELDS",
    "Notice",
    "NoticeKind",
    "Problem",
    "ProblemKind",
    "Unavailable",
    "budget_verdict",
    "first_problem",
    "refuses_input",
    "v2_availability",
    "v2_notices",
    "validation_problem",
    "what_if",
]
