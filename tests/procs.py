"""Real processes for concurrency tests: each imports Slate, says it is ready, waits for a common
start time, then runs one `slate` command, so the commands truly race.

A readiness barrier, not a fixed lead: every process imports Slate and builds the parser, then
says ``ready`` on its stdout and waits on its stdin. When all of them are ready (however long a
busy machine takes to start them) they are handed one start instant a moment ahead, and each
runs its command at that instant.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parents[1]

_WORKER = (
    "import os, sys, time\n"
    "from app.cli import main, build_parser\n"
    "build_parser()\n"
    "print('ready', flush=True)\n"
    "start = float(sys.stdin.readline())\n"
    "fd = os.open(os.devnull, os.O_RDONLY)\n"  # the command itself gets no stdin, as before
    "os.dup2(fd, 0)\n"
    "sys.stdin = open(os.devnull)\n"
    "time.sleep(max(0.0, start - time.time()))\n"
    "sys.exit(main(sys.argv[1:]))\n"
)

#: From the moment the last process is ready to the common start: enough to hand every process
#: its start instant (a line on a pipe each), short against what a process takes to start.
LEAD = 0.3


def race(
    env: dict[str, str],
    argvs: Sequence[Sequence[str]],
    *,
    lead: float = LEAD,
    timeout: float = 120.0,
    envs: Sequence[dict[str, str]] | None = None,
) -> list[tuple[int, dict]]:
    """Start one process per argv; once all are ready, all run their command at one instant.
    ``envs``: one environment per argv, over ``env`` (e.g. each process in its own time zone)."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, "--json", *argv],
            env={**env, **(envs[i] if envs is not None else {})},
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, argv in enumerate(argvs)
    ]
    try:
        for p in procs:
            assert p.stdout is not None
            line = p.stdout.readline()  # blocks until this one is ready (or has died)
            if line.strip() != "ready":
                _out, err = p.communicate(timeout=timeout)
                raise AssertionError(f"a racer did not start: {line!r}; stderr {err[-2000:]!r}")
        start = time.time() + lead
        for p in procs:
            assert p.stdin is not None
            p.stdin.write(f"{start!r}\n")
            p.stdin.flush()  # communicate() closes it
        results = []
        for p in procs:
            out, err = p.communicate(timeout=timeout)
            lines = [ln for ln in out.splitlines() if ln.strip()]
            assert len(lines) == 1, f"one JSON line expected, got {out!r}; stderr {err[-2000:]!r}"
            results.append((p.returncode, json.loads(lines[0])))
        return results
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(10)
