"""Screenshots at the window's minimum size (1000×640), in English and Chinese, of MiniMax's
current pipeline in the app: the H3-Image form (shape, count, references), the enhanced prompt
as a suggestion, and the Make 2K confirm over the window; saved to tests/screenshots/ for
review, each checked for text cut off."""

from __future__ import annotations

import pytest

from app.domain.states import State
from app.ui.app import install_translations
from app.ui.qt import QColor, QPainter, QScrollArea
from tests.gui.conftest import fill_form, shown
from tests.gui.layout_checks import clipped
from tests.gui.test_form_h3 import picture
from tests.gui.test_screenshots import SCREENSHOTS, laid_out, save

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.qt_log_ignore(
        r".*No RHI backend\. Using CPU conversion\.",
        r"This plugin does not support propagateSizeHints\(\)",
    ),
]


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")


def save_over(window, dialog, name):
    """The window with its dialog drawn where it stands (what the designer sees), both checked."""
    dialog.adjustSize()
    found = laid_out(window) + clipped(dialog)
    shot = window.grab()
    painter = QPainter(shot)
    pos = window.mapFromGlobal(dialog.mapToGlobal(dialog.rect().topLeft()))
    if not window.rect().contains(pos):  # offscreen: centre it over the window
        pos.setX((window.width() - dialog.width()) // 2)
        pos.setY((window.height() - dialog.height()) // 2)
    painter.drawPixmap(pos, dialog.grab())
    painter.setPen(QColor("#8a94a6"))  # its frame (offscreen has no window decorations)
    painter.drawRect(pos.x() - 1, pos.y() - 1, dialog.width() + 1, dialog.height() + 1)
    painter.end()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert shot.save(str(SCREENSHOTS / f"{name}.png"))
    assert found == [], name


def test_pipeline_at_the_minimum_size(gui, make_window, lang, tmp_path):
    src = "article:20261202:tide-eye:scene-02"
    out = gui.run(
        gui.other_service().submit(
            src,
            "video",
            {"model": "MiniMax-H3", "prompt": "tide eye at dawn, slow dolly in", "duration": 4},
            wait=True,
        ),
        90,
    )
    assert out.task.state is State.SUCCESS
    window = make_window()
    window.resize(window.minimumSize())
    assert (window.width(), window.height()) == (1000, 640)

    # the H3-Image form: an edit of two references, at 2K 16:9, four images
    window.new_draft()
    fill_form(
        window,
        "article:20261202:tide-eye:still-03",
        "the lighthouse of the two pictures, at night, ink wash",
        kind="image",
        model="MiniMax-H3-Image",
    )
    form = window.slot_pane.form
    h = form.h3image
    h.ratio.setCurrentText("16:9")
    h.area.setCurrentIndex(h.area.findData("2K"))
    h.n.setValue(4)
    form.take(
        h.references,
        [
            str(picture(tmp_path / "day.png", 900, 600, "#6080a0")),
            str(picture(tmp_path / "sketch.jpg", 800, 800, "#c08040")),
        ],
    )
    gui.until(lambda: len(h.references.items) == 2, what="the references")
    scroll = window.slot_pane.findChild(QScrollArea, "slotScroll")
    bar = scroll.verticalScrollBar()
    gui.drained(window)
    bar.setValue(0)
    gui.drained(window)
    save(window, f"{lang}-pipeline-1-h3image-form")
    bar.setValue(bar.maximum())
    gui.drained(window)
    save(window, f"{lang}-pipeline-2-h3image-references-cost")

    # the enhanced prompt as a suggestion under the prompt
    window.new_draft()
    composer = window.slot_pane.composer
    gui.until(lambda: composer.scene.text(), what="the next free scene")  # not written over
    fill_form(window, "article:20261202:tide-eye:scene-05", "tide eye at dawn, slow dolly in")
    tool = window.slot_pane.enhancer
    gui.quiet(window)
    gui.drained(window)
    bar.setValue(0)
    tool.button.click()
    dlg = gui.until(lambda: tool.dialog, what="the enhance confirm")
    save_over(window, dlg, f"{lang}-pipeline-3-enhance-confirm")
    dlg.go.click()
    gui.until(lambda: tool.panel.isVisibleTo(window), timeout=60, what="the suggestion")
    gui.drained(window)
    scroll.ensureWidgetVisible(tool.panel)
    gui.drained(window)
    assert tool.panel.isVisibleTo(window) and composer.request_id().endswith("scene-05")
    save(window, f"{lang}-pipeline-4-enhanced-suggestion")

    # the Make 2K confirm over the finished slot
    window.select(src)
    gui.until(lambda: shown(window, src) and window.slot.task.media, what="the source")
    window.slot_pane.finished.make2k_button.click()
    dlg = gui.until(lambda: window.make2k_dialog, what="the Make 2K confirm")
    save_over(window, dlg, f"{lang}-pipeline-5-make2k-confirm")
    dlg.cancel.click()
