"""The middle pane: the slot on screen — its RequestId, state banner, composer, form and actions.

Bound to :class:`~app.ui.current.CurrentSlot`: a record on screen fills the composer and the form
(read-only), a draft's edits go into :meth:`CurrentSlot.edit_draft`, and the buttons show the
slot's offers (:mod:`app.ui.panes.actions`). The pane runs the slot's own work with the
controller — select a slot, start a draft (blank, or "New slot" from the one on screen), create,
query, recover, export — with the slot's busy flags set while it runs, and says the outcome in its
message line. Dialogs belong to the window: the pane asks for them with signals.
"""

from __future__ import annotations

import datetime as dt
from contextlib import suppress
from typing import Any

import shiboken6

from app.domain.cost import BudgetRefusal
from app.domain.drafts import ProblemKind
from app.domain.errors import ValidationError
from app.domain.states import Action
from app.service.commands import RecoverHow
from app.service.results import Exported, OutcomeKind, Result
from app.service.views import TaskView
from app.ui.current import Busy, CurrentSlot
from app.ui.form import CreateForm, FramePicker, RequestIdComposer
from app.ui.widgets import ElidedLabel
from app.ui.panes.actions import ActionBar
from app.ui.panes.banner import Banner
from app.ui.progress import Estimates
from app.ui.panes.finished import FinishedView
from app.ui.panes.tidy import TidyBar
from app.ui.qt import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    Qt,
    QTimer,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
    translate,
)
from app.present import words
from app.ui.style import state_word


def _tab_after(first: QWidget, *widgets: QWidget) -> None:
    """The Tab stops inside ``widgets``, in their order, right after ``first``."""
    for widget in widgets:
        stops, w = [], widget.nextInFocusChain()
        while w is not widget:  # the window's whole chain, once
            if widget.isAncestorOf(w) and w.focusPolicy() & Qt.FocusPolicy.TabFocus:
                stops.append(w)
            w = w.nextInFocusChain()
        for w in stops:
            QWidget.setTabOrder(first, w)
            first = w


#: Outcomes said in the message line only (the slot on screen stays as it is).
SAID_ONLY = (
    OutcomeKind.INVALID,
    OutcomeKind.QUOTA_EXCEEDED,
    OutcomeKind.BUDGET_EXCEEDED,
    OutcomeKind.NOT_FOUND,
)


