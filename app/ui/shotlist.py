"""Shot lists in the app: "Import shot list…" opens a review of the dry run, row by row, with
the total cost and the budget that would remain; "Create all" then submits the new rows. A
template makes scenes NN–MM of a project from one prompt with per-scene edits, and can be
reviewed the same way or saved as a shot list.

The rules are the service's and the domain's: :meth:`SlateService.plan_batch` (the dry run:
nothing stored, nothing sent; a row with exactly another slot's settings is a twin, named),
:meth:`SlateService.run_batch` (each row through the ordinary submit, so a row already made is
replayed and a changed one is a conflict; twins only once the designer said so in
:class:`TwinRowsConfirm`),
:func:`app.domain.templates.scene_rows` and :func:`app.domain.shotlist.write`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import shiboken6

from app.domain.cost import Cost, format_money, sum_costs
from app.domain.errors import ValidationError
from app.domain.shotlist import ShotList, write
from app.domain.states import IN_FLIGHT
from app.domain.templates import SceneEdit, scene_rows
from app.service.results import BatchProgress, BatchReport, BatchRow, OutcomeKind
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QAbstractItemView,
    QColor,
    QComboBox,
    QDate,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QEvent,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSize,
    QSpinBox,
    QTimer,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Qt,
    Signal,
    translate,
)
from app.ui.style import current
from app.ui.twin import how_far, scene

#: What the dry run predicts for a row, in a designer's words.
PLANNED = {
    OutcomeKind.CREATED: QT_TRANSLATE_NOOP("ShotList", "new — will be created"),
    OutcomeKind.REPLAYED: QT_TRANSLATE_NOOP("ShotList", "already made — nothing sent"),
    OutcomeKind.CONFLICT: QT_TRANSLATE_NOOP("ShotList", "conflict — exists with other settings"),
    OutcomeKind.INVALID: QT_TRANSLATE_NOOP("ShotList", "can't be made"),
    OutcomeKind.QUOTA_EXCEEDED: QT_TRANSLATE_NOOP("ShotList", "over today's quota"),
    OutcomeKind.BUDGET_EXCEEDED: QT_TRANSLATE_NOOP("ShotList", "over today's budget"),
    OutcomeKind.UNKNOWN: QT_TRANSLATE_NOOP("ShotList", "outcome unknown — recover it first"),
    OutcomeKind.REJECTED: QT_TRANSLATE_NOOP("ShotList", "refused by the provider"),
    OutcomeKind.TWIN: QT_TRANSLATE_NOOP("ShotList", "same settings as %1"),
}
#: What a run answered for a row.
DONE = {
    OutcomeKind.CREATED: QT_TRANSLATE_NOOP("ShotList", "created"),
    OutcomeKind.REPLAYED: QT_TRANSLATE_NOOP("ShotList", "already made"),
}
#: The theme colour (a field of ``style.Theme``, text on a list's panel) of each outcome's word.
INKS = {
    OutcomeKind.CREATED: "title_success",
    OutcomeKind.REPLAYED: "muted",
    OutcomeKind.CONFLICT: "warning",
    OutcomeKind.INVALID: "error",
    OutcomeKind.QUOTA_EXCEEDED: "error",
    OutcomeKind.BUDGET_EXCEEDED: "error",
    OutcomeKind.UNKNOWN: "warning",
    OutcomeKind.REJECTED: "error",
    OutcomeKind.TWIN: "warning",
}


def outcome_ink(outcome: OutcomeKind) -> QColor:
    """The colour of an outcome's word in the review, in the current theme."""
    theme = current()
    return QColor(getattr(theme, INKS.get(outcome, "ink")))


COLUMNS = (
    QT_TRANSLATE_NOOP("ShotList", "Row"),
    QT_TRANSLATE_NOOP("ShotList", "Slot"),
    QT_TRANSLATE_NOOP("ShotList", "Kind"),
    QT_TRANSLATE_NOOP("ShotList", "What happens"),
    QT_TRANSLATE_NOOP("ShotList", "Cost"),
    QT_TRANSLATE_NOOP("ShotList", "Why"),
)


