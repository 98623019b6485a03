"""mypy --strict holds on the pure rules and the service layer (STYLE.md, "Lint and types")."""

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[2]


def test_domain_and_service_pass_mypy_strict():
    out, err, status = api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--no-error-summary",
            str(ROOT / "app" / "domain"),
            str(ROOT / "app" / "service"),
        ]
    )
    assert status == 0, out + err
