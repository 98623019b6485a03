"""The Spend view: what this designer's slots cost — today, this week, per project — estimate
beside reported, with a small bar chart.

Every figure comes from :meth:`SlateService.spend <app.service.slate.SlateService.spend>`, the
same call ``slate spend`` makes (``--since`` for today and this week, ``--by project``, ``--by
day`` for the week's bars), so the view and the command line always agree. The chart is drawn
with QPainter: QtCharts is left out of the bundle (``packaging/slate.spec``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from app.domain.cost import Money, Spend, SpendTotal, format_money
from app.domain.days import budget_day
from app.service.results import SpendReport
from app.present.said import spend_detail, spend_estimate
from app.ui.style import current
from app.ui.qt import (
    QColor,
    QDialog,
    QDialogButtonBox,
    QFont,
    QFontMetrics,
    QFrame,
    QGridLayout,
    QLabel,
    QPainter,
    QPalette,
    QPen,
    QRectF,
    QSize,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Qt,
    translate,
)


def money(amount: Money, currency: str, unknown: str) -> str:
    return unknown if amount is None else format_money(amount, currency)


@dataclass(frozen=True)
class Bar:
    """One group of the chart: its label, the estimate's known part, the reported sum, how many
    of its slots have no price (never drawn as $0) and the figure said above the bar."""

    label: str
    known: Decimal
    reported: Decimal | None
    unknown_slots: int
    said: str

    @property
    def all_unknown(self) -> bool:
        """Every slot of the group has no price: nothing to draw to scale."""
        return self.unknown_slots > 0 and self.known == 0


class BarChart(QWidget):
    """Estimate and reported per group as paired bars, drawn with QPainter. A group whose slots
    have no price is drawn as an outline marked with what is unknown, never as a $0 bar."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("spendChart")
        self.setMinimumHeight(140)
        self.bars: list[Bar] = []
        self.currency = "USD"

    def set_bars(self, bars: list[Bar], currency: str) -> None:
        self.bars, self.currency = bars, currency
        self.setAccessibleDescription("; ".join(f"{b.label}: {b.said}" for b in bars))
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(420, 170)

    def paintEvent(self, _event: Any) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(8, 8, -8, -8)
        fm = QFontMetrics(self.font())
        label_h = fm.height() + 4
        text_color = self.palette().color(QPalette.ColorRole.WindowText)
        theme = current()
        known_color, reported_color = QColor(theme.chart_known), QColor(theme.chart_reported)
        if not self.bars:
            p.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.tr("Nothing spent yet."))
            return
        top = max(max(b.known, b.reported or Decimal(0)) for b in self.bars) or Decimal(1)
        plot_h = rect.height() - 2 * label_h
        slot_w = rect.width() / len(self.bars)
        bar_w = max(4.0, min(28.0, slot_w / 3))
        p.setPen(self.palette().color(QPalette.ColorRole.Mid))
        base_y = rect.top() + label_h + plot_h
        p.drawLine(int(rect.left()), int(base_y), int(rect.right()), int(base_y))
        small = QFont(self.font())
        small.setPointSizeF(max(7.0, self.font().pointSizeF() - 1))
        p.setFont(small)
        for i, bar in enumerate(self.bars):
            cx = rect.left() + slot_w * i + slot_w / 2
            est_h = float(bar.known / top) * plot_h
            if bar.all_unknown:  # an outline, a quarter high: there is spend, of unknown size
                est_h = plot_h / 4
                outline = QPen(known_color, 1, Qt.PenStyle.DashLine)
                p.setPen(outline)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(QRectF(cx - bar_w, base_y - est_h, bar_w - 1, est_h))
            else:
                p.fillRect(QRectF(cx - bar_w, base_y - est_h, bar_w - 1, est_h), known_color)
            if bar.reported is not None:
                h = float(bar.reported / top) * plot_h
                p.fillRect(QRectF(cx, base_y - h, bar_w - 1, h), reported_color)
            p.setPen(text_color)
            p.drawText(
                QRectF(cx - slot_w / 2, base_y + 2, slot_w, label_h),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                fm.elidedText(bar.label, Qt.TextElideMode.ElideMiddle, int(slot_w)),
            )
            p.drawText(
                QRectF(cx - slot_w / 2, base_y - est_h - label_h, slot_w, label_h),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
                fm.elidedText(bar.said, Qt.TextElideMode.ElideRight, int(slot_w)),
            )
        p.end()


