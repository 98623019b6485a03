"""Settings applied while the app runs: the service is rebuilt cleanly (the old poller and status
loop cancelled and awaited, the old provider and store closed, the new service resumed), nothing in
flight is lost, the status bar and the slot list show the new identity, bad settings leave the old
service running, and the API key is never shown back nor deleted unless the user asks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.bootstrap import build
from app.service import secrets
from app.service.results import OutcomeKind
from app.ui import app as app_mod
from app.ui.controller import Controller
from app.ui.models import RequestIdRole
from app.ui.current import Busy
from app.ui.settings import Settings
from app.ui.window import MainWindow
from tests.gui.conftest import buttons, close, shown

RID = "article:20260816:tide-eye:scene-01"


@pytest.fixture
def open_app(gui: Any, qtbot: Any) -> Any:
    """The window as ``slate gui`` wires it: a bootstrap-built Slate, rebuilt on settings.

    The provider is fixed to the test's demo server for this run (as ``SLATE_BASE_URL`` would),
    so slots made before and after a rebuild live at the same provider.
    """
    opened: list[tuple[Controller, MainWindow]] = []

    def make() -> tuple[MainWindow, Controller]:
        slate = build(gui.config.with_(base_url=gui.sim.base_url))
        controller = Controller(slate.service, owner=slate, rebuild=app_mod._build)
        window = MainWindow(controller, Settings(gui.settings(), fixed={"provider", "base_url"}))
        qtbot.addWidget(window)
        window.show()
        controller.start()
        opened.append((controller, window))
        gui.until(lambda: window.model.started, what="first page of slots")
        return window, controller

    yield make
    for controller, window in opened:
        close(gui, controller, window)


def save(gui: Any, window: MainWindow, **fields: Any) -> None:
    """Open Settings, change ``fields`` the way a user would, press Save, wait for the outcome."""
    window.open_settings()
    dlg = window.dialog
    for name, value in fields.items():
        widget = getattr(dlg, name)
        if hasattr(widget, "setValue"):
            widget.setValue(value)
        else:
            widget.setText(value)
    before = window.controller.service
    dlg.save_button.click()
    gui.until(lambda: not applying(window), what="settings applied")
    gui.until(
        lambda: window.controller.runner.busy == 0 or window.controller.service is not before,
        what="service rebuilt",
    )


def applying(window: MainWindow) -> bool:
    return Busy.SETTINGS in window.slot.busy


def quota_text(window: MainWindow) -> str:
    return window.status_pane.quota_label.text()


def test_changing_the_designer_rebuilds_the_service_and_loses_nothing(gui, open_app):
    gui.sim.config.processing = 3.0  # still generating when the settings change
    other = gui.other_service()
    out = gui.run(other.submit(RID, "video", {"prompt": "slow waves", "resolution": "768P"}))
    assert out.kind is OutcomeKind.CREATED
    window, controller = open_app()
    window.select(RID)
    gui.until(lambda: shown(window, RID), what="slot shown")
    old_owner, old_service = controller.owner, controller.service
    old_background = set(controller.runner._background)
    assert len(old_background) == 2  # the poller and the status loop

    save(gui, window, user="mei", quota_video=5, poll=0.2)

    assert controller.service is not old_service and controller.service.user == "mei"
    assert all(t.done() for t in old_background), "the old poller and status loop were awaited"
    assert controller._on_task not in old_service.listeners
    assert old_owner.provider._client.is_closed  # the old provider is closed
    assert controller.service.config.poll_interval == 0.2
    assert window.status_pane.identity.text() == "mei · studio-a"
    gui.until(lambda: "videos 0/5" in quota_text(window), what="mei's quota in the status bar")
    # mei has no slot: the list is empty and the welcome page says what to do
    gui.until(lambda: window.model.started and not window.model.loading, what="slot list reloaded")
    assert window.model.rowCount() == 0
    gui.until(lambda: window.middle_stack.currentWidget() is window.welcome, what="welcome page")
    assert window.status_pane.notice.text() == "Settings applied."
    s = gui.settings()
    assert s.value("settings/user") == "mei" and int(s.value("settings/quota_video")) == 5

    # back to lin, and "no limit": the quota really goes (an empty setting means the default)
    save(gui, window, user="lin", quota_video=0, poll=0.0)
    assert controller.service.user == "lin" and controller.service.config.quota_video is None
    assert controller.service.config.poll_interval is None
    gui.until(
        lambda: "videos 1" in quota_text(window) and "/" not in quota_text(window).split("·")[0],
        what="lin's quota, no limit",
    )
    gui.until(lambda: window.model.rowCount() == 1, what="lin's project in the list")
    assert gui.settings().value("settings/quota_video") is None
    # the slot that was generating during both switches finishes under the new service's poller
    window.select(RID)
    gui.until(
        lambda: window.slot.task is not None and window.slot.task.state == "success",
        timeout=30,
        what="the in-flight slot resumed and finished",
    )


def test_the_slot_on_screen_stays_on_screen_when_its_identity_does(gui, open_app):
    gui.run(gui.other_service().submit(RID, "image", {"prompt": "a lighthouse"}, wait=True))
    window, controller = open_app()
    window.select(RID)
    gui.until(
        lambda: window.slot.task is not None and window.slot.task.state == "success",
        what="slot shown",
    )
    save(gui, window, quota_image=50)
    assert controller.service.config.quota_image == 50
    gui.until(
        lambda: shown(window, RID) and not window.slot.is_draft, what="the same slot shown again"
    )
    gui.until(lambda: window.model.index_of(RID).isValid(), what="slot revealed in the tree")


def test_a_data_folder_change_moves_the_default_store_with_it(gui, open_app, tmp_path):
    gui.run(gui.other_service().submit(RID, "image", {"prompt": "a lighthouse"}, wait=True))
    window, controller = open_app()
    gui.until(lambda: window.model.rowCount() == 1, what="one project")
    window.open_settings()
    assert window.dialog.store.text() == ""  # the default store is not pinned as a URL
    window.dialog.close()
    other_dir = tmp_path / "elsewhere"
    save(gui, window, data_dir=str(other_dir))
    assert Path(controller.service.config.data_dir) == other_dir
    assert str(other_dir) in controller.service.config.store
    gui.until(
        lambda: window.model.started and not window.model.loading and window.model.rowCount() == 0,
        what="the new store is empty",
    )
    save(gui, window, data_dir=str(gui.config.data_dir))
    gui.until(lambda: window.model.rowCount() == 1, what="the first store again")


def test_bad_settings_leave_the_running_service_and_the_saved_settings_alone(
    gui, open_app, tmp_path
):
    window, controller = open_app()
    service = controller.service
    window.open_settings()
    dlg = window.dialog
    dlg.tenant.setText("x" * 200)  # longer than a tenant may be
    dlg.save_button.click()
    assert dlg.isVisible() and dlg.error.isVisible() and dlg.error.text()  # said next to the fields
    dlg.tenant.setText("studio-a")
    dlg.store.setText("not a url")
    dlg.save_button.click()
    assert dlg.isVisible() and "database" in dlg.error.text().lower()
    # a URL that parses but cannot be opened: found while rebuilding, after the dialog closed
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    dlg.store.setText(f"sqlite:///{blocker.as_posix()}/sub/slate.sqlite3")
    dlg.save_button.click()
    gui.until(lambda: "not applied" in window.status_pane.notice.text(), what="the failure said")
    assert "not applied" in window.slot_pane.actions.message.text()
    assert controller.service is service and controller.runner._background  # still running
    assert gui.settings().value("settings/store") is None  # not saved: the next start still works
    assert buttons(window) and not applying(window) and window.top_bar.settings_button.isEnabled()


def test_the_api_key_is_never_shown_and_only_removed_on_request(gui, open_app):
    stored = "sk-stored-secret-0123456789"
    secrets.set_api_key(stored)
    try:
        window, controller = open_app()
        assert controller.key_source == "keyring"
        window.open_settings()
        dlg = window.dialog
        assert dlg.api_key.text() == "" and stored not in dlg.api_key.placeholderText()
        assert dlg.remove_key.isVisible()
        dlg.save_button.click()  # an empty key field keeps the stored key
        gui.until(
            lambda: not applying(window) and window.status_pane.notice.text() == "Settings applied."
        )
        assert secrets.api_key() == (stored, "keyring")

        window.open_settings()
        dlg = window.dialog
        dlg.api_key.setText("sk-replacement-key-987654321")
        dlg.save_button.click()
        assert dlg.api_key.text() == ""  # the typed key does not stay in the closed dialog
        gui.until(
            lambda: not applying(window) and secrets.api_key()[0] == "sk-replacement-key-987654321"
        )
        gui.until(lambda: controller.owner is not None and controller.key_source == "keyring")

        window.open_settings()
        dlg = window.dialog
        dlg.remove_key.click()  # explicit: the user asks to remove it
        assert not dlg.api_key.isEnabled() and "removed" in dlg.api_key.placeholderText()
        dlg.save_button.click()
        gui.until(
            lambda: not applying(window) and secrets.api_key() == (None, "none"), what="key removed"
        )
        gui.until(lambda: controller.key_source == "none")
        window.open_settings()
        assert not window.dialog.remove_key.isVisible()
        window.dialog.close()
        ini = (
            Path(gui.settings().fileName()).read_text()
            if Path(gui.settings().fileName()).exists()
            else ""
        )
        assert "sk-" not in ini  # never in the saved settings
    finally:
        secrets.delete_api_key()


def _open_groups(window: MainWindow) -> set[tuple[str, ...]]:
    """The groups open in the slot list, each by its names (project, then day)."""
    from app.ui.qt import QModelIndex

    model, tree, out = window.model, window.browser.tree, set()

    def walk(parent: Any, path: tuple[str, ...]) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if tree.isExpanded(index):
                here = (*path, str(index.data()).split(",")[0])
                out.add(here)
                walk(index, here)

    walk(QModelIndex(), ())
    return out


def test_saving_settings_keeps_the_open_groups_and_the_selection(gui, open_app):
    """Issue 33, point 7: Settings → Save collapsed the slot list's tree."""
    other = gui.other_service()
    for rid in (RID, "article:20260816:tide-eye:scene-02", "article:20260816:harbour:scene-01"):
        gui.run(other.submit(rid, "image", {"prompt": "a lighthouse"}, wait=True))
    window, controller = open_app()
    window.select(RID)
    gui.until(lambda: window.model.index_of(RID).isValid(), what="slot in the tree")
    tree = window.browser.tree
    harbour = window.model.index_of("article:20260816:harbour:scene-01")
    if not harbour.isValid():  # not loaded yet: open its project as a designer would
        for row in range(window.model.rowCount()):
            index = window.model.index(row, 0)
            if str(index.data()).startswith("harbour"):
                tree.expand(index)
    gui.until(lambda: len(_open_groups(window)) >= 3, what="both projects open")
    before = _open_groups(window)
    assert tree.currentIndex().data(RequestIdRole) == RID

    save(gui, window, quota_image=50)
    assert controller.service.config.quota_image == 50
    gui.until(lambda: _open_groups(window) == before, what=f"{before} open again")
    gui.until(
        lambda: tree.currentIndex().siblingAtColumn(0).data(RequestIdRole) == RID,
        what="the same slot selected",
    )
    gui.quiet(window)  # and it stays so once every group has loaded
    assert _open_groups(window) == before
    assert tree.currentIndex().siblingAtColumn(0).data(RequestIdRole) == RID