PRICE_UNKNOWN = QT_TRANSLATE_NOOP("ShotList", "price unknown")
PROMPT_LINE = QT_TRANSLATE_NOOP("ShotList", "Prompt: %1")
ABOUT = QT_TRANSLATE_NOOP("ShotList", "about %1")


def _tr(text: str) -> str:
    return translate("ShotList", text)


def cost_text(cost: Cost | None) -> str:
    if cost is None:
        return ""
    if cost.estimate is None:
        return _tr(PRICE_UNKNOWN)
    return _tr(ABOUT).replace("%1", format_money(cost.estimate, cost.currency))


KIND_WORDS = {
    "video": QT_TRANSLATE_NOOP("ShotList", "video"),
    "image": QT_TRANSLATE_NOOP("ShotList", "image"),
    "music": QT_TRANSLATE_NOOP("ShotList", "music"),
    "speech": QT_TRANSLATE_NOOP("ShotList", "voice line"),
    "voice": QT_TRANSLATE_NOOP("ShotList", "designed voice"),
}
#: prompt_expansion's modes as the form says them (its CreateForm words)
MODE_WORDS = {"disabled": "off", "balanced": "balanced", "quality": "best quality"}
CHANGED = QT_TRANSLATE_NOOP("ShotList", "this slot exists with another %1; nothing is sent")
TWIN_SLOT = QT_TRANSLATE_NOOP(
    "ShotList", "%1 already has exactly these settings (%2); creating this row pays again"
)
TWIN_ROW = QT_TRANSLATE_NOOP(
    "ShotList", "row %1 (%2) has exactly these settings; creating both pays twice"
)
#: The confirm before Create sends rows with another slot's settings (TwinRowsConfirm).
TWINS_TITLE = QT_TRANSLATE_NOOP("ShotList", "Same settings as other slots")
TWINS_TEXT = QT_TRANSLATE_NOOP("ShotList", "These rows have exactly another slot's settings: %1.")
TWIN_PAIR = QT_TRANSLATE_NOOP("ShotList", "%1 as %2")
TWINS_PRICE = QT_TRANSLATE_NOOP("ShotList", "Creating them makes and pays for each again — %1.")
TWINS_CREATE = QT_TRANSLATE_NOOP("ShotList", "Create them too")
TWINS_SKIP = QT_TRANSLATE_NOOP("ShotList", "Only the other %1 new")
TWINS_CANCEL = QT_TRANSLATE_NOOP("ShotList", "Cancel")


def planned_word(row: BatchRow) -> str:
    """What the dry run predicts for ``row``, in a designer's words."""
    word = _tr(PLANNED.get(row.outcome, row.outcome.value))
    if row.outcome is OutcomeKind.TWIN and row.twin is not None:
        word = word.replace("%1", scene(row.twin.request_id))
    return word


def why(row: BatchRow) -> str:
    p = row.problem
    if p is None:
        return ""
    if row.outcome is OutcomeKind.TWIN and row.twin is not None:
        twin = row.twin
        if twin.row is not None and twin.state in IN_FLIGHT:
            return _tr(TWIN_ROW).replace("%1", str(twin.row)).replace("%2", scene(twin.request_id))
        return (
            _tr(TWIN_SLOT).replace("%1", scene(twin.request_id)).replace("%2", how_far(twin.state))
        )
    if row.outcome is OutcomeKind.CONFLICT and p.diff:
        return _tr(CHANGED).replace("%1", ", ".join(p.diff))
    return p.message  # the row is its own column: the message does not repeat it


