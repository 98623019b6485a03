"""The 7-day clock's rule (pure): the day a designed or cloned voice is deleted if unused, and
the refusal of a voice past it, naming ``voice`` and the day."""

from __future__ import annotations

import pytest

from app.domain.errors import ValidationError
from app.domain.params_voice import check_not_deleted, deleted_after


def test_the_day_is_seven_after_the_last_use_else_after_it_was_made():
    assert deleted_after("2026-11-01", None) == "2026-11-08"
    assert deleted_after("2026-11-01", "2026-11-20") == "2026-11-27"
    assert deleted_after(None, "2026-12-30") == "2027-01-06"
    assert deleted_after("2026-11-10", "2026-11-02") == "2026-11-17"  # never used before made
    assert deleted_after(None, None) is None


def test_a_voice_is_refused_only_after_its_day():
    check_not_deleted("slatev1abc", "2026-11-01", None, "2026-11-08")  # its last day
    check_not_deleted("slatev1abc", None, None, "2030-01-01")  # nothing known: not refused
    with pytest.raises(ValidationError) as exc:
        check_not_deleted("slatev1abc", "2026-11-01", None, "2026-11-09")
    assert exc.value.field == "voice" and "2026-11-08" in exc.value.message
    assert exc.value.values["deleted_after"] == "2026-11-08"
