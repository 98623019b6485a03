"""The main window: slot browser | the slot (banner, RequestId, form, actions) | result and history.

The window is a widget: it never awaits and never touches the store. It asks the controller and
redraws from the controller's signals. Which actions are offered comes from the domain table
(:func:`app.domain.states.allowed_actions`) and nowhere else.
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

from app.domain.states import (
    IN_FLIGHT,
    TERMINAL,
    WHY_NOT,
    Action,
    State,
    allowed_actions,
    recover_options,
)
from app.service.reads import SlotRow
from app.service.results import Exported, HistoryEvent, OutcomeKind, Result
from app.service.views import TaskView
from app.ui import settings as settings_mod
from app.ui.assets import app_icon
from app.ui.browser import SlotBrowser
from app.ui.dialogs import ConflictDialog, RecoverDialog, SettingsDialog
from app.ui.form import CreateForm, FramePicker, RequestIdComposer
from app.ui.history import HistoryPanel
from app.ui.models import SlotTreeModel, row_from_view
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QAction,
    QByteArray,
    QEvent,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QSettings,
    QSplitter,
    QStackedWidget,
    QStatusBar,
    QTimer,
    QVBoxLayout,
    QWidget,
    Qt,
    Signal,
    translate,
)
from app.ui.style import STYLESHEET, badge_color, badge_pixmap, state_word

WHY_NOT_TR = {
    Action.CREATE: QT_TRANSLATE_NOOP("WhyNot", "This slot already has a task. Create again only after a definitive refusal; use New slot for other parameters."),
    Action.QUERY: QT_TRANSLATE_NOOP("WhyNot", "There is no provider task to ask about in this state."),
    Action.RECOVER: QT_TRANSLATE_NOOP("WhyNot", "Recover is for unknown tasks, and for failed tasks with results left."),
    Action.EXPORT: QT_TRANSLATE_NOOP("WhyNot", "Only verified media can be exported."),
    Action.OPEN: QT_TRANSLATE_NOOP("WhyNot", "Only verified media can be opened."),
    Action.NEW_SLOT: QT_TRANSLATE_NOOP("WhyNot", "Finish or recover this slot first."),
    Action.CANCEL: QT_TRANSLATE_NOOP("WhyNot", "Only a task the provider still has queued can be cancelled, and only where the provider can cancel (MiniMax-H3)."),
}
assert set(WHY_NOT_TR) == set(WHY_NOT)

BANNERS = {
    None: (QT_TRANSLATE_NOOP("Banner", "New slot"),
           QT_TRANSLATE_NOOP("Banner", "Nothing has been sent yet. Name the slot, write the prompt, then press Create.")),
    State.SUBMITTING: (QT_TRANSLATE_NOOP("Banner", "Sending"),
                   QT_TRANSLATE_NOOP("Banner", "The create request is on its way. Slate recorded it first, so it can never be sent twice.")),
    State.PREPARING: (QT_TRANSLATE_NOOP("Banner", "Running at the provider"),
                  QT_TRANSLATE_NOOP("Banner", "The provider accepted the task and is preparing it. You can close Slate: it picks up where it left off.")),
    State.QUEUEING: (QT_TRANSLATE_NOOP("Banner", "Waiting in the provider's queue"),
                 QT_TRANSLATE_NOOP("Banner", "The task is queued at the provider. You can close Slate: it picks up where it left off.")),
    State.PROCESSING: (QT_TRANSLATE_NOOP("Banner", "Generating"),
                   QT_TRANSLATE_NOOP("Banner", "The provider is generating. You can close Slate: it picks up where it left off.")),
    State.DOWNLOADING: (QT_TRANSLATE_NOOP("Banner", "Downloading"),
                    QT_TRANSLATE_NOOP("Banner", "The provider finished. Slate is downloading and verifying the media.")),
    State.SUCCESS: (QT_TRANSLATE_NOOP("Banner", "Done"),
                QT_TRANSLATE_NOOP("Banner", "The media are verified and on disk (SHA-256 recorded). Export them, or start a New slot for a variation.")),
    State.FAIL: (QT_TRANSLATE_NOOP("Banner", "Failed"),
             QT_TRANSLATE_NOOP("Banner", "This slot will not change again. Start a New slot to try again.")),
    State.REJECTED: (QT_TRANSLATE_NOOP("Banner", "Refused by the provider"),
                 QT_TRANSLATE_NOOP("Banner", "No task was made and nothing was billed. You may Create again with the same parameters, or start a New slot.")),
    State.UNKNOWN: (QT_TRANSLATE_NOOP("Banner", "Unknown"),
                QT_TRANSLATE_NOOP("Banner", "The create request left and no clear answer came back. Slate will not create again. Query the provider, or Recover.")),
    State.CANCELLED: (QT_TRANSLATE_NOOP("Banner", "Cancelled"),
                  QT_TRANSLATE_NOOP("Banner", "The provider cancelled the task while it was queued; nothing was billed. Start a New slot to try again.")),
}
UNKNOWN_SENT_AT = QT_TRANSLATE_NOOP(
    "Banner", "The create request left at %1 and no clear answer came back. Slate will not create "
    "again. Query the provider, or Recover.")
BANNER_BG = {State.SUCCESS: "#e8f3ec", State.FAIL: "#fbeaea", State.REJECTED: "#f0f0f1",
             State.UNKNOWN: "#fdf3e1", None: "#eef2f7"}

ACTION_BUTTONS = (
    (Action.CREATE, "createButton", QT_TRANSLATE_NOOP("MainWindow", "Create"), "Ctrl+Return"),
    (Action.QUERY, "queryButton", QT_TRANSLATE_NOOP("MainWindow", "Query"), "F5"),
    (Action.RECOVER, "recoverButton", QT_TRANSLATE_NOOP("MainWindow", "Recover…"), None),
    (Action.EXPORT, "exportButton", QT_TRANSLATE_NOOP("MainWindow", "Export…"), "Ctrl+E"),
    (Action.NEW_SLOT, "newSlotButton", QT_TRANSLATE_NOOP("MainWindow", "New slot"), "Ctrl+Shift+N"),
)
ACTION_HELP = {
    Action.CREATE: QT_TRANSLATE_NOOP("MainWindow", "Send this slot to the provider (once)."),
    Action.QUERY: QT_TRANSLATE_NOOP("MainWindow", "Ask the provider about this task now."),
    Action.RECOVER: QT_TRANSLATE_NOOP("MainWindow", "Attach a task id, download again, or declare failed. Never creates."),
    Action.EXPORT: QT_TRANSLATE_NOOP("MainWindow", "Copy the verified media to a folder."),
    Action.NEW_SLOT: QT_TRANSLATE_NOOP("MainWindow", "Start a new slot from these parameters (this slot stays as it is)."),
}
SLOT_STATE = QT_TRANSLATE_NOOP("MainWindow", "Slot state")
PRIMARY = {None: Action.CREATE, State.REJECTED: Action.CREATE, State.UNKNOWN: Action.QUERY,
           State.SUCCESS: Action.EXPORT, State.FAIL: Action.NEW_SLOT, State.CANCELLED: Action.NEW_SLOT}
#: States whose banner shows the task's error (the provider's or Slate's words).
SAYS_WHY = (State.FAIL, State.REJECTED, State.UNKNOWN)


def _tr(ctx: str, text: str) -> str:
    return translate(ctx, text)


def _clock(seconds: float) -> str:
    seconds = int(max(0, seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Banner(QFrame):
    """The slot's state in words: a badge, a title, one or two sentences, and progress."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.icon = QLabel()
        self.icon.setFixedSize(28, 28)
        self.title = QLabel(objectName="bannerTitle")
        self.body = QLabel(objectName="bannerBody")
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QLabel(objectName="progressLabel")
        text = QVBoxLayout()
        text.setSpacing(2)
        text.addWidget(self.title)
        text.addWidget(self.body)
        text.addWidget(self.progress)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 10, 12, 10)
        row.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        row.addLayout(text, 1)
        self.setAccessibleName(_tr("MainWindow", SLOT_STATE))

    def show_state(self, state: State | None, detail: str = "", body: str | None = None) -> None:
        """``detail`` (the provider's words) goes above the sentence; ``body`` replaces it."""
        title, default_body = BANNERS.get(state, BANNERS[State.UNKNOWN])
        self.icon.setPixmap(badge_pixmap(state, 28))
        word = _tr("Banner", title)
        self.title.setText(word)
        self.title.setStyleSheet(f"color: {badge_color(state).darker(125).name()};")
        text = body if body is not None else _tr("Banner", default_body)
        if detail:
            text = f"{detail}\n{text}"
        self.body.setText(text)
        bg = BANNER_BG.get(state, "#eaf1f9")
        self.setStyleSheet(f"QFrame#banner {{ background: {bg}; border-radius: 8px; }}")
        self.setAccessibleDescription(f"{word}. {text}")


