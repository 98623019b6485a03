"""Numbers given by a user or a script (options, environment, settings): finite and in range.

DESIGN.md: every number given must be finite and in range; NaN, infinities and negatives are
invalid input, refused naming the field before anything is stored or sent. Every number that
enters Slate from outside goes through :func:`number` (or :func:`whole`), so no caller can
forget the NaN check (``nan < 0`` is False: a plain ``< minimum`` test lets NaN through).
"""

from __future__ import annotations

import math
import re
from typing import Any

from app.domain.errors import ValidationError

_WHOLE = re.compile(r"[+-]?\d+")


def _show(limit: float) -> str:
    return f"{limit:g}"


def number(
    field: str,
    value: object,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    above: float | None = None,
) -> float:
    """``value`` (a number or its text) as a finite float within the bounds, or ValidationError
    naming ``field``. ``minimum``/``maximum`` are inclusive, ``above`` is an exclusive floor."""
    if isinstance(value, bool):
        raise ValidationError(field, f"must be a number, got {value!r}")
    if isinstance(value, (int, float)):
        out = float(value)
    elif isinstance(value, str):
        try:
            out = float(value.strip())
        except ValueError:
            raise ValidationError(field, f"must be a number, got {value!r}") from None
    else:
        raise ValidationError(field, f"must be a number, got {value!r}")
    if not math.isfinite(out):
        raise ValidationError(field, f"must be a finite number, got {value!r}")
    if above is not None and not out > above:
        raise ValidationError(field, f"must be more than {_show(above)}, got {value!r}")
    if minimum is not None and out < minimum:
        raise ValidationError(field, f"must be at least {_show(minimum)}, got {value!r}")
    if maximum is not None and out > maximum:
        raise ValidationError(field, f"must be at most {_show(maximum)}, got {value!r}")
    return out


def whole(
    field: str, value: object, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """``value`` (an int or its decimal text) as an int within the bounds, or ValidationError."""
    if isinstance(value, bool):
        raise ValidationError(field, f"must be a whole number, got {value!r}")
    if isinstance(value, int):
        out = value
    elif isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        out = int(value.strip())
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        out = int(value)
    else:
        raise ValidationError(field, f"must be a whole number, got {value!r}")
    if minimum is not None and out < minimum:
        raise ValidationError(field, f"must be at least {minimum}, got {value!r}")
    if maximum is not None and out > maximum:
        raise ValidationError(field, f"must be at most {maximum}, got {value!r}")
    return out


def as_int(value: Any) -> int | None:
    """Counts and sizes arrive as numbers or strings; anything else is ``None``."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("+-").isdigit():
            return int(text)
    return None