class SlotPane(QWidget):
    """Heading, banner, composer, form and the action bar of the slot on screen."""

    slotWanted = Signal(str)  # show this slot (the "already used" link, a slot just created)
    recoverWanted = Signal()  # the Recover button: the window asks how
    exportWanted = Signal()  # the Export button: the window asks where
    frameWanted = Signal(object)  # the FramePicker that wants a file
    submitted = Signal(str)  # a create the designer started here (the notifier follows it)
    pricesWanted = Signal(str)  # "Give it a price…": the Prices dialog, this model selected
    useWanted = Signal(object, str)  # the results view's: feed a new slot with a result
    make2kWanted = Signal(object)  # the results view's: re-render this task at 2K

    def __init__(
        self,
        controller: Any,
        slot: CurrentSlot,
        parent: QWidget | None = None,
        *,
        lazy_form: bool = False,
        lazy_finished: bool = False,
    ) -> None:
        """``lazy_form``: the create form is made on first use (:attr:`form`), not here — the
        window's first paint goes without it (issue 34); the pane is otherwise the same.
        ``lazy_finished``: so is a stored slot's results view (:attr:`finished`)."""
        super().__init__(parent)
        self.setObjectName("slotPane")
        self.controller = controller
        self.slot = slot
        self._shown: tuple[str, Any] | None = None  # the record in the form: (kind, params)
        self._detail = ""  # the technical words of the last outcome (behind Details)
        self._said_about = ""  # the slot the message line speaks of (its RequestId)
        self.heading = ElidedLabel(objectName="slotHeading")
        self.heading.setStyleSheet("font-size: 15px; font-weight: 600; font-family: monospace;")
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner = Banner(slot)
        self.estimates = Estimates(controller)
        self.banner.estimates = self.estimates
        self.estimates.changed.append(self.banner.update_progress)
        self.composer = RequestIdComposer()
        self.used_hint = QLabel(objectName="hint")
        self.used_hint.setWordWrap(True)
        self.used_hint.setTextFormat(Qt.TextFormat.RichText)
        self.used_hint.hide()
        self._form: CreateForm | None = None
        # the form's place, made now: its fields come after the RequestId's in the Tab order
        self._holder = QWidget(objectName="formHolder")
        QVBoxLayout(self._holder).setContentsMargins(0, 0, 0, 0)
        self.enhancer: Any = None  # the form's Enhance prompt, made with the form
        self.locked_hint = QLabel(
            self.tr("This slot's parameters are fixed. Use New slot to change them."),
            objectName="hint",
        )
        self.locked_hint.setWordWrap(True)
        self.locked_hint.hide()  # shown for a stored slot only (a first draft changes no task)
        self.actions = ActionBar(slot)
        self.composer.changed.connect(
            lambda _rid: self.enhancer is not None and self.enhancer.update_offer()
        )

        inner = QWidget(objectName="slotInner")
        box = QVBoxLayout(inner)
        box.setContentsMargins(4, 4, 8, 4)
        box.setSpacing(8)
        # a stored slot: results large, then summary (made on first use with lazy_finished)
        self._finished: FinishedView | None = None
        self._picks: tuple[Any, Any] | None = None  # (PickActions, ask_board) for its marks
        self.banner.progressShown.connect(
            lambda value, most: self.finished.running.set_progress(value, most)
        )
        self.tidy = TidyBar(controller, slot)  # hide, delete local media, "media removed here"
        self.tidy.recoverWanted.connect(self.recover)
        self.tidy.said.connect(lambda text, error: self.show_message(text, error))
        head = QWidget(objectName="slotHead")  # the slot's name, and its Tidy up menu
        hbox = QHBoxLayout(head)
        hbox.setContentsMargins(0, 0, 0, 0)
        hbox.addWidget(self.heading, 1)
        # the history side panel (events, files, details): the window opens and closes it
        self.history_toggle = QToolButton(objectName="historyToggle", text=self.tr("History"))
        self.history_toggle.setCheckable(True)
        self.history_toggle.setToolTip(
            self.tr("Show or hide the slot's history and its files' details beside the result")
        )
        self.history_toggle.setAccessibleName(self.tr("History panel"))
        hbox.addWidget(self.history_toggle, 0, Qt.AlignmentFlag.AlignVCenter)
        hbox.addWidget(self.tidy.menu_button, 0, Qt.AlignmentFlag.AlignVCenter)
        for widget, stretch in (
            (head, 0),
            (self.banner, 0),
            (self.tidy, 0),
            (self.composer, 0),
            (self.used_hint, 0),
            (self._holder, 1),
            (self.locked_hint, 0),
        ):
            box.addWidget(widget, stretch)
        self._box = box  # the results view goes after the Tidy bar (_make_finished)
        scroll = QScrollArea(objectName="slotScroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(scroll, 1)
        column.addWidget(self.actions)

        self._lookup_timer = QTimer(self, singleShot=True, interval=400)
        self._lookup_timer.timeout.connect(self._lookup_draft)
        self.used_hint.linkActivated.connect(self.slotWanted)
        # a bound method, not a lambda: the controller may outlive the pane, and a lambda it
        # held kept the pane and its window alive after they closed
        controller.statusChanged.connect(self._status_changed)
        self.composer.changed.connect(self._composer_changed)
        self.composer.nextSceneWanted.connect(lambda prefix: self._next_scene(prefix))
        self.actions.triggered.connect(self._triggered)
        self.actions.priceWanted.connect(self.pricesWanted)
        slot.task_changed.connect(lambda _task: self._show_slot())
        slot.loading_changed.connect(lambda _loading: self._show_slot())
        controller.taskChanged.connect(self._task_changed)
        controller.outcomeArrived.connect(self._outcome)
        controller.actionFailed.connect(self._end)
        controller.errorOccurred.connect(self.show_error)
        if not lazy_finished:
            self._make_finished()
        if not lazy_form:
            self._make_form()

    @property
    def form(self) -> CreateForm:
        """The create form (made on first use when the pane was built with ``lazy_form``)."""
        return self._form if self._form is not None else self._make_form()

    @property
    def finished(self) -> FinishedView:
        """A stored slot's results view (made on first use when the pane was built with
        ``lazy_finished``)."""
        return self._finished if self._finished is not None else self._make_finished()

    def _make_finished(self) -> FinishedView:
        finished = self._finished = FinishedView(self.controller)
        finished.hide()
        finished.show_task(None)  # as a whole pane's is once a draft was shown
        finished.useWanted.connect(self.useWanted)
        finished.make2kWanted.connect(self.make2kWanted)
        if self._picks is not None:
            finished.set_picks(*self._picks)
        self._box.insertWidget(self._box.indexOf(self.tidy) + 1, finished, 1)
        # made later, its Tab stops would come last: the Tidy bar's, these, then the composer's
        _tab_after(self.composer.previousInFocusChain(), finished)
        return finished

    def set_picks(self, picks: Any, ask_board: Any) -> None:
        """The window's marks for the results view (kept for it when it is made later)."""
        self._picks = (picks, ask_board)
        if self._finished is not None:
            self._finished.set_picks(picks, ask_board)

    def stop(self) -> None:
        """Media on screen stop playing (the window closes)."""
        if self._finished is not None:
            self._finished.stop()

    def _make_form(self) -> CreateForm:
        controller = self.controller
        form = self._form = CreateForm(self._holder)
        from app.ui.enhance import EnhancePrompt

        self.enhancer = EnhancePrompt(
            controller, form, self.composer.request_id, self.show_message, self
        )
        form.add_prompt_tools(self.enhancer.button, self.enhancer.panel)
        self._holder.layout().addWidget(form)
        # made last, its fields would come last on Tab: the RequestId, the form, then Create
        _tab_after(self.composer.full, form, self.actions)
        form.changed.connect(self._edited)
        form.frameWanted.connect(self.frameWanted)
        form.prober = controller.probe_media
        form.estimator = controller.estimate
        form.sound.attach(controller, self.composer.request_id)
        form.refused.connect(self.show_message)
        controller.pricesChanged.connect(form.reprice)
        return form

    # -- which slot is on screen --------------------------------------------------------------
    def select(self, request_id: str, *, fresh: bool = False) -> None:
        """Show a stored slot; its record and history come from the controller. ``fresh``: load
        it as new even when it is already on screen (another identity may hold that name)."""
        slot = self.slot
        if self._said_about != request_id:  # another slot's news stays with that slot
            self.actions.show_message("")
        if fresh or slot.is_draft or slot.selected != request_id:
            slot.select(request_id)
        self.controller.select(request_id)

    def new_draft(
        self,
        *,
        focus: bool = True,
        project: str | None = None,
        defaults: Any = None,
        source: Any = None,
    ) -> None:
        """A blank slot: today's date, the project on screen (or ``project``), the next free
        scene; the parameters from ``defaults`` (the user's ``DraftDefaults``) when given.
        ``source``: the slot whose result feeds this draft (kept visible beside it)."""
        if project is None:
            task = self.slot.task
            project = (getattr(task, "project", None) if task is not None else None) or (
                self.composer.project.text()
            )
        self._enter_draft(source)
        self.form.clear()
        if defaults is not None:
            self.form.apply_defaults(defaults)
        self.composer.set_request_id("")  # back to the parts (a free-form name is let go)
        self.composer.series = "article"
        self.composer.date.setDate(dt.date.today())
        self.composer.project.setText(project)
        self.composer.scene.setText("")
        if project:
            self._next_scene(self.composer.prefix())
        self._show_slot()
        if focus:
            (self.composer.project if not project else self.form.prompt).setFocus()

    def new_slot(self) -> None:
        """ "New slot" from the one on screen: its parameters, a suggested RequestId, editable."""
        task = self.slot.task
        if task is None or not self.slot.offer(Action.NEW_SLOT).enabled:
            return  # an unknown slot: recover it or declare it failed first
        self._enter_draft(task)
        self.form.set_params(task.kind, dict(getattr(task, "params", {})))
        self.composer.set_request_id(task.request_id)
        rid = task.request_id

        def suggested(name: str) -> None:  # only into the draft it was asked for
            if self._alive() and self.slot.is_draft and self.composer.request_id() == rid:
                self.composer.set_request_id(name)

        self.controller.suggest(rid, done=suggested)
        self._show_slot()
        self.form.prompt.setFocus()

    def _alive(self) -> bool:
        return shiboken6.isValid(self) and shiboken6.isValid(self.composer.full)

    def _next_scene(self, prefix: str) -> None:
        """Ask for the next free scene of ``prefix``; an answer that arrives after the draft moved
        on (another project, another slot) is dropped, never written over the new name."""

        def done(scene: str) -> None:
            if (
                self._alive()
                and self.slot.is_draft
                and not self.composer.free
                and self.composer.prefix() == prefix
            ):
                self.composer.set_scene(scene)

        self.controller.next_scene(prefix, done=done)

    def refresh_draft(self) -> None:
        """Ask again whether the draft's RequestId is taken (the service was replaced)."""
        self.used_hint.clear()
        self.used_hint.hide()
        self._lookup_timer.start()

    def is_blank(self) -> bool:
        """Nothing named and nothing written: the welcome page may stand in for the pane."""
        prompt = self._form.prompt.toPlainText() if self._form is not None else ""
        return not self.composer.project.text() and not prompt

    def form_values(self) -> tuple[str, dict[str, Any]]:
        """The form's kind and raw parameters."""
        return self.form.kind(), self.form.params()

    def _enter_draft(self, source: Any = None) -> None:
        self.slot.start_draft(source=source)
        self.controller.select(None)
        self.composer.set_read_only(False)
        self.form.set_read_only(False)
        self.show_message("", about="")  # the last slot's words (and Details) go with it
        self._edited()

    # -- actions -------------------------------------------------------------------------------
    def _triggered(self, action: Action) -> None:
        {
            Action.CREATE: self.create,
            Action.QUERY: self.query,
            Action.RECOVER: self.recoverWanted.emit,
            Action.EXPORT: self.exportWanted.emit,
            Action.NEW_SLOT: self.new_slot,
            Action.CANCEL: self.cancel,
        }[action]()

    def create(self) -> None:
        """Create the draft; a refused slot is created again with its stored parameters."""
        slot = self.slot
        if not slot.offer(Action.CREATE).enabled:
            return
        task, draft = slot.task, slot.draft
        if task is not None:
            self._submit(task.request_id, task.kind, dict(getattr(task, "params", {})))
        elif draft is not None:
            self._create_draft(draft.request_id, draft.kind, dict(draft.params))

    def _create_draft(self, request_id: str, kind: str, params: dict[str, Any]) -> None:
        """A draft is created once the service has said whether another slot already has
        exactly its settings (live, unknown or finished); if one does, the designer is asked
        first (:class:`~app.ui.twin.TwinConfirm`)."""
        self.slot.begin(Busy.CREATE)  # Create waits while the service is asked
        cost = self.form.draft.cost

        def still_here() -> bool:
            draft = self.slot.draft
            return draft is not None and draft.request_id == request_id

        def answered(twin: Any) -> None:
            if twin is None:
                if still_here():
                    self._submit(request_id, kind, params)
                else:
                    self.slot.end(Busy.CREATE)
                return
            if not still_here():
                self.slot.end(Busy.CREATE)
                return
            self._confirm_twin(twin, request_id, kind, params, cost)

        self.controller.twin_of(
            request_id, kind, params, answered, failed=lambda _m: self.slot.end(Busy.CREATE)
        )

    #: The confirm on screen while a draft's twin is asked about (None otherwise).
    twin_dialog: Any = None

    def _confirm_twin(
        self, twin: Any, request_id: str, kind: str, params: dict[str, Any], cost: Any
    ) -> None:
        from app.ui.twin import TwinConfirm

        dlg = self.twin_dialog = TwinConfirm(twin, request_id, cost, self)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(_result: int) -> None:
            self.twin_dialog = None
            clicked = dlg.clickedButton()
            if clicked is dlg.create_anyway:
                self._submit(request_id, kind, params)
                return
            self.slot.end(Busy.CREATE)
            if clicked is dlg.open_twin:
                self.slotWanted.emit(twin.request_id)

        dlg.finished.connect(chosen)
        dlg.open()

    def create_as(self, request_id: str, kind: str, params: dict[str, Any]) -> None:
        """Create ``params`` as a new slot named ``request_id`` (the conflict dialog's choice)."""
        self._enter_draft()
        self.form.set_params(kind, params)
        self.composer.set_request_id(request_id)
        self._submit(request_id, kind, params)

    def _submit(self, request_id: str, kind: str, params: dict[str, Any]) -> None:
        self.slot.begin(Busy.CREATE)
        self.show_message("")
        self.submitted.emit(request_id)
        self.controller.submit(request_id, kind, params)

    def query(self) -> None:
        task = self.slot.task
        if task is None or not self.slot.offer(Action.QUERY).enabled:
            return
        self.slot.begin(Busy.QUERY)
        self.show_message(self.tr("Asking the provider…"), error=False)
        self.controller.query(task.request_id)

    def cancel(self) -> None:
        """Cancel the queued task: the provider confirms, or the slot stays as it is."""
        task = self.slot.task
        if task is None or not self.slot.offer(Action.CANCEL).enabled:
            return
        self.slot.begin(Busy.CANCEL)
        self.show_message(self.tr("Asking the provider to cancel…"), error=False)
        self.controller.cancel(task.request_id)

    def recover(self, request_id: str, how: RecoverHow) -> None:
        self.slot.begin(Busy.RECOVER)
        self.controller.recover(request_id, how)

    def export(self, request_id: str, folder: str) -> None:
        self.slot.begin(Busy.EXPORT)
        self.controller.export(request_id, folder)

    def use_file(self, picker: Any, path: str) -> None:
        """Put the file at ``path`` into ``picker`` (a frame picker or the reference list) once
        it is read and checked, or say why not."""
        self.form.take(picker, [path])

    def feed(self, picker: FramePicker, name: str, read: Any) -> None:
        """Fill ``picker`` with ``read()``'s data URL, read in a worker thread (a result's image,
        a video's last frame); a file that cannot be used is said in the message line."""

        def run() -> tuple[str | None, str | None]:
            try:
                return read(), None
            except ValidationError as exc:  # said in the designer's words, from its typed rule
                return None, words.refused_input(exc, translate)

        def done(result: tuple[str | None, str | None]) -> None:
            url, err = result
            if not self._alive() or not shiboken6.isValid(picker):
                return
            if url:
                picker.set_file(name, url)
            else:
                self.show_message(err or "")

        self.controller.call(run, done=done)

    def feed_audio(self, name: str, read: Any) -> None:
        """Add a sound to the draft's reference list: ``read()`` (a worker) gives the file H3
        takes and the length it was trimmed to, said in the message line."""

        def run() -> tuple[str | None, Any]:
            try:
                return read()
            except ValidationError as exc:
                return None, exc.message

        def done(result: tuple[str | None, Any]) -> None:
            path, said = result
            if not self._alive():
                return
            if path is None:
                self.show_message(str(said))
                return
            if said is None:
                self.form.take(self.form.references, [path], name=name)
                return
            note = (
                self.tr(
                    "MiniMax-H3 takes reference audio of at most %1 s: the first %1 s of %2 are used."
                )
                .replace("%1", f"{said:g}")
                .replace("%2", name)
            )
            refs = self.form.references

            def arrived() -> None:  # said once the clip is in (taking it clears the line)
                refs.changed.disconnect(arrived)
                QTimer.singleShot(0, lambda: self._alive() and self.show_message(note, error=False))

            refs.changed.connect(arrived)
            called = self.tr("%1 (its first %2 s)").replace("%1", name).replace("%2", f"{said:g}")
            self.form.take(refs, [path], name=called)

        self.controller.call(run, done=done)

    def show_message(
        self,
        text: str,
        error: bool = True,
        detail: str | None = None,
        *,
        about: str | None = None,
    ) -> None:
        """Say ``text`` in the message line (in red when ``error``); ``detail`` (default: the
        last outcome's technical words, when ``text`` is that outcome's sentence) behind the
        Details button. ``about``: the RequestId it speaks of (default: the slot on screen); it
        is cleared when another slot comes on screen."""
        if detail is None:
            detail, self._detail = self._detail, ""
        if about is None:
            draft = self.slot.draft
            about = (draft.request_id if draft is not None else self.slot.selected) or ""
        self._said_about = about
        self.actions.show_message(text, error, detail if text else "")

    def show_error(self, trouble: Any) -> None:
        """An error of the app's own work (the runner's typed ``Trouble``): its sentence, the
        original behind Details."""
        said = words.for_error(trouble, translate)
        self.show_message(said.text, detail=said.detail)

    def _end(self, action: str) -> None:
        with suppress(ValueError):
            self.slot.end(Busy(action))

    # -- the controller's news -----------------------------------------------------------------
    def _task_changed(self, view: TaskView) -> None:
        if view.state == "success":
            self.estimates.forget()  # one more past task to learn from
        slot = self.slot
        draft = slot.draft
        if draft is not None and Busy.CREATE in slot.busy and view.request_id == draft.request_id:
            slot.end(Busy.CREATE)  # claimed: the draft is a stored slot now
            self.slotWanted.emit(view.request_id)
        else:
            slot.update_task(view)

    def _outcome(self, action: str, out: Result[Any]) -> None:
        self._end(action)
        no_record = out.task is not None and words.nothing_to_look_up(out.task)
        said = words.for_outcome(out.problem, translate=translate, no_record=no_record)
        msg, self._detail = said.text, said.detail
        if action == "export" and out.kind is OutcomeKind.OK:
            n = len(out.payload.files) if isinstance(out.payload, Exported) else 0
            msg = (
                self.tr("Exported 1 file.")
                if n == 1
                else self.tr("Exported %1 files.").replace("%1", str(n))
            )
        ok = out.kind is OutcomeKind.OK  # "Exported 2 files." is news, not an error
        about = out.request_id or None
        draft = self.slot.draft
        on_screen = draft.request_id if draft is not None else self.slot.selected
        if about is not None and about != on_screen:
            return  # another slot's news (a New-slot form came meanwhile): its history keeps it
        if out.kind in SAID_ONLY:
            self.show_message(msg, about=about)
        elif out.kind is not OutcomeKind.CONFLICT:  # the window shows the conflict dialog
            self.show_message(msg if not ok or action == "export" else "", not ok, about=about)
            rid = out.request_id
            draft = self.slot.draft
            # the slot just made (its draft still on screen) or the one shown; never yank the
            # designer out of another draft they started meanwhile ("Edit as new slot")
            if (
                rid
                and out.task is not None
                and ((draft is not None and draft.request_id == rid) or rid == self.slot.selected)
            ):
                self.slotWanted.emit(rid)

    # -- showing -------------------------------------------------------------------------------
    def _show_slot(self) -> None:
        """The record on screen in the composer and the form (read-only); kept while loading."""
        slot = self.slot
        if slot.loading:
            return
        task = slot.task
        # A stored slot shows its results and a summary; the composer and form are for drafts.
        if task is not None or self._finished is not None:  # none made yet: none to hide
            self.finished.setVisible(task is not None)
            self.finished.show_task(task)
        self.composer.setVisible(task is None)
        self._holder.setVisible(task is None)
        # a result on screen takes the room: the state said in fewer lines above it
        self.banner.set_compact(bool(task is not None and task.media and task.state == "success"))
        if task is not None:
            self.composer.set_read_only(True)
            if self.composer.request_id() != task.request_id:
                self.composer.set_request_id(task.request_id)
            shown = (task.kind, getattr(task, "params", {}))
            if shown != self._shown:
                self.form.set_read_only(True)  # first: stored values are shown as they are
                self.form.set_params(task.kind, dict(shown[1]))
            self._shown = shown
        else:
            self._shown = None
        self._show_heading()
        self.locked_hint.setVisible(False)  # the summary says it; Edit as new slot is offered
        self.used_hint.setVisible(slot.is_draft and bool(self.used_hint.text()))

    def _show_heading(self) -> None:
        task = self.slot.task
        rid = task.request_id if task is not None else self.composer.request_id()
        self.heading.setText(rid or self.tr("(unnamed slot)"))

    def _status_changed(self, status: Any) -> None:
        self.form.set_budget(getattr(status.quota, "budget", None))

    def _composer_changed(self, _rid: str) -> None:
        if not self.slot.loading:
            self._show_heading()
        if self.slot.is_draft:
            self.used_hint.clear()
            self.used_hint.hide()
            self._lookup_timer.start()
        self._edited()

    def _edited(self, *_: Any) -> None:
        """The draft follows the form and the composer, with their first complaint."""
        if self.slot.draft is None:
            return
        named = self.composer.error_text()
        problem = named or self.form.error_text()
        found = None if named else self.form.draft.problem  # the form's, judged just now
        budget = found.budget if found is not None else None
        self.slot.edit_draft(
            request_id=self.composer.request_id(),
            kind=self.form.kind(),
            params=self.form.params(),
            problem=problem,
            hint=found is not None and found.kind is ProblemKind.NO_PROMPT,
            unpriced=(
                budget.model or ""
                if budget is not None and budget.refusal is BudgetRefusal.PRICE_UNKNOWN
                else None
            ),
        )

    def _lookup_draft(self) -> None:
        rid = self.composer.request_id()
        if not self.slot.is_draft or self.composer.error_text() is not None:
            return

        def found(out: Result[Any]) -> None:
            if self.slot.is_draft and self.composer.request_id() == rid and out.task is not None:
                self.used_hint.setText(
                    self.tr(
                        'This RequestId is already used (%1). <a href="%2">Open it</a> — creating '
                        "it with other parameters will be refused."
                    )
                    .replace("%1", state_word(out.task.state))
                    .replace("%2", rid)
                )
                self.used_hint.show()

        self.controller.lookup(rid, found)
