"""Music and speech through the `slate` command (its entry point in this process; a real
subprocess where a process is killed), the demo provider over loopback counting every create, a
real SQLite store: a long text's asynchronous task survives a kill -9 of the process that made it
and is finished by another process (never created twice);
submit/replay/query exit codes; a shot list of music and speech rows (dry run, run, rerun);
spend groups by model; export copies the verified sound; history shows the slot's events."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.support.fixtures import ROOT, run_slate_in_process

pytestmark = pytest.mark.timeout(240)

SONG = "article:20261202:tide-eye:song-01"
LONG = "article:20261202:tide-eye:narration"
VOICE = "English_expressive_narrator"


def _state(data_dir: Path) -> tuple[str | None, str | None]:
    engine = sa.create_engine(f"sqlite:///{data_dir / 'slate.sqlite3'}")
    try:
        with engine.connect() as conn:
            row = conn.execute(sa.text("SELECT state, provider_task_id FROM tasks")).first()
    except sa.exc.OperationalError:
        return None, None
    finally:
        engine.dispose()
    return (row[0], row[1]) if row else (None, None)


def test_async_speech_survives_kill_9_and_is_finished_by_another_process(
    slate_env, demo_sim, data_dir, tmp_path
):
    demo_sim.set_faults(slow=4.0)  # the task runs a few seconds: time to kill its maker
    text = "The tide eye opens at dusk and the lighthouse answers. " * 200  # 11,000 characters
    book = tmp_path / "narration.txt"
    book.write_text(text, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "--json", "submit", "--request-id", LONG, "--kind",
         "speech", "--text-file", str(book), "--voice", VOICE, "--wait"],
        env=slate_env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.time() + 60
    while True:
        state, task_id = _state(data_dir)
        if state == "processing" and task_id:
            break
        assert time.time() < deadline and proc.poll() is None, (state, proc.poll())
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert demo_sim.stats()["creates_by_prompt"].get(text) == 1
    out = run_slate_in_process(slate_env, "wait", LONG, "--max-seconds", "120", timeout=180)
    assert out.code == 0, out.out
    task = out.out["task"]
    assert task["state"] == "success"
    assert task["provider_task_id"] == task_id
    assert task["params"]["text"] == text  # the file's text exactly, not its path
    [m] = task["media"]
    assert m["content_type"] == "audio/mpeg" and m["seconds"] > 0
    again = run_slate_in_process(
        slate_env, "submit", "--request-id", LONG, "--kind", "speech", "--text-file", str(book),
        "--voice", VOICE,
    )  # fmt: skip
    assert again.out["outcome"] == "replayed" and again.code == 0
    assert demo_sim.stats()["creates_by_prompt"].get(text) == 1


def test_music_submit_replay_lost_answer_and_query_exit_codes(slate_env, demo_sim, tmp_path):
    args = ["submit", "--request-id", SONG, "--kind", "music", "--prompt", "lofi piano"]
    first = run_slate_in_process(slate_env, *args, "--instrumental")
    assert first.code == 0 and first.out["outcome"] == "created", first.out
    assert first.out["task"]["media"][0]["content_type"] == "audio/mpeg"
    replay = run_slate_in_process(slate_env, *args, "--instrumental")
    assert replay.code == 0 and replay.out["outcome"] == "replayed"
    drift = run_slate_in_process(slate_env, *args, "--lyrics-optimizer")
    assert drift.code == 3 and drift.out["outcome"] == "conflict"
    both = run_slate_in_process(slate_env, *args, "--lyrics", "la", "--instrumental")
    assert both.code == 2 and both.out["error"]["field"] == "instrumental"
    foreign = run_slate_in_process(
        slate_env, *args[:-2], "--prompt", "x", "--instrumental", "--n", "2"
    )
    assert foreign.code == 2 and foreign.out["error"]["field"] == "n"
    demo_sim.set_faults(lose_create_response=1)
    lost_rid = SONG + ".t2"
    lost = run_slate_in_process(
        slate_env, "submit", "--request-id", lost_rid, "--kind", "music", "--prompt", "lofi",
        "--instrumental",
    )  # fmt: skip
    assert lost.code == 4 and lost.out["outcome"] == "unknown"
    assert lost.out["task"]["allowed_actions"] == ["recover"]
    query = run_slate_in_process(slate_env, "query", lost_rid)
    assert query.code == 2 and "no task id" in query.out["error"]["message"]
    assert demo_sim.stats()["creates_by_prompt"] == {"lofi piano": 1, "lofi": 1}
    declared = run_slate_in_process(
        slate_env, "recover", lost_rid, "--declare-failed", "--reason", "gone"
    )
    assert declared.out["task"]["state"] == "fail"
    history = run_slate_in_process(slate_env, "history", SONG)
    events = [e["event"] for e in history.out["events"]]
    assert "created" in events and "verified" in events and "conflict" in events
    dest = tmp_path / "out"
    exported = run_slate_in_process(slate_env, "export", SONG, "--to", str(dest))
    assert exported.code == 0, exported.out
    assert [p.suffix for p in dest.iterdir()] == [".mp3"]


def test_a_shot_list_of_music_and_speech_rows_and_spend_by_model(slate_env, demo_sim, tmp_path):
    rows = tmp_path / "sound.csv"
    rows.write_text(
        "request_id,kind,prompt,instrumental,text,voice,format,channels,speed\n"
        "article:20261202:tide-eye:song-02,music,harbour bells,true,,,,,\n"
        "article:20261202:tide-eye:voice-03,speech,,,Welcome aboard.,female-shaonv,wav,2,1.1\n",
        encoding="utf-8",
    )
    dry = run_slate_in_process(slate_env, "batch", str(rows), "--dry-run")
    assert dry.code == 0, dry.out
    assert [r["outcome"] for r in dry.out["rows"]] == ["created", "created"]
    assert dry.out["cost"]["estimate"] is None  # the song's price is unknown: never a smaller sum
    assert demo_sim.stats()["creates_total"] == 0
    run = run_slate_in_process(slate_env, "batch", str(rows))
    assert run.code == 0, run.out
    states = [r["task"]["state"] for r in run.out["rows"]]
    assert states == ["success", "success"]
    speech = run.out["rows"][1]["task"]
    assert speech["params"]["speed"] == 1.1 and speech["params"]["channels"] == 2
    assert speech["media"][0]["content_type"] == "audio/wav"
    rerun = run_slate_in_process(slate_env, "batch", str(rows))
    assert [r["outcome"] for r in rerun.out["rows"]] == ["replayed", "replayed"]
    assert demo_sim.stats()["creates_total"] == 2
    spend = run_slate_in_process(slate_env, "spend", "--by", "model")
    groups = {g["key"]: g for g in spend.out["groups"]}
    assert set(groups) == {"music-2.6", "speech-2.8-hd"}
    assert groups["music-2.6"]["estimate"] is None  # unknown, never 0
    assert groups["speech-2.8-hd"]["reported"] == pytest.approx(len("Welcome aboard.") * 1e-4)
    assert spend.out["total"]["estimate"] is None
    quota = run_slate_in_process(slate_env, "quota")
    assert quota.out["quota"]["music"]["used"] == 1 and quota.out["quota"]["speech"]["used"] == 1
    limited = {**slate_env, "SLATE_QUOTA_SPEECH": "1"}
    over = run_slate_in_process(
        limited, "submit", "--request-id", "article:20261202:tide-eye:voice-04", "--kind",
        "speech", "--text", "One more.", "--voice", "female-shaonv",
    )  # fmt: skip
    assert over.code == 5 and over.out["outcome"] == "quota_exceeded"


def test_a_music_and_an_image_submit_of_one_request_id_racing_create_once(
    slate_env, demo_sim, store_url
):
    """Four processes ask for a song and four for an image under one RequestId at once, on
    each store: the slot boundary lets exactly one create through; every other answer is a
    replay (same kind) or a conflict (the other kind), never a second create."""
    from collections import Counter

    from tests.support.procs import race

    demo_sim.set_faults(delay_create_response=0.5)  # the winner's create is still in flight
    env = {**slate_env, "SLATE_STORE": store_url}
    rid = "article:20261202:tide-eye:race-01"
    music = ["submit", "--request-id", rid, "--kind", "music", "--prompt", "race", "--instrumental"]
    image = ["submit", "--request-id", rid, "--kind", "image", "--prompt", "race"]
    results = race(env, [music, image] * 4)
    outcomes = Counter(out["outcome"] for _code, out in results)
    assert outcomes["created"] == 1, results
    assert set(outcomes) <= {"created", "replayed", "conflict"}, results
    assert outcomes["conflict"] >= 4, results  # every one of the losing kind
    assert demo_sim.stats()["creates_total"] == 1
