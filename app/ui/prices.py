"""Settings → Prices: the table every estimate, the budget and Spend are judged by, and the
designer's own prices over it — what ``slate prices list|set|unset`` shows and changes.

Every line comes from :meth:`SlateService.price_list`; a price set here is kept per user in the
store (:meth:`SlateService.set_price`), and the amount is judged by the service (a refusal names
the field, said under the field). The dialog only shows: "about" for a secondary price, "yours"
for the designer's own, "unknown" — never $0 — where no price is known.
"""

from __future__ import annotations

from typing import Any

from app.domain.cost import format_rate
from app.domain.prices import part_named
from app.service.results import PriceLine, PricesReport
from app.present import words
from app.ui.qt import (
    QT_TRANSLATE_NOOP,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Qt,
    translate,
)

#: What one amount of each billing scheme buys, as the table's "Price" column says it.
PER = {
    "per_image": QT_TRANSLATE_NOOP("PricesDialog", "%1 an image"),
    "per_second": QT_TRANSLATE_NOOP("PricesDialog", "%1 a second"),
    "per_clip": QT_TRANSLATE_NOOP("PricesDialog", "%1 a clip"),
    "per_song": QT_TRANSLATE_NOOP("PricesDialog", "%1 a song"),
    "per_character": QT_TRANSLATE_NOOP("PricesDialog", "%1 a million characters"),
    "per_token": QT_TRANSLATE_NOOP("PricesDialog", "%1 a million tokens"),
    "per_voice": QT_TRANSLATE_NOOP("PricesDialog", "%1 a voice"),
}
ABOUT = QT_TRANSLATE_NOOP("PricesDialog", "about %1")
YOURS = QT_TRANSLATE_NOOP("PricesDialog", "%1 (yours)")
UNKNOWN = QT_TRANSLATE_NOOP("PricesDialog", "unknown")
#: A part of a price as the "For" column says it.
PARTS = {
    "input": QT_TRANSLATE_NOOP("PricesDialog", "input tokens"),
    "output": QT_TRANSLATE_NOOP("PricesDialog", "output tokens"),
}
CLIP = QT_TRANSLATE_NOOP("PricesDialog", "%1, %2 s")


def _tr(text: str) -> str:
    return translate("PricesDialog", text)


def price_text(line: PriceLine, currency: str) -> str:
    """ "about $0.0035 an image", "$0.15 a song (yours)", "unknown": never $0 for no price."""
    if line.amount is None:
        return _tr(UNKNOWN)
    amount = format_rate(line.amount, currency)
    text = _tr(PER.get(line.scheme, "%1")).replace("%1", amount)
    if line.confidence == "secondary":
        return _tr(ABOUT).replace("%1", text)
    if line.confidence == "yours":
        return _tr(YOURS).replace("%1", text)
    return text


def part_text(line: PriceLine) -> str:
    """ "768P", "768P, 6 s", "input tokens", or nothing for a model with one price."""
    if line.scheme == "per_clip" and "/" in line.part:
        resolution, _, seconds = line.part.partition("/")
        return _tr(CLIP).replace("%1", resolution).replace("%2", seconds)
    return _tr(PARTS[line.part]) if line.part in PARTS else line.part


