"""The price table: what one generation costs, per model, from a TOML file (pure: text in).

Slate ships one table (``resources/prices.toml``, installed as ``app.resources``); the user may
keep an override file of the same layout whose entries win leaf by leaf. Amounts are exact
:class:`~decimal.Decimal` values; a price nobody published is *unknown* (``None`` here,
``"unknown"`` in the file), never 0.

A model has one billing scheme:

- ``per_second`` — ``{resolution: rate}``: output seconds × the rate (MiniMax-H3), with optional
  surcharges ``input_images = {free, each}``, ``reference_video`` (``"output_rate"`` or a
  per-second amount) and ``reference_audio`` (a per-second amount; 0 = free);
- ``per_clip`` — ``{resolution: {seconds: price}}``: one price a clip (the Hailuo models);
- ``per_image`` — one price per generated image (image-01);
- ``per_token`` — a million input / output tokens (MiniMax-H3-Image, Context-IR);
- ``per_song`` — one song (music); ``per_character`` — a million billed characters (speech);
- ``per_voice`` — one designed voice (``voice-design``: one voice design slot is one unit).

Which schemes a kind may use is :data:`KIND_SCHEMES` (video is per second or per clip, a voice
only per voice): a model is never priced by another kind's unit.

Errors name the file, the line and the field (:class:`PriceTableError`); a bad entry is never
read as 0 and never silently dropped.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from app.domain.errors import ValidationError
from app.domain.slots import KINDS, Kind

Money = Decimal | None
"""An amount in the table's currency; ``None`` means the price is unknown."""

Scheme = Literal[
    "per_second", "per_clip", "per_image", "per_token", "per_song", "per_character", "per_voice"
]
SCHEMES: tuple[Scheme, ...] = (
    "per_second",
    "per_clip",
    "per_image",
    "per_token",
    "per_song",
    "per_character",
    "per_voice",
)
#: The billing schemes each kind may be priced by (the first is the kind's usual one).
KIND_SCHEMES: Mapping[Kind, tuple[Scheme, ...]] = {
    "video": ("per_second", "per_clip"),
    "image": ("per_image", "per_token"),
    "prompt": ("per_token",),
    "music": ("per_song",),
    "speech": ("per_character",),
    "voice": ("per_voice",),
}
#: Schemes of one amount (no part to name: no resolution, duration or tokens).
ONE_AMOUNT: tuple[Scheme, ...] = ("per_image", "per_song", "per_character", "per_voice")
#: ``per_character`` (speech): the price of one million billed characters.
CHARACTERS_PER_PRICE = 1_000_000
#: ``per_token`` (MiniMax-H3-Image): the price of one million input and output tokens.
#: The largest amount Slate takes as one money figure — a daily budget, a price in the table,
#: the priced report of one create (docs/DECISIONS.md "Money figures are bounded"). Far above
#: anything real, far below what exact arithmetic and JSON can carry.
MAX_MONEY = Decimal(1_000_000)
TOKEN_PARTS = ("input", "output")
TOKENS_PER_PRICE = 1_000_000
UNKNOWN = "unknown"
OUTPUT_RATE = "output_rate"
SHIPPED = "shipped"

_TOP_KEYS = ("currency", "as_of", "source", "models")
_MODEL_KEYS = ("kind", *SCHEMES, "input_images", "reference_video", "reference_audio", "source")
_CURRENCY = re.compile(r"[A-Z]{3}")
_AS_OF = re.compile(r"\d{4}-\d{2}(-\d{2})?")
_RESOLUTION = re.compile(r"\d{3,4}P|\dK")
_SECONDS = re.compile(r"[1-9]\d{0,2}")


class PriceTableError(ValidationError):
    """A price file Slate cannot read: names the file, the line (0 when unknown) and the field."""

    def __init__(self, path: str, line: int, field: str, message: str) -> None:
        super().__init__(field, message)
        self.path = path
        self.line = line
        where = f"{path}:{line}" if line else path
        self.args = (f"{where}: {field}: {message}",)

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class InputImages:
    """Input images beyond the first ``free`` cost ``each``."""

    free: int
    each: Money


