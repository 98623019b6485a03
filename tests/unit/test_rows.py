"""A task read from the store is the dataclass its ``__init__`` would make: every field set,
the state a State, no media yet (``task_row`` skips ``__init__`` for speed)."""

from __future__ import annotations

import dataclasses

import pytest

from app.domain.states import State
from app.store.models import tasks
from app.store.rows import TaskRow, task_of, task_row


def test_task_row_is_what_the_dataclass_makes() -> None:
    stored = {c.key: f"v-{c.key}" for c in tasks.c}
    stored["state"] = "processing"
    stored["params"] = {"prompt": "tide"}
    made = task_row(stored)
    by_init = TaskRow(**{**stored, "state": State.PROCESSING})
    assert made == by_init
    assert vars(made) == vars(by_init)  # the same attributes, none more, none missing
    assert made.state is State.PROCESSING and made.media == []
    assert made.media is not task_row(stored).media  # a list of its own, as a default_factory
    # every field but the media is a column of the tasks table: one without a column would be
    # left unset by task_row
    assert {f.name for f in dataclasses.fields(TaskRow)} == {*tasks.c.keys(), "media"}


def test_task_row_of_a_wider_row_keeps_only_the_task_columns() -> None:
    """A row with more than the task's columns (a join) gives the same task: the extra column
    is not an attribute, and the row the caller holds is not the task's own dict."""
    stored = {c.key: f"v-{c.key}" for c in tasks.c}
    stored["state"] = "processing"
    wider = {**stored, "media_count": 3}
    made = task_row(wider)
    assert vars(made) == vars(task_row(stored))
    assert not hasattr(made, "media_count")
    exact = dict(stored)
    task_row(exact).kind = "image"
    assert exact["kind"] == "v-kind" and exact["state"] == "processing"


def test_task_of_takes_its_dict_over_and_refuses_an_unknown_state() -> None:
    """The lean read's path: the dict it made becomes the task's (no copy), the same task
    ``task_row`` makes; a state no State names is refused as ``State(text)`` refuses it."""
    stored = {c.key: f"v-{c.key}" for c in tasks.c}
    stored["state"] = "unknown"
    made = task_of(dict(stored))
    assert vars(made) == vars(task_row(stored))
    assert made.state is State.UNKNOWN and made.media == []
    stored["state"] = "half-done"
    with pytest.raises(ValueError, match="half-done"):
        task_of(dict(stored))
