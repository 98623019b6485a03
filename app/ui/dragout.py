"""Results dragged out of the app (to a file manager, an editor, a browser) as files.

A drag carries file URLs (``text/uri-list``) of the results under the names export gives them
(:func:`app.domain.naming.export_name`: ``article_20260816_tide-eye_scene-02-2.png``), never the
stored file's hash-made name: each file is staged once under the system's temporary folder
(a hard link where the file system allows, else a copy), in a folder of its own SHA-256, so a
second drag of the same result reuses it and two results never share a name.

:class:`DragOut` is an event filter: installed on a widget (a list's viewport, a handle), it
starts the drag when the left button moves past the platform's drag distance, with the files
its ``source(pos)`` names. ``DragOut.run`` executes the drag (tests replace it: ``QDrag.exec``
waits for a drop no offscreen test can make).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from app.domain.naming import export_name
from app.ui.qt import QApplication, QDrag, QEvent, QMimeData, QObject, QPoint, Qt, QUrl

#: Where dragged files are staged (the system's temporary folder: the OS clears it).
STAGE = Path(tempfile.gettempdir()) / "slate-drag"


@dataclass(frozen=True)
class OutFile:
    """One result to drag out: where it is, its SHA-256, and its readable name."""

    path: str
    sha256: str
    name: str


def out_files(request_id: str, media: Sequence[Any]) -> list[OutFile]:
    """A slot's results (``MediaView``\\ s or gallery rows with ``path`` and ``sha256``), named
    as export names them: by their place among the slot's results."""
    here = [m for m in media if getattr(m, "path", None) and getattr(m, "sha256", None)]
    return [
        OutFile(
            str(m.path), str(m.sha256), export_name(request_id, i, len(here), Path(m.path).suffix)
        )
        for i, m in enumerate(here, 1)
    ]


def gallery_files(model: Any, row: int) -> list[OutFile]:
    """The result on gallery row ``row``, named by its place among its slot's results (a slot's
    results are neighbours in the gallery: it pages by slot)."""
    current = model.row_at(row)
    if current is None or current.path is None:
        return []
    first = row
    while first > 0 and (r := model.row_at(first - 1)) is not None and r.task_id == current.task_id:
        first -= 1
    siblings = []
    i = first
    while (r := model.row_at(i)) is not None and r.task_id == current.task_id:
        siblings.append(r)
        i += 1
    named = out_files(current.request_id, siblings)
    return [f for f in named if f.sha256 == current.sha256 and f.path == current.path]


def staged(files: Sequence[OutFile], root: Path | None = None) -> list[Path]:
    """Each file under its readable name (``root/<sha256 prefix>/<name>``); missing files are
    left out (media deleted by tidy-up have nothing to drag)."""
    out = []
    for f in files:
        src = Path(f.path)
        if not src.is_file():
            continue
        target = (root or STAGE) / f.sha256[:24] / f.name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(src, target)
            except OSError:
                shutil.copyfile(src, target)
        out.append(target)
    return out


def mime_data(files: Sequence[OutFile], root: Path | None = None) -> QMimeData | None:
    """File URLs of the staged results, or None when none of them is on this computer."""
    paths = staged(files, root)
    if not paths:
        return None
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return data


class DragOut(QObject):
    """Starts a drag of ``source(pos)``'s files from ``widget`` (see the module's words)."""

    #: Executes the drag; tests replace it to see what would be dropped.
    run: Callable[[QDrag], Any] = staticmethod(lambda drag: drag.exec(Qt.DropAction.CopyAction))

    def __init__(self, widget: Any, source: Callable[[QPoint], Sequence[OutFile]]) -> None:
        super().__init__(widget)
        self.widget = widget
        self.source = source
        self._press: QPoint | None = None
        widget.installEventFilter(self)

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position().toPoint()
        elif kind == QEvent.Type.MouseButtonRelease:
            self._press = None
        elif (
            kind == QEvent.Type.MouseMove
            and self._press is not None
            and event.buttons() & Qt.MouseButton.LeftButton
            and (event.position().toPoint() - self._press).manhattanLength()
            >= QApplication.startDragDistance()
        ):
            pos, self._press = self._press, None
            return self.start(pos)
        return False

    def start(self, pos: QPoint) -> bool:
        files = self.source(pos)
        data = mime_data(files) if files else None
        if data is None:
            return False
        drag = QDrag(self.widget)
        drag.setMimeData(data)
        DragOut.run(drag)
        return True
