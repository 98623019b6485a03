"""The suite's own set-up: lint and types are a step of README's test command (before the tests,
not inside them), mypy is strict where STYLE.md says, the tests run in parallel, and the modules
kept on one worker exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from tests.conftest import XDIST_GROUPS

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("<!-- test-command") :].split("```")[1]
    (line,) = [ln for ln in block.splitlines()[1:] if ln.strip()]
    return line


def test_lint_format_and_types_run_before_the_tests():
    steps = [s.strip() for s in readme_test_command().split("&&")]
    assert (
        steps.index(".venv/bin/ruff check .")
        < steps.index(".venv/bin/ruff format --check .")
        < steps.index(".venv/bin/mypy")
        < len(steps) - 1
    )
    assert re.fullmatch(r"\.venv/bin/python -m pytest -n \d+ --dist loadgroup", steps[-1])


def test_mypy_checks_the_app_strictly_where_style_says():
    mypy = PYPROJECT["tool"]["mypy"]
    assert mypy["files"] == ["app"]
    strict = {
        module
        for override in mypy["overrides"]
        if override.get("strict") and not override.get("ignore_errors", False)
        for module in override["module"]
    }
    assert {"app.domain.*", "app.service.*", "app.ui.current"} <= strict


def test_the_test_extras_bring_the_steps_tools():
    extras = " ".join(PYPROJECT["project"]["optional-dependencies"]["test"])
    for tool in ("pytest-xdist", "ruff", "mypy"):
        assert re.search(rf"\b{tool}\b", extras), tool


def test_every_module_kept_on_one_worker_exists():
    for path in XDIST_GROUPS:
        assert (ROOT / path).is_file(), path
