"""Slot names in the window (issue 33, point 7): the New-slot form never offers a RequestId with
an empty part, and the slot list shows what tells derived slots apart."""

from __future__ import annotations

import pytest

from app.domain.errors import ValidationError
from app.domain.naming import validate_new_request_id
from app.domain.states import Action


def test_an_empty_scene_is_refused_as_the_domain_says(gui, make_window, qtbot):
    window = make_window()
    window.new_draft()
    pane = window.slot_pane
    composer = pane.composer
    composer.project.clear()
    qtbot.keyClicks(composer.project, "budget")
    composer.scene.clear()
    pane.form.image_radio.setChecked(True)
    pane.form.prompt.setPlainText("a lighthouse at dusk")
    rid = composer.request_id()
    assert rid.endswith(":budget:"), rid
    gui.until(lambda: composer.error.isVisible() and composer.error.text(), what="the refusal")
    assert not window.slot.offer(Action.CREATE).enabled  # no Create for a name with a hole
    assert composer.error.isVisible() and composer.error.text()
    with pytest.raises(ValidationError):  # the domain's verdict, said by the form
        validate_new_request_id(rid, "RequestId")
    qtbot.keyClicks(composer.scene, "3")
    assert composer.request_id() == rid + "scene-03"
    gui.until(lambda: window.slot.offer(Action.CREATE).enabled, what="create offered")
    assert not composer.error.isVisible()


def _shown_name(tree, index) -> str:
    """Column 0's text as the slot list paints it: its delegate's option, elided to its cell."""
    from app.ui.qt import QStyle, QStyleOptionViewItem

    option = QStyleOptionViewItem()
    option.initFrom(tree)
    option.rect = tree.visualRect(index)
    option.textElideMode = tree.textElideMode()
    tree.itemDelegateForIndex(index).initStyleOption(option, index)
    style = tree.style()
    text_rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, tree)
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1
    width = text_rect.width() - 2 * margin
    return option.fontMetrics.elidedText(option.text, option.textElideMode, width)


@pytest.mark.parametrize("size", [(1000, 640), (1280, 800), (1280, 160)])
def test_derived_slots_keep_their_tail_in_the_slot_list(gui, make_window, size):
    """At 1000×640 and 1280×800 the names are read whole; with the slot list dragged narrow
    (160 px) they are cut from the left, never in the suffix that tells them apart."""
    import datetime as dt

    from tests.gui.bulk import insert_slot

    day = dt.date.today().strftime("%Y%m%d")
    names = [f"article:{day}:budget:scene-02.2k", f"article:{day}:budget:scene-01.enhanced"]
    for rid in names:
        insert_slot(gui.service, rid, "success")
    window = make_window()
    narrow = size[1] < 640  # (1280, 160): the slot list 160 px wide
    window.resize(size[0], 800 if narrow else size[1])
    if narrow:
        window.splitter.setSizes([size[1], 1000 - size[1], 280])
    tree = window.browser.tree
    for rid in names:
        window.select(rid)
        gui.until(lambda rid=rid: window.model.index_of(rid).isValid(), what=f"{rid} listed")
    gui.drained(tree)  # the tree's columns fitted to its width and the rows laid out
    for rid in names:
        index = window.model.index_of(rid)
        label = index.data()
        assert rid.endswith(label), label
        shown = _shown_name(tree, index)
        head, _, tail = label.partition(".")  # "2k", "enhanced": what tells the slot apart
        assert shown.endswith(f"{head[-2:]}.{tail}"), (shown, label, size)
        if not narrow:
            assert shown == label, (shown, size)


def test_every_slot_says_its_kind_in_a_narrow_slot_list(gui, make_window, lang):
    """Issue 33: at 1000×640 the Kind column is left out, yet each slot still says what it is —
    a picture, a clip, a song, a voice-over — by the glyph beside its state badge, and in the
    words a screen reader reads, in the window's language."""
    from app.ui.qt import QImage, Qt
    from app.ui.style import slot_icon_size

    svc = gui.other_service()
    made = {
        "image": ("article:20260816:tide-eye:still-01", {"prompt": "a lighthouse"}),
        "video": ("article:20260816:tide-eye:scene-01", {"prompt": "waves"}),
        "music": ("article:20260816:tide-eye:song-01", {"prompt": "lofi", "instrumental": True}),
        "speech": (
            "article:20260816:tide-eye:voice-01",
            {"text": "Welcome aboard.", "voice": "English_expressive_narrator"},
        ),
    }
    for kind, (rid, params) in made.items():
        out = gui.run(svc.submit(rid, kind, params, wait=True), timeout=60)
        assert out.task is not None and out.task.state == "success", out.problem
    window = make_window()
    window.resize(1000, 640)
    tree = window.browser.tree
    for rid, _ in made.values():
        window.select(rid)
        gui.until(lambda rid=rid: window.model.index_of(rid).isValid(), what=f"{rid} listed")
    gui.drained(tree)
    assert tree.iconSize() == slot_icon_size()
    words = {
        "en": {"image": "Image", "video": "Video", "music": "Music", "speech": "Voice-over"},
        "zh_CN": {"image": "图片", "video": "视频", "music": "音乐", "speech": "配音"},
    }[lang]
    glyphs: dict[str, QImage] = {}
    for kind, (rid, _) in made.items():
        index = window.model.index_of(rid)
        said = index.data(Qt.ItemDataRole.AccessibleTextRole)
        assert words[kind] in said, (kind, said)
        icon = index.data(Qt.ItemDataRole.DecorationRole)
        glyphs[kind] = icon.pixmap(slot_icon_size()).toImage()
    kinds = list(glyphs)
    for i, a in enumerate(kinds):  # four kinds, four different pictures (all four are done)
        for b in kinds[i + 1 :]:
            assert glyphs[a] != glyphs[b], (a, b)
