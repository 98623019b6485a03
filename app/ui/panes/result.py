"""The right pane: verified media first (video plays in place, images as thumbnails), the file's
path and SHA-256, then the slot's history with each raw provider response expandable.

Bound to :class:`~app.ui.current.CurrentSlot`: it shows the record and history on screen, and
keeps them while the next slot loads. Images and posters are decoded by the controller's worker.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.domain.states import State
from app.service.results import HistoryEvent
from app.service.views import MediaView, TaskView
from app.present import words
from app.ui.current import CurrentSlot
from app.ui.style import current, state_word
from app.ui.widgets import add_list_item, fit_icons, icon_of_row
from app.ui.media import VideoView, load_thumbnail, load_video_poster
from app.ui.sound_view import SoundView, show_sound
from app.ui.qt import (
    QByteArray,
    QDesktopServices,
    QEvent,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSize,
    QSplitter,
    QStackedWidget,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTextLayout,
    QTextOption,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QUrl,
    QVBoxLayout,
    QWidget,
    Qt,
    Signal,
    translate,
)

_NOTHING: Any = object()  # nothing drawn yet
LARGE = 480  # images are decoded this large at most (shown as large as the pane allows)

EVENT_WORDS, QUIET_DETAILS = words.EVENT_WORDS, words.QUIET_DETAILS  # (one mapping: words)


class WrappingDelegate(QStyledItemDelegate):
    """Rows as tall as their text wrapped at the view's width: an event is read whole, not cut
    off with "…" (QTreeView measures rows without knowing the column width)."""

    def __init__(self, view: QTreeWidget) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: Any) -> QSize:  # noqa: N802 - Qt override
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        depth = 0
        parent = index.parent()
        while parent.isValid():
            depth += 1
            parent = parent.parent()
        levels = depth + (1 if self.view.rootIsDecorated() else 0)
        view = self.view
        margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
        width = max(80, view.columnWidth(0) - view.indentation() * levels - 2 * margin - 1)
        # Lay the text out as the style will paint it (QTextLayout, word wrap): line heights then
        # include fallback fonts (CJK glyphs are taller than the UI font's own metrics say).
        layout = QTextLayout(opt.text, opt.font)
        text_option = QTextOption()
        text_option.setWrapMode(QTextOption.WrapMode.WordWrap)
        layout.setTextOption(text_option)
        height = 0
        layout.beginLayout()
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            height += math.ceil(line.height())
        layout.endLayout()
        return QSize(width, height + 6 + 4)  # the stylesheet's item padding (3 px × 2), and air


class EventTree(QTreeWidget):
    """The history timeline: rows re-measured when the panel's width changes."""

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.scheduleDelayedItemsLayout()


