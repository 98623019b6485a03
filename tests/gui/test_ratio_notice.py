"""A ratio a frame image overrides is said before Create (issue 33, point 12b): MiniMax follows
a frame image and ignores the ratio, so a MiniMax-H3 draft at 16:9 with a 1:1 first frame makes
a 768×768 video — the form says so under the ratio, in the designer's language, and Create stays
on (it is a warning, not a refusal)."""

from __future__ import annotations


from app.domain.states import Action
from tests.gui.conftest import buttons, fill_form
from tests.gui.test_form_h3 import picture

RID = "article:20261202:tide-eye:scene-08"


def test_a_square_first_frame_with_16_9_says_the_video_will_be_square(
    gui, make_window, tmp_path, lang
):
    window = make_window()
    window.new_draft()
    fill_form(window, RID, "tide eye, from this frame", model="MiniMax-H3", resolution="768P")
    form = window.slot_pane.form
    form.ratio.setCurrentIndex(form.ratio.findData("16:9"))
    before = form.ratio_hint.text()  # text only: why "adaptive" is off, nothing more
    assert "768" not in before and "MiniMax follows" not in before
    square = picture(tmp_path / "square.png", 1024, 1024)
    window.choose_file = lambda done: done(str(square))
    form.first.choose.click()
    gui.until(lambda: form.first.input is not None, what="the chosen frame")
    gui.until(lambda: form.ratio_hint.isVisibleTo(window), what="the ratio's notice")
    said = form.ratio_hint.text()
    if lang == "en":
        assert said == (
            "MiniMax follows the shape of the first frame and ignores the ratio: this video "
            "will be 768×768, not 16:9."
        )
    else:
        assert "首帧" in said and "768×768" in said and "16:9" in said
        assert "MiniMax follows" not in said
    assert buttons(window)[Action.CREATE].isEnabled()  # a warning, not a refusal
    # adaptive follows the frame anyway; a 16:9 frame matches: nothing to say
    form.ratio.setCurrentIndex(form.ratio.findData("adaptive"))
    gui.until(lambda: not form.ratio_hint.isVisibleTo(window), what="adaptive: no notice")
    form.ratio.setCurrentIndex(form.ratio.findData("16:9"))
    gui.until(lambda: form.ratio_hint.isVisibleTo(window), what="the notice again")
    form.first.clear.click()
    wide = picture(tmp_path / "wide.png", 1280, 720)
    window.choose_file = lambda done: done(str(wide))
    form.first.choose.click()
    gui.until(lambda: form.first.input is not None, what="the wide frame")
    gui.until(lambda: not form.ratio_hint.isVisibleTo(window), what="a matching frame")
