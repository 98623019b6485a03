""" "Enhance prompt" beside the prompt: MiniMax-H3's prompt enhancement (Context-IR), a paid call
kept as a slot of its own (DESIGN.md "Derived slots"), whose enhanced prompt the designer accepts
or edits as a suggestion.

Whether a draft can be enhanced is :func:`app.domain.enhance.why_not_enhance`; the new slot's
name :func:`app.domain.derived.suggest` (``<rid>.enhanced``); its price the service's estimate
of :func:`app.domain.enhance.enhance_params`. The price is named first (a confirm); the same
prompt asked again is the same slot, replayed by the service with no second paid call (and no
price asked); another prompt under a taken name gets the next free name
(``….enhanced.t2``), priced first again.
"""

from __future__ import annotations

from typing import Any, Callable

import shiboken6

from app.domain import derived, enhance
from app.domain.errors import ValidationError
from app.domain.slots import validate_request_id
from app.present import words
from app.ui.qt import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Qt,
    translate,
)


def price_text(answer: Any) -> str:
    """The service's estimate (a Result of DraftCost) as the confirmation says it."""
    return words.cost_line(
        getattr(getattr(answer, "payload", None), "cost", None),
        translate,
        translate(
            "EnhancePrompt",
            "MiniMax bills prompt enhancement by tokens and publishes no price for it. Slate "
            "records what the provider reports.",
        ),
    )


