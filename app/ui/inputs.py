"""Media inputs of the create form: frame pickers and the reference media list, with thumbnails,
drag-and-drop and paste, each input checked against the limits when it arrives.

What a dropped, pasted or chosen input *is* (format, bytes, pixel sides, clip length) is found by
the service's probes (:mod:`app.service.inputs`, run off the UI thread by the controller); whether
it may be used is the domain's rule (:func:`app.domain.params_v2.CHECKS` for MiniMax-H3,
:func:`app.domain.params.check_frame` for the legacy models). The widgets here only hold what was
accepted (:class:`MediaInput`: the value the create sends and the facts the form validates with)
and say, in a designer's words, why something was refused.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from app.domain.errors import Rule, ValidationError
from app.domain.params_v2 import MediaFacts
from app.ui.qt import (
    QApplication,
    QByteArray,
    QEvent,
    QGuiApplication,
    QHBoxLayout,
    QImage,
    QKeySequence,
    QLabel,
    QListWidget,
    QObject,
    QPixmap,
    QShortcut,
    QSize,
    Qt,
    QtCore,
    QtGui,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
)
from app.ui.widgets import add_list_item

THUMB = 72
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".heic", ".heif")
VIDEO_SUFFIXES = (".mp4", ".mov")
AUDIO_SUFFIXES = (".wav", ".mp3")
#: Shot-list files: dropped on the window, they open the import review.
SHOTLIST_SUFFIXES = (".csv", ".yaml", ".yml")


def kind_of_path(path: str) -> str | None:
    """image, video or audio from a file's name (the probe then proves it)."""
    low = path.lower()
    for kind, suffixes in (
        ("image", IMAGE_SUFFIXES),
        ("video", VIDEO_SUFFIXES),
        ("audio", AUDIO_SUFFIXES),
    ):
        if low.endswith(suffixes):
            return kind
    return None


@dataclass(frozen=True)
class MediaInput:
    """One accepted input: ``value`` is what the create sends (a file path, a ``data:`` URL, or
    an ``https://`` URL), ``facts`` what the form validates with (None for a remote URL)."""

    value: str
    kind: str
    name: str
    facts: MediaFacts | None = None
    thumb: QImage | None = None

    def check_value(self) -> Any:
        """What the domain's rules are asked with: the facts of local content, else the URL.
        A stored slot's local input (known by its facts, no longer by its bytes) is not sent,
        so it is not checked either."""
        if not self.value:
            return None
        return self.facts if self.facts is not None else self.value

    def summary(self) -> str:
        f = self.facts
        if f is None:
            return self.name
        bits = []
        if f.width and f.height:
            bits.append(f"{f.width}×{f.height}")
        if f.seconds is not None:
            bits.append(f"{f.seconds:.1f} s")
        return f"{self.name} · {' · '.join(bits)}" if bits else self.name


def image_data_url(image: QImage) -> str:
    """A pasted or dropped picture as a PNG ``data:`` URL."""
    data = QByteArray()
    buf = QtCore.QBuffer(data)
    buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    buf.close()
    return "data:image/png;base64," + base64.b64encode(bytes(data.data())).decode("ascii")


def _thumb_of(data: bytes, kind: str) -> QImage | None:
    if kind == "image":
        img = QImage.fromData(data)
    elif kind == "video":
        img = _video_poster(data)
    else:
        return None
    if img is None or img.isNull():
        return None
    return img.scaled(
        THUMB * 2,
        THUMB,
        Qt.AspectRatioMode.KeepAspectRatio,
        Qt.TransformationMode.SmoothTransformation,
    )


def _video_poster(data: bytes) -> QImage | None:
    import io

    import av

    try:
        with av.open(io.BytesIO(data)) as container:
            for frame in container.decode(video=0):
                png = io.BytesIO()
                frame.to_image().save(png, "PNG")  # Pillow; no numpy needed
                return QImage.fromData(png.getvalue())
    except Exception:  # noqa: BLE001 - no poster is not an error: the row says what it is
        return None
    return None


