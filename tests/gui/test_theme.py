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
