"""What a create costs: estimates before it, reported figures after it, spend totals and budgets.

- :func:`estimate` prices the normalized, fingerprinted parameters with a
  :class:`~app.domain.prices.PriceTable` (stored at claim time);
- :func:`reported` prices what the provider reported (V2 ``usage``, image ``success_count``)
  with the same table;
- :func:`charge` decides what one slot counts for in spend: the reported figure where one
  arrived, nothing for a generation the provider documents as not billed, else its estimate
  (so an unknown create counts at its estimate until resolved);
- :func:`spend` sums slots into a total and groups (day, project, model), where an unknown
  price never sums as 0;
- :func:`check_budget` is the daily budget rule the claim applies next to the quota.

Amounts are exact :class:`~decimal.Decimal` values; ``None`` means unknown. :func:`money_json`
renders an amount for JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from enum import Enum
from typing import Any, Literal

from app.domain.derived import REGENERATION_PRICE_KEY, is_regeneration
from app.domain.enhance import PRICE_KEY as ENHANCE_PRICE_KEY
from app.domain.enhance import is_enhancement
from app.domain.prices import (
    CHARACTERS_PER_PRICE,
    MAX_MONEY,
    TOKEN_PARTS,
    TOKENS_PER_PRICE,
    ModelPrices,
    Money,
    PriceTable,
)

JSON_PLACES = Decimal("0.0001")
#: A cent: money is shown to people in cents (DESIGN.md "budget").
CENT = Decimal("0.01")
CURRENCY_SIGNS = {"USD": "$"}

#: States in which the provider documents that nothing is billed: a failed or safety-blocked
#: generation, a create refused before a task existed, a queued task cancelled (V2).
NOT_CHARGED_STATES = frozenset({"fail", "rejected", "cancelled"})

#: V2 content item types, and where a clip's length in seconds may be kept in an item
#: (the local probe of a reference video or audio clip). One place to adjust for the V2 shape.
V2_IMAGE, V2_VIDEO, V2_AUDIO = "image_url", "video_url", "audio_url"
CLIP_SECONDS_KEYS = ("seconds", "duration")


# -- money ---------------------------------------------------------------------------------


def money_json(amount: Money) -> float | None:
    """An amount for JSON: a number rounded to 4 decimal places, or null when unknown (also
    for a figure no JSON number can carry: reads never break on a stored figure)."""
    if amount is None or not amount.is_finite():
        return None
    digits = max(28, amount.adjusted() + 8)  # enough for any amount: quantize never overflows
    if digits > 300:
        return None
    rounded = amount.quantize(JSON_PLACES, rounding=ROUND_HALF_UP, context=Context(prec=digits))
    return float(rounded)


class ReportOutOfRange(ValueError):
    """A provider figure (or the amount it prices to) outside the sane range: kept raw in the
    history, flagged on the task, never priced (docs/DECISIONS.md)."""

    def __init__(self, what: str, value: object) -> None:
        super().__init__(f"{what} {value!s:.40} is out of range")
        self.what = what
        self.value = value


#: The largest count or number of seconds a provider may report for one task (seconds of
#: video, images, tokens); anything larger is out of range, not a bill.
MAX_REPORTED = Decimal(10**9)


def _check_report(usage: Mapping[str, Any]) -> None:
    for name, value in usage.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float, str, Decimal)):
            got = _number(value)
            if got is not None and got > MAX_REPORTED:
                raise ReportOutOfRange(str(name), value)


def _bounded(amount: Money) -> Money:
    if amount is not None and amount > MAX_MONEY:
        raise ReportOutOfRange("the priced report", amount)
    return amount


def format_money(amount: Money, currency: str) -> str:
    """An amount as a person reads it, in cents: ``$0.48``, ``$3.06`` (not ``$3.0637621``),
    ``< $0.01`` for a charge below a cent, ``0.48 CNY``; ``unknown`` for an unknown amount.
    JSON keeps amounts unrounded (:func:`money_json`); a rate keeps its own digits
    (:func:`format_rate`)."""
    if amount is None:
        return "unknown"
    sign = CURRENCY_SIGNS.get(currency)
    if 0 < amount < CENT:
        return f"< {sign}0.01" if sign else f"< 0.01 {currency}"
    text = f"{amount.quantize(CENT, rounding=ROUND_HALF_UP):f}"
    return f"{sign}{text}" if sign else f"{text} {currency}"


def format_rate(rate: Money, currency: str) -> str:
    """A price per unit as the table gives it (``$0.0035`` an image, ``$0.074`` an extra
    image): at least cents, never cut below the table's own digits."""
    if rate is None:
        return "unknown"
    text = f"{rate.normalize():f}"
    whole, _, frac = text.partition(".")
    text = f"{whole}.{frac.ljust(2, '0')}"
    sign = CURRENCY_SIGNS.get(currency)
    return f"{sign}{text}" if sign else f"{text} {currency}"


