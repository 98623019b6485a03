"""The viewer (lightbox) and compare: zoom / fit / 1:1 / pan, next and previous through the
gallery's order (paging on), Esc, the Details disclosure; a video that plays with sound and
scrubs; two results side by side with synchronized zoom and pan, and synchronized playback."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from app.sim.media import render_mp4_v2
from app.ui.qt import Qt, multimedia
from tests.gui.bulk import insert_slot
from tests.gui.conftest import shown
from tests.gui.gallery_data import add_image_results, add_media

# The machine has no sound server and no GPU: the player's audio output then plays to Qt's null
# device and frames convert on the CPU (see test_flows.py); not faults of ours.
# pytest-qt's capture of Qt's messages is a Python handler: a media thread that logs (no audio
# device here) while the UI thread waits for it inside QMediaPlayer.stop() then waits for the
# interpreter's lock the UI thread holds — the test hangs (seen once in CI, stacks by py-spy).
# The app installs no such handler; these tests play media, so they do not capture Qt's log.
pytestmark = [
    pytest.mark.no_qt_log,
    pytest.mark.qt_log_ignore(
        r".*No RHI backend\. Using CPU conversion\.",
        r"PulseAudioService: pa_context_connect\(\) failed",
        r"No audio device detected",
    ),
]


def gallery_window(gui, make_window, page=None):
    window = make_window()
    if page:
        window.gallery_model.page = page
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(
        lambda: model.started and not model.loading and model.rowCount() > 0, what="gallery page"
    )
    return window, model


def add_videos(gui, folder, n, size=(320, 180)):
    rids = []
    for i in range(n):
        rid = f"article:20260816:tide-eye:clip-{i:02d}"
        task = insert_slot(
            gui.service, rid, "success", results={"file_id": "1"}, created_at=1_780_000_000 + i
        )
        path = folder / f"clip-{i}.mp4"
        path.write_bytes(render_mp4_v2(*size, 3, f"clip {i}", "waves", seed=i))
        add_media(gui.service, task, path, content_type="video/mp4", size=size, duration=3.0)
        rids.append(rid)
    return rids


def test_viewer_zooms_fits_shows_actual_size_pans_and_steps_through_the_gallery(
    gui, make_window, tmp_path
):
    # larger than the viewer: fit shrinks it
    rids = add_image_results(gui.service, tmp_path, 24, size=(1600, 1000))
    window, model = gallery_window(gui, make_window, page=3)
    gui.quiet(window)  # the gallery's reads done: a read-ahead of all 24 would be in now
    assert model.rowCount() < 24  # the rest comes as the viewer steps on
    viewer = window.open_viewer(0)
    gui.until(lambda: viewer.isVisible() and viewer.stage.canvas.full_size, what="full image")
    canvas = viewer.stage.canvas
    assert viewer.title.text() == rids[-1].rsplit(":", 1)[-1]
    assert canvas.fit_mode and canvas.zoom() < 0.9  # the whole picture in view
    fit_zoom = canvas.zoom()
    gui.qtbot.keyClick(viewer, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    ratio = canvas.devicePixelRatioF()
    assert canvas.zoom() == pytest.approx(1 / ratio) and not canvas.fit_mode
    assert viewer.zoom_label.text() == "100 %"
    # pan: dragging moves the picture (the scroll bars) and the centre it shows
    before = canvas.view_state()
    bar = canvas.horizontalScrollBar()
    assert bar.maximum() > 0
    start = canvas.viewport().rect().center()
    gui.qtbot.mousePress(canvas.viewport(), Qt.MouseButton.LeftButton, pos=start)
    gui.qtbot.mouseMove(canvas.viewport(), start - type(start)(200, 0))
    gui.qtbot.mouseRelease(
        canvas.viewport(), Qt.MouseButton.LeftButton, pos=start - type(start)(200, 0)
    )
    assert canvas.view_state()[1] > before[1]
    gui.qtbot.keyClick(viewer, Qt.Key.Key_Plus)
    assert canvas.zoom() == pytest.approx(1.25 / ratio)
    viewer.zoom_out.click()
    assert canvas.zoom() == pytest.approx(1 / ratio)
    gui.qtbot.keyClick(viewer, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert canvas.fit_mode and canvas.zoom() == pytest.approx(fit_zoom)
    # Details: the technical facts, one click away
    assert not viewer.details.isVisible()
    viewer.details_button.click()
    assert viewer.details.isVisible()
    assert model.row_at(0).sha256 in viewer.details.text()
    assert rids[-1] in viewer.caption.text() and "still of" in viewer.caption.text()
    # next / previous follow the gallery's order, paging in more rows at the end
    for expected in range(1, 24):
        gui.qtbot.keyClick(viewer, Qt.Key.Key_Right)
        gui.until(lambda e=expected: viewer.row_index == e, what=f"row {expected}")
    assert viewer.title.text() == rids[0].rsplit(":", 1)[-1] and model.rowCount() == 24
    gui.qtbot.keyClick(viewer, Qt.Key.Key_Right)  # the end: stays
    gui.quiet(window)  # what the key started is done
    assert viewer.row_index == 23 and not viewer.next_button.isEnabled()
    assert viewer.counter.text() == "24 / 24"
    gui.qtbot.keyClick(viewer, Qt.Key.Key_Left)
    assert viewer.row_index == 22
    # Show slot: the window shows it
    viewer.slot_button.click()
    gui.until(lambda: shown(window, rids[1]), what="slot shown")
    assert not viewer.isVisible()
    viewer = window.open_viewer(2)
    gui.qtbot.keyClick(viewer, Qt.Key.Key_Escape)
    assert not viewer.isVisible()


def test_a_video_plays_with_sound_and_scrubs(gui, make_window, tmp_path):
    assert multimedia() is not None, "QtMultimedia must load (Debian: libpulse0)"
    qm = multimedia()[0]
    add_videos(gui, tmp_path, 1)
    window, model = gallery_window(gui, make_window)
    gui.qtbot.keyClick(window.gallery.view, Qt.Key.Key_Right)  # current: the first tile
    window.gallery.view.setCurrentIndex(model.index(0))
    gui.qtbot.keyClick(window.gallery.view, Qt.Key.Key_Space)  # Space opens the viewer
    viewer = window.viewer
    assert viewer is not None and viewer.isVisible()
    video = viewer.stage.video
    assert viewer.stage.stack.currentWidget() is video and not viewer.image_tools.isVisible()
    video.play_button.click()
    player = video.player
    gui.until(
        lambda: player.playbackState() == qm.QMediaPlayer.PlaybackState.PlayingState, what="playing"
    )
    gui.until(lambda: player.duration() > 2500, what="duration")
    assert player.hasAudio() and player.audioOutput() is video.audio
    video.volume.setValue(30)
    assert video.audio.volume() == pytest.approx(0.3)
    assert video.position.maximum() == player.duration()
    video.position.setSliderDown(True)
    video.position.setValue(2000)
    video.position.sliderMoved.emit(2000)  # what a drag of the handle sends
    video.position.setSliderDown(False)
    gui.until(lambda: player.position() >= 1900, what="scrubbed")
    gui.qtbot.keyClick(viewer, Qt.Key.Key_Space)
    gui.until(
        lambda: player.playbackState() != qm.QMediaPlayer.PlaybackState.PlayingState, what="paused"
    )
    viewer.close()
    assert player.playbackState() == qm.QMediaPlayer.PlaybackState.StoppedState


def test_compare_two_images_side_by_side_with_synced_zoom_and_pan(gui, make_window, tmp_path):
    add_image_results(gui.service, tmp_path, 3, size=(1600, 1000))
    window, model = gallery_window(gui, make_window)
    view = window.gallery.view
    sel = view.selectionModel()
    from app.ui.qt import QtCore

    flags = QtCore.QItemSelectionModel.SelectionFlag.Select
    sel.select(model.index(0), flags)
    sel.select(model.index(2), flags)
    gui.qtbot.keyClick(view, Qt.Key.Key_C)
    compare = window.compare
    assert compare is not None and compare.isVisible() and compare.rows == (0, 2)
    a, b = compare.a.stage.canvas, compare.b.stage.canvas
    gui.until(lambda: a.full_size and b.full_size, what="both images")
    assert compare.a.heading.text().startswith("A · ") and compare.b.heading.text().startswith("B")
    a.zoom_by(2.0)
    assert b.zoom() == pytest.approx(a.zoom()) and not b.fit_mode
    a.horizontalScrollBar().setValue(a.horizontalScrollBar().maximum() // 3)
    za, xa, ya = a.view_state()
    zb, xb, yb = b.view_state()
    assert (zb, xb, yb) == pytest.approx((za, xa, ya), abs=0.02)
    b.zoom_by(0.8)  # either side leads
    assert a.zoom() == pytest.approx(b.zoom())
    compare.fit_button.click()
    assert a.fit_mode and b.fit_mode
    compare.swap_button.click()
    assert compare.rows == (2, 0)
    compare.close()
    # "Compare with…" from the viewer
    viewer = window.open_viewer(1)
    menu = viewer.compare_menu()
    actions = [act for act in menu.actions() if act.isEnabled()]
    assert len(actions) == 2
    actions[0].trigger()
    assert window.compare.isVisible() and window.compare.rows == (1, 2)
    assert not viewer.isVisible()


def test_compare_two_videos_plays_and_pauses_them_together(gui, make_window, tmp_path):
    qm = multimedia()[0]
    add_videos(gui, tmp_path, 2)
    window, _model = gallery_window(gui, make_window)
    compare = window.open_compare(0, 1)
    va, vb = compare.a.stage.video, compare.b.stage.video
    playing = qm.QMediaPlayer.PlaybackState.PlayingState
    compare.play_button.click()
    gui.until(
        lambda: va.player.playbackState() == playing and vb.player.playbackState() == playing,
        what="both playing",
    )
    va.pause()  # one side paused: the other follows
    gui.until(lambda: vb.player.playbackState() != playing, what="B paused with A")
    vb.play()
    gui.until(lambda: va.player.playbackState() == playing, what="A plays with B")
    compare.close()
    assert va.player.playbackState() != playing and vb.player.playbackState() != playing


def test_the_viewer_offers_chaining_for_an_image_through_the_gallerys_hook(
    gui, make_window, tmp_path
):
    rids = add_image_results(gui.service, tmp_path, 2)
    window, model = gallery_window(gui, make_window)
    window.gallery.offer_use = False  # nobody feeds new slots: nothing offered
    viewer = window.open_viewer(0)
    assert viewer.use_menu() is None and not viewer.use_button.isVisible()
    got = []
    window.gallery.useResultWanted.disconnect()
    window.gallery.useResultWanted.connect(lambda role, ref: got.append((role, ref)))
    window.gallery.offer_use = True
    viewer = window.open_viewer(1)
    assert viewer.use_button.isVisible()
    actions = {a.text(): a for a in viewer.use_menu().actions()}
    assert set(actions) == {
        "Use as first frame",
        "Use as last frame",
        "Use as reference",
        "Edit this image (MiniMax-H3-Image)",
    }
    actions["Use as last frame"].trigger()
    assert got[0][0] == "last_frame" and got[0][1].request_id == rids[0]
    assert got[0][1].path == model.row_at(1).path


def test_use_as_first_frame_from_the_viewer_feeds_a_new_draft_without_an_export(
    gui, make_window, tmp_path, monkeypatch
):
    # pictures a frame can be (H3 takes sides of 256 px and more: checked on arrival)
    rids = add_image_results(gui.service, tmp_path, 3, project="harbor", size=(640, 360))
    window, model = gallery_window(gui, make_window)
    asked = []  # no file or folder dialog: nothing goes out and comes back in
    for name in ("choose_directory", "choose_file", "choose_media"):
        monkeypatch.setattr(window, name, lambda done, n=name: asked.append(n))
    row = model.row_at(1)
    viewer = window.open_viewer(1)
    assert window.gallery.offer_use and viewer.use_button.isVisible()
    menu = viewer.use_button.menu()
    menu.aboutToShow.emit()  # the button's menu, as a click opens it
    actions = {a.text(): a for a in menu.actions()}
    assert set(actions) == {
        "Use as first frame",
        "Use as last frame",
        "Use as reference",
        "Edit this image (MiniMax-H3-Image)",
    }
    actions["Use as first frame"].trigger()
    form = window.slot_pane.form
    gui.until(lambda: form.first.value(), what="first frame filled from the viewer")
    assert not viewer.isVisible() and not window.gallery_shown()  # the new draft is in view
    assert window.slot.is_draft and form.kind() == "video" and form.isVisible()
    assert (
        form.first.value()
        == "data:image/png;base64," + base64.b64encode(Path(row.path).read_bytes()).decode()
    )
    # named by its slot, never by the stored file's name
    assert row.request_id.rsplit(":", 1)[-1] in form.first.edit.text()
    assert Path(row.path).name not in form.first.edit.text()
    # the result's own slot is the draft's source, shown beside it; the draft is of its project
    assert window.slot.source is not None and window.slot.source.request_id == row.request_id
    assert window.result_pane.media_title.text() == "SOURCE"
    assert window.slot_pane.composer.project.text() == "harbor"
    assert asked == []
    history = gui.run(gui.service.history(row.request_id)).payload
    assert "exported" not in [e.event for e in history.events]
    assert row.request_id in rids


def test_a_gallery_tile_feeds_a_new_draft_and_a_video_gives_its_last_frame(
    gui, make_window, tmp_path
):
    add_image_results(gui.service, tmp_path, 1, size=(640, 360))
    clips = add_videos(gui, tmp_path, 1, size=(640, 360))
    window, model = gallery_window(gui, make_window)
    gui.until(lambda: model.rowCount() == 2, what="both results")
    video_row = next(i for i in range(2) if model.row_at(i).request_id == clips[0])
    image_row = 1 - video_row
    menu = window.gallery.menu_for(model.index(image_row))
    actions = {a.text(): a for a in menu.actions()}
    actions["Use as reference"].trigger()
    form = window.slot_pane.form
    # MiniMax-H3 (the first model offered) takes it as a reference image
    gui.until(lambda: form.references.items, what="reference filled from a tile")
    assert (
        form.references.items[0].value
        == "data:image/png;base64,"
        + base64.b64encode(Path(model.row_at(image_row).path).read_bytes()).decode()
    )
    window.show_gallery(True)
    menu = window.gallery.menu_for(model.index(video_row))
    actions = {a.text(): a for a in menu.actions()}
    assert "Use as last frame" not in actions
    actions["Continue: last frame of this video as first frame"].trigger()
    gui.until(lambda: form.first.value(), timeout=20, what="the video's last frame")
    scene = clips[0].rsplit(":", 1)[-1]
    assert f"last frame of {scene}" in form.first.edit.text()
    assert window.slot.source.request_id == clips[0]
