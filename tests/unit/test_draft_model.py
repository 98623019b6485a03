"""The draft as a model, without Qt: availability with its why-not, the first problem, the
estimate, the budget verdict (the claim's own rule) and the quota units, all from the domain."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal

from app.domain.cost import BudgetRefusal, Cost, SlotCost, SpendTotal, check_budget
from app.domain.drafts import ADAPTIVE, EXPANSION, FIRST, LAST, REFERENCES, NoticeKind, ProblemKind
from app.domain.drafts import Unavailable as U  # noqa: N817 - the table reads as one line per rule
from app.domain.params_v2 import MediaFacts
from app.service.results import BudgetReport
from app.present import words
from app.ui.draft import DraftModel

PICTURE = MediaFacts("image", "1" * 64, 200_000, "png", "frame.png", 1280, 720)
H3 = {
    "model": "MiniMax-H3",
    "prompt": "tide eye",
    "duration": 6,
    "resolution": "768P",
    "ratio": "16:9",
}


def priced(amount: str | None):
    """An estimator that prices every draft at ``amount`` (None: unknown)."""
    calls = []

    def estimate(kind, params):
        calls.append((kind, dict(params)))
        price = None if amount is None else Decimal(amount)
        return Cost(price, "USD", "test", model=params.get("model"))

    estimate.calls = calls
    return estimate


def today(*charges: str | None) -> SpendTotal:
    total = SpendTotal()
    for i, charge in enumerate(charges):
        total = total.add(
            SlotCost(
                f"s:{i}", "m", "2026-12-02", "success", None if charge is None else Decimal(charge)
            )
        )
    return total


def budget(limit: str | None, spent: SpendTotal) -> BudgetReport:
    return BudgetReport("2026-12-02", "USD", None if limit is None else Decimal(limit), spent)


def test_the_draft_model_and_its_words_need_no_qt():
    code = (
        "import sys, app.ui.draft, app.present.words\n"
        "assert not [m for m in sys.modules if m.startswith('PySide6')], 'Qt imported'"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_availability_of_an_h3_text_draft_and_with_media():
    draft = DraftModel()
    draft.update(kind="video", params=H3)
    assert draft.is_v2 and draft.prompt_limit > 0
    assert draft.why(EXPANSION) is U.NO_EXPANSION  # H3 has no prompt expansion
    assert draft.why(ADAPTIVE) is U.ADAPTIVE_NEEDS_MEDIA  # nothing to take the shape from
    assert draft.why(FIRST) is None and draft.why(REFERENCES) is None
    assert draft.problem is None

    draft.update(params={**H3, "first_frame_image": PICTURE})
    assert draft.why(ADAPTIVE) is None  # the frame gives the shape
    assert draft.why(REFERENCES) is U.REFERENCES_WITH_FRAMES

    draft.update(params={**H3, "reference_image": [PICTURE]})
    assert draft.why(FIRST) is U.FRAMES_WITH_REFERENCES
    assert draft.why(LAST) is U.FRAMES_WITH_REFERENCES

    draft.update(params={**H3, "model": "MiniMax-H3-Max", "duration": 6, "resolution": "768P"})
    assert draft.why(EXPANSION) is None
    assert draft.why(LAST) is U.LAST_NEEDS_FIRST
    said = words.unavailable(draft.why(LAST), draft.model)
    assert said == "MiniMax-H3-Max needs a first frame before a last frame."

    draft.update(kind="video", params={"model": "MiniMax-Hailuo-2.3", "prompt": "x"})
    assert not draft.is_v2 and draft.availability == {}


def test_the_first_problem_is_typed():
    draft = DraftModel()
    draft.update(kind="video", params={**H3, "prompt": ""})
    assert draft.problem.kind is ProblemKind.NO_PROMPT and draft.problem.field == "prompt"
    assert words.draft_problem(draft.problem, "Prompt: ") == "Write a prompt to start."
    draft.update(params={**H3, "duration": 99})
    assert draft.problem.kind is ProblemKind.INVALID and draft.problem.field == "duration"
    assert words.draft_problem(draft.problem, "Duration: ").startswith("Duration: ")
    assert not draft.can_create
    draft.update(read_only=True)  # a stored slot: nothing to create, nothing to say
    assert draft.problem is None and draft.cost is None


def test_estimate_and_budget_verdict_are_the_domains():
    estimate = priced("0.30")
    draft = DraftModel(estimate)
    fired = []
    draft.derived_changed.connect(lambda: fired.append(draft.problem))
    draft.update(kind="video", params=H3, budget=budget("1.00", today("0.50")))
    assert len(fired) == 1  # one batch, one signal
    assert draft.cost.estimate == Decimal("0.30") and estimate.calls[-1][1]["model"] == "MiniMax-H3"
    assert draft.verdict == check_budget(Decimal("1.00"), today("0.50"), draft.cost)
    assert draft.verdict.allowed and draft.problem is None and draft.can_create

    draft.budget = budget("1.00", today("0.50", "0.30"))  # 0.80 + 0.30 > 1.00
    assert draft.problem.kind is ProblemKind.BUDGET
    assert draft.problem.refusal is BudgetRefusal.OVER
    said = words.draft_problem(draft.problem, "", "USD", draft.budget.spent)
    assert "about $0.30" in said and "$0.80 of $1.00" in said and "$0.20 is left" in said

    draft.budget = budget("1.00", today("0.10", None))  # a slot of unknown price today
    assert draft.problem is None and draft.can_create  # it never blocks another create
    assert draft.verdict.allowed and draft.verdict.unpriced_slots == 1
    line = words.budget_line(draft.budget)
    assert "unknown of" not in line
    assert line == " · today $0.10 of the $1.00 budget (1 without a price yet, left out)"

    draft.budget = budget(None, today(None))  # no budget: no verdict
    assert draft.verdict is None and draft.problem is None and words.budget_line(draft.budget) == ""


def test_a_draft_of_unknown_price_under_a_budget_is_refused():
    draft = DraftModel(priced(None))
    draft.update(
        kind="image",
        params={"model": "image-01", "prompt": "a lighthouse", "n": 3},
        budget=budget("1.00", today()),
    )
    assert draft.cost.estimate is None
    assert draft.problem.refusal is BudgetRefusal.PRICE_UNKNOWN
    assert draft.quota == ("image", 3)  # the domain's quota units
    said = words.draft_problem(draft.problem, "")
    assert "image-01 has no price yet" in said and "Everything else can still be created" in said


def test_an_invalid_draft_is_not_priced():
    estimate = priced("0.30")
    draft = DraftModel(estimate)
    draft.update(kind="video", params={**H3, "duration": 99}, budget=budget("1.00", today()))
    assert draft.cost is None and draft.verdict is None and estimate.calls == []


def test_a_ratio_that_a_frame_image_overrides_is_a_notice_with_the_size_made():
    """MiniMax follows a frame image and ignores the ratio: 16:9 with a 1:1 first frame makes a
    768×768 video, said before Create (typed: the ratio, the frame, the size)."""
    square = MediaFacts("image", "2" * 64, 200_000, "png", "square.png", 1024, 1024)
    draft = DraftModel()
    draft.update(kind="video", params={**H3, "first_frame_image": square})
    assert draft.problem is None
    notice = draft.notice("ratio")
    assert notice is not None and notice.kind is NoticeKind.RATIO_IGNORED
    assert dict(notice.values) == {
        "ratio": "16:9",
        "frame": "first_frame_image",
        "width": 768,
        "height": 768,
    }
    # a frame of the ratio's own shape, adaptive, or no frame: nothing to say
    draft.update(params={**H3, "first_frame_image": PICTURE})
    assert draft.notices == ()
    draft.update(params={**H3, "ratio": "adaptive", "first_frame_image": square})
    assert draft.notices == ()
    draft.update(params=H3)
    assert draft.notices == ()
    # at 2K a tall frame: the short side is the width
    tall = MediaFacts("image", "3" * 64, 200_000, "png", "tall.png", 720, 1280)
    draft.update(params={**H3, "resolution": "2K", "first_frame_image": tall})
    assert (draft.notices[0].values["width"], draft.notices[0].values["height"]) == (1440, 2560)
