"""The results gallery: the read side's pages, the model (qtmodeltester), paging as the grid
scrolls, a click selects the slot, thumbnails decoded off the UI thread and read back from the
disk cache on the second open, video posters, state badges, empty words, the chaining hook."""

from __future__ import annotations

import threading
import time

import pytest

from app.domain.states import State
from app.service.reads import SlotFilter
from app.ui.controller import Controller
from app.ui.gallery.model import GalleryModel, ResultRole, ThumbRole
from app.ui.gallery.thumbs import ThumbCache, ThumbLoader, ThumbRequest, decode_poster
from app.ui.qt import QImage, Qt
from tests.gui.bulk import insert_slot
from tests.gui.conftest import shown
from tests.gui.gallery_data import add_image_results, png

VIDEO = "article:20260816:tide-eye:scene-02"


def loaded(model):
    return model.started and not model.loading


def test_reader_pages_results_newest_first_with_a_row_for_slots_without_media(gui, tmp_path):
    rids = add_image_results(gui.service, tmp_path, 5, per_slot=2)
    running = "article:20260816:harbor:scene-run"
    insert_slot(gui.service, running, "processing", created_at=time.time())
    reader = gui.service.reader
    first = gui.run(reader.results(SlotFilter(), limit=3))
    assert [r.request_id for r in first] == [running, rids[4], rids[4], rids[3], rids[3]]
    assert first[0].path is None and first[0].state == State.PROCESSING
    assert [r.position for r in first[1:3]] == [0, 1]
    assert first[1].path.endswith(".png") and first[1].content_type == "image/png"
    assert len(first[1].sha256) == 64 and first[1].width == 96
    rest = gui.run(reader.results(SlotFilter(), before_id=min(r.task_id for r in first), limit=3))
    assert [r.request_id for r in rest] == [rids[2]] * 2 + [rids[1]] * 2 + [rids[0]] * 2
    # bound to the filter, the project and the day
    only_running = gui.run(reader.results(SlotFilter(states=(State.PROCESSING,))))
    assert [r.request_id for r in only_running] == [running]
    assert gui.run(reader.results(SlotFilter(), "elsewhere")) == []


def test_qtmodeltester_on_the_gallery_model(gui, tmp_path, qtmodeltester):
    add_image_results(gui.service, tmp_path, 7, per_slot=2)
    controller = Controller(gui.service)
    loader = ThumbLoader(ThumbCache(tmp_path / "cache"))
    model = GalleryModel(controller, loader, page=3)
    model.reload()
    gui.until(lambda: loaded(model), what="first page")
    qtmodeltester.check(model, force_py=True)
    while True:  # (the tester itself may have asked for the next page)
        gui.until(lambda: not model.loading, what="page")
        if not model.canFetchMore():
            break
        model.fetchMore()
    assert model.rowCount() == 14 and model.exhausted
    qtmodeltester.check(model, force_py=True)
    loader.close()
    gui.run(controller.aclose())


def test_gallery_lists_results_pages_as_it_scrolls_and_a_click_selects_the_slot(
    gui, make_window, tmp_path
):
    rids = add_image_results(gui.service, tmp_path, 300)
    window = make_window()
    window.gallery_model.page = 40
    window.resize(1360, 820)
    window.show_gallery(True)
    assert window.gallery_shown() and window.gallery_button.isChecked()
    model, view = window.gallery_model, window.gallery.view
    gui.until(lambda: loaded(model) and model.rowCount() > 0, what="first page")
    assert model.rowCount() == 40
    assert model.row_at(0).request_id == rids[-1]  # newest first
    # the grid shows pictures, decoded by the loader's threads
    gui.until(lambda: model.thumbs_shown() >= 6, what="thumbnails")

    # scrolling to the end asks for more pages (the view's fetchMore)
    def scrolled_to_more() -> bool:
        bar = view.verticalScrollBar()
        bar.setValue(bar.maximum())  # again as each page comes in: the end moved down
        return model.rowCount() >= 120

    gui.until(scrolled_to_more, what="more pages as it scrolls")
    # a click selects the slot; the gallery stays in the middle
    index = model.index(3)
    view.scrollTo(index)
    rect = view.visualRect(index)
    gui.qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    gui.until(lambda: shown(window, rids[-4]), what="slot selected")
    assert window.gallery_shown()
    # the browser's filter applies to the gallery (in SQL)
    window.browser.kind.setCurrentIndex(window.browser.kind.findData("video"))
    gui.until(lambda: loaded(model) and model.rowCount() == 0, what="filtered")
    assert window.gallery.stack.currentWidget() is not view
    assert "No results match" in window.gallery.empty.text()


