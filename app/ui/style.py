"""The look: calm colors, state badges that read without color (shape + glyph + word), one stylesheet."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from app.domain.states import IN_FLIGHT, State
from app.ui.assets import ui_icon
from app.present.said import STATE_WORDS
from app.ui.qt import (
    QColor,
    QIcon,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPointF,
    QRectF,
    QSize,
    Qt,
    translate,
)

# The words for states, said the same everywhere: app.present.said (the command line says them too).

ACCENT = "#3b6ea5"
INK = "#2b2f36"
MUTED = "#5f6672"  # 4.9:1 on the status bar, 5.3:1 on paper (WCAG AA)
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


#: Kinds a slot-list glyph is drawn for (any other kind: the state badge alone).
KIND_GLYPHS = ("image", "video", "music", "speech", "prompt")


def _kind_glyph(p: QPainter, kind: str, x: float, s: float, ink: QColor) -> None:
    """A small line drawing of ``kind`` in the square at ``x``: a picture, a film frame with a
    play mark, a note, a speech bubble, lines of text."""
    pen = QPen(ink, s * 0.1, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    m = s * 0.14
    box = QRectF(x + m, m * 1.4, s - 2 * m, s - 2.8 * m)
    if kind in ("image", "video"):
        p.drawRoundedRect(box, s * 0.12, s * 0.12)
        path = QPainterPath()
        if kind == "image":  # a mountain in the frame
            path.moveTo(box.left() + s * 0.08, box.bottom() - s * 0.06)
            path.lineTo(box.left() + s * 0.3, box.top() + s * 0.3)
            path.lineTo(box.left() + s * 0.48, box.bottom() - s * 0.16)
            path.lineTo(box.left() + s * 0.56, box.top() + s * 0.4)
            path.lineTo(box.right() - s * 0.06, box.bottom() - s * 0.06)
            p.drawPath(path)
        else:  # a play mark
            cx, cy, r = box.center().x(), box.center().y(), s * 0.17
            path.moveTo(cx - r * 0.7, cy - r)
            path.lineTo(cx + r, cy)
            path.lineTo(cx - r * 0.7, cy + r)
            path.closeSubpath()
            p.fillPath(path, ink)
    elif kind == "music":  # a quaver: stem, flag, filled head
        stem_x = x + s * 0.62
        p.drawLine(QPointF(stem_x, s * 0.2), QPointF(stem_x, s * 0.72))
        p.drawLine(QPointF(stem_x, s * 0.2), QPointF(stem_x + s * 0.2, s * 0.36))
        p.setBrush(ink)
        p.setPen(Qt.PenStyle.NoPen)
        p.drawEllipse(QPointF(stem_x - s * 0.15, s * 0.74), s * 0.16, s * 0.12)
    elif kind == "speech":  # a speech bubble with its tail
        bubble = QRectF(x + m, s * 0.16, s - 2 * m, s * 0.5)
        p.drawRoundedRect(bubble, s * 0.18, s * 0.18)
        tail = QPainterPath()
        tail.moveTo(bubble.left() + s * 0.22, bubble.bottom())
        tail.lineTo(bubble.left() + s * 0.16, s * 0.86)
        tail.lineTo(bubble.left() + s * 0.42, bubble.bottom())
        p.drawPath(tail)
    else:  # prompt: lines of text
        for i, width in enumerate((0.72, 0.56, 0.66)):
            y = s * (0.3 + 0.2 * i)
            p.drawLine(QPointF(x + m, y), QPointF(x + m + s * width, y))


@lru_cache(maxsize=256)
def _slot_pixmap(state: str | None, kind: str, size: int, ratio: float, ink: str) -> QPixmap:
    width = 2 * size + size // 4
    px = QPixmap(int(width * ratio), int(size * ratio))
    px.setDevicePixelRatio(ratio)
    px.fill(Qt.GlobalColor.transparent)
    p = QPainter(px)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.drawPixmap(0, 0, _badge_pixmap(state, size, ratio))
    _kind_glyph(p, kind, float(size + size // 4), float(size), QColor(ink))
    p.end()
    return px


def slot_icon(state: str | None, kind: str, size: int = 16) -> QIcon:
    """A slot in the list: its state badge, then what kind of slot it is (a picture, a clip, a
    song, a voice-over, a prompt), so a narrow list still says both."""
    if kind not in KIND_GLYPHS:
        return badge_icon(state, size)
    icon = QIcon()
    for ratio in (1.0, 2.0):
        icon.addPixmap(_slot_pixmap(state, kind, size, ratio, current().muted))
    return icon


def slot_icon_size(size: int = 16) -> QSize:
    """The size a view gives :func:`slot_icon`: two squares and a gap."""
    return QSize(2 * size + size // 4, size)


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
def arrows(dark: bool = False) -> str:
    """The arrows' rules (dark: the light-stroked icons, seen on a dark field)."""

    def icon(name: str) -> str:
        return _icon(name.replace(".svg", "-on-dark.svg") if dark else name)

    return f"""
QComboBox, QDateEdit {{ padding-right: 22px; }}
QComboBox::drop-down, QDateEdit::drop-down {{ subcontrol-origin: padding; subcontrol-position: center right;
    width: 20px; border: none; background: transparent; }}
QComboBox::down-arrow, QDateEdit::down-arrow {{ image: url("{icon("chevron-down.svg")}"); width: 10px; height: 10px; }}
QComboBox::down-arrow:disabled, QDateEdit::down-arrow:disabled {{ image: url("{icon("chevron-down-disabled.svg")}"); }}
QPushButton[hasMenu="true"] {{ padding-right: 22px; }}
QPushButton[hasMenu="true"]::menu-indicator {{ image: url("{icon("chevron-down.svg")}");
    subcontrol-origin: padding; subcontrol-position: center right; right: 8px; width: 10px;
    height: 10px; }}
QSpinBox, QDoubleSpinBox {{ padding-right: 20px; }}
QSpinBox::up-button, QDoubleSpinBox::up-button {{ subcontrol-origin: border; subcontrol-position: top right;
    width: 18px; border: none; background: transparent; }}
QSpinBox::down-button, QDoubleSpinBox::down-button {{ subcontrol-origin: border; subcontrol-position: bottom right;
    width: 18px; border: none; background: transparent; }}
QSpinBox::up-button:hover, QDoubleSpinBox::up-button:hover,
QSpinBox::down-button:hover, QDoubleSpinBox::down-button:hover {{ background: {"#343942" if dark else "#eeece7"}; }}
QSpinBox::up-arrow, QDoubleSpinBox::up-arrow {{ image: url("{icon("chevron-up.svg")}"); width: 9px; height: 9px; }}
QSpinBox::down-arrow, QDoubleSpinBox::down-arrow {{ image: url("{icon("chevron-down.svg")}"); width: 9px; height: 9px; }}
QSpinBox::up-arrow:disabled, QDoubleSpinBox::up-arrow:disabled,
QSpinBox::up-arrow:off, QDoubleSpinBox::up-arrow:off {{ image: url("{icon("chevron-up-disabled.svg")}"); }}
QSpinBox::down-arrow:disabled, QDoubleSpinBox::down-arrow:disabled,
QSpinBox::down-arrow:off, QDoubleSpinBox::down-arrow:off {{ image: url("{icon("chevron-down-disabled.svg")}"); }}
"""


