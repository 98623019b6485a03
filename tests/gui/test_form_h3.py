"""The create form for MiniMax-H3: the model picker offers H3 first, its controls follow the
model's rules (and say why what is disabled is), inputs arrive by Choose…, drag-and-drop and
paste with thumbnails and are checked on arrival, the draft's cost changes with the parameters,
and an H3 create through the form ends in success with sound, on the demo provider."""

from __future__ import annotations

import av
import pytest

from app.domain.states import Action
from app.ui.qt import (
    QApplication,
    QColor,
    QGuiApplication,
    QImage,
    QPoint,
    QPointF,
    Qt,
    QtCore,
    QtGui,
    QUrl,
    multimedia,
)
from tests.gui.conftest import buttons, fill_form

RID = "article:20260816:tide-eye:scene-21"


def picture(path, w, h, color="#3b6ea5"):
    image = QImage(w, h, QImage.Format.Format_RGB32)
    image.fill(QColor(color))
    assert image.save(str(path))
    return path


def drop(widget, mime):
    """A real drag enter and drop on ``widget`` (what a drag from the file manager sends)."""
    enter = QtGui.QDragEnterEvent(
        QPoint(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted(), "the widget must accept the drag"
    event = QtGui.QDropEvent(
        QPointF(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)


def urls(*paths):
    mime = QtCore.QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def copy(*paths):
    """Files copied to the clipboard (the clipboard owns the data it is given)."""
    QGuiApplication.clipboard().setMimeData(urls(*paths))


def test_the_form_offers_h3_first_and_its_controls_follow_the_model(gui, make_window):
    window = make_window()
    window.new_draft()
    form = window.slot_pane.form
    models = form.models()
    assert models[:2] == ["MiniMax-H3", "MiniMax-H3-Max"]
    assert form.model_id() == "MiniMax-H3"
    heading = form.model.model().item(2)
    assert "Legacy" in heading.text() and not heading.isEnabled()
    assert "MiniMax-Hailuo-2.3" in models[2:]
    # duration: a slider over every second the model allows
    assert (form.duration.minimum(), form.duration.maximum()) == (4, 15)
    assert [form.resolution.itemText(i) for i in range(form.resolution.count())] == ["768P", "2K"]
    # prompt expansion is H3-Max's: disabled for H3, said why (tooltip and inline hint)
    assert not form.expansion.isEnabled()
    assert "MiniMax-H3-Max" in form.expansion.toolTip()
    assert form.expansion_hint.isVisibleTo(window)
    assert "MiniMax-H3-Max" in form.expansion_hint.text()
    # "adaptive" needs a picture or a clip: a text-only request gets a fixed ratio, said why
    adaptive = form.ratio.model().item(form.ratio.findData("adaptive"))
    assert not adaptive.isEnabled() and "fixed ratio" in form.ratio_hint.text()
    assert form.references.isVisibleTo(window) and form.first.isVisibleTo(window)
    assert not form.optimizer.isVisibleTo(window)  # V2 has no prompt optimizer switch
    assert "9 images" in form.references.limits.text() and "15 s" in form.references.limits.text()

    assert form.expansion.currentData() == "disabled"  # says "off": H3 does not expand
    form.set_model("MiniMax-H3-Max")
    assert form.expansion.currentData() == "balanced"  # H3-Max's default
    assert (form.duration.minimum(), form.duration.maximum()) == (5, 15)
    assert [form.resolution.itemText(i) for i in range(form.resolution.count())] == ["480P", "768P"]
    assert form.expansion.isEnabled() and not form.expansion_hint.isVisibleTo(window)
    # a last frame alone: H3-Max needs a first frame first
    assert not form.last.choose.isEnabled() and "first frame" in form.last.hint.text()
    assert "first frame" in form.last.edit.toolTip()

    form.set_model("MiniMax-Hailuo-2.3")  # a legacy model: its own durations and controls
    assert form.duration.values == [6, 10]
    assert not form.references.isVisibleTo(window) and form.optimizer.isVisibleTo(window)
    fill_form(window, RID, "tide eye", model="MiniMax-H3")
    assert buttons(window)[Action.CREATE].isEnabled()


def test_inputs_by_drop_and_paste_with_thumbnails_and_limits(gui, make_window, tmp_path):
    window = make_window()
    window.new_draft()
    fill_form(window, RID, "tide eye, from this frame")
    form = window.slot_pane.form
    frame = picture(tmp_path / "frame.png", 1280, 720)
    drop(form.first, urls(frame))  # files from the file manager
    gui.until(lambda: form.first.input is not None, what="the dropped frame")
    assert form.first.has_thumbnail() and "1280×720" in form.first.edit.text()
    assert "embedded" not in form.first.edit.text()
    assert window.slot.draft.params["first_frame_image"] == str(frame)
    # adaptive is allowed now, references are not (frames or references), said why
    assert form.ratio.model().item(form.ratio.findData("adaptive")).isEnabled()
    assert not form.references.add.isEnabled() and "frames" in form.references.hint.text()
    form.first.clear.click()
    assert form.first.input is None and form.references.add.isEnabled()

    # a picture itself (dragged from a browser or another app) onto the reference list
    mime = QtCore.QMimeData()
    image = QImage(800, 600, QImage.Format.Format_RGB32)
    image.fill(QColor("#c08040"))
    mime.setImageData(image)
    drop(form.references, mime)
    gui.until(lambda: len(form.references.items) == 1, what="the dropped picture")
    assert not form.references.list.item(0).icon().isNull()  # a thumbnail, not a file name
    assert window.slot.draft.params["reference_image"][0].startswith("data:image/png;base64,")
    assert "1 of 9 images" in form.references.limits.text()

    # paste (Ctrl+V) onto the reference list: a copied file
    second = picture(tmp_path / "second.jpg", 900, 900, "#204060")
    copy(second)
    form.references.paste()
    gui.until(lambda: len(form.references.items) == 2, what="the pasted file")
    assert window.slot.draft.params["reference_image"][1] == str(second)

    # too wide, too large: refused on arrival with the limit named, nothing taken
    wide = picture(tmp_path / "wide.png", 1500, 300)
    drop(form.references, urls(wide))
    gui.until(lambda: "2:5 to 5:2" in window.slot_pane.actions.message.text(), what="aspect")
    huge = picture(tmp_path / "huge.png", 6000, 3000)
    copy(huge)
    form.first.paste()  # (blocked while references are in: nothing happens)
    assert form.first.input is None
    drop(form.references, urls(huge))
    gui.until(lambda: "256–5760 px" in window.slot_pane.actions.message.text(), what="sides")
    assert len(form.references.items) == 2
    # and the paste onto a frame picker, once the references are gone
    form.references.set_items([])
    copy(frame)
    form.first.paste()
    gui.until(lambda: form.first.input is not None, what="the pasted frame")
    assert form.first.has_thumbnail()
    QGuiApplication.clipboard().clear()
    # a picture itself dropped onto the frame picker
    form.first.clear.click()
    drop(form.first, mime)
    gui.until(lambda: form.first.input is not None, what="the dropped picture as a frame")
    assert form.first.has_thumbnail() and "800×600" in form.first.edit.text()
    assert window.slot.draft.params["first_frame_image"].startswith("data:image/png;base64,")


def test_the_cost_in_the_form_changes_with_duration_and_resolution(gui, make_window):
    window = make_window()
    window.new_draft()
    form = window.slot_pane.form
    assert not form.cost.isVisibleTo(window)  # nothing to price before the draft is valid
    fill_form(window, RID, "tide eye", duration=6, resolution="768P")
    six = form.cost.text()
    assert six.startswith("Cost: about $") and "$0 " not in six + " " and six != "Cost: about $0.00"
    estimate = gui.service.estimate("video", form.check_params()).payload.text
    assert six == "Cost: " + estimate
    form.duration.set_value(12)
    twelve = form.cost.text()
    assert twelve.startswith("Cost: about $") and twelve != six
    form.resolution.setCurrentText("2K")
    assert form.cost.text() != twelve and form.cost.text().startswith("Cost: about $")
    form.set_model("MiniMax-Hailuo-2.3")  # another model: its own price (or "price unknown")
    legacy = gui.service.estimate("video", form.check_params()).payload.text
    assert form.cost.text() == "Cost: " + legacy and legacy != estimate


@pytest.mark.qt_log_ignore(
    r".*No RHI backend\. Using CPU conversion\.",
    r"PulseAudioService: pa_context_connect\(\) failed",
    r"No audio device detected",
)
def test_an_h3_create_through_the_form_ends_in_success_and_plays_with_sound(
    gui, make_window, tmp_path
):
    assert multimedia() is not None, "QtMultimedia must load (Debian: libpulse0)"
    window = make_window()
    window.new_draft()
    form = window.slot_pane.form
    fill_form(window, RID, "tide eye, slow dolly in", duration=5, resolution="768P")
    frame = picture(tmp_path / "frame.png", 1280, 720)
    window.choose_file = lambda done: done(str(frame))
    form.first.choose.click()
    gui.until(lambda: form.first.input is not None, what="the chosen frame")
    form.ratio.setCurrentIndex(form.ratio.findData("adaptive"))
    assert buttons(window)[Action.CREATE].isEnabled()
    buttons(window)[Action.CREATE].click()
    gui.until(
        lambda: (
            window.slot.task is not None
            and window.slot.task.request_id == RID
            and window.slot.task.state == "success"
        ),
        timeout=40,
        what="H3 success",
    )
    task = window.slot.task
    assert task.params["model"] == "MiniMax-H3" and task.params["duration"] == 5
    assert task.params["content"][0]["role"] == "first_frame"
    # read-only now: the stored first frame is shown, the controls are locked
    assert form.prompt.isReadOnly() and not form.model.isEnabled()
    assert form.first.edit.text()
    with av.open(task.media[0].path) as container:
        assert container.streams.audio, "an H3 result carries sound"
    video = window.result_pane.video
    gui.until(lambda: window.result_pane.media_stack.currentWidget() is video, what="player")
    video.play_button.click()
    qm = multimedia()[0]
    gui.until(lambda: video.player.playbackState() == qm.QMediaPlayer.PlaybackState.PlayingState)
    assert video.player.audioOutput() is not None
    assert video.player.audioTracks(), "the player sees the sound track"
    video.stop()  # stopped before the window closes (the audio thread ends first)
    gui.until(lambda: video.player.playbackState() == qm.QMediaPlayer.PlaybackState.StoppedState)
    gui.until(
        lambda: (
            video.player.source().isEmpty()
            and video.player.mediaStatus() == qm.QMediaPlayer.MediaStatus.NoMedia
        ),
        what="the player let go of its file (its playback threads ended)",
    )


def test_a_picture_dropped_on_the_window_goes_into_the_draft(gui, make_window, tmp_path):
    """Dropped anywhere on the form (not on a picker): an H3 draft takes it as a reference."""
    window = make_window()
    window.new_draft()
    fill_form(window, RID, "tide eye")
    ref = picture(tmp_path / "ref.webp", 1024, 1024)
    drop(window, urls(ref))
    form = window.slot_pane.form
    gui.until(lambda: len(form.references.items) == 1, what="the reference")
    assert window.slot.draft.params["reference_image"] == [str(ref)]
    form.set_model("MiniMax-Hailuo-02")  # a legacy model: the first frame takes it
    drop(window, urls(ref))
    gui.until(lambda: form.first.input is not None, what="the first frame")
    assert form.first.value().startswith("data:image/webp;base64,")
    # on a stored slot nothing changes, and the app says why
    gui.run(
        gui.service.submit(
            RID + "x", "video", {"model": "MiniMax-H3", "prompt": "stored", "duration": 4}
        )
    )
    window.select(RID + "x")
    gui.until(lambda: window.slot.task is not None and not window.slot.is_draft)
    drop(window, urls(ref))
    assert "Start a new slot" in window.slot_pane.actions.message.text()
    assert window.slot.task.request_id == RID + "x" and form.references.items == []


def test_video_and_sound_references_are_checked_and_shown(gui, make_window, tmp_path):
    """A clip and a sound go into the reference list with their length (a clip with a poster
    thumbnail); a clip longer than the limit is refused naming it; sound alone says why not."""
    from tests.support.sim_media import audio_bytes, video_bytes

    window = make_window()
    window.new_draft()
    fill_form(window, RID, "tide eye")
    form = window.slot_pane.form
    clip = tmp_path / "clip.mp4"
    clip.write_bytes(video_bytes(seconds=3.0))
    long_clip = tmp_path / "long.mp4"
    long_clip.write_bytes(video_bytes(seconds=20.0))
    sound = tmp_path / "sea.wav"
    sound.write_bytes(audio_bytes(4.0, "wav"))
    drop(form.references, urls(long_clip))
    gui.until(lambda: "2–15 s" in window.slot_pane.actions.message.text(), what="too long")
    assert form.references.items == []
    drop(form.references, urls(clip, sound))
    gui.until(lambda: len(form.references.items) == 2, what="clip and sound")
    video, audio = sorted(form.references.items, key=lambda m: m.kind, reverse=True)
    assert video.kind == "video" and video.thumb is not None  # a poster frame
    assert audio.kind == "audio" and audio.thumb is None
    assert "1 of 3 videos (3.0 of 15 s)" in form.references.limits.text()
    assert "1 of 3 audio (4.0 of 15 s)" in form.references.limits.text()
    assert window.slot.draft.params["reference_video"] == [str(clip)]
    assert window.slot.draft.params["reference_audio"] == [str(sound)]
    assert buttons(window)[Action.CREATE].isEnabled()


def test_a_stored_h3_slot_shows_its_inputs_and_new_slot_does_not_send_them_unseen(
    gui, make_window, tmp_path
):
    ref = picture(tmp_path / "ref.png", 800, 800)
    gui.run(
        gui.service.submit(
            RID,
            "video",
            {
                "model": "MiniMax-H3",
                "prompt": "tide eye",
                "duration": 4,
                "reference_image": [str(ref)],
                "ratio": "adaptive",
            },
            wait=True,  # new slot comes once the slot has ended (DESIGN.md's table)
        )
    )
    window = make_window()
    window.select(RID)
    gui.until(lambda: window.slot.task is not None and window.slot.task.request_id == RID)
    form = window.slot_pane.form
    gui.until(lambda: len(form.references.items) == 1, what="the stored reference")
    assert "800×800" in form.references.list.item(0).text()
    assert form.ratio.currentData() == "adaptive" and not form.ratio.isEnabled()
    window.slot_pane.new_slot()
    assert window.slot.is_draft
    assert "add the file again" in form.references.list.item(0).text()
    assert "reference_image" not in window.slot.draft.params
    assert form.ratio.currentData() == "16:9"  # adaptive needs the picture: said, not sent
    assert "fixed ratio" in form.ratio_hint.text()
