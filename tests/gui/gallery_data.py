"""Results for the gallery tests: successful image slots with real PNG files and media rows,
written straight to the store (as the service leaves them after a verified download)."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from PIL import Image
from sqlalchemy import insert

from app.domain.days import day_bounds, local_day
from app.service.slate import SlateService
from app.store.models import media_t
from app.ui.qt import QEvent, QObject, QtGui
from tests.gui.bulk import insert_slot


def png(path: Path, seed: int, size: tuple[int, int] = (96, 54)) -> tuple[str, int]:
    """A small real PNG whose content depends on ``seed``; returns (sha256, bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    img = Image.new("RGB", size, ((seed * 37) % 256, (seed * 91) % 256, (seed * 13 + 80) % 256))
    for x in range(0, size[0], 8):
        img.putpixel((x, (seed + x) % size[1]), (255, 255, 255))
    img.save(path, "PNG")
    data = path.read_bytes()
    return hashlib.sha256(data).hexdigest(), len(data)


def add_media(
    service: SlateService,
    task_id: int,
    path: Path,
    position: int = 0,
    content_type: str = "image/png",
    size: tuple[int, int] = (96, 54),
    duration: float | None = None,
) -> None:
    data = path.read_bytes()
    with service.store.engine.begin() as conn:
        conn.execute(
            insert(media_t).values(
                task_id=task_id,
                position=position,
                path=str(path),
                sha256=hashlib.sha256(data).hexdigest(),
                bytes=len(data),
                content_type=content_type,
                width=size[0],
                height=size[1],
                duration=duration,
                verified_at=time.time(),
            )
        )


def add_image_results(
    service: SlateService,
    folder: Path,
    n: int,
    *,
    project: str = "harbor",
    day: str = "20260816",
    per_slot: int = 1,
    start: int = 0,
    created_at: float | None = None,
    size: tuple[int, int] = (96, 54),
) -> list[str]:
    """``n`` successful image slots of ``project`` with ``per_slot`` real PNGs each; returns
    their RequestIds, oldest first."""
    rids = []
    # an hour ago, but never before today's local midnight: "today" holds them at any hour
    # (CI at 00:24 UTC once found the day filter empty)
    base = max(time.time() - 3600, day_bounds(local_day())[0]) if created_at is None else created_at
    for i in range(start, start + n):
        rid = f"article:{day}:{project}:still-{i:04d}"
        task_id = insert_slot(
            service,
            rid,
            "success",
            kind="image",
            created_at=base + i,
            results={"image_urls": ["https://demo.invalid/x.png"]},
        )
        for p in range(per_slot):
            path = folder / "media" / project / f"{i:04d}-{p}.png"
            png(path, i * 10 + p, size)
            add_media(service, task_id, path, position=p, size=size)
        rids.append(rid)
    return rids


class PaintRegions(QObject):
    """An event filter that keeps the region of every paint event its widget gets."""

    def __init__(self) -> None:
        super().__init__()
        self.regions: list[QtGui.QRegion] = []

    def eventFilter(self, obj, event):  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Paint:
            self.regions.append(QtGui.QRegion(event.region()))
        return False


def gallery_shown(gui, make_window, tmp_path: Path, results: int):
    """A window at 1360×820 showing the gallery of ``results`` image results, every row in,
    its first screen's pictures drawn and the window settled."""
    add_image_results(gui.service, tmp_path, results)
    window = make_window()
    window.resize(1360, 820)
    window.show()
    window.show_gallery(True)
    model = window.gallery_model
    gui.until(lambda: model.started and not model.loading and model.rowCount() == results)
    gui.until(lambda: window.gallery.pictures_shown(), what="first screen")
    gui.drained(window)
    return window
