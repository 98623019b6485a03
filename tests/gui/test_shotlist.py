"""Shot lists in the app: Import shot list… (or a CSV dropped on the window) → the review of the
dry run (per row what would happen, with the reason and the field; the total cost and the
budget that would remain; nothing sent) → Create all → the rows are slots that run on. And the
template: scenes NN–MM from one prompt with per-scene edits, reviewed or saved as a shot list."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.domain.cost import format_money
from app.domain.shotlist import parse
from app.service.slate import SlateService
from app.ui.qt import QApplication, QPoint, QPointF, Qt, QtCore, QtGui, QUrl
from app.ui.shotlist import ShotListDialog, TemplateDialog
from tests.support.fixtures import SECRET, make_config

P = "article:20260816:tide-eye:scene-0"
CSV = f"""request_id,kind,prompt,model,duration,resolution
{P}1,video,tide eye one,MiniMax-H3,4,768P
{P}2,video,tide eye two,MiniMax-H3,5,768P
{P}3,video,already there,MiniMax-H3,4,768P
{P}4,video,the prompt changed,MiniMax-H3,4,768P
{P}5,video,too long,MiniMax-H3,40,768P
"""


def budget_service(gui, amount="20"):
    config = make_config(gui.config.data_dir, gui.config.store, budget_daily=Decimal(amount))
    return SlateService(config, gui.store, gui.provider, SECRET)


def rows_of(dialog):
    t = dialog.table
    return [[t.topLevelItem(i).text(c) for c in range(6)] for i in range(t.topLevelItemCount())]


def test_import_review_then_create_all(gui, make_window, tmp_path):
    service = budget_service(gui)
    gui.run(
        service.submit(
            f"{P}3",
            "video",
            {"model": "MiniMax-H3", "prompt": "already there", "duration": 4, "resolution": "768P"},
        )
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
    made_before = gui.sim.stats()["made_total"]
    shots = tmp_path / "tide-eye.csv"
    shots.write_text(CSV)
    window = make_window(service)
    window.choose_shot_list = lambda done: done(str(shots))
    window.top_bar.shots_menu.actions()[0].trigger()  # Import shot list…
    dialog = gui.until(
        lambda: isinstance(window.dialog, ShotListDialog) and window.dialog, what="the review"
    )
    gui.until(lambda: dialog.report is not None, what="the dry run")
    rows = rows_of(dialog)
    assert [r[3] for r in rows] == [
        "new — will be created",
        "new — will be created",
        "already made — nothing sent",
        "conflict — exists with other settings",
        "can't be made",
    ]
    assert "prompt" in rows[3][5]
    assert rows[4][0] == "6" and "duration" in rows[4][5] and "4–15" in rows[4][5]
    # the row is its own column: the reason is the service's message, not "row 6: …" again
    assert rows[4][5].startswith("duration: "), rows[4][5]
    assert dialog.report.rows[4].problem.row == 6
    one = service.estimate("video", {"model": "MiniMax-H3", "prompt": "x", "duration": 4}).payload
    two = service.estimate("video", {"model": "MiniMax-H3", "prompt": "x", "duration": 5}).payload
    assert rows[0][4] == "about " + format_money(one.cost.estimate, one.cost.currency)
    total = one.cost.estimate + two.cost.estimate
    assert dialog.totals.text() == (
        f"Creating the new rows costs about {format_money(total, 'USD')}."
    )
    spent = gui.run(service.budget_today()).spent.estimate
    left = Decimal(20) - spent - total
    assert f"Budget left today after these: {format_money(left, 'USD')} of $20.00." in (
        dialog.budget.text()
    )
    assert gui.sim.stats()["made_total"] == made_before  # the dry run sent nothing
    assert gui.run(service.status(f"{P}1")).kind.value == "not_found"  # and stored nothing

    assert dialog.create_button.text() == "Create 2 new"
    dialog.create_button.click()
    gui.until(lambda: dialog.result is not None, timeout=30, what="the run")
    assert gui.sim.stats()["made_total"] == made_before + 2
    assert dialog.heading.text().startswith("2 slots created")
    listed = gui.run(service.list_slots()).payload
    assert {f"{P}1", f"{P}2"} <= {v.request_id for v in listed.slots}
    window.select(f"{P}1")  # a slot like any other, running on
    gui.until(
        lambda: window.slot.task is not None and window.slot.task.request_id == f"{P}1",
        what="the new slot on screen",
    )
    gui.until(
        lambda: all(
            gui.run(service.status(f"{P}{n}")).task.state.value == "success" for n in (1, 2)
        ),
        timeout=40,
        what="both done",
    )
    gui.until(lambda: rows_of(dialog)[0][3] == "Done", what="progress shown in the review")
    # the same file again: nothing new
    dialog.close()
    window.import_shot_list(str(shots))
    again = gui.until(
        lambda: (
            isinstance(window.dialog, ShotListDialog)
            and window.dialog is not dialog
            and window.dialog
        ),
        what="the second review",
    )
    gui.until(lambda: again.report is not None, what="the second dry run")
    assert again.report.counts["created"] == 0 and not again.create_button.isEnabled()


def test_a_shot_list_dropped_on_the_window_opens_its_review(gui, make_window, tmp_path):
    shots = tmp_path / "drop.yaml"
    shots.write_text(
        "defaults: {kind: video, model: MiniMax-H3, duration: 4}\n"
        f"rows:\n  - request_id: '{P}7'\n    prompt: dropped\n"
    )
    window = make_window()
    mime = QtCore.QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(shots))])
    enter = QtGui.QDragEnterEvent(
        QPoint(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(
        window,
        QtGui.QDropEvent(
            QPointF(5, 5),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        ),
    )
    dialog = gui.until(
        lambda: isinstance(window.dialog, ShotListDialog) and window.dialog, what="the review"
    )
    gui.until(lambda: dialog.report is not None, what="the dry run")
    assert rows_of(dialog)[0][1] == f"{P}7" and rows_of(dialog)[0][3] == "new — will be created"
    assert "No daily budget is set." in dialog.budget.text()


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_a_template_makes_scenes_with_edits_and_saves_them(gui, make_window, tmp_path):
    window = make_window()
    window.new_draft()
    form = window.slot_pane.form
    window.slot_pane.composer.project.setText("harbor")
    form.prompt.setPlainText("harbor at dawn, slow pan")
    form.duration.set_value(5)
    window.top_bar.shots_menu.actions()[1].trigger()  # Scenes from a template…
    dlg = gui.until(
        lambda: isinstance(window.dialog, TemplateDialog) and window.dialog, what="the template"
    )
    assert dlg.project.text() == "harbor" and dlg.prompt.toPlainText() == "harbor at dawn, slow pan"
    assert dlg.options["model"] == "MiniMax-H3" and dlg.options["duration"] == 5
    dlg.first.setValue(2)
    dlg.last.setValue(4)
    dlg.edit_scene.setValue(3)
    dlg.edit_text.setText("at night")
    dlg.edit_add.click()
    rows = dlg.rows()
    assert [r.request_id.rsplit(":", 1)[1] for r in rows] == ["scene-02", "scene-03", "scene-04"]
    assert rows[1].params["prompt"] == "harbor at dawn, slow pan at night"
    assert rows[0].params["prompt"] == "harbor at dawn, slow pan"
    out = tmp_path / "harbor.yaml"
    window.choose_save = lambda done: done(str(out))
    dlg.save_button.click()
    saved = parse(out.read_bytes(), "yaml")
    assert [r.request_id for r in saved.rows] == [r.request_id for r in rows]
    assert saved.rows[1].params["prompt"] == rows[1].params["prompt"]
    dlg.review_button.click()
    review = gui.until(
        lambda: isinstance(window.dialog, ShotListDialog) and window.dialog, what="the review"
    )
    gui.until(lambda: review.report is not None, what="the dry run")
    # scenes 2 and 4 share the template's prompt: scene-04 is scene-02's twin, asked about
    assert [r[3] for r in rows_of(review)] == ["new — will be created"] * 2 + [
        "same settings as scene-02"
    ]
    assert rows_of(review)[2][5] == (
        "row 1 (scene-02) has exactly these settings; creating both pays twice"
    )
    review.create_button.click()
    confirm = gui.until(lambda: review.twins_dialog, what="the same-settings confirm")
    confirm.create_too.click()
    gui.until(lambda: review.result is not None, timeout=30, what="the run")
    assert [r.outcome.value for r in review.result.rows] == ["created"] * 3
    assert (
        gui.run(gui.service.status(rows[1].request_id)).task.params["prompt"].endswith("at night")
    )


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_a_row_with_an_unknown_slots_settings_asks_before_create_all(gui, make_window, tmp_path):
    """Issue 31: scene-06's answer was lost (unknown); a shot-list row scene-08 with identical
    settings was "new — will be created" and created. The review names the twin, and Create
    asks first: Cancel sends nothing, "Only the other 1 new" skips it, "Create them too" pays."""
    same = {"model": "MiniMax-H3", "prompt": "harbour at dawn", "duration": 4, "resolution": "768P"}
    gui.sim.set_faults(lose_create_response=1)
    lost = gui.run(gui.service.submit(f"{P}6", "video", same))
    assert lost.task.state.value == "unknown"
    shots = tmp_path / "twins.csv"
    shots.write_text(
        "request_id,kind,prompt,model,duration,resolution\n"
        f"{P}8,video,harbour at dawn,MiniMax-H3,4,768P\n"
        f"{P}9,video,harbour at noon,MiniMax-H3,4,768P\n"
    )
    window = make_window()
    window.import_shot_list(str(shots))
    dialog = gui.until(
        lambda: isinstance(window.dialog, ShotListDialog) and window.dialog, what="the review"
    )
    gui.until(lambda: dialog.report is not None, what="the dry run")
    rows = rows_of(dialog)
    assert [r[3] for r in rows] == ["same settings as scene-06", "new — will be created"]
    assert rows[0][5] == (
        "scene-06 already has exactly these settings (unknown — the provider may be making it); "
        "creating this row pays again"
    )
    assert "1 with another slot's settings" in dialog.heading.text()
    assert dialog.create_button.text() == "Create 2 new"
    made = gui.sim.stats()["creates_total"]

    dialog.create_button.click()
    confirm = gui.until(lambda: dialog.twins_dialog, what="the same-settings confirm")
    assert (
        confirm.text() == "These rows have exactly another slot's settings: scene-08 as scene-06."
    )
    assert confirm.defaultButton() is confirm.cancel
    confirm.cancel.click()
    gui.until(lambda: dialog.twins_dialog is None, what="the confirm closed")
    gui.until(lambda: dialog.create_button.isEnabled(), what="Create offered again")
    assert gui.sim.stats()["creates_total"] == made  # Cancel sent nothing

    dialog.create_button.click()
    confirm = gui.until(lambda: dialog.twins_dialog, what="the confirm again")
    assert confirm.only_others.text() == "Only the other 1 new"
    confirm.only_others.click()
    gui.until(lambda: dialog.result is not None, timeout=30, what="the run")
    assert [r.outcome.value for r in dialog.result.rows] == ["twin", "created"]
    assert gui.sim.stats()["creates_total"] == made + 1
    assert gui.run(gui.service.status(f"{P}8")).kind.value == "not_found"
    assert rows_of(dialog)[0][3] == "same settings as scene-06"

    dialog.close()
    window.import_shot_list(str(shots))
    again = gui.until(
        lambda: (
            isinstance(window.dialog, ShotListDialog)
            and window.dialog is not dialog
            and window.dialog
        ),
        what="the second review",
    )
    gui.until(lambda: again.report is not None, what="the second dry run")
    assert [r.outcome.value for r in again.report.rows] == ["twin", "replayed"]
    again.create_button.click()
    confirm = gui.until(lambda: again.twins_dialog, what="the confirm, twins only")
    assert confirm.only_others is None
    confirm.create_too.click()
    gui.until(lambda: again.result is not None, timeout=30, what="the run with the twin")
    assert [r.outcome.value for r in again.result.rows] == ["created", "replayed"]
    assert gui.sim.stats()["creates_total"] == made + 2
    assert gui.run(gui.service.status(f"{P}8")).task is not None