def _number(value: object) -> Decimal | None:
    """A count or a number of seconds as the provider sends it (int, float or string)."""
    if value is None or isinstance(value, bool):
        return None
    try:
        out = Decimal(value.strip() if isinstance(value, str) else str(value))
    except (InvalidOperation, ValueError):
        return None
    return out if out.is_finite() and out >= 0 else None


# -- the cost of one create ----------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """A task's cost: ``estimate`` from the price table × parameters before the create,
    ``reported`` priced from what the provider reported; ``None`` where unknown."""

    estimate: Money
    currency: str
    basis: str
    reported: Money = None
    #: The price table's entry this was priced by (a model, or a derived kind's key), where
    #: known: what a price must be given to when it is unknown. Not stored.
    model: str | None = field(default=None, compare=False)

    def with_reported(self, amount: Money) -> Cost:
        return replace(self, reported=amount)

    def to_record(self) -> dict[str, Any]:
        """For the store: the same keys with amounts as exact decimal text (``"0.48"``)."""
        return {
            "estimate": None if self.estimate is None else str(self.estimate),
            "currency": self.currency,
            "basis": self.basis,
            "reported": None if self.reported is None else str(self.reported),
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Cost:
        def amount(value: object) -> Money:
            return None if value is None else Decimal(str(value))

        return cls(
            amount(record.get("estimate")),
            str(record["currency"]),
            str(record.get("basis") or ""),
            amount(record.get("reported")),
        )

    def to_json(self) -> dict[str, Any]:
        """``{"estimate", "currency", "basis", "reported"}`` as in DESIGN.md's task JSON."""
        return {
            "estimate": money_json(self.estimate),
            "currency": self.currency,
            "basis": self.basis,
            "reported": money_json(self.reported),
        }


@dataclass(frozen=True)
class _Part:
    """One priced line of a basis: ``quantity`` × ``rate`` (``None`` rate: unknown)."""

    quantity: Decimal | None  # None: not known (e.g. a clip of unknown length)
    rate: Money
    text: str

    @property
    def amount(self) -> Money:
        if self.quantity == 0:
            return Decimal(0)  # nothing of an unknown price costs nothing
        if self.quantity is None or self.rate is None:
            return None
        return self.quantity * self.rate


def _total(parts: Sequence[_Part]) -> Money:
    amounts = [p.amount for p in parts]
    if any(a is None for a in amounts):
        return None
    return sum((a for a in amounts if a is not None), Decimal(0))


def _basis(head: str, parts: Sequence[_Part], currency: str) -> str:
    shown = [p.text for p in parts if p.quantity != 0]
    text = f"{head} " + " + ".join(shown) if head else " + ".join(shown)
    total = _total(parts)
    if len(shown) > 1 and total is not None:
        text += f" = {format_money(total, currency)}"
    return text


