"""The look: calm colors, state badges that read without color (shape + glyph + word), one stylesheet."""

from __future__ import annotations

from functools import lru_cache

from app.domain.states import IN_FLIGHT, State
from app.ui.assets import ui_icon
from app.ui.said import STATE_WORDS
from app.ui.qt import (
    QColor,
    QIcon,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPointF,
    QRectF,
    Qt,
    translate,
)

# The words for states, said the same everywhere: app.ui.said (the command line says them too).

ACCENT = "#3b6ea5"
INK = "#2b2f36"
MUTED = "#6b7280"
PAPER = "#f7f6f3"
PANEL = "#ffffff"
LINE = "#e3e1dc"


def _tr(text: str) -> str:
    return translate("State", text)


def state_word(state: State | None) -> str:
    return _tr(STATE_WORDS.get(state, state or STATE_WORDS[None]))


BADGE_COLORS = {
    State.SUCCESS: "#2e7d4f",
    State.FAIL: "#c0392b",
    State.REJECTED: "#7b7f86",
    State.UNKNOWN: "#b7791f",
}
BADGE_SHAPES = {
    State.SUCCESS: "check",
    State.FAIL: "cross",
    State.REJECTED: "slash",
    State.UNKNOWN: "question",
}


def badge_color(state: State | None) -> QColor:
    if state is None:
        return QColor("#9aa0a6")
    if state in IN_FLIGHT:
        return QColor("#2f6fb2")
    return QColor(BADGE_COLORS.get(state, "#7b7f86"))


def badge_shape(state: State | None) -> str:
    """The shape says the state without color: ✔ success, ⟳ running, ? unknown, ✖ fail, ⊘ refused."""
    if state is None:
        return "empty"
    if state in IN_FLIGHT:
        return "running"
    return BADGE_SHAPES.get(state, "empty")


