"""Real processes for concurrency tests: each imports Slate, waits for a common start time,
then runs one `slate` command, so the commands truly race."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parents[1]

_WORKER = (
    "import sys, time\n"
    "from app.cli import main, build_parser\n"
    "build_parser()\n"
    "start = float(sys.argv[1])\n"
    "time.sleep(max(0.0, start - time.time()))\n"
    "sys.exit(main(sys.argv[2:]))\n"
)


def race(
    env: dict[str, str],
    argvs: Sequence[Sequence[str]],
    *,
    lead: float = 4.0,
    timeout: float = 120.0,
    envs: Sequence[dict[str, str]] | None = None,
) -> list[tuple[int, dict]]:
    """Start one process per argv; all run their command at the same instant. ``envs``: one
    environment per argv, over ``env`` (e.g. each process in its own time zone)."""
    start = time.time() + lead
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, repr(start), "--json", *argv],
            env={**env, **(envs[i] if envs is not None else {})},
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, argv in enumerate(argvs)
    ]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        lines = [ln for ln in out.splitlines() if ln.strip()]
        assert len(lines) == 1, f"one JSON line expected, got {out!r}; stderr {err[-2000:]!r}"
        results.append((p.returncode, json.loads(lines[0])))
    return results