def _plural(n: Decimal | int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _seconds_text(n: Decimal) -> str:
    return f"{n.normalize():f} s"


def _rate_text(rate: Money, currency: str, unit: str = "") -> str:
    return "unknown price" if rate is None else f"{format_rate(rate, currency)}{unit}"


@dataclass(frozen=True)
class V2Inputs:
    """What a V2 create sends that is billed beside its output: input images (frames and
    references) and the seconds of reference video and audio (``None``: a length not known)."""

    images: int
    videos: int
    video_seconds: Decimal | None
    audios: int
    audio_seconds: Decimal | None


def v2_inputs(params: Mapping[str, Any]) -> V2Inputs:
    """Count the billed inputs of normalized V2 params (``content`` items with ``type``/``role``).

    A clip's length comes from the item's ``seconds`` (or ``duration``); without it that clip's
    seconds are unknown, and so is any price that depends on them."""
    items = [i for i in params.get("content") or () if isinstance(i, Mapping)]

    def clip_seconds(kind: str) -> tuple[int, Decimal | None]:
        clips = [i for i in items if i.get("type") == kind]
        total: Decimal | None = Decimal(0)
        for item in clips:
            found = next((_number(item[k]) for k in CLIP_SECONDS_KEYS if k in item), None)
            total = None if total is None or found is None else total + found
        return len(clips), total

    videos, video_seconds = clip_seconds(V2_VIDEO)
    audios, audio_seconds = clip_seconds(V2_AUDIO)
    images = sum(1 for i in items if i.get("type") == V2_IMAGE)
    return V2Inputs(images, videos, video_seconds, audios, audio_seconds)


def _per_second_parts(
    entry: ModelPrices,
    resolution: str | None,
    output_seconds: Decimal | None,
    images: Decimal | None,
    video_seconds: Decimal | None,
    audio_seconds: Decimal | None,
    currency: str,
) -> list[_Part]:
    rate = entry.per_second.get(resolution) if resolution is not None else None
    out_q = "?" if output_seconds is None else _seconds_text(output_seconds)
    parts = [_Part(output_seconds, rate, f"{out_q} × {_rate_text(rate, currency, '/s')}")]
    extra = entry.input_images
    if images != 0:
        if extra is None:
            q = "input images" if images is None else _plural(images, "input image")
            parts.append(_Part(images, Decimal(0), f"{q} (included)"))
        else:
            beyond = None if images is None else max(Decimal(0), images - extra.free)
            q = "?" if beyond is None else str(beyond)
            parts.append(
                _Part(
                    beyond,
                    extra.each,
                    f"{q} input image{'' if beyond == 1 else 's'} beyond {extra.free} × "
                    f"{_rate_text(extra.each, currency)}",
                )
            )
    if video_seconds != 0:
        ref = entry.reference_video
        video_rate = rate if isinstance(ref, str) else ref  # "output_rate": billed as output
        q = (
            "reference video of unknown length"
            if video_seconds is None
            else (f"{_seconds_text(video_seconds)} reference video")
        )
        parts.append(
            _Part(video_seconds, video_rate, f"{q} × {_rate_text(video_rate, currency, '/s')}")
        )
    if audio_seconds != 0:
        q = (
            "reference audio of unknown length"
            if audio_seconds is None
            else (f"{_seconds_text(audio_seconds)} reference audio")
        )
        audio = entry.reference_audio
        text = f"{q} (free)" if audio == 0 else f"{q} × {_rate_text(audio, currency, '/s')}"
        parts.append(_Part(audio_seconds, audio, text))
    return parts


def price_key(params: Mapping[str, Any]) -> str:
    """The price table entry of a create: its model, except a 2K regeneration, which MiniMax
    prices on its own (:data:`app.domain.derived.REGENERATION_PRICE_KEY`)."""
    if is_regeneration(params):
        return REGENERATION_PRICE_KEY
    if is_enhancement(params):
        return ENHANCE_PRICE_KEY
    return str(params.get("model") or "")


def estimate(kind: str, params: Mapping[str, Any], table: PriceTable) -> Cost:
    """The cost of one create from its normalized parameters, before anything is sent (with
    the price table's entry it was priced by)."""
    return replace(_estimate(kind, params, table), model=price_key(params) or None)


def _estimate(kind: str, params: Mapping[str, Any], table: PriceTable) -> Cost:
    currency = table.currency
    model = price_key(params)
    entry = table.get(model)
    if entry is None or entry.kind != kind:
        return Cost(None, currency, f"{model or kind}: not in the price table")
    if entry.scheme == "per_image":
        n = _number(params.get("n"))
        count = Decimal(1) if n is None else n
        part = _Part(count, entry.per_image, "")
        basis = f"{model} {_plural(count, 'image')} × {_rate_text(entry.per_image, currency)}"
        if count != 1 and part.amount is not None:
            basis += f" = {format_money(part.amount, currency)}"
        return Cost(part.amount, currency, basis)
    if entry.scheme in ("per_song", "per_character"):
        return sound_estimate(entry, params, currency)
    if entry.scheme == "per_voice":
        return voice_estimate(entry, currency)
    if entry.scheme == "per_token":
        return Cost(
            None,
            currency,
            f"{model}: priced by tokens, and no rule gives the tokens before the answer (no "
            "tokens-per-image rule is published): the cost is unknown until the answer reports "
            "its usage",
        )
    resolution = params.get("resolution")
    duration = params.get("duration")
    seconds = duration if isinstance(duration, int) and not isinstance(duration, bool) else None
    if entry.scheme == "per_clip":
        key = entry.clip_key(resolution, seconds)
        if key is None:
            return Cost(None, currency, f"{model} {resolution} {seconds} s: not in the price table")
        price = entry.per_clip[key]
        text = "price unknown" if price is None else f"{format_rate(price, currency)} a clip"
        return Cost(price, currency, f"{model} {key[0]} {key[1]} s: {text}")
    inputs = v2_inputs(params)
    parts = _per_second_parts(
        entry,
        resolution,
        None if seconds is None else Decimal(seconds),
        Decimal(inputs.images),
        inputs.video_seconds,
        inputs.audio_seconds,
        currency,
    )
    return Cost(_total(parts), currency, _basis(f"{model} {resolution}", parts, currency))


def reported(
    kind: str, params: Mapping[str, Any], usage: Mapping[str, Any] | None, table: PriceTable
) -> Money:
    """The provider's report priced with the table; ``None`` when nothing usable was reported
    or the price is unknown.

    ``usage``: V2 ``usage`` (``output_seconds``, ``input_seconds`` = reference video seconds,
    ``input_image_count``, ``input_audio_seconds``; counts it leaves out are taken from the
    parameters), or counts: ``success_count`` for images (blocked images, ``failed_count``, are
    free) and for a V1 video (1 when the provider said it succeeded, as V1 reports no usage).

    Raises :class:`ReportOutOfRange` for a figure above :data:`MAX_REPORTED` or an amount above
    :data:`~app.domain.prices.MAX_MONEY`."""
    if not usage:
        return None
    _check_report(usage)
    return _bounded(_reported(kind, params, usage, table))


def _reported(
    kind: str, params: Mapping[str, Any], usage: Mapping[str, Any], table: PriceTable
) -> Money:
    model = price_key(params)
    entry = table.get(model)
    if entry is None or entry.kind != kind:
        return None
    if entry.scheme == "per_image":
        count = _number(usage.get("success_count"))
        return None if count is None else _Part(count, entry.per_image, "").amount
    if entry.scheme == "per_token":
        return token_cost(entry.per_token, usage)
    if entry.scheme == "per_song":
        count = _number(usage.get("success_count"))
        return None if count is None else _Part(count, entry.per_song, "").amount
    if entry.scheme == "per_voice":
        count = _number(usage.get("success_count"))
        return None if count is None else _Part(count, entry.per_voice, "").amount
    if entry.scheme == "per_character":
        chars = _number(usage.get("usage_characters"))
        if chars is None or entry.per_character is None:
            return None
        return chars * entry.per_character / CHARACTERS_PER_PRICE
    if entry.scheme == "per_clip":
        count = _number(usage.get("success_count"))
        if count is None:
            return None
        duration = params.get("duration")
        seconds = duration if isinstance(duration, int) and not isinstance(duration, bool) else None
        key = entry.clip_key(params.get("resolution"), seconds)
        return _Part(count, entry.per_clip[key] if key else None, "").amount
    output = _number(usage.get("output_seconds"))
    if output is None:
        return None
    sent = v2_inputs(params)

    def counted(name: str, fallback: Decimal | int | None) -> Decimal | None:
        value = _number(usage.get(name))
        if value is not None:
            return value
        return None if fallback is None else Decimal(fallback)

    parts = _per_second_parts(
        entry,
        params.get("resolution"),
        output,
        counted("input_image_count", sent.images),
        counted("input_seconds", sent.video_seconds),
        counted("input_audio_seconds", sent.audio_seconds),
        table.currency,
    )
    return _total(parts)


def sound_estimate(entry: ModelPrices, params: Mapping[str, Any], currency: str) -> Cost:
    """Music: one song at its price; speech: the text's code points at the price per million
    characters (kept unrounded: 44 characters of HD speech are 0.0044). The basis names the
    price's source."""
    source = f" (source: {entry.source})" if entry.source else ""
    if entry.scheme == "per_song":
        text = (
            "price unknown"
            if entry.per_song is None
            else (f"{format_rate(entry.per_song, currency)} a song")
        )
        return Cost(entry.per_song, currency, f"{entry.model} 1 song: {text}{source}")
    spoken = params.get("text")
    chars = len(spoken) if isinstance(spoken, str) else 0
    rate = entry.per_character
    if rate is None:
        return Cost(
            None,
            currency,
            f"{entry.model} {_plural(Decimal(chars), 'character')}: price unknown{source}",
        )
    amount = Decimal(chars) * rate / CHARACTERS_PER_PRICE
    return Cost(
        amount,
        currency,
        f"{entry.model} {_plural(Decimal(chars), 'character')} × "
        f"{format_rate(rate, currency)} per million characters{source}",
    )


def voice_estimate(entry: ModelPrices, currency: str) -> Cost:
    """Voice design: one designed voice at its price, whatever the description and preview
    text say (MiniMax bills the voice, on its first use); unknown where the table has none,
    never 0. The basis names the price's source."""
    source = f" (source: {entry.source})" if entry.source else ""
    rate = entry.per_voice
    text = "price unknown" if rate is None else f"{format_rate(rate, currency)} a voice"
    return Cost(rate, currency, f"{entry.model} 1 voice: {text}{source}")


def token_cost(rates: Mapping[str, Money], usage: Mapping[str, Any]) -> Money:
    """Tokens reported (``input_tokens``, ``output_tokens``) × the rates per million; None when
    a count or a rate is missing (never a smaller sum)."""
    total = Decimal(0)
    for part in TOKEN_PARTS:
        count = _number(usage.get(f"{part}_tokens"))
        rate = rates.get(part)
        if count is None or rate is None:
            return None
        total += count * rate / TOKENS_PER_PRICE
    return total


def usage_of(
    kind: str, results: Mapping[str, Any] | None, provider_success: bool
) -> Mapping[str, Any] | None:
    """What the provider reported for one task, from its stored results, in the shape
    :func:`reported` takes: V2 ``results["usage"]``; images ``results["success_count"]``; a video
    the provider said succeeded without a usage report (V1) is one clip. None: nothing reported
    (yet) — e.g. a task still running, or one the provider said failed."""
    if results:
        usage = results.get("usage")
        if isinstance(usage, Mapping) and usage:
            return usage
        if results.get("success_count") is not None:
            return {"success_count": results["success_count"]}
    if provider_success and kind == "video":
        return {"success_count": 1}
    return None


def sum_costs(costs: Iterable[Cost], currency: str) -> Cost:
    """The cost of several creates (a batch's total): ``estimate`` is null when any is unknown,
    and the basis says how many were priced. Costs in another currency count as unknown."""
    known, unknown, count = Decimal(0), 0, 0
    for cost in costs:
        count += 1
        if cost.estimate is None or cost.currency != currency:
            unknown += 1
        else:
            known += cost.estimate
    basis = f"{_plural(count, 'create')}"
    if unknown:
        basis += f", {unknown} of unknown price (the others {format_money(known, currency)})"
    return Cost(None if unknown else known, currency, basis)


# -- what a slot counts for ----------------------------------------------------------------


@dataclass(frozen=True)
class SlotCost:
    """One slot as spend sees it (the store's read side builds these).

    ``day``: the local calendar day (``YYYY-MM-DD``) the slot was claimed. ``reported``: the
    priced report, when the provider reported one. ``declared_failed``: the user declared an
    unknown create failed, accepting that a charge may exist — it keeps counting its estimate.
    """

    request_id: str
    model: str
    day: str
    state: str
    estimate: Money
    reported: Money = None
    declared_failed: bool = False
    project: str | None = None
    #: The provider reported the generation done (``Success``/``succeeded``): it billed it,
    #: whatever happened locally afterwards (no media, a download that failed verification).
    billed: bool = False


def charge(slot: SlotCost) -> Money:
    """What the slot counts for (:func:`charge_of` of its facts)."""
    return charge_of(
        slot.state,
        slot.estimate,
        slot.reported,
        billed=slot.billed,
        declared_failed=slot.declared_failed,
    )


def charge_of(
    state: str, estimate: Money, reported: Money, *, billed: bool, declared_failed: bool
) -> Money:
    """What a slot counts for: the reported figure where one arrived; the estimate where the
    provider reported the generation done without a usable report (it billed it, whatever
    happened locally afterwards); 0 where the provider documents no charge (failed, rejected,
    cancelled); else its estimate (in flight, unknown, declared failed). The facts as
    :class:`SlotCost` names them; a task's view asks without building one."""
    if reported is not None:
        return reported
    if billed:
        return estimate
    if str(state) in NOT_CHARGED_STATES and not declared_failed:
        return Decimal(0)
    return estimate


GroupBy = Literal["day", "project", "model"]
GROUP_BY: tuple[GroupBy, ...] = ("day", "project", "model")


@dataclass(frozen=True)
class SpendTotal:
    """A sum of slots. ``estimate`` is null when any slot's charge is unknown (then
    ``known_estimate`` sums the rest and ``unknown_slots`` says how many are missing);
    ``reported`` is null when no slot has a reported figure."""

    slots: int = 0
    estimate: Money = Decimal(0)
    known_estimate: Decimal = Decimal(0)
    unknown_slots: int = 0
    reported: Money = None
    reported_slots: int = 0
    not_charged_slots: int = 0

    def add(self, slot: SlotCost, count: int = 1) -> SpendTotal:
        """This total with ``count`` slots like ``slot`` added (the store counts alike slots
        in SQL and hands them over once, with their number)."""
        amount = charge(slot)
        unknown = self.unknown_slots + (count if amount is None else 0)
        known = self.known_estimate + (amount or 0) * count
        reported = self.reported
        if slot.reported is not None:
            reported = (reported or Decimal(0)) + slot.reported * count
        not_charged = (
            slot.reported is None
            and not slot.billed
            and str(slot.state) in NOT_CHARGED_STATES
            and not slot.declared_failed
        )
        return SpendTotal(
            slots=self.slots + count,
            estimate=None if unknown else known,
            known_estimate=known,
            unknown_slots=unknown,
            reported=reported,
            reported_slots=self.reported_slots + (count if slot.reported is not None else 0),
            not_charged_slots=self.not_charged_slots + (count if not_charged else 0),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "estimate": money_json(self.estimate),
            "reported": money_json(self.reported),
            "slots": self.slots,
            "unknown_slots": self.unknown_slots,
            "known_estimate": money_json(self.known_estimate),
            "reported_slots": self.reported_slots,
            "not_charged_slots": self.not_charged_slots,
        }


@dataclass(frozen=True)
class SpendGroup:
    key: str | None
    total: SpendTotal

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, **self.total.to_json()}


