"""README's promises: its two commands are one line each and agree with what CI runs and what
the first-run check says, and no link leaves the repository (a clone has only the repository)."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

from app import preflight

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
#: Documents other work adds to docs/: a link to them may dangle until it lands.
COMING_DOCS = {"docs/DEMO.md"}


def block_after(marker: str) -> list[str]:
    """The lines of the first fenced block after an HTML comment starting with ``marker``."""
    at = README.index(f"<!-- {marker}")
    rest = README[at:].split("\n")
    start = next(i for i, line in enumerate(rest) if line.startswith("```"))
    end = next(i for i in range(start + 1, len(rest)) if rest[i].startswith("```"))
    return rest[start + 1 : end]


def bash_array(name: str) -> list[str]:
    found = re.search(rf"^{name}=\(([^)]*)\)", CI, re.M)
    assert found, f"{name}=( … ) not found in .ci/run"
    return found.group(1).split()


def apt_packages(command: str) -> list[str]:
    words = shlex.split(command.split("&&")[0])
    assert words[:4] == ["sudo", "apt-get", "install", "-y"], words[:4]
    return words[4:]


def test_test_command_is_exactly_what_ci_runs():
    lines = block_after("test-command")
    assert len(lines) == 1, lines
    # .ci/run's own extraction, run on README
    awk = re.search(r"cmd=\$\(awk '([^']*)' README.md\)", CI)
    assert awk, "ci: the README extraction changed"
    ci_cmd = subprocess.run(
        ["awk", awk.group(1), "README.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert ci_cmd == lines[0]
    assert 'bash -c "$cmd"' in CI
    assert lines[0] == (
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]'"
        " && .venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy"
        " && .venv/bin/python -m pytest -n 4 --dist loadgroup"
    )


def test_run_command_is_one_line_and_names_the_qt_packages():
    lines = block_after("run-command")
    assert len(lines) == 1, lines
    command = lines[0]
    assert command.count("apt-get install") == 1
    assert command.endswith(
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/slate"
    )
    packages = apt_packages(command)
    # python3-venv for the virtualenv; everything else is Qt's, in the first-run check's order
    assert packages[0] == "python3-venv"
    assert packages[1:] == list(preflight.DEBIAN_PACKAGES)


def test_ci_installs_the_same_qt_packages():
    assert bash_array("qt_packages") == list(preflight.DEBIAN_PACKAGES)
    assert '"${qt_packages[@]}"' in CI


def test_the_first_run_sentence_names_the_same_packages():
    check = preflight.PlatformCheck("xcb", "/x/libqxcb.so", ("libxcb-cursor.so.0",), ":0", None)
    sentence = preflight.Preflight("default", (check,)).sentence()
    assert sentence is not None
    apt = re.search(r"`sudo apt-get install -y ([^`]*)`", sentence)
    assert apt and apt.group(1).split() == list(preflight.DEBIAN_PACKAGES)
    dnf = re.search(r"`sudo dnf install -y ([^`]*)`", sentence)
    assert dnf and dnf.group(1).split() == list(preflight.FEDORA_PACKAGES)
    # README's Fedora line names the same (plus python3)
    readme_dnf = re.search(r"`sudo dnf install -y ([^`]*)`", README.replace("\n", " "))
    assert readme_dnf and readme_dnf.group(1).split() == ["python3", *preflight.FEDORA_PACKAGES]


def links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return LINK.findall(text) + re.findall(r"<(https?://[^>]+)>", text)


def test_no_link_leaves_the_repository():
    for doc in (ROOT / "README.md", ROOT / "docs" / "CONTRACT.md"):
        for target in links(doc):
            assert not re.match(r"^[a-z]+:", target), f"{doc.name}: {target} leaves the repository"
            path = target.split("#", 1)[0]
            if not path:
                continue  # an anchor in the same document
            resolved = (doc.parent / path).resolve()
            assert resolved.is_relative_to(ROOT), (
                f"{doc.name}: {target} points outside the repository"
            )
            rel = resolved.relative_to(ROOT).as_posix()
            assert resolved.exists() or rel in COMING_DOCS, f"{doc.name}: {target} does not exist"
    assert "shared/" not in README and "DESIGN.md" not in README


def test_contract_covers_the_command_line():
    contract = (ROOT / "docs" / "CONTRACT.md").read_text(encoding="utf-8")
    from app.cli import GLOBAL_OPTIONS, build_parser
    from app.config import ENV

    for flag, _dest, _type, _help in GLOBAL_OPTIONS:
        assert f"`{flag}`" in contract, flag
    for var in ENV.values():
        assert f"`{var}`" in contract, var
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for name in commands:
        assert f"`{name}" in contract, name
    for outcome in (
        "created",
        "replayed",
        "conflict",
        "unknown",
        "rejected",
        "invalid",
        "quota_exceeded",
        "ok",
        "not_found",
        "cancelled",
        "budget_exceeded",
    ):
        assert f"`{outcome}`" in contract, outcome
    assert contract.count("## Coming") == 1


def test_the_examples_call_slate_where_the_run_command_leaves_it():
    """The run command leaves `slate` in .venv/bin (not on the PATH): no example calls a bare
    `slate`."""
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    bare = [ln for b in blocks for ln in b.splitlines() if re.match(r"\s*slate\b", ln)]
    assert bare == []
    assert block_after("cli-examples")[0].startswith(".venv/bin/slate ")