ARROWS = arrows()


@dataclass(frozen=True)
class Theme:
    """The colours of one theme. Every text colour is meant for the backgrounds it is paired
    with in :data:`TEXT_PAIRS` (WCAG AA: 4.5:1 for body text, tests/unit/test_theme.py)."""

    name: str
    paper: str  # the window behind the panes
    panel: str  # a pane, a list, the slot page
    ink: str  # body text
    muted: str  # secondary text (hints, pane titles, day rows)
    line: str  # borders
    accent: str  # the primary button's background, the selection frame
    on_accent: str  # text on the accent
    link: str  # accent-coloured text (the app's name, links)
    field: str  # an input's background
    field_line: str
    button: str
    button_line: str
    button_hover: str
    disabled_ink: str  # (WCAG exempts disabled controls)
    disabled_bg: str
    readonly_ink: str
    readonly_bg: str
    selected: str  # a selected row's background
    status_bg: str
    error: str  # an error sentence
    warning: str  # a caution sentence
    detail: str  # technical words behind Details
    banner_success: str
    banner_fail: str
    banner_rejected: str
    banner_unknown: str
    banner_running: str
    title_success: str  # the banner's title on its background
    title_fail: str
    title_rejected: str
    title_unknown: str
    title_running: str
    chart_known: str  # a chart's bar of known (estimated) cost — 3:1 on panel and paper
    chart_reported: str  # its bar of what the provider reported


