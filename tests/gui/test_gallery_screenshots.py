"""Screenshots of the gallery, the viewer and compare in English and Chinese, at the window's
minimum size and at a large size, saved to tests/screenshots/ for review; no text is cut off."""

from __future__ import annotations

import pytest

from app.ui.app import install_translations
from tests.gui.bulk import insert_slot
from tests.gui.conftest import SCREENSHOTS
from tests.gui.layout_checks import clipped

SIZES = {"min": (1000, 640), "large": (1600, 1000)}

pytestmark = pytest.mark.qt_log_ignore(
    r".*No RHI backend\. Using CPU conversion\.",
    r"PulseAudioService: pa_context_connect\(\) failed",
)


def save(widget, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert widget.grab().save(str(SCREENSHOTS / f"{name}.png"))
    assert clipped(widget) == [], name


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")


def test_gallery_viewer_and_compare(gui, make_window, lang):
    other = gui.other_service()
    gui.run(
        other.submit(
            "article:20260816:tide-eye:scene-01",
            "video",
            {"prompt": "tide eye, slow dolly in, dusk light on wet sand", "resolution": "768P"},
            wait=True,
        )
    )
    gui.run(
        other.submit(
            "article:20260816:tide-eye:still-01",
            "image",
            {"prompt": "a lighthouse at dawn, film grain", "n": 3, "aspect_ratio": "16:9"},
            wait=True,
        )
    )
    gui.run(
        other.submit(
            "article:20260816:tide-eye:still-02",
            "image",
            {"prompt": "harbor cranes in fog, long lens", "n": 2, "aspect_ratio": "1:1"},
            wait=True,
        )
    )
    insert_slot(other, "article:20260816:tide-eye:scene-03", "processing")
    insert_slot(other, "article:20260816:tide-eye:scene-04", "unknown")
    window = make_window()
    model = window.gallery_model
    for size, (w, h) in SIZES.items():
        window.resize(w, h)
        window.show_gallery(True)
        gui.until(
            lambda: model.started and not model.loading and model.rowCount() == 8,
            what="eight tiles",
        )
        gui.until(
            lambda: window.gallery.visible_rows() and window.gallery.pictures_shown(),
            what="the pictures on screen",
        )
        window.gallery.view.setCurrentIndex(model.index(1))
        gui.drained(window)
        save(window, f"{lang}-gallery-{size}")

        still = next(
            i for i in range(model.rowCount()) if model.row_at(i).request_id.endswith("still-02")
        )
        viewer = window.open_viewer(still)
        viewer.resize(w, h)
        gui.until(lambda v=viewer: v.stage.canvas.full_size, what="full image")
        viewer.details_button.setChecked(True)
        gui.drained(viewer)  # the details pane laid out
        save(viewer, f"{lang}-viewer-{size}")
        viewer.close()

        compare = window.open_compare(still, still + 1)
        compare.resize(w, h)
        gui.until(
            lambda c=compare: c.a.stage.canvas.full_size and c.b.stage.canvas.full_size,
            what="both images",
        )
        gui.drained(compare)
        save(compare, f"{lang}-compare-{size}")
        compare.close()

        clip = next(
            i
            for i in range(model.rowCount())
            if model.row_at(i).kind == "video" and model.row_at(i).path
        )
        viewer = window.open_viewer(clip)
        viewer.resize(w, h)
        gui.until(
            lambda v=viewer: (
                v.stage.video.poster.pixmap() is not None
                and not v.stage.video.poster.pixmap().isNull()
            ),
            what="the first frame",
        )
        gui.drained(viewer)
        save(viewer, f"{lang}-viewer-video-{size}")
        viewer.close()
