"""The studio flows: a result used as the next slot's input (an image, a video's last frame),
"Edit as new slot" while the source runs, fresh drafts from the user's defaults."""

from __future__ import annotations

import base64
import io
from fractions import Fraction
from pathlib import Path

from PIL import Image

from app.domain.states import Action
from app.ui.chain import Role
from app.ui.settings import DraftDefaults
from tests.gui.bulk import insert_slot
from tests.gui.conftest import buttons, shown

DONE = "article:20260816:tide-eye:still-01"
RUNNING = "article:20260816:tide-eye:scene-04"


def _decoded(data_url: str) -> Image.Image:
    assert data_url.startswith("data:image/png;base64,"), data_url[:40]
    return Image.open(io.BytesIO(base64.b64decode(data_url.split(",", 1)[1]))).convert("RGB")


def _two_colour_video(path: Path, seconds: float = 3.0) -> None:
    """Red frames, then a blue last second: only the last frame is blue."""
    import av

    fps, size = 12, (96, 64)
    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = size[0], size[1], "yuv420p"
        stream.options = {"preset": "ultrafast"}
        frames = int(seconds * fps)
        for i in range(frames):
            colour = (0, 0, 230) if i >= frames - 6 else (230, 0, 0)
            frame = av.VideoFrame.from_image(Image.new("RGB", size, colour))
            frame = frame.reformat(format="yuv420p")
            frame.pts, frame.time_base = i, Fraction(1, fps)
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)


def test_use_an_image_result_as_first_frame(gui, make_window):
    gui.run(gui.other_service().submit(DONE, "image", {"prompt": "a lighthouse", "n": 1},
                                       wait=True))
    window = make_window()
    window.select(DONE)
    gui.until(lambda: shown(window, DONE), what="done slot")
    media = window.slot.task.media[0]
    window.use_result_as(media, "first_frame")
    form = window.slot_pane.form
    assert window.slot.is_draft and form.kind() == "video"
    gui.until(lambda: form.first.value(), what="first frame filled")
    assert form.first.value() == "data:image/png;base64," + base64.b64encode(
        Path(media.path).read_bytes()).decode()
    assert form.fields.isRowVisible(form.first)
    # the source's result stays beside the draft
    assert window.result_pane.media_title.text() == "SOURCE"
    assert window.result_pane.thumbs.count() == 1
    # no file dialog, no export: the draft can be created as it is once a prompt is written
    form.prompt.setPlainText("the lighthouse at dusk")
    gui.until(lambda: window.slot.offer(Action.CREATE).enabled or window.slot.draft.problem,
              what="draft checked")
    assert window.slot.draft.params["first_frame_image"] == form.first.value()


def test_use_a_result_as_reference_and_as_last_frame(gui, make_window):
    gui.run(gui.other_service().submit(DONE, "image", {"prompt": "a lighthouse", "n": 1},
                                       wait=True))
    window = make_window()
    window.select(DONE)
    gui.until(lambda: shown(window, DONE), what="done slot")
    media = window.slot.task.media[0]
    form = window.slot_pane.form
    window.use_result_as(media, Role.LAST_FRAME)
    gui.until(lambda: form.last.value(), what="last frame filled")
    assert form.first.value() is None
    window.select(DONE)
    gui.until(lambda: shown(window, DONE), what="done slot again")
    window.use_result_as(media.path, Role.REFERENCE)
    gui.until(lambda: form.subject.value(), what="reference filled")
    assert form.fields.isRowVisible(form.subject)


def test_last_frame_of_a_video_becomes_the_next_first_frame(gui, make_window, tmp_path):
    clip = tmp_path / "clip.mp4"
    _two_colour_video(clip)
    window = make_window()
    window.use_result_as(str(clip), "first_frame")
    form = window.slot_pane.form
    gui.until(lambda: form.first.value(), timeout=20, what="last frame extracted")
    image = _decoded(form.first.value())
    r, g, b = image.getpixel((image.width // 2, image.height // 2))
    assert b > 150 and r < 80, (r, g, b)  # the blue last frame, not the red first one
    assert "last frame of clip.mp4" in form.first.edit.text()


def test_a_file_that_is_no_video_is_said_not_raised(gui, make_window, tmp_path):
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(b"not a video at all")
    window = make_window()
    window.use_result_as(str(bad), "first_frame")
    message = window.slot_pane.actions.message
    gui.until(lambda: message.text(), what="message")
    assert "broken.mp4" in message.text() and window.slot_pane.form.first.value() is None


def test_edit_as_new_slot_while_the_source_runs(gui, make_window):
    insert_slot(gui.service, RUNNING, "processing", provider_task_id="t-1")
    window = make_window()
    window.select(RUNNING)
    gui.until(lambda: shown(window, RUNNING), what="running slot")
    button = buttons(window)[Action.NEW_SLOT]
    assert button.isEnabled() and button.isVisible()
    button.click()
    assert window.slot.is_draft and window.slot.source is not None
    assert window.slot.source.request_id == RUNNING
    gui.until(lambda: window.slot_pane.composer.request_id() not in ("", RUNNING),
              what="suggested RequestId")
    assert window.slot_pane.form.prompt.toPlainText() == f"prompt of {RUNNING}"


def test_fresh_drafts_start_from_the_users_defaults_not_the_last_slot(gui, make_window):
    window = make_window()
    window.settings.save_draft_defaults(DraftDefaults(kind="video", model="MiniMax-Hailuo-02",
                                                      duration=6, resolution="768P"))
    form = window.slot_pane.form
    # the last slot on screen was 10 s / 768P
    form.duration.setCurrentIndex(form.duration.findData(10))
    window.new_draft()
    assert form.model.currentText() == "MiniMax-Hailuo-02"
    assert form.duration.currentData() == 6 and form.resolution.currentText() == "768P"
    window.settings.save_draft_defaults(DraftDefaults(kind="image", ratio="16:9"))
    window.new_draft()
    assert form.kind() == "image" and form.aspect.currentText() == "16:9"
    assert form.n.value() == 1
    window.settings.save_draft_defaults(DraftDefaults())
    form.duration.setCurrentIndex(0)
    window.new_draft()
    assert form.kind() == "video" and form.model.currentText() == "MiniMax-Hailuo-2.3"
