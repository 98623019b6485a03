"""Walk the main views in zh_CN and find no English left (issue 18 point 11, "Done when")."""

from __future__ import annotations

import re

import pytest

from app.ui.app import install_translations
from app.ui.qt import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QModelIndex,
    Qt,
    QWidget,
)
from tests.gui.bulk import insert_slot
from tests.gui.conftest import fill_form, shown

VIDEO = "article:20260816:tide-eye:scene-02"
IMAGE = "article:20260816:tide-eye:still-01"
LOST = "article:20260816:tide-eye:scene-03"
REFUSED = "article:20260815:spring-campaign:scene-02"


def visible_words(root: QWidget) -> list[tuple[str, str]]:
    """(widget, text) for every text a designer sees on ``root`` now: labels, buttons, group
    titles, fields' placeholders, combo boxes' items and the tooltips of what is shown."""
    out: list[tuple[str, str]] = []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisibleTo(root) and w is not root:
            continue
        name = w.objectName() or type(w).__name__
        texts = [w.toolTip()]
        if isinstance(w, (QLabel, QAbstractButton)):
            texts.append(w.text())
        if isinstance(w, QGroupBox):
            texts.append(w.title())
        if isinstance(w, QLineEdit):
            texts.append(w.placeholderText())
        if isinstance(w, QComboBox):
            texts += [w.itemText(i) for i in range(w.count())]
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            texts += _item_texts(w.model(), QModelIndex())
        out += [(name, t) for t in texts if isinstance(t, str) and t]
    return out


def _item_texts(model, parent, depth: int = 0) -> list[str]:
    """The shown and tooltip texts of a view's rows (two levels: the history's details)."""
    out: list[str] = []
    try:
        columns = model.columnCount(parent)
    except TypeError:  # a list model keeps columnCount and hasChildren private: flat
        columns, depth = 1, 1
    for row in range(min(model.rowCount(parent), 200)):
        for col in range(columns):
            index = model.index(row, col, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if isinstance(value, str):
                    out.append(value)
        first = model.index(row, 0, parent)
        if depth < 1 and model.hasChildren(first) and not model.canFetchMore(first):
            out += _item_texts(model, first, depth + 1)
    return out


#: Names a Chinese designer sees as they are: products, models, file formats, units, keys.
NAMES = re.compile(
    r"MiniMax[\w.-]*|Hailuo[\w.-]*|[TIS]2V-01[\w-]*|image-01[\w-]*|speech-[\w.-]+|music-[\w.-]+|"
    r"\bSlate\b|\bAPI\b|\bID\b|https://|api\.minimaxi?\.(?:io|com)|\bSQLite\b|"
    r"\b(?:Ctrl|Shift|Alt|Return|Enter|Esc|Del)\b|\+[A-Z,]\b|\b\d+P\b|\b\d+K\b|\b[KMG]B\b|\bpx\b|"
    r"\b(?:PNG|JPE?G|JPG|WEBP|WebP|HEIC|HEIF|MP4|MOV|MP3|WAV|AAC|H\.26[45])\b|<[^>]*>|#[0-9a-f]{6}"
)


def leftover_english(items: list[tuple[str, str]], own: list[str]) -> list[tuple[str, str]]:
    """The texts with a Latin word that is neither a name (:data:`NAMES`) nor the designer's own
    words (``own``: slot names and their parts, prompts, the team and designer)."""
    found = []
    for widget, text in items:
        if text.lstrip().startswith("{"):  # the history's Details: the service's record
            continue
        if widget == "languageChoice" and text == "English":
            continue  # a language's own name, beside 简体中文, as every language menu shows it
        rest = text
        for words in sorted(own, key=len, reverse=True):
            rest = rest.replace(words, " ")
        rest = NAMES.sub(" ", rest)
        if re.search(r"[A-Za-z]{2,}", rest):
            found.append((widget, text))
    return found


@pytest.fixture
def zh(qapp):
    install_translations(qapp, "zh_CN")
    yield
    install_translations(qapp, "en")


@pytest.mark.qt_log_ignore(r".*No RHI backend\. Using CPU conversion\.")
def test_the_main_views_in_chinese_leave_no_english(gui, make_window, qtbot, zh):
    """Every state's slot pane, the new-slot form on V1 and MiniMax-H3 (with a refusal under
    it), the Recover dialog, the template dialog, Settings and Spend, in zh_CN: no English
    word is left but names (models, formats, keys) and what the designer typed."""
    other = gui.other_service()
    prompts = {
        VIDEO: "tide eye, slow dolly in",
        IMAGE: "a lighthouse at dawn",
        LOST: "storm over the pier",
    }
    gui.run(
        other.submit(VIDEO, "video", {"prompt": prompts[VIDEO], "resolution": "768P"}, wait=True)
    )
    gui.run(
        other.submit(
            IMAGE, "image", {"prompt": prompts[IMAGE], "n": 3, "aspect_ratio": "16:9"}, wait=True
        )
    )
    gui.sim.set_faults(lose_create_response=1)
    gui.run(other.submit(LOST, "video", {"prompt": prompts[LOST], "resolution": "768P"}))
    insert_slot(other, REFUSED, "rejected", error="input sensitive", error_code="1026")
    own = [*prompts.values(), f"prompt of {REFUSED}", "studio-a", "lin"]
    for rid in (VIDEO, IMAGE, LOST, REFUSED, "article:20261202:spring-campaign:scene-01"):
        own += [rid, *rid.split(":")]
    window = make_window()
    views: dict[str, list[tuple[str, str]]] = {}
    for rid in (VIDEO, IMAGE, LOST, REFUSED):
        window.select(rid)
        gui.until(lambda rid=rid: shown(window, rid), what=rid)
        gui.quiet(window)  # what showing it started is done: its words are all in
        views[rid] = visible_words(window)
    window.select(LOST)
    gui.until(lambda: shown(window, LOST))
    window.open_recover()
    views["recover"] = visible_words(window.dialog)
    window.dialog.close()
    window.new_draft()
    draft = "article:20260816:tide-eye:scene-04"
    own += [draft, *draft.split(":")]
    fill_form(window, draft, "", model="MiniMax-Hailuo-2.3")
    gui.quiet(window)  # the draft's price and checks are in
    gui.drained(window)
    views["draft"] = visible_words(window)
    form = window.slot_pane.form
    form.set_model("MiniMax-H3")
    form.prompt.setPlainText("tide eye")
    qtbot.keyClicks(form.first.edit, "ftp://example.com/a.png")
    gui.until(form.error.isVisible, what="the refusal under the form")
    own += ["tide eye", "ftp://example.com/a.png", "a.png"]
    views["draft-h3"] = visible_words(window)
    assert any(t == form.error.text() for _, t in views["draft-h3"])
    window.open_template()
    views["template"] = visible_words(window.dialog)
    window.dialog.close()
    window.open_settings()
    views["settings"] = visible_words(window.dialog)
    window.dialog.close()
    window.open_spend()
    gui.quiet(window)  # the spend's reads done: its words are all in
    views["spend"] = visible_words(window.dialog)
    window.dialog.close()
    left = {name: leftover_english(items, own) for name, items in views.items()}
    assert {name: found for name, found in left.items() if found} == {}
    assert all(len(items) > 5 for items in views.values()), {k: len(v) for k, v in views.items()}