def test_thumbnails_come_from_the_disk_cache_on_the_second_open(gui, tmp_path, qapp):
    add_image_results(gui.service, tmp_path, 12)
    cache_dir = tmp_path / "thumbs"
    controller = Controller(gui.service)
    decoded_on: set[str] = set()
    real_get = ThumbCache.get

    class Counting(ThumbCache):
        def get(self, req):
            decoded_on.add(threading.current_thread().name)
            return real_get(self, req)

    def open_gallery():
        cache = Counting(cache_dir)
        loader = ThumbLoader(cache)
        model = GalleryModel(controller, loader)
        model.reload()
        gui.until(lambda: loaded(model), what="page")
        for i in range(model.rowCount()):
            model.data(model.index(i), ThumbRole)
        gui.until(lambda: model.thumbs_shown() == 12, what="all thumbnails")
        loader.close()
        return cache

    first = open_gallery()
    assert (first.decodes, first.hits) == (12, 0)
    assert threading.main_thread().name not in decoded_on  # never on the UI thread
    second = open_gallery()
    assert (second.decodes, second.hits) == (0, 12)
    files = list(cache_dir.glob("*/*.png"))
    assert len(files) == 12
    gui.run(controller.aclose())


def test_the_cache_is_content_addressed_and_pruned_to_its_bound(tmp_path):
    cache = ThumbCache(tmp_path / "c", edge=64, max_bytes=10**9)
    reqs = []
    for i in range(6):
        path = tmp_path / f"{i}.png"
        sha, size = png(path, i, (300, 200))
        reqs.append(ThumbRequest(str(path), sha, size, "image"))
    same = tmp_path / "copy.png"
    same.write_bytes((tmp_path / "0.png").read_bytes())
    for r in reqs:
        img = cache.get(r)
        assert max(img.width(), img.height()) == 64
    copy = ThumbRequest(str(same), reqs[0].sha256, reqs[0].bytes, "image")
    cache.get(copy)
    assert cache.decodes == 6 and cache.hits == 1  # same content, same thumbnail
    one = cache.file_for(reqs[0]).stat().st_size
    cache.max_bytes = one * 3
    removed = cache.prune()
    assert removed >= 3 and cache.size_on_disk() <= cache.max_bytes
    # a missing or broken file is not an error, just no picture
    assert cache.get(ThumbRequest(str(tmp_path / "gone.png"), "0" * 64, 1, "image")).isNull()


def test_video_posters_are_the_first_good_frame(gui, tmp_path):
    gui.run(
        gui.other_service().submit(
            VIDEO, "video", {"prompt": "tide eye", "resolution": "768P"}, wait=True
        )
    )
    rows = gui.run(gui.service.reader.results(SlotFilter()))
    assert len(rows) == 1 and rows[0].kind == "video" and rows[0].path.endswith(".mp4")
    poster = decode_poster(rows[0].path, 128)
    assert not poster.isNull() and max(poster.width(), poster.height()) <= 128
    cache = ThumbCache(tmp_path / "c")
    req = ThumbRequest(rows[0].path, rows[0].sha256, rows[0].bytes, "video")
    assert not cache.get(req).isNull() and cache.decodes == 1


def test_tiles_carry_state_badges_and_the_empty_gallery_says_what_to_do(gui, make_window, tmp_path):
    window = make_window()
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(lambda: loaded(model), what="empty page")
    assert window.gallery.stack.currentWidget() is window.gallery.empty
    assert "Nothing here yet" in window.gallery.empty.text()
    for state in ("processing", "fail", "unknown"):
        insert_slot(gui.service, f"article:20260816:harbor:{state}", state)
    model.reload()
    gui.until(lambda: loaded(model) and model.rowCount() == 3)
    states = {model.data(model.index(i), ResultRole).state for i in range(3)}
    assert states == {State.PROCESSING, State.FAIL, State.UNKNOWN}
    # painted: a badge of each state's colour in the tile's corner
    from app.ui.style import badge_color

    gui.drained(window.gallery.view)  # the badges painted
    image = window.gallery.view.viewport().grab().toImage()
    for i in range(3):
        rect = window.gallery.view.visualRect(model.index(i))
        box = rect.adjusted(4, 4, -4, -4)
        state = model.data(model.index(i), ResultRole).state
        corner = [
            image.pixelColor(x, y)
            for x in range(box.right() - 26, box.right() - 4)
            for y in range(box.top() + 6, box.top() + 28)
        ]
        assert any(_near(c, badge_color(state)) for c in corner), state
        middle = [
            image.pixelColor(x, y)
            for x in range(box.left() + 4, box.left() + 30)
            for y in range(box.bottom() - 30, box.bottom() - 4)
        ]
        assert not any(_near(c, badge_color(state)) for c in middle), state


def _near(a, b, tol=60):
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < tol