class ResultPane(QWidget):
    """Media, file facts and the timeline of the slot on screen."""

    openFolder = Signal(str)
    slotWanted = Signal(str)  # a slot the history links to (one derived from this slot)

    def __init__(self, controller: Any, slot: CurrentSlot, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyPanel")
        self.setAccessibleName(self.tr("Result and history"))
        self.controller = controller
        self.slot = slot
        self._media: list[MediaView] = []
        self._token = 0
        self._drawn_task: Any = _NOTHING
        self._drawn_events: Any = _NOTHING
        self._folded: list[int] | None = None  # the split before the media area was folded
        self._large_elsewhere = False  # the slot pane shows the results (and opens them)

        self.media_title = QLabel(self.tr("RESULT"), objectName="paneTitle")
        self.media_stack = QStackedWidget()
        self.empty_media = QLabel(
            self.tr("No verified media yet."),
            objectName="hint",
            alignment=Qt.AlignmentFlag.AlignCenter,
        )
        self.empty_media.setWordWrap(True)
        self.thumbs = QListWidget(objectName="thumbnailList")
        self.thumbs.setViewMode(QListWidget.ViewMode.IconMode)
        self.thumbs.setIconSize(QSize(160, 160))
        self.thumbs.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.thumbs.setMovement(QListWidget.Movement.Static)
        self.thumbs.setSpacing(6)
        self.thumbs.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.thumbs.setWordWrap(True)
        self.thumbs.installEventFilter(self)
        self.thumbs.viewport().installEventFilter(self)  # its size is what counts
        self.thumbs.setAccessibleName(self.tr("Images"))
        self.video = VideoView()
        self.sound = SoundView()  # a song or a voice line
        for w in (self.empty_media, self.thumbs, self.video, self.sound):
            self.media_stack.addWidget(w)
        self.summary = QLabel(objectName="mediaSummary")
        self.summary.setWordWrap(True)
        self.details_button = QToolButton(objectName="detailsButton", text=self.tr("Details"))
        self.details_button.setCheckable(True)
        self.details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.setAutoRaise(True)
        self.details_button.setAccessibleName(self.tr("Show the files' details"))
        self.details_button.toggled.connect(self._toggle_details)
        self.file_info = QLabel(objectName="fileInfo")  # paths and SHA-256: behind "Details"
        self.file_info.setVisible(False)
        self.file_info.setWordWrap(True)
        self.file_info.setTextFormat(Qt.TextFormat.RichText)
        self.file_info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton(self.tr("Open"), objectName="openButton")
        self.folder_button = QPushButton(self.tr("Show in folder"), objectName="folderButton")
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.folder_button)
        buttons.addStretch(1)

        self.history_title = QLabel(self.tr("HISTORY"), objectName="paneTitle")
        self.events = EventTree(objectName="historyTree")
        self.events.itemActivated.connect(self._event_activated)
        self.events.setHeaderHidden(True)
        self.events.setColumnCount(1)
        self.events.setWordWrap(True)
        self.events.setUniformRowHeights(False)
        self.events.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.events.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.events.setItemDelegate(WrappingDelegate(self.events))
        self.events.setAccessibleName(self.tr("History"))

        top = QWidget()
        tbox = QVBoxLayout(top)
        tbox.setContentsMargins(0, 0, 0, 0)
        tbox.addWidget(self.media_title)
        tbox.addWidget(self.media_stack, 1)
        tbox.addWidget(self.summary)
        tbox.addWidget(self.details_button)
        tbox.addWidget(self.file_info)
        tbox.addLayout(buttons)
        bottom = QWidget()
        bbox = QVBoxLayout(bottom)
        bbox.setContentsMargins(0, 0, 0, 0)
        bbox.addWidget(self.history_title)
        bbox.addWidget(self.events, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical, objectName="historySplitter")
        self.splitter.addWidget(top)
        self.splitter.addWidget(bottom)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.splitter)

        self.open_button.clicked.connect(self._open_file)
        self.folder_button.clicked.connect(self._open_folder)
        self.thumbs.itemActivated.connect(
            lambda item: self._open_path(item.data(Qt.ItemDataRole.UserRole))
        )
        for changed in (
            slot.task_changed,
            slot.events_changed,
            slot.loading_changed,
            slot.source_changed,
        ):
            changed.connect(lambda _value: self.redraw())
        self.redraw()

    # -- content ----------------------------------------------------------------------------
    def redraw(self) -> None:
        """Show the slot's record and history, each only when it changed (kept while loading)."""
        slot = self.slot
        if slot.loading:
            return
        # A draft started from a slot keeps that slot's result beside the form.
        shown = slot.task if slot.task is not None else slot.source
        self.media_title.setText(
            self.tr("RESULT") if slot.task is not None or shown is None else self.tr("SOURCE")
        )
        # A finished slot's results are shown large in the slot pane: here only the source of a
        # draft (beside its form) and the facts, Details and history.
        large_elsewhere = slot.task is not None and slot.task.state == State.SUCCESS
        self._show_media_here(not large_elsewhere)
        self._large_elsewhere = large_elsewhere  # Open and Show in folder are there too
        if shown is not self._drawn_task:
            self._drawn_task = shown
            self.show_media(shown)  # type: ignore[arg-type]
        self._show_buttons()
        if slot.events is not self._drawn_events:
            self._drawn_events = slot.events
            self.show_events(slot.events)

    def show_media(self, task: TaskView | None) -> None:
        media = list(task.media) if task is not None and task.state is State.SUCCESS else []
        same = [m.sha256 for m in media] == [m.sha256 for m in self._media]
        self._media = media
        self._show_buttons()
        self.details_button.setVisible(bool(media))
        self.summary.setVisible(bool(media))
        self.file_info.setVisible(bool(media) and self.details_button.isChecked())
        if not media:
            self._token += 1
            self.video.set_video(None)
            self.sound.set_sound(None)
            self.thumbs.clear()
            self.media_stack.setCurrentWidget(self.empty_media)
            self.file_info.setText("")
            if task is None:
                self.empty_media.setText(self.tr("Pick a slot on the left, or start a new one."))
            elif task.state is State.FAIL:
                self.empty_media.setText(self.tr("No verified media: this slot failed."))
            else:
                self.empty_media.setText(
                    self.tr("Media appear here once they are downloaded and verified.")
                )
            return
        self.summary.setText(self._summarize(media))
        self.file_info.setText("<br>".join(self._describe(m) for m in media))
        self.file_info.setToolTip("\n\n".join(f"{m.path}\nSHA-256 {m.sha256}" for m in media))
        if same:
            return
        self._token += 1
        token = self._token
        self.sound.set_sound(None)
        if media[0].content_type.startswith("audio/"):
            self.video.set_video(None)
            show_sound(self.sound, media[0], self.controller, lambda: token == self._token)
            self.media_stack.setCurrentWidget(self.sound)
            return
        if media[0].content_type.startswith("video/"):
            self.media_stack.setCurrentWidget(self.video)
            self.video.set_video(media[0].path)
            path = media[0].path
            self.controller.call(
                load_video_poster,
                path,
                done=lambda img: token == self._token and self.video.set_poster(img),
            )
            return
        self.video.set_video(None)
        self.media_stack.setCurrentWidget(self.thumbs)
        self.thumbs.clear()
        for i, m in enumerate(media, 1):
            item = add_list_item(self.thumbs, str(i))
            item.setData(Qt.ItemDataRole.UserRole, m.path)
            item.setToolTip(f"{m.width}×{m.height}" if m.width else "")
            show = icon_of_row(self.thumbs, i - 1, lambda: token == self._token)
            self.controller.call(load_thumbnail, m.path, LARGE, done=show)
        self._fit_thumbs()

    def _show_buttons(self) -> None:
        """Open and Show in folder exist only where there is a file to open (hidden, not greyed
        out), and once: a stored slot's results offer them in the slot pane, beside them."""
        on = bool(self._media) and not self._large_elsewhere
        self.open_button.setVisible(on)
        self.folder_button.setVisible(on)

    def _show_media_here(self, on: bool) -> None:
        """Show the media area, or fold it away (the slot pane shows the results large): the
        history then takes the room, and the designer's own split comes back after."""
        if on == (self._folded is None):  # already so
            return
        self.media_title.setVisible(on)
        self.media_stack.setVisible(on)
        if not on:
            self._folded = self.splitter.sizes()
            total = sum(self._folded)
            top = self.splitter.widget(0).minimumSizeHint().height()
            self.splitter.setSizes([top, max(1, total - top)])
        elif self._folded is not None:
            sizes, self._folded = self._folded, None
            self.splitter.setSizes(sizes)

    def _aspect(self) -> float:
        m = self._media[0] if self._media else None
        return (m.height / m.width) if m is not None and m.width and m.height else 1.0

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        if obj in (self.thumbs, self.thumbs.viewport()) and event.type() in (
            QEvent.Type.Resize,
            QEvent.Type.Show,
        ):
            self._fit_thumbs()
        return super().eventFilter(obj, event)

    def _fit_thumbs(self) -> None:
        fit_icons(self.thumbs, LARGE, self._aspect())

    def _toggle_details(self, on: bool) -> None:
        self.details_button.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.file_info.setVisible(on and bool(self._media))

    def _summarize(self, media: list[MediaView]) -> str:
        """One line a designer reads: how many, how large, how long (no paths, no hashes)."""
        first = media[0]
        total = sum(m.bytes for m in media)
        size = f"{total / 1024 / 1024:.1f} MB" if total >= 1024 * 1024 else f"{total / 1024:.0f} KB"
        dims = f"{first.width}×{first.height}" if first.width and first.height else ""
        if first.content_type.startswith("video/"):
            what = self.tr("Video")
            dur = self.tr("%1 s").replace("%1", f"{first.duration:g}") if first.duration else ""
            return " · ".join(p for p in (what, dims, dur, size) if p)
        if first.content_type.startswith("audio/"):
            what = self.tr("Sound")
            dur = self.tr("%1 s").replace("%1", f"{first.duration:.1f}") if first.duration else ""
            return " · ".join(p for p in (what, dur, size) if p)
        n = len(media)
        what = self.tr("1 image") if n == 1 else self.tr("%1 images").replace("%1", str(n))
        return " · ".join(p for p in (what, dims, size) if p)

    def _describe(self, m: MediaView) -> str:
        from html import escape

        dims = f"{m.width}×{m.height}" if m.width and m.height else ""
        size = (
            f"{m.bytes / 1024 / 1024:.1f} MB"
            if m.bytes >= 1024 * 1024
            else f"{m.bytes / 1024:.0f} KB"
        )
        dur = f" · {m.duration:g} s" if m.duration else ""
        path = m.path if len(m.path) <= 64 else m.path[:28] + "…" + m.path[-34:]
        return (
            f"<b>{escape(m.content_type)}</b> · {dims}{dur} · {size}<br>"
            f"<span style='color:{current().muted}'>{escape(path)}</span><br>"
            f"<span style='font-family:monospace; font-size:9pt; color:{current().muted}'>SHA-256 "
            f"{m.sha256[:32]}<br>{'&nbsp;' * 8}{m.sha256[32:]}</span>"
        )

    def show_events(self, events: Sequence[HistoryEvent]) -> None:
        self.events.clear()
        task = self.slot.task
        no_record = task is not None and words.nothing_to_look_up(task)
        if not events:
            self.events.addTopLevelItem(
                QTreeWidgetItem([self.tr("Nothing has happened in this slot yet.")])
            )
            return
        for e in events:
            when = dt.datetime.fromtimestamp(e.at).strftime("%H:%M:%S")
            line, technical = words.event_line(
                e.event,
                e.detail,
                state_word,
                translate,
                e.data,
                no_record=no_record,
                state=e.state,
            )
            linked = (e.data or {}).get("request_id") if e.event == "derived" else None
            if isinstance(linked, str) and linked:  # the derived slot, opened from here
                line = (
                    self.tr("%1: %2 (double-click to open)")
                    .replace("%1", line)
                    .replace("%2", linked.rsplit(":", 1)[-1])
                )
            item = QTreeWidgetItem([f"{when}  {line}"])
            if isinstance(linked, str) and linked:
                item.setData(0, Qt.ItemDataRole.UserRole, linked)
                item.setForeground(0, Qt.GlobalColor.darkBlue)
            item.setToolTip(0, dt.datetime.fromtimestamp(e.at).isoformat(timespec="seconds"))
            data = e.data
            if technical:  # the original words, expandable like the raw response
                data = {"detail": technical, **(data or {})}
            if data:
                text = json.dumps(data, indent=2, ensure_ascii=False, default=str)[:4000]
                raw = QTreeWidgetItem([text])
                raw.setForeground(0, Qt.GlobalColor.darkGray)
                font = raw.font(0)
                font.setFamily("monospace")
                font.setPointSizeF(max(font.pointSizeF() - 1, 7))
                raw.setFont(0, font)
                item.addChild(raw)
            self.events.addTopLevelItem(item)
        self.events.scrollToBottom()

    def _event_activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        linked = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(linked, str) and linked:
            self.slotWanted.emit(linked)

    def stop(self) -> None:
        """Stop playing (the window closes)."""
        self.video.stop()
        self.sound.stop()

    # -- layout -----------------------------------------------------------------------------
    def save_layout(self) -> QByteArray:
        if self._folded is not None:  # keep the designer's split, not the folded one
            folded = self.splitter.sizes()
            self.splitter.setSizes(self._folded)
            state = self.splitter.saveState()
            self.splitter.setSizes(folded)
            return state
        return self.splitter.saveState()

    def restore_layout(self, state: QByteArray) -> None:
        self.splitter.restoreState(state)

    # -- buttons ------------------------------------------------------------------------------
    def _open_path(self, path: str | None) -> None:
        if path:
            QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def _open_file(self) -> None:
        if self._media:
            self._open_path(self._media[0].path)

    def _open_folder(self) -> None:
        if self._media:
            folder = str(Path(self._media[0].path).parent)
            self.openFolder.emit(folder)
            QDesktopServices.openUrl(QUrl.fromLocalFile(folder))
