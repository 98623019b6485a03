"""Stable object names, accessible names, and the shortcuts (create, query, search, next/previous)."""

from __future__ import annotations

from app.domain.states import Action
from app.ui.qt import (
    QAbstractItemView,
    QKeySequence,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTreeView,
    QWidget,
)
from tests.gui.bulk import insert_slot
from tests.gui.conftest import buttons, fill_form, shown

NAMES = {
    "slotList": QTreeView,
    "createButton": QPushButton,
    "queryButton": QPushButton,
    "recoverButton": QPushButton,
    "historyPanel": QWidget,
    "promptEdit": QPlainTextEdit,
    "requestIdEdit": QLineEdit,
}


def test_object_names_and_accessible_names(gui, make_window):
    window = make_window()
    for name, cls in NAMES.items():
        w = window.findChild(cls, name)
        assert w is not None, name
        assert w.accessibleName() or isinstance(w, QPushButton) and w.text(), name
    assert window.browser.tree.selectionMode() == QAbstractItemView.SelectionMode.SingleSelection
    badge = window.status_pane.provider_badge
    assert badge.objectName() == "demoBadge" and badge.text() == "DEMO"


def test_shortcuts(gui, make_window, qtbot):
    for i, state in enumerate(("success", "unknown", "fail")):
        insert_slot(gui.service, f"article:20260816:keys:scene-{i:02d}", state)
    window = make_window()
    actions = window.shortcut_actions
    assert actions["create"].shortcut() == QKeySequence("Ctrl+Return")
    assert actions["query"].shortcut() == QKeySequence("F5")
    assert actions["search"].shortcut() == QKeySequence("Ctrl+F")
    actions["search"].trigger()
    assert window.browser.search.hasFocus() or window.focusWidget() is window.browser.search
    # next / previous slot walk the tree, opening groups on the way
    window.browser.tree.setCurrentIndex(window.model.index(0, 0))
    actions["next"].trigger()
    gui.until(lambda: window.slot.selected is not None, what="a slot selected by next")
    first = window.slot.selected
    gui.until(lambda: shown(window, first))
    actions["next"].trigger()
    gui.until(lambda: window.slot.selected != first, what="next slot")
    actions["previous"].trigger()
    gui.until(lambda: window.slot.selected == first, what="previous slot")
    # create by keyboard
    window.new_draft()
    fill_form(window, "article:20260816:keys:scene-09", "keyboard", resolution="768P")
    actions["create"].trigger()
    gui.until(lambda: shown(window, "article:20260816:keys:scene-09"))
    assert not buttons(window)[Action.CREATE].isEnabled()


def test_accessible_names_are_translated(gui, make_window, qapp):
    """Every accessible name lupdate must see: in zh_CN none is left in English."""
    import re

    from app.ui.app import install_translations

    install_translations(qapp, "zh_CN")
    try:
        window = make_window()
        window.open_settings()
        dialog = window.dialog
        english = []
        for root in (window, dialog):
            for w in root.findChildren(QWidget):
                name = w.accessibleName()
                if (
                    name
                    and re.search(r"[A-Za-z]{3,}", name)
                    and not re.search(r"[\u4e00-\u9fff]", name)
                ):
                    english.append(f"{w.objectName()}: {name}")
        assert english == [] or set(english) <= {"requestIdEdit: RequestId"}, english
        assert (
            dialog.tenant.accessibleName() == "团队" and dialog.poll.accessibleName() == "查询间隔"
        )
        dialog.close()
    finally:
        install_translations(qapp, "en")
