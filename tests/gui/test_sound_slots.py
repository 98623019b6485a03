"""The desktop app shows sound slots made at the command line without breaking (the sound UI
itself is issue 19's next slice): a verified song, a verified voice line and an unknown song
are listed, selected and described; the unknown song offers what the service allows (recover:
declare-failed), never query or create."""

from __future__ import annotations

import pytest

from app.domain.states import Action
from tests.gui.conftest import buttons, shown

pytestmark = pytest.mark.timeout(120)

SONG = "article:20261202:tide-eye:song-01"
LINE = "article:20261202:tide-eye:voice-01"
LOST = "article:20261202:tide-eye:song-02"


def test_sound_slots_are_listed_and_selected_without_a_crash(gui, make_window):
    svc = gui.service
    assert gui.run(svc.submit(SONG, "music", {"prompt": "lofi", "instrumental": True})).task
    line = {"text": "Welcome aboard.", "voice": "female-shaonv"}
    assert gui.run(svc.submit(LINE, "speech", line)).task
    gui.sim.set_faults(lose_create_response=1)
    lost = gui.run(svc.submit(LOST, "music", {"prompt": "bells", "instrumental": True}))
    assert lost.task.allowed_actions == [Action.RECOVER]
    window = make_window()
    for rid in (SONG, LINE, LOST):
        window.select(rid)
        gui.until(lambda rid=rid: shown(window, rid), what=f"{rid} on screen")
        gui.quiet(window)  # what showing it started is done
    offers = window.slot.offers()
    assert not offers[Action.QUERY].enabled  # nothing to ask: the service's table, shown
    assert offers[Action.RECOVER].enabled
    offered = {a for a, b in buttons(window).items() if b.isVisible() and b.isEnabled()}
    assert Action.QUERY not in offered and Action.CREATE not in offered
