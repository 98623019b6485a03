"""Music and Voice in the create form: the sound kinds' own fields.

:class:`SoundFields` is one widget the :class:`~app.ui.form.CreateForm` shows in place of the
picture and video fields when Music or Voice is chosen (its two radio buttons sit beside Image
and Video). It gives the form the raw parameters of :mod:`app.domain.params_sound` and shows
the draft model's answers (the first problem, the estimate, the budget's verdict, the voice
line's protocol): it decides nothing itself.

- Music: the style (the song's prompt), the lyrics with the structure tags MiniMax reads
  (:data:`~app.domain.params_sound.LYRICS_TAGS`, insertable at the cursor), an instrumental
  switch and "let MiniMax write the lyrics", the model and the format.
- Voice: the text with its character count and a line saying whether it is read at once
  (synchronous) or made as a long task (asynchronous), and why: the domain's length rule
  (:func:`~app.domain.params_sound.speech_protocol`); the voice (from the provider's
  ``get_voice`` through the service, or MiniMax's documented system voices), speed, model and
  format. "Hear it" beside the picker says its price before the click pays ("Hear it ·
  $0.0056"): a system voice's preview is a short speech slot (made once, then replayed free), a
  designed voice's is its trial recording (:mod:`app.service.preview` decides; this shows it).
"""

from __future__ import annotations

from typing import Any, Callable

import shiboken6

from app.domain import drafts
from app.domain import params_sound as ps
from app.present import words
from app.present.words import for_outcome, price_of
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QAction,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QStackedWidget,
    QTimer,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Qt,
    QtWidgets,
    Signal,
    translate,
)

#: MiniMax's documented system voices in the designer's language, by id (the provider names
#: them in one language only); any other voice shows the provider's own name.
VOICE_NAMES = {
    "English_expressive_narrator": QT_TRANSLATE_NOOP("Voices", "Expressive narrator"),
    "English_Graceful_Lady": QT_TRANSLATE_NOOP("Voices", "Graceful lady"),
    "female-shaonv": QT_TRANSLATE_NOOP("Voices", "Young woman"),
    "male-qn-qingse": QT_TRANSLATE_NOOP("Voices", "Young man, fresh"),
    "Chinese (Mandarin)_News_Anchor": QT_TRANSLATE_NOOP("Voices", "News anchor (Mandarin)"),
}


def voice_label(voice_id: str, name: str | None) -> str:
    """A voice as the picker shows it: a documented system voice in the designer's language,
    any other by the provider's name (or its id)."""
    known = VOICE_NAMES.get(voice_id)
    return translate("Voices", known) if known else (name or voice_id)


#: The tags offered as buttons beside the lyrics (the rest are in the "More tags" menu).
QUICK_TAGS = ("[Verse]", "[Chorus]", "[Bridge]")


def _sentences(said: list[str]) -> str:
    """Sentences one after another: a space after an English one, none after a Chinese "。"."""
    out = ""
    for one in said:
        out += ("" if not out or out.endswith("。") else " ") + one
    return out


def _invalid(widget: QWidget, invalid: bool) -> None:
    if bool(widget.property("invalid")) != invalid:
        widget.setProperty("invalid", invalid)
        widget.style().unpolish(widget)
        widget.style().polish(widget)


def _editor(name: str, accessible: str, placeholder: str, height: int) -> QPlainTextEdit:
    edit = QPlainTextEdit(objectName=name)
    edit.setAccessibleName(accessible)
    edit.setPlaceholderText(placeholder)
    edit.setTabChangesFocus(True)
    edit.setMinimumHeight(height)
    return edit


def _combo(name: str, accessible: str, items: tuple[Any, ...], current: Any) -> QComboBox:
    combo = QComboBox(objectName=name)
    combo.setAccessibleName(accessible)
    for item in items:
        combo.addItem(str(item), item)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    return combo


