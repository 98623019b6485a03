"""The one place Slate imports Qt from (qutebrowser's habit): widgets import names from here.

QtMultimedia is optional at import time: it needs system audio libraries (libpulse0 on Debian)
that a headless machine may lack. :func:`multimedia` says why it is missing instead of failing.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import (
    QAbstractItemModel,
    QByteArray,
    QCoreApplication,
    QDate,
    QDir,
    QEvent,
    QLibraryInfo,
    QLocale,
    QMetaObject,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRectF,
    QRect,
    QSettings,
    QSize,
    QStandardPaths,
    Qt,
    QTimer,
    QTranslator,
    QT_TRANSLATE_NOOP,
    QUrl,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QDesktopServices,
    QDrag,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QIcon,
    QImage,
    QKeySequence,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
    QPolygonF,
    QShortcut,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QStatusBar,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QSystemTrayIcon,
    QTabWidget,
    QTextBrowser,
    QToolButton,
    QTreeView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)


def _cheaper_feature_check() -> None:
    """Shiboken asks, after every import once PySide6 is loaded, whether the new module uses
    PySide (for ``from __feature__ import ...``, which Slate never uses) with
    ``inspect.getsource``: ~2 ms a module here, a tenth of the window's imports and more of the
    service's after it (napari/napari#8584). The same answer — ``"PySide6"`` in the module's
    source — read straight from its ``.py`` file; anything else asks Shiboken's own check."""
    feature = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if original is None or getattr(original, "slate", False):
        return

    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as source:
                    return b"PySide6" in source.read()
            except OSError:
                pass
        return bool(original(module))

    uses_pyside.slate = True  # type: ignore[attr-defined]
    uses_pyside.original = original  # type: ignore[attr-defined]
    feature._mod_uses_pyside = uses_pyside  # type: ignore[union-attr]


_cheaper_feature_check()

_multimedia: tuple[ModuleType, ModuleType] | None = None
_multimedia_error: str | None = None


def multimedia() -> tuple[ModuleType, ModuleType] | None:
    """``(QtMultimedia, QtMultimediaWidgets)``, or None when the platform libraries are missing."""
    global _multimedia, _multimedia_error
    if _multimedia is None and _multimedia_error is None:
        try:
            from PySide6 import QtMultimedia, QtMultimediaWidgets

            _multimedia = (QtMultimedia, QtMultimediaWidgets)
        except ImportError as exc:  # e.g. libpulse.so.0 missing on a headless Debian
            _multimedia_error = str(exc)
    return _multimedia


def multimedia_error() -> str | None:
    multimedia()
    return _multimedia_error


def say_if_no_playback(button: Any, note: Any, sentence: str) -> None:
    """Where Qt's multimedia cannot load: ``button`` (Play) disabled and ``sentence`` said in
    ``note``, its ``%1`` the reason. Called when a player's view is first shown, so Qt's
    multimedia loads with the first video or sound, not with the window."""
    if multimedia() is None:
        button.setEnabled(False)
        note.setText(sentence.replace("%1", multimedia_error() or ""))


def _ask_once(obj: Any, signal: Any) -> None:
    # connect then disconnect a no-op: Qt calls the sender's connectNotify / disconnectNotify,
    # and Shiboken remembers, in the wrapper, that Python overrides neither
    connection = signal.connect(_no_op)
    QObject.disconnect(connection)


def _no_op(*_args: Any) -> None:
    pass


def media_player(parent: QObject) -> tuple[Any, Any]:
    """A ``QMediaPlayer`` with its ``QAudioOutput`` (Qt 6 plays no sound without one).

    Qt's audio thread, tearing a renderer down, calls ``disconnectNotify`` on the player and
    its audio output while it holds one of Qt's connection locks. For an object made from
    Python, Shiboken then asks the interpreter whether Python overrides that method, which needs
    the GIL; the main thread, holding the GIL, can at that moment be waiting for the same lock
    inside ``stop()``: both wait for ever (seen as a hang when a compare view closed). Shiboken
    keeps the answer in the wrapper once asked, so it is asked here, on the main thread, before
    any audio thread exists."""
    qm = multimedia()[0]  # type: ignore[index]
    player = qm.QMediaPlayer(parent)
    audio = qm.QAudioOutput(parent)
    for obj in (player, audio):
        _ask_once(obj, obj.destroyed)
    player.setAudioOutput(audio)
    return player, audio


def call_released(obj: QObject, method: str, *args: Any) -> None:
    """Call the Qt slot ``method`` of ``obj`` from C++, with the GIL released until it returns.

    A method called from Python keeps the GIL for its whole length unless PySide marks it
    otherwise; ``QMediaPlayer.stop()`` is not marked (``QAudioSink.stop()`` is). Stopping waits
    for Qt's playback threads, and one of them may at that moment be calling back into a Python
    wrapper, which needs the GIL: both would wait for ever. ``QMetaObject.invokeMethod`` lets
    the GIL go while the slot runs (tests/gui/test_players.py shows a Python thread running
    meanwhile)."""
    QMetaObject.invokeMethod(obj, method, Qt.ConnectionType.DirectConnection, *args)


def stop_player(player: Any, *, unload: bool = True) -> None:
    """Stop a ``QMediaPlayer`` (and, with ``unload``, let go of its file), without the GIL held
    while Qt's playback threads end (:func:`call_released`)."""
    call_released(player, "stop")
    if unload:
        call_released(player, "setSource", QtCore.Q_ARG(QUrl, QUrl()))


def translate(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


__all__ = [
    name
    for name in dir()
    if name.startswith("Q")
    or name
    in (
        "Qt",
        "QT_TRANSLATE_NOOP",
        "Signal",
        "Slot",
        "QtCore",
        "QtGui",
        "QtWidgets",
        "call_released",
        "media_player",
        "multimedia",
        "multimedia_error",
        "say_if_no_playback",
        "stop_player",
        "translate",
    )
]