class ShotListDialog(QDialog):
    """The dry run's review of a shot list (a file or a template's rows) and Create all."""

    created = Signal(list)  # the RequestIds the run created

    def __init__(
        self,
        controller: Any,
        source: Any,
        base_dir: Path | None = None,
        title: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("shotListDialog")
        self.setWindowTitle(
            self.tr("Shot list: %1").replace("%1", title) if title else self.tr("Shot list")
        )
        self.setMinimumSize(640, 420)
        self.resize(900, 560)  # room for the reasons and the prompts
        self.controller = controller
        self.source = source
        self.base_dir = base_dir
        self.report: BatchReport | None = None
        self.result: BatchReport | None = None
        self.items: dict[str, QTreeWidgetItem] = {}
        self.heading = QLabel(
            self.tr("Checking every row (nothing is sent)…"), objectName="shotListHeading"
        )
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-weight: 600;")
        self.table = QTreeWidget(objectName="shotListTable")
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels([_tr(c) for c in COLUMNS])
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.header().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        # a long reason wraps in its column, never cut to "…"; each row's prompt on a line
        # of its own beneath it
        self.table.setWordWrap(True)
        self.table.setUniformRowHeights(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.table.setIndentation(0)
        self.table.setItemsExpandable(False)
        self.table.header().sectionResized.connect(lambda col, _old, _new: self._fit_reasons(col))
        self.table.header().geometriesChanged.connect(lambda: self._fit_reasons(5))
        self.table.viewport().installEventFilter(self)
        self.table.setAccessibleName(self.tr("Rows of the shot list"))
        self.totals = QLabel(objectName="shotListTotals")
        self.totals.setWordWrap(True)
        self.budget = QLabel(objectName="shotListBudget")
        self.budget.setWordWrap(True)
        buttons = QDialogButtonBox()
        self.create_button = buttons.addButton(
            self.tr("Create all"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.create_button.setObjectName("createAllButton")
        self.create_button.setProperty("primary", True)
        self.create_button.setEnabled(False)
        self.close_button = buttons.addButton(
            self.tr("Close"), QDialogButtonBox.ButtonRole.RejectRole
        )
        box = QVBoxLayout(self)
        box.addWidget(self.heading)
        box.addWidget(self.table, 1)
        box.addWidget(self.totals)
        box.addWidget(self.budget)
        box.addWidget(buttons)
        self.create_button.clicked.connect(self.create_all)
        self.close_button.clicked.connect(self.reject)
        controller.taskChanged.connect(self._task_changed)
        controller.plan_batch(source, base_dir, self._planned)

    # -- the dry run ----------------------------------------------------------------------------
    def _planned(self, out: Any) -> None:
        report = out.payload
        if not isinstance(report, BatchReport):
            msg = out.problem.message if out.problem else ""
            self.heading.setText(self.tr("This shot list cannot be read: %1").replace("%1", msg))
            return
        self.report = report
        self.table.clear()
        self.items.clear()
        for row in report.rows:
            kind = _tr(KIND_WORDS[row.kind]) if row.kind in KIND_WORDS else (row.kind or "")
            item = QTreeWidgetItem(
                [
                    str(row.row),
                    row.request_id or "—",
                    kind,
                    planned_word(row),
                    cost_text(row.cost)
                    if row.outcome in (OutcomeKind.CREATED, OutcomeKind.TWIN)
                    else "",
                    why(row),
                ]
            )
            item.setForeground(3, outcome_ink(row.outcome))
            item.setToolTip(5, why(row))
            item.setData(0, 256, row.outcome.value)  # Qt.UserRole
            self.table.addTopLevelItem(item)
            if row.prompt:
                line = QTreeWidgetItem(item, [_tr(PROMPT_LINE).replace("%1", row.prompt)])
                line.setForeground(0, QColor(current().muted))
                line.setToolTip(0, row.prompt)
                line.setFlags(Qt.ItemFlag.ItemIsEnabled)
                self.table.setFirstColumnSpanned(0, self.table.indexFromItem(item), True)
                item.setExpanded(True)
            if row.request_id:
                self.items[row.request_id] = item
        for col in range(5):
            self.table.resizeColumnToContents(col)
        self._fit_reasons(5)
        counts = report.counts
        new, twins = counts.get("created", 0), counts.get("twin", 0)
        cannot = len(report.rows) - new - twins - counts.get("replayed", 0)
        cannot -= counts.get("conflict", 0)
        heading = self.tr("%1 rows: %2 new, %3 already made, %4 conflicts, %5 can't be made.")
        if twins:
            heading = self.tr(
                "%1 rows: %2 new, %6 with another slot's settings, %3 already made, "
                "%4 conflicts, %5 can't be made."
            ).replace("%6", str(twins))
        self.heading.setText(
            heading.replace("%1", str(len(report.rows)))
            .replace("%2", str(new))
            .replace("%3", str(counts.get("replayed", 0)))
            .replace("%4", str(counts.get("conflict", 0)))
            .replace("%5", str(cannot))
        )
        self.totals.setText(
            self.tr("Creating the new rows costs %1.").replace(
                "%1", cost_text(report.cost) or self.tr("nothing")
            )
        )
        self.budget.setText(self._budget_text(report))
        self.create_button.setEnabled(new + twins > 0)
        self.create_button.setText(
            self.tr("Create %1 new").replace("%1", str(new + twins))
            if new + twins
            else self.tr("Create all")
        )

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        if obj is self.table.viewport() and event.type() == QEvent.Type.Resize:
            # once the Why column has its width (and only while the dialog lives)
            QTimer.singleShot(0, lambda: shiboken6.isValid(self) and self._fit_reasons(5))
        return super().eventFilter(obj, event)

    def _fit_reasons(self, column: int) -> None:
        """Each row as tall as its reason wrapped in the Why column (Qt's word wrap alone keeps
        rows one line high, and the reason ends in "…")."""
        if column != 5:
            return
        width = max(40, self.table.header().sectionSize(5) - 12)
        fm = self.table.fontMetrics()
        flags = int(Qt.TextFlag.TextWordWrap)
        for i in range(self.table.topLevelItemCount()):
            item = self.table.topLevelItem(i)
            text = item.text(5)
            lines = fm.boundingRect(0, 0, width, 100_000, flags, text).height() if text else 0
            item.setSizeHint(5, QSize(width, max(fm.height(), lines) + 6))
        self.table.doItemsLayout()  # the rows take their new heights now

    def _budget_text(self, report: BatchReport) -> str:
        b = report.budget
        q = report.quota
        quota = []
        for used_words, use in (
            (self.tr("%1 of %2 videos used"), q.video),
            (self.tr("%1 of %2 images used"), q.image),
        ):
            if use.limit is not None:
                quota.append(used_words.replace("%1", str(use.used)).replace("%2", str(use.limit)))
        parts = []
        if b is None or b.limit is None:
            parts.append(self.tr("No daily budget is set."))
        else:
            left = b.remaining
            parts.append(
                self.tr("Budget left today after these: %1 of %2.")
                .replace(
                    "%1", format_money(left, b.currency) if left is not None else self.tr("unknown")
                )
                .replace("%2", format_money(b.limit, b.currency))
            )
        if quota:
            parts.append(self.tr("Quota after these: %1.").replace("%1", ", ".join(quota)))
        return " ".join(parts)

    # -- the run ----------------------------------------------------------------------------------
    #: The confirm on screen while rows with another slot's settings are asked about.
    twins_dialog: Any = None

    def create_all(self) -> None:
        if self.report is None or not self.create_button.isEnabled():
            return
        twins = [r for r in self.report.rows if r.outcome is OutcomeKind.TWIN]
        self.create_button.setEnabled(False)
        if not twins:
            self._run(allow_twins=False)
            return
        others = self.report.counts.get("created", 0)
        dlg = self.twins_dialog = TwinRowsConfirm(twins, others, self.report.cost.currency, self)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(_result: int) -> None:
            self.twins_dialog = None
            clicked = dlg.clickedButton()
            if clicked is dlg.create_too:
                self._run(allow_twins=True)
            elif dlg.only_others is not None and clicked is dlg.only_others:
                self._run(allow_twins=False)
            else:
                self.create_button.setEnabled(True)  # nothing sent; ask again on the next click

        dlg.finished.connect(chosen)
        dlg.open()

    def _run(self, allow_twins: bool) -> None:
        self.heading.setText(self.tr("Creating the new rows…"))
        self.controller.run_batch(
            self.source, self.base_dir, self._progress, self._ran, allow_twins=allow_twins
        )

    def _progress(self, event: BatchProgress) -> None:
        item = self.items.get(event.request_id or "")
        if item is None:
            return
        if event.outcome is OutcomeKind.TWIN:
            item.setData(0, 256, event.outcome.value)  # not created: the review's words stay
        elif event.outcome is not None:
            word = DONE.get(event.outcome) or PLANNED.get(event.outcome, event.outcome.value)
            item.setText(3, _tr(word))
            item.setData(0, 256, event.outcome.value)
        elif event.state is not None:
            item.setText(3, self._state_word(event.state))

    def _state_word(self, state: Any) -> str:
        from app.ui.style import state_word

        return state_word(state)

    def _task_changed(self, view: Any) -> None:
        if self.result is None:
            return
        item = self.items.get(view.request_id)
        if item is not None and item.data(0, 256) in ("created", "replayed"):
            item.setText(3, self._state_word(view.state))

    def _ran(self, out: Any) -> None:
        report = out.payload
        if not isinstance(report, BatchReport):
            msg = out.problem.message if out.problem else ""
            self.heading.setText(self.tr("The shot list was not run: %1").replace("%1", msg))
            return
        self.result = report
        made = [
            r.request_id for r in report.rows if r.outcome is OutcomeKind.CREATED and r.request_id
        ]
        for r in report.rows:
            item = self.items.get(r.request_id or "")
            if item is not None and r.task is not None:
                item.setText(3, self._state_word(r.task.state))
                item.setData(0, 256, r.outcome.value)
        self.heading.setText(
            self.tr("%1 slots created; they continue in the slot list.").replace(
                "%1", str(len(made))
            )
        )
        self.created.emit(made)


class TwinRowsConfirm(QMessageBox):
    """Asks before rows with exactly another slot's (or an earlier row's) settings are created
    and paid for again: create them too, only the other new rows, or nothing yet."""

    def __init__(
        self, twins: list[BatchRow], others: int, currency: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("twinRowsConfirm")
        self.setWindowTitle(_tr(TWINS_TITLE))
        self.setIcon(QMessageBox.Icon.Question)
        pairs = ", ".join(
            _tr(TWIN_PAIR)
            .replace("%1", scene(r.request_id or ""))
            .replace("%2", scene(r.twin.request_id))
            for r in twins
            if r.twin is not None
        )
        self.setText(_tr(TWINS_TEXT).replace("%1", pairs))
        self.setInformativeText(
            _tr(TWINS_PRICE).replace(
                "%1", cost_text(sum_costs([r.cost for r in twins if r.cost], currency))
            )
        )
        self.create_too = self.addButton(_tr(TWINS_CREATE), QMessageBox.ButtonRole.AcceptRole)
        self.create_too.setObjectName("twinRowsCreate")
        self.only_others: Any = None
        if others:
            self.only_others = self.addButton(
                _tr(TWINS_SKIP).replace("%1", str(others)),
                QMessageBox.ButtonRole.ActionRole,
            )
            self.only_others.setObjectName("twinRowsSkip")
        self.cancel = self.addButton(_tr(TWINS_CANCEL), QMessageBox.ButtonRole.RejectRole)
        self.cancel.setObjectName("twinRowsCancel")
        self.setDefaultButton(self.cancel)  # paying again is never the Enter key's default
        self.setEscapeButton(self.cancel)


class TemplateDialog(QDialog):
    """Scenes NN–MM of a project from one prompt, with per-scene edits: review them as a shot
    list, or save them as a file to edit."""

    reviewWanted = Signal(object)  # the ShotList the template makes
    saveWanted = Signal(object)  # (rows) for "Save as shot list…"

    def __init__(
        self, project: str, kind: str, options: dict[str, Any], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("templateDialog")
        self.setWindowTitle(self.tr("Scenes from a template"))
        self.setMinimumSize(560, 460)
        self.kind = kind
        self.options = dict(options)
        self.project = QLineEdit(project, objectName="templateProject")
        self.project.setAccessibleName(self.tr("Project"))
        self.date = QDateEdit(QDate.currentDate(), objectName="templateDate", calendarPopup=True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.date.setAccessibleName(self.tr("Date"))
        self.first = QSpinBox(objectName="templateFirst", minimum=1, maximum=9999, value=1)
        self.last = QSpinBox(objectName="templateLast", minimum=1, maximum=9999, value=6)
        self.first.setAccessibleName(self.tr("First scene"))
        self.last.setAccessibleName(self.tr("Last scene"))
        scenes = QHBoxLayout()
        scenes.addWidget(self.first)
        scenes.addWidget(QLabel("–"))
        scenes.addWidget(self.last)
        scenes.addStretch(1)
        self.prompt = QPlainTextEdit(objectName="templatePrompt")
        self.prompt.setAccessibleName(self.tr("Prompt for every scene"))
        self.prompt.setPlaceholderText(self.tr("The prompt every scene starts from"))
        self.prompt.setMaximumHeight(90)
        self.settings_line = QLabel(self._options_text(), objectName="hint")
        self.settings_line.setWordWrap(True)
        self.edits = QTreeWidget(objectName="templateEdits")
        self.edits.setRootIsDecorated(False)
        self.edits.setHeaderLabels([self.tr("Scene"), self.tr("How"), self.tr("Text")])
        self.edits.setAccessibleName(self.tr("Per-scene edits"))
        self.edit_scene = QSpinBox(objectName="editScene", minimum=1, maximum=9999)
        self.edit_scene.setAccessibleName(self.tr("Scene to edit"))
        self.edit_how = QComboBox(objectName="editHow")
        self.edit_how.addItem(self.tr("add to the prompt"), "add")
        self.edit_how.addItem(self.tr("replace the prompt"), "prompt")
        self.edit_how.setAccessibleName(self.tr("How the scene changes"))
        self.edit_text = QLineEdit(objectName="editText")
        self.edit_text.setAccessibleName(self.tr("Scene edit"))
        self.edit_add = QPushButton(self.tr("Add edit"), objectName="addEditButton")
        erow = QHBoxLayout()
        erow.addWidget(self.edit_scene)
        erow.addWidget(self.edit_how)
        erow.addWidget(self.edit_text, 1)
        erow.addWidget(self.edit_add)
        self.error = QLabel(objectName="fieldError")
        self.error.setWordWrap(True)
        form = QFormLayout()
        form.addRow(self.tr("Project"), self.project)
        form.addRow(self.tr("Date"), self.date)
        form.addRow(self.tr("Scenes"), scenes)
        form.addRow(self.tr("Prompt"), self.prompt)
        form.addRow("", self.settings_line)
        buttons = QDialogButtonBox()
        self.review_button = buttons.addButton(
            self.tr("Review…"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.review_button.setObjectName("reviewTemplateButton")
        self.review_button.setProperty("primary", True)
        self.save_button = buttons.addButton(
            self.tr("Save as shot list…"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.save_button.setObjectName("saveTemplateButton")
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(QLabel(self.tr("Per-scene edits")))
        box.addWidget(self.edits, 1)
        box.addLayout(erow)
        box.addWidget(self.error)
        box.addWidget(buttons)
        self.edit_add.clicked.connect(self.add_edit)
        self.review_button.clicked.connect(self._review)
        self.save_button.clicked.connect(self._save)
        buttons.rejected.connect(self.reject)

    def _options_text(self) -> str:
        """The form's settings every scene takes, in words (no option names): "Video ·
        MiniMax-H3 · 6 s · 768P · 16:9"."""
        words = {
            "duration": lambda v: self.tr("%1 s").replace("%1", str(v)),
            "n": lambda v: self.tr("%1 images").replace("%1", str(v)),
            "prompt_expansion": lambda v: self.tr("prompt expansion: %1").replace(
                # the form's own words for the mode
                "%1",
                translate("CreateForm", MODE_WORDS.get(str(v), str(v))),
            ),
        }
        shown = " · ".join(
            words[k](v) if k in words else str(v)
            for k, v in self.options.items()
            if not (k == "n" and v == 1)
        )
        kind = _tr(KIND_WORDS[self.kind]) if self.kind in KIND_WORDS else self.kind
        return (
            self.tr("Every scene: %1 · %2 (from the form)")
            .replace("%1", kind)
            .replace("%2", shown or "—")
        )

    def add_edit(self) -> None:
        text = self.edit_text.text().strip()
        if not text:
            return
        self.edits.addTopLevelItem(
            QTreeWidgetItem([str(self.edit_scene.value()), self.edit_how.currentText(), text])
        )
        self.edits.topLevelItem(self.edits.topLevelItemCount() - 1).setData(
            1, 256, self.edit_how.currentData()
        )
        for col in range(2):
            self.edits.resizeColumnToContents(col)
        self.edit_text.clear()

    def rows(self) -> list[Any]:
        """The template's rows (raises ValidationError naming the field)."""
        edits: dict[int, SceneEdit] = {}
        for i in range(self.edits.topLevelItemCount()):
            item = self.edits.topLevelItem(i)
            scene, how, text = int(item.text(0)), item.data(1, 256), item.text(2)
            old = edits.get(scene, SceneEdit())
            edits[scene] = (
                SceneEdit(prompt=text, add=old.add)
                if how == "prompt"
                else SceneEdit(prompt=old.prompt, add=text)
            )
        day = self.date.date().toPython()
        assert isinstance(day, dt.date)
        return scene_rows(
            series="article",
            date=day,
            project=self.project.text().strip(),
            first=self.first.value(),
            last=self.last.value(),
            kind=self.kind,
            prompt=self.prompt.toPlainText(),
            options=self.options,
            edits=edits,
        )

    def _checked_rows(self) -> list[Any] | None:
        try:
            rows = self.rows()
        except ValidationError as exc:
            self.error.setText(f"{exc.field}: {exc.message}")
            return None
        self.error.clear()
        return rows

    def _review(self) -> None:
        rows = self._checked_rows()
        if rows is not None:
            self.reviewWanted.emit(ShotList("csv", tuple(rows)))
            self.accept()

    def _save(self) -> None:
        rows = self._checked_rows()
        if rows is not None:
            self.saveWanted.emit(rows)


def save_rows(rows: list[Any], path: str) -> str | None:
    """Write a template's rows as a shot list (``.yaml``/``.yml`` or else CSV); the error or
    None."""
    fmt = "yaml" if path.lower().endswith((".yaml", ".yml")) else "csv"
    try:
        Path(path).write_bytes(write(rows, fmt))
    except (OSError, ValidationError) as exc:
        return str(exc)
    return None


def shotlist_dialog(parent: QWidget, done: Any) -> QFileDialog:
    dlg = QFileDialog(
        parent,
        _tr(QT_TRANSLATE_NOOP("ShotList", "Import shot list")),
        str(Path.home()),
        _tr(QT_TRANSLATE_NOOP("ShotList", "Shot lists (*.csv *.yaml *.yml)")),
    )
    dlg.setFileMode(QFileDialog.FileMode.ExistingFile)
    dlg.fileSelected.connect(done)
    return dlg


def save_dialog(parent: QWidget, done: Any) -> QFileDialog:
    dlg = QFileDialog(
        parent,
        _tr(QT_TRANSLATE_NOOP("ShotList", "Save as shot list")),
        str(Path.home() / "shots.csv"),
        _tr(QT_TRANSLATE_NOOP("ShotList", "Shot lists (*.csv *.yaml *.yml)")),
    )
    dlg.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dlg.fileSelected.connect(done)
    return dlg


__all__ = ["ShotListDialog", "TemplateDialog", "save_rows", "save_dialog", "shotlist_dialog"]
