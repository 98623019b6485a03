"""`slate batch FILE [--dry-run] [--wait]`: shot lists, one slot a row.

The real `slate` command in subprocesses, the demo provider over loopback counting every create,
real stores (SQLite file; PostgreSQL for the 50-row file). The dry run must send nothing, store
nothing, and predict row by row what the run then does.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa
from PIL import Image

from app.domain.shotlist import ShotList, parse
from app.domain.templates import SceneEdit, scene_rows
from app.service.inputs import image_file_data_url
from app.service.results import BatchProgress, OutcomeKind
from app.store.engine import make_engine
from tests.support.fixtures import ROOT
from tests.support.prices import CLIP_768P_6S

PROJECT = "article:20260816:batch50"
COLUMNS = ["request_id", "kind", "prompt", "resolution", "duration", "n"]


def write_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    out = io.StringIO(newline="")
    w = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({c: r.get(c, "") for c in COLUMNS})
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def video(rid: str, prompt: str, **kw: str) -> dict[str, str]:
    return {
        "request_id": rid,
        "kind": "video",
        "prompt": prompt,
        "resolution": "768P",
        "duration": "6",
        **kw,
    }


def image(rid: str, prompt: str) -> dict[str, str]:
    return {"request_id": rid, "kind": "image", "prompt": prompt, "n": "1"}


def counts(url: str) -> tuple[int, int]:
    eng = make_engine(url)
    try:
        with eng.connect() as conn:
            return (
                conn.execute(sa.text("SELECT count(*) FROM tasks")).scalar(),
                conn.execute(sa.text("SELECT count(*) FROM slot_events")).scalar(),
            )
    finally:
        eng.dispose()


def outcomes(result) -> list[tuple[int, str | None, str]]:
    return [(r["row"], r["request_id"], r["outcome"]) for r in result.out["rows"]]


def fifty_rows() -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """The 50-row file (30 new, 5 done before, 5 changed since, 5 invalid, 5 repeated rows,
    shuffled) and the 10 rows run before it."""
    new = [
        (image if i % 5 == 4 else video)(f"{PROJECT}:scene-{i + 1:02d}", f"scene {i + 1}")
        for i in range(30)
    ]
    done = [video(f"{PROJECT}:done-{i}", f"done {i}") for i in range(5)]
    changed_before = [video(f"{PROJECT}:changed-{i}", f"first take {i}") for i in range(5)]
    changed_now = [video(f"{PROJECT}:changed-{i}", f"second take {i}") for i in range(5)]
    invalid = [
        video(f"{PROJECT}:bad-duration", "x", duration="6s"),
        video(f"{PROJECT}:bad-resolution", "x", resolution="4K"),
        {"request_id": f"{PROJECT}:bad-kind", "kind": "audio", "prompt": "x"},
        video("bad id!", "x"),
        {"request_id": f"{PROJECT}:bad-n", "kind": "image", "prompt": "x", "n": "ten"},
    ]
    repeated = [dict(new[i]) for i in (0, 7, 14, 21, 28)]
    rows = new + done + changed_now + invalid
    random.Random(5).shuffle(rows)
    # a repeated row always comes after the row it repeats
    for r in repeated:
        first = rows.index(next(x for x in rows if x["request_id"] == r["request_id"]))
        rows.insert(random.Random(first).randint(first + 1, len(rows)), r)
    assert len(rows) == 50
    return rows, done + changed_before


def test_fifty_rows_dry_run_predicts_the_run_and_a_second_run_creates_nothing(
    slate, slate_env, demo_sim, store_url, tmp_path
):
    env = {**slate_env, "SLATE_STORE": store_url}
    rows, before = fifty_rows()
    pre = slate("batch", str(write_csv(tmp_path / "before.csv", before)), env=env)
    assert pre.code == 0 and pre.out["counts"]["created"] == 10, pre.out
    path = write_csv(tmp_path / "shots.csv", rows)
    requests0, stored0 = demo_sim.stats()["requests_total"], counts(store_url)

    dry = slate("batch", str(path), "--dry-run", env=env)
    assert demo_sim.stats()["requests_total"] == requests0  # sent nothing
    assert counts(store_url) == stored0  # stored nothing: no task, no event
    assert dry.out["dry_run"] is True and dry.out["outcome"] == "ok"
    assert dry.code == 2  # invalid rows come first in the precedence
    assert dry.out["counts"] == {
        "created": 30,
        "replayed": 5,
        "conflict": 5,
        "twin": 0,
        "invalid": 10,
        "quota_exceeded": 0,
        "budget_exceeded": 0,
        "unknown": 0,
        "rejected": 0,
    }
    # 24 videos of 768P/6 s at $0.28 and 6 image-01 rows at the table's secondary $0.0035
    assert dry.out["cost"]["estimate"] == 6.741 and dry.out["cost"]["currency"] == "USD"
    assert dry.out["cost"]["basis"].startswith("30 creates")

    creates0 = demo_sim.stats()["creates_total"]
    run = slate("batch", str(path), env=env, timeout=180)
    assert run.code == 2 and run.out["dry_run"] is False
    assert outcomes(run) == outcomes(dry)  # row by row, what the dry run said
    assert demo_sim.stats()["creates_total"] - creates0 == 30
    assert all(n == 1 for n in demo_sim.stats()["creates_by_prompt"].values())
    lines = path.read_text().splitlines()
    for r in run.out["rows"]:
        if r["outcome"] != "invalid":
            assert r["task"] is not None and set(r["task"]["cost"]) == {
                "estimate",
                "currency",
                "basis",
                "reported",
            }
            continue
        # refused with the row number (the CSV line) and the field; the others still went
        field, message = r["error"]["field"], r["error"]["message"]
        assert message.startswith(f"row {r['row']}: {field}: "), r
        assert r["row"] == r["line"]  # CSV: the row is the line it starts on
        if r["request_id"] is not None:
            assert r["request_id"] in lines[r["row"] - 1]
    by_rid = {
        r["request_id"]: r["error"]["field"]
        for r in run.out["rows"]
        if r["outcome"] == "invalid" and r["request_id"]
    }
    assert by_rid[f"{PROJECT}:bad-duration"] == "duration"
    assert by_rid[f"{PROJECT}:bad-resolution"] == "resolution"
    assert by_rid[f"{PROJECT}:bad-kind"] == "kind"
    assert by_rid[f"{PROJECT}:bad-n"] == "n"
    assert (
        sum(
            1
            for r in run.out["rows"]
            if r["outcome"] == "invalid"
            and r["error"]["field"] == "request_id"
            and "already row" in r["error"]["message"]
        )
        == 5
    )

    again = slate("batch", str(path), env=env, timeout=180)
    assert demo_sim.stats()["creates_total"] - creates0 == 30  # nothing new
    assert again.out["counts"]["created"] == 0 and again.out["counts"]["replayed"] == 35

    # one row's prompt edited: exactly one more conflict, nothing sent
    edited = [dict(r) for r in rows]
    target = next(r for r in edited if r["request_id"] == f"{PROJECT}:scene-02")
    target["prompt"] += " (edited)"
    write_csv(path, edited)
    dry3 = slate("batch", str(path), "--dry-run", env=env)
    third = slate("batch", str(path), env=env, timeout=180)
    assert outcomes(third) == outcomes(dry3)
    assert third.out["counts"]["conflict"] == 6 and third.code == 2
    changed = [(a, b) for a, b in zip(outcomes(again), outcomes(third)) if a != b]
    assert [b for _a, b in changed] == [(changed[0][1][0], f"{PROJECT}:scene-02", "conflict")]
    assert demo_sim.stats()["creates_total"] - creates0 == 30


def test_a_run_killed_half_way_and_started_again_finishes_without_a_duplicate_create(
    slate, slate_env, demo_sim, tmp_path
):
    demo_sim.set_faults(delay_create_response=0.4)
    rows = [video(f"{PROJECT}:kill-{i:02d}", f"kill {i}") for i in range(16)]
    path = write_csv(tmp_path / "shots.csv", rows)
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "--json", "--progress", "batch", str(path)],
        env=slate_env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    answered = 0
    deadline = time.monotonic() + 60
    assert proc.stderr is not None
    while answered < 5 and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        answered += ": created" in line
    assert answered == 5, "the run did not get half way"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    first = Counter(demo_sim.stats()["creates_by_prompt"])
    assert 5 <= sum(first.values()) < 16

    demo_sim.set_faults(delay_create_response=0.0)
    rerun = slate("batch", str(path), env=slate_env, timeout=120)
    got = Counter(r["outcome"] for r in rerun.out["rows"])
    creates = demo_sim.stats()["creates_by_prompt"]
    assert all(n == 1 for n in creates.values()), creates  # no duplicate create
    assert set(got) <= {"created", "replayed", "unknown"}, rerun.out
    assert got["created"] >= 1 and got["replayed"] >= 5  # it finished the rest
    for r in rerun.out["rows"]:
        prompt = f"kill {int(r['request_id'][-2:])}"
        if r["outcome"] == "created":
            assert first[prompt] == 0 and creates[prompt] == 1
        elif r["outcome"] == "replayed":
            assert creates[prompt] == 1
        else:  # in flight when killed: the create may exist, so it is never sent again
            assert creates.get(prompt, 0) <= 1
    assert rerun.code == (4 if got["unknown"] else 0)
    third = slate("batch", str(path), env=slate_env, timeout=120)
    assert demo_sim.stats()["creates_by_prompt"] == creates
    assert third.out["counts"]["created"] == 0


def test_wait_follows_every_row_with_one_progress_line_per_change(slate, slate_env, tmp_path):
    rows = [video(f"{PROJECT}:wait-{i}", f"wait {i}") for i in range(3)]
    out = slate(
        "--progress", "batch", str(write_csv(tmp_path / "w.csv", rows)), "--wait", timeout=120
    )
    assert out.code == 0, out.out  # one JSON object on stdout (checked by the runner)
    assert [r["task"]["state"] for r in out.out["rows"]] == ["success"] * 3
    assert [r["outcome"] for r in out.out["rows"]] == ["created"] * 3
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("row ")]
    for i, r in enumerate(out.out["rows"]):
        mine = [ln for ln in lines if ln.startswith(f"row {r['row']}: ")]
        assert mine[0].startswith(f"row {r['row']}: {PROJECT}:wait-{i}: created")
        assert mine[-1] == f"row {r['row']}: {PROJECT}:wait-{i}: success"
        states = [ln.rsplit(": ", 1)[1] for ln in mine[1:]]
        assert len(states) == len(set(states))  # one line per change, never a repeat
    assert out.out["cost"] == {"estimate": 0.84, "currency": "USD", "basis": "3 creates"}


def test_local_files_are_read_relative_to_the_shot_list(slate, slate_env, tmp_path):
    folder = tmp_path / "article"
    (folder / "frames").mkdir(parents=True)
    Image.new("RGB", (640, 360), (30, 90, 160)).save(folder / "frames" / "first.png")
    path = folder / "shots.yaml"
    path.write_text(
        "defaults:\n  kind: video\n  series: article\n  date: 2026-08-16\n  project: frames\n"
        "rows:\n"
        "  - {scene: 1, prompt: from a frame, first_frame: frames/first.png, resolution: 768P}\n"
        "  - {scene: 2, prompt: missing frame, first_frame: frames/none.png}\n",
        encoding="utf-8",
    )
    out = subprocess.run(
        [sys.executable, "-m", "app", "--json", "batch", "article/shots.yaml"],
        env=slate_env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )  # run from another folder than the file's
    result = json.loads(out.stdout)
    first, second = result["rows"]
    assert first["outcome"] == "created", first
    assert first["task"]["params"]["first_frame_image"] == image_file_data_url(
        folder / "frames" / "first.png", "first_frame_image"
    )
    assert second["outcome"] == "invalid" and second["error"]["field"] == "first_frame"
    assert second["error"]["message"].startswith("row 2: first_frame: ")
    assert out.returncode == 2


@pytest.mark.parametrize(
    "content, field",
    [
        (None, "file"),
        (b"\xff\xfe not utf-8", "file"),
        (b"", "file"),
        (b"request_id;kind;prompt\n", "header"),
    ],
)
def test_a_shot_list_that_cannot_be_read_is_invalid(slate, tmp_path, content, field):
    path = tmp_path / "shots.csv"
    if content is not None:
        path.write_bytes(content)
    out = slate("batch", str(path))
    assert out.code == 2 and out.out["outcome"] == "invalid", out.out
    assert out.out["error"]["field"] == field


async def test_dry_run_predicts_quota_and_budget_refusals_the_run_then_makes(harness, tmp_path):
    svc = harness.other(
        budget_daily=Decimal("0.84"), quota_image=2, prices_file=tmp_path / "none.toml"
    )
    assert (
        await svc.submit(
            f"{PROJECT}:scene-01",
            "video",
            {"prompt": "scene 1", "duration": 6, "resolution": "768P"},
        )
    ).kind is OutcomeKind.CREATED
    rows = scene_rows(
        series="article",
        date="20260816",
        project="batch50",
        first=1,
        last=5,
        kind="video",
        prompt="scene",
        options={"resolution": "768P"},
        edits={1: SceneEdit(prompt="scene 1")},
    )
    extra = parse(
        f"request_id,kind,prompt\n{PROJECT}:img-1,image,a\n{PROJECT}:img-2,image,b\n", "csv"
    )
    shots = ShotList("csv", (*rows, *extra.entries))
    requests0 = harness.sim.stats()["requests_total"]
    # scenes 2–5 share the template's prompt: takes of one shot, created as asked (twins)
    plan = (await svc.plan_batch(shots, allow_twins=True)).payload
    assert harness.sim.stats()["requests_total"] == requests0
    predicted = [(r.request_id, r.outcome) for r in plan.rows]
    assert [o for _r, o in predicted] == [
        OutcomeKind.REPLAYED,
        OutcomeKind.CREATED,
        OutcomeKind.CREATED,
        OutcomeKind.BUDGET_EXCEEDED,
        OutcomeKind.BUDGET_EXCEEDED,  # 3 × $0.28 = the budget
        OutcomeKind.BUDGET_EXCEEDED,
        OutcomeKind.BUDGET_EXCEEDED,  # image-01: about $0.0035, and nothing is left
    ]
    assert plan.budget.remaining == 0 and plan.budget.spent.estimate == 3 * CLIP_768P_6S
    assert plan.cost.estimate == 2 * CLIP_768P_6S
    assert "would exceed the daily budget" in plan.rows[-1].problem.message
    events: list[BatchProgress] = []
    ran = (await svc.run_batch(shots, on_progress=events.append, allow_twins=True)).payload
    assert [(r.request_id, r.outcome) for r in ran.rows] == predicted
    answers = sorted((e.request_id, e.outcome) for e in events if e.outcome is not None)
    assert answers == sorted(predicted)  # one progress event with each row's answer
    assert harness.sim.stats()["creates_total"] == 3
    assert ran.budget.remaining == 0

    quota = harness.other(user="mei", quota_video=2, prices_file=tmp_path / "none.toml")
    plan = (await quota.plan_batch(ShotList("csv", tuple(rows)), allow_twins=True)).payload
    assert [r.outcome for r in plan.rows] == [OutcomeKind.CREATED] * 2 + [
        OutcomeKind.QUOTA_EXCEEDED
    ] * 3
    assert plan.quota.video.used == 2
    ran = (await quota.run_batch(ShotList("csv", tuple(rows)), allow_twins=True)).payload
    assert [r.outcome for r in ran.rows] == [r.outcome for r in plan.rows]


async def test_a_draft_costs_what_its_parameters_say(harness, tmp_path):
    svc = harness.other(prices_file=tmp_path / "none.toml")
    six = svc.estimate("video", {"prompt": "p", "duration": 6, "resolution": "768P"}).payload
    assert six.text == "about $0.28" and six.cost.estimate == CLIP_768P_6S
    fast = svc.estimate(
        "video",
        {
            "prompt": "p",
            "model": "MiniMax-Hailuo-2.3-Fast",
            "first_frame_image": "https://x.test/f.png",
            "resolution": "768P",
        },
    ).payload
    assert fast.text == "about $0.19"
    unknown = svc.estimate("video", {"prompt": "p", "duration": 10}).payload
    assert unknown.text == "price unknown" and unknown.cost.estimate is None
    bad = svc.estimate("video", {"prompt": "p", "duration": 7})
    assert bad.kind is OutcomeKind.INVALID and bad.problem.field == "duration"
    assert harness.sim.stats()["requests_total"] == 0


def _alias_bomb(depth: int) -> str:
    """Aliases nested ``depth`` deep, ten to a level (1.2 KB at depth 20): 10^depth nodes when
    expanded, each anchor once in the file."""
    lines = ["- &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"- &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, depth)]
    lines.append(
        "- {request_id: 'article:20260816:tide-eye:scene-01', kind: video, model: MiniMax-H3, "
        f"prompt: p, reference_image: *a{depth - 1}}}"
    )
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("dry", [True, False])
def test_a_shot_list_of_nested_aliases_is_read_at_once_with_its_rows_refused(
    slate, tmp_path, demo_sim, dry
):
    """Issue 24, point 11: 1.2 KB of nested YAML aliases kept `batch` spinning for minutes
    (the duplicate-key check walked every shared node again, 10^depth times). Each node is now
    read once: the file answers (generous timeout, a busy machine) with each row's problem named
    by its row and field, and nothing sent."""
    path = tmp_path / "aliases.yaml"
    path.write_text(_alias_bomb(20))
    assert len(path.read_bytes()) < 1400
    out = slate("batch", str(path), *(["--dry-run"] if dry else []), timeout=120)
    assert out.code == 2 and out.out["counts"]["invalid"] == 21, out.out
    rows = out.out["rows"]
    assert len(rows) == 21 and {r["outcome"] for r in rows} == {"invalid"}
    last = rows[-1]
    assert last["row"] == 21 and last["error"]["field"] == "reference_image", last
    assert "must be text, not a list" in last["error"]["message"]
    assert demo_sim.stats()["creates_total"] == 0


def test_h3_rows_with_local_files_are_read_as_submit_reads_them(
    slate, slate_env, store_url, tmp_path
):
    """Issue 24, point 14: every MiniMax-H3 row with a local file was `invalid` (dry run and
    run) while the same options worked with `slate submit`: the batch turned the files into
    data URLs and skipped the V2 reading. Now one reading for a row and a submit: the dry run
    predicts `created`, the run creates, and `slate submit` with the same files replays the
    rows' slots (the same fingerprint) — on SQLite and PostgreSQL."""
    from tests.support.sim_media import audio_bytes, image_bytes

    env = {**slate_env, "SLATE_STORE": store_url}
    folder = tmp_path / "shots"
    (folder / "frames").mkdir(parents=True)
    (folder / "frames" / "first.png").write_bytes(image_bytes(640, 360))
    (folder / "look.png").write_bytes(image_bytes(600, 600, color=(200, 40, 40)))
    (folder / "tone.wav").write_bytes(audio_bytes(3.0))
    p = "article:20261202:tide-eye:scene-0"
    path = folder / "h3.csv"
    path.write_text(
        "request_id,kind,model,prompt,duration,first_frame,reference_image,reference_audio\n"
        f"{p}1,video,MiniMax-H3,from a frame,4,frames/first.png,,\n"
        f"{p}2,video,MiniMax-H3,from references,4,,look.png,tone.wav\n"
        f"{p}3,video,MiniMax-H3,a frame that is not there,4,frames/none.png,,\n"
    )
    dry = slate("batch", str(path), "--dry-run", env=env)
    rows = {r["request_id"]: r for r in dry.out["rows"]}
    outcomes = [rows[f"{p}{n}"]["outcome"] for n in (1, 2, 3)]
    assert outcomes == ["created", "created", "invalid"], dry.out
    assert rows[f"{p}3"]["error"]["field"] == "first_frame"  # the column, as the file names it
    assert "none.png" in rows[f"{p}3"]["error"]["message"]
    run = slate("batch", str(path), env=env, timeout=180)
    rows = {r["request_id"]: r for r in run.out["rows"]}
    outcomes = [rows[f"{p}{n}"]["outcome"] for n in (1, 2, 3)]
    assert outcomes == ["created", "created", "invalid"], run.out
    item = rows[f"{p}1"]["task"]["params"]["content"][0]
    assert (item["role"], item["format"], item["width"]) == ("first_frame", "png", 640)
    assert str(folder) not in json.dumps([r["task"] for r in run.out["rows"]])  # no path stored
    # the same options given to `slate submit` are the same slots: replayed, nothing new
    h3 = ["--kind", "video", "--model", "MiniMax-H3", "--duration", "4"]
    one = slate(
        "submit",
        "--request-id",
        f"{p}1",
        *h3,
        "--prompt",
        "from a frame",
        "--first-frame",
        str(folder / "frames" / "first.png"),
        env=env,
    )
    two = slate(
        "submit",
        "--request-id",
        f"{p}2",
        *h3,
        "--prompt",
        "from references",
        "--reference-image",
        str(folder / "look.png"),
        "--reference-audio",
        str(folder / "tone.wav"),
        env=env,
    )
    assert (one.out["outcome"], two.out["outcome"]) == ("replayed", "replayed"), (one.out, two.out)
    again = slate("batch", str(path), "--dry-run", env=env)
    assert [r["outcome"] for r in again.out["rows"]] == ["replayed", "replayed", "invalid"]