@lru_cache(maxsize=64)
def _badge_pixmap(state: str | None, size: int, ratio: float) -> QPixmap:
    px = QPixmap(int(size * ratio), int(size * ratio))
    px.setDevicePixelRatio(ratio)
    px.fill(Qt.GlobalColor.transparent)
    p = QPainter(px)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    color = badge_color(state)
    shape = badge_shape(state)
    s = float(size)
    m = s * 0.08
    white = QPen(
        QColor("white"),
        s * 0.12,
        Qt.PenStyle.SolidLine,
        Qt.PenCapStyle.RoundCap,
        Qt.PenJoinStyle.RoundJoin,
    )
    if shape == "empty":
        p.setPen(QPen(color, s * 0.1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(s / 2, s / 2), s / 2 - m * 1.5, s / 2 - m * 1.5)
    elif shape == "question":  # a diamond
        path = QPainterPath()
        path.moveTo(s / 2, m)
        path.lineTo(s - m, s / 2)
        path.lineTo(s / 2, s - m)
        path.lineTo(m, s / 2)
        path.closeSubpath()
        p.fillPath(path, color)
        p.setPen(QColor("white"))
        font = p.font()
        font.setBold(True)
        font.setPixelSize(int(s * 0.62))
        p.setFont(font)
        p.drawText(QRectF(0, 0, s, s), Qt.AlignmentFlag.AlignCenter, "?")
    elif shape == "cross":  # a rounded square with ✖
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(color)
        p.drawRoundedRect(int(m), int(m), int(s - 2 * m), int(s - 2 * m), s * 0.18, s * 0.18)
        p.setPen(white)
        a, b = s * 0.32, s * 0.68
        p.drawLine(QPointF(a, a), QPointF(b, b))
        p.drawLine(QPointF(b, a), QPointF(a, b))
    else:  # circles: check, running ring, slash
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(color)
        p.drawEllipse(QPointF(s / 2, s / 2), s / 2 - m, s / 2 - m)
        p.setPen(white)
        if shape == "check":
            path = QPainterPath()
            path.moveTo(s * 0.28, s * 0.52)
            path.lineTo(s * 0.44, s * 0.68)
            path.lineTo(s * 0.73, s * 0.36)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(path)
        elif shape == "running":
            p.setBrush(Qt.BrushStyle.NoBrush)
            r = s * 0.24
            p.drawArc(int(s / 2 - r), int(s / 2 - r), int(2 * r), int(2 * r), 90 * 16, 270 * 16)
        elif shape == "slash":
            p.drawLine(QPointF(s * 0.3, s * 0.7), QPointF(s * 0.7, s * 0.3))
    p.end()
    return px


def badge_icon(state: str | None, size: int = 16) -> QIcon:
    icon = QIcon()
    for ratio in (1.0, 2.0):
        icon.addPixmap(_badge_pixmap(state, size, ratio))
    return icon


def badge_pixmap(state: str | None, size: int = 16) -> QPixmap:
    return _badge_pixmap(state, size, 1.0)


def _icon(name: str) -> str:
    return ui_icon(name).as_posix()


# Combo boxes, date edits and spin boxes are styled (border, padding), so their arrows must be too:
# a styled box otherwise falls back to the base style's arrow parts, drawn clipped and misplaced.
ARROWS = f"""
QComboBox, QDateEdit {{ padding-right: 22px; }}
QComboBox::drop-down, QDateEdit::drop-down {{ subcontrol-origin: padding; subcontrol-position: center right;
    width: 20px; border: none; background: transparent; }}
QComboBox::down-arrow, QDateEdit::down-arrow {{ image: url("{_icon("chevron-down.svg")}"); width: 10px; height: 10px; }}
QComboBox::down-arrow:disabled, QDateEdit::down-arrow:disabled {{ image: url("{_icon("chevron-down-disabled.svg")}"); }}
QPushButton[hasMenu="true"] {{ padding-right: 22px; }}
QPushButton[hasMenu="true"]::menu-indicator {{ image: url("{_icon("chevron-down.svg")}");
    subcontrol-origin: padding; subcontrol-position: center right; right: 8px; width: 10px;
    height: 10px; }}
QSpinBox, QDoubleSpinBox {{ padding-right: 20px; }}
QSpinBox::up-button, QDoubleSpinBox::up-button {{ subcontrol-origin: border; subcontrol-position: top right;
    width: 18px; border: none; background: transparent; }}
QSpinBox::down-button, QDoubleSpinBox::down-button {{ subcontrol-origin: border; subcontrol-position: bottom right;
    width: 18px; border: none; background: transparent; }}
QSpinBox::up-button:hover, QDoubleSpinBox::up-button:hover,
QSpinBox::down-button:hover, QDoubleSpinBox::down-button:hover {{ background: #eeece7; }}
QSpinBox::up-arrow, QDoubleSpinBox::up-arrow {{ image: url("{_icon("chevron-up.svg")}"); width: 9px; height: 9px; }}
QSpinBox::down-arrow, QDoubleSpinBox::down-arrow {{ image: url("{_icon("chevron-down.svg")}"); width: 9px; height: 9px; }}
QSpinBox::up-arrow:disabled, QDoubleSpinBox::up-arrow:disabled,
QSpinBox::up-arrow:off, QDoubleSpinBox::up-arrow:off {{ image: url("{_icon("chevron-up-disabled.svg")}"); }}
QSpinBox::down-arrow:disabled, QDoubleSpinBox::down-arrow:disabled,
QSpinBox::down-arrow:off, QDoubleSpinBox::down-arrow:off {{ image: url("{_icon("chevron-down-disabled.svg")}"); }}
"""

STYLESHEET = (
    f"""
QMainWindow, QDialog {{ background: {PAPER}; }}
QWidget {{ color: {INK}; }}
QLabel#paneTitle {{ color: {MUTED}; font-weight: 600; letter-spacing: 1px; }}
QLabel#hint {{ color: {MUTED}; }}
QLabel#fieldError {{ color: #b03a2e; }}
QLabel#fullRequestId {{ font-family: monospace; }}
QFrame#pane {{ background: {PANEL}; border: 1px solid {LINE}; border-radius: 8px; }}
QFrame#banner {{ border-radius: 8px; padding: 2px; }}
QLabel#bannerTitle {{ font-size: 15px; font-weight: 600; }}
QLabel#demoBadge {{ background: #e8590c; color: white; font-weight: 700; border-radius: 4px;
    padding: 1px 8px; }}
QLabel#providerBadge {{ background: {ACCENT}; color: white; font-weight: 600; border-radius: 4px;
    padding: 1px 8px; }}
QLabel#troubleLabel {{ color: #b03a2e; font-weight: 600; }}
QPushButton {{ padding: 5px 14px; border: 1px solid #c9c6bf; border-radius: 6px; background: #fdfcfa; }}
QPushButton:hover {{ background: #f1efea; }}
QPushButton:disabled {{ color: #a8a8a8; background: #f3f2ef; border-color: #e2e0db; }}
QPushButton[primary="true"]:enabled {{ background: {ACCENT}; color: white; border-color: {ACCENT};
    font-weight: 600; }}
QPushButton[primary="true"]:enabled:hover {{ background: #325f8f; }}
QLineEdit, QPlainTextEdit, QComboBox, QSpinBox, QDoubleSpinBox, QDateEdit {{
    border: 1px solid #cfccc5; border-radius: 5px; padding: 3px 5px; background: white; }}
QLineEdit[invalid="true"], QPlainTextEdit[invalid="true"], QComboBox[invalid="true"] {{
    border: 1px solid #c0392b; }}
QLineEdit:read-only, QPlainTextEdit[readOnly="true"] {{ background: #f4f3f0; color: #4b4f56; }}
QTreeView, QTreeWidget, QListWidget {{ background: white; border: 1px solid {LINE}; border-radius: 6px; }}
QTreeView::item {{ padding: 3px 0; }}
QTreeView::item:selected {{ background: #dce7f3; color: {INK}; }}
QStatusBar {{ background: #efede8; border-top: 1px solid {LINE}; }}
QStatusBar QLabel {{ padding: 0 6px; }}
"""
    + ARROWS
)
