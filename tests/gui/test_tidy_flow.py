"""Tidy-up in the app, through the real widgets, on both stores (issue 23): "Delete local
media…" asks first with the size total, the slot then says "Media removed here" and offers
Download again (the service's own offer); the same RequestId with the same parameters is still
`replayed` (no create at the demo provider) and the slot and its events are untouched; "Hide
slot" takes the slot out of the browser and "Show hidden" brings it back."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from app.domain.states import Action
from app.present import words
from app.ui.panes.tidy import may_redownload
from app.ui.qt import QMessageBox
from tests.gui.conftest import Gui, _gui, buttons, fill_form, shown

RID = "article:20260816:tide-eye:scene-02"
PROMPT = "a lighthouse at dusk"
# The offscreen platform says so when a message box opens; nothing of ours.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


@pytest.fixture
def gui(
    qtbot: Any, qloop: Any, data_dir: Path, sim: Any, tmp_path: Path, store_url: str
) -> Iterator[Gui]:
    """The window's service on this test's store: SQLite and PostgreSQL."""
    g = _gui(qtbot, qloop, data_dir, sim, tmp_path, url=store_url)
    try:
        yield g
    finally:
        g.run(g.provider.aclose())
        g.store.close()


def _creates(gui: Gui) -> int:
    return int(gui.sim.stats()["requests_by_endpoint"].get("image_generation", 0))


def _ledger(gui: Gui) -> tuple[Any, list[Any]]:
    svc = gui.service
    key = svc.ctx.slot(RID).slot_key
    task = gui.run(gui.store.slot(svc.ctx.scope, key))
    events = gui.run(gui.store.history(svc.ctx.scope, key))
    fields = ("id", "state", "fingerprint", "params", "provider_task_id", "cost_estimate",
              "cost_reported", "cost_day", "request_id", "idempotency_key", "hidden_at")  # fmt: skip
    return {f: getattr(task, f) for f in fields}, [(e.id, e.event, e.at, e.detail) for e in events]


def test_delete_media_then_the_same_intent_is_replayed_and_hide_leaves_the_browser(
    gui, make_window
):
    made = gui.run(gui.service.submit(RID, "image", {"prompt": PROMPT, "n": 2}))
    assert made.kind.value == "created"
    files = [Path(m.path) for m in made.task.media]
    total = sum(m.bytes for m in made.task.media)
    window = make_window()
    window.select(RID)
    gui.until(lambda: shown(window, RID) and window.slot.task.media, what="the slot on screen")
    tidy = window.slot_pane.tidy
    assert tidy.menu_button.isVisibleTo(window) and not tidy.note.isVisibleTo(window)
    assert not tidy.isVisibleTo(window)  # nothing to say: no room taken
    assert tidy.delete_action.isEnabled()

    # Delete local media…: a confirmation naming how many files and how much.
    tidy.delete_action.trigger()
    box = tidy.confirm
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "2" in box.text() and words.file_size(total) in box.text()
    assert RID in box.informativeText()
    box.findChild(type(box.buttons()[0]), "deleteMediaButton").click()
    gui.until(
        lambda: window.slot.task.removed_media and not window.slot.task.media,
        what="the media removed",
    )
    assert not any(f.exists() for f in files)
    gui.until(lambda: tidy.note.isVisibleTo(window), what="the note")
    assert words.file_size(total) in tidy.note.text()
    # Download again is offered exactly where the service offers recover --redownload.
    assert may_redownload(window.slot.task)
    assert tidy.redownload_button.isVisibleTo(window)
    assert not tidy.delete_action.isEnabled()
    gui.until(lambda: "Deleted 2 file(s)" in window.slot_pane.actions.message.text())

    # The same RequestId with the same parameters, from a draft in the window: replayed.
    before = _ledger(gui)
    sent = _creates(gui)
    window.new_draft()
    fill_form(window, RID, PROMPT, kind="image", n=2)
    gui.until(lambda: buttons(window)[Action.CREATE].isEnabled(), what="Create enabled")
    outcomes: list[Any] = []
    window.controller.outcomeArrived.connect(lambda action, out: outcomes.append((action, out)))
    buttons(window)[Action.CREATE].click()
    gui.until(lambda: outcomes, what="the outcome")
    action, out = outcomes[0]
    assert action == "create" and out.kind.value == "replayed", out.problem
    assert _creates(gui) == sent  # no create at the demo provider
    # the replay's own note is written a moment later (the service batches its notes)
    gui.until(lambda: len(_ledger(gui)[1]) > len(before[1]), what="the replayed note")
    task_after, events_after = _ledger(gui)
    assert task_after == before[0]  # the slot untouched: state, fingerprint, cost, ids
    assert events_after[: len(before[1])] == before[1]  # every earlier event as it was
    assert [e for _i, e, _a, _d in events_after[len(before[1]) :]] == ["replayed"]
    gui.until(lambda: shown(window, RID), what="the replayed slot on screen")
    gui.until(lambda: tidy.note.isVisibleTo(window), what="still removed here")

    # Download again: the files come back, verified, and still no create.
    tidy.redownload_button.click()
    gui.until(lambda: window.slot.task.media and not window.slot.task.removed_media, what="back")
    assert all(f.exists() for f in files) or all(
        Path(m.path).exists() for m in window.slot.task.media
    )
    assert _creates(gui) == sent
    gui.until(lambda: not tidy.note.isVisibleTo(window), what="the note gone")

    # Hide slot: out of the browser (its only project row goes); Show hidden brings it back.
    gui.until(lambda: window.model.rowCount() == 1, what="the project row")
    tidy.hide_action.trigger()
    gui.until(lambda: window.model.started and window.model.rowCount() == 0, what="hidden")
    # the browser's reload and the slot's own news arrive apart: wait for the slot's too
    gui.until(lambda: window.slot.task.hidden, what="the slot's hidden news")
    assert tidy.hidden_note.isVisibleTo(window)
    window.model.upsert_view(window.slot.task)  # news of the hidden slot: it stays out
    assert window.model.rowCount() == 0
    assert tidy.hide_action.text() == "Show in the browser again"
    window.browser.show_hidden.setChecked(True)
    gui.until(lambda: window.model.rowCount() == 1, what="shown with Show hidden")
    window.browser.show_hidden.setChecked(False)
    gui.until(lambda: window.model.started and window.model.rowCount() == 0, what="hidden again")
    tidy.hide_action.trigger()  # Show in the browser again
    gui.until(lambda: window.model.rowCount() == 1, what="back in the browser")
    gui.until(lambda: not window.slot.task.hidden, what="the slot's unhidden news")
    events = [e for _i, e, _a, _d in _ledger(gui)[1]]
    assert events.count("hidden") == 1 and events.count("unhidden") == 1
    assert _creates(gui) == sent


def test_a_slot_without_its_media_says_so_and_offers_no_export(gui, make_window):
    """The banner does not claim the media are on this computer, and Export is refused with
    the reason (the domain's tidy rule), until Download again brings them back."""
    from app.domain.states import Refusal

    gui.run(gui.service.submit(RID, "image", {"prompt": PROMPT}))
    gui.run(gui.service.prune_media(RID))
    window = make_window()
    window.select(RID)
    gui.until(lambda: shown(window, RID) and window.slot.task.removed_media, what="pruned")
    banner = window.slot_pane.banner.body.text()
    assert "deleted from this computer" in banner and "saved on this computer" not in banner
    export = buttons(window)[Action.EXPORT]
    assert not export.isEnabled()
    assert window.slot.task.offers[Action.EXPORT].refusal is Refusal.MEDIA_REMOVED
    assert "nothing to export" in export.toolTip()
    window.slot_pane.tidy.redownload_button.click()
    gui.until(lambda: window.slot.task.media, what="downloaded again")
    gui.until(lambda: buttons(window)[Action.EXPORT].isEnabled(), what="export offered again")
    assert "saved on this computer" in window.slot_pane.banner.body.text()