class SpendDialog(QDialog):
    """Today, this week and per project (and per model), estimate vs reported."""

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("spendDialog")
        self.setWindowTitle(self.tr("Spend"))
        self.setMinimumSize(560, 440)
        self.resize(760, 560)
        self.controller = controller
        self.reports: dict[str, SpendReport] = {}
        today = dt.date.fromisoformat(budget_day())
        self.today = today.isoformat()
        self.week_start = (today - dt.timedelta(days=today.weekday())).isoformat()
        self.cards: dict[str, tuple[QLabel, QLabel]] = {}
        cards = QGridLayout()
        for col, (key, title) in enumerate(
            (
                ("today", self.tr("Today")),
                ("week", self.tr("This week")),
                ("all", self.tr("All time")),
            )
        ):
            frame = QFrame(objectName="spendCard")  # its border: the theme's (style.py)
            box = QVBoxLayout(frame)
            head = QLabel(title, objectName="hint")
            value = QLabel("…", objectName=f"{key}Estimate")
            value.setStyleSheet("font-size: 18px; font-weight: 700;")
            # "$4.96 + 1 unknown" goes on two lines in a narrow card, never cut off
            value.setWordWrap(True)
            detail = QLabel("", objectName=f"{key}Detail")
            detail.setWordWrap(True)
            detail.setProperty("tone", "muted")
            box.addWidget(head)
            box.addWidget(value)
            box.addWidget(detail)
            cards.addWidget(frame, 0, col)
            self.cards[key] = (value, detail)
        self.tabs = QTabWidget(objectName="spendTabs")
        self.tables: dict[str, QTreeWidget] = {}
        self.charts: dict[str, BarChart] = {}
        for key, title in (
            ("day", self.tr("This week by day")),
            ("project", self.tr("By project")),
            ("model", self.tr("By model")),
        ):
            page = QWidget()
            box = QVBoxLayout(page)
            chart = BarChart()
            table = QTreeWidget(objectName=f"{key}SpendTable")
            table.setRootIsDecorated(False)
            table.setHeaderLabels(
                [
                    {
                        "day": self.tr("Day"),
                        "project": self.tr("Project"),
                        "model": self.tr("Model"),
                    }[key],
                    self.tr("Slots"),
                    self.tr("Estimated"),
                    self.tr("Reported"),
                ]
            )
            box.addWidget(chart, 2)
            box.addWidget(table, 3)
            self.tabs.addTab(page, title)
            self.tables[key], self.charts[key] = table, chart
        legend = QLabel(
            self.tr(
                "Light bars: estimated · dark bars: reported by the provider. "
                "A slot whose price is not in the price table counts as "
                "unknown, never as $0."
            ),
            objectName="hint",
        )
        legend.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(cards)
        box.addWidget(self.tabs, 1)
        box.addWidget(legend)
        box.addWidget(buttons)
        self.refresh()

    def queries(self) -> dict[str, dict[str, Any]]:
        """The spend calls behind the view (``slate spend`` with the same options agrees)."""
        return {
            "today": {"since": self.today},
            "week": {"since": self.week_start},
            "all": {},
            "day": {"since": self.week_start, "by": "day"},
            "project": {"by": "project"},
            "model": {"by": "model"},
        }

    def refresh(self) -> None:
        for key, kw in self.queries().items():
            self.controller.spend(kw, lambda out, k=key: self._arrived(k, out))

    def loaded(self) -> bool:
        return len(self.reports) == len(self.queries())

    def _arrived(self, key: str, out: Any) -> None:
        report = out.payload
        if not isinstance(report, SpendReport):
            msg = out.problem.message if out.problem else ""
            if key in self.cards:
                self.cards[key][0].setText(self.tr("not available"))
                self.cards[key][1].setText(msg)
            return
        self.reports[key] = report
        sp = report.spend
        if key in self.cards:
            self._card(key, sp)
        else:
            self._table(key, sp)

    def _unknown(self) -> str:
        return self.tr("unknown")

    def _card(self, key: str, sp: Spend) -> None:
        value, detail = self.cards[key]
        t = sp.total
        value.setText(self._estimate_text(t, sp.currency))
        detail.setText(spend_detail(t, sp.currency, translate))  # as `slate spend` says it

    def _estimate_text(self, t: SpendTotal, currency: str) -> str:
        return spend_estimate(t, currency, translate)  # the sentence `slate spend` says too

    def _table(self, key: str, sp: Spend) -> None:
        table = self.tables[key]
        table.clear()
        bars: list[Bar] = []
        for g in sp.groups:
            label = g.key or self.tr("(no project)")
            table.addTopLevelItem(
                QTreeWidgetItem(
                    [
                        label,
                        str(g.total.slots),
                        self._estimate_text(g.total, sp.currency),
                        money(g.total.reported, sp.currency, "—"),
                    ]
                )
            )
            bars.append(
                Bar(
                    label[5:] if key == "day" else label,
                    g.total.known_estimate,
                    g.total.reported,
                    g.total.unknown_slots,
                    self._estimate_text(g.total, sp.currency),
                )
            )
        for col in range(4):
            table.resizeColumnToContents(col)
        self.charts[key].set_bars(bars, sp.currency)


__all__ = ["Bar", "BarChart", "SpendDialog"]
