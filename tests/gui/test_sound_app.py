"""Music and Voice in the window, through the real widgets on the demo provider: the create
form's sound fields (lyrics with their structure tags, instrumental, the voice line's count and
its sync/async line from the domain's rule, the voice picker from ``get_voice``), a song and a
voice line made to ``success`` and played with their waveform, an unknown song that offers
declare-failed only (said in a designer's words), and a sound fed to a new MiniMax-H3 draft as
its reference audio."""

from __future__ import annotations

import pytest

from app.domain import params_sound as ps
from app.domain.states import Action, Refusal
from app.ui.gallery.pane import ref_of, use_choices
from app.ui.qt import multimedia, translate
from app.present.words import REFUSAL_WORDS
from tests.gui.conftest import buttons, shown
from tests.gui.test_flows import wait_state
from tests.gui.test_form_h3 import picture
from tests.gui.test_screenshots import save

# The machine has no sound server: the player's audio output then plays to Qt's null device
# (as in test_flows.py and test_viewer.py); not a fault of ours.
# pytest-qt's capture of Qt's messages is a Python handler: a media thread that logs (no audio
# device here) while the UI thread waits for it inside QMediaPlayer.stop() then waits for the
# interpreter's lock the UI thread holds — the test hangs (seen once in CI, stacks by py-spy).
# The app installs no such handler; these tests play media, so they do not capture Qt's log.
pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.no_qt_log,
    pytest.mark.qt_log_ignore(
        r".*No RHI backend\. Using CPU conversion\.",
        r"PulseAudioService: pa_context_connect\(\) failed",
        r"No audio device detected",
    ),
]

SONG = "article:20261202:tide-eye:song-01"
LINE = "article:20261202:tide-eye:voice-01"
LOST = "article:20261202:tide-eye:song-02"


def sound_form(window):
    window.new_draft()
    return window.slot_pane.form


def test_music_form_tags_instrumental_and_the_domains_verdict(gui, make_window):
    window = make_window()
    form = sound_form(window)
    form.sound.music_radio.setChecked(True)
    assert form.kind() == "music"
    assert not form.visual.isVisible() and form.sound.style_edit.isVisible()
    # nothing yet: a hint (not an error), and Create is not offered
    assert form.error.objectName() == "hint" and "style" in form.error.text()
    assert not buttons(window)[Action.CREATE].isEnabled()
    window.slot_pane.composer.set_request_id(SONG)
    form.sound.style_edit.setPlainText("lofi, warm piano, rain")
    # lyrics chosen but blank: the domain's refusal, naming the field
    assert form.error.objectName() == "fieldError"
    assert form.error.text().startswith("Lyrics: ") and "blank" in form.error.text()
    assert form.sound.lyrics.property("invalid")
    form.sound.tag_buttons[0].click()  # [Verse]
    form.sound.lyrics.insertPlainText("Salt on the window")
    form.sound.tag_buttons[1].click()  # [Chorus], on its own line
    assert form.sound.lyrics.toPlainText() == "[Verse]\nSalt on the window\n[Chorus]\n"
    more = form.sound.more_tags.menu().actions()
    assert [a.text() for a in more] == list(ps.LYRICS_TAGS)
    assert form.error_text() is None and form.params()["lyrics"].startswith("[Verse]")
    gui.until(lambda: buttons(window)[Action.CREATE].isEnabled(), what="create offered")
    # instrumental: no lyrics sent, the editor and its tags off
    form.sound.instrumental.setChecked(True)
    assert form.params() == {
        "model": "music-2.6",
        "prompt": "lofi, warm piano, rain",
        "format": "mp3",
        "instrumental": True,
    }
    assert not form.sound.lyrics.isEnabled() and not form.sound.tag_buttons[0].isEnabled()
    form.sound.optimizer.setChecked(True)  # one of the two: the other turns off
    assert not form.sound.instrumental.isChecked() and form.params()["lyrics_optimizer"]
    # the estimate comes from the service's price table (music has no sourced price: unknown)
    assert form.cost.isVisible() and form.cost.text().startswith("Cost:")
    assert form.draft.cost is not None
    # back to video: the picture and video fields return
    form.video_radio.setChecked(True)
    assert form.kind() == "video" and form.visual.isVisible() and not form.sound.isVisible()


