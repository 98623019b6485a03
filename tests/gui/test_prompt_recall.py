"""Prompt recall (issue 23): this user's earlier prompts from the store (through the service),
searched as the designer types, inserted into the draft or a new slot started from one; another
user's prompts never show; on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Iterator

import pytest

from app.service.slate import SlateService
from app.ui.recall import PromptRecall
from tests.support.fixtures import SECRET
from tests.gui.conftest import Gui, _gui

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


@pytest.fixture
def gui(
    qtbot: Any, qloop: Any, data_dir: Path, sim: Any, tmp_path: Path, store_url: str
) -> Iterator[Gui]:
    g = _gui(qtbot, qloop, data_dir, sim, tmp_path, url=store_url)
    try:
        yield g
    finally:
        g.run(g.provider.aclose())
        g.store.close()


def _shown(dlg: PromptRecall) -> list[str]:
    return [str(dlg.list.item(i).toolTip()) for i in range(dlg.list.count())]


def test_earlier_prompts_are_searched_and_reused(gui, make_window, qtbot):
    svc = gui.service
    for scene, prompt in (
        ("01", "tide eye, slow dolly in"),
        ("02", "a lighthouse at dusk"),
        ("03", "Tide eye at NIGHT, 100% rain"),
        ("04", "a lighthouse at dusk"),  # the same prompt twice: one row, used 2×
    ):
        out = gui.run(
            svc.submit(f"article:20260816:recall:scene-{scene}", "image", {"prompt": prompt})
        )
        assert out.kind.value == "created"
    other = SlateService(dataclasses.replace(gui.config, user="someone-else"), gui.store,
                         gui.provider, SECRET)  # fmt: skip
    gui.run(other.submit("article:20260816:recall:scene-09", "image", {"prompt": "not mine"}))
    # The service's answer: the last used first, each prompt once.
    got = gui.run(svc.prompts())
    assert [p.text for p in got.payload.prompts] == [
        "a lighthouse at dusk", "Tide eye at NIGHT, 100% rain", "tide eye, slow dolly in",
    ]  # fmt: skip
    assert got.payload.prompts[0].uses == 2
    bad = gui.run(svc.prompts("x" * 201))
    assert bad.kind.value == "invalid" and bad.problem.field == "search"

    window = make_window()
    window.new_draft()
    window.shortcut_actions["recall"].trigger()
    dlg = window.dialog
    assert isinstance(dlg, PromptRecall)
    gui.until(lambda: dlg.list.count() == 3, what="the earlier prompts")
    assert "not mine" not in _shown(dlg)
    assert "used 2×" in dlg.list.item(0).text()
    qtbot.keyClicks(dlg.search, "TIDE")  # any part, any case
    gui.until(lambda: len(_shown(dlg)) == 2, what="searched")
    assert set(_shown(dlg)) == {"tide eye, slow dolly in", "Tide eye at NIGHT, 100% rain"}
    dlg.search.setText("100%")  # a wildcard is a character
    gui.until(lambda: _shown(dlg) == ["Tide eye at NIGHT, 100% rain"], what="literal %")
    dlg.search.setText("nothing like this")
    gui.until(lambda: dlg.empty.isVisibleTo(dlg), what="none found said")
    assert "nothing like this" in dlg.empty.text()
    dlg.search.setText("dolly")
    gui.until(lambda: _shown(dlg) == ["tide eye, slow dolly in"], what="one")
    # Insert into the draft, at the cursor.
    prompt = window.slot_pane.form.prompt
    prompt.setPlainText("wide shot: ")
    cursor = prompt.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    prompt.setTextCursor(cursor)
    assert dlg.insert_button.isEnabled()
    dlg.insert_button.click()
    gui.until(lambda: window.dialog is None, what="closed")
    assert prompt.toPlainText() == "wide shot: tide eye, slow dolly in"
    # On a stored slot: insert is not offered; a new slot starts with the prompt.
    window.select("article:20260816:recall:scene-02")
    gui.until(lambda: window.slot.task is not None, what="a stored slot")
    window.open_recall()
    dlg = window.dialog
    gui.until(lambda: dlg.list.count() == 3, what="the prompts")
    assert not dlg.insert_button.isEnabled() and dlg.insert_button.toolTip()
    dlg.list.setCurrentRow(1)
    dlg.new_button.click()
    gui.until(lambda: window.slot.is_draft, what="a new slot")
    assert window.slot_pane.form.prompt.toPlainText() == "Tide eye at NIGHT, 100% rain"
