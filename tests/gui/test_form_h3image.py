"""MiniMax-H3-Image in the create form, through the real widgets on the demo provider: its shape,
count and reference rows replace image-01's, references arrive by drop, paste and Add… and are
refused on arrival with the domain's own limit, a size the rules refuse stops Create in the
rule's words, the estimate says why it is unknown, and an edit with a reference ends in success.
"""

from __future__ import annotations

from app.domain import params_h3image as h3i
from app.domain.errors import ValidationError
from app.domain.params import normalize
from app.domain.states import Action, State
from app.ui.qt import QGuiApplication
from tests.gui.conftest import buttons, fill_form, shown
from tests.gui.test_form_h3 import copy, drop, picture, urls

RID = "article:20261202:tide-eye:scene-31"


def h3_image_draft(window, rid=RID, prompt="tide eye lighthouse, ink wash"):
    window.new_draft()
    fill_form(window, rid, prompt, kind="image", model="MiniMax-H3-Image")
    return window.slot_pane.form


def rule_message(**params):
    try:
        normalize("image", {"model": "MiniMax-H3-Image", "prompt": "x", **params})
    except ValidationError as exc:
        return exc.message
    raise AssertionError("the rules took it")


def test_h3_image_rows_replace_image_01s_and_the_estimate_says_why_unknown(gui, make_window):
    window = make_window()
    form = h3_image_draft(window)
    assert "MiniMax-H3-Image" in form.models() and "image-01" in form.models()
    h = form.h3image
    for w in (h.ratio, h.area, h.n, h.references):
        assert w.isVisibleTo(window), w
    assert not h.size.isVisibleTo(window)  # aspect ratio + area until "Exact size"
    for w in (form.aspect, form.seed, form.subject, form.optimizer):
        assert not w.isVisibleTo(window), w  # image-01's fields
    assert [h.area.itemText(i) for i in range(h.area.count())] == list(h3i.AREAS)
    assert (h.n.minimum(), h.n.maximum()) == (h3i.N_MIN, h3i.N_MAX)
    assert window.slot.draft.params == {
        "model": "MiniMax-H3-Image",
        "prompt": "tide eye lighthouse, ink wash",
        "n": 1,
        "aspect_ratio": "1:1",
        "area": "1K",
    }
    # priced by tokens: no figure before the answer, and the form says why
    assert gui.service.estimate("image", form.check_params()).payload.cost.estimate is None
    assert "billed by tokens" in form.cost.text() and "tokens-per-image" in form.cost.text()
    assert buttons(window)[Action.CREATE].isEnabled()

    # an exact size the rules refuse: the rule's own words, Create disabled
    h.by_size.setChecked(True)
    assert h.size.isVisibleTo(window) and not h.ratio.isVisibleTo(window)
    h.size.setText("600x600")
    assert form.error.text() == "Size: " + rule_message(size="600x600")
    assert not buttons(window)[Action.CREATE].isEnabled()
    assert h.size.property("invalid")
    h.size.setText("2048x1152")
    assert not form.error.isVisibleTo(window) and buttons(window)[Action.CREATE].isEnabled()
    assert window.slot.draft.params["size"] == "2048x1152"
    assert "aspect_ratio" not in window.slot.draft.params
    # a ratio outside 1:3–3:1, typed: refused in the rule's words
    h.by_ratio.setChecked(True)
    h.ratio.setCurrentText("4:1")
    assert form.error.text() == "Aspect ratio: " + rule_message(aspect_ratio="4:1")
    h.ratio.setCurrentText("16:9")
    h.n.setValue(4)
    assert buttons(window)[Action.CREATE].isEnabled()
    assert window.slot.draft.params["n"] == 4


def test_references_by_drop_paste_and_add_with_the_limits_of_the_domain(gui, make_window, tmp_path):
    window = make_window()
    form = h3_image_draft(window)
    refs = form.h3image.references
    first = picture(tmp_path / "first.png", 640, 480)
    drop(refs, urls(first))
    gui.until(lambda: len(refs.items) == 1, what="the dropped reference")
    assert "1 of 16 pictures" in refs.limits.text()
    assert window.slot.draft.params["reference_image"] == [str(first)]
    second = picture(tmp_path / "second.jpg", 512, 512, "#204060")
    copy(second)
    refs.paste()
    gui.until(lambda: len(refs.items) == 2, what="the pasted reference")
    QGuiApplication.clipboard().clear()
    # Add…: the window's file dialog (answered here with the file a designer picks)
    third = picture(tmp_path / "third.png", 300, 300, "#a04040")
    window.choose_media = lambda done: done(str(third))
    refs.add.click()
    gui.until(lambda: len(refs.items) == 3, what="the chosen reference")
    # too small a side, too long a side: refused on arrival in the domain's words
    tiny = picture(tmp_path / "tiny.png", 100, 300)
    drop(refs, urls(tiny))
    message = window.slot_pane.actions.message
    gui.until(lambda: "128–8192 px" in message.text(), what="the side limit")
    assert message.text().startswith("Not added — ")
    thin = picture(tmp_path / "thin.png", 1000, 200)
    drop(refs, urls(thin))
    gui.until(lambda: "4 × the short side" in message.text(), what="the aspect limit")
    assert len(refs.items) == 3
    # several at once keep the order given (an edit's prompt may name "image 1", "image 2");
    # dropped on the form itself, they go to the references
    refs.set_items([])
    big = picture(tmp_path / "big.png", 4000, 3000, "#305070")
    form.take_dropped([str(big), str(third), str(first)])
    gui.until(lambda: len(refs.items) == 3, what="three at once")
    assert [m.name for m in refs.items] == ["big.png", "third.png", "first.png"]
    # the 17th: refused by the count rule, nothing added
    refs.set_items(refs.items * 5 + refs.items[:1])  # 16
    assert "16 of 16 pictures" in refs.limits.text()
    drop(refs, urls(first))
    gui.until(lambda: "an edit takes 1 to 16" in message.text(), what="the count limit")
    assert len(refs.items) == 16