def test_voice_form_count_protocol_line_and_voices_from_get_voice(gui, make_window):
    window = make_window()
    form = sound_form(window)
    form.sound.voice_radio.setChecked(True)
    assert form.kind() == "speech"
    # the voices come from the demo provider's get_voice, through the service
    gui.until(lambda: form.sound.voices_documented is False, what="voices listed")
    ids = [form.sound.voice.itemData(i) for i in range(form.sound.voice.count())]
    assert "female-shaonv" in ids and "male-qn-qingse" in ids
    assert not form.sound.voice_note.isVisible()
    window.slot_pane.composer.set_request_id(LINE)
    assert "Write the words" in form.error.text()
    form.sound.text.setPlainText("Welcome aboard.")
    assert form.sound.text_count.text() == "15 characters"
    line = form.sound.protocol_line.text()
    assert "10,000" in line and "synchronous" in line and form.draft.speech_protocol == "sync"
    form.sound.voice.setCurrentIndex(form.sound.voice.findData("female-shaonv"))
    form.sound.speed.setValue(1.25)
    assert form.params() == {
        "model": "speech-2.8-hd",
        "text": "Welcome aboard.",
        "voice": "female-shaonv",
        "speed": 1.25,
        "format": "mp3",
    }
    assert form.error_text() is None
    # the estimate: per character, from the price table
    gui.until(lambda: "Cost: about" in form.cost.text(), what="estimate")
    # one character past the domain's threshold: asynchronous, and the line says why
    form.sound.text.setPlainText("a" * (ps.SYNC_TEXT_MAX + 1))
    assert form.draft.speech_protocol == "async"
    assert "asynchronous" in form.sound.protocol_line.text()
    assert "10,001" in form.sound.text_count.text()
    form.sound.text.setPlainText("a" * ps.SYNC_TEXT_MAX)
    assert form.draft.speech_protocol == "sync"
    # a refused speed names its field (the domain's message)
    form.sound.text.setPlainText("Hello")
    form.sound.speech_format.setCurrentIndex(form.sound.speech_format.findData("flac"))
    assert form.params()["format"] == "flac" and form.error_text() is None


def test_a_daily_budget_judges_a_sound_draft_by_the_domains_rule(gui, make_window):
    """With a daily budget, a song (no sourced price: unknown) is not created, in the budget's
    words; a voice line (priced per character) is, with the budget said beside its cost."""
    from tests.gui.test_shotlist import budget_service

    window = make_window(budget_service(gui, "5"))
    form = sound_form(window)
    gui.until(lambda: form.budget is not None, what="today's budget use")
    form.sound.music_radio.setChecked(True)
    window.slot_pane.composer.set_request_id(SONG)
    form.sound.style_edit.setPlainText("lofi")
    form.sound.instrumental.setChecked(True)
    assert form.draft.cost is not None and form.draft.cost.estimate is None
    assert form.draft.problem is not None and form.draft.problem.kind.name == "BUDGET"
    assert "music-2.6 has no price yet" in form.error.text() and form.error.isVisible()
    assert not buttons(window)[Action.CREATE].isEnabled()
    form.sound.voice_radio.setChecked(True)
    window.slot_pane.composer.set_request_id(LINE)
    form.sound.text.setPlainText("Welcome aboard.")
    assert form.draft.verdict is not None and form.draft.verdict.allowed
    assert form.error_text() is None and "Cost: about" in form.cost.text()
    gui.until(lambda: buttons(window)[Action.CREATE].isEnabled(), what="create offered")


def test_voice_picker_falls_back_to_the_documented_voices(gui, make_window, monkeypatch):
    async def down() -> list:
        from app.providers.base import ProviderError

        raise ProviderError("connection refused")

    monkeypatch.setattr(gui.provider, "list_voices", down)
    window = make_window()
    form = sound_form(window)
    form.sound.voice_radio.setChecked(True)
    gui.until(lambda: form.sound.voices_documented is True, what="documented voices")
    ids = [form.sound.voice.itemData(i) for i in range(form.sound.voice.count())]
    assert ids == [v for v, _ in ps.SYSTEM_VOICES]
    assert form.sound.voice_note.isVisible() and "documented" in form.sound.voice_note.text()


