"""Settings → Prices (issue 33): the table every estimate and the budget are judged by, with
"about" for a secondary price and "unknown" — never $0 — where none is known; a designer's own
price given here is kept per user in the store (what ``slate prices list`` then says), and an
open draft is judged by it at once: a song refused under a budget for want of a price can be
created once the designer gives music-2.6 one, and is refused again once it is taken back."""

from __future__ import annotations

from decimal import Decimal


from app.domain.states import Action
from app.ui.prices import PricesDialog
from tests.gui.conftest import buttons, close
from tests.gui.test_draft_form import _budget_window

SONG = "article:20260816:tide-eye:song-07"


def line_text(dialog: PricesDialog, model: str, part: str = "") -> str:
    for i, line in enumerate(dialog.lines):
        if (line.model, line.part) == (model, part):
            return dialog.table.topLevelItem(i).text(2)
    raise AssertionError(f"no line for {model} {part}")


def open_prices(gui, window) -> PricesDialog:
    window.open_settings()
    settings = gui.until(lambda: window.dialog, what="Settings")
    settings.prices_button.click()
    dialog = gui.until(lambda: window.prices_dialog, what="Prices")
    gui.until(dialog.loaded, what="the price table")
    assert window.dialog is settings and settings.isVisible()  # Settings stays beneath
    return dialog


def test_prices_say_about_and_unknown_in_the_designers_language(gui, qtbot, lang):
    _service, controller, window = _budget_window(gui, qtbot, "1.00")
    try:
        dialog = open_prices(gui, window)
        image = line_text(dialog, "image-01")
        song = line_text(dialog, "music-2.6")
        clip = line_text(dialog, "MiniMax-Hailuo-2.3", "768P/6")
        voice = line_text(dialog, "voice-design")  # per voice; MiniMax publishes no price
        assert voice == song  # unknown, never $0
        if lang == "en":
            assert image == "about $0.0035 an image"
            assert song == "unknown"
            assert clip == "$0.28 a clip"
        else:
            assert image == "约 $0.0035 每张图片" and song == "未知" and clip == "$0.28 每段"
        assert "$0.00 " not in " ".join(line_text(dialog, ln.model, ln.part) for ln in dialog.lines)
    finally:
        close(gui, controller, window)


def test_a_price_given_here_lets_a_refused_song_be_created_and_taking_it_back_refuses(gui, qtbot):
    service, controller, window = _budget_window(gui, qtbot, "1.00")
    try:
        window.new_draft()
        form = window.slot_pane.form
        form.sound.music_radio.setChecked(True)
        window.slot_pane.composer.set_request_id(SONG)
        form.sound.style_edit.setPlainText("lofi piano, rain")
        form.sound.instrumental.setChecked(True)
        create = buttons(window)[Action.CREATE]
        gui.until(lambda: "music-2.6 has no price yet" in form.error.text(), what="the refusal")
        assert not create.isEnabled()

        dialog = open_prices(gui, window)
        assert dialog.select("music-2.6")
        assert not dialog.take_back_button.isEnabled()  # nothing of yours to take back
        dialog.amount.setText("abc")  # refused by the service, naming the field; nothing kept
        dialog.give_button.click()
        gui.until(dialog.error.isVisible, what="the refusal")
        assert "amount" in dialog.error.text()
        assert line_text(dialog, "music-2.6") == "unknown"

        dialog.amount.setText("0.15")
        dialog.give_button.click()
        gui.until(lambda: line_text(dialog, "music-2.6") == "$0.15 a song (yours)", what="yours")
        assert not dialog.error.isVisible() and dialog.take_back_button.isEnabled()
        listed = gui.run(service.price_list()).payload
        [mine] = [ln for ln in listed.lines if ln.model == "music-2.6"]
        assert (mine.amount, mine.confidence) == (Decimal("0.15"), "yours")
        gui.until(create.isEnabled, what="Create on: the song has a price now")
        assert "$0.15" in form.cost.text() and not form.error.text()

        dialog.take_back_button.click()
        gui.until(lambda: line_text(dialog, "music-2.6") == "unknown", what="the table's again")
        gui.until(lambda: not create.isEnabled(), what="Create off again")
        assert "music-2.6 has no price yet" in form.error.text()
    finally:
        close(gui, controller, window)
