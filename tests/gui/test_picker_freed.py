"""A frame picker fed with a result (``set_file``: "Use as first frame" from a result, the
gallery or the viewer) is freed with its form.

``set_file`` asked whether a form listens to ``fed`` through
``isSignalConnected(QMetaMethod.fromSignal(self.fed))``; PySide's ``fromSignal`` keeps a
reference to the picker it is given, so every fed picker (its widgets, its thumbnail, its
picture's data URL) outlived its window: in a test worker they piled up test after test."""

from __future__ import annotations

import gc
import weakref

from app.ui.inputs import FramePicker
from app.ui.qt import QApplication, QEvent, QWidget

PNG = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQ"
    "DwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def _fed_and_closed(listened: bool) -> weakref.ref:
    """A picker in a window, fed a picture (with a form listening or not), the window deleted;
    only a weak reference to the picker is returned."""
    window = QWidget()
    picker = FramePicker("First frame", window)
    fed: list[tuple[str, str]] = []
    if listened:
        picker.fed.connect(lambda name, url: fed.append((name, url)))
    picker.set_file("scene-01", PNG)
    if listened:
        assert fed == [("scene-01", PNG)]  # a form listens: it checks the picture
    else:
        assert picker.value() == PNG  # no form: taken as it is
    gone = weakref.ref(picker)
    window.deleteLater()
    return gone


def test_a_fed_picker_is_freed_with_its_window(qapp):
    for listened in (True, False):
        gone = _fed_and_closed(listened)
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()
        assert gone() is None, f"a picker fed {'through' if listened else 'without'} a form"
