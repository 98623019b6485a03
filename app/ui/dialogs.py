"""Dialogs: conflict (with the parameter diff), recover, settings, and the file choosers.

Dialogs are shown with ``open()`` (window-modal, never a nested event loop) and report through
signals, so they work under qasync and in tests alike.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from app.config import ENV, REGION_URLS
from app.domain.states import RecoverOption, RecoverWay
from app.service.commands import AttachTask, DeclareFailed, Lookup, RecoverHow, Redownload
from app.ui.settings import DraftDefaults, new_slot_choices, new_slot_models
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Qt,
    Signal,
    translate,
)


def _short(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        if value.startswith("data:"):
            return f"(embedded image, {len(value) * 3 // 4 // 1024} KB)"
        return value if len(value) <= 400 else value[:400] + "…"
    return json.dumps(value, ensure_ascii=False, default=str)[:400]


def show_whitespace(value: str) -> str:
    """Make a one-space difference visible: ``·`` for spaces at the ends and doubled spaces."""
    if not isinstance(value, str):
        return value
    return value.replace("  ", "·␣").replace("\n", "⏎\n")


class ConflictDialog(QDialog):
    """The RequestId is taken with other parameters: show what differs, offer a new slot."""

    createAsNew = Signal(str)  # the RequestId to create with the form's parameters

    def __init__(
        self, request_id: str, diff: dict[str, Any], suggested: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("conflictDialog")
        self.setWindowTitle(self.tr("This RequestId is already used"))
        self.setMinimumSize(560, 360)
        intro = QLabel(
            self.tr(
                "<b>%1</b> already holds a task made with other parameters. Nothing was sent and "
                "nothing was charged. Slate never reuses a slot for other parameters: create them "
                "as a new slot instead."
            ).replace("%1", request_id)
        )
        intro.setWordWrap(True)
        self.table = QTreeWidget(objectName="diffTable")
        self.table.setHeaderLabels(
            [self.tr("Parameter"), self.tr("Stored in the slot"), self.tr("In the form")]
        )
        self.table.setRootIsDecorated(False)
        self.table.setWordWrap(True)
        self.table.setUniformRowHeights(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)
        for name, change in diff.items():
            stored, attempted = change.get("stored"), change.get("attempted")
            a, b = _short(stored), _short(attempted)
            if (
                isinstance(stored, str)
                and isinstance(attempted, str)
                and stored.strip() == attempted.strip()
            ):
                a, b = repr(stored)[:400], repr(attempted)[:400]
            import textwrap

            a_wrapped = textwrap.fill(a, 34, drop_whitespace=False, replace_whitespace=False)
            b_wrapped = textwrap.fill(b, 34, drop_whitespace=False, replace_whitespace=False)
            item = QTreeWidgetItem([name, a_wrapped, b_wrapped])
            item.setToolTip(1, a)
            item.setToolTip(2, b)
            self.table.addTopLevelItem(item)
        header = self.table.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, header.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, header.ResizeMode.Stretch)
        header.setSectionResizeMode(2, header.ResizeMode.Stretch)
        self.new_id = QLineEdit(suggested, objectName="suggestedRequestId")
        self.new_id.setAccessibleName(self.tr("New RequestId"))
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("New slot")))
        row.addWidget(self.new_id, 1)
        buttons = QDialogButtonBox()
        self.create_button = buttons.addButton(
            self.tr("Create as new slot"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.create_button.setObjectName("createAsNewButton")
        self.create_button.setProperty("primary", True)
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(self.tr("Keep editing"))
        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addWidget(self.table, 1)
        box.addLayout(row)
        box.addWidget(buttons)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.table.doItemsLayout()  # wrapped values need their rows re-measured at the new width

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.table.doItemsLayout()
        self.create_button.setFocus()  # the one next action (Enter), not a focus frame on the diff

    def _accept(self) -> None:
        rid = self.new_id.text().strip()
        if rid:
            self.createAsNew.emit(rid)
            self.accept()


class RecoverDialog(QDialog):
    """Attach a task id, redownload, or declare failed (reason required). Never creates."""

    recover = Signal(object)  # the RecoverHow for SlateService.recover

    def __init__(
        self,
        request_id: str,
        options: dict[RecoverWay, RecoverOption],
        can_lookup: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("recoverDialog")
        self.setWindowTitle(self.tr("Recover %1").replace("%1", request_id))
        self.setMinimumSize(520, 380)
        intro = QLabel(self.tr("Recover never sends a new create. Choose what you know:"))
        intro.setWordWrap(True)
        self.attach = QRadioButton(
            self.tr("I found the task in the provider console: attach its task id"),
            objectName="attachRadio",
        )
        self.task_id = QLineEdit(
            objectName="taskIdEdit", placeholderText=self.tr("provider task id")
        )
        self.task_id.setAccessibleName(self.tr("Provider task id"))
        self.lookup = QRadioButton(
            self.tr("Look the task up at the provider by its parameters"), objectName="lookupRadio"
        )
        self.redownload = QRadioButton(
            self.tr("Download the results again (fresh link, same task)"),
            objectName="redownloadRadio",
        )
        self.declare = QRadioButton(self.tr("Declare this task failed"), objectName="declareRadio")
        self.reason = QPlainTextEdit(objectName="reasonEdit")
        self.reason.setPlaceholderText(self.tr("Why? (required, kept in the slot's history)"))
        self.reason.setAccessibleName(self.tr("Reason"))
        self.reason.setMaximumHeight(70)
        self.warning = QLabel(
            self.tr(
                "⚠ A charge may already exist at the provider: the create may have been made even "
                "though no answer came back. Declaring it failed does not refund anything."
            ),
            objectName="chargeWarning",
        )
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(
            "color: #8a4b00; background: #fff4e0; border-radius: 6px; padding: 6px;"
        )
        self.error = QLabel(objectName="fieldError")
        attach = options[RecoverWay.ATTACH]
        self.attach.setEnabled(attach.offered)
        self.task_id.setEnabled(attach.offered)
        self.lookup.setEnabled(options[RecoverWay.LOOKUP].offered)
        self.lookup.setVisible(can_lookup)
        self.redownload.setEnabled(options[RecoverWay.REDOWNLOAD].offered)
        self.declare.setEnabled(options[RecoverWay.DECLARE_FAILED].offered)
        if attach.state_allows and not attach.offered:
            self.attach.setToolTip(self.tr("MiniMax cannot query image tasks"))
        for r in (self.attach, self.redownload, self.declare):
            if r.isEnabled():
                r.setChecked(True)
                break

        buttons = QDialogButtonBox()
        self.ok = buttons.addButton(self.tr("Recover"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.ok.setObjectName("recoverOkButton")
        self.ok.setProperty("primary", True)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addWidget(self.attach)
        box.addWidget(self.task_id)
        box.addWidget(self.lookup)
        box.addWidget(self.redownload)
        box.addWidget(self.declare)
        box.addWidget(self.reason)
        box.addWidget(self.warning)
        box.addWidget(self.error)
        box.addWidget(buttons)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        for sig in (
            self.attach.toggled,
            self.declare.toggled,
            self.redownload.toggled,
            self.lookup.toggled,
            self.task_id.textChanged,
            self.reason.textChanged,
        ):
            sig.connect(self._update)
        self._update()

    def _update(self) -> None:
        self.task_id.setEnabled(self.attach.isChecked())
        self.reason.setEnabled(self.declare.isChecked())
        self.warning.setVisible(self.declare.isChecked())
        ok = (
            (self.attach.isChecked() and bool(self.task_id.text().strip()))
            or (self.declare.isChecked() and bool(self.reason.toPlainText().strip()))
            or self.redownload.isChecked()
            or self.lookup.isChecked()
        )
        self.ok.setEnabled(ok)
        if self.declare.isChecked() and not self.reason.toPlainText().strip():
            self.error.setText(self.tr("A reason is required."))
        elif self.attach.isChecked() and not self.task_id.text().strip():
            self.error.setText(self.tr("Paste the task id from the provider console."))
        else:
            self.error.setText("")

    def how(self) -> RecoverHow | None:
        if self.attach.isChecked() and self.task_id.text().strip():
            return AttachTask(self.task_id.text().strip())
        if self.declare.isChecked() and self.reason.toPlainText().strip():
            return DeclareFailed(self.reason.toPlainText().strip())
        if self.redownload.isChecked():
            return Redownload()
        if self.lookup.isChecked():
            return Lookup()
        return None

    def _accept(self) -> None:
        how = self.how()
        if how is not None:
            self.recover.emit(how)
            self.accept()


class SettingsDialog(QDialog):
    """API key (keyring; never shown back), region, tenant, user, quotas, poll interval, paths.

    An empty key field keeps the stored key; only "Remove stored key" deletes it. ``check`` (the
    window's) validates the values before the dialog closes, so a typo is said next to the fields.
    Fields that a flag or an environment variable fixed for this run are shown read-only.
    """

    applied = Signal(
        dict
    )  # the values; "api_key" when a new one was typed, "clear_api_key" to remove it
    pricesWanted = Signal()  # "Prices…": the price table and the designer's own prices

    def __init__(
        self,
        values: dict[str, Any],
        key_source: str,
        parent: QWidget | None = None,
        *,
        fixed: set[str] | frozenset[str] = frozenset(),
        check: Callable[[dict[str, Any]], str | None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumSize(560, 400)
        self._check = check
        self._key_source = key_source
        self._clear_key = False
        self.api_key = QLineEdit(objectName="apiKeyEdit")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setAccessibleName(self.tr("MiniMax API key"))
        self.remove_key = QPushButton(self.tr("Remove stored key"), objectName="removeKeyButton")
        self.remove_key.setToolTip(
            self.tr(
                "Delete the key from the system keyring when you save "
                "(Slate then uses the demo provider)."
            )
        )
        self.remove_key.setVisible(key_source == "keyring")
        self.remove_key.clicked.connect(self._toggle_remove)
        krow = QHBoxLayout()
        krow.addWidget(self.api_key, 1)
        krow.addWidget(self.remove_key)
        self.region = QComboBox(objectName="regionCombo")
        self.region.addItem(self.tr("Global (api.minimax.io)"), "global")
        self.region.addItem(self.tr("China (api.minimaxi.com)"), "cn")
        self.region.setCurrentIndex(max(0, self.region.findData(values.get("region") or "global")))
        self.tenant = QLineEdit(values.get("tenant") or "", objectName="tenantEdit")
        self.user = QLineEdit(values.get("user") or "", objectName="userEdit")
        self.quota_video = QSpinBox(objectName="quotaVideoSpin", minimum=0, maximum=100000)
        self.quota_image = QSpinBox(objectName="quotaImageSpin", minimum=0, maximum=100000)
        for spin, key in ((self.quota_video, "quota_video"), (self.quota_image, "quota_image")):
            spin.setSpecialValueText(self.tr("no limit"))
            spin.setValue(int(values.get(key) or 0))
        self.budget = QLineEdit(str(values.get("budget_daily") or ""), objectName="budgetEdit")
        self.budget.setPlaceholderText(self.tr("no budget"))
        self.budget.setToolTip(
            self.tr(
                "The most you want to spend per day, in the price table's "
                "currency (e.g. 5.00). A create that would go over it is "
                "refused before anything is sent."
            )
        )
        self.poll = QDoubleSpinBox(objectName="pollSpin", minimum=0.0, maximum=600.0, decimals=1)
        self.poll.setSpecialValueText(self.tr("provider default"))
        self.poll.setSuffix(self.tr(" s"))
        self.poll.setValue(float(values.get("poll_interval") or 0.0))
        self.data_dir = QLineEdit(str(values.get("data_dir") or ""), objectName="dataDirEdit")
        self.browse = QPushButton(self.tr("Choose…"), objectName="dataDirButton")
        self.browse.clicked.connect(self._browse)
        drow = QHBoxLayout()
        drow.addWidget(self.data_dir, 1)
        drow.addWidget(self.browse)
        self.store = QLineEdit(str(values.get("store") or ""), objectName="storeEdit")
        self.store.setPlaceholderText(self.tr("default: SQLite in the data folder"))
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.tr("API key"), krow)
        form.addRow(self.tr("Region"), self.region)
        form.addRow(self.tr("Team"), self.tenant)
        form.addRow(self.tr("Designer"), self.user)
        form.addRow(self.tr("Videos per day"), self.quota_video)
        form.addRow(self.tr("Images per day"), self.quota_image)
        self.prices_button = QPushButton(self.tr("Prices…"), objectName="pricesButton")
        self.prices_button.setToolTip(
            self.tr("What each create counts at, and your own prices for models without one.")
        )
        self.prices_button.clicked.connect(self.pricesWanted)
        brow = QHBoxLayout()
        brow.addWidget(self.budget, 1)
        brow.addWidget(self.prices_button)
        form.addRow(self.tr("Daily budget"), brow)
        form.addRow(self.tr("Query every"), self.poll)
        form.addRow(self.tr("Data folder"), drow)
        form.addRow(self.tr("Database"), self.store)
        self.notify = QCheckBox(
            self.tr("Tell me when a slot I started is done, failed or unknown"),
            objectName="notifyCheck",
        )
        self.notify.setChecked(bool(values.get("notify_finished", True)))
        self.notify.setAccessibleName(self.tr("Notifications"))
        form.addRow(self.tr("Notifications"), self.notify)
        self.theme = QComboBox(objectName="themeChoice")
        self.theme.addItem(self.tr("Follow the system"), "system")
        self.theme.addItem(self.tr("Light"), "light")
        self.theme.addItem(self.tr("Dark"), "dark")
        self.theme.setCurrentIndex(max(0, self.theme.findData(values.get("theme", "system"))))
        self.theme.setAccessibleName(self.tr("Theme"))
        form.addRow(self.tr("Theme"), self.theme)
        self.language = QComboBox(objectName="languageChoice")
        self.language.addItem(self.tr("Follow the system"), "system")
        for code, name in (("en", "English"), ("zh_CN", "简体中文")):  # each in its own words
            self.language.addItem(name, code)
        self.language.setCurrentIndex(
            max(0, self.language.findData(values.get("language", "system")))
        )
        self.language.setAccessibleName(self.tr("Language"))
        form.addRow(self.tr("Language"), self.language)
        # What a fresh slot starts from (not the last slot's values)
        defaults = values.get("draft_defaults")
        self.default_kind = QComboBox(objectName="defaultKind")
        self.default_kind.addItem(self.tr("Video"), "video")
        self.default_kind.addItem(self.tr("Image"), "image")
        self.default_model = QComboBox(objectName="defaultModel")
        self.default_duration = QComboBox(objectName="defaultDuration")
        self.default_resolution = QComboBox(objectName="defaultResolution")
        self.default_ratio = QComboBox(objectName="defaultRatio")
        self._saved_defaults = defaults
        self._defaults_shown = False  # until then each choice shows the saved value if offered
        self.default_kind.currentIndexChanged.connect(self._default_kind_changed)
        self.default_model.currentIndexChanged.connect(self._default_model_changed)
        kind = getattr(defaults, "kind", "video") or "video"
        self.default_kind.setCurrentIndex(self.default_kind.findData(kind))
        self._default_kind_changed()
        model = getattr(defaults, "model", None)
        if model and self.default_model.findText(model) >= 0:
            self.default_model.setCurrentText(model)
        self._defaults_shown = True
        drow = QHBoxLayout()
        drow.addWidget(self.default_kind)
        drow.addWidget(self.default_model, 1)
        form.addRow(self.tr("New slots start as"), drow)
        prow = QHBoxLayout()
        prow.addWidget(self.default_duration)
        prow.addWidget(self.default_resolution)
        prow.addWidget(self.default_ratio)
        prow.addStretch(1)
        form.addRow("", prow)
        self.default_kind.setAccessibleName(self.tr("New slots: kind"))
        self.default_model.setAccessibleName(self.tr("New slots: model"))
        self.default_duration.setAccessibleName(self.tr("New slots: duration"))
        self.default_resolution.setAccessibleName(self.tr("New slots: resolution"))
        self.default_ratio.setAccessibleName(self.tr("New slots: aspect ratio"))
        # Literal self.tr() calls, one per name, so lupdate finds every one of them.
        self.region.setAccessibleName(self.tr("Region"))
        self.tenant.setAccessibleName(self.tr("Team"))
        self.user.setAccessibleName(self.tr("Designer"))
        self.quota_video.setAccessibleName(self.tr("Videos per day"))
        self.quota_image.setAccessibleName(self.tr("Images per day"))
        self.poll.setAccessibleName(self.tr("Query interval"))
        self.budget.setAccessibleName(self.tr("Daily budget"))
        self.data_dir.setAccessibleName(self.tr("Data folder"))
        self.store.setAccessibleName(self.tr("Database"))
        self.fields = {
            "region": self.region,
            "tenant": self.tenant,
            "user": self.user,
            "quota_video": self.quota_video,
            "quota_image": self.quota_image,
            "poll_interval": self.poll,
            "data_dir": self.data_dir,
            "store": self.store,
            "budget_daily": self.budget,
        }
        for name in fixed:
            widget = self.fields.get("region" if name in ("base_url", "provider") else name)
            if widget is None:
                continue
            widget.setEnabled(False)
            widget.setToolTip(
                self.tr("Set for this run by %1 or a command-line option.").replace(
                    "%1", ENV.get(name, "SLATE_" + name.upper())
                )
            )
            if widget is self.data_dir:
                self.browse.setEnabled(False)
        self.error = QLabel(objectName="fieldError")
        self.error.setWordWrap(True)
        self.error.hide()
        note = QLabel(
            self.tr(
                "The key is kept in the system keyring and never shown again. "
                "Changes apply at once; running tasks continue."
            ),
            objectName="hint",
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("saveSettingsButton")
        self.save_button.setProperty("primary", True)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(note)
        box.addStretch(1)
        box.addWidget(buttons)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        self._update_key_hint()

    def _default_kind_changed(self, *_: Any) -> None:
        video = self.default_kind.currentData() == "video"
        keep = self.default_model.currentText()
        self.default_model.blockSignals(True)
        self.default_model.clear()
        self.default_model.addItems(list(new_slot_models(str(self.default_kind.currentData()))))
        if self.default_model.findText(keep) >= 0:
            self.default_model.setCurrentText(keep)
        self.default_model.blockSignals(False)
        for w in (self.default_duration, self.default_resolution):
            w.setVisible(video)
        self.default_ratio.setVisible(not video)
        self._default_model_changed()

    def _default_model_changed(self, *_: Any) -> None:
        """The chosen model's durations, resolutions and ratios; each shows the saved default
        when the model offers it, else what a new slot of that model starts at — never a value
        the new slot would not have."""
        choices = new_slot_choices(
            str(self.default_kind.currentData()), self.default_model.currentText() or None
        )
        saved = self._saved_defaults
        for combo, values, start, name in (
            (self.default_duration, choices.durations, choices.duration, "duration"),
            (self.default_resolution, choices.resolutions, choices.resolution, "resolution"),
            (self.default_ratio, choices.ratios, choices.ratio, "ratio"),
        ):
            keep = combo.currentData() if self._defaults_shown else getattr(saved, name, None)
            combo.blockSignals(True)
            combo.clear()
            for v in values:
                label = self.tr("%1 s").replace("%1", str(v)) if name == "duration" else str(v)
                combo.addItem(label, v)
            i = combo.findData(keep)
            combo.setCurrentIndex(i if i >= 0 else combo.findData(start))
            combo.blockSignals(False)

    def draft_defaults(self) -> DraftDefaults:
        """What a fresh slot starts from, as chosen here."""
        video = self.default_kind.currentData() == "video"
        return DraftDefaults(
            kind=str(self.default_kind.currentData()),
            model=self.default_model.currentText() or None,
            duration=self.default_duration.currentData() if video else None,
            resolution=self.default_resolution.currentData() if video else None,
            ratio=None if video else self.default_ratio.currentData(),
        )

    def _update_key_hint(self) -> None:
        if self._clear_key:
            text = self.tr("the stored key will be removed when you save")
        elif self._key_source == "keyring":
            text = self.tr("a key is stored in the keyring; type to replace it")
        elif self._key_source == "env":
            text = self.tr("the key comes from MINIMAX_API_KEY")
        else:
            text = self.tr("no key yet: the demo provider is used")
        self.api_key.setPlaceholderText(text)
        self.api_key.setEnabled(not self._clear_key)
        self.remove_key.setText(
            self.tr("Keep stored key") if self._clear_key else self.tr("Remove stored key")
        )

    def _toggle_remove(self) -> None:
        self._clear_key = not self._clear_key
        if self._clear_key:
            self.api_key.clear()
        self._update_key_hint()

    def _browse(self) -> None:
        dlg = QFileDialog(self, self.tr("Data folder"), self.data_dir.text())
        dlg.setFileMode(QFileDialog.FileMode.Directory)
        dlg.fileSelected.connect(self.data_dir.setText)
        dlg.open()

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "region": self.region.currentData(),
            "tenant": self.tenant.text().strip(),
            "user": self.user.text().strip(),
            "quota_video": self.quota_video.value() or None,
            "quota_image": self.quota_image.value() or None,
            "poll_interval": self.poll.value() or None,
            "data_dir": self.data_dir.text().strip(),
            "store": self.store.text().strip(),
            "budget_daily": self.budget.text().strip() or None,
            "notify_finished": self.notify.isChecked(),
            "theme": self.theme.currentData(),
            "language": self.language.currentData(),
            "draft_defaults": self.draft_defaults(),
        }
        if self.api_key.text().strip():
            out["api_key"] = self.api_key.text().strip()
        elif self._clear_key:
            out["clear_api_key"] = True
        return out

    def _accept(self) -> None:
        values = self.values()
        err = self._check(values) if self._check is not None else None
        if err:
            self.error.setText(err)
            self.error.show()
            return
        self.applied.emit(values)
        self.api_key.clear()
        self.accept()


EXPORT_TO = QT_TRANSLATE_NOOP("MainWindow", "Export to folder")
CHOOSE_IMAGE = QT_TRANSLATE_NOOP("MainWindow", "Choose an image")
IMAGE_FILES = QT_TRANSLATE_NOOP("MainWindow", "Images (*.png *.jpg *.jpeg *.webp *.heic *.heif)")
CHOOSE_MEDIA = QT_TRANSLATE_NOOP("MainWindow", "Choose a reference picture, video or sound")
MEDIA_FILES = QT_TRANSLATE_NOOP(
    "MainWindow", "Media (*.png *.jpg *.jpeg *.webp *.heic *.heif *.mp4 *.mov *.wav *.mp3)"
)


def folder_dialog(parent: QWidget, done: Callable[[str], Any]) -> QFileDialog:
    """A folder chooser for exports (open it with ``open()``): ``done(path)`` once chosen."""
    dlg = QFileDialog(parent, translate("MainWindow", EXPORT_TO), str(Path.home()))
    dlg.setFileMode(QFileDialog.FileMode.Directory)
    dlg.setOption(QFileDialog.Option.ShowDirsOnly, True)
    dlg.fileSelected.connect(done)
    return dlg


def image_dialog(parent: QWidget, done: Callable[[str], Any]) -> QFileDialog:
    """An image file chooser (open it with ``open()``): ``done(path)`` once chosen."""
    dlg = QFileDialog(
        parent,
        translate("MainWindow", CHOOSE_IMAGE),
        str(Path.home()),
        translate("MainWindow", IMAGE_FILES),
    )
    dlg.setFileMode(QFileDialog.FileMode.ExistingFile)
    dlg.fileSelected.connect(done)
    return dlg


def media_dialog(parent: QWidget, done: Callable[[str], Any]) -> QFileDialog:
    """A chooser for a reference picture, video or sound clip: ``done(path)`` once chosen."""
    dlg = QFileDialog(
        parent,
        translate("MainWindow", CHOOSE_MEDIA),
        str(Path.home()),
        translate("MainWindow", MEDIA_FILES),
    )
    dlg.setFileMode(QFileDialog.FileMode.ExistingFile)
    dlg.fileSelected.connect(done)
    return dlg


__all__ = [
    "ConflictDialog",
    "QCheckBox",
    "REGION_URLS",
    "RecoverDialog",
    "SettingsDialog",
    "Qt",
    "folder_dialog",
    "image_dialog",
    "media_dialog",
]
