"""README's promises: its two commands are one line each and agree with what CI runs and what
the first-run check says, and no link leaves the repository (a clone has only the repository)."""

from __future__ import annotations

import glob
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from app import preflight

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
INSTALL = ROOT / ".ci" / "install-packages"
PACKAGES = INSTALL.read_text(encoding="utf-8")
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


def bash_array(name: str, text: str = PACKAGES) -> list[str]:
    found = re.search(rf"^{name}=\(([^)]*)\)", text, re.M)
    assert found, f"{name}=( … ) not found in .ci/install-packages"
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
        "bash .ci/install-packages && python3 -m venv .venv && .venv/bin/pip install -e '.[test]'"
        " && .venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy"
        " && .venv/bin/python -m pytest -n 6 --dist loadgroup"
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
    assert '"${qt_packages[@]}"' in PACKAGES and '"${test_packages[@]}"' in PACKAGES


def test_ci_installs_with_the_test_commands_script_before_it_starts_postgresql():
    """One list of packages: .ci/run installs nothing of its own, it runs the script README's
    test command runs, before it needs PostgreSQL's binaries."""
    assert "apt-get" not in CI and "qt_packages" not in CI
    assert CI.count("bash .ci/install-packages\n") == 1
    assert CI.index("bash .ci/install-packages") < CI.index("initdb")
    assert block_after("test-command")[0].startswith("bash .ci/install-packages && ")


def test_readme_names_every_package_the_script_installs():
    prose = README.replace("\n", " ")
    for pkg in bash_array("test_packages"):
        if pkg.startswith("fonts-"):
            assert "fonts" in prose
            continue
        assert f"`{pkg}`" in prose, pkg
    for pkg in ("python3-venv", "postgresql", "nodejs", "npm"):
        assert f"need+=({pkg}" in PACKAGES or f" {pkg})" in PACKAGES, pkg
    assert "`python3-venv`" in prose and "PostgreSQL" in prose and "npm" in prose


def _run_install(
    tmp_path: Path, *, uid: int, missing: list[str], sudo: bool = True, ensurepip: bool = True
):
    """.ci/install-packages with stand-ins for dpkg, apt-get, sudo, id, python3 and npm on the
    PATH (and the real ls and env): (exit status, stderr, the commands it ran as lines)."""
    bin_dir, log = tmp_path / "bin", tmp_path / "ran"
    bin_dir.mkdir()
    stubs = {
        "dpkg": 'for m in $MISSING; do [ "$2" = "$m" ] && exit 1; done; exit 0',
        "apt-get": 'echo "apt-get $*" >> "$LOG"',
        "id": f"echo {uid}",
        "python3": f"exit {0 if ensurepip else 1}",  # python3 -c 'import ensurepip'
        "npm": "exit 0",
    }
    if sudo:
        stubs["sudo"] = 'echo "sudo" >> "$LOG"; exec "$@"'
    for name, body in stubs.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    for real in ("ls", "env"):
        found = shutil.which(real)
        assert found
        (bin_dir / real).symlink_to(found)
    proc = subprocess.run(
        ["/bin/bash", str(INSTALL)],
        env={"PATH": str(bin_dir), "MISSING": " ".join(missing), "LOG": str(log)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    ran = log.read_text().splitlines() if log.exists() else []
    return proc.returncode, proc.stderr, ran


#: PostgreSQL is looked for where Debian puts it (not a package name): missing here, installed.
NO_PG = [] if glob.glob("/usr/lib/postgresql/*/bin/initdb") else ["postgresql"]


def test_the_install_script_installs_nothing_when_everything_is_there(tmp_path):
    code, err, ran = _run_install(tmp_path, uid=1000, missing=[])
    assert code == 0, err
    if NO_PG:
        assert [ln.split()[-1] for ln in ran if ln.startswith("apt-get install")] == NO_PG
    else:
        assert ran == []


def test_the_install_script_installs_venv_where_python_has_no_ensurepip(tmp_path):
    code, err, ran = _run_install(tmp_path, uid=0, missing=[], ensurepip=False)
    assert code == 0, err
    [install] = [ln for ln in ran if ln.startswith("apt-get install")]
    assert install.split()[-(1 + len(NO_PG)) :] == ["python3-venv", *NO_PG]


@pytest.mark.parametrize("uid", [1000, 0])
def test_the_install_script_installs_only_what_is_missing_with_sudo_unless_root(tmp_path, uid):
    code, err, ran = _run_install(tmp_path, uid=uid, missing=["libva2", "xdotool"])
    assert code == 0, err
    install = [ln for ln in ran if ln.startswith("apt-get install")]
    assert len(install) == 1 and "apt-get update -qq" in ran
    assert install[0].split()[-(2 + len(NO_PG)) :] == [*NO_PG, "libva2", "xdotool"]
    assert ("sudo" in ran) is (uid != 0)


def test_the_install_script_without_root_or_sudo_names_what_to_install(tmp_path):
    code, err, ran = _run_install(tmp_path, uid=1000, missing=["gcc"], sudo=False)
    assert code == 1 and ran == []
    assert "apt-get install -y" in err and "gcc" in err


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
