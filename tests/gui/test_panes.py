"""The panes bound to a CurrentSlot: the action bar shows exactly the slot's offers (enabled, why
not, primary), the banner and the result pane keep the slot on screen while the next one loads,
and in the window an unknown slot without a task id leads with Recover, and an action whose work
raised frees its button again."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.domain.capabilities import Capabilities
from app.domain.states import Action, Refusal, State, slot_offers
from app.service.results import HistoryEvent
from app.present import words
from app.ui.current import Busy, CurrentSlot
from app.ui.panes.actions import ACTION_HELP, ActionBar
from app.ui.panes.banner import Banner
from app.ui.panes.result import ResultPane
from app.ui.qt import translate
from app.present.words import REFUSAL_WORDS, why_not
from tests.gui.bulk import insert_slot
from tests.gui.conftest import buttons, fill_form, shown

RID = "article:20260816:tide-eye:scene-02"
OTHER = "article:20260816:tide-eye:scene-03"


@dataclass(frozen=True)
class Task:
    """A record as the panes read it (the service's TaskView has these and more)."""

    request_id: str = RID
    kind: str = "video"
    state: State = State.PROCESSING
    has_results: bool = False
    provider_task_id: str | None = "task-1"
    created_at: float = 1_000_000.0
    updated_at: float = 1_000_060.0
    next_poll_at: float | None = None
    error: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    media: tuple[Any, ...] = ()
    caps: Capabilities = Capabilities()  # what its provider can do for its protocol

    @property
    def offers(self) -> dict[Action, Any]:
        return slot_offers(self, self.caps)  # as the service's view computes them


def on_screen(state: State | None, **kw: Any) -> CurrentSlot:
    slot = CurrentSlot()
    if state is None:
        slot.start_draft(RID, "video", {"prompt": "tide eye"}, problem=kw.pop("problem", None))
    else:
        slot.select(RID)
        slot.show(RID, Task(state=state, **kw), [])
    return slot


SCENES = {
    "draft": lambda: on_screen(None),
    "draft that does not validate": lambda: on_screen(None, problem="Prompt: too long"),
    **{f"{s.value}": (lambda s=s: on_screen(s)) for s in State},
    "fail with results": lambda: on_screen(State.FAIL, has_results=True),
    "unknown without task id": lambda: on_screen(State.UNKNOWN, provider_task_id=None),
    "unknown image": lambda: on_screen(State.UNKNOWN, kind="image"),
    "draft being sent": lambda: (s := on_screen(None), s.begin(Busy.CREATE))[0],
    "success exporting": lambda: (s := on_screen(State.SUCCESS), s.begin(Busy.EXPORT))[0],
    "settings being applied": lambda: (s := on_screen(State.UNKNOWN), s.begin(Busy.SETTINGS))[0],
    "loading": lambda: (s := on_screen(State.SUCCESS), s.select(OTHER))[0],
}


def assert_bar_shows(bar: ActionBar, slot: CurrentSlot) -> None:
    offers = slot.offers()
    assert set(bar.buttons) == set(Action) - {Action.OPEN}  # Open lives in the result pane
    for action, button in bar.buttons.items():
        offer = offers[action]
        assert button.isEnabled() is offer.enabled, action
        if offer.enabled:
            assert button.toolTip().startswith(translate("MainWindow", ACTION_HELP[action]))
        else:
            assert button.toolTip() == why_not(offer.reason, translate), action
        assert bool(button.property("primary")) is offer.primary, action
    assert sum(bool(b.property("primary")) for b in bar.buttons.values()) <= 1


@pytest.mark.parametrize("scene", list(SCENES))
def test_the_action_bar_shows_exactly_the_offers(qtbot, scene):
    slot = SCENES[scene]()
    bar = ActionBar(slot)
    qtbot.addWidget(bar)
    assert_bar_shows(bar, slot)


def test_the_action_bar_follows_the_slot(qtbot):
    slot = on_screen(None, problem="RequestId must not be empty")
    bar = ActionBar(slot)
    qtbot.addWidget(bar)
    clicked: list[Action] = []
    bar.triggered.connect(clicked.append)
    create = bar.buttons[Action.CREATE]
    assert not create.isEnabled() and create.toolTip() == "RequestId must not be empty"
    slot.edit_draft(problem=None)
    assert create.isEnabled() and create.property("primary")
    assert bar.cost.text() == "Uses 1 video of today's quota."
    create.click()
    assert clicked == [Action.CREATE]
    slot.begin(Busy.CREATE)
    assert not create.isEnabled() and create.toolTip() == "Sending…"
    slot.select(RID)
    slot.show(RID, Task(state=State.UNKNOWN, provider_task_id=None), [])
    assert_bar_shows(bar, slot)
    assert bar.buttons[Action.RECOVER].property("primary") and bar.cost.text() == ""


def test_the_reasons_are_said_in_the_designers_language(qtbot, qapp):
    """The window has no words of its own for why not: the slot's reasons, translated."""
    from app.ui.app import install_translations

    install_translations(qapp, "zh_CN")
    try:
        slot = on_screen(State.UNKNOWN, provider_task_id=None)
        bar = ActionBar(slot)
        qtbot.addWidget(bar)
        query = bar.buttons[Action.QUERY].toolTip()
        assert query == translate("WhyNot", REFUSAL_WORDS[Refusal.NO_TASK_ID])
        assert re.search(r"[\u4e00-\u9fff]", query)
        export = bar.buttons[Action.EXPORT].toolTip()
        assert export == why_not(slot.offer(Action.EXPORT).reason, translate)
        assert re.search(r"[\u4e00-\u9fff]", export)
    finally:
        install_translations(qapp, "en")


def test_the_banner_keeps_the_slot_while_the_next_one_loads(qtbot):
    slot = on_screen(
        State.FAIL,
        error={"code": "1026", "message": "input sensitive", "reason": "sensitive_input"},
    )
    banner = Banner(slot)
    qtbot.addWidget(banner)
    assert banner.title.text() == "Failed"
    assert banner.body.text().startswith(words.INPUT_SENSITIVE + "\n")  # the designer's words
    assert "1026 · input sensitive" in banner.details.text()  # the provider's, one click away
    assert banner.progress.text().startswith("Took 1:00")
    slot.select(OTHER)
    assert banner.title.text() == "Failed"  # no flash of an empty banner between slots
    slot.show(
        OTHER,
        Task(
            request_id=OTHER,
            state=State.PROCESSING,
            created_at=time.time() - 5,
            next_poll_at=time.time() + 30,
        ),
        [],
    )
    assert banner.title.text() == "Generating" and banner.toolTip() == ""
    assert "elapsed 0:0" in banner.progress.text() and "next query in" in banner.progress.text()
    slot.start_draft()
    assert banner.title.text() == "New slot" and not banner.progress.isVisible()


def test_the_result_pane_keeps_the_slot_while_the_next_one_loads(qtbot):
    slot = on_screen(State.FAIL)
    pane = ResultPane(None, slot)  # no media here: nothing to decode, no controller needed
    qtbot.addWidget(pane)
    assert pane.empty_media.text() == "No verified media: this slot failed."
    assert pane.events.topLevelItem(0).text(0) == "Nothing has happened in this slot yet."
    slot.select(OTHER)
    assert pane.empty_media.text() == "No verified media: this slot failed."
    now = time.time()
    slot.show(
        OTHER,
        Task(request_id=OTHER, state=State.UNKNOWN),
        [
            HistoryEvent(now, "create_sent", State.SUBMITTING, None, None),
            HistoryEvent(
                now, "unknown", State.UNKNOWN, "read timeout", {"raw": 1, "reason": "no_answer"}
            ),
        ],
    )
    assert pane.empty_media.text() == "Media appear here once they are downloaded and verified."
    assert pane.events.topLevelItemCount() == 2
    assert (
        pane.events.topLevelItem(1).text(0).endswith("outcome unknown: " + words.NO_ANSWER_IN_TIME)
    )
    assert pane.events.topLevelItem(1).childCount() == 1  # the raw response
    assert "read timeout" in pane.events.topLevelItem(1).child(0).text(0)  # and Slate's words
    slot.start_draft()
    assert pane.empty_media.text() == "Pick a slot on the left, or start a new one."
    assert pane.events.topLevelItemCount() == 1


def test_an_unknown_slot_without_task_id_leads_with_recover(gui, make_window):
    """The create's answer never came, so there is no task to ask about: Query says why, and
    Recover is the highlighted button (Query still leads where a task id exists)."""
    insert_slot(gui.service, OTHER, "unknown", error="read timeout")
    insert_slot(gui.service, RID, "unknown", error="read timeout", provider_task_id="12345")
    window = make_window()
    window.select(OTHER)
    gui.until(lambda: shown(window, OTHER), what="unknown slot without task id")
    query, recover = buttons(window)[Action.QUERY], buttons(window)[Action.RECOVER]
    assert not query.isEnabled() and "Recover" in query.toolTip()
    assert recover.isEnabled() and recover.property("primary") and not query.property("primary")
    window.select(RID)
    gui.until(lambda: shown(window, RID), what="unknown slot with task id")
    assert query.isEnabled() and query.property("primary") and not recover.property("primary")


def test_an_action_whose_work_raised_frees_its_button(gui, make_window, tmp_path):
    """Export hits a folder where the file's name is taken by a folder: the copy raises. The
    error is said, and Export is offered again (not left "Exporting…" for good)."""
    rid = "article:20260816:tide-eye:still-01"
    gui.run(gui.other_service().submit(rid, "image", {"prompt": "a lighthouse", "n": 1}, wait=True))
    window = make_window()
    window.select(rid)
    gui.until(lambda: shown(window, rid) and window.slot.task.state == "success", what="slot")
    out = tmp_path / "out"
    (out / "article_20260816_tide-eye_still-01.png").mkdir(parents=True)
    window.choose_directory = lambda done: done(str(out))
    export = buttons(window)[Action.EXPORT]
    export.click()
    bar = window.slot_pane.actions
    gui.until(lambda: "IsADirectoryError" in bar.details.text(), what="the error said")
    assert bar.message.text() and "IsADirectoryError" not in bar.message.text()  # in words
    gui.until(lambda: export.isEnabled(), what="Export offered again")
    assert Busy.EXPORT not in window.slot.busy


def test_a_frame_file_goes_into_the_draft_as_a_data_url(gui, make_window, tmp_path):
    """Choose… on the first frame: the window asks for the file, the slot pane reads it (off the
    UI thread) into the picker and so into the draft; a file of another type is refused, said,
    and the frame chosen before stays."""
    from app.ui.qt import QColor, QImage

    image = QImage(640, 360, QImage.Format.Format_RGB32)
    image.fill(QColor("#3b6ea5"))
    frame = tmp_path / "frame.png"
    assert image.save(str(frame))
    window = make_window()
    window.new_draft()
    fill_form(
        window,
        "article:20260816:tide-eye:scene-05",
        "from the first frame",
        model="MiniMax-Hailuo-02",
    )
    picker = window.slot_pane.form.first
    window.choose_file = lambda done: done(str(frame))
    picker.choose.click()
    gui.until(
        lambda: str(window.slot.draft.params.get("first_frame_image", "")).startswith(
            "data:image/png;base64,"
        ),
        what="the frame in the draft",
    )
    assert "frame.png · 640×360" in picker.edit.text() and picker.has_thumbnail()
    bad = tmp_path / "notes.txt"
    bad.write_text("not an image")
    window.choose_file = lambda done: done(str(bad))
    picker.choose.click()
    gui.until(
        lambda: "notes.txt is not a picture" in window.slot_pane.actions.message.text(),
        what="the refusal said",
    )
    assert window.slot.draft.params["first_frame_image"].startswith("data:image/png;base64,")


def test_a_new_slot_form_starts_without_the_last_slots_words(gui, make_window):
    """Issue 33 point 5: a previous slot's error stayed under the next New-slot form — both
    the words on screen when New slot was pressed and an answer about that slot arriving
    after it."""
    from app.service.results import OutcomeKind, Problem, ProblemCode, Result

    rid = "article:20261203:words:scene-01"
    insert_slot(gui.service, rid, "unknown")
    window = make_window()
    window.select(rid)
    gui.until(lambda: shown(window, rid), what="the unknown slot")
    pane = window.slot_pane
    late = Result(
        OutcomeKind.UNKNOWN, rid, problem=Problem(ProblemCode.UNKNOWN, "list: no answer in time")
    )
    pane._outcome("query", late)
    gui.until(lambda: pane.actions.message.text(), what="the slot's words")
    pane.new_draft()
    assert pane.actions.message.text() == "" and not pane.actions.details_button.isVisible()
    pane._outcome("query", late)  # the old slot's answer, arriving after New slot
    assert pane.actions.message.text() == ""
