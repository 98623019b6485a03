"""The RequestId naming scheme: ``kind:date:project:scene``, e.g.
``article:20260816:tide-eye:scene-02``.

RequestIds are named from the business, never random. A RequestId of this shape has a series
(the kind of work), a date (``YYYYMMDD``), a project and a scene; RequestIds of another shape
have no project. A new attempt at a scene is suggested with a ``.tN`` suffix
(``scene-02`` → ``scene-02.t2``), and a new scene takes the next free ``scene-NN``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Iterable

from app.domain.errors import Rule, ValidationError
from app.domain.slots import REQUEST_ID_MAX, validate_request_id

_SUFFIX = re.compile(r"^(?P<base>.*?)\.t(?P<n>\d+)$")
_SCENE = re.compile(r"scene-(\d+)(?:\.t\d+)?$")
_SCENE_DIGITS = re.compile(r"\d{1,4}")


@dataclass(frozen=True)
class SlotName:
    """The parts of a RequestId that follows the scheme. ``date`` is the raw ``YYYYMMDD`` text."""

    series: str
    date: str
    project: str
    scene: str


def parse(request_id: str) -> SlotName | None:
    """The parts of a ``series:date:project:scene`` RequestId (the scene may hold ``:``), or
    None."""
    parts = request_id.split(":")
    if len(parts) < 4:
        return None
    return SlotName(parts[0], parts[1], parts[2], ":".join(parts[3:]))


#: A voice's preview (:mod:`app.domain.preview`: ``preview:voice:VOICE:DIGEST``) is named by the
#: voice it hears; every preview belongs to one project, so auditions are kept together, away
#: from the articles, instead of one project per voice.
PREVIEW_PREFIX = "preview:voice:"
PREVIEW_PROJECT = "voice-previews"


def project_of(request_id: str) -> str | None:
    """``article:20260816:tide-eye:scene-02`` → ``tide-eye``; a voice's preview →
    ``voice-previews``; other shapes have no project."""
    if request_id.startswith(PREVIEW_PREFIX):
        return PREVIEW_PROJECT
    name = parse(request_id)
    return name.project if name is not None else None


def prefix(series: str, day: dt.date, project: str) -> str:
    """``series:YYYYMMDD:project:``, the part of a RequestId before its scene."""
    return f"{series}:{day.strftime('%Y%m%d')}:{project}:"


def compose(series: str, day: dt.date, project: str, scene: str) -> str:
    return prefix(series, day, project) + scene


def scene_name(text: str) -> str:
    """What the designer typed as the scene: a bare number ``7`` means ``scene-07``."""
    scene = text.strip()
    if _SCENE_DIGITS.fullmatch(scene):
        scene = f"scene-{int(scene):02d}"
    return scene


def validate_new_request_id(value: object, field: str = "request_id") -> str:
    """The RequestId a new slot is given, unchanged, or raise naming the rule it breaks: the
    RequestId rule (:func:`~app.domain.slots.validate_request_id`) and no empty part between
    its colons — ``article:20261203:budget:`` has no scene, ``a::b`` no project. (A slot
    already named so, e.g. at the command line, keeps its name: this rule is for new names.)"""
    text = validate_request_id(value, field)
    if any(not part for part in text.split(":")):
        raise ValidationError(
            field,
            "has an empty part between its colons; name its project, date and scene",
            Rule.REQUIRED,
        )
    return text


def next_free_scene(prefix: str, taken: Iterable[str]) -> str:
    """The next ``scene-NN`` under ``prefix`` after the highest taken one (attempts ``.tN``
    count as their scene). ``taken``: the RequestIds found under the prefix."""
    highest = 0
    for rid in taken:
        m = _SCENE.fullmatch(rid[len(prefix) :])
        if m:
            highest = max(highest, int(m.group(1)))
    return f"scene-{highest + 1:02d}"


def suggestion_prefix(request_id: str) -> str:
    """The prefix under which the taken attempts of ``request_id`` are looked up."""
    return request_id.rsplit(".t", 1)[0] if ".t" in request_id else request_id


def suggest_next_request_id(request_id: str, taken: "set[str] | None" = None) -> str:
    """``scene-02`` → ``scene-02.t2``; ``scene-02.t2`` → ``scene-02.t3``; skips taken names."""
    taken = taken or set()
    m = _SUFFIX.match(request_id)
    base, n = (m.group("base"), int(m.group("n")) + 1) if m else (request_id, 2)
    while True:
        candidate = f"{base}.t{n}"
        if len(candidate) > REQUEST_ID_MAX:
            candidate = f"{base[: REQUEST_ID_MAX - len(str(n)) - 2]}.t{n}"
        if candidate not in taken:
            return candidate
        n += 1


def export_name(request_id: str, index: int, count: int, suffix: str) -> str:
    """The readable file name of a slot's ``index``-th result (1-based) of ``count``, as export
    writes it and as a result dragged out of the app is named: the RequestId made file-safe
    (``article_20260816_tide-eye_scene-02.mp4``), ``-N`` when the slot has several results."""
    stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in request_id)
    return f"{stem}{suffix}" if count == 1 else f"{stem}-{index}{suffix}"