class SoundFields(QWidget):
    """The Music and Voice fields (see the module). ``voice_source(done)``: asks the service
    for the voices (``done`` gets a Result of :class:`~app.service.sound.VoiceList`); the slot
    pane sets it."""

    changed = Signal()
    kindChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("soundFields")
        self.voice_source: Callable[[Callable[[Any], None]], None] | None = None
        self.voices_asked = False
        self.voices_documented: bool | None = None  # None: not known yet
        self.designed: dict[str, Any] = {}
        self.music_radio = QRadioButton(self.tr("Music"), objectName="musicRadio")
        self.voice_radio = QRadioButton(self.tr("Voice"), objectName="voiceRadio")
        self.pages = QStackedWidget(objectName="soundPages")
        self._built = False  # the pages are made on first use (see ``_build``)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.pages)
        for radio in (self.music_radio, self.voice_radio):
            radio.toggled.connect(self._toggled)
        self.setVisible(False)

    def _build(self) -> None:
        """Make the Music and Voice pages: when a sound kind is first chosen, or one of their
        widgets first asked for, not with the window (issue 34: a hundred widgets fewer to
        make and style before the first paint)."""
        if self._built:
            return
        self._built = True
        self.pages.addWidget(self._music_page())
        self.pages.addWidget(self._voice_page())
        self.set_read_only(self._read_only)

    def __getattr__(self, name: str) -> Any:
        # only called for a name not found: a page's widget asked for before the pages exist
        if not name.startswith("__") and self.__dict__.get("_built") is False:
            self._build()
            return getattr(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    # -- music --------------------------------------------------------------------------------
    def _music_page(self) -> QWidget:
        page = QWidget(objectName="musicPage")
        self.style_edit = _editor(
            "musicStyleEdit",
            self.tr("Style"),
            self.tr("The song's style: genre, mood, instruments, tempo…"),
            48,
        )
        self.style_edit.setMaximumHeight(64)
        self.style_count = QLabel(objectName="styleCount")
        self.style_count.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.lyrics = _editor(
            "lyricsEdit",
            self.tr("Lyrics"),
            self.tr("[Verse]\nThe first lines of the song…\n[Chorus]\nThe part everyone sings"),
            140,
        )
        self.lyrics_count = QLabel(objectName="lyricsCount")
        self.lyrics_count.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.tag_buttons: list[QToolButton] = []
        tags = QHBoxLayout()
        tags.setContentsMargins(0, 0, 0, 0)
        tags.addWidget(QLabel(self.tr("Insert")))
        for tag in QUICK_TAGS:
            b = QToolButton(text=tag, objectName="tagButton")
            b.setToolTip(self.tr("Insert %1 at the cursor").replace("%1", tag))
            b.setAccessibleName(b.toolTip())
            b.clicked.connect(lambda _c=False, t=tag: self.insert_tag(t))
            self.tag_buttons.append(b)
            tags.addWidget(b)
        self.more_tags = QPushButton(self.tr("More tags"), objectName="moreTagsButton")
        self.more_tags.setProperty("hasMenu", True)  # its arrow's own room (style.py)
        self.more_tags.setAccessibleName(self.tr("More structure tags for the lyrics"))
        menu = QMenu(self.more_tags)
        for tag in ps.LYRICS_TAGS:
            act = QAction(tag, menu)
            act.triggered.connect(lambda _c=False, t=tag: self.insert_tag(t))
            menu.addAction(act)
        self.more_tags.setMenu(menu)
        tags.addWidget(self.more_tags)
        tags.addStretch(1)
        self.instrumental = QCheckBox(
            self.tr("Instrumental (no singing)"), objectName="instrumentalCheck"
        )
        self.optimizer = QCheckBox(
            self.tr("Let MiniMax write the lyrics from the style"), objectName="lyricsOptimizer"
        )
        self.music_model = _combo(
            "musicModelCombo", self.tr("Model"), ps.MUSIC_MODELS, ps.DEFAULT_MUSIC_MODEL
        )
        self.music_format = _combo(
            "musicFormatCombo", self.tr("Format"), ps.MUSIC_FORMATS, ps.MUSIC_DEFAULTS["format"]
        )
        head = QHBoxLayout()
        head.addWidget(QLabel(self.tr("Style")))
        head.addStretch(1)
        head.addWidget(self.style_count)
        lyrics_head = QHBoxLayout()
        lyrics_head.addWidget(QLabel(self.tr("Lyrics")))
        lyrics_head.addStretch(1)
        lyrics_head.addWidget(self.lyrics_count)
        fields = QFormLayout()
        fields.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        fields.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        fields.addRow(self.tr("Model"), self.music_model)
        fields.addRow(self.tr("Format"), self.music_format)
        box = QVBoxLayout(page)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(head)
        box.addWidget(self.style_edit)
        box.addWidget(self.instrumental)
        box.addWidget(self.optimizer)
        box.addLayout(lyrics_head)
        box.addLayout(tags)
        box.addWidget(self.lyrics)
        box.addLayout(fields)
        for sig in (
            self.style_edit.textChanged,
            self.lyrics.textChanged,
            self.music_model.currentIndexChanged,
            self.music_format.currentIndexChanged,
        ):
            sig.connect(self.changed)
        self.instrumental.toggled.connect(lambda on: self._vocals(self.instrumental, on))
        self.optimizer.toggled.connect(lambda on: self._vocals(self.optimizer, on))
        return page

    def _vocals(self, which: QCheckBox, on: bool) -> None:
        """Lyrics, instrumental or MiniMax's lyrics: one of them (the domain refuses two)."""
        if on:
            other = self.optimizer if which is self.instrumental else self.instrumental
            other.setChecked(False)
        self._lyrics_enabled()
        self.changed.emit()

    def _lyrics_enabled(self) -> None:
        own = not (self.instrumental.isChecked() or self.optimizer.isChecked())
        writable = own and not self._read_only
        self.lyrics.setEnabled(own)
        for b in (*self.tag_buttons, self.more_tags):
            b.setEnabled(writable)

    def insert_tag(self, tag: str) -> None:
        """Put a structure tag on its own line at the cursor."""
        if self._read_only or not self.lyrics.isEnabled():
            return
        cursor = self.lyrics.textCursor()
        before = "" if cursor.atBlockStart() else "\n"
        cursor.insertText(f"{before}{tag}\n")
        self.lyrics.setTextCursor(cursor)
        self.lyrics.setFocus()

    # -- voice --------------------------------------------------------------------------------
    def _voice_page(self) -> QWidget:
        page = QWidget(objectName="voicePage")
        self.text = _editor(
            "speechTextEdit",
            self.tr("Text to speak"),
            self.tr("The words to speak. A pause: <#0.5#>"),
            100,
        )
        self.text.setMaximumHeight(170)
        self.text_count = QLabel(objectName="textCount")
        self.text_count.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.protocol_line = QLabel(objectName="speechProtocol")
        self.protocol_line.setWordWrap(True)
        self.voice = QComboBox(objectName="voiceCombo")
        self.voice.setAccessibleName(self.tr("Voice"))
        self.voice.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.voice.setMinimumContentsLength(14)
        # Editable: a designed or cloned voice's id is typed. What is typed is never added as an
        # item (its label would then be sent as an id): voice_id() reads a label as its id.
        self.voice.setEditable(True)
        self.voice.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.voice.lineEdit().setPlaceholderText(self.tr("A voice, or a voice id"))
        self.voice_note = QLabel(objectName="hint")
        self.voice_note.setWordWrap(True)
        self.voice_note.hide()
        self.speed = QtWidgets.QDoubleSpinBox(objectName="speedSpin")
        self.speed.setAccessibleName(self.tr("Speed"))
        self.speed.setRange(ps.SPEED_MIN, ps.SPEED_MAX)
        self.speed.setSingleStep(0.1)
        self.speed.setDecimals(2)
        self.speed.setValue(1.0)
        self.speed.setSuffix(" ×")
        self.speech_model = _combo(
            "speechModelCombo", self.tr("Model"), ps.SPEECH_MODELS, ps.DEFAULT_SPEECH_MODEL
        )
        self.speech_format = _combo(
            "speechFormatCombo", self.tr("Format"), ps.SPEECH_FORMATS, "mp3"
        )
        self._fill_voices(ps.SYSTEM_VOICES)
        head = QHBoxLayout()
        head.addWidget(QLabel(self.tr("Text")))
        head.addStretch(1)
        head.addWidget(self.text_count)
        self.design_button = QToolButton(
            objectName="designVoiceButton", text=self.tr("Design a voice…")
        )
        self.design_button.setToolTip(
            self.tr(
                "MiniMax makes a new voice from a description (a paid step kept as a slot; the "
                "price is shown first)"
            )
        )
        self.design_button.setAccessibleName(self.tr("Design a voice"))
        self.design_button.clicked.connect(self.open_designer)
        self.design_dialog: Any = None
        picker = QHBoxLayout()
        picker.setContentsMargins(0, 0, 0, 0)
        picker.addWidget(self.voice, 1)
        picker.addWidget(self._hear_part())
        picker.addWidget(self.design_button)
        voice_box = QVBoxLayout()
        voice_box.setContentsMargins(0, 0, 0, 0)
        voice_box.setSpacing(2)
        voice_box.addLayout(picker)
        voice_box.addWidget(self.voice_note)
        voice_box.addWidget(self.hear_view)
        voice_row = QWidget()
        voice_row.setLayout(voice_box)
        fields = QFormLayout()
        fields.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        fields.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        fields.addRow(self.tr("Voice"), voice_row)
        fields.addRow(self.tr("Speed"), self.speed)
        fields.addRow(self.tr("Model"), self.speech_model)
        fields.addRow(self.tr("Format"), self.speech_format)
        box = QVBoxLayout(page)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(head)
        box.addWidget(self.text)
        box.addWidget(self.protocol_line)
        box.addLayout(fields)
        self.voice.currentIndexChanged.connect(self._say_voice)
        self.voice.editTextChanged.connect(self._say_voice)
        for sig in (
            self.voice.currentIndexChanged,
            self.voice.editTextChanged,
            self.speech_model.currentIndexChanged,
        ):
            sig.connect(self._voice_changed)
        for sig in (
            self.text.textChanged,
            self.voice.currentIndexChanged,
            self.voice.editTextChanged,
            self.speed.valueChanged,
            self.speech_model.currentIndexChanged,
            self.speech_format.currentIndexChanged,
        ):
            sig.connect(self.changed)
        return page

    # -- hear a voice: the price first, then the preview ------------------------------------
    def _hear_part(self) -> QWidget:
        from app.ui.sound_view import SoundView

        self.hear_button = QToolButton(objectName="hearVoiceButton", text=self.tr("Hear it"))
        self.hear_button.setAccessibleName(self.tr("Hear this voice"))
        self.hear_button.setEnabled(False)
        self.hear_button.clicked.connect(self.hear)
        self.hear_view = SoundView()
        self.hear_view.setFixedHeight(96)
        self.hear_view.hide()
        self.quote: Any = None  # the service's PreviewQuote of the voice and model shown
        self._quote_for: tuple[str, str] | None = None
        self._price_timer = QTimer(self, singleShot=True, interval=250)
        self._price_timer.timeout.connect(self.ask_price)
        return self.hear_button

    def _hear_key(self) -> tuple[str, str]:
        return self.voice_id(), str(self.speech_model.currentData() or ps.DEFAULT_SPEECH_MODEL)

    def _voice_changed(self) -> None:
        """Another voice or model: the preview heard is not this one's; its price is asked."""
        self.hear_view.stop()
        self.hear_view.hide()
        self.quote = None
        self._say_hear()
        self._price_timer.start()

    def ask_price(self) -> None:
        """Ask the service what hearing the voice shown costs (nothing is paid)."""
        if self.controller is None or self.kind() != ps.SPEECH:
            return
        key = self._hear_key()
        self._quote_for = key
        if not key[0]:
            self.quote = None
            self._say_hear()
            return
        self.controller.preview_price(key[0], key[1], lambda out: self._priced(key, out))

    def _priced(self, key: tuple[str, str], out: Any) -> None:
        if not shiboken6.isValid(self) or key != self._hear_key():
            return  # an answer for a voice no longer shown
        self.quote = getattr(out, "payload", None)
        self._say_hear(
            None if self.quote is not None else for_outcome(out.problem, translate=translate).text
        )

    def _say_hear(self, problem: str | None = None) -> None:
        """The button's words: the price before the click pays, or that it pays nothing."""
        q = self.quote
        button = self.hear_button
        if q is None:
            button.setText(self.tr("Hear it"))
            button.setEnabled(False)
            button.setToolTip(problem or self.tr("Choose a voice to hear it."))
            return
        button.setEnabled(not self._read_only)
        if q.trial:
            button.setText(self.tr("Hear it"))
            button.setToolTip(
                self.tr("Plays the trial recording MiniMax made with this voice: nothing to pay.")
            )
        elif q.made:
            button.setText(self.tr("Hear it"))
            button.setToolTip(
                self.tr("Plays this voice's preview again: heard before, it pays nothing.")
            )
        else:
            money = price_of(q.cost.cost if q.cost is not None else None, translate)
            button.setText(
                self.tr("Hear it · %1").replace("%1", money)
                if money is not None
                else self.tr("Hear it · price unknown")
            )
            button.setToolTip(
                self.tr(
                    "Says a short line in this voice (“%1”) as a slot of its own, paid once; "
                    "hearing it again pays nothing."
                ).replace("%1", q.text or "")
            )

    def hear(self) -> None:
        """Make (or replay) the preview and play it; a designed voice plays its trial."""
        if self.controller is None or self._read_only or self.quote is None:
            return
        key = self._hear_key()
        self.hear_button.setEnabled(False)
        self.hear_button.setText(self.tr("Hearing…"))
        self.controller.preview_voice(
            key[0],
            key[1],
            lambda out: self._heard(key, out),
            lambda trouble: self._heard(key, None, trouble),
        )

    def _heard(self, key: tuple[str, str], out: Any, failed: Any = None) -> None:
        """The preview's answer (``out``), or the runner's typed ``Trouble`` (``failed``) said
        in the designer's words."""
        if not shiboken6.isValid(self):
            return
        task = getattr(out, "task", None)
        media = list(getattr(task, "media", None) or [])
        problem = None if media or failed is None else words.for_error(failed, translate).text
        if not media and out is not None:
            problem = for_outcome(out.problem, translate=translate).text or self.tr(
                "No sound came back to play."
            )
        if key == self._hear_key():
            if media:
                from app.ui.sound_view import show_sound

                view = self.hear_view
                view.show()
                show_sound(view, media[0], self.controller, lambda: shiboken6.isValid(view))
                view.toggle()
            else:
                view = self.hear_view
                view.hide()
        self._say_hear()
        if problem:
            self.voice_note.setText(problem)
            self.voice_note.setVisible(True)
        self.ask_price()

    def _fill_voices(self, voices: Any, keep: str | None = None) -> None:
        keep = keep or self.voice_id() or ps.DEFAULT_VOICE
        self.voice.blockSignals(True)
        self.voice.clear()
        for vid, name in voices:
            entry = self.designed.get(vid)
            label = self.designed_label(entry) if entry is not None else voice_label(vid, name)
            self.voice.addItem(label, vid)
            self.voice.setItemData(self.voice.count() - 1, vid, Qt.ItemDataRole.ToolTipRole)
        if self.voice.findData(keep) < 0:
            self.voice.addItem(keep, keep)  # a stored or typed voice the list does not hold
        self.voice.setCurrentIndex(self.voice.findData(keep))
        self.voice.blockSignals(False)

    def voice_id(self) -> str:
        """The id of the voice shown: a listed voice's label (chosen or typed, any case) gives
        its id (the item's data); anything else typed is a voice id of the user's own."""
        if "voice" not in self.__dict__:  # the pages are not made yet (or are being made)
            return ""
        combo = self.voice
        text = combo.currentText().strip()
        i = combo.currentIndex()
        if i >= 0 and text == combo.itemText(i).strip():
            return str(combo.itemData(i) or text)
        if not text:
            return ""
        for j in range(combo.count()):
            if combo.itemText(j).strip().casefold() == text.casefold():
                return str(combo.itemData(j) or text)
        return text

    def attach(self, controller: Any, request_id: Callable[[], str]) -> None:
        """The controller the voices, the designed voices' dates and a voice design go through;
        ``request_id()``: the draft's RequestId (a designed voice's slot is named after it)."""
        self.controller = controller
        self.voice_source = controller.voices
        self.draft_request_id = request_id

    controller: Any = None
    draft_request_id: Callable[[], str] = staticmethod(lambda: "")  # type: ignore[assignment]

    def ask_voices(self, again: bool = False) -> None:
        """Ask the service for the voices once (the documented ones are shown meanwhile);
        ``again``: once more (a voice was designed)."""
        if (self.voices_asked and not again) or self.voice_source is None:
            return
        self.voices_asked = True
        self.voice_source(self._voices_arrived)

    def _voices_arrived(self, out: Any) -> None:
        listed = getattr(out, "payload", None)
        if listed is None:
            return
        self._fill_voices(listed.voices)
        self.voices_documented = listed.documented
        self._say_voice()
        self.changed.emit()
        if self.controller is not None and not listed.documented:
            self.controller.voice_list(self._designed_arrived)

    def _designed_arrived(self, out: Any) -> None:
        """The designed voices' dates: each shown in the picker with the day MiniMax deletes it
        if unused, and the slot that made it (or that it was made outside Slate)."""
        report = getattr(out, "payload", None)
        if report is None or not shiboken6.isValid(self):
            return
        self.designed = {v.voice_id: v for v in report.voices}
        keep = self.voice_id()
        self.voice.blockSignals(True)
        for entry in report.voices:
            i = self.voice.findData(entry.voice_id)
            if i < 0:
                self.voice.addItem(entry.voice_id, entry.voice_id)
                i = self.voice.count() - 1
            self.voice.setItemText(i, self.designed_label(entry))
        i = self.voice.findData(keep)
        if i >= 0:
            self.voice.setCurrentIndex(i)
        self.voice.blockSignals(False)
        self._say_voice()

    def designed_label(self, entry: Any) -> str:
        """A designed voice as the picker lists it: its slot's name (or "made outside Slate")
        and the day MiniMax deletes it if unused."""
        name = (
            entry.request_id.rsplit(":", 1)[-1]
            if entry.request_id
            else self.tr("%1 (made outside Slate)").replace("%1", entry.voice_id)
        )
        if not entry.deleted_after:
            return name
        return (
            self.tr("%1 — deleted after %2 if unused")
            .replace("%1", name)
            .replace("%2", entry.deleted_after)
        )

    def _say_voice(self) -> None:
        """The line under the picker: the documented voices' fallback, or the chosen designed
        voice's dates (made, last used, deleted after) and its slot."""
        text = ""
        if self.voices_documented:
            text = self.tr(
                "The provider's voice list could not be read: these are MiniMax's documented "
                "system voices."
            )
        else:
            entry = self.designed.get(self.voice_id())
            if entry is not None:
                said = [
                    self.tr("Designed voice, slot %1.").replace("%1", entry.request_id)
                    if entry.request_id
                    else self.tr("Designed voice, made outside Slate.")
                ]
                if entry.made:
                    said.append(self.tr("Made %1.").replace("%1", entry.made))
                said.append(
                    self.tr("Last used by a voice line %1.").replace("%1", entry.last_used)
                    if entry.last_used
                    else self.tr("Not used by a voice line yet.")
                )
                if entry.deleted_after:
                    said.append(
                        self.tr("MiniMax deletes it after %1 if no voice line uses it.").replace(
                            "%1", entry.deleted_after
                        )
                    )
                text = _sentences(said)
        self.voice_note.setText(text)
        self.voice_note.setVisible(bool(text))

    def open_designer(self) -> None:
        """The "Design a voice" dialog (imported now: the window's start does not need it)."""
        if self.controller is None or self._read_only:
            return
        from app.ui.voice_design import VoiceDesignDialog

        dlg = self.design_dialog = VoiceDesignDialog(
            self.controller, self.draft_request_id(), self.use_designed, self.window()
        )
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.finished.connect(lambda _r: setattr(self, "design_dialog", None))
        dlg.open()

    def use_designed(self, voice_id: str, name: str) -> None:
        """The voice just designed becomes the voice line's voice (the list is read again for
        its dates)."""
        if self.voice.findData(voice_id) < 0:
            self.voice.addItem(name, voice_id)
        self.voice.setCurrentIndex(self.voice.findData(voice_id))
        self.ask_voices(again=True)

    # -- the form's hooks ---------------------------------------------------------------------
    _read_only = False

    def kind(self) -> str | None:
        """``music``, ``speech`` or None (a picture or a video is chosen)."""
        if self.music_radio.isChecked():
            return ps.MUSIC
        if self.voice_radio.isChecked():
            return ps.SPEECH
        return None

    def choose(self, kind: str) -> None:
        (self.music_radio if kind == ps.MUSIC else self.voice_radio).setChecked(True)

    def _toggled(self, on: bool) -> None:
        if not on and self.kind() is not None:
            return  # the other sound radio takes over: one change, said once
        kind = self.kind()
        self.setVisible(kind is not None)
        if kind is not None:
            self._build()
            self.pages.setCurrentIndex(0 if kind == ps.MUSIC else 1)
            if kind == ps.SPEECH:
                self.ask_voices()
                self.ask_price()
        self.kindChanged.emit()

    def params(self) -> dict[str, Any]:
        """The raw parameters (only what is set; the domain states the defaults)."""
        if self.kind() == ps.MUSIC:
            out: dict[str, Any] = {
                "model": self.music_model.currentData(),
                "prompt": self.style_edit.toPlainText(),
                "format": self.music_format.currentData(),
            }
            if self.instrumental.isChecked():
                out["instrumental"] = True
            elif self.optimizer.isChecked():
                out["lyrics_optimizer"] = True
            else:
                out["lyrics"] = self.lyrics.toPlainText()
            return out
        return {
            "model": self.speech_model.currentData(),
            "text": self.text.toPlainText(),
            "voice": self.voice_id(),
            "speed": round(self.speed.value(), 2),
            "format": self.speech_format.currentData(),
        }

    def set_params(self, kind: str, params: dict[str, Any]) -> None:
        """Show stored or draft parameters of a song or a voice line."""
        self.choose(kind)
        if kind == ps.MUSIC:
            self.style_edit.setPlainText(str(params.get("prompt") or ""))
            self.lyrics.setPlainText(str(params.get("lyrics") or ""))
            self.instrumental.setChecked(bool(params.get("instrumental")))
            self.optimizer.setChecked(bool(params.get("lyrics_optimizer")))
            for combo, key in ((self.music_model, "model"), (self.music_format, "format")):
                i = combo.findData(params.get(key))
                if i >= 0:
                    combo.setCurrentIndex(i)
            self._lyrics_enabled()
            return
        self.text.setPlainText(str(params.get("text") or ""))
        voice = params.get("voice")
        if isinstance(voice, str) and voice:
            if self.voice.findData(voice) < 0:
                self.voice.addItem(voice, voice)
            self.voice.setCurrentIndex(self.voice.findData(voice))
        if params.get("speed") not in (None, ""):
            self.speed.setValue(float(params["speed"]))
        for combo, key in ((self.speech_model, "model"), (self.speech_format, "format")):
            i = combo.findData(params.get(key))
            if i >= 0:
                combo.setCurrentIndex(i)

    def set_read_only(self, ro: bool) -> None:
        self._read_only = ro
        for radio in (self.music_radio, self.voice_radio):
            radio.setEnabled(not ro)
        if not self._built:
            return  # the pages take it when they are made
        for edit in (self.style_edit, self.lyrics, self.text):
            edit.setReadOnly(ro)
        for w in (
            self.instrumental,
            self.optimizer,
            self.music_model,
            self.music_format,
            self.voice,
            self.design_button,
            self.hear_button,
            self.speed,
            self.speech_model,
            self.speech_format,
        ):
            w.setEnabled(not ro)
        self._say_hear()
        self._lyrics_enabled()

    def clear(self) -> None:
        if not self._built:
            return  # nothing typed yet
        for edit in (self.style_edit, self.lyrics, self.text):
            edit.clear()
        self.instrumental.setChecked(False)
        self.optimizer.setChecked(False)

    def field_labels(self) -> dict[str, str]:
        """The designer's name of each field a rule may refuse."""
        return {
            "prompt": self.tr("Style"),
            "lyrics": self.tr("Lyrics"),
            "instrumental": self.tr("Instrumental"),
            "lyrics_optimizer": self.tr("Lyrics"),
            "text": self.tr("Text"),
            "voice": self.tr("Voice"),
            "speed": self.tr("Speed"),
            "model": self.tr("Model"),
            "format": self.tr("Format"),
        }

    def _field_widgets(self) -> dict[str, QWidget]:
        return {
            "prompt": self.style_edit,
            "lyrics": self.lyrics,
            "text": self.text,
            "voice": self.voice,
            "speed": self.speed,
            "model": self.music_model if self.kind() == ps.MUSIC else self.speech_model,
            "format": self.music_format if self.kind() == ps.MUSIC else self.speech_format,
        }

    def protocol_text(self, protocol: str | None) -> str:
        """Whether the text is read at once or made as a long task, and why (the domain's
        threshold, :data:`~app.domain.params_sound.SYNC_TEXT_MAX`)."""
        limit = f"{ps.SYNC_TEXT_MAX:,}"
        if protocol == ps.ASYNC:
            return self.tr(
                "Longer than %1 characters: made as a long task at MiniMax (asynchronous). "
                "Slate asks until it is ready and fetches the file at once (MiniMax keeps it "
                "9 hours)."
            ).replace("%1", limit)
        return self.tr(
            "Up to %1 characters: read at once (synchronous), the sound comes back with the "
            "answer. Longer texts are made as a long task."
        ).replace("%1", limit)

    def show_draft(self, form: Any) -> None:
        """Show the draft model's answers: the counts, the voice line's protocol, the first
        problem (its field marked) and the estimate (the form's cost line)."""
        draft = form.draft
        kind = self.kind()
        style = self.style_edit.toPlainText()
        self.style_count.setText(f"{len(style)} / {ps.MUSIC_PROMPT_MAX}")
        self.lyrics_count.setText(f"{len(self.lyrics.toPlainText())} / {ps.LYRICS_MAX}")
        n = len(self.text.toPlainText())
        self.text_count.setText(
            self.tr("%1 characters").replace("%1", f"{n:,}")
            if n <= ps.SYNC_TEXT_MAX
            else self.tr("%1 / %2 characters")
            .replace("%1", f"{n:,}")
            .replace("%2", f"{ps.ASYNC_TEXT_MAX:,}")
        )
        self.protocol_line.setText(self.protocol_text(draft.speech_protocol))
        problem = draft.problem
        field = problem.field if problem is not None else None
        main = self.style_edit if kind == ps.MUSIC else self.text
        blank = not main.toPlainText().strip()
        start = (
            problem is not None
            and blank
            and field in ("prompt", "text")
            and problem.kind is not drafts.ProblemKind.BUDGET
        )
        message = ""
        if start:
            message = (
                self.tr("Describe the song's style to create it.")
                if kind == ps.MUSIC
                else self.tr("Write the words to speak to create the voice line.")
            )
        elif problem is not None:
            b = draft.budget
            label = self.field_labels().get(problem.field or "", "")
            message = words.draft_problem(
                problem,
                f"{label}: " if label else "",
                getattr(b, "currency", "USD"),
                getattr(b, "spent", None),
                translate,
            )
        error = form.error
        error.setObjectName("hint" if start else "fieldError")
        error.style().unpolish(error)
        error.style().polish(error)
        error.setText(message)
        error.setVisible(bool(message))
        for name, w in self._field_widgets().items():
            _invalid(w, name == field and not start)


__all__ = ["QUICK_TAGS", "SoundFields"]