def test_the_chaining_hook_is_offered_for_image_results(gui, make_window, tmp_path):
    rids = add_image_results(gui.service, tmp_path, 2)
    window = make_window()
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(lambda: loaded(model) and model.rowCount() == 2)
    window.gallery.offer_use = False  # nobody feeds new slots: nothing offered
    menu = window.gallery.menu_for(model.index(0))
    assert "Use as first frame" not in [a.text() for a in menu.actions()]
    got = []
    window.gallery.useResultWanted.disconnect()  # the hook alone (the window's answer: below)
    window.gallery.useResultWanted.connect(lambda role, ref: got.append((role, ref)))
    window.gallery.offer_use = True
    menu = window.gallery.menu_for(model.index(0))
    actions = {a.text(): a for a in menu.actions()}
    actions["Use as first frame"].trigger()
    actions["Use as reference"].trigger()
    assert [g[0] for g in got] == ["first_frame", "reference"]
    ref = got[0][1]
    assert ref.request_id == rids[-1] and ref.kind == "image" and len(ref.sha256) == 64
    assert QImage(ref.path).width() == 96


def test_a_slot_created_in_the_window_appears_in_the_gallery_running_then_done(gui, make_window):
    window = make_window()
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(lambda: loaded(model), what="empty gallery")
    window.controller.submit(VIDEO, "video", {"prompt": "tide eye", "resolution": "768P"})
    assert window.gallery_shown()  # a create started elsewhere leaves the gallery in view

    def tile():
        i = next((i for i in range(model.rowCount()) if model.row_at(i).request_id == VIDEO), None)
        return model.row_at(i) if i is not None else None

    # the new slot shows first, in its state, then with its poster once it is done
    gui.until(lambda: tile() is not None, what="the new slot's tile")

    def done():  # (a reload empties the grid for a moment)
        t = tile()
        return t is not None and t.state == State.SUCCESS and t.path is not None

    gui.until(done, timeout=30, what="the finished video's tile")
    assert model.row_at(0).request_id == VIDEO
    gui.until(lambda: window.gallery.pictures_shown(), what="its poster")
    assert model.thumbnail(tile(), ask=False) is not None


@pytest.mark.qt_log_ignore(r"PulseAudioService: pa_context_connect\(\) failed")  # no sound server
def test_double_click_opens_the_viewer_on_that_result(gui, make_window, tmp_path):
    rids = add_image_results(gui.service, tmp_path, 4)
    window = make_window()
    window.show_gallery(True)
    model, view = window.gallery_model, window.gallery.view
    gui.until(lambda: loaded(model) and model.rowCount() == 4)
    rect = view.visualRect(model.index(2))
    # a real double click: press, release, then the double-click press
    gui.qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    gui.qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    gui.until(lambda: window.viewer is not None and window.viewer.isVisible(), what="viewer")
    assert window.viewer.row_index == 2 and window.viewer.title.text() == rids[1].split(":")[-1]
    window.viewer.close()


def test_a_project_or_day_chosen_in_the_browser_is_what_the_gallery_shows(
    gui, make_window, tmp_path
):
    harbor = add_image_results(gui.service, tmp_path, 3, project="harbor")
    add_image_results(gui.service, tmp_path, 2, project="lighthouse", start=10)
    window = make_window()
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(lambda: loaded(model) and model.rowCount() == 5, what="all results")
    assert window.gallery.scope_label.text() == "All projects"
    assert not window.gallery.all_button.isVisible()
    tree = window.browser.tree
    project = next(
        window.model.index(r, 0)
        for r in range(window.model.rowCount())
        if window.model.index(r, 0).internalPointer().key == "harbor"
    )
    tree.setCurrentIndex(project)
    gui.until(lambda: loaded(model) and model.rowCount() == 3, what="harbor only")
    assert {model.row_at(i).request_id for i in range(3)} == set(harbor)
    assert window.gallery.scope_label.text() == "harbor" and window.gallery.all_button.isVisible()
    tree.expand(project)
    gui.until(lambda: window.model.rowCount(project) == 1, what="the day row")
    tree.setCurrentIndex(window.model.index(0, 0, project))
    gui.until(lambda: loaded(model) and "·" in window.gallery.scope_label.text(), what="day")
    assert model.rowCount() == 3
    window.gallery.all_button.click()
    gui.until(lambda: loaded(model) and model.rowCount() == 5, what="all again")


def test_ctrl_g_switches_between_the_slot_and_the_gallery_which_takes_the_right_pane_too(
    gui, make_window
):
    window = make_window()
    right = window.splitter.widget(2)
    if not window.slot_pane.history_toggle.isChecked():  # the history panel open beside the slot
        window.slot_pane.history_toggle.click()
    assert right.isVisible()
    before = window.splitter.sizes()
    action = window.shortcut_actions["gallery"]
    assert action.shortcut().toString() == "Ctrl+G"
    action.trigger()
    assert window.gallery_shown() and window.gallery_button.isChecked() and right.isHidden()
    assert window.splitter.sizes()[0] == before[0]  # the slot browser keeps its width
    action.trigger()
    assert not window.gallery_shown() and not window.gallery_button.isChecked()
    assert right.isVisible() and window.splitter.sizes() == before
    window.gallery_button.click()
    assert window.gallery_shown()
    window.new_draft()  # a new slot brings the slot page (and the right pane) back
    assert not window.gallery_shown() and right.isVisible()
