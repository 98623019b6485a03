"""The create form and the RequestId composer: validation as you type, with the domain's rules.

Widgets only: they validate through :func:`app.domain.params.normalize` and
:func:`app.domain.slots.validate_request_id`, compose and parse RequestIds with
:mod:`app.domain.naming` (pure functions, no I/O), and ask the controller for anything that
reads a disk or the store (frame files, the next free scene).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from app.domain.errors import ValidationError
from app.domain.params import (
    ASPECT_RATIOS,
    DEFAULT_VIDEO_MODEL,
    IMAGE_MODELS,
    IMAGE_PROMPT_MAX,
    VIDEO_MODELS,
    VIDEO_PROMPT_MAX,
    normalize,
)
from app.domain import naming
from app.domain.slots import validate_request_id
from app.ui.qt import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDate,
    QDateEdit,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Qt,
    Signal,
)

def _set_invalid(widget: QWidget, invalid: bool) -> None:
    if bool(widget.property("invalid")) != invalid:
        widget.setProperty("invalid", invalid)
        widget.style().unpolish(widget)
        widget.style().polish(widget)


class DateEdit(QDateEdit):
    """A date field that is one Tab stop: Tab leaves the field (the year, month and day are
    changed with the arrow keys, or picked in the calendar), as every other field does."""

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802, A002 - Qt override
        return QWidget.focusNextPrevChild(self, next)


class RequestIdComposer(QWidget):
    """Project, date and scene → the full RequestId (``series:YYYYMMDD:project:scene``)."""

    changed = Signal(str)  # the full RequestId, valid or not
    nextSceneWanted = Signal(str)  # the prefix whose next free scene is wanted

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.series = "article"
        self._updating = False
        self._read_only = False
        self.free = False  # the RequestId has another shape than series:date:project:scene
        self.project = QLineEdit(objectName="projectEdit", placeholderText=self.tr("project"))
        self.date = DateEdit(objectName="dateEdit", calendarPopup=True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.date.setDate(QDate.currentDate())
        self.scene = QLineEdit(objectName="sceneEdit", placeholderText="scene-01")
        self.full = QLineEdit(objectName="requestIdEdit")
        self.full.setPlaceholderText("article:20260816:tide-eye:scene-02")
        self.next_button = QToolButton(objectName="nextSceneButton", text=self.tr("Next free"))
        self.next_button.setToolTip(self.tr("Use the next free scene number for this project and day"))
        self.error = QLabel(objectName="fieldError")
        self.error.setWordWrap(True)
        for w, name in ((self.project, self.tr("Project")), (self.date, self.tr("Date")),
                        (self.scene, self.tr("Scene")), (self.full, self.tr("RequestId"))):
            w.setAccessibleName(name)
        self.project.setMinimumWidth(100)
        self.scene.setMinimumWidth(90)

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(6)
        # One field per row: the composer fits the narrowest slot pane in every language.
        self.part_labels = (QLabel(self.tr("Project")), QLabel(self.tr("Date")),
                            QLabel(self.tr("Scene")))
        grid.addWidget(self.part_labels[0], 0, 0)
        grid.addWidget(self.project, 0, 1)
        grid.addWidget(self.part_labels[1], 1, 0)
        grid.addWidget(self.date, 1, 1, Qt.AlignmentFlag.AlignLeft)
        grid.addWidget(self.part_labels[2], 2, 0)
        scene_row = QHBoxLayout()
        scene_row.addWidget(self.scene, 1)
        scene_row.addWidget(self.next_button)
        grid.addLayout(scene_row, 2, 1)
        grid.addWidget(QLabel(self.tr("RequestId")), 3, 0)
        grid.addWidget(self.full, 3, 1)
        grid.addWidget(self.error, 4, 1)
        self.error.hide()
        grid.setColumnStretch(1, 1)

        for a, b in ((self.project, self.date), (self.date, self.scene),
                     (self.scene, self.next_button), (self.next_button, self.full)):
            QWidget.setTabOrder(a, b)
        self.project.textChanged.connect(self._compose)
        self.date.dateChanged.connect(self._compose)
        self.scene.textChanged.connect(self._compose)
        self.full.textChanged.connect(self._parse)
        self.next_button.clicked.connect(lambda: self.nextSceneWanted.emit(self.prefix()))

    def prefix(self) -> str:
        return naming.prefix(self.series, self.date.date().toPython(), self.project.text().strip())

    def _scene_text(self) -> str:
        return naming.scene_name(self.scene.text())

    def _compose(self) -> None:
        if self._updating:
            return
        self._updating = True
        try:
            self.full.setText(self.prefix() + self._scene_text())
        finally:
            self._updating = False
        if self.free:
            self._set_free(False)
        self._validate()

    def _parse(self) -> None:
        """The full RequestId typed or set: the parts follow when it has the
        ``series:YYYYMMDD:project:scene`` shape. Any other shape (``campaign:2026-autumn-launch:
        x:y``) is kept exactly as it is: the parts cannot hold it, so they are left empty and
        locked, and nothing ever recomposes it (no part of it is lost)."""
        if not self._updating:
            name = naming.parse(self.full.text())
            day = QDate.fromString(name.date, "yyyyMMdd") if name is not None else QDate()
            text = self.full.text().strip()
            free = bool(text) and (name is None or not day.isValid()
                                   or naming.compose(name.series, day.toPython(), name.project,
                                                     name.scene) != text)
            self._updating = True
            try:
                if name is not None and not free:
                    self.series = name.series
                    self.date.setDate(day)
                    self.project.setText(name.project)
                    self.scene.setText(name.scene)
                elif free:
                    self.project.clear()
                    self.scene.clear()
            finally:
                self._updating = False
            self._set_free(free)
        self._validate()

    def _set_free(self, free: bool) -> None:
        """A RequestId of another shape: the parts are locked (the full field is the name)."""
        self.free = free
        for w in (self.project, self.date, self.scene):
            w.setEnabled(not free)
        # the parts cannot hold this name: not shown (a stale date would mislead)
        for w in (*self.part_labels, self.project, self.date, self.scene, self.next_button):
            w.setVisible(not free)
        self.next_button.setEnabled(not free and not self._read_only)
        tip = self.tr("This RequestId does not follow project, date and scene: edit it in the "
                      "RequestId field.") if free else ""
        for w in (self.project, self.date, self.scene):
            w.setToolTip(tip)

    def _validate(self) -> None:
        try:
            validate_request_id(self.full.text(), "RequestId")
            self.error.clear()
            _set_invalid(self.full, False)
        except ValidationError as exc:
            self.error.setText(exc.message if self.full.text() else "")
            _set_invalid(self.full, bool(self.full.text()))
        self.error.setVisible(bool(self.error.text()))
        self.changed.emit(self.full.text())

    def request_id(self) -> str:
        return self.full.text().strip()

    def error_text(self) -> str | None:
        try:
            validate_request_id(self.request_id(), "RequestId")
            return None
        except ValidationError as exc:
            return f"RequestId {exc.message}"

    def set_request_id(self, rid: str) -> None:
        self.full.setText(rid)

    def set_scene(self, scene: str) -> None:
        self.scene.setText(scene)

    def set_read_only(self, ro: bool) -> None:
        self._read_only = ro
        for w in (self.project, self.scene, self.full):
            w.setReadOnly(ro)
        self.date.setReadOnly(ro)
        self.next_button.setEnabled(not ro and not self.free)


class FramePicker(QWidget):
    """An image input: an ``https://`` URL typed in, or a file chosen and sent as a data URL."""

    changed = Signal()
    fileWanted = Signal()

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._data_url: str | None = None
        self.edit = QLineEdit(placeholderText=self.tr("https://… or choose a file"))
        self.edit.setAccessibleName(name)
        self.choose = QToolButton(text=self.tr("Choose…"))
        self.choose.setAccessibleName(self.tr("Choose a file for %1").replace("%1", name))
        self.clear = QToolButton(text="✕")
        self.clear.setAccessibleName(self.tr("Clear %1").replace("%1", name))
        self.clear.setToolTip(self.tr("Clear"))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(self.choose)
        row.addWidget(self.clear)
        self.edit.textEdited.connect(self._typed)
        self.choose.clicked.connect(self.fileWanted)
        self.clear.clicked.connect(lambda: self.set_value(None))

    def _typed(self) -> None:
        self._data_url = None
        self.changed.emit()

    def value(self) -> str | None:
        if self._data_url is not None:
            return self._data_url
        return self.edit.text().strip() or None

    def set_file(self, name: str, data_url: str) -> None:
        self._data_url = data_url
        size_kb = len(data_url) * 3 // 4 // 1024
        self.edit.setText(self.tr("%1 (file, %2 KB)").replace("%1", name).replace("%2", str(size_kb)))
        self.edit.setReadOnly(True)
        self.changed.emit()

    def set_value(self, value: str | None) -> None:
        if value and value.startswith("data:"):
            self._data_url = value
            self.edit.setText(self.tr("embedded image (%1 KB)").replace("%1", str(len(value) * 3 // 4 // 1024)))
            self.edit.setReadOnly(True)
        else:
            self._data_url = None
            self.edit.setReadOnly(False)
            self.edit.setText(value or "")
        self.changed.emit()

    def set_read_only(self, ro: bool) -> None:
        self.edit.setReadOnly(ro or self._data_url is not None)
        self.choose.setEnabled(not ro)
        self.clear.setEnabled(not ro)


class CreateForm(QWidget):
    """Kind, prompt and parameters. ``params()`` is the raw dict the service normalizes."""

    changed = Signal()
    frameWanted = Signal(object)  # the FramePicker that wants a file

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._read_only = False
        self.image_radio = QRadioButton(self.tr("Image"), objectName="imageRadio")
        self.video_radio = QRadioButton(self.tr("Video"), objectName="videoRadio")
        self.video_radio.setChecked(True)
        self.optimizer_default = True
        self.kind_group = QButtonGroup(self)
        self.kind_group.addButton(self.image_radio)
        self.kind_group.addButton(self.video_radio)

        self.prompt = QPlainTextEdit(objectName="promptEdit")
        self.prompt.setAccessibleName(self.tr("Prompt"))
        self.prompt.setPlaceholderText(self.tr("Describe the shot: subject, motion, camera, light…"))
        self.prompt.setTabChangesFocus(True)
        self.prompt.setMinimumHeight(90)
        self.prompt.setMaximumHeight(150)
        self.count = QLabel(objectName="promptCount")
        self.count.setAlignment(Qt.AlignmentFlag.AlignRight)

        self.model = QComboBox(objectName="modelCombo")
        self.duration = QComboBox(objectName="durationCombo")
        self.resolution = QComboBox(objectName="resolutionCombo")
        self.aspect = QComboBox(objectName="aspectCombo")
        self.aspect.addItems(list(ASPECT_RATIOS))
        self.n = QSpinBox(objectName="countSpin", minimum=1, maximum=9)
        self.seed = QLineEdit(objectName="seedEdit", placeholderText=self.tr("random"))
        self.optimizer = QCheckBox(self.tr("Let the provider refine the prompt"), objectName="optimizerCheck")
        self.first = FramePicker(self.tr("First frame"))
        self.first.setObjectName("firstFrame")
        self.last = FramePicker(self.tr("Last frame"))
        self.last.setObjectName("lastFrame")
        self.subject = FramePicker(self.tr("Subject reference"))
        self.subject.setObjectName("subjectReference")
        self.error = QLabel(objectName="fieldError")
        self.error.setWordWrap(True)
        for w, name in ((self.model, self.tr("Model")), (self.duration, self.tr("Duration")),
                        (self.resolution, self.tr("Resolution")), (self.aspect, self.tr("Aspect ratio")),
                        (self.n, self.tr("Number of images")), (self.seed, self.tr("Seed")),
                        (self.optimizer, self.tr("Prompt optimizer"))):
            w.setAccessibleName(name)

        kinds = QHBoxLayout()
        kinds.addWidget(self.image_radio)
        kinds.addWidget(self.video_radio)
        kinds.addStretch(1)
        head = QHBoxLayout()
        head.addWidget(QLabel(self.tr("Prompt")))
        head.addStretch(1)
        head.addWidget(self.count)

        self.fields = QFormLayout()
        self.fields.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.fields.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.fields.addRow(self.tr("Model"), self.model)
        self.fields.addRow(self.tr("Duration"), self.duration)
        self.fields.addRow(self.tr("Resolution"), self.resolution)
        self.fields.addRow(self.tr("Aspect ratio"), self.aspect)
        self.fields.addRow(self.tr("Images"), self.n)
        self.fields.addRow(self.tr("Seed"), self.seed)
        self.fields.addRow(self.tr("First frame"), self.first)
        self.fields.addRow(self.tr("Last frame"), self.last)
        self.fields.addRow(self.tr("Subject"), self.subject)
        self.fields.addRow("", self.optimizer)

        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(kinds)
        box.addLayout(head)
        box.addWidget(self.prompt)
        box.addLayout(self.fields)
        box.addWidget(self.error)
        box.addStretch(1)

        self._fill_models()
        self.optimizer.setChecked(True)
        self.image_radio.toggled.connect(self._kind_changed)
        self.model.currentTextChanged.connect(self._model_changed)
        for sig in (self.prompt.textChanged, self.duration.currentTextChanged,
                    self.resolution.currentTextChanged, self.aspect.currentTextChanged,
                    self.n.valueChanged, self.seed.textChanged, self.optimizer.toggled,
                    self.first.changed, self.last.changed, self.subject.changed):
            sig.connect(self.validate)
        for picker in (self.first, self.last, self.subject):
            picker.fileWanted.connect(lambda p=picker: self.frameWanted.emit(p))
        self.validate()

    # -- kind and model -------------------------------------------------------------------------
    def kind(self) -> str:
        return "image" if self.image_radio.isChecked() else "video"

    def _fill_models(self) -> None:
        self.model.blockSignals(True)
        self.model.clear()
        if self.kind() == "video":
            self.model.addItems(list(VIDEO_MODELS))
            self.model.setCurrentText(DEFAULT_VIDEO_MODEL)
        else:
            self.model.addItems(list(IMAGE_MODELS))
        self.model.blockSignals(False)
        self._model_changed()

    def _kind_changed(self) -> None:
        self._fill_models()
        self.optimizer.setChecked(self.kind() == "video")

    def _model_changed(self) -> None:
        video = self.kind() == "video"
        rule = VIDEO_MODELS.get(self.model.currentText()) if video else None
        self.duration.blockSignals(True)
        self.resolution.blockSignals(True)
        keep_d, keep_r = self.duration.currentData(), self.resolution.currentText()
        self.duration.clear()
        self.resolution.clear()
        if rule is not None:
            for d in rule.resolutions:
                self.duration.addItem(self.tr("%1 s").replace("%1", str(d)), d)
            all_res: list[str] = []
            for rs in rule.resolutions.values():
                all_res += [r for r in rs if r not in all_res]
            self.resolution.addItems(all_res)
            if keep_d in rule.resolutions:
                self.duration.setCurrentIndex(self.duration.findData(keep_d))
            if keep_r in all_res:
                self.resolution.setCurrentText(keep_r)
            else:
                self.resolution.setCurrentText(rule.default_resolution[self.duration.currentData()])
        self.duration.blockSignals(False)
        self.resolution.blockSignals(False)
        for w in (self.duration, self.resolution, self.first, self.last):
            self.fields.setRowVisible(w, video)
        self.fields.setRowVisible(self.aspect, not video)
        self.fields.setRowVisible(self.n, not video)
        self.fields.setRowVisible(self.seed, not video)
        if rule is not None:
            self.fields.setRowVisible(self.first, rule.allows_first_frame)
            self.fields.setRowVisible(self.last, rule.allows_last_frame)
            self.fields.setRowVisible(self.subject, rule.needs_subject)
        else:
            self.fields.setRowVisible(self.subject, True)
        self.validate()

    # -- values ---------------------------------------------------------------------------------
    def limit(self) -> int:
        return VIDEO_PROMPT_MAX if self.kind() == "video" else IMAGE_PROMPT_MAX

    def params(self) -> dict[str, Any]:
        """The raw parameters as the user set them (only fields this kind and model take)."""
        out: dict[str, Any] = {"model": self.model.currentText(), "prompt": self.prompt.toPlainText(),
                               "prompt_optimizer": self.optimizer.isChecked()}
        if self.kind() == "video":
            rule = VIDEO_MODELS.get(self.model.currentText())
            out["duration"] = self.duration.currentData()
            out["resolution"] = self.resolution.currentText()
            if rule is None or rule.allows_first_frame:
                out["first_frame_image"] = self.first.value()
            if rule is None or rule.allows_last_frame:
                out["last_frame_image"] = self.last.value()
            if rule is None or rule.needs_subject:
                out["subject_reference"] = self.subject.value()
        else:
            out["aspect_ratio"] = self.aspect.currentText()
            out["n"] = self.n.value()
            seed = self.seed.text().strip()
            out["seed"] = seed or None
            out["subject_reference"] = self.subject.value()
        return {k: v for k, v in out.items() if v is not None}

    def error_text(self) -> str | None:
        try:
            normalize(self.kind(), self.params())
            return None
        except ValidationError as exc:
            return str(exc)

    def validate(self) -> None:
        text = self.prompt.toPlainText()
        limit = self.limit()
        self.count.setText(f"{len(text)} / {limit}")
        over = len(text) > limit
        self.count.setStyleSheet("color: #b03a2e; font-weight: 600;" if over else "color: #6b7280;")
        field = None
        message = ""
        if not self._read_only:
            try:
                normalize(self.kind(), self.params())
            except ValidationError as exc:
                field, message = exc.field, exc.message
        if field == "prompt" and not text.strip():
            message = self.tr("Write a prompt to start.") if self.kind() == "image" or not self.first.value() else message
            self.error.setObjectName("hint")
        else:
            self.error.setObjectName("fieldError")
        self.error.style().unpolish(self.error)
        self.error.style().polish(self.error)
        hint = self.error.objectName() == "hint"
        self.error.setText((message if hint else self._field_label(field) + message) if message else "")
        self.error.setVisible(bool(message))
        widgets = {"prompt": self.prompt, "resolution": self.resolution, "duration": self.duration,
                   "first_frame_image": self.first.edit, "last_frame_image": self.last.edit,
                   "subject_reference": self.subject.edit, "seed": self.seed, "n": self.n,
                   "aspect_ratio": self.aspect, "model": self.model}
        for name, w in widgets.items():
            _set_invalid(w, name == field and bool(text.strip() or name != "prompt"))
        self.changed.emit()

    def _field_label(self, field: str | None) -> str:
        labels = {"prompt": self.tr("Prompt"), "resolution": self.tr("Resolution"),
                  "duration": self.tr("Duration"), "first_frame_image": self.tr("First frame"),
                  "last_frame_image": self.tr("Last frame"), "subject_reference": self.tr("Subject"),
                  "seed": self.tr("Seed"), "n": self.tr("Images"), "aspect_ratio": self.tr("Aspect ratio"),
                  "model": self.tr("Model")}
        return f"{labels[field]}: " if field in labels else ""

    def set_params(self, kind: str, params: dict[str, Any]) -> None:
        """Show stored (normalized) parameters."""
        (self.image_radio if kind == "image" else self.video_radio).setChecked(True)
        self._fill_models()
        self.model.setCurrentText(params.get("model") or self.model.currentText())
        self.prompt.setPlainText(params.get("prompt") or "")
        self.optimizer.setChecked(bool(params.get("prompt_optimizer")))
        if kind == "video":
            d = params.get("duration")
            if d is not None and self.duration.findData(d) >= 0:
                self.duration.setCurrentIndex(self.duration.findData(d))
            if params.get("resolution"):
                self.resolution.setCurrentText(params["resolution"])
            self.first.set_value(params.get("first_frame_image"))
            self.last.set_value(params.get("last_frame_image"))
        else:
            self.aspect.setCurrentText(params.get("aspect_ratio") or "1:1")
            self.n.setValue(int(params.get("n") or 1))
            self.seed.setText("" if params.get("seed") is None else str(params["seed"]))
        subject = params.get("subject_reference")
        if isinstance(subject, list) and subject:
            ref = subject[0]
            image = ref.get("image_file") or (ref.get("image") or [None])[0]
            self.subject.set_value(image)
        else:
            self.subject.set_value(None)
        self.validate()

    def set_read_only(self, ro: bool) -> None:
        self._read_only = ro
        self.prompt.setReadOnly(ro)
        self.prompt.setProperty("readOnly", ro)
        self.prompt.style().unpolish(self.prompt)
        self.prompt.style().polish(self.prompt)
        for w in (self.image_radio, self.video_radio, self.model, self.duration, self.resolution,
                  self.aspect, self.n, self.optimizer):
            w.setEnabled(not ro)
        self.seed.setReadOnly(ro)
        for p in (self.first, self.last, self.subject):
            p.set_read_only(ro)
        self.validate()

    def apply_defaults(self, defaults: Any) -> None:
        """A fresh draft: the user's defaults (``DraftDefaults``: kind, model, duration,
        resolution, ratio; None keeps the form's own default), never the last slot's values."""
        kind = getattr(defaults, "kind", "video") or "video"
        (self.image_radio if kind == "image" else self.video_radio).setChecked(True)
        self._fill_models()  # the kind's default model, duration and resolution
        if kind == "video":
            self.duration.setCurrentIndex(0)
            self._model_changed()
        model = getattr(defaults, "model", None)
        if model and self.model.findText(model) >= 0:
            self.model.setCurrentText(model)
        if kind == "video":
            rule = VIDEO_MODELS.get(self.model.currentText())
            duration = getattr(defaults, "duration", None)
            if duration is not None and self.duration.findData(duration) >= 0:
                self.duration.setCurrentIndex(self.duration.findData(duration))
            elif rule is not None:
                self.duration.setCurrentIndex(0)
            resolution = getattr(defaults, "resolution", None)
            if resolution and self.resolution.findText(resolution) >= 0:
                self.resolution.setCurrentText(resolution)
            elif rule is not None:
                self.resolution.setCurrentText(
                    rule.default_resolution[self.duration.currentData()])
        else:
            self.aspect.setCurrentText(getattr(defaults, "ratio", None) or "1:1")
            self.n.setValue(1)
        self.optimizer.setChecked(kind == "video")
        self.validate()

    def picker(self, field: str) -> FramePicker:
        """The image input of ``field`` (``first_frame``, ``last_frame``, ``subject_reference``),
        its row shown: a video model that takes it is chosen when the current one does not."""
        picker = {"first_frame": self.first, "last_frame": self.last,
                  "subject_reference": self.subject}[field]
        if self.kind() == "video":
            allows = {"first_frame": "allows_first_frame", "last_frame": "allows_last_frame",
                      "subject_reference": "needs_subject"}[field]
            rule = VIDEO_MODELS.get(self.model.currentText())
            if rule is not None and not getattr(rule, allows):
                for name, other in VIDEO_MODELS.items():
                    if getattr(other, allows):
                        self.model.setCurrentText(name)
                        break
        return picker

    def clear(self) -> None:
        self.prompt.clear()
        self.first.set_value(None)
        self.last.set_value(None)
        self.subject.set_value(None)
        self.seed.clear()


def today_compact() -> str:
    return dt.date.today().strftime("%Y%m%d")


__all__ = ["CreateForm", "FramePicker", "QPushButton", "RequestIdComposer", "today_compact"]