class MainWindow(QMainWindow):
    """Slate's main window."""

    selectionShown = Signal(str)  # a slot's record is on screen

    def __init__(self, controller: Any, settings: settings_mod.Settings | QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowTitle("Slate")
        self.setWindowIcon(app_icon())
        self.setStyleSheet(STYLESHEET)
        self.controller = controller
        if not isinstance(settings, settings_mod.Settings):
            settings = settings_mod.Settings(settings)
        self.settings = settings
        self.task: TaskView | None = None
        self.events: list[HistoryEvent] = []
        self.current_rid: str | None = None
        self.draft = False
        self._creating = False
        self._applying = False
        self._message = ""
        self._shown = False
        self.dialog: Any = None

        self.model = SlotTreeModel(controller, self)
        self.browser = SlotBrowser(self.model)
        self.history = HistoryPanel(controller)
        self._build_middle()
        self._build_status()

        left = self._pane(self.browser)
        right = self._pane(self.history)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="mainSplitter")
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.middle_stack)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 5)
        self.splitter.setStretchFactor(2, 4)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([400, 540, 420])
        left.setMinimumWidth(340)
        right.setMinimumWidth(320)
        central = QWidget()
        cbox = QVBoxLayout(central)
        cbox.setContentsMargins(10, 10, 10, 6)
        cbox.addWidget(self._build_toolbar())
        cbox.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self._build_shortcuts()

        c = controller
        c.slotLoaded.connect(self._slot_loaded)
        c.outcomeArrived.connect(self._outcome)
        c.conflictArrived.connect(self._conflict)
        c.statusChanged.connect(self._status)
        c.errorOccurred.connect(self.show_message)
        c.reset.connect(self._reset)
        c.taskChanged.connect(self._task_changed)
        self.browser.slotActivated.connect(self.select)
        self.model.rowsInserted.connect(self._maybe_empty)
        self.model.loadingChanged.connect(lambda _l: self._maybe_empty())
        self.form.changed.connect(self.update_actions)
        self.form.frameWanted.connect(self._choose_frame)
        self.composer.changed.connect(self._composer_changed)
        self.composer.nextSceneWanted.connect(
            lambda prefix: c.next_scene(prefix, done=self.composer.set_scene))
        self._lookup_timer = QTimer(self, singleShot=True, interval=400)
        self._lookup_timer.timeout.connect(self._lookup_draft)
        self._tick = QTimer(self, interval=1000)
        self._tick.timeout.connect(self._update_progress)
        self._tick.start()
        self._ages = QTimer(self, interval=30_000)
        self._ages.timeout.connect(self.model.refresh_ages)
        self._ages.timeout.connect(self.model.refresh)  # other processes (the CLI, a teammate) write too
        self._ages.start()

        self.setMinimumSize(1000, 640)
        self.resize(1360, 820)
        self.restore_layout()
        self._update_provider()
        self.new_draft(initial=True)
        self.model.fetch_all_roots()

    # -- building -----------------------------------------------------------------------------
    @staticmethod
    def _pane(widget: QWidget) -> QFrame:
        frame = QFrame(objectName="pane")
        box = QVBoxLayout(frame)
        box.setContentsMargins(10, 10, 10, 10)
        box.addWidget(widget)
        return frame

    def _build_toolbar(self) -> QWidget:
        bar = QWidget()
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 0, 0, 6)
        title = QLabel("Slate")
        title.setStyleSheet("font-size: 18px; font-weight: 700; color: #3b6ea5;")
        tagline = QLabel(self.tr("every generation paid once"), objectName="hint")
        self.new_button = QPushButton(self.tr("+ New slot"), objectName="newDraftButton")
        self.new_button.setToolTip(self.tr("Start a blank slot (Ctrl+N)"))
        self.settings_button = QPushButton(self.tr("⚙ Settings"), objectName="settingsButton")
        self.settings_button.setToolTip(self.tr("API key, region, team, quotas (Ctrl+,)"))
        row.addWidget(title)
        row.addWidget(tagline)
        row.addStretch(1)
        row.addWidget(self.new_button)
        row.addWidget(self.settings_button)
        self.new_button.clicked.connect(lambda: self.new_draft())
        self.settings_button.clicked.connect(self.open_settings)
        return bar

    def _build_middle(self) -> None:
        self.heading = QLabel(objectName="slotHeading")
        self.heading.setStyleSheet("font-size: 16px; font-weight: 600; font-family: monospace;")
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.heading.setWordWrap(True)
        self.banner = Banner()
        self.composer = RequestIdComposer()
        self.used_hint = QLabel(objectName="hint")
        self.used_hint.setWordWrap(True)
        self.used_hint.setTextFormat(Qt.TextFormat.RichText)
        self.used_hint.linkActivated.connect(lambda rid: self.select(rid))
        self.form = CreateForm()
        self.locked_hint = QLabel(self.tr("This slot's parameters are fixed. Use New slot to change them."),
                                  objectName="hint")
        self.locked_hint.setWordWrap(True)
        self.cost = QLabel(objectName="hint")
        self.buttons: dict[Action, QPushButton] = {}
        actions = QHBoxLayout()
        for action, name, text, keys in ACTION_BUTTONS:
            b = QPushButton(_tr("MainWindow", text), objectName=name)
            b.setAccessibleName(_tr("MainWindow", text).rstrip("…"))
            if keys:
                b.setProperty("keys", keys)
            self.buttons[action] = b
            actions.addWidget(b)
        actions.addStretch(1)
        self.message = QLabel(objectName="messageLabel")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons[Action.CREATE].clicked.connect(self.create)
        self.buttons[Action.QUERY].clicked.connect(self.query)
        self.buttons[Action.RECOVER].clicked.connect(self.open_recover)
        self.buttons[Action.EXPORT].clicked.connect(self.export)
        self.buttons[Action.NEW_SLOT].clicked.connect(self.new_slot)

        inner = QWidget()
        box = QVBoxLayout(inner)
        box.setContentsMargins(4, 4, 8, 4)
        box.setSpacing(10)
        box.addWidget(self.heading)
        box.addWidget(self.banner)
        box.addWidget(self.composer)
        box.addWidget(self.used_hint)
        box.addWidget(self.form, 1)
        box.addWidget(self.locked_hint)
        scroll = QScrollArea(objectName="slotScroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner.setObjectName("slotInner")
        inner.setStyleSheet("QWidget#slotInner { background: white; }")
        scroll.setWidget(inner)
        bottom = QWidget(objectName="actionBar")
        bbox = QVBoxLayout(bottom)
        bbox.setContentsMargins(4, 6, 4, 0)
        bbox.setSpacing(4)
        bbox.addWidget(self.cost)
        bbox.addLayout(actions)
        bbox.addWidget(self.message)
        column = QWidget()
        cbox = QVBoxLayout(column)
        cbox.setContentsMargins(0, 0, 0, 0)
        cbox.addWidget(scroll, 1)
        cbox.addWidget(bottom)
        slot_pane = self._pane(column)
        slot_pane.setMinimumWidth(500)

        self.empty_page = QFrame(objectName="pane")
        ebox = QVBoxLayout(self.empty_page)
        ebox.setContentsMargins(40, 40, 40, 40)
        ebox.addStretch(1)
        headline = QLabel(self.tr("Welcome to Slate"))
        headline.setStyleSheet("font-size: 22px; font-weight: 600;")
        explain = QLabel(self.tr(
            "A slot is one piece of work with a stable name, such as "
            "article:20260816:tide-eye:scene-02. Slate sends each slot to the provider once, "
            "keeps its history, and never pays twice for it."))
        explain.setWordWrap(True)
        self.first_button = QPushButton(self.tr("Create your first slot"), objectName="firstSlotButton")
        self.first_button.setProperty("primary", True)
        self.first_button.clicked.connect(lambda: self.new_draft(force=True))
        self.demo_note = QLabel(objectName="hint")
        self.demo_note.setWordWrap(True)
        column = QWidget()
        column.setMaximumWidth(520)
        colbox = QVBoxLayout(column)
        colbox.setSpacing(14)
        colbox.addWidget(headline)
        colbox.addWidget(explain)
        colbox.addWidget(self.first_button, 0, Qt.AlignmentFlag.AlignLeft)
        colbox.addWidget(self.demo_note)
        centered = QHBoxLayout()
        centered.addStretch(1)
        centered.addWidget(column, 3)
        centered.addStretch(1)
        ebox.addLayout(centered)
        ebox.addStretch(2)

        self.middle_stack = QStackedWidget(objectName="middleStack")
        self.middle_stack.addWidget(slot_pane)
        self.middle_stack.addWidget(self.empty_page)
        self.slot_page = slot_pane

    def _build_status(self) -> None:
        bar = QStatusBar(objectName="statusBar")
        self.setStatusBar(bar)
        self.provider_badge = QLabel(objectName="demoBadge")
        self.identity = QLabel(objectName="identityLabel")
        self.quota_label = QLabel(objectName="quotaLabel")
        self.running_label = QLabel(objectName="runningLabel")
        self.connection = QLabel(objectName="connectionLabel")
        self.warning_label = QLabel(objectName="warningLabel")
        for w in (self.provider_badge, self.identity, self.quota_label, self.running_label,
                  self.connection, self.warning_label):
            bar.addWidget(w)
        self.notice = QLabel(objectName="noticeLabel")  # what just happened (settings applied, …)
        bar.addPermanentWidget(self.notice)
        self._notice_timer = QTimer(self, singleShot=True, interval=8000)
        self._notice_timer.timeout.connect(self.notice.clear)

    def _build_shortcuts(self) -> None:
        def add(name: str, keys: list[str], slot: Any, text: str) -> QAction:
            act = QAction(text, self, objectName=name)
            act.setShortcuts([QKeySequence(k) for k in keys])
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            act.triggered.connect(slot)
            self.addAction(act)
            return act

        self.shortcut_actions = {
            "create": add("createAction", ["Ctrl+Return", "Ctrl+Enter"], self._shortcut_create, self.tr("Create")),
            "query": add("queryAction", ["F5"], self._shortcut_query, self.tr("Query")),
            "search": add("searchAction", ["Ctrl+F"], self.focus_search, self.tr("Search")),
            "next": add("nextSlotAction", ["Alt+Down", "Ctrl+PgDown"], lambda: self.browser.step(True), self.tr("Next slot")),
            "previous": add("previousSlotAction", ["Alt+Up", "Ctrl+PgUp"], lambda: self.browser.step(False), self.tr("Previous slot")),
            "new": add("newDraftAction", ["Ctrl+N"], lambda: self.new_draft(), self.tr("New slot")),
            "export": add("exportAction", ["Ctrl+E"], self._shortcut_export, self.tr("Export")),
            "settings": add("settingsAction", ["Ctrl+,"], self.open_settings, self.tr("Settings")),
        }

    # -- layout persistence ----------------------------------------------------------------------
    def restore_layout(self) -> None:
        s = self.settings.qsettings
        geo = s.value("window/geometry")
        if isinstance(geo, QByteArray) and not geo.isEmpty():
            self.restoreGeometry(geo)
        size = s.value("window/size")
        if size is not None and hasattr(size, "isValid") and size.isValid() and not self.isMaximized():
            self.resize(size)
        state = s.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        header = s.value("window/slotHeader")
        if isinstance(header, QByteArray) and not header.isEmpty():
            self.browser.tree.header().restoreState(header)
        hsplit = s.value("window/historySplitter")
        if isinstance(hsplit, QByteArray) and not hsplit.isEmpty():
            self.history.splitter.restoreState(hsplit)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._shown:
            self._shown = True
            split = self.settings.qsettings.value("window/splitter")
            if isinstance(split, QByteArray) and not split.isEmpty():
                self.splitter.restoreState(split)

    def save_layout(self) -> None:
        s = self.settings.qsettings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/size", self.size())
        s.setValue("window/state", self.saveState())
        s.setValue("window/splitter", self.splitter.saveState())
        s.setValue("window/slotHeader", self.browser.tree.header().saveState())
        s.setValue("window/historySplitter", self.history.splitter.saveState())
        if self.current_rid:
            s.setValue("window/lastSlot", self.current_rid)
        s.sync()

    def changeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.model.schedule_refresh()  # back from the terminal: show what the CLI made

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        self.save_layout()
        self.history.video.stop()
        if self.dialog is not None:
            self.dialog.close()
        super().closeEvent(event)

    # -- selection and drafts -------------------------------------------------------------------
    def select(self, request_id: str) -> None:
        """Show a slot: its record, history and media (loaded by the controller)."""
        self.draft = False
        self.current_rid = request_id
        self.middle_stack.setCurrentWidget(self.slot_page)
        self.controller.select(request_id)
        idx = self.model.index_of(request_id)
        if idx.isValid() and self.browser.tree.currentIndex().siblingAtColumn(0) != idx:
            self.browser.show_index(idx)

    def reveal(self, row: SlotRow) -> None:
        self.model.reveal(row)

    def new_draft(self, *, initial: bool = False, force: bool = False) -> None:
        """A blank slot: today's date, the current project, the next free scene."""
        project = ""
        if self.task is not None and self.task.project:
            project = self.task.project
        elif self.composer.project.text():
            project = self.composer.project.text()
        self._enter_draft()
        self.form.clear()
        self.composer.series = "article"
        self.composer.date.setDate(dt.date.today())
        self.composer.project.setText(project)
        self.composer.scene.setText("")
        if project:
            self.controller.next_scene(self.composer.prefix(), done=self.composer.set_scene)
        if not initial:
            self.middle_stack.setCurrentWidget(self.slot_page)
            (self.composer.project if not project else self.form.prompt).setFocus()

    def _enter_draft(self) -> None:
        self.draft = True
        self.task = None
        self.events = []
        self.current_rid = None
        self.controller.select(None)
        self.browser.tree.clearSelection()
        self.composer.set_read_only(False)
        self.form.set_read_only(False)
        self.history.show_slot(None, [])
        self.message.clear()
        self._show_task()

    def new_slot(self) -> None:
        """"New slot" from the current one: same parameters, suggested RequestId, form editable."""
        task = self.task
        if task is None:
            return
        self._enter_draft()
        self.form.set_params(task.kind, task.params)
        self.composer.set_request_id(task.request_id)
        self.controller.suggest(task.request_id, done=self.composer.set_request_id)
        self.form.prompt.setFocus()

    def _composer_changed(self, rid: str) -> None:
        self.heading.setText(rid or self.tr("(unnamed slot)"))
        if self.draft:
            self.used_hint.clear()
            self.used_hint.hide()
            self._lookup_timer.start()
        self.update_actions()

    def _lookup_draft(self) -> None:
        rid = self.composer.request_id()
        if not self.draft or self.composer.error_text() is not None:
            return

        def found(out: Result[Any]) -> None:
            if self.draft and self.composer.request_id() == rid and out.task is not None:
                self.used_hint.setText(self.tr(
                    "This RequestId is already used (%1). <a href=\"%2\">Open it</a> — creating "
                    "it with other parameters will be refused.").replace("%1", state_word(out.task.state))
                    .replace("%2", rid))
                self.used_hint.show()

        self.controller.lookup(rid, found)

    # -- controller signals -------------------------------------------------------------------
    def _slot_loaded(self, rid: str, task: TaskView | None, events: list[HistoryEvent]) -> None:
        if rid != self.current_rid or self.draft:
            return
        first = self.task is None or self.task.request_id != rid
        self.task = task
        self.events = events
        if task is not None:
            self.composer.set_read_only(True)
            if first or self.composer.request_id() != rid:
                self.composer.set_request_id(rid)
            self.form.set_params(task.kind, task.params)
            self.form.set_read_only(True)
            self.model.upsert(row_from_view(task))
        self.history.show_slot(task, events)
        self._show_task()
        if first:
            idx = self.model.index_of(rid)
            if idx.isValid():
                self.browser.show_index(idx)
            elif task is not None:
                self.model.reveal(row_from_view(task))
        self.selectionShown.emit(rid)

    def _task_changed(self, view: TaskView) -> None:
        if self.draft and self._creating and view.request_id == self.composer.request_id():
            self._creating = False
            self.select(view.request_id)

    def _outcome(self, action: str, out: Result[Any]) -> None:
        if action == "create":
            self._creating = False
        msg = out.problem.message if out.problem else ""
        if action == "export" and out.kind is OutcomeKind.OK:
            n = len(out.payload.files) if isinstance(out.payload, Exported) else 0
            msg = self.tr("Exported %1 file(s).").replace("%1", str(n))
        if out.kind in (OutcomeKind.INVALID, OutcomeKind.QUOTA_EXCEEDED, OutcomeKind.NOT_FOUND):
            self.show_message(msg)
        elif out.kind is OutcomeKind.CONFLICT:
            pass
        else:
            self.show_message(msg if out.kind is not OutcomeKind.OK or action == "export" else "")
            if out.request_id and (out.task is not None) and (self.draft or out.request_id == self.current_rid):
                self.select(out.request_id)
        self.update_actions()

    def _conflict(self, out: Result[Any]) -> None:
        problem = out.problem
        diff = (problem.diff if problem else None) or {}
        suggested = (problem.suggested_request_id if problem else None) or ""
        dlg = ConflictDialog(out.request_id or "", diff, suggested, self)
        kind, params = self.form.kind(), self.form.params()

        def create_new(rid: str) -> None:
            self._enter_draft()
            self.form.set_params(kind, params)
            self.composer.set_request_id(rid)
            self._submit(rid, kind, params)

        dlg.createAsNew.connect(create_new)
        self._open_dialog(dlg)

    def _status(self, status: Any) -> None:
        quota = status.quota

        def part(kind: str, label: str) -> str:
            q = getattr(quota, kind) if quota is not None else None
            used, limit = (q.used, q.limit) if q is not None else (0, None)
            return f"{label} {used}/{limit}" if limit is not None else f"{label} {used}"

        self.quota_label.setText(self.tr("Today: %1 · %2").replace("%1", part("video", self.tr("videos")))
                                 .replace("%2", part("image", self.tr("images"))))
        running = int(status.running or 0)
        self.running_label.setText(self.tr("%1 running").replace("%1", str(running)))
        failing = int(status.failing or 0)
        if failing:
            self.connection.setObjectName("troubleLabel")
            self.connection.setText(self.tr("⚠ Provider not answering: %1 task(s) retrying").replace("%1", str(failing)))
        else:
            self.connection.setObjectName("connectionLabel")
            self.connection.setText(self.tr("Connection OK"))
        self.connection.style().unpolish(self.connection)
        self.connection.style().polish(self.connection)

    def _update_provider(self) -> None:
        c = self.controller
        if c.demo:
            self.provider_badge.setObjectName("demoBadge")
            self.provider_badge.setText(self.tr("DEMO"))
            self.provider_badge.setToolTip(self.tr(
                "Demo provider: nothing is billed and media are made on this computer. "
                "Set an API key in Settings to use MiniMax."))
            self.demo_note.setText(self.tr(
                "The demo provider is active until you set an API key in Settings: try everything, "
                "nothing is billed."))
        else:
            self.provider_badge.setObjectName("providerBadge")
            self.provider_badge.setText(c.provider_label)
            self.provider_badge.setToolTip(self.tr("Real provider: every create is billed."))
            self.demo_note.setText("")
        self.provider_badge.setAccessibleName(self.provider_badge.text())
        self.provider_badge.style().unpolish(self.provider_badge)
        self.provider_badge.style().polish(self.provider_badge)
        self.identity.setText(f"{c.config.tenant} / {c.config.user}")
        self.identity.setToolTip(self.tr("Team / designer"))
        if c.warnings:
            self.warning_label.setText("⚠")
            self.warning_label.setToolTip("\n".join(c.warnings))
        else:
            self.warning_label.clear()

    def _reset(self) -> None:
        """The service was rebuilt (settings applied): show the new identity, reload the slots, and
        stay where the designer was — the same slot if it exists under the new identity, the draft
        being written, or else a blank slot."""
        self._update_provider()
        self.model.reload()
        self.model.fetch_all_roots()
        if self.draft:
            self.used_hint.clear()
            self._show_task()
            self._lookup_timer.start()
            return
        rid = self.current_rid
        if rid is None:
            self.new_draft(initial=True)
            return

        def found(out: Result[Any]) -> None:
            if self.draft or self.current_rid != rid:
                return
            if out.task is not None:
                self.task = None
                self.select(rid)
            else:  # not a slot of the new identity: a blank page, not the old project
                self.task = None
                self.composer.project.clear()
                self.new_draft(initial=True)
                self._maybe_empty()

        self.controller.lookup(rid, found)

    def _maybe_empty(self, *_: Any) -> None:
        """First launch: no slot at all and nothing being written → the welcome page."""
        empty = (self.model.rowCount() == 0 and not self.model.loading and self.model._root.started
                 and not self.browser.filtered() and self.task is None and self.draft
                 and not self.composer.project.text() and not self.form.prompt.toPlainText())
        if empty:
            self.middle_stack.setCurrentWidget(self.empty_page)
        elif self.middle_stack.currentWidget() is self.empty_page and self.model.rowCount() > 0:
            self.middle_stack.setCurrentWidget(self.slot_page)

    # -- showing the slot -----------------------------------------------------------------------
    def state(self) -> State | None:
        return self.task.state if self.task is not None else None

    def _show_task(self) -> None:
        task = self.task
        state = self.state()
        detail = ""
        technical = ""
        body = None
        if task is not None and task.error and task.error.message and state in SAYS_WHY:
            detail = technical = str(task.error.message)
        if task is not None and state is State.UNKNOWN:  # one sentence with the time, not two saying it twice
            sent = dt.datetime.fromtimestamp(task.created_at).strftime("%H:%M:%S")
            detail = ""
            body = _tr("Banner", UNKNOWN_SENT_AT).replace("%1", sent)
        self.banner.show_state(state, detail, body)
        self.banner.setToolTip(technical)
        self.heading.setText(task.request_id if task else (self.composer.request_id() or self.tr("(unnamed slot)")))
        self.locked_hint.setVisible(task is not None)
        self.used_hint.setVisible(self.draft and bool(self.used_hint.text()))
        self._update_progress()
        self.update_actions()

    def _update_progress(self) -> None:
        task = self.task
        if task is None or task.state not in IN_FLIGHT:
            text = ""
            if task is not None:
                changed = dt.datetime.fromtimestamp(task.updated_at).strftime("%Y-%m-%d %H:%M")
                if task.state in TERMINAL:
                    text = self.tr("Took %1 · last change %2").replace(
                        "%1", _clock(task.updated_at - task.created_at)).replace("%2", changed)
                else:
                    text = self.tr("Last change %1").replace("%1", changed)
            self.banner.progress.setText(text)
            self.banner.progress.setVisible(bool(text))
            return
        now = time.time()
        text = self.tr("%1 · elapsed %2").replace("%1", state_word(task.state)).replace("%2", _clock(now - task.created_at))
        if task.next_poll_at:
            wait = task.next_poll_at - now
            text += " · " + (self.tr("next query in %1 s").replace("%1", str(int(wait) + 1)) if wait > 0
                             else self.tr("querying now"))
        self.banner.progress.setText(text)
        self.banner.progress.setVisible(True)

    def update_actions(self) -> None:
        """Enable exactly what the domain table allows; say why when something is not offered."""
        state = self.state()
        has_results = bool(self.task.has_results) if self.task is not None else False
        allowed = set(allowed_actions(state, has_results=has_results))
        primary = PRIMARY.get(state)
        for action, button in self.buttons.items():
            ok = action in allowed
            why = ""
            if not ok:
                why = _tr("WhyNot", WHY_NOT_TR[action])
            elif action is Action.CREATE and self.task is None:
                err = self.composer.error_text() or self.form.error_text()
                if err:
                    ok, why = False, err
            if action is Action.CREATE and self._creating:
                ok, why = False, self.tr("Sending…")
            if self._applying:
                ok, why = False, self.tr("Applying settings…")
            button.setEnabled(ok)
            keys = button.property("keys")
            help_text = _tr("MainWindow", ACTION_HELP[action]) + (f" ({keys})" if keys else "")
            button.setToolTip(help_text if ok else why)
            button.setProperty("primary", ok and action is primary)
            button.style().unpolish(button)
            button.style().polish(button)
        self.settings_button.setEnabled(not self._applying)
        if self.task is None:
            kind = self.form.kind()
            n = self.form.n.value() if kind == "image" else 1
            what = self.tr("%1 image(s)").replace("%1", str(n)) if kind == "image" else self.tr("1 video")
            self.cost.setText(self.tr("Uses %1 of today's quota.").replace("%1", what))
        else:
            self.cost.setText("")

    def show_notice(self, text: str, *, error: bool = False, keep: bool = False) -> None:
        """A short note at the right of the status bar; cleared after a few seconds unless ``keep``."""
        self.notice.setText(text)
        self.notice.setToolTip(text)
        self.notice.setStyleSheet("color: #8a2d23; font-weight: 600;" if error else "")
        if keep:
            self._notice_timer.stop()
        else:
            self._notice_timer.start()

    def show_message(self, text: str, error: bool = True) -> None:
        self._message = text
        self.message.setText(text)
        self.message.setStyleSheet("color: #8a2d23;" if text and error else "")

    # -- actions -------------------------------------------------------------------------------
    def _submit(self, rid: str, kind: str, params: dict[str, Any]) -> None:
        self._creating = True
        self.show_message("")
        self.controller.submit(rid, kind, params)
        self.update_actions()

    def create(self) -> None:
        if not self.buttons[Action.CREATE].isEnabled():
            return
        if self.task is not None:  # rejected: the same RequestId with the stored parameters
            self._submit(self.task.request_id, self.task.kind, dict(self.task.params))
        else:
            self._submit(self.composer.request_id(), self.form.kind(), self.form.params())

    def query(self) -> None:
        if self.task is not None and self.buttons[Action.QUERY].isEnabled():
            self.show_message(self.tr("Asking the provider…"))
            self.controller.query(self.task.request_id)

    def open_recover(self) -> None:
        task = self.task
        if task is None or not self.buttons[Action.RECOVER].isEnabled():
            return
        caps = self.controller.caps.capabilities
        dlg = RecoverDialog(task.request_id, recover_options(task, caps),
                            can_lookup=caps.can_list_tasks, parent=self)
        dlg.recover.connect(lambda how: self.controller.recover(task.request_id, how))
        self._open_dialog(dlg)

    def choose_directory(self, done: Any) -> None:
        """Ask for a folder without a nested event loop (tests replace this)."""
        dlg = QFileDialog(self, self.tr("Export to folder"), str(Path.home()))
        dlg.setFileMode(QFileDialog.FileMode.Directory)
        dlg.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dlg.fileSelected.connect(done)
        self._open_dialog(dlg)

    def choose_file(self, done: Any) -> None:
        dlg = QFileDialog(self, self.tr("Choose an image"), str(Path.home()),
                          self.tr("Images (*.png *.jpg *.jpeg *.webp)"))
        dlg.setFileMode(QFileDialog.FileMode.ExistingFile)
        dlg.fileSelected.connect(done)
        self._open_dialog(dlg)

    def export(self) -> None:
        task = self.task
        if task is None or not self.buttons[Action.EXPORT].isEnabled():
            return
        self.choose_directory(lambda folder: folder and self.controller.export(task.request_id, folder))

    def _choose_frame(self, picker: FramePicker) -> None:
        def chosen(path: str) -> None:
            if not path:
                return

            def read(url: str | None, err: str | None) -> None:
                if url:
                    picker.set_file(Path(path).name, url)
                else:
                    self.show_message(err or "")

            self.controller.read_data_url(path, read)

        self.choose_file(chosen)

    def _open_dialog(self, dlg: Any) -> None:
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = dlg
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.finished.connect(lambda _r, d=dlg: setattr(self, "dialog", None) if self.dialog is d else None)
        dlg.open()

    def open_settings(self) -> None:
        if self._applying:
            return
        values = settings_mod.dialog_values(self.controller.config, self.settings.saved_region())
        dlg = SettingsDialog(values, self.controller.key_source, self, fixed=self.settings.fixed,
                             check=self._check_settings)
        dlg.applied.connect(self.apply_settings)
        self._open_dialog(dlg)

    def _settings_config(self, service: settings_mod.ServiceSettings) -> Any:
        return settings_mod.apply(self.controller.config, service,
                                  key_source=self.controller.key_source, fixed=self.settings.fixed)

    def _check_settings(self, values: dict[str, Any]) -> str | None:
        """Say what is wrong with the typed settings (before the dialog closes), or None."""
        try:
            service = settings_mod.ServiceSettings.from_values(values)
        except Exception as exc:  # noqa: BLE001 - the message is for the user
            return str(exc)
        return settings_mod.check(self.controller.config, service,
                                  key_source=self.controller.key_source, fixed=self.settings.fixed)

    def apply_settings(self, values: dict[str, Any]) -> None:
        """Store or remove the key if asked, rebuild the service, and save the settings once the new
        service runs (a store that cannot be opened leaves the old one and the saved settings)."""
        try:
            change = settings_mod.SettingsChange.from_dialog(values)
        except Exception as exc:  # noqa: BLE001 - checked by the dialog; said, never raised
            self.show_message(self.tr("Settings not applied: %1").replace("%1", str(exc)))
            return
        self._applying = True
        self.show_notice(self.tr("Applying settings…"), keep=True)
        self.update_actions()

        def applied(err: str | None) -> None:
            self._applying = False
            if err:
                text = self.tr("Settings not applied: %1").replace("%1", err)
                self.show_message(text)
                self.show_notice(text, error=True, keep=True)
            else:
                self.settings.save_service(change.service)
                self.show_notice(self.tr("Settings applied."))
            self.update_actions()

        def reconfigure(err: str | None = None) -> None:
            try:
                cfg = self._settings_config(change.service)
            except Exception as exc:  # noqa: BLE001 - a bad value is shown, not raised
                applied(str(exc))
                return
            if err:  # the key could not be stored or removed: apply the rest, and say so
                self.controller.reconfigure(cfg, lambda e: applied(e or err))
            else:
                self.controller.reconfigure(cfg, applied)

        if change.api_key:
            self.controller.set_api_key(change.api_key, reconfigure)
        elif change.clear_api_key:
            self.controller.delete_api_key(reconfigure)
        else:
            reconfigure()

    # -- shortcuts -----------------------------------------------------------------------------
    def _shortcut_create(self) -> None:
        self.create()

    def _shortcut_query(self) -> None:
        self.query()

    def _shortcut_export(self) -> None:
        self.export()

    def focus_search(self) -> None:
        self.browser.search.setFocus()
        self.browser.search.selectAll()
