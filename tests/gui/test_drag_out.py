"""Drag out (issue 23): a result dragged out of the slot pane, the gallery or the viewer carries
file URLs of the result under the name export gives it — the same names ``export`` writes, not
the stored file's hash-made name — with the verified bytes."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from app.ui import dragout
from app.ui.dragout import DragOut
from app.ui.qt import QApplication, QEvent, QPoint, QPointF, Qt, QtGui
from tests.gui.conftest import shown

RID = "article:20260816:tide-eye:scene-02"
# The viewer's player: the machine's missing sound server and GPU, not ours (test_flows.py).
pytestmark = pytest.mark.qt_log_ignore(
    r".*No RHI backend\. Using CPU conversion\.",
    r"PulseAudioService: pa_context_connect\(\) failed",
    r"No audio device detected",
)


@pytest.fixture
def drags(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Any]:
    """Drags started, not executed (``QDrag.exec`` would wait for a drop)."""
    seen: list[Any] = []
    monkeypatch.setattr(dragout, "STAGE", tmp_path / "stage")
    monkeypatch.setattr(DragOut, "run", staticmethod(lambda drag: seen.append(drag.mimeData())))
    return seen


def _drag(qtbot: Any, widget: Any, at: QPoint) -> None:
    """Press the left button at ``at`` and move past the drag distance, holding it."""
    qtbot.mousePress(widget, Qt.MouseButton.LeftButton, pos=at)
    to = QPointF(at + QPoint(QApplication.startDragDistance() + 12, 4))
    move = QtGui.QMouseEvent(
        QEvent.Type.MouseMove,
        to,
        QPointF(widget.mapToGlobal(to.toPoint())),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, move)


def _dropped(data: Any) -> list[Path]:
    assert data is not None and data.hasUrls()
    return [Path(u.toLocalFile()) for u in data.urls()]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_results_drag_out_with_the_exports_names(gui, make_window, drags, tmp_path):
    made = gui.run(gui.service.submit(RID, "image", {"prompt": "a lighthouse", "n": 2}))
    assert made.kind.value == "created"
    media = made.task.media
    exported = gui.run(gui.service.export(RID, tmp_path / "export"))
    names = [Path(f.path).name for f in exported.payload.files]
    assert names == ["article_20260816_tide-eye_scene-02-1.png",
                     "article_20260816_tide-eye_scene-02-2.png"]  # fmt: skip

    window = make_window()
    window.select(RID)
    grid = window.slot_pane.finished.images
    gui.until(lambda: shown(window, RID) and grid.count() == 2, what="the results grid")
    gui.until(lambda: grid.visualItemRect(grid.item(1)).width() > 0, what="laid out")
    # The slot pane: the second image, by the name export gives it.
    _drag(gui.qtbot, grid.viewport(), grid.visualItemRect(grid.item(1)).center())
    assert len(drags) == 1
    (path,) = _dropped(drags[-1])
    assert path.name == names[1] and _sha(path) == media[1].sha256
    assert path.name != Path(media[1].path).name  # not the stored file's name

    # The gallery: a tile drags out its result.
    window.show_gallery(True)
    view = window.gallery.view
    gui.until(lambda: window.gallery_model.rowCount() == 2, what="the gallery's tiles")
    first = window.gallery_model.index(0, 0)
    gui.until(lambda: view.visualRect(first).width() > 0, what="tiles laid out")
    row = window.gallery_model.row_at(0)
    _drag(gui.qtbot, view.viewport(), view.visualRect(first).center())
    assert len(drags) == 2
    (path,) = _dropped(drags[-1])
    at = [m.sha256 for m in media].index(row.sha256)
    assert path.name == names[at] and _sha(path) == row.sha256

    # The viewer: its handle drags the result on screen.
    viewer = window.open_viewer(1)
    gui.until(lambda: viewer.isVisible() and viewer.row_index == 1, what="the viewer")
    row = window.gallery_model.row_at(1)
    _drag(gui.qtbot, viewer.drag_handle, viewer.drag_handle.rect().center())
    assert len(drags) == 3
    (path,) = _dropped(drags[-1])
    at = [m.sha256 for m in media].index(row.sha256)
    assert path.name == names[at] and _sha(path) == row.sha256
    viewer.close()

    # Media deleted by tidy-up: nothing to drag, no drag started.
    gui.run(gui.service.prune_media(RID))
    window.show_gallery(False)
    window.select(RID)
    gui.until(lambda: shown(window, RID) and not window.slot.task.media, what="pruned")
    assert dragout.mime_data(dragout.out_files(RID, made.task.media)) is None