def test_an_unknown_song_offers_exactly_declare_failed_and_says_why(gui, make_window):
    gui.sim.set_faults(lose_create_response=1)
    lost = gui.run(gui.service.submit(LOST, "music", {"prompt": "bells", "instrumental": True}))
    assert lost.task.state == "unknown"
    window = make_window()
    window.select(LOST)
    wait_state(gui, window, "unknown", rid=LOST)
    offers = window.slot.offers()
    enabled = {a for a, o in offers.items() if o.enabled}
    assert enabled == {Action.RECOVER}
    query = window.slot.slot_offers()[Action.QUERY]
    assert query.refusal is Refusal.NO_RECORD
    body = window.slot_pane.banner.body.text()
    assert "MiniMax keeps no record" in body and "declare the slot failed" in body
    assert "image" not in body  # not the image tasks' sentence
    # the history says it too: nothing to look up (not the video's "look it up")
    events = window.result_pane.events
    gui.until(lambda: events.topLevelItemCount() >= 3, what="history")
    lines = [events.topLevelItem(i).text(0) for i in range(events.topLevelItemCount())]
    lost = next(line for line in lines if "outcome unknown" in line)
    assert "keeps no record" in lost and "look it up" not in lost
    why = buttons(window)[Action.QUERY].toolTip()
    assert why == translate("WhyNot", REFUSAL_WORDS[Refusal.NO_RECORD])
    window.open_recover()
    dialog = gui.until(lambda: window.dialog, what="recover dialog")
    ways = {
        "attach": dialog.attach.isEnabled(),
        "lookup": dialog.lookup.isEnabled(),
        "redownload": dialog.redownload.isEnabled(),
        "declare": dialog.declare.isEnabled(),
    }
    assert ways == {"attach": False, "lookup": False, "redownload": False, "declare": True}
    dialog.declare.setChecked(True)
    dialog.reason.setPlainText("not billed in the console")
    dialog.ok.click()
    wait_state(gui, window, "fail", rid=LOST)
    assert shown(window, LOST)


