"""Issue 33 point 12 (c): "Scenes from a template…" opened while the form shows a song or a voice
line makes video scenes (a template's scenes are pictures or videos), not songs."""

from __future__ import annotations

import pytest

from app.ui.shotlist import TemplateDialog

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


@pytest.mark.parametrize("radio", ["music_radio", "voice_radio", "image"])
def test_the_template_takes_a_scene_kind_not_the_sound_forms(gui, make_window, radio):
    window = make_window()
    window.new_draft()
    form = window.slot_pane.form
    if radio == "image":
        form.image_radio.setChecked(True)
    else:
        getattr(form.sound, radio).setChecked(True)
    window.shortcut_actions["template"].trigger()
    dlg = gui.until(
        lambda: isinstance(window.dialog, TemplateDialog) and window.dialog, what="the template"
    )
    assert dlg.kind == ("image" if radio == "image" else "video")
    dlg.close()
