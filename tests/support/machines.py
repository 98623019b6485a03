"""Real `slate` processes that play other machines: another host name, a clock that is off, a
module constant set for the test (a short lease), or a prefix such as ``unshare --pid``.

``spawn(env, argv, ...)`` starts one; ``finish(proc)`` waits for its one JSON line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

ROOT = Path(__file__).resolve().parents[2]

_BOOT = r"""
import importlib, json, sys
spec = json.loads(sys.argv[1])
if spec.get("clock_offset"):
    import time
    _real_time = time.time
    time.time = lambda: _real_time() + spec["clock_offset"]
if spec.get("hostname"):
    import socket
    socket.gethostname = lambda: spec["hostname"]
for target, value in spec.get("patches", {}).items():
    module, name = target.rsplit(".", 1)
    setattr(importlib.import_module(module), name, value)
from app.cli import main
sys.exit(main(spec["argv"]))
"""


@dataclass
class Done:
    code: int
    out: dict[str, Any]
    stdout: str
    stderr: str


def spawn(
    env: dict[str, str],
    argv: Sequence[str],
    *,
    clock_offset: float = 0.0,
    hostname: str | None = None,
    patches: dict[str, Any] | None = None,
    prefix: Sequence[str] = (),
) -> subprocess.Popen[str]:
    spec = {
        "argv": ["--json", *argv],
        "clock_offset": clock_offset,
        "hostname": hostname,
        "patches": patches or {},
    }
    return subprocess.Popen(
        [*prefix, sys.executable, "-c", _BOOT, json.dumps(spec)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str], timeout: float = 60.0) -> Done:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"process did not finish in {timeout} s; stderr {err[-3000:]!r}")
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert len(lines) == 1, f"one JSON line expected, got {out!r}; stderr {err[-3000:]!r}"
    return Done(proc.returncode, json.loads(lines[0]), out, err)


def run(env: dict[str, str], argv: Sequence[str], timeout: float = 60.0, **kw: Any) -> Done:
    return finish(spawn(env, argv, **kw), timeout)


def wait_until(check: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(0.02)


def stop(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGSTOP)


def resume(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGCONT)