def probe_media(source: str, kind: str, field: str, protocol: str) -> MediaInput:
    """Read and check one input (a worker thread runs this). ``protocol``: ``v2`` (MiniMax-H3),
    ``video`` (a legacy model's frame), ``image`` (image-01's subject) or ``h3image``
    (MiniMax-H3-Image's reference image). Raises
    ValidationError naming ``field`` with the limit that refused it."""
    v2 = protocol == "v2"
    from app.domain.params import check_frame
    from app.domain.params_v2 import CHECKS, check_url
    from app.service import inputs

    if source.startswith(("https://", "http://", "mm_file://")):
        if protocol == "h3image" and not source.startswith("https://"):
            raise ValidationError(field, "must be an https:// URL, a local file or a slot's result")
        if v2:
            check_url(source, field)
        elif not source.startswith("https://"):
            raise ValidationError(
                field, "plain http:// is not accepted; use https://", Rule.PLAIN_HTTP
            )
        return MediaInput(source, kind, source.rsplit("/", 1)[-1] or source)
    if source.startswith("data:"):
        local = inputs.from_data_url(source, kind, field)
        name = "pasted " + kind
    else:
        local = inputs.from_file(source, kind, field)
        name = Path(source).name
    facts = replace(local.facts, name=name)
    if protocol == "h3image":  # MiniMax-H3-Image's reference images (the service reads them)
        from app.domain.params_h3image import check_reference

        check_reference(facts, field)
        value = source
    elif v2:
        CHECKS[kind](facts, field)
        value = source
    else:
        check_frame(facts, field, image_subject=protocol == "image")
        value = source if source.startswith("data:") else inputs.image_file_data_url(source, field)
    return MediaInput(value, kind, name, facts, _thumb_of(local.read(), kind))


def sources_of(mime: Any) -> list[str]:
    """The inputs a drop or a paste carries: local files and https URLs, else a picture."""
    out: list[str] = []
    if mime.hasUrls():
        for url in mime.urls():
            if url.isLocalFile():
                out.append(url.toLocalFile())
            elif url.scheme() in ("https", "http"):
                out.append(url.toString())
    if not out and mime.hasImage():
        image = mime.imageData()
        if isinstance(image, QPixmap):
            image = image.toImage()
        if isinstance(image, QImage) and not image.isNull():
            out.append(image_data_url(image))
    if not out and mime.hasText():
        text = mime.text().strip()
        if text.startswith(("https://", "data:")):
            out.append(text)
    return out


def kind_of_source(source: str) -> str | None:
    if source.startswith("data:"):
        family = source[5:].split("/", 1)[0]
        return family if family in ("image", "video", "audio") else None
    if source.startswith(("https://", "http://")):
        return kind_of_path(source.split("?", 1)[0]) or "image"
    return kind_of_path(source)


class DropMixin:
    """Drag-and-drop and Ctrl+V on a widget: both end in :meth:`take_sources`."""

    def _init_drop(self) -> None:
        self.setAcceptDrops(True)  # type: ignore[attr-defined]
        keys = QKeySequence(QKeySequence.StandardKey.Paste)
        paste = QShortcut(keys, self)  # type: ignore[arg-type]
        paste.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        paste.activated.connect(self.paste)

    def dragEnterEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        if self.accepting() and sources_of(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        self.dragEnterEvent(event)

    def dropEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        sources = sources_of(event.mimeData()) if self.accepting() else []
        if sources:
            event.acceptProposedAction()
            self.take_sources(sources)
        else:
            event.ignore()

    def paste(self) -> None:
        """Ctrl+V: the clipboard's picture, files or https:// link; said when it holds none."""
        if self.accepting():
            sources = sources_of(QGuiApplication.clipboard().mimeData())
            if sources:
                self.take_sources(sources)
            else:
                self.pasteEmpty.emit()  # type: ignore[attr-defined]

    def _paste_key(self, event: Any) -> bool:
        """Ctrl+V (or Shift+Insert) in a text field of the drop area pastes the clipboard's
        picture here, not its text: True when ``event`` was that key and is handled."""
        if event.type() not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        if not event.matches(QKeySequence.StandardKey.Paste):
            return False
        event.accept()
        if event.type() == QEvent.Type.KeyPress:
            self.paste()
        return True

    def accepting(self) -> bool:
        return True

    def take_sources(self, sources: list[str]) -> None:
        raise NotImplementedError


class PasteAim(QObject):
    """Ctrl+V with the pointer over a drop area while the focus is elsewhere in ``form``: the
    paste is aimed at that area (its picture, or why there is none), not at the focused field.

    Installed on the application (a text field takes Ctrl+V before any shortcut of the drop
    area could) while the focus is in ``form``: an application's filter sees every event of
    every object, each one a call into Python (a window's construction alone sends thousands),
    and it acts on none of them unless the focus is in ``form``."""

    def __init__(self, form: QWidget, areas: list[Any]) -> None:
        super().__init__(form)
        self._form = form
        self._areas = areas
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)  # a method: let go with the form
            self._focus_changed(None, QApplication.focusWidget())

    def _focus_changed(self, _old: Any, now: Any) -> None:
        app = QApplication.instance()
        if now is not None and self._form.isAncestorOf(now):
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)

    def aimed(self) -> Any:
        """The visible drop area under the pointer that takes a paste now, or None."""
        where = QtGui.QCursor.pos()
        for area in self._areas:
            if area.isVisible() and area.accepting():
                if area.rect().contains(area.mapFromGlobal(where)):
                    return area
        return None

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        if not isinstance(event, QtGui.QKeyEvent):  # every event of the application: cheap first
            return False
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        if not isinstance(obj, QWidget) or not event.matches(QKeySequence.StandardKey.Paste):
            return False
        focus = QApplication.focusWidget()
        if obj is not focus or focus is None or not self._form.isAncestorOf(focus):
            return False
        area = self.aimed()
        if area is None or area is focus or area.isAncestorOf(focus):
            return False  # no aim, or the area's own field: it pastes by itself
        event.accept()
        if kind == QEvent.Type.KeyPress:
            area.paste()
        return True