LIGHT = Theme(
    name="light",
    paper=PAPER,
    panel=PANEL,
    ink=INK,
    muted=MUTED,
    line=LINE,
    accent=ACCENT,
    on_accent="#ffffff",
    link=ACCENT,
    field="#ffffff",
    field_line="#cfccc5",
    button="#fdfcfa",
    button_line="#c9c6bf",
    button_hover="#f1efea",
    disabled_ink="#a8a8a8",
    disabled_bg="#f3f2ef",
    readonly_ink="#4b4f56",
    readonly_bg="#f4f3f0",
    selected="#dce7f3",
    status_bg="#efede8",
    error="#8a2d23",
    warning="#8a4b00",
    detail="#555555",
    banner_success="#e8f3ec",
    banner_fail="#fbeaea",
    banner_rejected="#f0f0f1",
    banner_unknown="#fdf3e1",
    banner_running="#eaf1f9",
    title_success="#256440",
    title_fail="#9a2e22",
    title_rejected="#5f6369",
    title_unknown="#7d5215",
    title_running="#265a8f",
    chart_known="#6f8fb5",
    chart_reported="#2f5b8a",
)
DARK = Theme(
    name="dark",
    paper="#16181c",
    panel="#1f2228",
    ink="#e6e8eb",
    muted="#a3aab4",
    line="#363a42",
    accent="#3b6ea5",
    on_accent="#ffffff",
    link="#8cb8e8",
    field="#272b32",
    field_line="#4a505a",
    button="#2a2e35",
    button_line="#4a505a",
    button_hover="#343942",
    disabled_ink="#6d737c",
    disabled_bg="#23262b",
    readonly_ink="#c5cad1",
    readonly_bg="#24272d",
    selected="#2c4663",
    status_bg="#1b1d21",
    error="#ff9a8f",
    warning="#f3b766",
    detail="#b9bfc8",
    banner_success="#1c3326",
    banner_fail="#3b2123",
    banner_rejected="#2a2c31",
    banner_unknown="#382d17",
    banner_running="#1d2b3b",
    title_success="#7fd3a0",
    title_fail="#ff9a8f",
    title_rejected="#c2c6cc",
    title_unknown="#f3c46f",
    title_running="#8cb8e8",
    chart_known="#4e7bb0",
    chart_reported="#a9c7ea",
)
THEMES = {t.name: t for t in (LIGHT, DARK)}
#: The theme choices in Settings: follow the system, or one of the themes.
THEME_CHOICES = ("system", "light", "dark")