def test_an_h3_image_edit_through_the_form_ends_in_success(gui, make_window, tmp_path):
    window = make_window()
    form = h3_image_draft(window, prompt="the same lighthouse, at night")
    source = picture(tmp_path / "day.png", 768, 512, "#6080a0")
    drop(form.h3image.references, urls(source))
    gui.until(lambda: len(form.h3image.references.items) == 1, what="the reference")
    buttons(window)[Action.CREATE].click()
    gui.until(
        lambda: shown(window, RID) and window.slot.task.state is State.SUCCESS,
        timeout=60,
        what="the edit's success",
    )
    task = window.slot.task
    assert task.params["model"] == "MiniMax-H3-Image" and len(task.params["reference_image"]) == 1
    assert task.media and task.media[0].content_type.startswith("image/")
    assert gui.sim.stats()["requests_by_endpoint"].get("images_edits", 0) == 1


IMAGE = "article:20261202:tide-eye:still-01"
EDIT = "article:20261202:tide-eye:still-02"


def _action(actions, text):
    found = {a.text(): a for a in actions}
    assert text in found, list(found)
    return found[text]


def _edited_to_success(gui, window, rid, prompt):
    form = window.slot_pane.form
    refs = form.h3image.references
    gui.until(lambda: len(refs.items) == 1, timeout=30, what="the result as the reference")
    assert form.kind() == "image" and form.model_id() == "MiniMax-H3-Image"
    assert refs.isVisibleTo(window)
    window.slot_pane.composer.set_request_id(rid)
    form.prompt.setPlainText(prompt)
    create = buttons(window)[Action.CREATE]
    gui.until(create.isEnabled, timeout=20, what=f"Create enabled ({form.error.text()!r})")
    create.click()
    gui.until(
        lambda: shown(window, rid) and window.slot.task.state is State.SUCCESS,
        timeout=60,
        what="the edit's success",
    )
    return window.slot.task


def test_an_h3_image_edit_from_a_gallery_result_ends_in_success(gui, make_window):
    """Edit-from-result on a gallery tile: an H3-Image draft with the result as its reference
    (its own slot named), created to success."""
    first = gui.run(
        gui.other_service().submit(IMAGE, "image", {"prompt": "a lighthouse"}, wait=True)
    )
    assert first.task.state is State.SUCCESS
    window = make_window()
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(lambda: model.started and not model.loading and model.rowCount() > 0, what="gallery")
    _action(
        window.gallery.menu_for(model.index(0)).actions(), "Edit this image (MiniMax-H3-Image)"
    ).trigger()
    task = _edited_to_success(gui, window, EDIT, "the same lighthouse, in snow")
    [ref] = task.params["reference_image"]
    assert ref["sha256"] == first.task.media[0].sha256  # the gallery's result, by its content
    assert gui.sim.stats()["requests_by_endpoint"].get("images_edits", 0) == 1


def test_edit_this_image_and_use_as_reference_from_the_slot_pane(gui, make_window):
    """The finished slot's "Use in a new slot" menu: "Edit this image" starts an H3-Image draft;
    "Use as reference" into an H3-Image draft goes to its reference list."""
    gui.run(gui.other_service().submit(IMAGE, "image", {"prompt": "a lighthouse"}, wait=True))
    window = make_window()
    window.select(IMAGE)
    gui.until(lambda: shown(window, IMAGE) and window.slot.task.media, what="the image result")
    finished = window.slot_pane.finished
    finished._fill_use_menu()
    _action(finished.use_menu.actions(), "Edit this image (MiniMax-H3-Image)").trigger()
    task = _edited_to_success(gui, window, EDIT, "the lighthouse, watercolour")
    assert len(task.params["reference_image"]) == 1
    # "Use as reference" with H3-Image chosen as the default image model
    settings = window.settings
    settings.save_draft_defaults(
        settings.draft_defaults().__class__(kind="image", model="MiniMax-H3-Image")
    )
    window.select(IMAGE)
    gui.until(lambda: shown(window, IMAGE), what="the image result again")
    finished._fill_use_menu()
    _action(finished.use_menu.actions(), "Use as reference of a new slot").trigger()
    refs = window.slot_pane.form.h3image.references
    gui.until(lambda: len(refs.items) == 1, timeout=30, what="the reference in")
    assert "still-01" in refs.items[0].name