@dataclass(frozen=True)
class ModelPrices:
    """The prices of one model. Only the fields of its ``scheme`` are meaningful."""

    model: str
    kind: Kind
    scheme: Scheme
    per_second: Mapping[str, Money] = field(default_factory=dict)
    per_clip: Mapping[tuple[str, int], Money] = field(default_factory=dict)
    per_image: Money = None
    input_images: InputImages | None = None
    reference_video: Money | Literal["output_rate"] = None
    reference_audio: Money = None
    per_token: Mapping[str, Money] = field(default_factory=dict)  # per million: input, output
    per_song: Money = None  # music: one song
    per_character: Money = None  # speech: one million billed characters
    per_voice: Money = None  # voice design: one designed voice
    source: str | None = None  # where this model's price comes from (else the table's source)

    def clip_key(self, resolution: str | None, seconds: int | None) -> tuple[str, int] | None:
        """The listed clip for these parameters, or None. A model that offers a single clip
        prices it whatever the parameters leave out (S2V-01 sends no duration or resolution)."""
        if resolution is not None and seconds is not None:
            key = (resolution, seconds)
            return key if key in self.per_clip else None
        if len(self.per_clip) == 1:
            (only,) = self.per_clip
            if resolution in (None, only[0]) and seconds in (None, only[1]):
                return only
        return None


@dataclass(frozen=True)
class PriceTable:
    """Every model's prices in one currency, with where they come from."""

    currency: str
    as_of: str
    source: str
    models: Mapping[str, ModelPrices]
    override_path: str | None = None
    override_as_of: str | None = None
    override_source: str | None = None

    def get(self, model: str) -> ModelPrices | None:
        return self.models.get(model)


# -- reading -------------------------------------------------------------------------------


def parse_table(text: str, path: str = SHIPPED) -> PriceTable:
    """A complete table from TOML text (the shipped file, or a self-contained one)."""
    raw = _load(text, path)
    _check_file(raw, text, path, complete=True)
    return _build(raw, text, path)


def parse_with_override(shipped: str, override: str, path: str) -> PriceTable:
    """The shipped table (TOML text) with the user's override file ``override`` (read from
    ``path``) applied leaf by leaf: a model, a resolution, a clip or a surcharge the override
    states wins; everything else stays as shipped.

    An override in another currency cannot mix with the shipped amounts: every shipped amount it
    does not restate becomes unknown (never converted, never 0)."""
    base = parse_table(shipped)
    raw_base = _load(shipped, SHIPPED)
    raw = _load(override, path)
    _check_file(raw, override, path, complete=False)
    currency = raw.get("currency", base.currency)
    models: dict[str, dict[str, Any]] = {
        name: (dict(entry) if currency == base.currency else _blank(entry))
        for name, entry in raw_base["models"].items()
    }
    for name, entry in raw.get("models", {}).items():
        mine = models.get(name, {})
        if any(s in entry for s in SCHEMES):
            mine = {k: v for k, v in mine.items() if k not in SCHEMES or k in entry}
        models[name] = _deep_merge(mine, entry)
    merged = {"currency": currency, "as_of": base.as_of, "source": base.source, "models": models}
    table = _build(merged, override, path, overridden=raw.get("models", {}))
    return PriceTable(
        currency=table.currency,
        as_of=table.as_of,
        source=table.source,
        models=table.models,
        override_path=path,
        override_as_of=_as_of_text(raw["as_of"]) if "as_of" in raw else None,
        override_source=raw.get("source"),
    )


def parse_money(value: object, field: str) -> Decimal:
    """A non-negative, finite amount from text or a number (e.g. a budget), else ValidationError."""
    if isinstance(value, bool):
        raise ValidationError(field, "must be an amount such as 5 or 0.48")
    try:
        amount = Decimal(value.strip() if isinstance(value, str) else str(value))
    except (InvalidOperation, TypeError, ValueError):
        raise ValidationError(
            field, f"must be an amount such as 5 or 0.48, not {value!r}"
        ) from None
    if not amount.is_finite():
        raise ValidationError(field, "must be a finite amount")
    if amount < 0:
        raise ValidationError(field, "must not be negative")
    if amount > MAX_MONEY:
        raise ValidationError(field, f"must be at most {MAX_MONEY:,}, not {value}")
    return amount