#: Text colour on background, for every pair the stylesheet uses for words.
TEXT_PAIRS = (
    ("ink", "paper"),
    ("ink", "panel"),
    ("muted", "panel"),
    ("muted", "paper"),
    ("muted", "status_bg"),
    ("ink", "field"),
    ("ink", "button"),
    ("ink", "button_hover"),
    ("ink", "selected"),
    ("ink", "status_bg"),
    ("on_accent", "accent"),
    ("link", "panel"),
    ("link", "paper"),
    ("readonly_ink", "readonly_bg"),
    ("error", "panel"),
    ("error", "status_bg"),
    ("warning", "panel"),
    ("detail", "panel"),
    ("ink", "banner_success"),
    ("ink", "banner_fail"),
    ("ink", "banner_rejected"),
    ("ink", "banner_unknown"),
    ("ink", "banner_running"),
    ("title_success", "banner_success"),
    ("title_fail", "banner_fail"),
    ("title_rejected", "banner_rejected"),
    ("title_unknown", "banner_unknown"),
    ("title_running", "banner_running"),
    # a state's word in the slot browser (state_ink), on a row and on the selected row
    ("title_success", "panel"),
    ("title_fail", "panel"),
    ("title_rejected", "panel"),
    ("title_unknown", "panel"),
    ("title_running", "panel"),
    ("title_success", "selected"),
    ("title_fail", "selected"),
    ("title_rejected", "selected"),
    ("title_unknown", "selected"),
    ("title_running", "selected"),
)


#: Graphics (a chart's bars) on the backgrounds they are drawn on: WCAG's 3:1 for non-text.
GRAPHIC_PAIRS = (
    ("chart_known", "panel"),
    ("chart_known", "paper"),
    ("chart_reported", "panel"),
    ("chart_reported", "paper"),
)


def contrast(fg: str, bg: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21)."""

    def lum(color: str) -> float:
        c = QColor(color)
        out = []
        for v in (c.redF(), c.greenF(), c.blueF()):
            out.append(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]

    a, b = sorted((lum(fg), lum(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


_current = LIGHT
_platform_palette: Any = None  # the application's palette before a theme changed it
#: The palette ``apply_theme`` last put on the application, as the application holds it: a
#: window made in the theme on screen sets it again only if something else changed it since
#: (each change is sent to every widget of the application).
_set_palette: Any = None


def current() -> Theme:
    """The theme on screen (painting code reads its colours from here)."""
    return _current


def state_ink(state: State | None) -> QColor:
    """A state's word as text (the browser's State column): its colour, readable on a row."""
    t = _current
    if state is None:
        return QColor(t.muted)
    if state in IN_FLIGHT:
        return QColor(t.title_running)
    ink = {
        State.SUCCESS: t.title_success,
        State.FAIL: t.title_fail,
        State.REJECTED: t.title_rejected,
        State.UNKNOWN: t.title_unknown,
    }
    return QColor(ink.get(state, t.muted))


def resolve(choice: str | None) -> Theme:
    """A Settings choice as a theme: ``system`` follows the platform's colour scheme."""
    if choice in THEMES:
        return THEMES[choice]  # type: ignore[index]
    from app.ui.qt import QGuiApplication

    hints = QGuiApplication.styleHints() if QGuiApplication.instance() else None
    dark = hints is not None and hints.colorScheme() == Qt.ColorScheme.Dark
    return DARK if dark else LIGHT


def palette(theme: Theme) -> Any:
    """Qt's palette for ``theme`` (what no stylesheet rule paints: menus, scroll bars, tips)."""
    from app.ui.qt import QPalette

    pal = QPalette()
    R = QPalette.ColorRole  # noqa: N806 - a short name for the table below
    for role, color in (
        (R.Window, theme.paper),
        (R.WindowText, theme.ink),
        (R.Base, theme.panel),
        (R.AlternateBase, theme.readonly_bg),
        (R.Text, theme.ink),
        (R.Button, theme.button),
        (R.ButtonText, theme.ink),
        (R.ToolTipBase, theme.panel),
        (R.ToolTipText, theme.ink),
        (R.PlaceholderText, theme.muted),
        (R.Highlight, theme.selected),
        (R.HighlightedText, theme.ink),
        (R.Link, theme.link),
        (R.Mid, theme.line),
    ):
        pal.setColor(role, QColor(color))
    for role, color in ((R.Text, theme.disabled_ink), (R.ButtonText, theme.disabled_ink),
                        (R.WindowText, theme.disabled_ink)):  # fmt: skip
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor(color))
    return pal


