"""Progress on a terminal: `submit --wait`, `wait` and `batch --wait` say how they go on standard
error when it is a pseudo-terminal, and nothing extra reaches standard output (still exactly one
JSON object with --json); without a terminal nothing is said unless asked (`--progress`)."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from tests.support.fixtures import ROOT

PROJECT = "article:20260816:tide-eye"


def _on_pty(
    env: dict[str, str],
    *args: str,
    timeout: float = 120,
    once_shown: tuple[str, Callable[[], None]] | None = None,
) -> tuple[int, str, str]:
    """Run `slate ARGS` with standard error on a pseudo-terminal and standard output on a
    pipe: (exit code, stdout, everything the terminal showed). ``once_shown=(text, then)``:
    ``then()`` runs once, when the terminal has shown ``text``."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *args],
        env=env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    shown = bytearray()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the other side closed: the process is gone
                break
            if not chunk:
                break
            shown += chunk
            if once_shown is not None and once_shown[0] in shown.decode(errors="replace"):
                once_shown[1]()
                once_shown = None
        elif proc.poll() is not None:
            break
    os.close(master)
    out, _ = proc.communicate(timeout=30)
    return proc.returncode, out.decode(), shown.decode(errors="replace")


def _states_seen(shown: str, rid: str) -> list[str]:
    lines = [seg for line in shown.replace("\r", "\n").splitlines() for seg in [line]]
    return [ln for ln in lines if rid in ln and "elapsed" in ln]


def test_submit_wait_shows_progress_on_a_terminal_only(slate_env) -> None:
    rid = f"{PROJECT}:scene-01"
    code, out, shown = _on_pty(
        slate_env,
        "--json",
        "submit",
        "--request-id",
        rid,
        "--kind",
        "video",
        "--prompt",
        "tide",
        "--wait",
    )
    assert code == 0, (out, shown)
    assert json.loads(out)["task"]["state"] == "success"  # one JSON object, nothing else
    assert len(out.strip().splitlines()) == 1
    lines = _states_seen(shown, rid)
    assert lines, shown
    assert any("Processing" in ln or "Queueing" in ln or "Preparing" in ln for ln in lines), shown
    assert f"{rid}: Done" in shown
    assert "{" not in shown  # the JSON went to stdout only
    # No terminal: nothing on stderr but what was there before (no progress words).
    quiet = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "--json",
            "submit",
            "--request-id",
            f"{PROJECT}:scene-02",
            "--kind",
            "video",
            "--prompt",
            "tide",
            "--wait",
        ],
        env=slate_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert quiet.returncode == 0, quiet.stderr
    assert "elapsed" not in quiet.stderr and "Processing" not in quiet.stderr
    assert len(quiet.stdout.strip().splitlines()) == 1


def test_wait_shows_progress_and_the_estimate_from_past_tasks(slate, slate_env, demo_sim) -> None:
    for i in range(2):  # two like it finished before: the estimate has something to learn from
        done = slate(
            "submit",
            "--request-id",
            f"{PROJECT}:past-{i}",
            "--kind",
            "video",
            "--prompt",
            "tide",
            "--wait",
            timeout=120,
        )
        assert done.code == 0, done
    rid = f"{PROJECT}:scene-03"
    demo_sim.set_faults(slow=600.0)  # this one stays in Processing while `wait` follows it
    sent = slate("submit", "--request-id", rid, "--kind", "video", "--prompt", "tide")
    assert sent.code == 0, sent
    demo_sim.set_faults(slow=0.0)
    # once `wait` has shown the estimate, the provider's clock moves past the task's end
    finish = ("from your last 2 like it", lambda: demo_sim.set_clock(advance=600.0))
    code, out, shown = _on_pty(slate_env, "wait", rid, once_shown=finish)
    assert code == 0, (out, shown)
    assert out.startswith("ok: " + rid)  # the human answer, on stdout, as before
    assert "from your last 2 like it" in shown, shown
    assert "elapsed" not in out


def test_batch_wait_shows_each_row_on_a_terminal(slate_env, tmp_path: Path) -> None:
    rows = "request_id,kind,prompt\n" + "".join(
        f"{PROJECT}:row-{i},video,row {i}\n" for i in range(2)
    )
    path = tmp_path / "shots.csv"
    path.write_text(rows)
    code, out, shown = _on_pty(slate_env, "--json", "batch", str(path), "--wait")
    assert code == 0, (out, shown)
    assert len(out.strip().splitlines()) == 1 and json.loads(out)["counts"]["created"] == 2
    for i, row in enumerate(json.loads(out)["rows"]):
        assert f"row {row['row']}: {PROJECT}:row-{i}: created" in shown, shown
        assert f"row {row['row']}: {PROJECT}:row-{i}: success" in shown, shown
    quiet = subprocess.run(
        [sys.executable, "-m", "app", "--json", "batch", str(path)],
        env=slate_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "row 2" not in quiet.stderr, quiet.stderr  # no terminal, not asked: no lines


def test_no_progress_silences_a_terminal(slate_env) -> None:
    rid = f"{PROJECT}:scene-04"
    code, out, shown = _on_pty(
        slate_env,
        "--json",
        "--no-progress",
        "submit",
        "--request-id",
        rid,
        "--kind",
        "video",
        "--prompt",
        "tide",
        "--wait",
    )
    assert code == 0, (out, shown)
    assert "elapsed" not in shown and rid not in shown
