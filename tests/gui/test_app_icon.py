"""Slate's own icon: on the application (task bar, window switcher) and on the main window."""

from __future__ import annotations

from app.ui.app import make_app
from app.ui.qt import QApplication, QSize

SIZES = [16, 24, 32, 48, 64, 128, 256, 512]


def test_the_window_shows_slates_icon_at_every_size(make_window):
    window = make_window()
    icon = window.windowIcon()
    assert sorted(s.width() for s in icon.availableSizes()) == SIZES
    small = icon.pixmap(QSize(16, 16)).toImage()
    colours = {small.pixel(x, y) for x in range(16) for y in range(16)}
    assert small.width() == 16 and len(colours) > 4  # drawn, not a blank square


def test_the_application_carries_the_icon(qapp):
    before = (
        qapp.windowIcon(),
        qapp.applicationName(),
        qapp.organizationName(),
        qapp.applicationDisplayName(),
        qapp.desktopFileName(),
        qapp.quitOnLastWindowClosed(),
    )
    try:
        app = make_app()
        assert app is QApplication.instance()
        assert sorted(s.width() for s in app.windowIcon().availableSizes()) == SIZES
        assert app.desktopFileName() == "io.slate.Slate"  # the .desktop file's Icon= name
    finally:
        qapp.setWindowIcon(before[0])
        qapp.setApplicationName(before[1])
        qapp.setOrganizationName(before[2])
        qapp.setApplicationDisplayName(before[3])
        qapp.setDesktopFileName(before[4])
        qapp.setQuitOnLastWindowClosed(before[5])
