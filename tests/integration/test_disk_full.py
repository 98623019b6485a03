"""A full disk while a paid result arrives loses nothing and says so (issue 32).

A real `slate` process whose files may not grow past 4 MB (``RLIMIT_FSIZE``: writes past it fail
with ``EFBIG``, as a full disk's with ``ENOSPC``) makes a 150 s WAV song (26 MB) on the demo
provider over loopback. Once, the song was a paid answer with no task id, thrown away with exit
1 ``internal``, a message claiming "the log keeps the answer", and a store never told it arrived
("may or may not exist"). Now the store holds the song's link (``downloading``), the command
exits 2 naming the data dir, and once there is room the song is fetched and verified without a
second create. On both stores (the store itself is small: it fits under the limit).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys

from tests.support.fixtures import ROOT, run_slate

RID = "article:20261203:tide-eye:song-01"
PROMPT = "a long tide, strings"
LIMIT = 4 << 20


def _small_files() -> None:  # in the child, before it runs Slate
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def test_a_song_arriving_on_a_full_disk_is_kept_at_the_provider_and_fetched_later(
    slate_env, store_url, demo_sim, data_dir
):
    demo_sim.config.song_seconds = 150.0
    env = {**slate_env, "SLATE_STORE": store_url}
    argv = ["submit", "--request-id", RID, "--kind", "music", "--prompt", PROMPT]
    argv += ["--instrumental", "--format", "wav"]
    proc = subprocess.run(
        [sys.executable, "-m", "app", "--json", *argv],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        preexec_fn=_small_files,
    )
    [line] = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    out = json.loads(line)
    assert proc.returncode == 2, (out, proc.stderr[-2000:])
    assert out["error"]["code"] == "bad_configuration", out
    assert str(data_dir) in out["error"]["message"] and "full disk" in out["error"]["message"]
    assert "log keeps" not in out["error"]["message"]

    seen = run_slate(env, "status", RID)
    assert seen.out["task"]["state"] == "downloading", seen.out  # the store knows it arrived
    events = [e["event"] for e in run_slate(env, "history", RID).out["events"]]
    assert "media_not_written" in events and "verification_failed" not in events, events

    done = run_slate(env, "wait", RID, "--max-seconds", "120", timeout=180)
    assert done.code == 0 and done.out["task"]["state"] == "success", done.out
    [media] = done.out["task"]["media"]
    assert media["content_type"] == "audio/wav" and media["bytes"] > LIMIT
    assert demo_sim.stats()["creates_by_prompt"] == {PROMPT: 1}


def test_a_song_in_the_answer_itself_that_cannot_be_written_is_recorded_as_made_and_lost(
    slate_env, store_url, data_dir
):
    """A stand-in that answers the song inline (hex) on a full disk: the bytes cannot be kept
    and a synchronous sound has no id to fetch again. The store is told the truth — made,
    billed, lost here (``fail``, ``not_written``) — not "may or may not exist", and the command
    exits 2 naming the data dir, never claiming a log keeps what it does not."""
    from app.sim.sound import render_sound
    from tests.support.hostile import Answer, HostileServer, ok

    song = render_sound("wav", 30.0, 44100, 2)  # 5.3 MB: past the limit, inside an answer
    server = HostileServer({})
    server.script["POST /v1/music_generation"] = [
        Answer(
            ok(
                data={"audio": song.hex(), "status": 2},
                extra_info={"music_duration": 30000, "music_sample_rate": 44100},
                trace_id="tr-inline",
            )
        )
    ]
    env = {**slate_env, "SLATE_STORE": store_url, "SLATE_BASE_URL": server.base_url}
    argv = ["submit", "--request-id", RID, "--kind", "music", "--prompt", PROMPT]
    argv += ["--instrumental", "--format", "wav"]
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "app", "--json", *argv],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=180,
            preexec_fn=_small_files,
        )
        [line] = [ln for ln in proc.stdout.splitlines() if ln.strip()]
        out = json.loads(line)
        assert proc.returncode == 2, (out, proc.stderr[-2000:])
        assert str(data_dir) in out["error"]["message"], out
        assert "log keeps" not in out["error"]["message"]
        seen = run_slate(env, "status", RID).out["task"]
        assert seen["state"] == "fail" and seen["error"]["code"] == "not_written", seen
        assert "billed" in seen["error"]["message"]
        assert server.sent("POST", "/v1/music_generation") == 1
    finally:
        server.stop()