def test_a_row_with_another_slot_s_settings_is_a_twin_unless_allowed(
    slate, slate_env, store_url, demo_sim, tmp_path
):
    """Issue 31: with scene-06 unknown (its answer lost), a row scene-08 with identical settings
    was "new — will be created" and created: two creates for one intent. The shot list runs the
    form's twin rule: the dry run names the twin, a run refuses the row unless --allow-twins.
    Two identical rows of one file are twins too; a row that replays its own slot is not."""
    env = {**slate_env, "SLATE_STORE": store_url}
    same = {"prompt": "the harbour at dawn"}
    demo_sim.set_faults(lose_create_response=1)
    lost = slate(
        "submit", "--request-id", f"{PROJECT}:scene-06", "--kind", "video",
        "--prompt", same["prompt"], "--resolution", "768P", "--duration", "6", env=env,
    )  # fmt: skip
    assert lost.code == 4 and lost.out["task"]["state"] == "unknown", lost.out
    path = write_csv(
        tmp_path / "twins.csv",
        [
            video(f"{PROJECT}:scene-06", same["prompt"]),  # its own slot: unknown, not a twin
            video(f"{PROJECT}:scene-08", same["prompt"]),  # scene-06's settings
            video(f"{PROJECT}:scene-09", "the harbour at noon"),
            video(f"{PROJECT}:scene-10", "gulls over the pier"),
            video(f"{PROJECT}:scene-11", "gulls over the pier"),  # scene-10's, in this file
        ],
    )
    creates0 = demo_sim.stats()["creates_total"]

    dry = slate("batch", str(path), "--dry-run", env=env)
    assert [r["outcome"] for r in dry.out["rows"]] == [
        "unknown", "twin", "created", "created", "twin"
    ]  # fmt: skip
    row08, row10, row11 = dry.out["rows"][1], dry.out["rows"][3], dry.out["rows"][4]
    assert row08["twin"] == {"request_id": f"{PROJECT}:scene-06", "state": "unknown", "row": 2}
    assert row08["error"]["code"] == "twin" and row08["task"] is None
    assert f"same settings as row 2, {PROJECT}:scene-06 (unknown)" in row08["error"]["message"]
    assert row11["twin"]["request_id"] == f"{PROJECT}:scene-10"
    assert row11["twin"]["row"] == row10["row"]
    assert dry.out["rows"][2]["twin"] is None
    assert dry.out["counts"]["twin"] == 2 and dry.out["counts"]["created"] == 2
    assert dry.out["cost"]["estimate"] == pytest.approx(2 * 0.28)  # the twins are not counted
    assert dry.code == 3  # a twin exits as a conflict does
    assert demo_sim.stats()["creates_total"] == creates0  # the dry run sent nothing

    run = slate("batch", str(path), env=env, timeout=120)
    assert outcomes(run) == outcomes(dry), run.out  # row by row, what the dry run said
    assert run.code == 3
    assert run.out["rows"][1]["twin"]["request_id"] == f"{PROJECT}:scene-06"
    assert demo_sim.stats()["creates_total"] == creates0 + 2  # scene-09 and scene-10 only
    assert slate("status", f"{PROJECT}:scene-08", env=env).out["outcome"] == "not_found"
    assert slate("status", f"{PROJECT}:scene-11", env=env).out["outcome"] == "not_found"

    allowed_dry = slate("batch", str(path), "--dry-run", "--allow-twins", env=env)
    assert [r["outcome"] for r in allowed_dry.out["rows"]] == [
        "unknown", "created", "replayed", "replayed", "created"
    ]  # fmt: skip
    assert allowed_dry.out["rows"][1]["twin"]["request_id"] == f"{PROJECT}:scene-06"
    allowed = slate("batch", str(path), "--allow-twins", env=env, timeout=120)
    assert outcomes(allowed) == outcomes(allowed_dry), allowed.out
    assert allowed.out["rows"][1]["twin"]["request_id"] == f"{PROJECT}:scene-06"
    assert allowed.out["rows"][4]["twin"]["request_id"] == f"{PROJECT}:scene-10"
    assert allowed.code == 4  # scene-06 is still unknown
    assert demo_sim.stats()["creates_total"] == creates0 + 4

    # every row now replays (or waits on) its own slot: none is a twin, nothing is sent
    again = slate("batch", str(path), env=env, timeout=120)
    assert [r["outcome"] for r in again.out["rows"]] == [
        "unknown", "replayed", "replayed", "replayed", "replayed"
    ]  # fmt: skip
    assert all(r["twin"] is None for r in again.out["rows"])
    assert demo_sim.stats()["creates_total"] == creates0 + 4