def apply_theme(window: Any, theme: Theme) -> None:
    """Put ``theme`` on screen: the application's palette and ``window``'s stylesheet."""
    global _current, _platform_palette, _set_palette
    from app.ui.qt import QApplication, QPalette

    _current = theme
    app = QApplication.instance()
    if isinstance(app, QApplication):
        if _platform_palette is None:
            _platform_palette = QPalette(app.palette())
        # light: the platform's own palette, as before themes; dark: the theme's
        wanted = _platform_palette if theme is LIGHT else _palette(theme)
        held = _set_palette
        if held is None or held[0] is not wanted or app.palette() != held[1]:
            app.setPalette(wanted)
            _set_palette = (wanted, QPalette(app.palette()))
    sheet = stylesheet(theme)
    if window.styleSheet() != sheet:
        window.setStyleSheet(sheet)


@lru_cache(maxsize=None)
def _palette(theme: Theme) -> Any:
    """:func:`palette`, made once per theme (a QPalette is a value: Qt copies it when set)."""
    return palette(theme)


#: Check boxes on a dark theme: a visible box, the accent with a white tick when checked.
CHECKS = """
QCheckBox::indicator {{ width: 14px; height: 14px; border: 1px solid {t.field_line};
    border-radius: 3px; background: {t.field}; }}
QCheckBox::indicator:checked {{ background: {t.accent}; border-color: {t.accent};
    image: url("{check}"); }}
QCheckBox::indicator:disabled {{ background: {t.disabled_bg}; border-color: {t.line}; }}
"""


def set_tone(widget: Any, tone: str) -> None:
    """Colour ``widget``'s words by the stylesheet's ``tone`` rules (muted, strong, error,
    detail, link; "" for plain), in whichever theme is on screen."""
    if widget.property("tone") != tone:
        widget.setProperty("tone", tone)
        widget.style().unpolish(widget)
        widget.style().polish(widget)


