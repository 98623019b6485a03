"""What things cost, in the app: each slot's cost in the slot pane (estimate vs reported, never
$0 for an unknown price), today's budget use beside the draft's cost, and the budget field in
Settings (fixed by SLATE_BUDGET_DAILY when that is set)."""

from __future__ import annotations

from decimal import Decimal


from app.domain.cost import format_money
from app.domain.states import Action
from app.ui.dialogs import SettingsDialog
from app.ui.settings import dialog_values, fixed_fields
from tests.support.fixtures import SECRET, make_config
from tests.gui.conftest import fill_form, shown
from tests.gui.test_settings import open_app, save  # noqa: F401 - the fixture

RID = "article:20260816:tide-eye:scene-41"
H3 = {"model": "MiniMax-H3", "prompt": "tide eye", "duration": 6, "resolution": "768P"}


def test_the_slot_pane_shows_each_slots_cost_estimate_and_reported(gui, make_window):
    gui.sim.config.processing = 3.0
    out = gui.run(gui.other_service().submit(RID, "video", H3))
    window = make_window()
    window.select(RID)
    gui.until(lambda: shown(window, RID), what="slot shown")
    est = out.task.cost.estimate
    assert est is not None and est > 0
    cost_line = window.slot_pane.actions.cost
    assert window.slot.task.state != "success"  # still generating: the estimate only
    assert cost_line.text() == (
        f"Cost: about {format_money(est, out.task.cost.currency)} "
        "(estimate; the provider has not reported it yet)"
    )
    gui.sim.config.processing = 0.0
    gui.until(lambda: window.slot.task.state == "success", timeout=30, what="success")
    done = gui.run(gui.service.status(RID)).task
    assert done.cost.reported is not None  # MiniMax-H3 reports its usage
    # the result on screen: the cost ends its summary line, the bar's own line is empty
    gui.until(lambda: cost_line.text() == "", what="the bar's line given up")
    cost_line = window.slot_pane.finished.cost
    gui.until(lambda: "as reported" in cost_line.text(), what="the reported cost")
    assert format_money(done.cost.reported, done.cost.currency) in cost_line.text()
    assert format_money(est, done.cost.currency) in cost_line.text()


def test_a_cost_billed_by_usage_alone_says_the_report_without_an_unknown_estimate(
    gui, make_window, lang
):
    """Issue 33 point 1: an H3-Image slot has no estimate (billed by tokens) and a reported
    cost: the line says the report alone, in cents, never "(estimated unknown)"."""
    rid = "article:20260816:tide-eye:still-41"
    params = {"model": "MiniMax-H3-Image", "prompt": "tide eye"}
    out = gui.run(gui.other_service().submit(rid, "image", params, wait=True))
    assert out.task.cost.estimate is None and out.task.cost.reported is not None, out.task.cost
    window = make_window()
    window.select(rid)
    gui.until(lambda: shown(window, rid), what="slot shown")
    money = format_money(out.task.cost.reported, out.task.cost.currency)
    line = window.slot_pane.finished.cost  # at the end of the result's summary line
    gui.until(lambda: money in line.text(), what="the reported cost")
    assert line.isVisible() and not window.slot_pane.actions.cost.isVisible()
    assert "unknown" not in line.text() and "(" not in line.text() and "（" not in line.text()
    assert ("服务商报告" in line.text()) == (lang == "zh_CN")


def test_todays_budget_use_is_said_beside_the_drafts_cost(gui, qtbot):
    from app.service.slate import SlateService
    from app.ui.controller import Controller
    from app.ui.window import MainWindow
    from tests.gui.conftest import close

    config = make_config(gui.config.data_dir, gui.config.store, budget_daily=Decimal("0.50"))
    service = SlateService(config, gui.store, gui.provider, SECRET)
    gui.run(service.submit(RID, "video", H3))
    controller = Controller(service)
    window = MainWindow(controller, gui.settings())
    qtbot.addWidget(window)
    window.show()
    controller.start()
    try:
        window.new_draft()
        fill_form(window, RID + "b", "tide eye again", duration=15, resolution="2K")
        form = window.slot_pane.form
        budget = gui.run(service.budget_today())
        spent = format_money(budget.spent.estimate, budget.currency)
        gui.until(lambda: f"today {spent} of $0.50 budget" in form.cost.text(), what="budget")
        # over what is left: the domain's verdict, said, and Create is off with the reason
        gui.until(lambda: "would go over today's budget" in form.error.text(), what="refusal")
        assert not window.slot.offer(Action.CREATE).enabled
        assert "would go over today's budget" in window.slot.offer(Action.CREATE).reason.detail
    finally:
        close(gui, controller, window)


def test_the_budget_field_in_settings_applies_and_is_fixed_by_the_environment(gui, open_app):
    window, controller = open_app()
    save(gui, window, budget="2.50")
    assert controller.service.config.budget_daily == Decimal("2.50")
    assert gui.settings().value("settings/budget_daily") == "2.50"
    window.open_settings()
    assert window.dialog.budget.text() == "2.50"
    window.dialog.close()
    values = dialog_values(controller.config)
    fixed = fixed_fields(controller.config, {"SLATE_BUDGET_DAILY": "3.00"})
    assert "budget_daily" in fixed
    dlg = SettingsDialog(values, "none", window, fixed=fixed)
    assert not dlg.budget.isEnabled() and "SLATE_BUDGET_DAILY" in dlg.budget.toolTip()
    dlg.close()
    # a budget that is no amount is refused next to the fields; nothing changes
    window.open_settings()
    window.dialog.budget.setText("lots")
    window.dialog.save_button.click()
    assert window.dialog is not None and "budget" in window.dialog.error.text().lower()
    assert controller.service.config.budget_daily == Decimal("2.50")
    window.dialog.close()
