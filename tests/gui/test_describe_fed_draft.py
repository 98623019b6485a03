"""``--describe`` of a draft fed by "Use as first frame of a new slot" (issue 18, "Done when"):
the window's own JSON (``app.ui.describe``, what ``slate gui --describe`` prints) of the real
window after the designer's clicks shows Create enabled with no why-not, the first frame said by
its name — no hash, no data: URL — and no problem under the form, in English and zh_CN. (The
CLI's ``--describe`` has no way to click "Use as…" first: DESIGN.md gives it --select, --size
and --lang only, so the window is described in process, after real clicks.)"""

from __future__ import annotations

import json
import re

import pytest

from app.ui.app import install_translations
from app.ui.describe import describe
from tests.gui.conftest import shown

IMAGE = "article:20260816:tide-eye:still-01"
NEXT = "article:20260816:tide-eye:scene-09"


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")


def test_a_draft_fed_by_use_as_first_frame_is_described_with_create_enabled(gui, make_window, lang):
    gui.run(gui.other_service().submit(IMAGE, "image", {"prompt": "a lighthouse"}, wait=True))
    [media] = gui.run(gui.service.status(IMAGE)).task.media
    window = make_window()
    window.select(IMAGE)
    gui.until(lambda: shown(window, IMAGE) and window.slot.task.media, what="the image result")
    finished = window.slot_pane.finished
    finished._fill_use_menu()  # what the "Use in a new slot" button's menu shows
    [use] = [a for a in finished.use_menu.actions() if a.objectName() == "use-first_frame"]
    use.trigger()
    form = window.slot_pane.form
    gui.until(lambda: form.first.input is not None, timeout=30, what="the picture in")
    window.slot_pane.composer.set_request_id(NEXT)
    form.prompt.setPlainText("the lighthouse at dusk, slow dolly in")
    seen = gui.until(
        lambda: (
            (d := describe(window, lang=lang))
            and any(b["name"] == "createButton" and b["enabled"] for b in d["buttons"])
            and d
        ),
        timeout=30,
        what="Create enabled in the description",
    )
    json.dumps(seen)  # one JSON object, as the CLI prints it
    assert seen["slot"] is None and seen["form"]["visible"] is True
    [create] = [b for b in seen["buttons"] if b["name"] == "createButton"]
    assert create["enabled"] and create["why_not"] is None
    assert seen["form"]["error"] == ""
    values = {f["name"]: f["value"] for f in seen["form"]["fields"] if f["name"]}
    assert values["modelCombo"] == "MiniMax-H3" and values["requestIdEdit"] == NEXT
    [first] = [f for f in seen["form"]["fields"] if f["label"] in ("First frame", "首帧")]
    assert "still-01" in first["value"], first  # named after the slot it came from
    shown_text = json.dumps(seen, ensure_ascii=False)
    assert media.sha256[:12] not in shown_text and "data:image" not in shown_text
    if lang == "zh_CN":
        assert re.search(r"[\u4e00-\u9fff]", create["text"])