@dataclass(frozen=True)
class Spend:
    """Totals and groups of slots' costs, in one currency."""

    currency: str
    total: SpendTotal
    groups: tuple[SpendGroup, ...] = ()
    by: GroupBy | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"currency", "by", "total", "groups"}``; the CLI adds ``"outcome"``."""
        return {
            "currency": self.currency,
            "by": self.by,
            "total": self.total.to_json(),
            "groups": [g.to_json() for g in self.groups],
        }


def _group_key(slot: SlotCost, by: GroupBy) -> str | None:
    if by == "day":
        return slot.day
    if by == "model":
        return slot.model
    return slot.project


def spend(slots: Iterable[SlotCost], currency: str, by: GroupBy | None = None) -> Spend:
    """Sum slots into a total and, with ``by``, groups ordered by key (slots without a project
    last, under the key null)."""
    return spend_counted(((slot, 1) for slot in slots), currency, by)


def spend_counted(
    counted: Iterable[tuple[SlotCost, int]], currency: str, by: GroupBy | None = None
) -> Spend:
    """:func:`spend` over ``(slot, count)`` pairs: ``count`` slots alike in everything spend
    looks at (the store groups them in SQL, so 100,000 slots arrive as a few hundred pairs)."""
    if by is not None and by not in GROUP_BY:
        raise ValueError(f"by must be one of {', '.join(GROUP_BY)}")
    total = SpendTotal()
    groups: dict[str | None, SpendTotal] = {}
    for slot, count in counted:
        if count <= 0:
            continue
        total = total.add(slot, count)
        if by is not None:
            key = _group_key(slot, by)
            groups[key] = groups.get(key, SpendTotal()).add(slot, count)
    ordered = sorted(groups.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))
    return Spend(currency, total, tuple(SpendGroup(k, t) for k, t in ordered), by)


# -- the daily budget ----------------------------------------------------------------------


class BudgetRefusal(str, Enum):
    """Why the daily budget refuses a create (the app words each one; ``reason`` is the CLI's)."""

    PRICE_UNKNOWN = "price_unknown"  # this create's price is unknown: it alone is refused
    OVER = "over"  # today's spend + this create's estimate would exceed the budget
    #: No longer a refusal (DESIGN.md: slots of unknown price never block other creates); kept
    #: so a record or message that names it still reads.
    SPEND_UNKNOWN = "spend_unknown"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class BudgetCheck:
    """The budget's answer for one create: ``allowed``, and why not in ``refusal`` (typed) and
    ``reason`` (the sentence the CLI says). ``spent`` is today's spend that has a price;
    ``unpriced_slots`` today's slots that have none yet (left out until they get one)."""

    allowed: bool
    budget: Decimal
    spent: Money
    estimate: Money
    reason: str | None = None
    refusal: BudgetRefusal | None = None
    unpriced_slots: int = 0
    model: str | None = None  # the model a refused create of unknown price needs a price for

    @property
    def remaining(self) -> Money:
        """What is left of today's budget before this create (never below 0)."""
        return None if self.spent is None else max(Decimal(0), self.budget - self.spent)


#: How a price is given to a model (the CLI's words; the app says Settings → Prices).
SET_PRICE = "slate prices set {model} AMOUNT"


def check_budget(budget: Decimal, today: SpendTotal, cost: Cost) -> BudgetCheck:
    """DESIGN.md's rule: refused when today's spend (unknown creates at their estimate) plus
    this create's estimate would exceed the budget. A create whose own price is unknown is
    refused alone, naming the model and how to give it a price; today's slots of unknown price
    are left out of the spend (they count at the price given later) and never block another
    create."""
    cur = cost.currency
    spent, est = today.known_estimate, cost.estimate
    unpriced = today.unknown_slots
    if est is None:
        model = cost.model
        how = SET_PRICE.format(model=model or "MODEL")
        return BudgetCheck(
            False,
            budget,
            spent,
            est,
            f"the price of this create is unknown ({cost.basis}); with a daily budget set, "
            f"{model or 'its model'} needs a price first: `{how}` (or Settings → Prices)",
            BudgetRefusal.PRICE_UNKNOWN,
            unpriced,
            model,
        )
    if spent + est > budget:
        return BudgetCheck(
            False,
            budget,
            spent,
            est,
            f"today's spend {format_money(spent, cur)} + this create "
            f"{format_money(est, cur)} would exceed the daily budget of "
            f"{format_money(budget, cur)}",
            BudgetRefusal.OVER,
            unpriced,
        )
    return BudgetCheck(True, budget, spent, est, unpriced_slots=unpriced)