class FramePicker(DropMixin, QWidget):
    """One image input (first frame, last frame, subject): a thumbnail, its name and size, an
    ``https://`` URL typed in, a file chosen, dropped or pasted."""

    changed = Signal()
    fileWanted = Signal()
    sourcesDropped = Signal(list)  # local files / URLs / data URLs to check and take
    pasteEmpty = Signal()  # Ctrl+V with no picture, file or link on the clipboard
    fed = Signal(str, str)  # a result used as this input: (its name, its data: URL)

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = name
        self.input: MediaInput | None = None
        self._stored: str | None = None  # a stored slot's description (read-only)
        self._read_only = False
        self._blocked: str | None = None  # why it cannot be used now (None: it can)
        self.thumb = QLabel(objectName="frameThumb")
        self.thumb.setFixedSize(THUMB, THUMB * 9 // 16 + 8)
        self.thumb.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.thumb.setStyleSheet(
            "QLabel#frameThumb { border: 1px dashed #c5cad3; border-radius: 4px; color: #8a93a3; }"
        )
        self.thumb.setText(self.tr("drop"))
        from app.ui.qt import QLineEdit

        self.edit = QLineEdit(placeholderText=self.tr("Drop or paste an image, or https://…"))
        self.edit.setAccessibleName(name)
        self.choose = QToolButton(text=self.tr("Choose…"))
        self.choose.setAccessibleName(self.tr("Choose a file for %1").replace("%1", name))
        self.clear = QToolButton(text="✕")
        self.clear.setAccessibleName(self.tr("Clear %1").replace("%1", name))
        self.clear.setToolTip(self.tr("Clear"))
        self.hint = QLabel(objectName="hint")
        self.hint.setWordWrap(True)
        self.hint.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.thumb)
        row.addWidget(self.edit, 1)
        row.addWidget(self.choose)
        row.addWidget(self.clear)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addLayout(row)
        box.addWidget(self.hint)
        self.edit.textEdited.connect(self._typed)
        self.choose.clicked.connect(self.fileWanted)
        self.clear.clicked.connect(lambda: self.set_value(None))
        self._init_drop()
        # Ctrl+V in the field pastes a picture (not text); a click on the drop area gives it
        # the focus, so Ctrl+V there pastes too
        self.edit.installEventFilter(self)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.thumb.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        if obj is self.edit and self._paste_key(event):
            return True
        return super().eventFilter(obj, event)

    def accepting(self) -> bool:
        return not self._read_only and self._blocked is None

    def take_sources(self, sources: list[str]) -> None:
        self.sourcesDropped.emit(sources[:1])

    def _typed(self) -> None:
        text = self.edit.text().strip()
        self.input = MediaInput(text, "image", text) if text else None
        self._show_thumb()
        self.changed.emit()

    def value(self) -> str | None:
        """What the create sends."""
        return self.input.value if self.input is not None else None

    def check_value(self) -> Any:
        return self.input.check_value() if self.input is not None else None

    def set_input(self, media: MediaInput | None) -> None:
        self.input = media
        self._stored = None
        if media is None:
            self.edit.clear()
            self.edit.setReadOnly(self._read_only)
        else:
            local = media.facts is not None
            self.edit.setText(media.summary() if local else media.value)
            self.edit.setReadOnly(self._read_only or local)
        self._show_thumb()
        self.changed.emit()

    def set_value(self, value: str | None) -> None:
        """A stored value: an ``https://`` URL, a ``data:`` URL (decoded for its thumbnail), or
        nothing."""
        if value and value.startswith("data:"):
            thumb = None
            try:
                raw = base64.b64decode(value.split(",", 1)[1])
                thumb = _thumb_of(raw, "image")
            except Exception:  # noqa: BLE001 - an unreadable picture just has no thumbnail
                thumb = None
            self.set_input(MediaInput(value, "image", self.tr("image"), None, thumb))
            self.edit.setText(
                self.tr("picture (%1 KB)").replace("%1", str(len(value) * 3 // 4 // 1024))
            )
            self.edit.setReadOnly(True)
        elif value:
            self.set_input(MediaInput(value, "image", value))
        else:
            self.set_input(None)

    def set_file(self, name: str, data_url: str) -> None:
        """A picture read from a file or a result (``data_url``), said by its name: the form
        checks it as any dropped picture (its facts found, the model's limits applied) and puts
        it in (:attr:`fed`), so it creates with every model."""
        # receivers(), not isSignalConnected(QMetaMethod.fromSignal(self.fed)): PySide's
        # fromSignal keeps a reference to the picker, which then outlives its window
        if not self.receivers(QtCore.SIGNAL("fed(QString,QString)")):  # no form: as it is
            self.set_value(data_url)
            self.edit.setText(
                self.tr("%1 (picture, %2 KB)")
                .replace("%1", name)
                .replace("%2", str(len(data_url) * 3 // 4 // 1024))
            )
            return
        self.fed.emit(name, data_url)

    def set_stored(self, text: str) -> None:
        """A stored slot's local input (known by its facts only: no thumbnail)."""
        self.set_input(None)
        self._stored = text
        self.edit.setText(text)
        self.edit.setReadOnly(True)

    def _show_thumb(self) -> None:
        thumb = self.input.thumb if self.input is not None else None
        if thumb is not None:
            self.thumb.setPixmap(
                QPixmap.fromImage(thumb).scaled(
                    self.thumb.size(),
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )
        else:
            self.thumb.setPixmap(QPixmap())
            self.thumb.setText(self.tr("drop") if self.input is None else self.tr("picture"))

    def has_thumbnail(self) -> bool:
        pm = self.thumb.pixmap()
        return pm is not None and not pm.isNull()

    def set_blocked(self, why: str | None, *, inline: bool = True) -> None:
        """Disable the picker and say why (tooltip, and an inline hint unless a neighbour
        already says the same), or enable it again."""
        self._blocked = why
        self._apply_enabled()
        self.hint.setText(why if why and inline else "")
        self.hint.setVisible(bool(why) and inline and not self._read_only)
        for w in (self.edit, self.choose, self.thumb):
            w.setToolTip(why or "")

    def _apply_enabled(self) -> None:
        on = not self._read_only and self._blocked is None
        self.edit.setEnabled(self._blocked is None)
        self.edit.setReadOnly(
            not on
            or (self.input is not None and self.input.facts is not None)
            or self._stored is not None
        )
        self.choose.setEnabled(on)
        self.clear.setEnabled(not self._read_only)

    def set_read_only(self, ro: bool) -> None:
        self._read_only = ro
        self._apply_enabled()
        self.hint.setVisible(bool(self._blocked) and not ro)


class ReferenceList(DropMixin, QWidget):
    """MiniMax-H3's reference media: images, videos and audio clips with thumbnails, their
    counts and total seconds against the limits, added by Add…, drop or paste."""

    changed = Signal()
    fileWanted = Signal()
    sourcesDropped = Signal(list)
    pasteEmpty = Signal()  # Ctrl+V with no picture, file or link on the clipboard
    fed = Signal(str, str)  # a result used as a reference: (its name, its data: URL)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("referenceList")
        self.items: list[MediaInput] = []
        self._read_only = False
        self._blocked: str | None = None
        self.list = QListWidget(objectName="referenceItems")
        self.list.setAccessibleName(self.tr("Reference media"))
        self.list.setIconSize(QSize(THUMB, THUMB * 9 // 16))
        self.list.setMaximumHeight(120)
        self.list.setMinimumHeight(60)
        self.list.setAcceptDrops(False)
        self.add = QToolButton(text=self.tr("Add…"), objectName="addReferenceButton")
        self.add.setAccessibleName(self.tr("Add reference media"))
        self.remove = QToolButton(text=self.tr("Remove"), objectName="removeReferenceButton")
        self.remove.setAccessibleName(self.tr("Remove the selected reference"))
        self.limits = QLabel(objectName="referenceLimits")
        self.limits.setWordWrap(True)
        self.limits.setProperty("tone", "muted")
        self.hint = QLabel(objectName="hint")
        self.hint.setWordWrap(True)
        self.hint.hide()
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.add)
        buttons.addWidget(self.remove)
        buttons.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addWidget(self.list)
        box.addLayout(buttons)
        box.addWidget(self.limits)
        box.addWidget(self.hint)
        self.add.clicked.connect(self.fileWanted)
        self.remove.clicked.connect(self._remove_selected)
        self._init_drop()
        self._show()

    def accepting(self) -> bool:
        return not self._read_only and self._blocked is None

    def take_sources(self, sources: list[str]) -> None:
        self.sourcesDropped.emit(sources)

    def set_file(self, name: str, data_url: str) -> None:
        """A result used as a reference (``data_url``): checked by the form and added."""
        self.fed.emit(name, data_url)

    def append(self, media: MediaInput) -> None:
        self.items.append(media)
        self._show()
        self.changed.emit()

    def set_items(self, items: list[MediaInput]) -> None:
        self.items = list(items)
        self._show()
        self.changed.emit()

    def _remove_selected(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.items):
            del self.items[row]
            self._show()
            self.changed.emit()

    def by_field(self, *, check: bool) -> dict[str, list[Any]]:
        """The items per parameter (``reference_image``, ``reference_video``,
        ``reference_audio``): the values the create sends, or what the rules check."""
        out: dict[str, list[Any]] = {}
        for m in self.items:
            if m.value:  # a stored slot's local input is shown, not sent again
                out.setdefault(f"reference_{m.kind}", []).append(
                    m.check_value() if check else m.value
                )
        return out

    def count(self, kind: str) -> int:
        return sum(1 for m in self.items if m.kind == kind)

    def seconds(self, kind: str) -> float:
        return sum(
            (m.facts.seconds or 0.0) for m in self.items if m.kind == kind and m.facts is not None
        )

    def _show(self) -> None:
        from app.domain import params_v2 as v2

        self.list.clear()
        kinds = {"image": self.tr("picture"), "video": self.tr("video"), "audio": self.tr("sound")}
        for m in self.items:
            text = f"{kinds.get(m.kind, m.kind)} · {m.summary()}"
            if not m.value and not self._read_only:
                text += self.tr(" — add the file again to use it")
            item = add_list_item(self.list, text)
            if m.thumb is not None:
                from app.ui.qt import QIcon

                item.setIcon(QIcon(QPixmap.fromImage(m.thumb)))
            item.setToolTip(m.summary())
        self.limits.setText(
            self.tr("%1 of %2 images · %3 of %4 videos (%5 of %6 s) · %7 of %8 audio (%9 of %6 s)")
            .replace("%1", str(self.count("image")))
            .replace("%2", str(v2.MAX_IMAGES))
            .replace("%3", str(self.count("video")))
            .replace("%4", str(v2.MAX_VIDEOS))
            .replace("%5", f"{self.seconds('video'):.1f}")
            .replace("%6", f"{v2.TOTAL_SECONDS_MAX:g}")
            .replace("%7", str(self.count("audio")))
            .replace("%8", str(v2.MAX_AUDIO))
            .replace("%9", f"{self.seconds('audio'):.1f}")
        )
        self.remove.setEnabled(bool(self.items) and not self._read_only)

    def set_blocked(self, why: str | None) -> None:
        self._blocked = why
        on = not self._read_only and why is None
        self.add.setEnabled(on)
        self.list.setEnabled(why is None)
        self.hint.setText(why or "")
        self.hint.setVisible(bool(why) and not self._read_only)
        for w in (self.add, self.list):
            w.setToolTip(why or "")

    def set_read_only(self, ro: bool) -> None:
        self._read_only = ro
        self._show()
        self.add.setEnabled(not ro and self._blocked is None)
        self.remove.setEnabled(bool(self.items) and not ro)
        self.hint.setVisible(bool(self._blocked) and not ro)


Prober = Callable[[str, str, str, str, Callable[[Any], None]], None]

__all__ = [
    "FramePicker",
    "MediaInput",
    "ReferenceList",
    "kind_of_path",
    "kind_of_source",
    "probe_media",
    "sources_of",
]
