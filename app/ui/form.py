"""The create form and the RequestId composer: validation as you type, with the domain's rules.

Widgets only: the form's parameters go into its :class:`~app.ui.draft.DraftModel`, which answers
from the domain what each field allows and why not, the first problem, the estimate and the
daily budget's verdict (:mod:`app.domain.drafts`, :func:`app.domain.cost.check_budget`); the form
shows those answers in the words of :mod:`app.present.words`. The composer checks RequestIds with
:func:`app.domain.naming.validate_new_request_id` and composes and parses them with
:mod:`app.domain.naming` (pure functions, no I/O); anything that reads a disk or the store (frame
files, the next free scene) is asked of the controller.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path
from typing import Any

from app.domain.errors import ValidationError
from app.domain import drafts
from app.domain import params_v2 as v2
from app.domain.drafts import what_if
from app.domain.params import (
    ASPECT_RATIOS,
    IMAGE_MODELS,
    IMAGE_PROMPT_MAX,
    VIDEO_MODELS,
    VIDEO_PROMPT_MAX,
)
from app.domain import naming
from app.domain import params_h3image as h3i
from app.domain.params_sound import is_sound
from app.domain.params_v2 import MediaFacts
from app.domain.protocols import V2, V2_MODELS, protocol_for
from app.present import words
from app.ui.draft import DraftModel
from app.ui.form_h3image import PROTOCOL as H3IMAGE_PROTOCOL, H3ImageFields
from app.ui.form_sound import SoundFields
from app.ui.style import set_tone
from app.ui.widgets import guard_wheel
from app.ui.inputs import FramePicker, MediaInput, PasteAim, ReferenceList, kind_of_source
from app.ui.qt import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDate,
    QDateEdit,
    QFormLayout,
    QGridLayout,
    QGuiApplication,
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
    QtWidgets,
    Signal,
    translate,
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
        self.next_button.setToolTip(
            self.tr("Use the next free scene number for this project and day")
        )
        self.error = QLabel(objectName="fieldError")
        self.error.setWordWrap(True)
        for w, name in (
            (self.project, self.tr("Project")),
            (self.date, self.tr("Date")),
            (self.scene, self.tr("Scene")),
            (self.full, self.tr("RequestId")),
        ):
            w.setAccessibleName(name)
        self.project.setMinimumWidth(100)
        self.scene.setMinimumWidth(90)

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(6)
        # One field per row: the composer fits the narrowest slot pane in every language.
        self.part_labels = (
            QLabel(self.tr("Project")),
            QLabel(self.tr("Date")),
            QLabel(self.tr("Scene")),
        )
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

        for a, b in (
            (self.project, self.date),
            (self.date, self.scene),
            (self.scene, self.next_button),
            (self.next_button, self.full),
        ):
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
            free = bool(text) and (
                name is None
                or not day.isValid()
                or naming.compose(name.series, day.toPython(), name.project, name.scene) != text
            )
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
        tip = (
            self.tr(
                "This RequestId does not follow project, date and scene: edit it in the "
                "RequestId field."
            )
            if free
            else ""
        )
        for w in (self.project, self.date, self.scene):
            w.setToolTip(tip)

    def _validate(self) -> None:
        try:
            naming.validate_new_request_id(self.full.text(), "RequestId")
            self.error.clear()
            _set_invalid(self.full, False)
        except ValidationError as exc:
            said = words.rule_words(exc.rule, exc.values, "request_id", translate, exc.message)
            self.error.setText(said[:1].upper() + said[1:] if self.full.text() else "")
            _set_invalid(self.full, bool(self.full.text()))
        self.error.setVisible(bool(self.error.text()))
        self.changed.emit(self.full.text())

    def request_id(self) -> str:
        return self.full.text().strip()

    def error_text(self) -> str | None:
        try:
            naming.validate_new_request_id(self.request_id(), "RequestId")
            return None
        except ValidationError as exc:
            said = words.rule_words(exc.rule, exc.values, "request_id", translate, exc.message)
            return f"{self.tr('RequestId')}: {said}"

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


#: The form's fields that take media, in the order the rules check them.
MEDIA_ROWS = ("first_frame_image", "last_frame_image", "reference")


class DurationSlider(QWidget):
    """Seconds on a slider: every value a model allows (4–15 for MiniMax-H3, 6 or 10 for a
    legacy Hailuo model), the value said beside it."""

    changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.values: list[int] = [6]
        self.slider = QtWidgets.QSlider(Qt.Orientation.Horizontal, objectName="durationSlider")
        self.slider.setPageStep(1)
        self.slider.setTickPosition(QtWidgets.QSlider.TickPosition.TicksBelow)
        self.label = QLabel(objectName="durationValue")
        self.label.setMinimumWidth(40)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.slider, 1)
        row.addWidget(self.label)
        self.slider.valueChanged.connect(self._moved)

    def set_values(self, values: list[int], keep: int | None, default: int) -> None:
        self.values = list(values)
        self.slider.blockSignals(True)
        self.slider.setRange(0, len(values) - 1)
        want = keep if keep in values else (default if default in values else values[0])
        self.slider.setValue(values.index(want))
        self.slider.blockSignals(False)
        self._say()

    def minimum(self) -> int:
        return self.values[0]

    def maximum(self) -> int:
        return self.values[-1]

    def value(self) -> int:
        return self.values[self.slider.value()]

    def set_value(self, seconds: int) -> None:
        if seconds in self.values:
            self.slider.setValue(self.values.index(seconds))

    def _say(self) -> None:
        self.label.setText(self.tr("%1 s").replace("%1", str(self.value())))
        self.slider.setAccessibleDescription(self.label.text())

    def _moved(self) -> None:
        self._say()
        self.changed.emit(self.value())


class CreateForm(QWidget):
    """Kind, prompt and parameters. ``params()`` is the raw dict the service takes;
    ``check_params()`` the same with local media as the facts the rules check."""

    changed = Signal()
    frameWanted = Signal(object)  # the FramePicker (or ReferenceList) that wants a file
    refused = Signal(str)  # an input was not taken: why, in a designer's words

    def __init__(self, parent: QWidget | None = None) -> None:
        guard_wheel()  # no paid setting moves by scrolling
        super().__init__(parent)
        self._read_only = False
        self._filling = False
        self._held = False  # clear() running: a validate() waits for its end
        self._asked = False
        self._showing = False  # set_params at work: stored values are not second-guessed
        self._expansion_forced = False  # "off" shown because the model has no expansion
        # ``prober(source, kind, field, protocol, done)``: reads and checks an input off the UI
        # thread; ``done`` gets a MediaInput or the refusal's text (the slot pane sets it).
        self.prober: Any = None
        # The draft's parameters and the domain's answers about them (availability, the first
        # problem, the estimate, the budget's verdict): the widgets only show them.
        self.draft = DraftModel()
        self.image_radio = QRadioButton(self.tr("Image"), objectName="imageRadio")
        self.video_radio = QRadioButton(self.tr("Video"), objectName="videoRadio")
        self.video_radio.setChecked(True)
        self.optimizer_default = True
        self.kind_group = QButtonGroup(self)
        self.kind_group.addButton(self.image_radio)
        self.kind_group.addButton(self.video_radio)
        self.sound = SoundFields()  # Music and Voice (app/ui/form_sound.py)
        self.kind_group.addButton(self.sound.music_radio)
        self.kind_group.addButton(self.sound.voice_radio)

        self.prompt = QPlainTextEdit(objectName="promptEdit")
        self.prompt.setAccessibleName(self.tr("Prompt"))
        self.prompt.setPlaceholderText(
            self.tr("Describe the shot: subject, motion, camera, light…")
        )
        self.prompt.setTabChangesFocus(True)
        self.prompt.setMinimumHeight(90)
        self.prompt.setMaximumHeight(150)
        self.count = QLabel(objectName="promptCount")
        self.count.setAlignment(Qt.AlignmentFlag.AlignRight)

        self.model = QComboBox(objectName="modelCombo")
        self.duration = DurationSlider()
        self.duration.setObjectName("durationControl")
        self.resolution = QComboBox(objectName="resolutionCombo")
        self.ratio = QComboBox(objectName="ratioCombo")
        self.ratio.addItem(self.tr("adaptive (follows the image or video)"), v2.ADAPTIVE)
        for r in v2.RATIOS:
            self.ratio.addItem(r, r)
        self.ratio.setCurrentIndex(self.ratio.findData(v2.DEFAULT_RATIO))
        self.ratio_hint = QLabel(objectName="hint")
        self.ratio_hint.setWordWrap(True)
        self.expansion = QComboBox(objectName="expansionCombo")
        for mode, text in (
            ("disabled", self.tr("off")),
            ("balanced", self.tr("balanced")),
            ("quality", self.tr("best quality")),
        ):
            self.expansion.addItem(text, mode)
        self.expansion.setCurrentIndex(self.expansion.findData(v2.DEFAULT_EXPANSION))
        self.expansion_hint = QLabel(objectName="hint")
        self.expansion_hint.setWordWrap(True)
        self.aspect = QComboBox(objectName="aspectCombo")
        self.aspect.addItems(list(ASPECT_RATIOS))
        self.n = QSpinBox(objectName="countSpin", minimum=1, maximum=9)
        self.seed = QLineEdit(objectName="seedEdit", placeholderText=self.tr("random"))
        self.optimizer = QCheckBox(
            self.tr("Let the provider refine the prompt"), objectName="optimizerCheck"
        )
        self.first = FramePicker(self.tr("First frame"))
        self.first.setObjectName("firstFrame")
        self.last = FramePicker(self.tr("Last frame"))
        self.last.setObjectName("lastFrame")
        self.subject = FramePicker(self.tr("Subject reference"))
        self.subject.setObjectName("subjectReference")
        self.references = ReferenceList()
        self.h3image = H3ImageFields(self)  # MiniMax-H3-Image's rows (app/ui/form_h3image.py)
        self.cost = QLabel(objectName="costLabel")
        self.cost.setProperty("tone", "strong")
        self.cost.setWordWrap(True)
        self.error = QLabel(objectName="fieldError")
        self.error.setWordWrap(True)
        for w, name in (
            (self.model, self.tr("Model")),
            (self.duration.slider, self.tr("Duration")),
            (self.resolution, self.tr("Resolution")),
            (self.aspect, self.tr("Aspect ratio")),
            (self.ratio, self.tr("Aspect ratio")),
            (self.expansion, self.tr("Prompt expansion")),
            (self.n, self.tr("Number of images")),
            (self.seed, self.tr("Seed")),
            (self.optimizer, self.tr("Prompt optimizer")),
        ):
            w.setAccessibleName(name)

        kinds = QHBoxLayout()
        kinds.addWidget(self.image_radio)
        kinds.addWidget(self.video_radio)
        kinds.addWidget(self.sound.music_radio)
        kinds.addWidget(self.sound.voice_radio)
        kinds.addStretch(1)
        head = QHBoxLayout()
        head.addWidget(QLabel(self.tr("Prompt")))
        head.addStretch(1)
        head.addWidget(self.count)

        ratio_box = QVBoxLayout()
        ratio_box.setSpacing(2)
        ratio_box.addWidget(self.ratio)
        ratio_box.addWidget(self.ratio_hint)
        self._ratio_row = QWidget()
        self._ratio_row.setLayout(ratio_box)
        ratio_box.setContentsMargins(0, 0, 0, 0)
        exp_box = QVBoxLayout()
        exp_box.setSpacing(2)
        exp_box.setContentsMargins(0, 0, 0, 0)
        exp_box.addWidget(self.expansion)
        exp_box.addWidget(self.expansion_hint)
        self._expansion_row = QWidget()
        self._expansion_row.setLayout(exp_box)

        self.fields = QFormLayout()
        self.fields.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.fields.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.fields.addRow(self.tr("Model"), self.model)
        self.fields.addRow(self.tr("Duration"), self.duration)
        self.fields.addRow(self.tr("Resolution"), self.resolution)
        self.fields.addRow(self.tr("Ratio"), self._ratio_row)
        self.fields.addRow(self.tr("Aspect ratio"), self.aspect)
        self.fields.addRow(self.tr("Images"), self.n)
        self.fields.addRow(self.tr("Seed"), self.seed)
        self.fields.addRow(self.tr("Expansion"), self._expansion_row)
        self.fields.addRow(self.tr("First frame"), self.first)
        self.fields.addRow(self.tr("Last frame"), self.last)
        self.fields.addRow(self.tr("Subject"), self.subject)
        self.fields.addRow(self.tr("References"), self.references)
        self.h3image.add_rows(self.fields)
        self.fields.addRow("", self.optimizer)

        self.visual = QWidget(objectName="visualFields")  # a picture's or a video's fields
        visual = QVBoxLayout(self.visual)
        visual.setContentsMargins(0, 0, 0, 0)
        visual.addLayout(head)
        visual.addWidget(self.prompt)
        visual.addLayout(self.fields)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(kinds)
        box.addWidget(self.visual)
        box.addWidget(self.sound)
        self._head, self._box = head, visual  # add_prompt_tools
        box.addWidget(self.error)
        box.addWidget(self.cost)
        box.addStretch(1)

        self._fill_models()
        self.optimizer.setChecked(True)
        self.image_radio.toggled.connect(self._kind_changed)
        self.sound.kindChanged.connect(self._kind_changed)
        self.sound.changed.connect(self.validate)
        self.model.currentIndexChanged.connect(self._model_changed)
        self.duration.changed.connect(self._duration_changed)
        for sig in (
            self.prompt.textChanged,
            self.resolution.currentTextChanged,
            self.aspect.currentTextChanged,
            self.ratio.currentIndexChanged,
            self.expansion.currentIndexChanged,
            self.n.valueChanged,
            self.seed.textChanged,
            self.optimizer.toggled,
            self.first.changed,
            self.last.changed,
            self.subject.changed,
            self.references.changed,
            self.h3image.changed,
        ):
            sig.connect(self.validate)
        for picker in (
            self.first,
            self.last,
            self.subject,
            self.references,
            self.h3image.references,
        ):
            picker.fileWanted.connect(lambda p=picker: self.frameWanted.emit(p))
            picker.sourcesDropped.connect(lambda sources, p=picker: self.take(p, sources))
            picker.pasteEmpty.connect(self._nothing_to_paste)
            picker.fed.connect(lambda name, url, p=picker: self.take(p, [url], name=name))
        self.paste_aim = PasteAim(self, [self.first, self.last, self.subject, self.references])
        self.validate()

    def add_prompt_tools(self, button: QWidget, panel: QWidget) -> None:
        """A tool beside the prompt's heading (``button``) and its panel under the prompt
        ("Enhance prompt": app/ui/enhance.py)."""
        self._head.insertWidget(self._head.count() - 1, button)
        self._box.insertWidget(self._box.indexOf(self.prompt) + 1, panel)

    # -- kind and model -------------------------------------------------------------------------
    def kind(self) -> str:
        sound = self.sound.kind()
        if sound is not None:
            return sound
        return "image" if self.image_radio.isChecked() else "video"

    def model_id(self) -> str:
        return str(self.model.currentData() or self.model.currentText())

    def is_v2(self) -> bool:
        return self.kind() == "video" and protocol_for("video", self.model_id()) == V2

    def is_h3_image(self) -> bool:
        return self.kind() == "image" and h3i.is_h3_image(self.model_id())

    def models(self) -> list[str]:
        """The models offered, in order (the "Legacy" heading left out)."""
        return [self.model.itemData(i) for i in range(self.model.count()) if self.model.itemData(i)]

    def _fill_models(self) -> None:
        self.model.blockSignals(True)
        self.model.clear()
        if self.kind() == "video":
            for m in V2_MODELS:
                self.model.addItem(m, m)
            self.model.addItem(self.tr("— Legacy (Hailuo) —"), None)
            heading = self.model.model().item(self.model.count() - 1)
            heading.setEnabled(False)
            heading.setSelectable(False)
            for m in VIDEO_MODELS:
                self.model.addItem(m, m)
            self.model.setCurrentIndex(self.model.findData(V2_MODELS[0]))
        else:
            for m in (*IMAGE_MODELS, *h3i.MODELS):
                self.model.addItem(m, m)
        self.model.blockSignals(False)
        self._model_changed()

    def set_model(self, model: str) -> None:
        i = self.model.findData(model)
        if i >= 0:
            self.model.setCurrentIndex(i)

    def _kind_changed(self) -> None:
        self.visual.setVisible(self.sound.kind() is None)
        self._fill_models()
        self.optimizer.setChecked(self.kind() == "video")

    def _rule_durations(self) -> tuple[list[int], int]:
        model = self.model_id()
        if self.is_v2():
            rule = v2.MODELS[model]
            return list(range(rule.min_seconds, rule.max_seconds + 1)), v2.DEFAULT_DURATION
        vrule = VIDEO_MODELS.get(model)
        if vrule is None:
            return [6], 6
        return sorted(vrule.resolutions), 6

    def _resolutions(self) -> tuple[list[str], str]:
        model = self.model_id()
        if self.is_v2():
            return list(v2.MODELS[model].resolutions), v2.DEFAULT_RESOLUTION
        rule = VIDEO_MODELS.get(model)
        if rule is None:
            return [], ""
        all_res: list[str] = []
        for rs in rule.resolutions.values():
            all_res += [r for r in rs if r not in all_res]
        return all_res, rule.default_resolution.get(self.duration.value(), all_res[0])

    def _model_changed(self) -> None:
        video = self.kind() == "video"
        self._filling = True
        try:
            if video:
                values, default = self._rule_durations()
                self.duration.set_values(values, self.duration.value(), default)
                keep = self.resolution.currentText()
                self.resolution.blockSignals(True)
                self.resolution.clear()
                res, default_res = self._resolutions()
                self.resolution.addItems(res)
                self.resolution.setCurrentText(keep if keep in res else default_res)
                self.resolution.blockSignals(False)
        finally:
            self._filling = False
        is_v2 = self.is_v2()
        h3_image = self.is_h3_image()
        image01 = not video and not h3_image
        rule = VIDEO_MODELS.get(self.model_id()) if video and not is_v2 else None
        rows: dict[QWidget, bool] = {
            self.duration: video,
            self.resolution: video,
            self._ratio_row: is_v2,
            self.aspect: image01,
            self.n: image01,
            self.seed: image01,
            self._expansion_row: is_v2,
            self.references: is_v2,
            self.first: video and (is_v2 or (rule is not None and rule.allows_first_frame)),
            self.last: video and (is_v2 or (rule is not None and rule.allows_last_frame)),
            self.subject: image01 or (rule is not None and rule.needs_subject),
            self.optimizer: not is_v2 and not h3_image,
        }
        for w, on in rows.items():
            self.fields.setRowVisible(w, on)
        self.h3image.set_visible(h3_image)
        self.validate()

    def _duration_changed(self) -> None:
        self.validate()  # a legacy model's resolutions per duration: the rules say

    # -- values ---------------------------------------------------------------------------------
    def limit(self) -> int:
        if self.is_h3_image():
            return h3i.PROMPT_MAX
        return (
            v2.PROMPT_MAX
            if self.is_v2()
            else (VIDEO_PROMPT_MAX if self.kind() == "video" else IMAGE_PROMPT_MAX)
        )

    def _v2_params(self, check: bool) -> dict[str, Any]:
        model = self.model_id()
        out: dict[str, Any] = {
            "model": model,
            "prompt": self.prompt.toPlainText(),
            "duration": self.duration.value(),
            "resolution": self.resolution.currentText(),
            "ratio": self.ratio.currentData(),
        }
        if v2.MODELS[model].prompt_expansion:
            out["prompt_expansion"] = self.expansion.currentData()
        for field, picker in (("first_frame_image", self.first), ("last_frame_image", self.last)):
            out[field] = picker.check_value() if check else picker.value()
        out.update(self.references.by_field(check=check))
        return {k: v for k, v in out.items() if v is not None}

    def params(self) -> dict[str, Any]:
        """The raw parameters as the user set them (only fields this kind and model take)."""
        if self.is_v2():
            return self._v2_params(check=False)
        if self.sound.kind() is not None:
            return self.sound.params()
        if self.is_h3_image():
            return self._h3_image_params(check=False)
        out: dict[str, Any] = {
            "model": self.model_id(),
            "prompt": self.prompt.toPlainText(),
            "prompt_optimizer": self.optimizer.isChecked(),
        }
        if self.kind() == "video":
            rule = VIDEO_MODELS.get(self.model_id())
            out["duration"] = self.duration.value()
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

    def _h3_image_params(self, check: bool) -> dict[str, Any]:
        return {
            "model": self.model_id(),
            "prompt": self.prompt.toPlainText(),
            **self.h3image.params(check=check),
        }

    def check_params(self) -> dict[str, Any]:
        """The parameters as the rules check them (local media by their facts)."""
        if self.is_h3_image():
            return self._h3_image_params(check=True)
        return self._v2_params(check=True) if self.is_v2() else self.params()

    def error_text(self) -> str | None:
        """The draft's first problem in words (the budget's refusal included), or None."""
        self._sync()
        problem = self.draft.problem
        if problem is None:
            return None
        return self._problem_text(problem)

    def _problem_text(self, problem: Any) -> str:
        b = self.draft.budget
        return words.draft_problem(
            problem,
            self._field_label(problem.field),
            getattr(b, "currency", "USD"),
            getattr(b, "spent", None),
            translate,
        )

    def _what_if(self, **changes: Any) -> ValidationError | None:
        """Ask the rules whether the draft with ``changes`` would be taken (a prompt assumed)."""
        if self.is_h3_image():
            return what_if(self.check_params(), "image", **changes)
        return what_if(self._v2_params(check=True), **changes)

    def _explain_v2(self) -> None:
        """Enable what the model and the inputs allow; say why the rest is disabled (the
        draft model's answers, from the domain)."""
        model = self.model_id()
        draft = self.draft

        def said(field: str) -> str | None:
            why = draft.why(field)
            return None if why is None else words.unavailable(why, model, translate)

        # prompt expansion: a model feature
        why_exp = said(drafts.EXPANSION)
        self.expansion.setEnabled(why_exp is None and not self._read_only)
        if why_exp and not self._showing:  # not used by this model: it says "off"
            self.expansion.setCurrentIndex(self.expansion.findData("disabled"))
        elif (
            not why_exp
            and not self._showing
            and self.expansion.currentData() == "disabled"
            and self._expansion_forced
        ):
            self.expansion.setCurrentIndex(self.expansion.findData(v2.DEFAULT_EXPANSION))
        self._expansion_forced = bool(why_exp)
        self.expansion.setToolTip(why_exp or "")
        self.expansion_hint.setText(why_exp or "")
        self.expansion_hint.setVisible(bool(why_exp))
        # adaptive ratio: needs a picture or a clip to follow
        adaptive = self.ratio.model().item(self.ratio.findData(v2.ADAPTIVE))
        why_ratio = said(drafts.ADAPTIVE)
        adaptive.setEnabled(why_ratio is None)
        adaptive.setToolTip(why_ratio or "")
        if (
            why_ratio
            and self.ratio.currentData() == v2.ADAPTIVE
            and not self._read_only
            and not self._showing
        ):  # stored parameters are shown as they are
            self.ratio.setCurrentIndex(self.ratio.findData(v2.DEFAULT_RATIO))
        self.ratio.setToolTip(why_ratio or "")
        # or what MiniMax will do instead of the ratio (a frame image sets the shape)
        found = draft.notice("ratio")
        said_ratio = why_ratio or (words.notice(found, translate) if found is not None else "")
        self.ratio_hint.setText(said_ratio)
        self.ratio_hint.setVisible(bool(said_ratio) and not self._read_only)
        # frames and references: one or the other
        why_frames = said(drafts.FIRST)
        why_last = said(drafts.LAST)
        self.first.set_blocked(why_frames)
        self.last.set_blocked(why_last, inline=why_last != why_frames)
        self.references.set_blocked(said(drafts.REFERENCES))

    @property
    def estimator(self) -> Any:
        """``estimator(kind, params)``: the draft's cost (a Result of DraftCost), or None."""
        return self.draft.estimator

    @estimator.setter
    def estimator(self, estimator: Any) -> None:
        self.draft.estimator = estimator

    @property
    def budget(self) -> Any:
        """Today's use of the daily budget (a BudgetReport; its ``limit`` None: no budget)."""
        return self.draft.budget

    def set_budget(self, budget: Any) -> None:
        """Today's budget use (from the status refresh): said beside the draft's cost, and
        checked by the domain's rule before Create."""
        if budget != self.draft.budget:
            self.draft.budget = budget
            if not self._read_only:
                self.validate()

    def reprice(self) -> None:
        """The price table changed: the draft's cost and the budget's verdict again."""
        self.draft.reprice()
        if not self._read_only:
            self.validate()

    def _sync(self) -> None:
        """The draft model follows the widgets (one batch)."""
        self.draft.update(kind=self.kind(), params=self.check_params(), read_only=self._read_only)

    def _show_cost(self) -> None:
        text = ""
        cost = self.draft.cost
        if cost is not None and not self._read_only:
            if cost.estimate is None and self.draft.priced_by == "per_token":
                text = self.tr(
                    "Cost: unknown until the answer — %1 is billed by tokens and MiniMax "
                    "publishes no tokens-per-image rule; the real cost is shown once it is "
                    "reported."
                ).replace("%1", self.model_id())
            else:
                text = words.cost_line(cost, translate)
            text += words.budget_line(self.draft.budget, translate)
        self.cost.setText(text)
        self.cost.setVisible(bool(text))

    def validate(self) -> None:
        if self._filling:
            return
        if self._held:  # clear() checks once, at its end
            self._asked = True
            return
        self._sync()
        if self.sound.kind() is not None:
            self.sound.show_draft(self)
            self._show_cost()
            self.changed.emit()
            return
        text = self.prompt.toPlainText()
        limit = self.limit()
        self.count.setText(f"{len(text)} / {limit}")
        over = len(text) > limit
        self.count.setStyleSheet("font-weight: 600;" if over else "")
        set_tone(self.count, "error" if over else "muted")
        if self.is_v2():
            self._explain_v2()
        else:
            for p in (self.first, self.last, self.subject):
                p.set_blocked(None)
        problem = self.draft.problem
        field = problem.field if problem is not None else None
        self._show_cost()
        hint = (
            problem is not None
            and problem.kind is drafts.ProblemKind.NO_PROMPT
            and (self.kind() == "image" or not self.first.value())
        )
        message = ""
        if problem is not None:
            message = (
                words.draft_problem(problem, "", translate=translate)
                if hint
                else self._problem_text(
                    dataclasses.replace(problem, kind=drafts.ProblemKind.INVALID)
                    if problem.kind is drafts.ProblemKind.NO_PROMPT
                    else problem
                )
            )
        self.error.setObjectName("hint" if hint else "fieldError")
        self.error.style().unpolish(self.error)
        self.error.style().polish(self.error)
        self.error.setText(message)
        self.error.setVisible(bool(message))
        widgets = {
            "prompt": self.prompt,
            "resolution": self.resolution,
            "duration": self.duration.slider,
            "ratio": self.ratio,
            "first_frame_image": self.first.edit,
            "last_frame_image": self.last.edit,
            "subject_reference": self.subject.edit,
            "seed": self.seed,
            "n": self.n,
            "aspect_ratio": self.aspect,
            "model": self.model,
            "reference_image": self.references.list,
            "reference_video": self.references.list,
            "reference_audio": self.references.list,
        }
        if self.is_h3_image():
            widgets.update(self.h3image.field_widgets())
        for name, w in widgets.items():
            _set_invalid(w, name == field and bool(text.strip() or name != "prompt"))
        self.changed.emit()

    def _field_label(self, field: str | None) -> str:
        labels = {
            "prompt": self.tr("Prompt"),
            "resolution": self.tr("Resolution"),
            "duration": self.tr("Duration"),
            "first_frame_image": self.tr("First frame"),
            "last_frame_image": self.tr("Last frame"),
            "subject_reference": self.tr("Subject"),
            "seed": self.tr("Seed"),
            "n": self.tr("Images"),
            "aspect_ratio": self.tr("Aspect ratio"),
            "model": self.tr("Model"),
            "ratio": self.tr("Ratio"),
            "reference_image": self.tr("References"),
            "reference_video": self.tr("References"),
            "reference_audio": self.tr("References"),
            "content": self.tr("References"),
            "size": self.tr("Size"),
            "area": self.tr("Area"),
        }
        if self.sound.kind() is not None:
            labels = self.sound.field_labels()
        return f"{labels[field]}: " if field in labels else ""

    # -- inputs: chosen, dropped, pasted --------------------------------------------------------
    def _field_of(self, target: Any, kind: str) -> str:
        if target is self.first:
            return "first_frame_image"
        if target is self.last:
            return "last_frame_image"
        if target is self.subject:
            return "subject_reference"
        return f"reference_{kind}"

    def take(self, target: Any, sources: list[str], *, name: str | None = None) -> None:
        """Check each dropped, pasted, chosen or fed input and put it into ``target`` (a frame
        picker or the reference list), or say why not. ``name``: what to call it (a result used
        as an input: "last frame of …"); else the file's name."""
        protocol = "v2" if self.is_v2() else self.kind()
        if self.is_h3_image():
            protocol = H3IMAGE_PROTOCOL
        called = name
        for source in sources:
            kind = kind_of_source(source)
            name = called or (
                self.tr("pasted picture") if source.startswith("data:") else Path(source).name
            )
            if kind is None:
                self.refuse(
                    self.tr("%1 is not a picture, a video or a sound clip Slate can use.").replace(
                        "%1", name
                    )
                )
                continue
            if isinstance(target, FramePicker) and kind != "image":
                self.refuse(self.tr("%1: a frame must be a picture.").replace("%1", name))
                continue
            field = self._field_of(target, kind)
            if self.prober is None:
                continue
            rest = sources[sources.index(source) + 1 :] if isinstance(target, ReferenceList) else []

            def arrived(
                got: Any, t: Any = target, n: str | None = called, more: Any = rest
            ) -> None:
                self._arrived(t, got, n)
                if more:  # the next one once this one is in: the list keeps the given order
                    self.take(t, more, name=n)

            self.prober(source, kind, field, protocol, arrived)
            if rest:
                return

    def take_dropped(self, sources: list[str]) -> None:
        """Inputs dropped on the form itself: references where the model takes them (and no
        frame is set), else the first frame, else the last frame."""
        if self._read_only:
            return
        if self.is_h3_image():
            self.take(self.h3image.references, sources)
        elif self.is_v2() and self.references._blocked is None:
            self.take(self.references, sources)
        elif (
            self.fields.isRowVisible(self.first) and self.first.accepting() and not self.first.input
        ):
            self.take(self.first, sources[:1])
        elif self.fields.isRowVisible(self.last) and self.last.accepting():
            self.take(self.last, sources[:1])
        else:
            self.refuse(self.tr("This model takes no pictures here."))

    def _arrived(self, target: Any, got: Any, name: str | None = None) -> None:
        if isinstance(got, ValidationError):
            self.refuse(words.refused_input(got, translate))
            return
        if not isinstance(got, MediaInput):
            self.refuse(self.tr("Not added — %1").replace("%1", str(got)))
            return
        if name:
            got = dataclasses.replace(got, name=name)
        if isinstance(target, ReferenceList):
            field = f"reference_{got.kind}"
            current = target.by_field(check=True).get(field, [])
            if self.is_h3_image():
                err = self._what_if(**{field: [*current, got.check_value()]})
            else:
                err = drafts.refuses_input(
                    self._v2_params(check=True), field, [*current, got.check_value()]
                )
            if err is not None and (err.field.startswith("reference") or err.field == "content"):
                self.refuse(words.refused_input(err, translate))
                return
            target.append(got)
        else:
            target.set_input(got)
        self.refuse("")

    def refuse(self, text: str) -> None:
        self.refused.emit(text)

    def _nothing_to_paste(self) -> None:
        if QGuiApplication.clipboard().mimeData().hasText():
            self.refuse(
                self.tr(
                    "The clipboard holds text, not a picture, so nothing was pasted here. Copy "
                    "an image or an image file (or an https:// link to one), then paste again."
                )
            )
            return
        self.refuse(
            self.tr(
                "Nothing to paste here: the clipboard holds no picture. Copy an image or an "
                "image file (or an https:// link to one), then paste again."
            )
        )

    # -- stored slots ---------------------------------------------------------------------------
    def set_params(self, kind: str, params: dict[str, Any]) -> None:
        """Show stored (normalized) parameters, or a draft's raw ones."""
        self._showing = True
        try:
            self._set_params(kind, params)
        finally:
            self._showing = False
        self.validate()

    def _set_params(self, kind: str, params: dict[str, Any]) -> None:
        if is_sound(kind):
            self.sound.set_params(kind, params)
            return
        (self.image_radio if kind == "image" else self.video_radio).setChecked(True)
        self._fill_models()
        if params.get("model"):
            self.set_model(params["model"])
        self.prompt.setPlainText(params.get("prompt") or "")
        self.optimizer.setChecked(bool(params.get("prompt_optimizer")))
        self.references.set_items([])
        if kind == "video":
            d = params.get("duration")
            if isinstance(d, int):
                self.duration.set_value(d)
            if params.get("resolution"):
                self.resolution.setCurrentText(params["resolution"])
            if self.is_v2():
                self._set_v2_media(params)
            else:
                self.first.set_value(params.get("first_frame_image"))
                self.last.set_value(params.get("last_frame_image"))
        elif self.is_h3_image():
            self.h3image.set_params(params, self.tr("local file"))
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

    def _set_v2_media(self, params: dict[str, Any]) -> None:
        if params.get("ratio"):
            i = self.ratio.findData(params["ratio"])
            if i >= 0:
                self.ratio.setCurrentIndex(i)
        if params.get("prompt_expansion"):
            i = self.expansion.findData(params["prompt_expansion"])
            if i >= 0:
                self.expansion.setCurrentIndex(i)
        self.first.set_value(None)
        self.last.set_value(None)
        refs: list[MediaInput] = []
        content = params.get("content")
        if isinstance(content, list):  # a stored slot: the normalized items
            for item in content:
                kind = v2.KIND_OF_TYPE.get(item.get("type"), "image")
                media = _stored_media(item, kind, self.tr("local file"))
                if item.get("role") == "first_frame":
                    self._show_stored(self.first, media)
                elif item.get("role") == "last_frame":
                    self._show_stored(self.last, media)
                else:
                    refs.append(media)
        else:  # a draft's raw values
            for field, picker in (
                ("first_frame_image", self.first),
                ("last_frame_image", self.last),
            ):
                if isinstance(params.get(field), str):
                    picker.set_value(params[field])
            for field in v2.REFERENCE_FIELDS:
                kind = field.split("_")[1]
                for value in params.get(field) or []:
                    if isinstance(value, str):
                        refs.append(MediaInput(value, kind, Path(value).name or value))
        self.references.set_items(refs)

    @staticmethod
    def _show_stored(picker: FramePicker, media: MediaInput) -> None:
        if media.facts is None:
            picker.set_value(media.value)
        else:
            picker.set_stored(media.summary())

    def set_read_only(self, ro: bool) -> None:
        self._read_only = ro
        self.prompt.setReadOnly(ro)
        self.prompt.setProperty("readOnly", ro)
        self.prompt.style().unpolish(self.prompt)
        self.prompt.style().polish(self.prompt)
        for w in (
            self.image_radio,
            self.video_radio,
            self.model,
            self.duration,
            self.resolution,
            self.aspect,
            self.n,
            self.optimizer,
            self.ratio,
            self.expansion,
        ):
            w.setEnabled(not ro)
        self.seed.setReadOnly(ro)
        for p in (self.first, self.last, self.subject, self.references):
            p.set_read_only(ro)
        self.h3image.set_read_only(ro)
        self.sound.set_read_only(ro)
        self.validate()

    def apply_defaults(self, defaults: Any) -> None:
        """A fresh draft: the user's defaults (``DraftDefaults``: kind, model, duration,
        resolution, ratio; None, or a value the model does not take, keeps the form's own
        default), never the last slot's values."""
        kind = getattr(defaults, "kind", "video") or "video"
        (self.image_radio if kind == "image" else self.video_radio).setChecked(True)
        self._fill_models()  # the kind's first model, with its own defaults
        model = getattr(defaults, "model", None)
        if model and model in self.models():
            self.set_model(model)
        if kind == "video":
            values, default = self._rule_durations()
            self.duration.set_values(values, None, default)
            duration = getattr(defaults, "duration", None)
            if isinstance(duration, int):
                self.duration.set_value(duration)
            res, default_res = self._resolutions()
            resolution = getattr(defaults, "resolution", None)
            self.resolution.setCurrentText(resolution if resolution in res else default_res)
            ratio = getattr(defaults, "ratio", None)
            if self.is_v2() and ratio and self.ratio.findData(ratio) >= 0:
                self.ratio.setCurrentIndex(self.ratio.findData(ratio))
        else:
            self.aspect.setCurrentText(getattr(defaults, "ratio", None) or "1:1")
            self.n.setValue(1)
        self.optimizer.setChecked(kind == "video")
        self.validate()

    def picker(self, field: str) -> FramePicker | ReferenceList:
        """The image input of ``field`` (``first_frame``, ``last_frame``, ``subject_reference``),
        its row shown: a video model that takes it is chosen when the current one does not.
        MiniMax-H3 takes a reference as one of its reference media (the reference list)."""
        picker = {
            "first_frame": self.first,
            "last_frame": self.last,
            "subject_reference": self.subject,
        }[field]
        if self.is_v2() and field == "subject_reference":
            return self.references
        if self.is_h3_image() and field == "subject_reference":
            return self.h3image.references
        if self.kind() == "video":
            allows = {
                "first_frame": "allows_first_frame",
                "last_frame": "allows_last_frame",
                "subject_reference": "needs_subject",
            }[field]
            rule = VIDEO_MODELS.get(self.model_id())
            switch = rule is not None and not getattr(rule, allows)
            if switch:
                for name, other in VIDEO_MODELS.items():
                    if getattr(other, allows):
                        self.set_model(name)
                        break
        return picker

    def clear(self) -> None:
        """Every field emptied, then checked once: each field's change asks for a
        :meth:`validate`, which waits for the last (a window's first draft asked for six)."""
        self._held = True
        self._asked = False
        try:
            self.prompt.clear()
            self.first.set_value(None)
            self.last.set_value(None)
            self.subject.set_value(None)
            self.references.set_items([])
            self.h3image.clear()
            self.seed.clear()
            self.sound.clear()
        finally:
            self._held = False
        if self._asked:
            self.validate()


def _stored_media(item: dict[str, Any], kind: str, local_word: str) -> MediaInput:
    if item.get("url"):
        return MediaInput(item["url"], kind, str(item["url"]).rsplit("/", 1)[-1])
    facts = MediaFacts(
        kind,
        str(item.get("sha256") or ""),
        int(item.get("bytes") or 0),
        str(item.get("format") or ""),
        local_word,
        item.get("width"),
        item.get("height"),
        item.get("seconds"),
    )
    return MediaInput("", kind, local_word, facts)


def today_compact() -> str:
    return dt.date.today().strftime("%Y%m%d")


__all__ = [
    "CreateForm",
    "DurationSlider",
    "FramePicker",
    "ReferenceList",
    "QPushButton",
    "RequestIdComposer",
    "today_compact",
]
