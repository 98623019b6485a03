"""The main window: the panes, assembled and wired, and the dialogs they ask for.

    slot browser | slot pane (or the welcome page) | result pane
    status bar

The slot on screen is one :class:`~app.ui.current.CurrentSlot` that every pane binds to; the
controller's ``slotLoaded`` fills it. The window never awaits and never touches the store: it
lays the panes out, routes a pane's wishes (show a slot, a dialog) to the one that fulfils them,
keeps the layout, and runs the settings flow through :mod:`app.ui.settings`.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.domain.params_h3image import MODELS as H3_IMAGE_MODELS
from app.domain.states import Action, RecoverWay, State
from app.service.results import LookupReport, Result
from app.ui import settings as settings_mod
from app.present import words
from app.service.views import MediaView
from app.ui.assets import app_icon
from app.ui.chain import Role, frame_data_url, h3_model, is_video, media_path, reference_audio
from app.ui.current import Busy, CurrentSlot
from app.ui.inputs import ReferenceList
from app.ui.inputs import SHOTLIST_SUFFIXES, kind_of_source, sources_of
from app.ui.gallery.model import GalleryModel, GalleryScope
from app.ui.gallery.pane import GalleryPane, ResultRef
from app.ui.gallery.thumbs import ThumbCache, ThumbLoader, default_cache_dir
from app.ui.picks import MarkKeys, PickActions
from app.ui.models import SlotTreeModel
from app.ui.notify import Notifier
from app.ui.panes.browser import SlotBrowser
from app.ui.panes.queue import QueuePanel
from app.ui.panes.result import ResultPane
from app.ui.panes.slot import SlotPane, _tab_after
from app.ui.panes.status import StatusPane
from app.ui.panes.toolbar import TopBar
from app.ui.panes.welcome import WelcomePage
from app.ui.qt import (
    QAction,
    QByteArray,
    QEvent,
    QFrame,
    QGuiApplication,
    QKeySequence,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSettings,
    QSplitter,
    QStackedWidget,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
    translate,
)
from app.ui.style import apply_theme, resolve
from app.ui.widgets import guard_wheel

if TYPE_CHECKING:  # the lightboxes load on first use, after the first paint
    from app.ui.compare import CompareView
    from app.ui.viewer import Viewer

#: The form's settings a template gives every scene (shot-list columns).
TEMPLATE_OPTIONS = (
    "model",
    "duration",
    "resolution",
    "ratio",
    "prompt_expansion",
    "aspect_ratio",
    "n",
)
# The panes' narrowest widths: together (with margins and handles) within the window's minimum
# width, so nothing is cut off at the smallest window (tests/gui/test_min_size.py).
MIN_SIZE = (1000, 640)
LEFT_MIN, MIDDLE_MIN, RIGHT_MIN = 250, 430, 240
#: From this width on the history side panel is open unless the designer closed it: narrower,
#: the result takes its room (at 1360×820 the result must keep half the window).
HISTORY_OPEN_WIDTH = 1440
#: ``use_result_as``'s default source: the slot on screen.
ON_SCREEN: Any = object()


def _frame(widget: QWidget | None) -> QFrame:
    """A pane's frame, around ``widget`` (None: put in later)."""
    frame = QFrame(objectName="pane")
    box = QVBoxLayout(frame)
    box.setContentsMargins(8, 8, 8, 8)
    if widget is not None:
        box.addWidget(widget)
    return frame