class EnhanceConfirm(QMessageBox):
    """Asks before the paid enhancement: the price first, the slot it is kept as."""

    def __init__(self, new_request_id: str, answer: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("enhanceConfirm")
        self.new_request_id = new_request_id
        self.setWindowTitle(self.tr("Enhance prompt"))
        self.setIcon(QMessageBox.Icon.Question)
        self.setText(self.tr("Let MiniMax-H3 enhance this prompt?"))
        self.price = price_text(answer)
        self.setInformativeText(
            self.price
            + "\n\n"
            + self.tr(
                "The enhanced prompt is kept as the slot %1 and shown as a suggestion: you "
                "accept or edit it. Asking again for the same prompt costs nothing."
            ).replace("%1", new_request_id.rsplit(":", 1)[-1])
        )
        self.go = self.addButton(self.tr("Enhance"), QMessageBox.ButtonRole.AcceptRole)
        self.cancel = self.addButton(self.tr("Cancel"), QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.cancel)  # a paid step is never the Enter key's default
        self.setEscapeButton(self.cancel)


class EnhancePrompt(QWidget):
    """The "Enhance prompt" button and the suggestion panel under the prompt (both put into the
    create form by :meth:`~app.ui.form.CreateForm.add_prompt_tools`)."""

    def __init__(
        self,
        controller: Any,
        form: Any,
        request_id: Callable[[], str],
        say: Callable[..., None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.form = form
        self.request_id = request_id
        self.say = say
        self.running = False
        self.dialog: EnhanceConfirm | None = None
        self._for: tuple[str, str] | None = None  # (draft RequestId, prompt) the panel is for
        self.button = QToolButton(objectName="enhanceButton", text=self.tr("Enhance prompt…"))
        self.button.setAccessibleName(self.tr("Enhance prompt"))
        self.panel = QFrame(objectName="enhancePanel")
        self.panel.setStyleSheet(
            "QFrame#enhancePanel { background: #f3f6fb; border: 1px solid #c9d6ea;"
            " border-radius: 6px; }"
        )
        self.title = QLabel(
            self.tr("Suggested by MiniMax-H3 — edit it if you like, then use it"),
            objectName="enhanceTitle",
        )
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: 600; color: #1f3b63;")
        self.suggestion = QPlainTextEdit(objectName="enhancedPrompt")
        self.suggestion.setAccessibleName(self.tr("Enhanced prompt"))
        self.suggestion.setTabChangesFocus(True)
        self.suggestion.setMinimumHeight(70)
        self.suggestion.setMaximumHeight(130)
        self.accept = QPushButton(self.tr("Use this prompt"), objectName="acceptEnhancedButton")
        self.dismiss = QPushButton(self.tr("Keep mine"), objectName="dismissEnhancedButton")
        self.accept.setProperty("primary", True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addStretch(1)
        row.addWidget(self.dismiss)
        row.addWidget(self.accept)
        box = QVBoxLayout(self.panel)
        box.setContentsMargins(8, 6, 8, 6)
        box.setSpacing(4)
        box.addWidget(self.title)
        box.addWidget(self.suggestion)
        box.addLayout(row)
        self.panel.hide()
        self.hide()  # the holder itself is never shown: its button and panel live in the form
        self.button.clicked.connect(self.start)
        self.accept.clicked.connect(self.use_suggestion)
        self.dismiss.clicked.connect(self.panel.hide)
        form.changed.connect(self.update_offer)
        self.update_offer()

    # -- offered or not -------------------------------------------------------------------------
    def why_not(self) -> str | None:
        """The domain's reason this draft's prompt cannot be enhanced now, or None."""
        if self.form._read_only:
            return self.tr("This slot's prompt is fixed.")
        err = enhance.why_not_enhance(self.form.kind(), self.form.params())
        if err is not None:
            return words.rule_words(err.rule, err.values, None, translate, err.message)
        try:
            validate_request_id(self.request_id(), "RequestId")
        except ValidationError:
            return self.tr("Name the slot first: the enhanced prompt is kept under its name.")
        return None

    def update_offer(self) -> None:
        why = self.why_not()
        self.button.setEnabled(why is None and not self.running)
        tip = why or self.tr(
            "MiniMax-H3 rewrites the prompt with more detail (a paid step; the price is shown "
            "first)"
        )
        self.button.setToolTip(tip)
        self.button.setAccessibleDescription(tip)
        if self._for is not None and self._for[0] != self.request_id():
            self.panel.hide()  # another draft: the suggestion was for the one before

    # -- the paid step ----------------------------------------------------------------------------
    def start(self) -> None:
        if self.why_not() is not None or self.running:
            return
        rid = self.request_id()
        kind, params = self.form.kind(), self.form.params()
        prompt = str(params.get("prompt") or "")
        new = derived.suggest(rid, derived.SUFFIX_ENHANCED)

        def found(out: Any) -> None:
            if not self._alive():
                return
            task = out.task
            if task is None:
                self._confirm(rid, new, kind, params)
            elif task.params.get("prompt") == prompt and task.params.get("enhance_of") == rid:
                self._run(rid, new, kind, params)  # the same prompt: replayed, nothing paid
            else:  # that name holds another prompt's enhancement: the next free name
                self.controller.suggest(
                    new, done=lambda name: self._alive() and self._confirm(rid, name, kind, params)
                )

        self.controller.lookup(new, found)

    def _confirm(self, rid: str, new: str, kind: str, params: dict[str, Any]) -> None:
        answer = self.controller.estimate(enhance.KIND, enhance.enhance_params(rid, params))
        dlg = self.dialog = EnhanceConfirm(new, answer, self.form.window())
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(_result: int) -> None:
            self.dialog = None
            if dlg.clickedButton() is dlg.go and self._alive():
                self._run(rid, new, kind, params)

        dlg.finished.connect(answered)
        dlg.open()

    def _run(self, rid: str, new: str, kind: str, params: dict[str, Any]) -> None:
        self.running = True
        self.update_offer()
        self.say(self.tr("MiniMax-H3 is enhancing the prompt…"), error=False)
        prompt = str(params.get("prompt") or "")

        def done(out: Any) -> None:
            if not self._alive():
                return
            self.running = False
            self.update_offer()
            text = getattr(out.task, "text", None) if out.task is not None else None
            if text:
                self.say("", error=False)
                self._for = (rid, prompt)
                self.suggestion.setPlainText(text)
                self.panel.show()
            else:
                said = words.for_outcome(out.problem, translate=translate)
                self.say(said.text or self.tr("No enhanced prompt came back."), detail=said.detail)

        self.controller.enhance(rid, new, (kind, params), done)

    def use_suggestion(self) -> None:
        """The designer's choice: the (possibly edited) suggestion becomes the prompt."""
        self.form.prompt.setPlainText(self.suggestion.toPlainText())
        self.panel.hide()
        self.form.prompt.setFocus()

    def _alive(self) -> bool:
        return shiboken6.isValid(self) and shiboken6.isValid(self.form)


__all__ = ["EnhanceConfirm", "EnhancePrompt", "price_text"]
