"""A window that goes (the language switch replaces it; a test closes it) is freed with all it
made, though the controller it served lives on: nothing the controller keeps holds it.

A lambda the slot pane connected to the controller's ``statusChanged`` kept the pane, and
through it the whole window, alive after it closed (PySide keeps the callable of a lambda
connection for as long as the sender lives): every window a worker opened stayed in memory,
and each test's closing collection walked them all again (~180 ms after 80 tests)."""

from __future__ import annotations

import gc
import weakref

import shiboken6

from app.ui.controller import Controller
from app.ui.qt import QApplication, QEvent
from app.ui.window import MainWindow


def _opened_and_closed(gui, controller) -> weakref.ref:
    """A window of ``controller`` shown with a draft, then closed and its deletion asked for;
    only a weak reference to it is returned."""
    window = MainWindow(controller, gui.settings())
    window.show()
    controller.start()
    gui.until(lambda: window.model.started, what="first page of slots")
    gui.until(lambda: controller.is_ready, what="the service attached")
    window.new_draft()
    window.close()
    window.deleteLater()
    return weakref.ref(window)


def test_a_closed_window_is_freed_while_its_controller_lives_on(gui):
    controller = Controller(gui.service)
    gone = _opened_and_closed(gui, controller)
    gui.run(controller.aclose())  # its work ended; the controller object itself stays
    gui.until(lambda: gone() is None or not shiboken6.isValid(gone()), what="deleted")
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    assert gone() is None
    assert shiboken6.isValid(controller)  # what held the window is still there