@lru_cache(maxsize=None)
def stylesheet(t: Theme) -> str:
    """The one stylesheet, in ``t``'s colours (written once per theme)."""
    return (
        f"""
QMainWindow, QDialog {{ background: {t.paper}; }}
QWidget {{ color: {t.ink}; }}
QLabel#paneTitle {{ color: {t.muted}; font-weight: 600; letter-spacing: 1px; }}
QLabel#hint {{ color: {t.muted}; }}
QLabel#fieldError {{ color: {t.error}; }}
QLabel#fullRequestId {{ font-family: monospace; }}
QFrame#pane {{ background: {t.panel}; border: 1px solid {t.line}; border-radius: 8px; }}
QWidget#slotInner {{ background: {t.panel}; }}
QFrame#banner {{ border-radius: 8px; padding: 2px; background: {t.banner_running}; }}
QFrame#banner[tone="success"] {{ background: {t.banner_success}; }}
QFrame#banner[tone="fail"] {{ background: {t.banner_fail}; }}
QFrame#banner[tone="rejected"] {{ background: {t.banner_rejected}; }}
QFrame#banner[tone="unknown"] {{ background: {t.banner_unknown}; }}
QLabel#bannerTitle {{ font-size: 15px; font-weight: 600; color: {t.title_running}; }}
QFrame#banner[tone="success"] QLabel#bannerTitle {{ color: {t.title_success}; }}
QFrame#banner[tone="fail"] QLabel#bannerTitle {{ color: {t.title_fail}; }}
QFrame#banner[tone="rejected"] QLabel#bannerTitle {{ color: {t.title_rejected}; }}
QFrame#banner[tone="unknown"] QLabel#bannerTitle {{ color: {t.title_unknown}; }}
QLabel#demoBadge {{ background: #b8470a; color: white; font-weight: 700; border-radius: 4px;
    padding: 1px 8px; }}
QLabel#providerBadge {{ background: {t.accent}; color: {t.on_accent}; font-weight: 600;
    border-radius: 4px; padding: 1px 8px; }}
QLabel#troubleLabel {{ color: {t.error}; font-weight: 600; }}
QLabel[tone="muted"] {{ color: {t.muted}; }}
QLabel[tone="strong"] {{ color: {t.ink}; font-weight: 600; }}
QLabel[tone="error"] {{ color: {t.error}; }}
QLabel[tone="detail"] {{ color: {t.detail}; }}
QLabel[tone="link"] {{ color: {t.link}; }}
QPushButton, QToolButton#tidyButton {{ padding: 5px 10px; border: 1px solid {t.button_line};
    border-radius: 6px; background: {t.button}; }}
QPushButton:hover, QToolButton#tidyButton:hover {{ background: {t.button_hover}; }}
QToolButton#tidyButton {{ padding: 2px 10px; font-weight: 700; }}
QToolButton#tidyButton::menu-indicator {{ image: none; width: 0px; }}
QToolButton[star="true"] {{ padding: 1px 1px; border: none; background: transparent;
    color: {t.ink}; }}
QToolButton[star="true"]:hover {{ color: {t.accent}; }}
QPushButton:disabled {{ color: {t.disabled_ink}; background: {t.disabled_bg};
    border-color: {t.line}; }}
QPushButton[primary="true"]:enabled {{ background: {t.accent}; color: {t.on_accent};
    border-color: {t.accent}; font-weight: 600; }}
QPushButton[primary="true"]:enabled:hover {{ background: #325f8f; }}
QLineEdit, QPlainTextEdit, QComboBox, QSpinBox, QDoubleSpinBox, QDateEdit {{
    border: 1px solid {t.field_line}; border-radius: 5px; padding: 3px 5px;
    background: {t.field}; }}
QComboBox QAbstractItemView {{ background: {t.panel}; color: {t.ink};
    selection-background-color: {t.selected}; selection-color: {t.ink}; }}
QLineEdit[invalid="true"], QPlainTextEdit[invalid="true"], QComboBox[invalid="true"] {{
    border: 1px solid #c0392b; }}
QLineEdit:read-only, QPlainTextEdit[readOnly="true"] {{ background: {t.readonly_bg};
    color: {t.readonly_ink}; }}
QTreeView, QTreeWidget, QListWidget, QListView {{ background: {t.panel};
    border: 1px solid {t.line}; border-radius: 6px; }}
QTreeView::item {{ padding: 3px 0; }}
QTreeView::item:selected {{ background: {t.selected}; color: {t.ink}; }}
QMenu {{ background: {t.panel}; color: {t.ink}; border: 1px solid {t.line}; }}
QMenu::item:selected {{ background: {t.selected}; }}
QMenu::item:disabled {{ color: {t.disabled_ink}; }}
QToolTip {{ background: {t.panel}; color: {t.ink}; border: 1px solid {t.line}; }}
QStatusBar {{ background: {t.status_bg}; border-top: 1px solid {t.line}; }}
QFrame#spendCard {{ border: 1px solid {t.line}; border-radius: 6px; }}
QStatusBar QLabel {{ padding: 0 6px; }}
"""
        + arrows(t is DARK)
        + (CHECKS.format(t=t, check=_icon("check-on-accent.svg")) if t is DARK else "")
    )


STYLESHEET = stylesheet(LIGHT)


def theme_fields() -> tuple[str, ...]:
    return tuple(f.name for f in fields(Theme) if f.name != "name")
