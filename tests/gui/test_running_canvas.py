"""While a slot is being made (issue 35): the slot pane shows the frame of the result to come —
its shape, the prompt large inside it, filled as far as the banner's progress — where the result
will be; the result replaces it once verified. It is not a result: ``result.share`` stays 0."""

from __future__ import annotations

import pytest

from app.ui.describe import describe
from app.ui.panes.running import SOUND_SHAPE, expected_shape
from tests.gui.bulk import insert_slot, past_successes
from tests.gui.conftest import shown

RUNNING = "article:20261204:harbor:clip-07"
pytestmark = pytest.mark.qt_log_ignore(r".*No RHI backend\. Using CPU conversion\.")


@pytest.mark.parametrize(
    ("kind", "params", "shape"),
    [
        ("video", {"resolution": "1080P"}, 16 / 9),
        ("video", {"ratio": "9:16"}, 9 / 16),
        ("image", {"aspect_ratio": "4:3"}, 4 / 3),
        ("image", {"size": "1024x1536"}, 1024 / 1536),
        ("image", {}, 1.0),
        ("music", {"prompt": "shanty"}, SOUND_SHAPE),
        ("speech", {"text": "hello"}, SOUND_SHAPE),
        ("image", {"aspect_ratio": "0:0"}, 1.0),  # nonsense: the kind's own shape
    ],
)
def test_the_frame_takes_the_results_shape(kind, params, shape):
    assert expected_shape(kind, params) == pytest.approx(shape)


def test_a_running_slot_shows_the_frame_of_its_result_with_its_prompt(gui, make_window, lang):
    # two earlier tasks like it: the banner has an estimate, the frame fills as far as it says
    past_successes(gui.service, "article:20261204:harbor:past")
    insert_slot(gui.service, RUNNING, "processing", provider_task_id="t-7")
    window = make_window()
    window.resize(1000, 640)
    window.select(RUNNING)
    gui.until(lambda: shown(window, RUNNING), what="the running slot")
    canvas = window.slot_pane.finished.running
    gui.until(canvas.isVisible, what="the running canvas")
    assert canvas.prompt.text() == f"prompt of {RUNNING}"
    assert "1080P" in canvas.what.text()
    # it takes the room: most of the slot pane's width, not a line of summary (once the pane's
    # layout has settled: the canvas is shown before its layout has run on a busy machine)
    gui.until(
        lambda: canvas.frame().width() >= 0.8 * window.slot_pane.width() - 60,
        what="the frame across the slot pane",
    )
    frame = canvas.frame()
    assert frame.width() / frame.height() == pytest.approx(16 / 9, rel=0.01)
    assert frame.width() >= 0.8 * window.slot_pane.width() - 60
    assert not window.slot_pane.finished.summary.isVisible()
    banner = window.slot_pane.banner
    gui.until(lambda: banner.estimate is not None, what="an estimate")
    banner.update_progress()
    assert (canvas.value, canvas.maximum) == (banner.bar.value(), banner.bar.maximum())
    assert canvas.maximum == 1000
    assert describe(window, selected=RUNNING, lang=lang)["result"]["share"] == 0.0

    # the slot finishes: the canvas goes, the (here: no) media and the summary take its place
    done = "article:20261204:harbor:past-0"
    window.select(done)
    gui.until(lambda: shown(window, done), what="a finished slot")
    assert not canvas.isVisible()
