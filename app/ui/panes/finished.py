"""A stored slot in the slot pane: its results large first, then its parameters as a compact
read-only summary (the form is for drafts only).

Images are a grid sized to the pane (every image in view, none cut off); a video plays in place
with sound. Each result offers to feed a new slot — "Use as first frame", "Use as last frame",
"Use as reference" for an image, the same with the **last frame** of a video — through
:attr:`FinishedView.useWanted` ``(media, role)``, which the window answers with
``MainWindow.use_result_as``.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from app.domain.states import IN_FLIGHT, State
from app.service.views import MediaView
from app.ui.chain import Role
from app.ui.dragout import DragOut, OutFile, out_files
from app.ui.panes.actions import task_cost_text
from app.ui.media import VideoView, load_thumbnail, load_video_poster
from app.ui.sound_view import SoundView, show_sound, sound_summary
from app.ui.flow import FlowLayout
from app.ui.panes.running import RunningCanvas
from app.ui.picks import PickActions, PickBar, key_of
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QAction,
    QDesktopServices,
    QHBoxLayout,
    QEvent,
    QLabel,
    QListWidget,
    QMenu,
    QPushButton,
    QSize,
    QSizePolicy,
    QStackedWidget,
    Qt,
    QVBoxLayout,
    QWidget,
    QUrl,
    Signal,
    translate,
)
from app.ui.widgets import ElidedLabel, add_list_item, fit_icons, icon_of_row

LARGE = 640  # the largest an image is decoded for the grid

#: The menu's words per role, for an image and for a video (its last frame).
IMAGE_ROLES = (
    (Role.FIRST_FRAME, QT_TRANSLATE_NOOP("FinishedView", "Use as first frame of a new slot")),
    (Role.LAST_FRAME, QT_TRANSLATE_NOOP("FinishedView", "Use as last frame of a new slot")),
    (Role.REFERENCE, QT_TRANSLATE_NOOP("FinishedView", "Use as reference of a new slot")),
    (Role.EDIT, QT_TRANSLATE_NOOP("FinishedView", "Edit this image (MiniMax-H3-Image)")),
)
VIDEO_ROLES = (
    (
        Role.FIRST_FRAME,
        QT_TRANSLATE_NOOP(
            "FinishedView", "Continue: last frame of this video as first frame of a new slot"
        ),
    ),
    (
        Role.REFERENCE,
        QT_TRANSLATE_NOOP("FinishedView", "Last frame of this video as reference of a new slot"),
    ),
)


SOUND_ROLES = (
    (
        Role.AUDIO,
        QT_TRANSLATE_NOOP(
            "FinishedView", "Use as soundtrack / reference audio of a new MiniMax-H3 slot"
        ),
    ),
)


def _tr(text: str) -> str:
    return translate("FinishedView", text)


def _plain(rich: str) -> str:
    """A summary's rich text as one plain line: its head, then its words after " — "."""
    text = re.sub(r"<br\s*/?>", "\n", rich)
    lines = [html.unescape(re.sub(r"<[^>]+>", "", ln)).strip() for ln in text.split("\n")]
    lines = [ln for ln in lines if ln]
    return " — ".join([lines[0], " ".join(lines[1:])]) if len(lines) > 1 else "".join(lines)


