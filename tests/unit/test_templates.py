"""Templates: scenes NN–MM of a project from one prompt with per-scene edits, as shot-list rows
that save as an editable CSV/YAML file meaning the same thing."""

from __future__ import annotations

import datetime as dt

import pytest

from app.domain.errors import ValidationError
from app.domain.params import normalize
from app.domain.shotlist import ShotRow, parse, write, write_yaml
from app.domain.templates import SceneEdit, scene_rows

BASE = {
    "series": "article",
    "date": "2026-08-16",
    "project": "tide-eye",
    "kind": "video",
    "prompt": "潮汐之眼，黎明的海面",
    "options": {"model": "MiniMax-Hailuo-2.3", "duration": 6, "resolution": "768P"},
}


def test_scenes_from_one_prompt():
    rows = scene_rows(first=3, last=12, **BASE)
    assert [r.request_id for r in rows] == [
        f"article:20260816:tide-eye:scene-{n:02d}" for n in range(3, 13)
    ]
    assert all(isinstance(r, ShotRow) and r.kind == "video" for r in rows)
    assert {r.params["prompt"] for r in rows} == {"潮汐之眼，黎明的海面"}
    assert rows[0].params == {
        "prompt": "潮汐之眼，黎明的海面",
        "model": "MiniMax-Hailuo-2.3",
        "duration": 6,
        "resolution": "768P",
    }
    assert [r.row for r in rows] == list(range(1, 11))
    for row in rows:
        normalize(row.kind, row.params)  # the rules accept what the template made


def test_per_scene_edits_add_replace_and_override():
    rows = scene_rows(
        first=1,
        last=4,
        joiner="，",
        edits={
            2: SceneEdit(add="[Push in]"),
            3: SceneEdit(prompt="A gull over the sea", options={"duration": 10}),
            4: SceneEdit(prompt="Night", add="stars"),
        },
        **BASE,
    )
    prompts = [r.params["prompt"] for r in rows]
    assert prompts == [
        "潮汐之眼，黎明的海面",
        "潮汐之眼，黎明的海面，[Push in]",
        "A gull over the sea",
        "Night，stars",
    ]
    assert [r.params["duration"] for r in rows] == [6, 6, 10, 6]


def test_a_date_object_and_the_default_joiner():
    rows = scene_rows(
        **{**BASE, "date": dt.date(2026, 8, 16)},
        first=7,
        last=7,
        edits={7: SceneEdit(add="at dusk")},
    )
    assert rows[0].request_id == "article:20260816:tide-eye:scene-07"
    assert rows[0].params["prompt"] == "潮汐之眼，黎明的海面 at dusk"


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"first": 5, "last": 4}, "last", "from 5"),
        ({"first": 0, "last": 4}, "first", "from 1"),
        ({"edits": {13: SceneEdit(add="x")}}, "edits", "scene 13 is outside scenes 1–12"),
        ({"options": {"duration": "ten"}}, "duration", "scene 1: 'ten' is not a whole number"),
        ({"options": {"colour": "red"}}, "colour", "not an option"),
        (
            {"edits": {2: SceneEdit(options={"prompt_optimizer": "maybe"})}},
            "prompt_optimizer",
            "scene 2:",
        ),
        ({"project": "tide eye"}, "project", "scene 1:"),
        ({"kind": "audio"}, "kind", "image, video, music, speech or voice"),
        ({"date": "someday"}, "date", "20260816"),
    ],
)
def test_bad_template_input_names_the_field(change, field, words):
    args = {**BASE, "first": 1, "last": 12, **change}
    with pytest.raises(ValidationError) as caught:
        scene_rows(**args)
    assert caught.value.field == field
    assert words in caught.value.message


@pytest.mark.parametrize("fmt", ["csv", "yaml"])
def test_saved_templates_read_back_as_the_same_rows(fmt):
    rows = scene_rows(
        first=1,
        last=12,
        edits={
            5: SceneEdit(prompt="第五场\n两行", options={"resolution": "1080P"}),
        },
        **BASE,
    )
    back = parse(write(rows, fmt), fmt)
    assert back.errors == ()
    assert [(r.input, r.name) for r in back.rows] == [(r.input, r.name) for r in rows]


def test_the_yaml_file_states_shared_values_once():
    text = write_yaml(
        scene_rows(first=1, last=3, edits={2: SceneEdit(options={"duration": 10})}, **BASE)
    )
    head, rows = text.split("rows:\n")
    assert "project: tide-eye" in head and "model: MiniMax-Hailuo-2.3" in head
    assert "prompt:" in head and "duration" not in head  # scene 2 differs
    assert rows.count("scene: scene-0") == 3 and rows.count("duration:") == 3
