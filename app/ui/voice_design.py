""" "Design a voice…" beside the voice picker: a voice designed by MiniMax from a description,
kept as a slot of kind ``voice`` (DESIGN.md "Voice design"), its trial recording heard here.

The dialog asks for what the designer owns — the description, the preview text (at most
:data:`~app.domain.params_voice.PREVIEW_TEXT_MAX` characters, counted live) and the slot's
RequestId (suggested from the draft's: ``voice:YYYYMMDD:project:narrator``) — and shows what the
domain and the service decide: the first refusal (:func:`app.domain.params_voice.normalize`,
said by its typed rule), the price (the service's estimate; unknown where the price table has
none, said as the create form says it), then the create's outcome in the words every create
uses (replayed, conflict, unknown). A designed voice's trial recording is the slot's media: it
plays here, and in the slot pane like any sound. "Use this voice" gives the voice id to the
picker.

Imported when the button is first pressed (not at the window's start).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

import shiboken6

from app.domain import params_voice
from app.domain.errors import ValidationError
from app.domain.slots import validate_request_id
from app.service.results import OutcomeKind
from app.present import words
from app.ui.qt import (
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
    Qt,
    translate,
)
from app.ui.sound_view import SoundView, show_sound
from app.ui.style import set_tone

#: The last part of a suggested voice slot's RequestId.
SUGGESTED_NAME = "narrator"


def suggested_request_id(draft_request_id: str, today: dt.date | None = None) -> str:
    """The voice slot's name suggested from the draft's: its date and project, then
    ``narrator`` (``article:20261202:tide-eye:voice-01`` → ``voice:20261202:tide-eye:narrator``);
    today's date and ``voices`` when the draft's name says neither."""
    parts = draft_request_id.split(":")
    day = (today or dt.date.today()).strftime("%Y%m%d")
    project = "voices"
    if len(parts) >= 4:
        if len(parts[1]) == 8 and parts[1].isdigit():
            day = parts[1]
        if parts[2]:
            project = parts[2]
    return f"{params_voice.VOICE}:{day}:{project}:{SUGGESTED_NAME}"


def slot_name(request_id: str | None) -> str:
    """A voice slot's own name (the last part of its RequestId)."""
    return (request_id or "").rsplit(":", 1)[-1]