class PricesDialog(QDialog):
    """The price table in use, one line per model and part; select a line to give it your own
    price, or to use the table's again."""

    def __init__(
        self, controller: Any, parent: QWidget | None = None, model: str | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("pricesDialog")
        self._wanted = model  # the model to select once the table arrives ("Give it a price…")
        self.setWindowTitle(self.tr("Prices"))
        self.setMinimumSize(600, 480)
        self.controller = controller
        self.report: PricesReport | None = None
        self.lines: list[PriceLine] = []
        intro = QLabel(
            self.tr(
                "What Slate counts each create at, for estimates, the daily budget and Spend. "
                "“about”: from sources other than MiniMax's price page. Give any model your "
                "own price — slots made earlier at an unknown price count at it too."
            ),
            objectName="hint",
        )
        intro.setWordWrap(True)
        self.table = QTreeWidget(objectName="pricesTable")
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels([self.tr("Model"), self.tr("For"), self.tr("Price")])
        self.table.setAccessibleName(self.tr("Prices"))
        self.table.currentItemChanged.connect(lambda *_: self._selected())
        self.chosen = QLabel(objectName="chosenPrice")
        self.chosen.setWordWrap(True)
        self.amount = QLineEdit(objectName="priceAmountEdit")
        self.amount.setAccessibleName(self.tr("Your price"))
        self.amount.returnPressed.connect(self.give)
        self.give_button = QPushButton(self.tr("Use my price"), objectName="givePriceButton")
        self.give_button.clicked.connect(self.give)
        self.take_back_button = QPushButton(
            self.tr("Use the table's price"), objectName="takeBackPriceButton"
        )
        self.take_back_button.clicked.connect(self.take_back)
        row = QHBoxLayout()
        row.addWidget(self.amount, 1)
        row.addWidget(self.give_button)
        row.addWidget(self.take_back_button)
        self.source = QLabel(objectName="hint")
        self.source.setWordWrap(True)
        self.source.setMinimumHeight(2 * self.source.fontMetrics().lineSpacing())
        self.source.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error = QLabel(objectName="fieldError")
        self.error.setWordWrap(True)
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addWidget(self.table, 1)
        box.addWidget(self.chosen)
        box.addLayout(row)
        box.addWidget(self.error)
        box.addWidget(self.source)
        box.addWidget(buttons)
        self._selected()
        self.refresh()

    # -- reading ------------------------------------------------------------------------------
    def refresh(self) -> None:
        self.controller.price_list(self._arrived)

    def loaded(self) -> bool:
        return self.report is not None

    def _arrived(self, out: Any) -> None:
        report = out.payload
        if not isinstance(report, PricesReport):
            self._say(out.problem.message if out.problem else self.tr("Prices are not available."))
            return
        keep = self._current()
        self.report = report
        self.lines = list(report.lines)
        self.table.clear()
        for line in self.lines:
            item = QTreeWidgetItem([line.model, part_text(line), price_text(line, report.currency)])
            item.setToolTip(2, line.source)
            self.table.addTopLevelItem(item)
        for col in range(3):
            self.table.resizeColumnToContents(col)
        if keep is not None:
            self.select(keep.model, keep.part)
        elif self._wanted and self.select(self._wanted):
            self.amount.setFocus()
        self._wanted = None
        self._selected()

    # -- choosing and changing ----------------------------------------------------------------
    def select(self, model: str, part: str = "") -> bool:
        """Select the line of ``model`` (and ``part``); False when the table has none."""
        for i, line in enumerate(self.lines):
            if (line.model, line.part) == (model, part):
                self.table.setCurrentItem(self.table.topLevelItem(i))
                return True
        return False

    def _current(self) -> PriceLine | None:
        item = self.table.currentItem()
        if item is None:
            return None
        index = self.table.indexOfTopLevelItem(item)
        return self.lines[index] if 0 <= index < len(self.lines) else None

    def _selected(self) -> None:
        line = self._current()
        self.error.hide()
        chosen = line is not None
        for widget in (self.amount, self.give_button):
            widget.setEnabled(chosen)
        self.take_back_button.setEnabled(chosen and line is not None and line.confidence == "yours")
        if line is None or self.report is None:
            self.chosen.setText(self.tr("Choose a price to give your own."))
            self.source.clear()
            return
        what = f"{line.model} · {part_text(line)}" if line.part else line.model
        self.chosen.setText(
            self.tr("Your price for %1, in %2:")
            .replace("%1", what)
            .replace("%2", self.report.currency)
        )
        self.amount.setPlaceholderText(
            "" if line.amount is None else f"{line.amount.normalize():f}"
        )
        self.source.setText(self.tr("Source: %1").replace("%1", line.source))

    def give(self) -> None:
        line = self._current()
        if line is None:
            return
        self.controller.set_price(
            line.model, self.amount.text(), part_named(line.scheme, line.part), self._changed
        )

    def take_back(self) -> None:
        line = self._current()
        if line is None:
            return
        self.controller.unset_price(line.model, part_named(line.scheme, line.part), self._changed)

    def _changed(self, out: Any) -> None:
        if out.problem is not None:
            self._say(words.for_outcome(out.problem, translate=translate).text)
            return
        self.amount.clear()
        self._arrived(out)

    def _say(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()


__all__ = ["PricesDialog", "part_text", "price_text"]