class MainWindow(QMainWindow):
    """Slate's main window."""

    def __init__(
        self,
        controller: Any,
        settings: settings_mod.Settings | QSettings | None = None,
        parent: QWidget | None = None,
        *,
        paint_first: bool = False,
    ) -> None:
        """``paint_first`` (the app's start, issue 34): the create form, a stored slot's
        results view, the history panel (unless it is shown at the start) and the first draft
        are made by :meth:`finish_start`, called once the window's first rows are painted; a
        window made without it is whole when made."""
        guard_wheel()  # no paid setting moves by scrolling
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowTitle("Slate")
        self.setWindowIcon(app_icon())
        self.controller = c = controller
        if not isinstance(settings, settings_mod.Settings):
            settings = settings_mod.Settings(settings)
        self.settings = settings
        self.apply_theme()
        hints = QGuiApplication.styleHints()
        hints.colorSchemeChanged.connect(self._scheme_changed)  # a method: let go with the window
        self.dialog: Any = None
        self.prices_dialog: Any = None  # Prices over Settings (Settings stays open beneath)
        self._shown = False
        self._quit_anyway = False  # the designer chose to quit while a create was being sent
        self._draft_asked = False  # the designer asked for the draft on screen (New slot)
        self._looked: set[str] = set()  # unknown slots the app has looked up this session

        self.slot = CurrentSlot()
        self.model = SlotTreeModel(c, self)
        self.browser = SlotBrowser(self.model, self.slot)
        self.slot_pane = SlotPane(c, self.slot, lazy_form=paint_first, lazy_finished=paint_first)
        self._started = False  # the form hooked up and the first draft made (finish_start)
        # the history panel: made later with paint_first (result_pane), unless shown at once
        self._result_pane = None if paint_first else ResultPane(c, self.slot)
        self._history_state = QByteArray()  # its splitter's saved state, till it is made
        self.welcome = WelcomePage(c)
        self.status_pane = StatusPane(c)
        self.notifier = Notifier(self, c, self.settings)
        self.setStatusBar(self.status_pane)
        self.slot_page = _frame(self.slot_pane)
        self.slot_page.setMinimumWidth(MIDDLE_MIN)
        self.middle_stack = QStackedWidget(objectName="middleStack")
        self.middle_stack.addWidget(self.slot_page)
        self.middle_stack.addWidget(self.welcome)
        self._queue: QueuePanel | None = None  # made when first opened (or asked for)
        self._build_gallery()
        column = QWidget(objectName="leftColumn")
        cbox = QVBoxLayout(column)
        cbox.setContentsMargins(0, 0, 0, 0)
        cbox.addWidget(self.browser, 1)
        self._column_box = cbox  # the queue panel goes first in it (_make_queue)
        left, right = _frame(column), _frame(self._result_pane)
        left.setMinimumWidth(LEFT_MIN)
        right.setMinimumWidth(RIGHT_MIN)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="mainSplitter")
        # a wider window widens the slot and its result first
        for i, (pane, stretch) in enumerate(((left, 0), (self.middle_stack, 5), (right, 2))):
            self.splitter.addWidget(pane)
            self.splitter.setStretchFactor(i, stretch)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([400, 540, 420])
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(8, 8, 8, 4)
        self.top_bar = TopBar(self.slot)
        box.addWidget(self.top_bar)
        box.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.gallery_button = QPushButton(
            self.tr("▦ Gallery"), objectName="galleryButton", checkable=True
        )
        self.gallery_button.setToolTip(self.tr("Every result of the selection, as a grid (Ctrl+G)"))
        self.gallery_button.setAccessibleName(self.tr("Gallery"))
        self.gallery_button.toggled.connect(self.show_gallery)
        self.top_bar.layout().insertWidget(2, self.gallery_button)
        self.middle_stack.currentChanged.connect(lambda _i: self._gallery_page_changed())
        self._build_shortcuts()

        c.slotLoaded.connect(self._slot_loaded)  # a method: disconnected when the window goes
        self.slot.task_changed.connect(self._maybe_look)
        c.conflictArrived.connect(self._conflict)
        c.reset.connect(self._reset)
        self.browser.slotActivated.connect(self.select)
        # F, X, 0–5 in the slot list mark the selected slot's result on screen, as elsewhere
        self._mark_keys = MarkKeys(self._mark_shown, self)
        self.browser.tree.installEventFilter(self._mark_keys)
        self.slot_pane.slotWanted.connect(self.select)
        self.slot_pane.recoverWanted.connect(self.open_recover)
        self.slot_pane.exportWanted.connect(self.export)
        self.slot_pane.frameWanted.connect(self._choose_frame)
        self.slot_pane.pricesWanted.connect(lambda model: self.open_prices(model=model))
        self.slot_pane.useWanted.connect(self.use_result_as)
        self.slot_pane.make2kWanted.connect(self.make_2k)
        if self._result_pane is not None:
            self._result_pane.slotWanted.connect(self.select)
        self._right_width = 0  # the history panel's width before it was last closed
        self.slot_pane.history_toggle.toggled.connect(self.set_history_open)
        self.slot_pane.submitted.connect(self.notifier.track)
        self.slot_pane.tidy.hiddenChanged.connect(self._hidden_changed)
        self.browser.hideWanted.connect(lambda rid: self.slot_pane.tidy.set_hidden(rid, True))
        self.welcome.startWanted.connect(self.new_draft)
        self.top_bar.newWanted.connect(self.new_draft)
        self.top_bar.settingsWanted.connect(self.open_settings)
        self.top_bar.spendWanted.connect(self.open_spend)
        self.top_bar.set_shot_list_actions(
            self.shortcut_actions["import"], self.shortcut_actions["template"]
        )
        self.setAcceptDrops(True)
        self.top_bar.queueToggled.connect(self.show_queue)
        self.model.rowsInserted.connect(self._maybe_empty)
        self.model.loadingChanged.connect(self._maybe_empty)

        self.setMinimumSize(*MIN_SIZE)
        self.resize(1360, 820)
        self.restore_layout()
        if not paint_first:
            self.finish_start()
        self.model.fetch_all_roots()
        self.open_running()

    def finish_start(self) -> None:
        """The results view and the create form made and hooked up, and the first draft made
        unless a slot was chosen meanwhile (once; a window made without ``paint_first`` did it
        when made)."""
        if self._started:
            return
        self._started = True
        self.slot_pane.finished  # noqa: B018 - made now, if no slot shown has made it yet
        self.result_pane  # noqa: B018 - and the history panel, if not shown yet
        prompt = self.slot_pane.form.prompt  # its menu offers the earlier prompts too
        prompt.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        prompt.customContextMenuRequested.connect(self._prompt_menu)
        if self.slot.draft is None and self.slot.selected is None:
            self.new_draft(initial=True)
            self._maybe_empty()
        self.thumbs.warm_soon()  # the thumbnail workers: a moment after the start, not in it

    @property
    def result_pane(self) -> ResultPane:
        """The history panel (made on first use, or when first shown, with ``paint_first``)."""
        return self._result_pane if self._result_pane is not None else self._make_result_pane()

    def _make_result_pane(self) -> ResultPane:
        pane = self._result_pane = ResultPane(self.controller, self.slot)
        if not self._history_state.isEmpty():
            pane.restore_layout(self._history_state)
        right = self.splitter.widget(2)
        right.layout().addWidget(pane)
        if right.isVisible():
            pane.show()  # now, not after the next events (as in a frame shown with it)
        # made later, its Tab stops would come last: the gallery's, these, then the top bar's
        stop = self.gallery_button.previousInFocusChain()
        while not stop.focusPolicy() & Qt.FocusPolicy.TabFocus:
            stop = stop.previousInFocusChain()
        _tab_after(stop, pane)
        pane.slotWanted.connect(self.select)
        return pane

    def _keep_history_state(self, state: QByteArray) -> None:
        self._history_state = state

    def _build_shortcuts(self) -> None:
        def add(name: str, keys: list[str], slot: Any, text: str) -> QAction:
            act = QAction(text, self, objectName=name)
            act.setShortcuts([QKeySequence(k) for k in keys])
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            act.triggered.connect(slot)
            self.addAction(act)
            return act

        pane, browser = self.slot_pane, self.browser
        self.shortcut_actions = {
            "create": add(
                "createAction",
                ["Ctrl+Return", "Ctrl+Enter"],
                lambda: pane.create(),
                self.tr("Create"),
            ),
            "query": add("queryAction", ["F5"], lambda: pane.query(), self.tr("Query")),
            "search": add("searchAction", ["Ctrl+F"], browser.focus_search, self.tr("Search")),
            "next": add(
                "nextSlotAction",
                ["Alt+Down", "Ctrl+PgDown"],
                lambda: browser.step(True),
                self.tr("Next slot"),
            ),
            "previous": add(
                "previousSlotAction",
                ["Alt+Up", "Ctrl+PgUp"],
                lambda: browser.step(False),
                self.tr("Previous slot"),
            ),
            "nextResult": add(
                "nextResultAction",
                ["Alt+Right", "]"],
                lambda: pane.finished.step_result(True),
                self.tr("Next result of the slot"),
            ),
            "previousResult": add(
                "previousResultAction",
                ["Alt+Left", "["],
                lambda: pane.finished.step_result(False),
                self.tr("Previous result of the slot"),
            ),
            "new": add("newDraftAction", ["Ctrl+N"], lambda: self.new_draft(), self.tr("New slot")),
            "export": add("exportAction", ["Ctrl+E"], lambda: self.export(), self.tr("Export")),
            "settings": add(
                "settingsAction", ["Ctrl+,"], lambda: self.open_settings(), self.tr("Settings")
            ),
            "spend": add(
                "spendAction", ["Ctrl+Shift+S"], lambda: self.open_spend(), self.tr("Spend")
            ),
            "import": add(
                "importShotListAction",
                ["Ctrl+I"],
                lambda: self.import_shot_list(),
                self.tr("Import shot list…"),
            ),
            "template": add(
                "templateAction",
                ["Ctrl+Shift+T"],
                lambda: self.open_template(),
                self.tr("Scenes from a template…"),
            ),
            "queue": add(
                "queueAction",
                ["Ctrl+Shift+Q"],
                lambda: self.show_queue(not self.queue_shown()),
                self.tr("Queue"),
            ),
            "gallery": add(
                "galleryAction",
                ["Ctrl+G"],
                lambda: self.show_gallery(not self.gallery_shown()),
                self.tr("Gallery"),
            ),
            "quit": add("quitAction", ["Ctrl+Q"], lambda: self.request_quit(), self.tr("Quit")),
            "recall": add(
                "promptRecallAction",
                ["Ctrl+Shift+P"],
                lambda: self.open_recall(),
                self.tr("Earlier prompts…"),
            ),
            "shortcuts": add(
                "shortcutsAction",
                ["?", "F1"],
                lambda: self.show_shortcuts(),
                self.tr("Keyboard shortcuts"),
            ),
        }
        self.slot.offers_changed.connect(self._show_shortcut_offers)
        self._show_shortcut_offers(self.slot.offers())

    def open_recall(self) -> None:
        """Prompt recall: this user's earlier prompts, into the draft or a new slot."""
        from app.ui.recall import PromptRecall

        dlg = PromptRecall(self.controller.prompts, self.slot.is_draft, self)
        dlg.insertWanted.connect(self._insert_prompt)
        dlg.newSlotWanted.connect(self._new_slot_with_prompt)
        self._open_dialog(dlg)

    def _insert_prompt(self, text: str) -> None:
        if not self.slot.is_draft:
            return
        self.middle_stack.setCurrentWidget(self.slot_page)
        prompt = self.slot_pane.form.prompt
        prompt.insertPlainText(text)
        prompt.setFocus()

    def _new_slot_with_prompt(self, text: str) -> None:
        self.new_draft()
        prompt = self.slot_pane.form.prompt
        prompt.setPlainText(text)
        prompt.setFocus()

    def _prompt_menu(self, pos: Any) -> None:
        """The prompt's own menu, with "Earlier prompts…" (prompt recall) at its end."""
        prompt = self.slot_pane.form.prompt
        menu = prompt.createStandardContextMenu()
        menu.addSeparator()
        menu.addAction(self.shortcut_actions["recall"])
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(prompt.mapToGlobal(pos))

    def _mark_shown(self, key: str) -> bool:
        """Mark the result the finished slot shows (False: no result on screen)."""
        finished = self.slot_pane.finished
        if not finished.isVisible() or finished.current_position() is None:
            return False
        finished.mark(key)
        return True

    def show_shortcuts(self) -> None:
        """The shortcuts overlay, read from the actions above (one table, not a second list)."""
        from app.ui.shortcuts import ShortcutOverlay

        if isinstance(self.dialog, ShortcutOverlay):
            self.dialog.close()
            return
        self._open_dialog(ShortcutOverlay(self.shortcut_actions.values(), self))

    def _show_shortcut_offers(self, offers: Any) -> None:
        """The slot's shortcuts are enabled exactly when their buttons are, saying why not."""
        for name, action in (
            ("create", Action.CREATE),
            ("query", Action.QUERY),
            ("export", Action.EXPORT),
        ):
            offer, act = offers[action], self.shortcut_actions[name]
            act.setEnabled(offer.enabled)
            act.setToolTip(words.why_not(offer.reason, translate) if offer.reason else act.text())

    # -- the results gallery ---------------------------------------------------------------------
    def _build_gallery(self) -> None:
        c = self.controller
        self.thumbs = ThumbLoader(
            ThumbCache(default_cache_dir(c.config.data_dir)), warm=False, parent=self
        )
        self.gallery_model = GalleryModel(c, self.thumbs, self)
        self.gallery = GalleryPane(self.gallery_model)
        self.gallery_page = _frame(self.gallery)
        self.middle_stack.addWidget(self.gallery_page)
        self._gallery_where: tuple[str | None, str | None] = (None, None)
        self._gallery_stale = True
        self._gallery_timer = QTimer(self, singleShot=True, interval=1500)
        self._gallery_timer.timeout.connect(self._gallery_refresh)
        self.viewer: Viewer | None = None
        self.compare: CompareView | None = None
        self.gallery.slotActivated.connect(lambda rid: self.slot_pane.select(rid))
        self.gallery.viewerWanted.connect(self.open_viewer)
        self.gallery.compareWanted.connect(self.open_compare)
        self.gallery.scopeCleared.connect(self._gallery_all)
        if self.settings.gallery_tile is not None:  # the size the designer left it at
            self.gallery.size_slider.setValue(self.settings.gallery_tile)
        self.gallery.tileSizeChanged.connect(self._tile_size_changed)
        # "Use as first frame / last frame / reference" on a tile and in the viewer: a new draft
        # takes the result, as from the finished slot's results menu (a draft can always be
        # opened, so it is always offered).
        self.gallery.offer_use = True
        self.gallery.useResultWanted.connect(self.use_gallery_result)
        self.gallery.make2kWanted.connect(self.make_2k_of)
        self.make2k_dialog: Any = None
        self._build_picks()
        b = self.browser
        for combo in (b.state, b.kind, b.date):
            combo.currentIndexChanged.connect(self._gallery_follow)
        b._debounce.timeout.connect(self._gallery_follow)
        b.show_hidden.toggled.connect(self._gallery_follow)
        b.tree.selectionModel().currentChanged.connect(self._gallery_group)
        c.taskChanged.connect(self._gallery_task)

    def _chain(self) -> list[QWidget]:
        """The window's Tab stops, in its focus chain."""
        out, w = [], self.nextInFocusChain()
        while w is not self:
            if w.focusPolicy() & Qt.FocusPolicy.TabFocus:
                out.append(w)
            w = w.nextInFocusChain()
        return out

    def _tile_size_changed(self, size: int) -> None:
        self.settings.gallery_tile = size  # (written with the layout, on close)

    # -- picks and boards --------------------------------------------------------------------------
    def _build_picks(self) -> None:
        """One :class:`PickActions` marks results from the slot pane, the gallery and the viewer;
        the browser's and the gallery's pick filters stay alike."""
        self.picks = PickActions(self.controller, self)
        ask = lambda: self.ask_board()  # noqa: E731 - late-bound: tests answer the dialog
        self.gallery.set_picks(self.picks, ask)
        self.slot_pane.set_picks(self.picks, ask)
        self.picks.boardsChanged.connect(self._boards_changed)
        self.picks.refused.connect(lambda text: text and self.statusBar().showMessage(text, 8000))
        self.browser.picks.changed.connect(lambda: self._pick_filters(self.browser.picks))
        self.gallery.filters.changed.connect(lambda: self._pick_filters(self.gallery.filters))
        self.picks.refresh_boards()

    def ask_board(self) -> str | None:
        """Ask "Add to board…": which board (a new name makes one); None when cancelled."""
        from app.ui.picks import ask_board

        return ask_board(self.picks, self)

    def _boards_changed(self) -> None:
        for f in (self.browser.picks, self.gallery.filters):
            f.set_boards(self.picks.boards)

    def _pick_filters(self, source: Any) -> None:
        """A pick, rating or board filter chosen in the browser or the gallery: both show it."""
        other = self.gallery.filters if source is self.browser.picks else self.browser.picks
        other.set_values(**source.values())
        self._gallery_follow()  # the gallery's read begins first: it runs while the browser resets
        self.browser.apply_filter()

    def gallery_shown(self) -> bool:
        return self.middle_stack.currentWidget() is self.gallery_page

    def show_gallery(self, on: bool = True) -> None:
        """The gallery in the middle (the slot on the right stays), or back to the slot."""
        if on == self.gallery_shown():
            return
        if on:
            self.middle_stack.setCurrentWidget(self.gallery_page)
            self._gallery_follow()
            self.gallery.view.setFocus()
        else:
            self.middle_stack.setCurrentWidget(self.slot_page)

    def _gallery_page_changed(self) -> None:
        """The gallery takes the middle and the right: results big and first (the slot a click
        selects is one toggle away, Ctrl+G)."""
        self.gallery_button.setChecked(self.gallery_shown())
        self._place_history()

    # -- the history side panel ------------------------------------------------------------------
    def history_open(self) -> bool:
        """The history panel's place beside the slot: the designer's choice once made (kept in
        the settings), else open from :data:`HISTORY_OPEN_WIDTH` on."""
        chosen = self.settings.history_panel
        return chosen if chosen is not None else self.width() >= HISTORY_OPEN_WIDTH

    def set_history_open(self, on: bool) -> None:
        """The header's History toggle: open or close the panel, remembered for this window."""
        if on != self.history_open():
            self.settings.history_panel = on
        self._place_history()

    def _place_history(self) -> None:
        """Show the history panel when it is open and the slot (not the gallery) is on screen;
        closed, its room goes to the result."""
        on = self.history_open()
        toggle = self.slot_pane.history_toggle
        if toggle.isChecked() != on:
            toggle.blockSignals(True)
            toggle.setChecked(on)
            toggle.blockSignals(False)
        self._show_right(on and not self.gallery_shown())

    def _show_right(self, on: bool) -> None:
        if on and self._result_pane is None:
            self._make_result_pane()  # shown at the start: made before the first paint
        right = self.splitter.widget(2)
        if on != right.isHidden():
            return
        left, middle, wide = self.splitter.sizes()
        if not on:
            self._right_width = wide
            right.hide()
            narrow = min(left, max(LEFT_MIN, (left + middle + wide) * 22 // 100))
            self.splitter.setSizes([narrow, middle + wide + left - narrow, 0])
            return
        right.show()
        wide = max(RIGHT_MIN, self._right_width or (left + middle) // 3)
        self.splitter.setSizes([left, max(MIDDLE_MIN, middle - wide), wide])

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.settings.history_panel is None:  # no choice made: the width decides
            self._place_history()

    def gallery_scope(self) -> GalleryScope:
        project, day = self._gallery_where
        return GalleryScope(self.browser.current_filter(), project, day)

    def _gallery_follow(self, *_: Any) -> None:
        if not self.gallery_shown():
            self._gallery_stale = True
            return
        scope = self.gallery_scope()
        if self._gallery_stale and scope == self.gallery_model.scope:
            self.gallery_model.reload()
        self._gallery_stale = False
        self.gallery.set_scope(scope)

    def _gallery_group(self, current: Any, _previous: Any = None) -> None:
        """A project or day row chosen in the browser: the gallery shows that group."""
        if not current.isValid():
            return
        node = current.siblingAtColumn(0).internalPointer()
        kind = getattr(node, "kind", None)
        if kind == "project":
            self._gallery_where = (node.key, None)
        elif kind == "day":
            self._gallery_where = (node.parent.key, node.key)
        else:
            return
        self._gallery_follow()

    def _gallery_all(self) -> None:
        self._gallery_where = (None, None)
        self._gallery_follow()

    def _gallery_task(self, view: Any) -> None:
        """A slot changed: its tiles redraw; new results arrive with a calm refresh (only when
        the grid is at its top, so a designer scrolled down is never moved)."""
        held = self.gallery_model.update_state(view.id, view.state)
        if held and (not view.media or self.gallery_model.has_media(view.id)):
            return
        self._gallery_stale = True
        if self.gallery_shown():
            self._gallery_timer.start()

    def _over_window(self, dlg: Any) -> None:
        """A lightbox covers the window (at least its minimum size)."""
        geo = self.geometry()
        dlg.resize(max(geo.width(), 1000), max(geo.height(), 640))
        dlg.move(geo.topLeft())

    def open_viewer(self, row: int) -> Viewer:
        """The viewer on a gallery row (the same viewer, reused)."""
        if self.viewer is None:
            from app.ui.viewer import Viewer

            self.viewer = Viewer(self.gallery_model, self)
            self.viewer.slotWanted.connect(self._viewer_slot)
            self.viewer.finished.connect(self._lightbox_closed)
            self.viewer.compareWanted.connect(self.open_compare)
            self.viewer.useResultWanted.connect(self.gallery.useResultWanted)
            self.viewer.set_picks(self.picks, lambda: self.ask_board())
        if not self.viewer.isVisible():
            self._over_window(self.viewer)
        self.viewer.offer_use = self.gallery.offer_use
        self.viewer.show_row(row)
        self._bring_up(self.viewer)
        return self.viewer

    def _lightbox_closed(self, *_: Any) -> None:
        if self._gallery_stale and self.gallery_shown():
            self._gallery_timer.start()

    def _viewer_slot(self, request_id: str) -> None:
        if self.viewer is not None:
            self.viewer.close()
        self.slot_pane.select(request_id)

    def open_compare(self, a: int, b: int) -> CompareView | None:
        """Results ``a`` and ``b`` of the gallery side by side."""
        if self.compare is None:
            from app.ui.compare import CompareView

            self.compare = CompareView(self.gallery_model, self)
            self.compare.finished.connect(self._lightbox_closed)
        if not self.compare.show_pair(a, b):
            return None
        if self.viewer is not None and self.viewer.isVisible():
            self.viewer.close()
        if not self.compare.isVisible():
            self._over_window(self.compare)
        self._bring_up(self.compare)
        return self.compare

    @staticmethod
    def _bring_up(dlg: Any) -> None:
        dlg.show()
        if QGuiApplication.platformName() != "offscreen":  # (offscreen warns it cannot raise)
            dlg.raise_()
            dlg.activateWindow()

    def _gallery_refresh(self) -> None:
        if any(d is not None and d.isVisible() for d in (self.viewer, self.compare)):
            return  # never under the designer's eyes: refreshed when the lightbox closes
        if (
            self.gallery_shown()
            and self.gallery.view.verticalScrollBar().value() == 0
            and not self.gallery_model.loading
        ):
            self._gallery_stale = False
            self.gallery_model.reload()

    # -- layout persistence ----------------------------------------------------------------------
    def _layout_parts(self) -> dict[str, tuple[Any, Any]]:
        """The parts whose state is kept under ``window/<key>``: (save, restore)."""
        return {
            "state": (self.saveState, self.restoreState),
            "slotHeader": (self.browser.save_layout, self.browser.restore_layout),
            "historySplitter": (
                (pane.save_layout, pane.restore_layout)
                if (pane := self._result_pane) is not None
                else (lambda: self._history_state, self._keep_history_state)
            ),
        }

    def restore_layout(self) -> None:
        parts = self._layout_parts()
        self.settings.restore_window(self, {key: restore for key, (_, restore) in parts.items()})

    def save_layout(self) -> None:
        parts = {key: save for key, (save, _) in self._layout_parts().items()}
        parts["splitter"] = self.splitter.saveState
        self.settings.save_window(self, parts, self.slot.selected)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._shown:  # the splitter's sizes fit the shown window only
            self._shown = True
            split = self.settings.layout_state("splitter")
            if split is not None:
                self.splitter.restoreState(split)
            self._place_history()

    def changeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.model.schedule_refresh()  # back from the terminal: show what the CLI made

    def request_quit(self) -> None:
        """Ctrl+Q: quit, asking first while a create is being sent."""
        if self._must_ask():
            self._ask_quit()
        else:
            self.close()

    def _must_ask(self) -> bool:
        return bool(getattr(self.controller, "sending", 0)) and not self._quit_anyway

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        # the window's close button (a spontaneous close) asks like Ctrl+Q; the app's own
        # close() (a screenshot run, a rebuilt window) goes on
        if event.spontaneous() and self._must_ask():
            event.ignore()  # a create is on its way: say what quitting does to it, then ask
            self._ask_quit()
            return
        self.show_gallery(False)  # the right pane back: its width is part of the saved layout
        self.save_layout()
        if self._result_pane is not None:
            self._result_pane.stop()
        self.slot_pane.stop()
        self.thumbs.close()
        for dlg in (self.viewer, self.compare):
            if dlg is not None:
                dlg.close()
        if self.dialog is not None:
            self.dialog.close()
        super().closeEvent(event)

    def _ask_quit(self) -> None:
        """Quitting while a create is being sent is safe, and the designer is told why: the
        slot comes back as Unknown and is recovered, never paid twice."""
        box = QMessageBox(self)
        box.setObjectName("quitWhileSending")
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("Quit Slate?"))
        box.setText(self.tr("A create is being sent to the provider."))
        box.setInformativeText(
            self.tr(
                "If you quit now, its slot will show as Unknown when Slate opens again. Nothing "
                "is paid twice: query or recover it then, and Slate finds the task if it was made."
            )
        )
        quit_button = box.addButton(self.tr("Quit anyway"), QMessageBox.ButtonRole.AcceptRole)
        quit_button.setObjectName("quitAnywayButton")
        stay = box.addButton(self.tr("Keep Slate open"), QMessageBox.ButtonRole.RejectRole)
        stay.setObjectName("keepOpenButton")
        box.setDefaultButton(stay)

        def answered(_result: int) -> None:
            if box.clickedButton() is quit_button:
                self._quit_anyway = True
                QTimer.singleShot(0, self.close)  # after the box has gone

        box.finished.connect(answered)
        self._open_dialog(box)

    # -- which slot, which page ------------------------------------------------------------------
    def select(self, request_id: str, *, fresh: bool = False) -> None:
        """Show a stored slot: its record, history and media (loaded by the controller)."""
        self.middle_stack.setCurrentWidget(self.slot_page)
        self.slot_pane.select(request_id, fresh=fresh)

    def new_draft(self, *, initial: bool = False) -> None:
        """A blank slot: today's date, the current project, the next free scene, and the
        parameters from the user's defaults (Settings), not the last slot's."""
        # a draft the designer asked for stays on screen: the welcome page never replaces it,
        # even when the store's first (empty) page arrives after the click
        self._draft_asked = not initial
        if not initial:
            self.middle_stack.setCurrentWidget(self.slot_page)
        self.slot_pane.new_draft(focus=not initial, defaults=self.settings.draft_defaults())

    def use_result_as(
        self, media: MediaView | ResultRef | str, role: Role | str, *, source: Any = ON_SCREEN
    ) -> None:
        """Open a new draft fed with a result: ``media`` (a :class:`MediaView`, a gallery
        :class:`ResultRef` or a file path) becomes the draft's ``role``
        (:class:`~app.ui.chain.Role` or its value: ``"first_frame"``, ``"last_frame"``,
        ``"subject_reference"``). An image goes in as it is; a video gives its **last frame**
        (decoded off the UI thread) — video → video continuity. ``source``, the slot the result
        comes from (default: the slot on screen), stays visible beside the new draft, and the
        draft takes its project. Returns at once; a file that cannot be used is said in the slot
        pane's message line."""
        role = Role(role)
        path, content_type = media_path(media)
        if source is ON_SCREEN:
            source = self.slot.task
        self._draft_asked = True
        self.middle_stack.setCurrentWidget(self.slot_page)
        defaults = self.settings.draft_defaults()
        if role is Role.EDIT:  # an image edited: a MiniMax-H3-Image draft, the image its reference
            defaults = dataclasses.replace(defaults, kind="image", model=H3_IMAGE_MODELS[0])
        elif role is Role.AUDIO:  # a sound: the reference audio of a MiniMax-H3 draft
            defaults = dataclasses.replace(defaults, kind="video", model=h3_model(defaults.model))
        elif role is not Role.REFERENCE and defaults.kind != "video":
            defaults = dataclasses.replace(defaults, kind="video", model=None)
        self.slot_pane.new_draft(
            focus=False,
            defaults=defaults,
            source=source,
            project=getattr(source, "project", None) or None,
        )
        name = self._result_name(media, path, source)
        if role is Role.AUDIO:
            self.slot_pane.feed_audio(name, lambda: reference_audio(path, content_type))
            return
        picker = self.slot_pane.form.picker(
            Role.REFERENCE.value if role is Role.EDIT else role.value
        )
        if is_video(path, content_type):
            name = self.tr("last frame of %1").replace("%1", name)
        self.slot_pane.feed(picker, name, lambda: frame_data_url(path, content_type))

    def _result_name(self, media: Any, path: str, source: Any) -> str:
        """A result as a designer knows it: its slot's scene and which picture ("scene-02,
        image 2"), never the stored file's hash-made name."""
        rid = getattr(media, "request_id", None) or getattr(source, "request_id", None)
        if not rid:
            return Path(path).name  # a file the designer chose: its own name
        scene = rid.rsplit(":", 1)[-1]
        results = [str(getattr(m, "path", "")) for m in (getattr(source, "media", None) or ())]
        if len(results) > 1 and str(path) in results:
            return (
                self.tr("%1, image %2")
                .replace("%1", scene)
                .replace("%2", str(results.index(str(path)) + 1))
            )
        return scene

    def use_gallery_result(self, role: str, ref: ResultRef) -> None:
        """ "Use as …" on a gallery tile or in the viewer: the lightbox closes and a new draft
        takes the result exactly as from the finished slot's menu (:meth:`use_result_as`), with
        the result's own slot as its source (read from the store first: no export, no dialog).
        ``role``: the gallery's ``"first_frame"``, ``"last_frame"`` or ``"reference"``."""
        chosen = Role.REFERENCE if role == "reference" else Role(role)
        for dlg in (self.viewer, self.compare):
            if dlg is not None and dlg.isVisible():
                dlg.close()
        self.middle_stack.setCurrentWidget(self.slot_page)

        def found(out: Result[Any]) -> None:
            self.use_result_as(ref, chosen, source=out.task)

        self.controller.lookup(ref.request_id, found)

    # -- Make 2K (a derived slot) ---------------------------------------------------------------
    def make_2k_of(self, request_id: str) -> None:
        """ "Make 2K…" on a gallery tile: the slot is read from the store first."""
        self.controller.lookup(request_id, lambda out: out.task and self.make_2k(out.task))

    def make_2k(self, task: Any) -> None:
        """Ask first, naming the price (the service's estimate of the 2K slot), then re-render the
        finished video at 2K as a new slot (``<RequestId>.2k``) and show it; the source slot
        never changes. Not offered (the domain's reason): said in the message line. Made before:
        asked again without a price (the service replays it: no second paid call)."""
        from app.ui.make2k import new_request_id, why_not_task

        why = why_not_task(task)
        if why is not None:
            self.slot_pane.show_message(why)
            return
        new = new_request_id(task)

        def found(out: Result[Any]) -> None:
            if out.task is not None:
                self._regenerate(task.request_id, new)
            else:
                self._confirm_2k(task)

        self.controller.lookup(new, found)

    def _confirm_2k(self, task: Any) -> None:
        from app.ui.make2k import Make2kConfirm, regeneration_params

        answer = self.controller.estimate("video", regeneration_params(task))
        dlg = self.make2k_dialog = Make2kConfirm(task, answer, self)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(_result: int) -> None:
            self.make2k_dialog = None
            if dlg.clickedButton() is dlg.make:
                self._regenerate(dlg.request_id, dlg.new_request_id)

        dlg.finished.connect(answered)
        dlg.open()

    def _regenerate(self, request_id: str, new_request_id: str) -> None:
        self.show_gallery(False)
        self.slot_pane.show_message(self.tr("Asking MiniMax for the 2K version…"), error=False)

        def done(out: Result[Any]) -> None:
            if out.task is not None and out.request_id:
                self.slot_pane.show_message("")
                self.select(out.request_id)
            else:
                said = words.for_outcome(out.problem, translate=translate)
                self.slot_pane.show_message(said.text, detail=said.detail)

        self.controller.regenerate(request_id, new_request_id, done)

    def open_running(self) -> None:
        """The slots running now are in view: their project and day are opened at start, and
        the queue panel is open when anything runs."""
        c = self.controller

        def found(rows: list[Any]) -> None:
            self.model.open_rows(rows[:5])  # the newest few: their groups, not the whole store
            if rows:
                self.show_queue(True)

        c.load(c.reader.running(), done=found)

    def show_queue(self, on: bool = True) -> None:
        """Open or close the queue panel (the top bar's Queue button, Ctrl+Shift+Q)."""
        if on or self._queue is not None:  # (closed and never opened: nothing to close)
            self.queue.setVisible(on)
        self.top_bar.queue_button.setChecked(on)

    def queue_shown(self) -> bool:
        return self._queue is not None and self._queue.isVisible()

    @property
    def queue(self) -> QueuePanel:
        """The queue panel (made when first opened or asked for: hidden till then)."""
        return self._queue if self._queue is not None else self._make_queue()

    def _make_queue(self) -> QueuePanel:
        """The panel above the slot list, as if made with the window: the column's first
        widget, its Tab stops before the browser's, the controller's last status in it."""
        c = self.controller
        queue = self._queue = QueuePanel(c, self.slot_pane.estimates)
        queue.hide()
        self._column_box.insertWidget(0, queue)
        queue.lower()  # the column's first child, as made first
        chain = self._chain()
        first = next((w for w in chain if self.browser.isAncestorOf(w)), None)
        before = chain[: chain.index(first)] if first is not None else []
        before = [w for w in before if not queue.isAncestorOf(w)]
        if before:
            _tab_after(before[-1], queue)
        status = getattr(c, "status", None)
        if status is not None:  # what it would have shown, made with the window
            queue.show_entries(list(status.queue), total=status.running)
        queue.slotWanted.connect(self.select)
        return queue

    def _hidden_changed(self, _request_id: str, _hidden: bool) -> None:
        """A slot hidden or shown again: the browser's rows and the gallery read the store again."""
        self.model.reload()
        self.model.fetch_all_roots()
        self._gallery_stale = True
        self._gallery_follow()

    def _slot_loaded(self, request_id: str, task: Any, events: list[Any]) -> None:
        self.slot.show(request_id, task, events)

    def _maybe_empty(self, *_: Any) -> None:
        """First launch: no slot at all and nothing being written → the welcome page, unless
        the designer has asked for a new slot meanwhile."""
        m = self.model
        if (
            not self._draft_asked
            and m.rowCount() == 0
            and not m.loading
            and m.started
            and not self.browser.filtered()
            and self.slot.is_draft
            and self.slot_pane.is_blank()
        ):
            self.middle_stack.setCurrentWidget(self.welcome)
        elif self.middle_stack.currentWidget() is self.welcome and m.rowCount() > 0:
            self.middle_stack.setCurrentWidget(self.slot_page)

    def _reset(self) -> None:
        """The service was rebuilt (settings applied): reload the slots, and stay where the designer
        was — the same slot if it exists under the new identity, the draft being written, or else a
        blank slot."""
        self.browser.reload_keeping_open()
        self.model.fetch_all_roots()
        rid = self.slot.selected
        if self.slot.is_draft:
            self.slot_pane.refresh_draft()
            return
        if rid is None:
            self.new_draft(initial=True)
            return

        def found(out: Result[Any]) -> None:
            if self.slot.is_draft or self.slot.selected != rid:
                return
            if out.task is not None:
                self.select(rid, fresh=True)
            else:  # not a slot of the new identity: a blank page, not the old project
                self._draft_asked = False
                self.slot_pane.new_draft(focus=False, project="")
                self._maybe_empty()

        self.controller.lookup(rid, found)

    # -- dialogs ---------------------------------------------------------------------------------
    def _open_dialog(self, dlg: Any) -> None:
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = dlg
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.finished.connect(
            lambda _r, d=dlg: setattr(self, "dialog", None) if self.dialog is d else None
        )
        dlg.open()

    def open_recover(self) -> None:
        task = self.slot.task
        if task is None or not self.slot.offer(Action.RECOVER).enabled:
            return
        rid = task.request_id
        options = task.recover  # the service's answer, for this slot's own protocol
        from app.ui.dialogs import RecoverDialog

        dlg = RecoverDialog(
            rid, options, can_lookup=options[RecoverWay.LOOKUP].offered, parent=self
        )
        dlg.recover.connect(lambda how: self.slot_pane.recover(rid, how))
        self._open_dialog(dlg)

    # -- the app's own lookup for an unknown slot --------------------------------------------------
    def _maybe_look(self, task: Any) -> None:
        """An unknown slot whose provider lists tasks comes on screen: look it up once (this
        session) and show what was found; nothing is attached without the user."""
        if task is None or task.state != State.UNKNOWN or task.request_id in self._looked:
            return
        lookup = getattr(task, "recover", {}).get(RecoverWay.LOOKUP)
        if lookup is None or not lookup.offered or task.provider_task_id:
            return
        rid = task.request_id
        self._looked.add(rid)
        self.status_pane.show_notice(self.tr("Looking for this slot's task at the provider…"))
        self.controller.look(rid, lambda out: self._looked_up(rid, out))

    def _looked_up(self, rid: str, out: Result[Any]) -> None:
        task = self.slot.task
        if task is None or task.request_id != rid or task.state != State.UNKNOWN:
            return
        report = out.payload
        if not isinstance(report, LookupReport):
            msg = out.problem.message if out.problem else ""
            self.status_pane.show_notice(
                self.tr("The provider's task list did not answer: %1").replace("%1", msg),
                error=True,
            )
            return
        name = "MiniMax" if not self.controller.demo else self.tr("the demo provider")
        from app.ui.lookup import LookupDialog

        dlg = LookupDialog(rid, report, name, self)
        dlg.attach.connect(lambda how: self.slot_pane.recover(rid, how))
        dlg.otherWays.connect(self.open_recover)
        self._open_dialog(dlg)

    def export(self) -> None:
        task = self.slot.task
        if task is None or not self.slot.offer(Action.EXPORT).enabled:
            return
        rid = task.request_id
        self.choose_directory(lambda folder: folder and self.slot_pane.export(rid, folder))

    def choose_directory(self, done: Any) -> None:
        """Ask for a folder without a nested event loop (tests replace this)."""
        from app.ui.dialogs import folder_dialog

        self._open_dialog(folder_dialog(self, done))

    def choose_file(self, done: Any) -> None:
        from app.ui.dialogs import image_dialog

        self._open_dialog(image_dialog(self, done))

    def choose_media(self, done: Any) -> None:
        """A picture, video or sound clip for the reference list (tests replace this)."""
        from app.ui.dialogs import media_dialog

        self._open_dialog(media_dialog(self, done))

    def _choose_frame(self, picker: Any) -> None:
        choose = self.choose_media if isinstance(picker, ReferenceList) else self.choose_file
        choose(lambda path: path and self.slot_pane.use_file(picker, path))

    def _conflict(self, out: Result[Any]) -> None:
        problem = out.problem
        diff = (problem.diff if problem else None) or {}
        suggested = (problem.suggested_request_id if problem else None) or ""
        from app.ui.dialogs import ConflictDialog

        dlg = ConflictDialog(out.request_id or "", diff, suggested, self)
        kind, params = self.slot_pane.form_values()
        dlg.createAsNew.connect(lambda rid: self.slot_pane.create_as(rid, kind, params))
        self._open_dialog(dlg)

    def open_spend(self) -> None:
        """The Spend view: today, this week, per project — the figures of ``slate spend``."""
        from app.ui.spend import SpendDialog

        self._open_dialog(SpendDialog(self.controller, self))

    # -- shot lists --------------------------------------------------------------------------------
    def import_shot_list(self, path: str | None = None) -> None:
        """ "Import shot list…": a CSV or YAML file → the review of its dry run → Create all."""
        if path is None:
            self.choose_shot_list(lambda chosen: chosen and self.import_shot_list(chosen))
            return
        self.review_shot_list(path, None, Path(path).name)

    def choose_shot_list(self, done: Any) -> None:
        """Ask for a shot-list file (tests replace this)."""
        from app.ui.shotlist import shotlist_dialog

        self._open_dialog(shotlist_dialog(self, done))

    def review_shot_list(self, source: Any, base_dir: Any, title: str) -> None:
        from app.ui.shotlist import ShotListDialog

        dlg = ShotListDialog(self.controller, source, base_dir, title, self)
        dlg.created.connect(lambda _rids: self.model.schedule_refresh())
        self._open_dialog(dlg)

    def open_template(self) -> None:
        """Scenes NN–MM of the project on screen from one prompt, with the form's settings."""
        from app.domain.templates import scene_kind
        from app.ui.shotlist import TemplateDialog

        form_kind, params = self.slot_pane.form_values()
        kind = scene_kind(form_kind)  # a song's or voice line's form: the scenes are video
        if kind != form_kind:
            params = {}  # nor its style or text: no scene's prompt
        options = {
            k: v
            for k, v in params.items()
            if k in TEMPLATE_OPTIONS and isinstance(v, (str, int)) and not isinstance(v, bool)
        }
        dlg = TemplateDialog(self.slot_pane.composer.project.text().strip(), kind, options, self)
        dlg.prompt.setPlainText(params.get("prompt") or "")
        dlg.reviewWanted.connect(
            lambda shots: self.review_shot_list(shots, None, self.tr("template"))
        )
        dlg.saveWanted.connect(
            lambda rows: self.choose_save(lambda path: path and self._save_rows(rows, path))
        )
        self._open_dialog(dlg)

    def choose_save(self, done: Any) -> None:
        """Ask where to save a shot list (tests replace this); the template stays open."""
        from app.ui.shotlist import save_dialog

        dlg = save_dialog(self, done)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.open()

    def _save_rows(self, rows: list[Any], path: str) -> None:
        from app.ui.shotlist import save_rows

        err = save_rows(rows, path)
        self.status_pane.show_notice(
            self.tr("Not saved: %1").replace("%1", err)
            if err
            else self.tr("Saved %1 scenes to %2")
            .replace("%1", str(len(rows)))
            .replace("%2", Path(path).name),
            error=bool(err),
        )

    # -- drops on the window: a shot list opens its review; media go into the form --------------
    def dragEnterEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        if sources_of(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        sources = sources_of(event.mimeData())
        if not sources:
            event.ignore()
            return
        event.acceptProposedAction()
        shots = [s for s in sources if s.lower().endswith(SHOTLIST_SUFFIXES)]
        if shots:
            self.import_shot_list(shots[0])
            return
        media = [s for s in sources if kind_of_source(s) is not None]
        if media and self.slot.is_draft:
            self.middle_stack.setCurrentWidget(self.slot_page)
            self.slot_pane.form.take_dropped(media)
        elif media:
            self.slot_pane.show_message(
                self.tr("This slot's inputs are fixed. Start a new slot to use what you dropped.")
            )

    def apply_theme(self) -> None:
        """The theme Settings chose (``system``: the platform's light or dark, followed)."""
        apply_theme(self, resolve(self.settings.theme))

    def _scheme_changed(self, _scheme: Any) -> None:
        if self.settings.theme == "system":
            self.apply_theme()

    def open_settings(self) -> None:
        if Busy.SETTINGS in self.slot.busy:
            return
        values = settings_mod.dialog_values(self.controller.config, self.settings.saved_region())
        values["notify_finished"] = self.settings.notify_finished
        values["theme"] = self.settings.theme
        values["language"] = self.settings.language
        values["draft_defaults"] = self.settings.draft_defaults()
        from app.ui.dialogs import SettingsDialog

        dlg = SettingsDialog(
            values,
            self.controller.key_source,
            self,
            fixed=self.settings.fixed,
            check=lambda v: self.settings.check_values(self.controller, v),
        )
        dlg.applied.connect(self.apply_settings)
        dlg.pricesWanted.connect(lambda: self.open_prices(dlg))
        self._open_dialog(dlg)

    def open_prices(self, over: QWidget | None = None, model: str | None = None) -> None:
        """Settings → Prices: the table in use and the designer's own prices (``slate prices``).
        ``over``: the dialog it opens from, which stays open beneath it; ``model``: the line
        selected ("Give it a price…" beside a draft the budget refuses for want of a price)."""
        from app.ui.prices import PricesDialog

        if over is None:
            dlg = PricesDialog(self.controller, self, model)
            self.prices_dialog = dlg
            self._open_dialog(dlg)
            return
        dlg = PricesDialog(self.controller, over, model)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.prices_dialog = dlg
        dlg.open()

    def apply_settings(self, values: dict[str, Any]) -> None:
        """Apply the dialog's values (:meth:`Settings.apply_change`); nothing acts meanwhile.
        The notification switch is the window's own: saved at once."""
        if "notify_finished" in values:
            self.settings.notify_finished = bool(values["notify_finished"])
        if values.get("theme"):  # the window's own too: on screen at once
            self.settings.theme = str(values["theme"])
            self.apply_theme()
        language = values.get("language")
        relabel = bool(language) and language != self.settings.language
        if relabel:
            self.settings.language = str(language)
        if isinstance(values.get("draft_defaults"), settings_mod.DraftDefaults):
            self.settings.save_draft_defaults(values["draft_defaults"])
        try:
            change = settings_mod.SettingsChange.from_dialog(values)
        except Exception as exc:  # noqa: BLE001 - checked by the dialog; said, never raised
            self.slot_pane.show_message(self.tr("Settings not applied: %1").replace("%1", f"{exc}"))
            return
        self.slot.begin(Busy.SETTINGS)
        self.status_pane.show_notice(self.tr("Applying settings…"), keep=True)

        def applied(err: str | None) -> None:
            self.slot.end(Busy.SETTINGS)
            if err:
                text = self.tr("Settings not applied: %1").replace("%1", err)
                self.slot_pane.show_message(text)
                self.status_pane.show_notice(text, error=True, keep=True)
            else:
                self.status_pane.show_notice(self.tr("Settings applied."))
            if relabel:  # last: the window is rebuilt in the new language
                self.switch_language(self.settings.language)

        self.settings.apply_change(self.controller, change, applied)

    def switch_language(self, language: str) -> MainWindow:
        """The language Settings chose, without a restart: the translations are loaded and the
        window is built again in them, in its place — the same size and layout, the same slot
        (or the draft's kind and parameters) — and this one goes. The controller, the service
        and the work they run stay as they are."""
        from contextlib import suppress

        from app.ui.language import install_translations
        from app.ui.qt import QApplication

        app = QApplication.instance()
        if isinstance(app, QApplication):
            install_translations(app, None if language == "system" else language)
        self.save_layout()
        rid, draft = self.slot.selected, self.slot.is_draft
        kind, params = self.slot_pane.form_values()
        rid_text = self.slot_pane.composer.request_id()
        c = self.controller
        for signal in (c.taskChanged, c.slotLoaded, c.outcomeArrived, c.conflictArrived,
                       c.statusChanged, c.actionFailed, c.errorOccurred, c.reset):  # fmt: skip
            with suppress(RuntimeError, TypeError):  # this window's panes let go of them
                signal.disconnect()
        new = MainWindow(c, self.settings)
        new.setGeometry(self.geometry())
        new.show()
        if draft:
            new.slot_pane.form.set_params(kind, params)
            if rid_text:
                new.slot_pane.composer.set_request_id(rid_text)
        elif rid:
            new.select(rid)
        self.replaced_by = new
        self.close()
        self.browser._ages.stop()  # its refreshes are the new window's now

        async def retire() -> None:  # reads already on their way land here first
            await c.runner.settled()
            self.deleteLater()

        asyncio.ensure_future(retire())
        c.refresh_status_soon()
        return new
