"""The command line speaks the user's language with the app's own translations; English (and
every --json run) needs no Qt."""

from __future__ import annotations

import subprocess
import sys

from app.cli_words import language, translator
from app.ui import said


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


def test_an_english_run_loads_no_qt_for_its_words() -> None:
    code = (
        "import sys\n"
        "from app.cli_words import translator\n"
        "from app import cli_progress\n"
        "translator('en')('State', 'Done')\n"
        "print(any(m.startswith('PySide6') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