def _load(text: str, path: str) -> dict[str, Any]:
    import tomllib  # a price file is read with the service, after the window is shown

    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        m = re.search(r"\(at line (\d+), column \d+\)", message)
        line = int(m.group(1)) if m else 0
        raise PriceTableError(path, line, "toml", message) from None


def _as_of_text(value: object) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


#: Model fields that hold an amount (or resolutions to amounts) directly.
_AMOUNT_KEYS = ("per_second", "reference_audio", *ONE_AMOUNT)


def _blank(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A model entry with every amount made unknown (the structure kept)."""
    out: dict[str, Any] = {}
    for key, value in entry.items():
        if key in _AMOUNT_KEYS or (key == "reference_video" and value != OUTPUT_RATE):
            out[key] = _blank_amounts(value)
        elif key == "per_clip":
            out[key] = {res: _blank_amounts(clips) for res, clips in value.items()}
        elif key == "input_images":
            out[key] = {**value, "each": UNKNOWN}
        else:
            out[key] = value
    return out


def _blank_amounts(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: UNKNOWN for k in value}
    return UNKNOWN


def _deep_merge(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


# -- checking ------------------------------------------------------------------------------


class _Checker:
    """Raises PriceTableError for a field path, at the line that states it."""

    def __init__(self, text: str, path: str) -> None:
        self.path = path
        self.lines = key_lines(text)

    def fail(self, parts: tuple[str, ...], message: str) -> PriceTableError:
        line = 0
        for n in range(len(parts), 0, -1):
            if parts[:n] in self.lines:
                line = self.lines[parts[:n]]
                break
        return PriceTableError(self.path, line, ".".join(parts), message)


def _check_file(raw: Mapping[str, Any], text: str, path: str, *, complete: bool) -> None:
    c = _Checker(text, path)
    for key in raw:
        if key not in _TOP_KEYS:
            raise c.fail((key,), f"is not a price table key; known: {', '.join(_TOP_KEYS)}")
    for key in ("currency", "as_of", "source") if complete else ():
        if key not in raw:
            raise c.fail((key,), "is required")
    if "currency" in raw and not (
        isinstance(raw["currency"], str) and _CURRENCY.fullmatch(raw["currency"])
    ):
        raise c.fail(("currency",), "must be a three-letter currency code such as USD")
    if "as_of" in raw:
        as_of = _as_of_text(raw["as_of"])
        if not _AS_OF.fullmatch(as_of):
            raise c.fail(("as_of",), "must be a date such as 2026-10 or 2026-10-01")
    if "source" in raw and not (isinstance(raw["source"], str) and raw["source"].strip()):
        raise c.fail(("source",), "must be a text saying where the prices come from")
    models = raw.get("models", {})
    if not isinstance(models, dict):
        raise c.fail(("models",), "must be a table of models")
    if complete and not models:
        raise c.fail(("models",), "lists no model")
    for name, entry in models.items():
        _check_model(c, name, entry, complete=complete)


def _check_model(c: _Checker, name: str, entry: Any, *, complete: bool) -> None:
    at = ("models", name)
    if not isinstance(entry, dict):
        raise c.fail(at, 'must be a table (e.g. [models."image-01"])')
    for key in entry:
        if key not in _MODEL_KEYS:
            raise c.fail((*at, key), f"is not a price field; known: {', '.join(_MODEL_KEYS)}")
    if "kind" in entry and entry["kind"] not in KINDS:
        raise c.fail((*at, "kind"), f"must be one of {', '.join(KINDS)}")
    schemes = [s for s in SCHEMES if s in entry]
    if len(schemes) > 1:
        raise c.fail(
            (*at, schemes[1]), f"a model has one billing scheme; {schemes[0]} is stated too"
        )
    if complete and not schemes:
        raise c.fail(at, f"states no price: give one of {', '.join(SCHEMES)}")
    if complete and "kind" not in entry:
        raise c.fail((*at, "kind"), "is required")
    if "per_second" in entry:
        rates = entry["per_second"]
        if not isinstance(rates, dict) or not rates:
            raise c.fail((*at, "per_second"), 'must map resolutions to rates: { "768P" = 0.08 }')
        for res, rate in rates.items():
            _resolution(c, (*at, "per_second", res))
            _amount(c, (*at, "per_second", res), rate)
    if "per_clip" in entry:
        clips = entry["per_clip"]
        if not isinstance(clips, dict) or not clips:
            raise c.fail((*at, "per_clip"), 'must map resolutions to clips: "768P" = { 6 = 0.28 }')
        for res, by_seconds in clips.items():
            _resolution(c, (*at, "per_clip", res))
            if not isinstance(by_seconds, dict) or not by_seconds:
                raise c.fail((*at, "per_clip", res), "must map seconds to a price: { 6 = 0.28 }")
            for sec, price in by_seconds.items():
                if not _SECONDS.fullmatch(sec):
                    raise c.fail((*at, "per_clip", res, sec), "must be a whole number of seconds")
                _amount(c, (*at, "per_clip", res, sec), price)
    if "per_image" in entry:
        _amount(c, (*at, "per_image"), entry["per_image"])
    for scheme in ("per_song", "per_character", "per_voice"):
        if scheme in entry:
            _amount(c, (*at, scheme), entry[scheme])
    if "source" in entry and not (isinstance(entry["source"], str) and entry["source"].strip()):
        raise c.fail((*at, "source"), "must be a text saying where this price comes from")
    if "per_token" in entry:
        rates = entry["per_token"]
        if not isinstance(rates, dict) or set(rates) != set(TOKEN_PARTS):
            raise c.fail(
                (*at, "per_token"), "must be { input = P, output = P } (per million tokens)"
            )
        for part, rate in rates.items():
            _amount(c, (*at, "per_token", part), rate)
    if "input_images" in entry:
        extra = entry["input_images"]
        where = (*at, "input_images")
        if not isinstance(extra, dict):
            raise c.fail(where, "must be { free = N, each = price }")
        for key in extra:
            if key not in ("free", "each"):
                raise c.fail((*where, key), "is not a field of input_images; known: free, each")
        free = extra.get("free")
        if isinstance(free, bool) or not isinstance(free, int) or free < 0:
            raise c.fail((*where, "free"), "must be a whole number of free images (0 or more)")
        if "each" not in extra:
            raise c.fail((*where, "each"), "is required")
        _amount(c, (*where, "each"), extra["each"])
    if "reference_video" in entry and entry["reference_video"] != OUTPUT_RATE:
        _amount(c, (*at, "reference_video"), entry["reference_video"], also=f'"{OUTPUT_RATE}", ')
    if "reference_audio" in entry:
        _amount(c, (*at, "reference_audio"), entry["reference_audio"])


def _resolution(c: _Checker, parts: tuple[str, ...]) -> None:
    if not _RESOLUTION.fullmatch(parts[-1]):
        raise c.fail(parts, "is not a resolution such as 768P, 1080P or 2K")


def _amount(c: _Checker, parts: tuple[str, ...], value: Any, also: str = "") -> None:
    if value == UNKNOWN:
        return
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise c.fail(parts, f'must be an amount (e.g. 0.08), {also}or "{UNKNOWN}"; got {value!r}')
    amount = Decimal(value)
    if not amount.is_finite():
        raise c.fail(parts, "must be a finite amount")
    if amount < 0:
        raise c.fail(parts, "must not be negative")
    if amount > MAX_MONEY:
        raise c.fail(parts, f"must be at most {MAX_MONEY:,}")


# -- building ------------------------------------------------------------------------------


def _money(value: Any) -> Money:
    return None if value == UNKNOWN else Decimal(value)


def _reference_video(value: Any) -> Money | Literal["output_rate"]:
    if value == OUTPUT_RATE:
        return "output_rate"
    return None if value is None else _money(value)


def _build(
    raw: Mapping[str, Any], text: str, path: str, overridden: Mapping[str, Any] | None = None
) -> PriceTable:
    c = _Checker(text, path)
    models: dict[str, ModelPrices] = {}
    for name, entry in raw["models"].items():
        at = ("models", name)
        schemes = [s for s in SCHEMES if s in entry]
        if "kind" not in entry:
            raise c.fail((*at, "kind"), "is required for a model the shipped table does not list")
        if not schemes:
            raise c.fail(at, f"states no price: give one of {', '.join(SCHEMES)}")
        kind: Kind = entry["kind"]
        scheme = schemes[0]
        allowed = KIND_SCHEMES[kind]
        if scheme not in allowed:
            where = (
                (*at, scheme)
                if overridden is None or scheme in overridden.get(name, {})
                else (*at, "kind")
            )
            raise c.fail(
                where,
                f"a{'n' if kind == 'image' else ''} {kind} model cannot be "
                f"priced {scheme.replace('_', ' ')}",
            )
        extra = entry.get("input_images")
        video = entry.get("reference_video")
        models[name] = ModelPrices(
            model=name,
            kind=kind,
            scheme=scheme,
            per_second={res: _money(v) for res, v in entry.get("per_second", {}).items()},
            per_clip={
                (res, int(sec)): _money(v)
                for res, clips in entry.get("per_clip", {}).items()
                for sec, v in clips.items()
            },
            per_image=_money(entry["per_image"]) if "per_image" in entry else None,
            input_images=InputImages(extra["free"], _money(extra["each"])) if extra else None,
            reference_video=_reference_video(video),
            reference_audio=(
                _money(entry["reference_audio"]) if "reference_audio" in entry else None
            ),
            per_token={part: _money(v) for part, v in entry.get("per_token", {}).items()},
            per_song=_money(entry["per_song"]) if "per_song" in entry else None,
            per_character=_money(entry["per_character"]) if "per_character" in entry else None,
            per_voice=_money(entry["per_voice"]) if "per_voice" in entry else None,
            source=entry.get("source"),
        )
    return PriceTable(
        currency=raw["currency"],
        as_of=_as_of_text(raw["as_of"]),
        source=raw["source"],
        models=models,
    )


# -- where a key is written ----------------------------------------------------------------

_KEY_PART = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+))\s*')


def _key_path(text: str) -> tuple[tuple[str, ...], int] | None:
    """A dotted TOML key at the start of ``text``: its parts and where it ends."""
    parts: list[str] = []
    pos = 0
    while True:
        m = _KEY_PART.match(text, pos)
        if not m or m.end() == pos:
            return None
        basic, literal, bare = m.groups()
        parts.append(
            _unescape(basic) if basic is not None else literal if literal is not None else bare
        )
        pos = m.end()
        if pos < len(text) and text[pos] == ".":
            pos += 1
            continue
        return tuple(parts), pos


def _unescape(basic: str) -> str:
    if "\\" not in basic:
        return basic
    try:
        return str(json.loads(f'"{basic}"'))
    except ValueError:
        return basic


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Where each table header and key is written (1-based lines), for error messages.

    Keys inside an inline table share their parent's line (TOML keeps inline tables on one
    line), so the longest known prefix of a field's path finds its line."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if in_string is not None:
            if stripped.count(in_string) % 2 == 1:
                in_string = None
            continue
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("[") and not stripped.startswith("[["):
            found = _key_path(stripped[1:])
            if found:
                table = found[0]
                lines.setdefault(table, number)
            continue
        found = _key_path(stripped)
        if found and found[1] < len(stripped) and stripped[found[1]] == "=":
            lines.setdefault(table + found[0], number)
            rest = stripped[found[1] + 1 :]
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2 == 1:
                    in_string = quote
    return lines


# -- prices a designer gives ---------------------------------------------------------------


@dataclass(frozen=True)
class GivenPrice:
    """A price a user gave a model over the table: the whole of a one-amount scheme
    (``part`` empty: per image, per song, per million characters, per voice), one resolution of a
    per-second model, one clip (``768P/6``) of a per-clip one, or one token direction."""

    model: str
    part: str
    amount: Decimal
    set_at: float


def price_part(
    entry: ModelPrices,
    resolution: str | None = None,
    duration: int | None = None,
    tokens: str | None = None,
) -> str:
    """Which part of ``entry``'s price a given amount sets, from what the user named; a
    ``ValidationError`` naming the field when it does not fit the model's scheme."""
    scheme = entry.scheme
    if scheme in ONE_AMOUNT:
        for name, value in (("resolution", resolution), ("duration", duration), ("tokens", tokens)):
            if value is not None:
                raise ValidationError(name, f"{entry.model} has one price ({scheme}); no {name}")
        return ""
    if scheme == "per_token":
        if tokens not in TOKEN_PARTS:
            raise ValidationError(
                "tokens", f"{entry.model} is priced by tokens: name input or output"
            )
        return str(tokens)
    if resolution is None or not _RESOLUTION.fullmatch(resolution):
        raise ValidationError(
            "resolution", f"{entry.model} is priced per resolution: name one (768P)"
        )
    if scheme == "per_second":
        if duration is not None:
            raise ValidationError("duration", f"{entry.model} is priced per second; no duration")
        return resolution
    if duration is None or not 1 <= duration <= 999:
        raise ValidationError("duration", f"{entry.model} is priced per clip: name its seconds (6)")
    return f"{resolution}/{duration}"


def part_named(scheme: str, part: str) -> dict[str, Any]:
    """The options that name ``part`` of a price of ``scheme`` (the inverse of
    :func:`price_part`): ``768P/6`` → resolution and duration, ``input`` → tokens."""
    if not part:
        return {}
    if scheme == "per_token":
        return {"tokens": part}
    if scheme == "per_clip":
        resolution, _, seconds = part.partition("/")
        return {"resolution": resolution, "duration": int(seconds)}
    return {"resolution": part}


def with_given_prices(table: PriceTable, given: Sequence[GivenPrice]) -> PriceTable:
    """``table`` with the prices a user gave in place of the table's (a model or a part the
    table does not know is left out); each such model's source says it is the user's."""
    models = dict(table.models)
    for price in given:
        entry = models.get(price.model)
        if entry is None:
            continue
        day = time.strftime("%Y-%m-%d", time.gmtime(price.set_at))
        source = f"{GIVEN_SOURCE}, set {day}"
        part, amount = price.part, price.amount
        if entry.scheme == "per_image" and not part:
            entry = replace(entry, per_image=amount, source=source)
        elif entry.scheme == "per_song" and not part:
            entry = replace(entry, per_song=amount, source=source)
        elif entry.scheme == "per_character" and not part:
            entry = replace(entry, per_character=amount, source=source)
        elif entry.scheme == "per_voice" and not part:
            entry = replace(entry, per_voice=amount, source=source)
        elif entry.scheme == "per_token" and part in TOKEN_PARTS:
            entry = replace(entry, per_token={**entry.per_token, part: amount}, source=source)
        elif entry.scheme == "per_second" and part and "/" not in part:
            entry = replace(entry, per_second={**entry.per_second, part: amount}, source=source)
        elif entry.scheme == "per_clip" and "/" in part:
            res, _, sec = part.partition("/")
            clips = {**entry.per_clip, (res, int(sec)): amount}
            entry = replace(entry, per_clip=clips, source=source)
        else:
            continue
        models[price.model] = entry
    return replace(table, models=models)


#: How the source of a price the user gave begins (:func:`with_given_prices`).
GIVEN_SOURCE = "your price"


def has_given_prices(table: PriceTable) -> bool:
    """Whether any price of ``table`` is one the user gave."""
    return any((m.source or "").startswith(GIVEN_SOURCE) for m in table.models.values())


def confidence(table: PriceTable, entry: ModelPrices) -> str:
    """Where a model's price comes from, in one word: ``yours`` (given by the user),
    ``secondary`` (not MiniMax's own word: shown as "about"), or ``official``."""
    source = (entry.source or table.source or "").lower()
    if source.startswith(GIVEN_SOURCE):
        return "yours"
    if "secondary" in source or "gateway" in source or "not on minimax" in source:
        return "secondary"
    return "official"
