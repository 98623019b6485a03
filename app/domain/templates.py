"""Shot-list templates: scenes NN–MM of a project from one prompt, with per-scene edits.

:func:`scene_rows` makes the rows a shot list would hold (:class:`~app.domain.shotlist.ShotRow`,
read through the same conversion as a file, so a template and the file it is saved as mean the
same thing); :func:`app.domain.shotlist.write` saves them as an editable CSV or YAML file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.domain.errors import ValidationError
from app.domain.shotlist import (
    NAMING_COLUMNS,
    OPTION_COLUMNS,
    RowError,
    ShotRow,
    build_row,
)

SCENE_MAX = 9999


@dataclass(frozen=True)
class SceneEdit:
    """What one scene changes: ``prompt`` replaces the base prompt, ``add`` is appended to the
    prompt (after the template's joiner), ``options`` override shot-list options (``duration``,
    ``resolution``, ``first_frame``…) for this scene only."""

    prompt: str | None = None
    add: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


#: The kinds a scene of a template is made as: a picture or a video (a song, a voice line or an
#: enhanced prompt is no scene).
SCENE_KINDS = ("image", "video")


def scene_kind(kind: str | None) -> str:
    """The kind a template's scenes take from the form's: its own if a scene can be one, else
    video (the template's own kind)."""
    return kind if kind in SCENE_KINDS else "video"


def scene_rows(
    *,
    series: str,
    date: str | dt.date,
    project: str,
    first: int,
    last: int,
    kind: str,
    prompt: str,
    options: Mapping[str, Any] | None = None,
    edits: Mapping[int, SceneEdit] | None = None,
    joiner: str = " ",
) -> list[ShotRow]:
    """Rows for scenes ``first``..``last`` (``scene-NN``) of ``series:date:project``, each with
    ``prompt`` and ``options`` and its own :class:`SceneEdit`, if any.

    Raises ValidationError naming the field (and the scene) on any bad value."""
    if isinstance(first, bool) or not isinstance(first, int) or not 1 <= first <= SCENE_MAX:
        raise ValidationError("first", f"must be a scene number from 1 to {SCENE_MAX}")
    if isinstance(last, bool) or not isinstance(last, int) or not first <= last <= SCENE_MAX:
        raise ValidationError("last", f"must be a scene number from {first} to {SCENE_MAX}")
    edits = dict(edits or {})
    outside = sorted(n for n in edits if not first <= n <= last)
    if outside:
        raise ValidationError("edits", f"scene {outside[0]} is outside scenes {first}–{last}")
    for name in options or {}:
        if name not in OPTION_COLUMNS or name == "prompt":
            raise ValidationError(
                name,
                "is not an option a template sets; known: "
                + ", ".join(c for c in OPTION_COLUMNS if c != "prompt"),
            )
    day = date.strftime("%Y%m%d") if isinstance(date, dt.date) else date
    rows: list[ShotRow] = []
    for number, scene in enumerate(range(first, last + 1), start=1):
        edit = edits.get(scene, SceneEdit())
        text = edit.prompt if edit.prompt is not None else prompt
        if edit.add:
            text = f"{text}{joiner}{edit.add}" if text else edit.add
        values: dict[str, Any] = dict(
            zip(NAMING_COLUMNS, (series, day, project, str(scene)), strict=True)
        )
        values.update(kind=kind, prompt=text, **dict(options or {}))
        for name, value in edit.options.items():
            if name not in OPTION_COLUMNS or name == "prompt":
                raise ValidationError(name, f"scene {scene}: is not an option a scene edit sets")
            values[name] = value
        built = build_row(values, {}, number, number)
        if isinstance(built, RowError):
            raise ValidationError(built.field, f"scene {scene}: {built.message}")
        rows.append(built)
    return rows
