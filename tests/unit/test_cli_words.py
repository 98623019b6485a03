"""The command line speaks the user's language with the app's own translations, and no run of it
needs Qt: its words come from app.present, translated from the shipped .ts without Qt."""

from __future__ import annotations

import json
import subprocess
import sys

from app.present import said
from app.present.translations import language, translator


def test_language_from_flag_or_locale() -> None:
    assert language("zh_CN", {}) == "zh_CN"
    assert language(None, {"LANG": "zh_CN.UTF-8"}) == "zh_CN"
    assert language(None, {"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}) == "en"
    assert language(None, {"LC_MESSAGES": "en_GB.UTF-8"}) == "en_GB"
    assert language(None, {}) == "en"


def test_the_apps_chinese_words() -> None:
    tr = translator("zh_CN")
    assert "未知" in tr("SpendDialog", said.SOME_UNKNOWN)
    assert translator("en") is said.plain or translator("en")("State", "Done") == "Done"
    assert translator("xx_YY")("State", "Done") == "Done"  # no words in that language: English


def _qt_loaded_after(code: str) -> list[str]:
    """The Qt and desktop-app modules loaded by ``code`` in a fresh interpreter."""
    code += (
        "\nimport sys, json\n"
        "print(json.dumps(sorted(m for m in sys.modules\n"
        "    if m.split('.')[0] in ('PySide6', 'shiboken6') or m.startswith('app.ui'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return list(json.loads(out.stdout.splitlines()[-1]))


def test_an_english_run_loads_no_qt_for_its_words() -> None:
    code = (
        "from app.present.translations import translator\n"
        "from app import cli_progress\n"
        "translator('en')('State', 'Done')"
    )
    assert _qt_loaded_after(code) == []


def test_a_chinese_run_loads_no_qt_for_its_words() -> None:
    code = (
        "from app.present.translations import translator\n"
        "from app import cli_progress\n"
        "assert translator('zh_CN')('State', 'Done') != 'Done'"
    )
    assert _qt_loaded_after(code) == []


def test_slate_help_imports_no_qt() -> None:
    """``python -m app --help`` (the command line as it starts) loads neither Qt nor the window."""
    code = (
        "import contextlib, io, runpy, sys\n"
        "sys.argv = ['slate', '--help']\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    runpy.run_module('app', run_name='__main__')"
    )
    assert _qt_loaded_after(code) == []
    for lang in ("en", "zh_CN"):
        code = (
            "import contextlib, io\n"
            "import app.cli\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            f"    app.cli.main(['--lang', '{lang}', 'submit', '--help'])"
        )
        assert _qt_loaded_after(code) == [], lang


def test_the_parser_loads_no_demo_provider() -> None:
    """Building ``slate``'s parser names ``slate sim``'s options without loading the demo
    provider's server (issue 34: a start with an API key never runs it)."""
    code = (
        "import sys, json, app.cli\n"
        "app.cli.build_parser()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('app.sim'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout.splitlines()[-1])
    assert "app.sim.server" not in loaded and "app.sim.cli" in loaded, loaded
