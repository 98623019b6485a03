"""Picks and boards: the rules for what a designer may mark on a result (pure, no I/O).

A pick is a flag — ``favourite`` or ``reject`` — and a rating from 0 to 5 (0: none) on one
result: a media item of a slot, named by its number in the slot (1 is the first). A board is a
named collection of results across projects. Both belong to one designer (tenant and user);
neither touches the ledger: a pick never changes a slot, its fingerprint, its events or its cost.

Every refusal names its field: ``pick``, ``rating``, ``result``, ``board``.
"""

from __future__ import annotations

import unicodedata
from enum import Enum

from app.domain.errors import ValidationError


class Flag(str, Enum):
    FAVOURITE = "favourite"
    REJECT = "reject"


class PickFilter(str, Enum):
    """What the browser and the gallery may be narrowed to by flag."""

    FAVOURITE = "favourite"
    REJECT = "reject"
    UNREJECTED = "unrejected"  # every result not rejected


RATING_MAX = 5
BOARD_NAME_MAX = 80


def validate_flag(value: object) -> Flag | None:
    """``favourite``, ``reject``, or None/"" (cleared)."""
    if value is None or value == "":
        return None
    try:
        return Flag(str(value).strip().lower())
    except ValueError:
        raise ValidationError("pick", "is favourite, reject or empty (cleared)") from None


def validate_rating(value: object) -> int:
    """A whole number from 0 to 5 (0 clears the rating); no fractions, NaN or negatives."""
    if isinstance(value, bool):
        raise ValidationError("rating", "a whole number from 0 to 5")
    if isinstance(value, int):
        n = value
    else:
        text = str(value).strip()
        if not text.isdecimal() or not text.isascii():
            raise ValidationError("rating", f"{text!r} is not a whole number from 0 to 5")
        n = int(text)
    if not 0 <= n <= RATING_MAX:
        raise ValidationError("rating", f"{n} is out of range: a whole number from 0 to 5")
    return n


def validate_result(value: object, count: int) -> int:
    """The result's number in its slot (1 is the first) → its position (0-based)."""
    if isinstance(value, bool):
        raise ValidationError("result", "a whole number from 1")
    text = str(value).strip()
    if not text.isdecimal() or not text.isascii() or int(text) < 1:
        raise ValidationError("result", f"{text!r} is not a result number (1 is the first)")
    n = int(text)
    if count == 0:
        raise ValidationError("result", "this slot has no results yet")
    if n > count:
        raise ValidationError(
            "result", f"{n}: this slot has {count} result{'s' if count != 1 else ''}"
        )
    return n - 1


def validate_board_name(value: object) -> str:
    """A board's name: Unicode NFC, surrounding whitespace trimmed, 1–80 characters, no control
    characters."""
    if not isinstance(value, str):
        raise ValidationError("board", "a board's name is text")
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValidationError("board", "a board needs a name")
    if len(name) > BOARD_NAME_MAX:
        raise ValidationError(
            "board", f"is {len(name)} characters; a board's name has at most {BOARD_NAME_MAX}"
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ValidationError("board", "a board's name has no control characters")
    return name


def validate_pick_filter(value: object) -> PickFilter | None:
    if value is None or value == "":
        return None
    try:
        return PickFilter(str(value))
    except ValueError:
        raise ValidationError("pick", "favourite, reject or unrejected") from None


def toggled(current: str | None, flag: Flag) -> str | None:
    """The flag a designer's F or X leaves: the flag, or none when the result already had it."""
    return None if current == flag.value else flag.value


def pick_change(key: str, current: str | None) -> dict[str, object] | None:
    """What one key does to a result's marks (the app's keys): F favourite and X reject (again:
    cleared), 1–5 the rating, 0 no rating. None: the key marks nothing."""
    k = key.upper()
    if k == "F":
        return {"pick": toggled(current, Flag.FAVOURITE)}
    if k == "X":
        return {"pick": toggled(current, Flag.REJECT)}
    if k in ("0", "1", "2", "3", "4", "5"):
        return {"rating": int(k)}
    return None
