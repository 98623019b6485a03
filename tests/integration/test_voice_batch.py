"""Voice design in shot lists: ``kind: voice`` rows with ``prompt`` (the description) and
``preview_text``, through ``slate batch`` (dry run and run) on both stores over loopback HTTP.
The dry run sends and stores nothing and says what the run does; a second run replays; a row
without a preview text is refused naming ``preview_text``; the cost of a voice is unknown."""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

import pytest

from app.domain.shotlist import parse
from tests.integration.test_voice import creates

pytestmark = pytest.mark.timeout(180)

COLUMNS = ["request_id", "kind", "prompt", "preview_text", "text", "voice"]
ROWS = [
    {"request_id": "voice:20261204:harbor:narrator-a", "kind": "voice",
     "prompt": "A calm, low narrator of sea stories.", "preview_text": "The tide eye opens."},
    {"request_id": "voice:20261204:harbor:narrator-b", "kind": "voice",
     "prompt": "A bright, quick reporter at the quay.", "preview_text": " Boats, boats!"},
    {"request_id": "voice:20261204:harbor:narrator-c", "kind": "voice",
     "prompt": "A whispering keeper of the lighthouse.", "preview_text": ""},
    {"request_id": "article:20261204:harbor:vo-01", "kind": "speech",
     "text": "The harbour wakes.", "voice": "English_expressive_narrator"},
]  # fmt: skip


def write_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    out = io.StringIO(newline="")
    w = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({c: r.get(c, "") for c in COLUMNS})
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def test_voice_rows_are_read_as_voice_design_parameters():
    listed = parse(write_csv_text(ROWS[:2]), "csv")
    first, second = listed.rows
    assert first.kind == "voice" and first.params == {
        "prompt": ROWS[0]["prompt"],
        "preview_text": ROWS[0]["preview_text"],
    }
    assert second.params["preview_text"] == " Boats, boats!"  # byte-exact, as the prompt


def write_csv_text(rows: list[dict[str, str]]) -> bytes:
    out = io.StringIO(newline="")
    w = csv.DictWriter(out, ["request_id", "kind", "prompt", "preview_text"], lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({c: r.get(c, "") for c in ("request_id", "kind", "prompt", "preview_text")})
    return out.getvalue().encode()


def test_a_shot_list_designs_voices_once(slate, demo_sim, store_url, tmp_path):
    env = {"SLATE_STORE": store_url}
    path = write_csv(tmp_path / "voices.csv", ROWS)
    dry = slate("batch", str(path), "--dry-run", env=env)
    assert dry.out["dry_run"] is True and demo_sim.stats()["creates_total"] == 0, dry.out
    said = [r["outcome"] for r in dry.out["rows"]]
    assert said == ["created", "created", "invalid", "created"], dry.out
    assert dry.out["rows"][2]["error"]["field"] == "preview_text"
    run = slate("batch", str(path), env=env)
    assert [r["outcome"] for r in run.out["rows"]] == said, run.out
    assert run.code == 2  # the invalid row comes first in the precedence
    made = [r["task"] for r in run.out["rows"] if r["outcome"] == "created"]
    assert Counter(t["kind"] for t in made) == {"voice": 2, "speech": 1}
    assert all(t["state"] == "success" for t in made), made
    voices = [t for t in made if t["kind"] == "voice"]
    assert all(t["voice_id"].startswith("slatev1") for t in voices)
    assert all(t["cost"]["estimate"] is None for t in voices)  # unknown, never 0
    again = slate("batch", str(path), env=env)
    assert [r["outcome"] for r in again.out["rows"]] == [
        "replayed", "replayed", "invalid", "replayed"
    ]  # fmt: skip
    for row in ROWS[:2]:
        assert creates(demo_sim, row["prompt"]) == 1
    assert demo_sim.stats()["creates_total"] == 3
