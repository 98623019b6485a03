"""README's command-line examples run as written after README's install command, in a fresh
venv made from a copy of the checkout: `python3 -m venv .venv && .venv/bin/pip install -e .`
(the run command without its apt-get part and without starting the window), then each example
line of the `cli-examples` block, against the embedded demo provider (no API key).

Every example answers one JSON object (or, for `--help` and `help contract`, its text) and none
is an internal error. The standalone demo server (`sim`, which serves until stopped) is started
on a free port instead of 8765 (tests never take a fixed port) and stopped. `recover --task-id
106916112212032` names a task the demo provider never made: it answers as the contract says for
that (not exit 1).

The test's own HOME is fresh, but pip's cache is the runner's (``PIP_CACHE_DIR``), as a user's
pip has one: on CI it is warm from installing the project, so pip resolves against the index as
written but does not download ~260 MB of wheels again. Python writes bytecode, as it does for a
user (CI's PYTHONDONTWRITEBYTECODE would make each example compile Slate's modules again).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import ROOT
from tests.unit.test_readme import block_after

SKIP = shutil.ignore_patterns(
    ".venv",
    ".git",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "screenshots",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    "bench-results",
    "*.whl",
)


def _examples() -> list[str]:
    """The block's commands, continuation lines joined, comments cut."""
    joined, out = "", []
    for line in block_after("cli-examples"):
        joined += line.rstrip("\\").rstrip() + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            out.append(joined.split("  #", 1)[0].strip())
            joined = ""
    return out


def _install_command() -> str:
    run = block_after("run-command")[0]
    steps = [s.strip() for s in run.split("&&")]
    keep = [s for s in steps if s.startswith(("python3 -m venv", ".venv/bin/pip install"))]
    assert len(keep) == 2, steps
    return " && ".join(keep)


def _runner_pip_cache() -> str:
    """Where pip keeps its cache for the user running the tests (pip's own default, before the
    test's HOME replaces theirs)."""
    if os.environ.get("PIP_CACHE_DIR"):
        return os.environ["PIP_CACHE_DIR"]
    return str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pip")


@pytest.mark.slow
def test_readme_examples_run_as_written_in_a_fresh_venv(tmp_path: Path) -> None:
    checkout = tmp_path / "slate"
    shutil.copytree(ROOT, checkout, ignore=SKIP)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLATE_", "VIRTUAL_ENV"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(
        PIP_CACHE_DIR=_runner_pip_cache(),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_NO_INPUT="1",
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_STATE_HOME=str(home / "state"),
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
        SLATE_DEMO_STAGE_SECONDS="0.2",
        PATH=os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p),
    )
    env.pop("MINIMAX_API_KEY", None)
    install = _install_command()
    assert install == "python3 -m venv .venv && .venv/bin/pip install -e ."
    python = Path(sys.executable).resolve()
    env["PATH"] = os.pathsep.join([str(python.parent), env["PATH"]])  # python3 = this Python
    built = subprocess.run(
        ["bash", "-c", install.replace("python3 ", f"{python} ", 1)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (checkout / "shots.csv").write_text(
        "request_id,kind,prompt\narticle:20260816:tide-eye:scene-03,video,tide eye wide\n"
    )
    examples = _examples()
    assert examples and all(e.startswith(".venv/bin/slate ") for e in examples)
    answered = {}
    for example in examples:
        argv = shlex.split(example)
        if argv[1] == "sim":  # on a free port: tests never take a fixed one
            argv = [a if a != "8765" else "0" for a in argv]
            proc = subprocess.Popen(argv, cwd=checkout, env=env, stdout=subprocess.PIPE, text=True)
            try:
                assert proc.stdout is not None
                first = proc.stdout.readline()
                assert "listening on http://127.0.0.1:" in first, first
            finally:
                proc.send_signal(signal.SIGINT)
                proc.wait(timeout=30)
            continue
        ran = subprocess.run(
            argv, cwd=checkout, env=env, capture_output=True, text=True, timeout=180
        )
        assert ran.returncode != 1, (example, ran.stdout, ran.stderr)
        assert "Traceback" not in ran.stderr, (example, ran.stderr)
        if "--json" in argv:
            lines = ran.stdout.strip().splitlines()
            assert len(lines) == 1, (example, ran.stdout)
            answered[argv[2]] = (ran.returncode, json.loads(lines[0]))
        else:
            assert ran.returncode == 0 and ran.stdout.strip(), (example, ran.stderr)
    code, submitted = answered["submit"]
    assert code == 0 and submitted["task"]["state"] == "success", submitted
    assert answered["status"][0] == 0 and answered["history"][0] == 0
    assert answered["batch"][0] == 0 and answered["batch"][1]["dry_run"] is True
    assert answered["spend"][0] == 0 and answered["spend"][1]["total"]["slots"] == 1
    assert answered["recover"][1]["outcome"] in ("invalid", "not_found", "ok", "unknown")