class VoiceDesignDialog(QDialog):
    """Design a voice (see the module). ``chosen`` gets the voice id "Use this voice" picks."""

    def __init__(
        self,
        controller: Any,
        draft_request_id: str,
        chosen: Callable[[str, str], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("voiceDesignDialog")
        self.setWindowTitle(self.tr("Design a voice"))
        self.setMinimumWidth(520)
        self.controller = controller
        self.chosen = chosen
        self.running = False
        self.task: Any = None  # the voice slot once it is made (a TaskView)
        intro = QLabel(
            self.tr(
                "MiniMax makes a new voice from your description and reads the preview text with "
                "it. The voice is kept as a slot: asking again for the same voice costs nothing "
                "more."
            ),
            objectName="voiceDesignIntro",
        )
        intro.setWordWrap(True)
        self.prompt = QPlainTextEdit(objectName="voicePromptEdit")
        self.prompt.setAccessibleName(self.tr("Description of the voice"))
        self.prompt.setPlaceholderText(
            self.tr("Who speaks and how: a warm, calm woman in her forties, unhurried, close")
        )
        self.prompt.setTabChangesFocus(True)
        self.prompt.setMinimumHeight(64)
        self.prompt.setMaximumHeight(96)
        self.preview = QPlainTextEdit(objectName="voicePreviewEdit")
        self.preview.setAccessibleName(self.tr("Preview text"))
        self.preview.setPlaceholderText(self.tr("The words the trial recording speaks"))
        self.preview.setTabChangesFocus(True)
        self.preview.setMinimumHeight(56)
        self.preview.setMaximumHeight(80)
        self.preview_count = QLabel(objectName="previewCount")
        self.preview_count.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.request_id = QLineEdit(objectName="voiceRequestIdEdit")
        self.request_id.setAccessibleName(self.tr("The voice slot's RequestId"))
        self.request_id.setText(suggested_request_id(draft_request_id))
        self.price = QLabel(objectName="voicePrice")
        self.price.setWordWrap(True)
        self.clock = QLabel(
            self.tr(
                "MiniMax deletes a designed voice that no voice line uses for 7 days, and bills "
                "it when it is first used."
            ),
            objectName="hint",
        )
        self.clock.setWordWrap(True)
        self.message = QLabel(objectName="voiceDesignMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.trial_title = QLabel(objectName="voiceTrialTitle")
        self.trial_title.setWordWrap(True)
        self.trial = SoundView()
        self.trial.setMinimumHeight(130)
        self.create = QPushButton(self.tr("Create voice"), objectName="voiceCreateButton")
        self.create.setAutoDefault(False)  # a paid step is never the Enter key's default
        self.use = QPushButton(self.tr("Use this voice"), objectName="voiceUseButton")
        self.use.setProperty("primary", True)
        self.close_button = QPushButton(self.tr("Cancel"), objectName="voiceCloseButton")
        self.close_button.setAutoDefault(False)
        head = QHBoxLayout()
        head.addWidget(QLabel(self.tr("Preview text")))
        head.addStretch(1)
        head.addWidget(self.preview_count)
        fields = QFormLayout()
        fields.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        fields.addRow(self.tr("Kept as slot"), self.request_id)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for b in (self.close_button, self.create, self.use):
            buttons.addWidget(b)
        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addWidget(QLabel(self.tr("Description")))
        box.addWidget(self.prompt)
        box.addLayout(head)
        box.addWidget(self.preview)
        box.addLayout(fields)
        box.addWidget(self.price)
        box.addWidget(self.clock)
        box.addWidget(self.message)
        box.addWidget(self.trial_title)
        box.addWidget(self.trial, 1)
        box.addLayout(buttons)
        self.prompt.textChanged.connect(self.validate)
        self.preview.textChanged.connect(self.validate)
        self.request_id.textChanged.connect(self.validate)
        self.create.clicked.connect(self.start)
        self.use.clicked.connect(self._use)
        self.close_button.clicked.connect(self.reject)
        self._show_made(None)
        self.validate()
        self._free_name()

    # -- the draft of the voice -------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        return {"prompt": self.prompt.toPlainText(), "preview_text": self.preview.toPlainText()}

    def problem(self) -> str | None:
        """The first refusal of the domain's rules, in the designer's words (None: none)."""
        labels = {
            "prompt": self.tr("Description"),
            "preview_text": self.tr("Preview text"),
            "request_id": self.tr("RequestId"),
        }
        try:
            params_voice.normalize(self.params())
            validate_request_id(self.request_id.text().strip(), "request_id")
        except ValidationError as err:
            said = words.rule_words(err.rule, err.values, None, translate, err.message)
            return f"{labels.get(err.field, err.field)}: {said}"
        return None

    def validate(self) -> None:
        n = len(self.preview.toPlainText())
        self.preview_count.setText(f"{n} / {params_voice.PREVIEW_TEXT_MAX}")
        set_tone(self.preview_count, "error" if n > params_voice.PREVIEW_TEXT_MAX else "muted")
        self.price.setText(self.price_text())
        if self.task is not None or self.running:
            return
        problem = self.problem()
        blank = not self.prompt.toPlainText().strip() and not self.preview.toPlainText().strip()
        self._say(
            self.tr("Describe the voice and write the words it reads to create it.")
            if blank
            else problem or "",
            error=problem is not None and not blank,
        )
        self.create.setEnabled(problem is None)

    def price_text(self) -> str:
        """The service's estimate, said as the create form says a cost."""
        out = self.controller.estimate(params_voice.VOICE, self.params())
        text = words.cost_line(getattr(getattr(out, "payload", None), "cost", None), translate)
        budget = getattr(getattr(self.controller, "status", None), "quota", None)
        return text + words.budget_line(getattr(budget, "budget", None), translate)

    def _free_name(self) -> None:
        """The suggested name, or its next free attempt when a slot holds it already."""
        rid = self.request_id.text()

        def found(out: Any) -> None:
            if not self._alive() or self.request_id.text() != rid or out.task is None:
                return
            self.controller.suggest(
                rid, done=lambda name: self._alive() and self._renamed(rid, name)
            )

        self.controller.lookup(rid, found)

    def _renamed(self, was: str, name: str) -> None:
        if self.request_id.text() == was and self.task is None:
            self.request_id.setText(name)

    # -- the paid step ----------------------------------------------------------------------------
    def start(self) -> None:
        if self.running or self.problem() is not None:
            return
        self.running = True
        self._lock(True)
        self._say(self.tr("MiniMax is designing the voice…"), error=False)
        p = self.params()
        self.controller.design_voice(
            self.request_id.text().strip(),
            p["prompt"],
            p["preview_text"],
            self._answered,
            self._broke,
        )

    def _broke(self, trouble: Any) -> None:
        if not self._alive():
            return
        self.running = False
        self._lock(False)
        self.validate()
        self._say(words.for_error(trouble, translate).text, error=True)

    def _answered(self, out: Any) -> None:
        if not self._alive():
            return
        self.running = False
        task = out.task
        if out.kind is OutcomeKind.CONFLICT:
            suggested = getattr(out.problem, "suggested_request_id", None)
            said = self.tr(
                "%1 already holds a voice designed from another description. Nothing was sent "
                "and nothing was charged."
            ).replace("%1", slot_name(out.request_id))
            if suggested:
                self.request_id.setText(suggested)
                said += " " + self.tr("Create it as %1 instead.").replace(
                    "%1", slot_name(suggested)
                )
            self._lock(False)
            self.validate()
            self._say(said, error=True)
            return
        if task is not None and str(task.state) == "success":
            self._show_made(task)
            self._say(
                self.tr("This voice was designed before under this name: nothing was sent again.")
                if out.kind is OutcomeKind.REPLAYED
                else self.tr("The voice is ready. Hear its trial, then use it for the voice line."),
                error=False,
            )
            return
        if task is None:
            self._lock(False)
            self.validate()
        said = words.for_outcome(out.problem, translate=translate)
        if not said.text and task is not None:
            said = words.for_task(task, translate=translate)
        self._say(said.text or self.tr("No voice came back."), error=True)
        self.close_button.setText(self.tr("Close"))

    def _show_made(self, task: Any) -> None:
        """The voice slot made: its trial recording (when it came) and "Use this voice"."""
        self.task = task
        made = task is not None
        self.use.setVisible(made)
        self.create.setVisible(not made)
        media = list(getattr(task, "media", None) or [])
        self.trial.setVisible(bool(media))
        self.trial_title.setVisible(made)
        if made:
            self.close_button.setText(self.tr("Close"))
            self.use.setDefault(True)
            self.trial_title.setText(
                self.tr("Trial recording of %1").replace("%1", slot_name(task.request_id))
                if media
                else self.tr(
                    "%1 owns this voice; its trial recording did not come back with the answer."
                ).replace("%1", slot_name(task.request_id))
            )
        if media:
            rid = task.request_id
            show_sound(
                self.trial,
                media[0],
                self.controller,
                lambda: self._alive() and self.task is not None and self.task.request_id == rid,
            )

    def voice_id(self) -> str | None:
        return getattr(self.task, "voice_id", None) if self.task is not None else None

    def _use(self) -> None:
        vid = self.voice_id()
        if vid:
            self.chosen(vid, slot_name(self.task.request_id))
        self.accept()

    def _lock(self, locked: bool) -> None:
        for w in (self.prompt, self.preview):
            w.setReadOnly(locked)
        self.request_id.setReadOnly(locked)
        self.create.setEnabled(not locked)

    def _say(self, text: str, error: bool) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))
        set_tone(self.message, "error" if error and text else "")

    def done(self, result: int) -> None:  # noqa: D401 - Qt override
        self.trial.stop()
        super().done(result)

    def _alive(self) -> bool:
        return shiboken6.isValid(self)


__all__ = ["VoiceDesignDialog", "slot_name", "suggested_request_id"]