class FinishedView(QWidget):
    """Large results and a compact summary of a stored slot's parameters."""

    useWanted = Signal(object, str)  # (MediaView, Role value): feed a new slot with it
    make2kWanted = Signal(object)  # the TaskView to re-render at 2K as a new slot

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("finishedView")
        self.controller = controller
        self._media: list[MediaView] = []
        self._token = 0
        self.images = QListWidget(objectName="resultGrid")
        self.images.setViewMode(QListWidget.ViewMode.IconMode)
        self.images.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.images.setMovement(QListWidget.Movement.Static)
        self.images.setSpacing(6)
        self.images.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.images.setAccessibleName(_tr(QT_TRANSLATE_NOOP("FinishedView", "Results")))
        self.images.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.images.customContextMenuRequested.connect(self._context_menu)
        self.images.installEventFilter(self)
        self.images.viewport().installEventFilter(self)  # its size is what counts
        self.images.setMinimumHeight(220)
        self._rid = ""
        self.video = VideoView()
        # results drag out as files, named as export names them
        self.drag_out = (
            DragOut(self.images.viewport(), self._drag_files),
            DragOut(self.video, self._drag_files),
        )
        self.video.setMinimumHeight(240)
        self.media = QStackedWidget(objectName="resultMedia")
        self.media.addWidget(self.images)
        self.media.addWidget(self.video)
        # a song or a voice line: waveform as large as the pane, play/pause, scrub
        self.sound = SoundView()
        # the waveform is the result: as tall as the room (elsewhere it is a strip of 120 px)
        self.sound.waveform.setMaximumHeight(16777215)
        self.sound.waveform.setSizePolicy(
            QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding
        )
        self.media.addWidget(self.sound)
        self.use_button = QPushButton(
            _tr(QT_TRANSLATE_NOOP("FinishedView", "Use in a new slot")), objectName="useAsButton"
        )
        self.use_button.setAccessibleName(self.use_button.text())
        self.use_menu = QMenu(self.use_button)
        self.use_button.setMenu(self.use_menu)
        self.use_button.setProperty("hasMenu", True)  # its arrow's own room (style.py)
        self.use_menu.aboutToShow.connect(self._fill_use_menu)
        self._task: Any = None
        self.make2k_button = QPushButton(
            _tr(QT_TRANSLATE_NOOP("FinishedView", "Make 2K…")), objectName="make2kButton"
        )
        self.make2k_button.setAccessibleName(_tr(QT_TRANSLATE_NOOP("FinishedView", "Make 2K")))
        self.make2k_button.clicked.connect(lambda: self.make2kWanted.emit(self._task))
        # the result on screen, opened where it lies (the side panel says its files' details)
        self.open_button = QPushButton(
            _tr(QT_TRANSLATE_NOOP("FinishedView", "Open")), objectName="openButton"
        )
        self.open_button.setToolTip(
            _tr(QT_TRANSLATE_NOOP("FinishedView", "Open the result on screen in its own app"))
        )
        self.open_button.clicked.connect(self._open_file)
        self.folder_button = QPushButton(
            _tr(QT_TRANSLATE_NOOP("FinishedView", "Show in folder")), objectName="folderButton"
        )
        self.folder_button.clicked.connect(self._open_folder)
        self.summary = QLabel(objectName="slotSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # beside results: the summary in one line under them (the whole of it in its tooltip)
        self.line = ElidedLabel(objectName="slotSummaryLine")
        self.line.elide = Qt.TextElideMode.ElideRight
        self.line.hide()
        # the slot's cost at the end of that line (the action bar's own cost line stays empty)
        self.cost = QLabel(objectName="resultCost")
        self.cost.setProperty("tone", "muted")
        self.cost.hide()
        #: the marks of the result on screen (favourite, reject, stars, "Add to board…")
        self.picks: PickActions | None = None
        self.ask_board: Any = None
        self.pick_bar = PickBar(with_board=False)
        self.pick_bar.wanted.connect(self.mark)
        self.pick_bar.boardWanted.connect(self._to_board)
        self.pick_bar.hide()
        self.pick_bar.board.hide()
        self._marks: dict[int, tuple[Any, int]] = {}  # position → (pick, rating)
        self._rid: str | None = None
        self.images.currentItemChanged.connect(lambda *_: self._say_marks())
        row = FlowLayout(spacing=6)  # wraps in a narrow pane: nothing is cut off
        row.setContentsMargins(0, 0, 0, 0)
        for w in (
            self.use_button,
            self.open_button,
            self.folder_button,
            self.make2k_button,
            self.pick_bar,
            self.pick_bar.board,
        ):
            row.addWidget(w)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(6)
        box.addWidget(self.media, 1)
        # a slot being made: the frame of its result to come, the prompt in it
        self.running = RunningCanvas()
        self.running.hide()
        box.addWidget(self.running, 1)
        box.addLayout(row)
        line = QHBoxLayout()
        line.setContentsMargins(0, 0, 0, 0)
        line.setSpacing(16)
        line.addWidget(self.line, 1)
        line.addWidget(self.cost, 0)
        box.addLayout(line)
        box.addWidget(self.summary)
        box.addStretch(0)  # takes the room only when there are no media (summary at the top)
        self._box = box

    # -- content ------------------------------------------------------------------------------
    def show_task(self, task: Any) -> None:
        """The task's results (success only) and the summary of its parameters."""
        media = list(task.media) if task is not None and task.state is State.SUCCESS else []
        summary = self._summary(task) if task is not None else ""
        running = task is not None and task.state in IN_FLIGHT and not media
        if running:
            params = dict(getattr(task, "params", {}) or {})
            self.running.set_task(task.kind, params, _plain(summary).split(" — ", 1)[0])
        self.running.setVisible(running)
        self.summary.setText(summary)
        self.summary.setVisible(not media and not running)
        self.line.setText(_plain(summary) if media else "")
        self.line.setVisible(bool(media))
        cost = task_cost_text(task) if media else ""
        self.cost.setText(cost)
        self.cost.setVisible(bool(cost))
        same = [m.sha256 for m in media] == [m.sha256 for m in self._media]
        self._media = media
        self._rid = task.request_id if task is not None else ""
        self.media.setVisible(bool(media))
        self.use_button.setVisible(bool(media))
        self.open_button.setVisible(bool(media))
        self.folder_button.setVisible(bool(media))
        self._show_make2k(task, media)
        self._load_marks(task.request_id if media else None)
        self._box.setStretch(self._box.count() - 1, 0 if media or running else 1)
        if same:
            return
        self._token += 1
        token = self._token
        self.images.clear()
        self.video.set_video(None)
        self.sound.set_sound(None)
        if not media:
            return
        if media[0].content_type.startswith("audio/"):
            self.media.setCurrentWidget(self.sound)
            show_sound(self.sound, media[0], self.controller, lambda: token == self._token)
            return
        if media[0].content_type.startswith("video/"):
            self.media.setCurrentWidget(self.video)
            path = media[0].path
            self.video.set_video(path)
            self.controller.call(
                load_video_poster,
                path,
                LARGE,
                done=lambda img: token == self._token and self.video.set_poster(img),
            )
            return
        self.media.setCurrentWidget(self.images)
        for i, m in enumerate(media, 1):
            item = add_list_item(self.images, str(i))
            item.setData(Qt.ItemDataRole.UserRole, i - 1)
            item.setToolTip(f"{m.width}×{m.height}" if m.width else "")
            show = icon_of_row(self.images, i - 1, lambda: token == self._token)
            self.controller.call(load_thumbnail, m.path, LARGE, done=show)
        fit_icons(self.images, LARGE, self._aspect())

    def _show_make2k(self, task: Any, media: list[MediaView]) -> None:
        """Offered on a finished video; enabled when the domain allows it, else it says why."""
        self._task = task
        video = bool(media) and media[0].content_type.startswith("video/")
        self.make2k_button.setVisible(video)
        why = None
        if video:
            from app.ui.make2k import why_not_task

            why = why_not_task(task)
        self.make2k_button.setEnabled(video and why is None)
        tip = why or _tr(
            QT_TRANSLATE_NOOP("FinishedView", "Render this video again at 2K, as a new slot")
        )
        self.make2k_button.setToolTip(tip)
        self.make2k_button.setAccessibleDescription(tip)

    def _summary(self, task: Any) -> str:
        """Kind, model, duration, resolution or ratio, inputs used, and the prompt: read-only."""
        p = dict(getattr(task, "params", {}) or {})
        if task.kind in ("music", "speech", "voice"):
            return sound_summary(task.kind, p)
        parts: list[str] = []
        if task.kind == "prompt":  # an enhanced prompt: its text is the result
            return self._prompt_summary(task, p)
        if task.kind == "video":
            parts.append(_tr(QT_TRANSLATE_NOOP("FinishedView", "Video")))
        else:
            n = int(p.get("n") or 1)
            parts.append(
                _tr(QT_TRANSLATE_NOOP("FinishedView", "1 image"))
                if n == 1
                else _tr(QT_TRANSLATE_NOOP("FinishedView", "%1 images")).replace("%1", str(n))
            )
        parts += [str(p[k]) for k in ("model",) if p.get(k)]
        if p.get("duration"):
            parts.append(
                _tr(QT_TRANSLATE_NOOP("FinishedView", "%1 s")).replace("%1", str(p["duration"]))
            )
        for key in ("resolution", "aspect_ratio", "area", "size"):
            if p.get(key):
                parts.append(str(p[key]))
        inputs = [
            _tr(word)
            for key, word in (
                ("first_frame_image", QT_TRANSLATE_NOOP("FinishedView", "first frame")),
                ("last_frame_image", QT_TRANSLATE_NOOP("FinishedView", "last frame")),
                ("subject_reference", QT_TRANSLATE_NOOP("FinishedView", "reference")),
                ("reference_image", QT_TRANSLATE_NOOP("FinishedView", "reference")),
            )
            if p.get(key)
        ]
        if p.get("regenerate_from"):
            parts.append(
                _tr(QT_TRANSLATE_NOOP("FinishedView", "2K of %1")).replace(
                    "%1", str(p["regenerate_from"]).rsplit(":", 1)[-1]
                )
            )
        line = " · ".join(parts)
        if inputs:
            line += " · " + _tr(QT_TRANSLATE_NOOP("FinishedView", "from %1")).replace(
                "%1", ", ".join(inputs)
            )
        prompt = str(p.get("prompt") or "")
        return f"<b>{html.escape(line)}</b><br><span>{html.escape(prompt)}</span>"

    # -- marks ------------------------------------------------------------------------------------
    def set_picks(self, picks: PickActions, ask_board: Any) -> None:
        self.picks = picks
        self.ask_board = ask_board
        picks.marked.connect(self._marked)

    def _load_marks(self, request_id: str | None) -> None:
        if request_id != self._rid:
            self._marks = {}
        self._rid = request_id
        if self.picks is None or request_id is None:
            self._say_marks()
            return

        def arrived(report: Any) -> None:
            if report is not None and self._rid == request_id:
                self._marks = {r.result - 1: (r.pick, r.rating) for r in report.results}
                self._say_marks()

        self.picks.marks_of(request_id, arrived)
        self._say_marks()

    def step_result(self, forward: bool) -> bool:
        """Show the next (or previous) of the slot's results in the grid — the one the marking
        keys, Open and "Use in a new slot" then act on; False at either end or with one result
        (a video or a sound is the slot's one result)."""
        if self.media.currentWidget() is not self.images or self.images.count() < 2:
            return False
        row = self.images.currentRow()
        row = 0 if row < 0 else row
        to = row + (1 if forward else -1)
        if not 0 <= to < self.images.count():
            return False
        self.images.setCurrentRow(to)
        self.images.scrollToItem(self.images.item(to))
        return True

    def current_position(self) -> int | None:
        media = self.current_media()
        return None if media is None else self._media.index(media)

    def _say_marks(self) -> None:
        pos = self.current_position()
        on = self.picks is not None and pos is not None
        self.pick_bar.setVisible(on)
        self.pick_bar.board.setVisible(on)
        if pos is not None:
            self.pick_bar.show_marks(*self._marks.get(pos, (None, 0)))

    def mark(self, key: str) -> None:
        """F favourite, X reject, 1–5 rating, 0 no rating on the result on screen."""
        pos = self.current_position()
        if self.picks is not None and self._rid is not None and pos is not None:
            self.picks.mark_key(self._rid, pos, key, self._marks.get(pos, (None, 0))[0])

    def _marked(self, rid: str, position: int, pick: Any, rating: int) -> None:
        if rid == self._rid:
            self._marks[position] = (pick, rating)
            self._say_marks()

    def _to_board(self) -> None:
        pos = self.current_position()
        name = self.ask_board() if self.ask_board is not None else None
        if self.picks is not None and self._rid is not None and pos is not None and name:
            self.picks.add_to_board(name, [(self._rid, pos)])

    def _prompt_summary(self, task: Any, p: dict[str, Any]) -> str:
        head = _tr(QT_TRANSLATE_NOOP("FinishedView", "Enhanced prompt")) + f" · {p.get('model')}"
        source = str(p.get("enhance_of") or "").rsplit(":", 1)[-1]
        if source:
            head += " · " + _tr(QT_TRANSLATE_NOOP("FinishedView", "for %1")).replace("%1", source)
        text = getattr(task, "text", None) or ""
        return (
            f"<b>{html.escape(head)}</b><br>"
            f"<span style='color:#374151'>{html.escape(text)}</span><br><br>"
            f"<span style='color:#6b7280'>"
            + html.escape(_tr(QT_TRANSLATE_NOOP("FinishedView", "Written: %1"))).replace(
                "%1", html.escape(str(p.get("prompt") or ""))
            )
            + "</span>"
        )

    # -- using a result in a new slot ------------------------------------------------------------
    def current_media(self) -> MediaView | None:
        if not self._media:
            return None
        if self.media.currentWidget() is self.images:
            item = self.images.currentItem()
            if item is not None:
                return self._media[int(item.data(Qt.ItemDataRole.UserRole))]
        return self._media[0]

    def actions_for(self, media: MediaView) -> list[QAction]:
        """The "use in a new slot" actions of one result (its words depend on image or video)."""
        video = media.content_type.startswith("video/")
        roles = VIDEO_ROLES if video else IMAGE_ROLES
        if media.content_type.startswith("audio/"):
            roles = SOUND_ROLES
        out = []
        for role, text in roles:
            act = QAction(_tr(text), self)
            act.setObjectName(f"use-{role.value}")
            act.triggered.connect(lambda _c=False, m=media, r=role: self.useWanted.emit(m, r.value))
            out.append(act)
        return out

    def _fill_use_menu(self) -> None:
        self.use_menu.clear()
        media = self.current_media()
        if media is not None:
            for act in self.actions_for(media):
                self.use_menu.addAction(act)

    def _open_file(self) -> None:
        media = self.current_media()
        if media is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(media.path))

    def _open_folder(self) -> None:
        media = self.current_media()
        if media is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(media.path).parent)))

    def _context_menu(self, pos: Any) -> None:
        item = self.images.itemAt(pos)
        if item is None:
            return
        media = self._media[int(item.data(Qt.ItemDataRole.UserRole))]
        menu = QMenu(self)
        for act in self.actions_for(media):
            menu.addAction(act)
        pos_ = self._media.index(media)
        if self.picks is not None and self._rid is not None:
            menu.addSeparator()
            current = self._marks.get(pos_, (None, 0))[0]
            self.picks.fill_menu(
                menu, [(self._rid, pos_)], current, self.ask_board or (lambda: None)
            )
        menu.popup(self.images.viewport().mapToGlobal(pos))

    def _drag_files(self, pos: Any) -> list[OutFile]:
        """The result under ``pos`` in the grid (the video: the slot's one result)."""
        named = out_files(self._rid, self._media)
        if self.media.currentWidget() is not self.images:
            return named[:1]
        item = self.images.itemAt(pos)
        if item is None:
            return []
        at = int(item.data(Qt.ItemDataRole.UserRole))
        return named[at : at + 1]

    def _aspect(self) -> float:
        m = self._media[0] if self._media else None
        return (m.height / m.width) if m is not None and m.width and m.height else 1.0

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        if obj is self.images and event.type() == QEvent.Type.KeyPress:
            key = key_of(event)
            if key is not None and self.picks is not None and self._media:
                self.mark(key)
                return True
        if obj in (self.images, self.images.viewport()) and event.type() in (
            QEvent.Type.Resize,
            QEvent.Type.Show,
        ):
            fit_icons(self.images, LARGE, self._aspect())
        return super().eventFilter(obj, event)

    def stop(self) -> None:
        self.video.stop()
        self.sound.stop()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(400, 480 if self._media else 60)


__all__ = ["FinishedView", "IMAGE_ROLES", "VIDEO_ROLES"]
