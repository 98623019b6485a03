"""Failure paths in one command: ``--demo-fault`` / SLATE_DEMO_FAULT for the embedded demo
provider, ``slate sim --list-faults``, and docs/DEMO.md's "Try the failure paths", whose commands
are run here exactly as written (plus ``--json``, a global option that only changes the output
format) and must give the outcome, state and exit code the doc states under each.

The doc's commands run as a user runs them: one `slate` process each (``_slate``). The other
checks of a command's answer (a bad fault refused, the environment's spelling, the embedded
provider only) run the command through the CLI's entry point in this process (``_answer``:
``run_slate_in_process``; as a process where SLATE_TEST_CLI=subprocess)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.sim.config import FAULTS, fault_lines
from tests.conftest import ROOT
from tests.support.fixtures import run_slate_in_process
from tests.support import web

DOC = ROOT / "docs" / "DEMO.md"
EXPECT = re.compile(
    r"#\s*→\s*(?P<outcome>[a-z_]+)(?:\s*·\s*state (?P<state>[a-z_]+))?\s*·\s*exit (?P<exit>\d+)"
)

pytestmark = pytest.mark.timeout(300)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("SLATE_") or k.startswith("SLATE_TEST_PG_")
    }
    env.pop("MINIMAX_API_KEY", None)
    env.update(
        SLATE_DATA_DIR=str(tmp_path / "data"),
        SLATE_TEST_KEYRING_FILE=str(tmp_path / "keyring.json"),
        SLATE_DEMO_STAGE_SECONDS="0.5",
        QT_QPA_PLATFORM="offscreen",
    )
    env.update(extra)
    return env


def _slate(
    env: dict[str, str], argv: list[str], timeout: float = 120
) -> tuple[int, dict[str, Any], str]:
    proc = subprocess.run(
        [sys.executable, "-m", "app", *argv],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, (argv, proc.stdout, proc.stderr[-2000:])
    return proc.returncode, json.loads(lines[0]), proc.stderr


def _answer(env: dict[str, str], argv: list[str]) -> tuple[int, dict[str, Any], str]:
    """``slate ARGV`` (with ``--json``) as ``_slate`` answers it, through the CLI's entry point in
    this process (exactly ``env`` as its environment), or as a process where
    SLATE_TEST_CLI=subprocess."""
    if os.environ.get("SLATE_TEST_CLI") == "subprocess":
        return _slate(env, argv)
    assert argv[0] == "--json", argv  # run_slate_in_process puts it first
    done = run_slate_in_process(env, *argv[1:])
    return done.code, done.out, done.stderr


def _section(text: str, title: str) -> str:
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 3)
    return text[start : end if end > 0 else None]


def doc_blocks() -> list[list[tuple[str, dict[str, str | None]]]]:
    """Each code block of the section: ``(command, {"outcome", "state", "exit"})`` per command,
    in order. A block is one story (its own slots), run in order on its own data dir."""
    section = _section(DOC.read_text(encoding="utf-8"), "Try the failure paths")
    blocks = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)
    out: list[list[tuple[str, dict[str, str | None]]]] = []
    for block in blocks:
        lines = [ln.strip() for ln in block.strip().splitlines() if ln.strip()]
        steps: list[tuple[str, dict[str, str | None]]] = []
        for i, line in enumerate(lines):
            if line.startswith("slate "):
                match = EXPECT.match(lines[i + 1]) if i + 1 < len(lines) else None
                assert match, f"no '# → outcome · exit N' line under {line!r}"
                steps.append((line, match.groupdict()))
        if steps:
            out.append(steps)
    return out


def doc_commands() -> list[tuple[str, dict[str, str | None]]]:
    """Every command of the section, in order."""
    return [step for block in doc_blocks() for step in block]


def _block_id(block: list[tuple[str, dict[str, str | None]]]) -> str:
    """The block's first slot (its RequestId's last part): the story it tells."""
    found = re.search(r"demo:\d+:try:([\w-]+)", block[0][0])
    return found.group(1) if found else block[0][0][:30]


def test_the_doc_shows_each_failure_path() -> None:
    steps = doc_commands()
    assert len(BLOCKS) >= 6  # a story per failure path, each run on its own
    seen = {(s["outcome"], s["state"]) for _, s in steps}
    assert ("created", "fail") in seen  # a failing slot
    assert ("unknown", "unknown") in seen  # an unknown slot
    assert any(
        cmd.startswith("slate recover") and "--lookup" in cmd for cmd, _ in steps
    )  # recovered
    assert ("ok", "processing") in seen  # a slow slot
    assert ("rejected", "rejected") in seen  # a rate-limited create


BLOCKS = doc_blocks()


@pytest.mark.slow  # real `slate` processes, one per command
@pytest.mark.parametrize("block", BLOCKS, ids=[_block_id(b) for b in BLOCKS])
def test_try_the_failure_paths_runs_as_documented(tmp_path: Path, block) -> None:
    """Each story of the section, as written, on its own data dir (the stories share nothing:
    each has its own slots), so they run side by side."""
    env = _env(tmp_path)
    for command, expected in block:
        argv = shlex.split(command)
        assert argv[0] == "slate"
        code, out, err = _slate(env, [*argv[1:], "--json"])
        where = f"{command}\n→ exit {code}: {json.dumps(out)[:600]}\n{err[-800:]}"
        assert code == int(expected["exit"]), where
        assert out["outcome"] == expected["outcome"], where
        if expected["state"]:
            assert out["task"]["state"] == expected["state"], where
        assert out["task"]["provider"] == "demo", where


def test_doc_fault_table_matches_the_switches() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("<!-- fault-table") : text.index("<!-- /fault-table -->")]
    rows = re.findall(r"^\| `([^`]+)` \| (.+) \|$", table, re.MULTILINE)
    assert rows == [(name + value, does) for name, value, does in fault_lines()]


def test_list_faults_prints_every_switch(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "app", "sim", "--list-faults"],
        env=_env(tmp_path),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    for name, value, does in fault_lines():
        assert re.search(
            rf"^  {re.escape(name + value)}\s+{re.escape(does)}$", proc.stdout, re.MULTILINE
        ), name
    code, out, _ = _answer(_env(tmp_path), ["--json", "sim", "--list-faults"])
    assert code == 0 and out["outcome"] == "ok" and "text" not in out
    assert [f["name"] for f in out["faults"]] == [n.replace("_", "-") for n in FAULTS] + ["random"]
    assert all(f["does"] for f in out["faults"])


def test_bad_demo_fault_is_invalid_and_nothing_is_stored(tmp_path: Path) -> None:
    env = _env(tmp_path)
    rid = "demo:20261201:try:bad-01"
    for bad in (
        "nonsense",
        "slow=-1",
        "slow=nan",
        "rate-limit=many",
        "random=2",
        "random.nothing=0.5",
    ):
        code, out, _ = _answer(
            env,
            [
                "--json",
                "--demo-fault",
                bad,
                "submit",
                "--request-id",
                rid,
                "--kind",
                "video",
                "--prompt",
                "p",
            ],
        )
        assert code == 2 and out["outcome"] == "invalid", (bad, out)
        assert out["error"]["field"] == "demo_fault" and "demo_fault" in out["error"]["message"], (
            out
        )
    code, out, _ = _answer({**env, "SLATE_DEMO_FAULT": "nonsense"}, ["--json", "status", rid])
    assert code == 2 and out["error"]["field"] == "demo_fault"
    code, out, _ = _answer(env, ["--json", "status", rid])
    assert code == 8 and out["outcome"] == "not_found"  # nothing was stored


def test_demo_fault_from_the_environment_and_both_spellings(tmp_path: Path) -> None:
    env = _env(tmp_path)
    for i, spec in enumerate(
        ("lose_create_response", "lose-create-response=1", "slow=1,lose-create-response")
    ):
        rid = f"demo:20261201:try:env-{i:02d}"
        code, out, _ = _answer(
            {**env, "SLATE_DEMO_FAULT": spec},
            ["--json", "submit", "--request-id", rid, "--kind", "video", "--prompt", f"p{i}"],
        )
        assert (code, out["outcome"], out["task"]["state"]) == (4, "unknown", "unknown"), (
            spec,
            out,
        )
    # the option wins over the environment
    code, out, _ = _answer(
        {**env, "SLATE_DEMO_FAULT": "lose-create-response"},
        [
            "--json",
            "--demo-fault",
            "slow=1",
            "submit",
            "--request-id",
            "demo:20261201:try:env-99",
            "--kind",
            "video",
            "--prompt",
            "p99",
        ],
    )
    assert code == 0 and out["outcome"] == "created"


def test_demo_fault_applies_to_the_embedded_provider_only(tmp_path: Path) -> None:
    env = _env(tmp_path)
    args = [
        "submit",
        "--request-id",
        "demo:20261201:try:emb-01",
        "--kind",
        "video",
        "--prompt",
        "p",
    ]
    code, out, _ = _answer(
        env,
        [
            "--json",
            "--demo-fault",
            "slow",
            "--provider",
            "demo",
            "--base-url",
            "http://127.0.0.1:9",
            *args,
        ],
    )
    assert (
        code == 2
        and out["error"]["field"] == "demo_fault"
        and "slate sim --fault" in out["error"]["message"]
    )
    code, out, _ = _answer(
        {**env, "MINIMAX_API_KEY": "sk-not-used"}, ["--json", "--demo-fault", "slow", *args]
    )
    assert code == 2 and out["error"]["field"] == "demo_fault"


def test_slate_sim_fault_specs(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app.sim",
            "--fault",
            "lose-create-response=1,slow=30",
            "--fault",
            "status_word=completed",
            "--fault",
            "create-error-code=2061",
        ],
        env=_env(tmp_path),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        hello = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
        faults = web.get(hello["base_url"] + "/_sim/faults").json()["faults"]
        assert faults["lose_create_response"] == 1 and faults["slow"] == 30.0
        assert faults["status_word"] == "completed"
        assert (
            faults["create_error_code"] == 2061 and faults["create_error"] > 1000
        )  # the code alone: always
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    for bad in ("slow=-1", "nonsense", "rate-limit=x"):
        out = subprocess.run(
            [sys.executable, "-m", "app.sim", "--fault", bad],
            env=_env(tmp_path),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 2 and json.loads(out.stdout)["error"]["field"] == "fault", bad


async def test_the_embedded_provider_gets_the_switches(tmp_path: Path) -> None:
    """In process: the config carries the spec, make_provider gives it to the embedded sim
    (also what the GUI builds, since it rebuilds its config from the same fields)."""
    from app import config as config_mod
    from app.bootstrap import make_provider

    config = config_mod.load(
        {"demo_fault": "slow=5, status-word=completed"},
        environ={"SLATE_DATA_DIR": str(tmp_path / "data")},
    )
    assert config.demo_fault == "slow=5, status-word=completed"
    provider, sim = make_provider(config, None)
    try:
        assert sim.faults.slow == 5.0 and sim.faults.status_word == "completed"
        assert sim.tls_cert is None  # the embedded provider speaks plain HTTP
    finally:
        await provider.aclose()
        sim.stop()
    again = config_mod.load(
        {},
        environ={
            "SLATE_DATA_DIR": str(tmp_path / "data"),
            "SLATE_DEMO_FAULT": "lose-create-response",
        },
    )
    provider, sim = make_provider(again, None)
    try:
        assert sim.faults.lose_create_response > 1000 and sim.faults.slow == 0
    finally:
        await provider.aclose()
        sim.stop()
