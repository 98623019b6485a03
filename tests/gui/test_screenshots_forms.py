"""Screenshots at the window's minimum size, in English and Chinese, of the H3 form (with a
frame, and with references), the lookup's answer, the import review, the template and the
Spend view; saved to tests/screenshots/ for review, each checked for text cut off."""

from __future__ import annotations

import pytest

from app.ui.app import install_translations
from app.ui.lookup import LookupDialog
from app.ui.shotlist import ShotListDialog, TemplateDialog
from app.ui.spend import SpendDialog
from tests.gui.conftest import fill_form
from tests.gui.test_form_h3 import picture
from tests.gui.test_screenshots import save
from tests.gui.test_shotlist import CSV, P, budget_service


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")


@pytest.mark.qt_log_ignore(r".*No RHI backend\. Using CPU conversion\.")
def test_forms_at_the_minimum_size(gui, make_window, lang, tmp_path):
    service = budget_service(gui, "5")
    gui.run(
        service.submit(
            f"{P}3",
            "video",
            {"model": "MiniMax-H3", "prompt": "already there", "duration": 4, "resolution": "768P"},
            wait=True,
        ),
        timeout=40,
    )
    gui.run(
        service.submit(
            f"{P}4",
            "video",
            {
                "model": "MiniMax-H3",
                "prompt": "the old prompt",
                "duration": 4,
                "resolution": "768P",
            },
        )
    )
    window = make_window(service)
    window.resize(window.minimumSize())
    window.new_draft()
    fill_form(
        window,
        "article:20260816:tide-eye:scene-11",
        "tide eye, slow dolly in, dusk light",
        duration=8,
    )
    form = window.slot_pane.form
    form.take(form.first, [str(picture(tmp_path / "frame.png", 1280, 720))])
    gui.until(lambda: form.first.input is not None, what="frame")
    from app.ui.qt import QScrollArea

    scroll = window.slot_pane.findChild(QScrollArea, "slotScroll")
    scroll.ensureWidgetVisible(form.first)
    gui.drained(window)
    save(window, f"{lang}-forms-1-h3-frame")
    form.first.set_input(None)
    form.take(
        form.references,
        [
            str(picture(tmp_path / "a.png", 900, 900, "#c08040")),
            str(picture(tmp_path / "b.jpg", 1200, 800, "#204060")),
        ],
    )
    gui.until(lambda: len(form.references.items) == 2, what="references")
    form.set_model("MiniMax-H3-Max")
    scroll.verticalScrollBar().setValue(scroll.verticalScrollBar().maximum())
    gui.quiet(window)  # the new model's price is in
    gui.drained(window)
    save(window, f"{lang}-forms-2-h3max-references")

    shots = tmp_path / "tide-eye.csv"
    shots.write_text(CSV)
    window.import_shot_list(str(shots))
    review = gui.until(lambda: isinstance(window.dialog, ShotListDialog) and window.dialog)
    gui.until(lambda: review.report is not None)
    review.resize(review.minimumSize())
    gui.drained(review)
    save(review, f"{lang}-forms-3-import-review")
    review.close()

    window.open_template()
    template = gui.until(lambda: isinstance(window.dialog, TemplateDialog) and window.dialog)
    template.edit_scene.setValue(3)
    template.edit_text.setText("at night")
    template.edit_add.click()
    template.resize(template.minimumSize())
    gui.drained(template)
    save(template, f"{lang}-forms-4-template")
    template.close()

    window.open_spend()
    spend = gui.until(lambda: isinstance(window.dialog, SpendDialog) and window.dialog)
    gui.until(spend.loaded)
    spend.tabs.setCurrentIndex(1)
    spend.resize(spend.minimumSize())
    gui.drained(spend)
    save(spend, f"{lang}-forms-5-spend")
    spend.close()

    gui.sim.set_faults(lose_create_response=1)
    lost = "article:20260816:tide-eye:scene-12"
    gui.run(
        service.submit(lost, "video", {"model": "MiniMax-H3", "prompt": "storm", "duration": 4})
    )
    window.select(lost)
    look = gui.until(lambda: isinstance(window.dialog, LookupDialog) and window.dialog)
    look.resize(look.minimumSize())
    gui.drained(look)
    save(look, f"{lang}-forms-6-lookup")
