"""A data dir Slate cannot use opens a window that says so in the designer's words and offers
another folder; choosing one continues there (the real composition root builds in it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.domain.errors import BadConfiguration
from app.ui.app import _build, install_translations
from app.ui.qt import QApplication
from app.ui.unusable import UnusableDialog, build_or_ask
from tests.support.fixtures import make_config

# The offscreen platform cannot pass a top-level dialog's size hints on (it says so for every
# dialog shown by itself); not a fault of ours.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def _dialog() -> UnusableDialog | None:
    for w in QApplication.topLevelWidgets():
        if isinstance(w, UnusableDialog) and w.isVisible():
            return w
    return None


def test_a_data_dir_that_is_a_file_asks_for_another_folder_and_continues(
    qtbot: Any, qloop: Any, tmp_path: Path
) -> None:
    bad = tmp_path / "a-file"
    bad.write_text("x")
    config: Config = make_config(bad, f"sqlite:///{bad}/slate.sqlite3").with_(provider="demo")
    good = tmp_path / "elsewhere"
    good.mkdir(mode=0o700)
    asked: list[BadConfiguration] = []

    async def asker(problem: BadConfiguration) -> Path | None:
        from app.ui.unusable import ask

        asked.append(problem)
        return await ask(problem, chooser=lambda _parent, _title: str(good))

    task = qloop.create_task(build_or_ask(config, _build, asker))
    qtbot.waitUntil(lambda: _dialog() is not None, timeout=30_000)
    dialog = _dialog()
    assert dialog is not None
    text = dialog.text.text()
    assert str(bad) in text and "file, not a folder" in text
    assert "--data-dir" not in text and "Traceback" not in text  # the designer's words
    dialog.choose.click()
    qtbot.waitUntil(task.done, timeout=60_000)
    slate = task.result()
    try:
        assert slate is not None and slate.config.data_dir == good
        assert (good / "slate.sqlite3").exists()
    finally:
        closing = qloop.create_task(slate.aclose())
        qtbot.waitUntil(closing.done, timeout=30_000)
    assert [p.reason for p in asked] == ["is_file"]
    assert bad.read_text() == "x"


def test_quit_answers_none(qtbot: Any, qloop: Any, tmp_path: Path) -> None:
    bad = tmp_path / "a-file"
    bad.write_text("x")
    config = make_config(bad, f"sqlite:///{bad}/slate.sqlite3").with_(provider="demo")
    task = qloop.create_task(build_or_ask(config, _build))
    qtbot.waitUntil(lambda: _dialog() is not None, timeout=30_000)
    dialog = _dialog()
    assert dialog is not None
    dialog.quit.click()
    qtbot.waitUntil(task.done, timeout=30_000)
    assert task.result() is None


def test_every_reason_in_both_languages(qapp: Any, qtbot: Any) -> None:
    for reason in BadConfiguration.REASONS:
        setting = "store" if reason in ("not_database", "cannot_open", "is_folder") else "data_dir"
        problem = BadConfiguration(setting, "/srv/slate", reason)
        for lang, script in (("en", r"[A-Za-z]"), ("zh_CN", r"[\u4e00-\u9fff]")):
            install_translations(qapp, lang)
            try:
                dialog = UnusableDialog(problem)
                qtbot.addWidget(dialog)
                for said in (dialog.text.text(), dialog.windowTitle(), dialog.choose.text()):
                    assert re.search(script, said), (lang, reason, said)
                assert "/srv/slate" in dialog.text.text()
            finally:
                install_translations(qapp, "en")
