"""The one place Slate imports Qt from (qutebrowser's habit): widgets import names from here.

QtMultimedia is optional at import time: it needs system audio libraries (libpulse0 on Debian)
that a headless machine may lack. :func:`multimedia` says why it is missing instead of failing.
"""

from __future__ import annotations

from types import ModuleType

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


def translate(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


__all__ = [name for name in dir() if name.startswith("Q") or name in (
    "Qt", "QT_TRANSLATE_NOOP", "Signal", "Slot", "QtCore", "QtGui", "QtWidgets", "multimedia", "multimedia_error",
    "translate",
)]
