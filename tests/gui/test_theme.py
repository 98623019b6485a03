"""Dark theme and "follow the system" (issue 23): every text colour meets WCAG AA (4.5:1 for
body text) on the backgrounds it is used on, in both themes; Settings switches the theme at
once, and remembers it."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from app.ui import style
from app.ui.qt import QApplication, QPalette
from app.ui.style import DARK, LIGHT, TEXT_PAIRS, THEMES, contrast

AA = 4.5


@pytest.fixture(autouse=True)
def light_after(qapp: Any) -> Iterator[None]:
    """Other tests see the light theme, as they always did."""
    yield
    for w in QApplication.topLevelWidgets():
        if w.objectName() == "mainWindow":
            style.apply_theme(w, LIGHT)
    style._current = LIGHT


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_text_pair_meets_wcag_aa(name: str) -> None:
    theme = THEMES[name]
    low = {
        (fg, bg): round(contrast(getattr(theme, fg), getattr(theme, bg)), 2)
        for fg, bg in TEXT_PAIRS
        if contrast(getattr(theme, fg), getattr(theme, bg)) < AA
    }
    assert low == {}, f"{name}: below {AA}:1"


def test_the_contrast_measure_is_wcags() -> None:
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48  # the classic just-below-AA grey
    assert contrast("#3b6ea5", "#3b6ea5") == 1.0


def test_the_dark_palette_on_screen_meets_aa(qapp: Any) -> None:
    pal = style.palette(DARK)
    r = QPalette.ColorRole
    for fg, bg in ((r.WindowText, r.Window), (r.Text, r.Base), (r.ButtonText, r.Button),
                   (r.ToolTipText, r.ToolTipBase), (r.HighlightedText, r.Highlight),
                   (r.PlaceholderText, r.Base)):  # fmt: skip
        assert contrast(pal.color(fg).name(), pal.color(bg).name()) >= AA, (fg, bg)


def test_settings_switch_the_theme_at_once_and_remember_it(gui, make_window) -> None:
    window = make_window()
    assert style.current() is LIGHT  # offscreen has no dark scheme: "system" is light
    window.open_settings()
    dlg = window.dialog
    assert dlg.theme.currentData() == "system"
    assert [dlg.theme.itemData(i) for i in range(dlg.theme.count())] == list(style.THEME_CHOICES)
    dlg.theme.setCurrentIndex(dlg.theme.findData("dark"))
    dlg.save_button.click()
    gui.until(lambda: style.current() is DARK, what="dark on screen")
    assert window.settings.theme == "dark" and gui.settings().value("appearance/theme") == "dark"
    sheet = window.styleSheet()
    assert sheet == style.stylesheet(DARK) and f"background: {LIGHT.paper}" not in sheet
    app = QApplication.instance()
    assert app.palette().color(QPalette.ColorRole.Window).name() == DARK.paper
    # A message in the error tone reads in the dark theme's error colour.
    pane = window.slot_pane
    pane.show_message("Something went wrong", error=True)
    label = pane.actions.message
    label.ensurePolished()
    assert label.property("tone") == "error"
    assert label.palette().color(label.foregroundRole()).name() == DARK.error
    # Back to following the system: light again here.
    gui.until(lambda: window.dialog is None, what="the dialog closed")
    window.open_settings()
    window.dialog.theme.setCurrentIndex(window.dialog.theme.findData("system"))
    window.dialog.save_button.click()
    gui.until(lambda: style.current() is LIGHT, what="light again")
    assert window.settings.theme == "system"


def test_follow_the_system_takes_the_platforms_scheme_when_it_changes(
    gui, make_window, monkeypatch
) -> None:
    """(The offscreen platform has no colour scheme to change: its answer is stood in for.)"""
    from app.ui import qt
    from app.ui.qt import Qt

    class Hints:
        scheme = Qt.ColorScheme.Light

        def colorScheme(self) -> Any:  # noqa: N802 - Qt's name
            return self.scheme

    hints = Hints()

    class Platform:
        @staticmethod
        def instance() -> bool:
            return True

        @staticmethod
        def styleHints() -> Hints:  # noqa: N802 - Qt's name
            return hints

    window = make_window()
    monkeypatch.setattr(qt, "QGuiApplication", Platform)
    assert window.settings.theme == "system"
    hints.scheme = Qt.ColorScheme.Dark
    window._scheme_changed(hints.scheme)  # what colorSchemeChanged calls
    assert style.current() is DARK and window.styleSheet() == style.stylesheet(DARK)
    hints.scheme = Qt.ColorScheme.Light
    window._scheme_changed(hints.scheme)
    assert style.current() is LIGHT
    window.settings.theme = "light"  # chosen: the platform's scheme no longer counts
    hints.scheme = Qt.ColorScheme.Dark
    window._scheme_changed(hints.scheme)
    assert style.current() is LIGHT


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_graphic_meets_three_to_one(name: str) -> None:
    """A chart's bars are graphics: WCAG's 3:1 against what they are drawn on."""
    theme = THEMES[name]
    for fg, bg in style.GRAPHIC_PAIRS:
        assert contrast(getattr(theme, fg), getattr(theme, bg)) >= 3.0, (name, fg, bg)
    assert theme.chart_known != theme.chart_reported


@pytest.mark.parametrize("name", sorted(THEMES))
def test_the_spend_chart_and_the_shot_list_review_draw_in_the_themes_colours(
    qapp: Any, name: str
) -> None:
    from decimal import Decimal

    from app.service.results import OutcomeKind
    from app.ui.shotlist import INKS, outcome_ink
    from app.ui.spend import Bar, BarChart

    theme = THEMES[name]
    style._current = theme
    chart = BarChart()
    chart.resize(320, 170)
    chart.set_bars([Bar("image-01", Decimal("0.5"), Decimal("0.4"), 0, "$0.50")], "USD")
    image = chart.grab().toImage()
    seen = {
        image.pixelColor(x, y).name()
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    }
    assert theme.chart_known in seen and theme.chart_reported in seen, sorted(seen)[:20]
    other = THEMES["light" if name == "dark" else "dark"]
    assert other.chart_known not in seen and other.chart_reported not in seen
    # the review's outcome words: theme colours whose contrast on a list is checked (TEXT_PAIRS)
    for outcome in OutcomeKind:
        field = INKS.get(outcome, "ink")
        assert (field, "panel") in TEXT_PAIRS, field
        assert outcome_ink(outcome).name() == getattr(theme, field)