def _playing(gui, view):
    qm = multimedia()[0]
    view.play_button.click()
    gui.until(lambda: view.player is not None, what="player made")
    gui.until(
        lambda: view.player.playbackState() == qm.QMediaPlayer.PlaybackState.PlayingState,
        what="playing",
    )
    assert view.player.audioOutput() is not None  # Qt 6 plays no sound without one
    assert view.play_button.text() == "❚❚ Pause"
    gui.until(lambda: view.player.duration() > 0, what="length known")
    # scrub: a click on the waveform's middle moves the player there
    from app.ui.qt import QPoint, Qt

    gui.qtbot.mouseClick(
        view.waveform, Qt.MouseButton.LeftButton, pos=QPoint(view.waveform.width() // 2, 10)
    )
    half = view.player.duration() / 2
    gui.until(lambda: abs(view.player.position() - half) < 800, what="scrubbed to the middle")
    view.play_button.click()
    gui.until(
        lambda: view.player.playbackState() == qm.QMediaPlayer.PlaybackState.PausedState,
        what="paused",
    )
    assert view.play_button.text() == "▶ Play"


def test_a_song_made_through_the_form_plays_with_its_waveform(gui, make_window):
    assert multimedia() is not None, "QtMultimedia must load (Debian: libpulse0)"
    window = make_window()
    form = sound_form(window)
    form.sound.music_radio.setChecked(True)
    window.slot_pane.composer.set_request_id(SONG)
    form.sound.style_edit.setPlainText("sea shanty, accordion, slow")
    form.sound.tag_buttons[0].click()
    form.sound.lyrics.insertPlainText("Haul the rope")
    gui.until(lambda: buttons(window)[Action.CREATE].isEnabled(), what="create offered")
    buttons(window)[Action.CREATE].click()
    wait_state(gui, window, "success", rid=SONG, timeout=60)
    task = window.slot.task
    assert task.kind == "music" and task.params["lyrics"] == "[Verse]\nHaul the rope"
    media = task.media[0]
    assert media.content_type == "audio/mpeg" and media.duration
    finished = window.slot_pane.finished
    view = finished.sound
    # the waveform is the result, as large as the pane gives it (issue 35)
    assert view.isVisible() and finished.media.currentWidget() is view
    gui.until(lambda: len(view.waveform.peaks) > 50, what="waveform read off the UI thread")
    assert max(view.waveform.peaks) == 1.0 and min(view.waveform.peaks) >= 0.0
    assert "Song" in finished.summary.text() and "sea shanty" in finished.summary.text()
    _playing(gui, view)
    # the use menu: a sound feeds a MiniMax-H3 draft's reference audio, nothing else
    acts = finished.actions_for(media)
    assert [a.objectName() for a in acts] == ["use-reference_audio"]


def test_a_voice_line_made_through_the_form_plays(gui, make_window):
    window = make_window()
    form = sound_form(window)
    form.sound.voice_radio.setChecked(True)
    gui.until(lambda: form.sound.voices_documented is False, what="voices listed")
    window.slot_pane.composer.set_request_id(LINE)
    form.sound.text.setPlainText("Welcome aboard the tide eye. Mind the gap.")
    form.sound.voice.setCurrentIndex(form.sound.voice.findData("male-qn-qingse"))
    form.sound.speech_format.setCurrentIndex(form.sound.speech_format.findData("wav"))
    gui.until(lambda: buttons(window)[Action.CREATE].isEnabled(), what="create offered")
    buttons(window)[Action.CREATE].click()
    wait_state(gui, window, "success", rid=LINE, timeout=60)
    task = window.slot.task
    assert task.params["voice"] == "male-qn-qingse" and task.params["protocol"] == "sync"
    assert task.media[0].content_type == "audio/wav"
    view = window.slot_pane.finished.sound
    gui.until(lambda: len(view.waveform.peaks) > 10, what="waveform")
    summary = window.slot_pane.finished.summary.text()
    assert "Voice line" in summary and "male-qn-qingse" in summary and "Mind the gap" in summary
    _playing(gui, view)


def test_a_sound_becomes_the_reference_audio_of_a_new_h3_draft(gui, make_window, tmp_path):
    line = {"text": "Welcome aboard. " * 20, "voice": "female-shaonv"}  # ~20 s: trimmed
    made = gui.run(gui.service.submit(LINE, "speech", line, wait=True), timeout=90)
    assert made.task.state == "success"
    assert made.task.media[0].duration > 15
    window = make_window()
    window.select(LINE)
    wait_state(gui, window, "success", rid=LINE)
    finished = window.slot_pane.finished
    act = finished.actions_for(finished.current_media())[0]
    act.trigger()
    form = window.slot_pane.form
    message = window.slot_pane.actions.message
    gui.until(lambda: form.references.items or "not" in message.text(), what="the sound fed")
    assert form.references.items, message.text()
    assert form.kind() == "video" and form.is_v2()
    item = form.references.items[0]
    assert item.kind == "audio" and item.facts.seconds <= 15.0 + 0.05
    assert "voice-01" in item.name and "15" in item.name
    # said once the clip is in (the line is cleared as it is taken, then the note follows)
    gui.until(lambda: "at most 15 s" in message.text(), what="the trim said")
    # the slot it came from stays beside the draft, playable there
    right = window.result_pane
    gui.until(lambda: right.media_stack.currentWidget() is right.sound, what="source beside")
    assert right.summary.text().startswith("Sound · 20.0 s")
    # the domain's rule: reference audio needs a picture or a clip beside it, said until then
    form.prompt.setPlainText("the harbour at dawn, the voice over it")
    assert "reference audio needs" in (form.error_text() or "")
    assert not buttons(window)[Action.CREATE].isEnabled()
    form.take(form.references, [str(picture(tmp_path / "harbour.png", 1280, 720))])
    gui.until(lambda: len(form.references.items) == 2, what="the picture beside it")
    assert form.error_text() is None


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    from app.ui.app import install_translations

    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")


def _looked_at(gui, window, name):
    """Saved for review at the minimum size; nothing cut off, nothing outside the window."""
    from tests.gui.layout_checks import outside

    gui.quiet(window)  # what the last step started is done: its words are in
    gui.drained(window)
    save(window, name)
    assert outside(window) == [], name


def test_sound_screenshots_at_the_minimum_size(gui, make_window, lang):
    song = {"prompt": "sea shanty, accordion", "lyrics": "[Verse]\nHaul the rope\n[Chorus]\nHo"}
    assert gui.run(gui.service.submit(SONG, "music", song, wait=True)).task.state == "success"
    gui.sim.set_faults(lose_create_response=1)
    gui.run(gui.service.submit(LOST, "music", {"prompt": "bells", "instrumental": True}))
    window = make_window()
    window.resize(window.minimumSize())
    assert (window.width(), window.height()) == (1000, 640)
    form = sound_form(window)
    form.sound.music_radio.setChecked(True)
    window.slot_pane.composer.set_request_id("article:20261202:tide-eye:song-03")
    form.sound.style_edit.setPlainText("lofi, warm piano, rain on the window, 70 bpm")
    form.sound.tag_buttons[0].click()
    form.sound.lyrics.insertPlainText("Salt on the glass, the tide comes in")
    form.sound.tag_buttons[1].click()
    form.sound.lyrics.insertPlainText("Hold the light, hold the line")
    _looked_at(gui, window, f"{lang}-sound-1-music-form")
    from app.ui.qt import QScrollArea

    scroll = window.slot_pane.findChild(QScrollArea, "slotScroll")
    scroll.verticalScrollBar().setValue(scroll.verticalScrollBar().maximum())
    _looked_at(gui, window, f"{lang}-sound-1b-music-lyrics")
    scroll.verticalScrollBar().setValue(0)
    form.sound.voice_radio.setChecked(True)
    gui.until(lambda: form.sound.voices_documented is False, what="voices listed")
    window.slot_pane.composer.set_request_id("article:20261202:tide-eye:voice-02")
    form.sound.text.setPlainText("Welcome aboard the tide eye. <#0.5#> Mind the gap.")
    _looked_at(gui, window, f"{lang}-sound-2-voice-form")
    window.select(SONG)
    wait_state(gui, window, "success", rid=SONG)
    view = window.slot_pane.finished.sound
    gui.until(lambda: view.waveform.peaks, what="waveform")
    _looked_at(gui, window, f"{lang}-sound-3-song-result")
    window.select(LOST)
    wait_state(gui, window, "unknown", rid=LOST)
    _looked_at(gui, window, f"{lang}-sound-4-unknown-song")


def test_a_song_in_the_gallery_and_the_viewer_plays_and_feeds_an_h3_draft(gui, make_window):
    song = {"prompt": "harbour bells", "instrumental": True}
    assert gui.run(gui.service.submit(SONG, "music", song, wait=True)).task.state == "success"
    window = make_window()
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(lambda: model.started and model.rowCount() == 1, what="gallery page")
    row = model.row_at(0)
    assert row.content_type == "audio/mpeg"
    assert model.thumbnail(row) is None and not model.thumb_failed(row)  # no picture asked
    assert [r for r, _ in use_choices(ref_of(row))] == ["reference_audio"]
    save(window, "en-sound-5-gallery")
    viewer = window.open_viewer(0)
    stage = viewer.stage
    assert stage.stack.currentWidget() is stage.sound_page and not viewer.image_tools.isVisible()
    gui.until(lambda: len(stage.sound.waveform.peaks) > 50, what="waveform in the viewer")
    save(viewer, "en-sound-6-viewer")
    _playing(gui, stage.sound)
    actions = viewer.use_menu().actions()
    assert [a.text() for a in actions] == [
        "Use as soundtrack / reference audio of a MiniMax-H3 slot"
    ]
    actions[0].trigger()
    form = window.slot_pane.form
    gui.until(lambda: form.references.items, what="the song in the H3 draft's references")
    assert not viewer.isVisible() and form.is_v2()
    item = form.references.items[0]
    assert item.kind == "audio" and item.name == "song-01"  # 4 s: taken as it is


def test_edit_as_new_slot_from_a_voice_line_keeps_its_words_and_voice(gui, make_window):
    line = {"text": "Mind the gap.", "voice": "male-qn-qingse", "speed": 1.5, "format": "wav"}
    assert gui.run(gui.service.submit(LINE, "speech", line, wait=True)).task.state == "success"
    window = make_window()
    window.select(LINE)
    wait_state(gui, window, "success", rid=LINE)
    buttons(window)[Action.NEW_SLOT].click()
    form = window.slot_pane.form
    gui.until(lambda: window.slot.is_draft and form.isVisible(), what="the new draft")
    assert form.kind() == "speech" and form.sound.text.isVisible()
    assert form.params() == {
        "model": "speech-2.8-hd",
        "text": "Mind the gap.",
        "voice": "male-qn-qingse",
        "speed": 1.5,
        "format": "wav",
    }
    assert not form.sound.text.isReadOnly() and form.sound.voice.isEnabled()
