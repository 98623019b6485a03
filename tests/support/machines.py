"""Real `slate` processes that play other machines: another host name, a clock that is off, a
module constant set for the test (a short lease), or a prefix such as ``unshare --pid``.

``spawn(env, argv, ...)`` starts one; ``finish(proc)`` waits for its one JSON line.

``spawn(..., gated=True)`` starts one that gets ready (Python, Slate's imports, the patches)
and then waits: ``go(proc)`` lets its command run. A test starts the processes it will need
side by side, while it waits for something else, and each command still runs at the moment
the test chooses, without a process start-up (about a second of imports) in between.
``cancel(*procs)`` ends those never let go (a test that failed first).

``start_python(env, args)`` is how each of them starts, and how the tests start their other
Python processes that wait on their stdin for the test's word (a lock holder, the racers'
forking interpreter, a lockstep racer): at the repository's root, stdio piped as text.
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
if spec.get("gated"):
    import app.bootstrap, app.config, app.logs, app.notices  # what main() imports as it runs
    if sys.stdin.readline() != "go\n":
        sys.exit(0)  # the test ended without letting it run
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
    gated: bool = False,
) -> subprocess.Popen[str]:
    spec = {
        "argv": ["--json", *argv],
        "clock_offset": clock_offset,
        "hostname": hostname,
        "patches": patches or {},
        "gated": gated,
    }
    return start_python(env, ["-c", _BOOT, json.dumps(spec)], prefix=prefix, gated=gated)


def start_python(
    env: dict[str, str],
    args: Sequence[str],
    *,
    prefix: Sequence[str] = (),
    gated: bool = True,
) -> subprocess.Popen[str]:
    """``python <args>`` (after ``prefix``) in ``env`` at the repository's root, its stdout
    and stderr piped as text. ``gated``: its stdin a pipe too, that the test writes its word
    to (``go``, or the process's own protocol) when it lets the process go on."""
    return subprocess.Popen(
        [*prefix, sys.executable, *args],
        env=env,
        cwd=ROOT,
        stdin=subprocess.PIPE if gated else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def go(proc: subprocess.Popen[str]) -> subprocess.Popen[str]:
    """Let a gated process (``spawn(..., gated=True)``) run its command now; its stdin is then
    closed (the command reads nothing from it)."""
    assert proc.stdin is not None, "go() is for a process spawned with gated=True"
    stdin, proc.stdin = proc.stdin, None  # communicate() in finish() must not flush it
    try:
        stdin.write("go\n")
        stdin.close()
    except BrokenPipeError:  # it ended already: finish() shows how
        pass
    return proc


def go_finish(proc: subprocess.Popen[str], timeout: float = 60.0) -> Done:
    """``go`` then ``finish``: the gated process's command, run now, and its one JSON line."""
    return finish(go(proc), timeout)


def cancel(*procs: subprocess.Popen[str]) -> None:
    """End the processes that are still running (gated ones never let go, after a failure)."""
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


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
