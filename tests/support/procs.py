"""Real processes for concurrency tests: each runs one `slate` command, and all of them start it
at the same moment, so the commands truly race.

One interpreter imports Slate (what a command needs, without opening anything), then forks one
process per command: each is a process of its own (its own pid, so its own owner of what it
claims; its own store connections, opened after the fork; its own environment), and none pays
Slate's import again. A barrier, not a clock: every child blocks on one pipe until all of them
exist, then the parent of them writes one byte per child and all of them run their command.
Each child's stdout and stderr go to files of their own; the answers are read from there.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, Sequence

from tests.support.machines import start_python

#: The forking interpreter. Reads one JSON line on stdin: the commands, each child's extra
#: environment, the folder for their streams. Says ``ready`` when every child waits at the
#: barrier, opens it on the next line, then prints every child's exit status as one JSON list.
_ZYGOTE = r"""
import json, os, sys, time, traceback
import app.cli, app.bootstrap, app.notices, app.cli_progress, app.logs  # what a command imports
import sqlalchemy.dialects.postgresql.psycopg, sqlalchemy.dialects.sqlite  # the stores' drivers
# what a command imports as it runs (the migrations' machinery, HTTP, images, the providers):
# imported once here, not once per child after the barrier
import alembic.command, alembic.config, alembic.script, alembic.runtime.migration, mako.template
import httpx, httpcore._sync.connection_pool, httpcore._async.connection_pool, h11, anyio, certifi
import PIL.Image, PIL.PngImagePlugin, PIL.JpegImagePlugin
import app.providers.demo, app.providers.minimax, app.providers.minimax_v2, app.providers.voice
from app.cli import main, build_parser
build_parser()
job = json.loads(sys.stdin.readline())
gate_r, gate_w = os.pipe()
sys.stdout.flush(); sys.stderr.flush()
pids = []
for i, (argv, extra) in enumerate(zip(job["argvs"], job["envs"])):
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(gate_w)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            for fd, name in ((1, "out"), (2, "err")):
                f = os.open(os.path.join(job["dir"], f"{i}.{name}"), os.O_WRONLY | os.O_CREAT, 0o600)
                os.dup2(f, fd)
            sys.stdin = open(os.devnull)
            os.environ.update(extra)
            time.tzset()
            if not os.read(gate_r, 1):  # the barrier: every child is here before any runs
                os._exit(3)  # the parent died before opening it: run nothing
            code = main(["--json", *argv])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush(); sys.stderr.flush()
            finally:
                os._exit(code)
    pids.append(pid)
os.close(gate_r)
print("ready", flush=True)
sys.stdin.readline()
os.write(gate_w, b"x" * len(pids))
codes = []
for pid in pids:
    _pid, status = os.waitpid(pid, 0)
    codes.append(os.waitstatus_to_exitcode(status))
print(json.dumps(codes), flush=True)
"""


def start_racers(env: dict[str, str]) -> subprocess.Popen[str]:
    """The forking interpreter for a later ``race(env, ..., racers=...)``, started now: its
    imports run while the test does something else (an earlier race, say)."""
    return start_python(env, ["-c", _ZYGOTE])


def race(
    env: dict[str, str],
    argvs: Sequence[Sequence[str]],
    *,
    timeout: float = 120.0,
    envs: Sequence[dict[str, str]] | None = None,
    racers: subprocess.Popen[str] | None = None,
) -> list[tuple[int, dict]]:
    """One process per argv, all running their command at one moment; (exit status, answer)
    of each, in order. ``envs``: one environment per argv, over ``env`` (e.g. each process in
    its own time zone). ``racers``: their forking interpreter, started earlier by
    ``start_racers(env)`` (the same ``env``); a new one otherwise."""
    extra = [dict(envs[i]) if envs is not None else {} for i in range(len(argvs))]
    with tempfile.TemporaryDirectory(prefix="slate-race-") as folder:
        proc = racers if racers is not None else start_racers(env)
        try:
            assert proc.stdin is not None and proc.stdout is not None
            job = {"argvs": [list(a) for a in argvs], "envs": extra, "dir": folder}
            proc.stdin.write(json.dumps(job) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()  # blocks until every child waits at the barrier
            if line.strip() != "ready":
                _out, err = proc.communicate(timeout=timeout)
                raise AssertionError(f"the racers did not start: {line!r}; stderr {err[-2000:]!r}")
            out, err = proc.communicate("go\n", timeout=timeout)
            assert proc.returncode == 0, f"the racers' parent failed: {err[-2000:]!r}"
            codes = json.loads(out.strip().splitlines()[-1])
            results = []
            for i, code in enumerate(codes):
                stdout = Path(folder, f"{i}.out").read_text()
                stderr = Path(folder, f"{i}.err").read_text()
                lines = [ln for ln in stdout.splitlines() if ln.strip()]
                assert len(lines) == 1, (
                    f"one JSON line expected, got {stdout!r}; stderr {stderr[-2000:]!r}"
                )
                results.append((code, json.loads(lines[0])))
            return results
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def in_forked_child(ask: Callable[[], bool]) -> bool:
    """``ask()`` answered in a child forked from this process (its own pid, this process's
    memory as it is now), the answer carried back through a pipe; False when it raised."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer, then leave without running anything of the parent's
        try:
            os.write(write, b"1" if ask() else b"0")
        finally:
            os._exit(0)
    os.close(write)
    said = os.read(read, 1)
    os.close(read)
    os.waitpid(pid, 0)
    return said == b"1"
