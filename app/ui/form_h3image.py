"""The create form's MiniMax-H3-Image fields: the output's shape (aspect ratio + area, or an exact
size), how many images, and 1–16 reference images (an edit) by drop, paste, Add… or a result of
another slot.

Widgets only. What each value may be is :mod:`app.domain.params_h3image`'s (the offered areas,
the n range, the reference limits); the form asks the rules through its draft model and shows
their refusals. :class:`~app.ui.form.CreateForm` holds one :class:`H3ImageFields` and shows it
as one row while an H3-Image model is chosen.
"""

from __future__ import annotations

from typing import Any

from app.domain import params_h3image as h3i
from app.ui.inputs import MediaInput, ReferenceList
from app.ui.qt import (
    QObject,
    QComboBox,
    QEvent,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
    Signal,
)

#: The aspect ratios offered in the picker (any X:Y within 1:3–3:1 is taken when typed).
RATIOS = ("1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "21:9")
#: The input protocol the form's prober checks an H3-Image reference with.
PROTOCOL = "h3image"
FIELD = "reference_image"


class ImageReferences(ReferenceList):
    """H3-Image's reference pictures (an edit): their count against the limit."""

    def _show(self) -> None:
        super()._show()
        self.list.setAccessibleName(self.tr("Reference images"))
        self.limits.setText(
            self.tr("%1 of %2 pictures · with any, the request is an edit of them")
            .replace("%1", str(self.count("image")))
            .replace("%2", str(h3i.REFERENCES_MAX))
        )


class H3ImageFields(QObject):
    """Shape, count and references of a MiniMax-H3-Image draft: rows of the form's own layout
    (:meth:`add_rows`), shown while an H3-Image model is chosen (:meth:`set_visible`)."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("h3ImageFields")
        self._visible = False
        self.rows: QFormLayout | None = None
        self.by_ratio = QRadioButton(self.tr("Aspect ratio and area"), objectName="h3ByRatio")
        self.by_size = QRadioButton(self.tr("Exact size"), objectName="h3BySize")
        self.by_ratio.setChecked(True)
        self.ratio = QComboBox(objectName="h3RatioCombo", editable=True)
        self.ratio.addItems(list(RATIOS))
        self.ratio.setCurrentText(h3i.DEFAULT_ASPECT_RATIO)
        # Editable (any X:Y is typed) yet opened by a click anywhere, as every other picker is
        # (an editable combo box opens only on its arrow); typing after Esc still edits.
        self.ratio.lineEdit().installEventFilter(self)
        self.area = QComboBox(objectName="h3AreaCombo")
        for area in h3i.AREAS:
            self.area.addItem(area, area)
        self.area.setCurrentIndex(self.area.findData(h3i.DEFAULT_AREA))
        self.size = QLineEdit(objectName="h3SizeEdit", placeholderText="2048x1152")
        self.n = QSpinBox(objectName="h3CountSpin", minimum=h3i.N_MIN, maximum=h3i.N_MAX)
        self.references = ImageReferences()
        self.references.setObjectName("h3References")
        for w, name in (
            (self.ratio, self.tr("Aspect ratio")),
            (self.area, self.tr("Area")),
            (self.size, self.tr("Size in pixels")),
            (self.n, self.tr("Number of images")),
        ):
            w.setAccessibleName(name)
        self.size_hint = QLabel(objectName="hint")
        self.size_hint.setWordWrap(True)
        self.size_hint.setText(
            self.tr("Width × height in pixels, e.g. 2048x1152 (aspect 1:3 to 3:1).")
        )

        modes = QHBoxLayout()
        modes.setContentsMargins(0, 0, 0, 0)
        modes.addWidget(self.by_ratio)
        modes.addWidget(self.by_size)
        modes.addStretch(1)
        shape = QHBoxLayout()
        shape.setContentsMargins(0, 0, 0, 0)
        shape.addWidget(self.ratio, 1)
        shape.addWidget(self.area)
        self._shape = QWidget()
        self._shape.setLayout(shape)
        size_box = QVBoxLayout()
        size_box.setContentsMargins(0, 0, 0, 0)
        size_box.setSpacing(2)
        size_box.addWidget(self.size)
        size_box.addWidget(self.size_hint)
        self._size_row = QWidget()
        self._size_row.setLayout(size_box)
        self._modes = QWidget()
        self._modes.setLayout(modes)
        self.by_ratio.toggled.connect(self._mode_changed)
        for sig in (
            self.ratio.currentTextChanged,
            self.area.currentIndexChanged,
            self.size.textChanged,
            self.n.valueChanged,
            self.references.changed,
        ):
            sig.connect(self.changed)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        line = self.ratio.lineEdit()
        if (
            watched is line
            and event.type() == QEvent.Type.MouseButtonPress
            and self.ratio.isEnabled()
            and not line.isReadOnly()
            and not self.ratio.view().isVisible()
        ):
            self.ratio.showPopup()
            return True
        return super().eventFilter(watched, event)

    def add_rows(self, rows: QFormLayout) -> None:
        """Put the fields into the form's layout (hidden until :meth:`set_visible`)."""
        self.rows = rows
        rows.addRow(self.tr("Shape"), self._modes)
        rows.addRow(self.tr("Ratio, area"), self._shape)
        rows.addRow(self.tr("Size"), self._size_row)
        rows.addRow(self.tr("Images"), self.n)
        rows.addRow(self.tr("References"), self.references)
        self.set_visible(False)

    def set_visible(self, on: bool) -> None:
        self._visible = on
        if self.rows is None:
            return
        exact = self.by_size.isChecked()
        for w, shown in (
            (self._modes, on),
            (self._shape, on and not exact),
            (self._size_row, on and exact),
            (self.n, on),
            (self.references, on),
        ):
            self.rows.setRowVisible(w, shown)

    def _mode_changed(self) -> None:
        self.set_visible(self._visible)
        self.changed.emit()

    # -- values ---------------------------------------------------------------------------------
    def params(self, *, check: bool) -> dict[str, Any]:
        """The H3-Image fields of the draft (the prompt and model are the form's)."""
        out: dict[str, Any] = {"n": self.n.value()}
        if self.by_size.isChecked():
            out["size"] = self.size.text().strip()
        else:
            out["aspect_ratio"] = self.ratio.currentText().strip()
            out["area"] = self.area.currentData()
        refs = self.references.by_field(check=check).get(FIELD, [])
        if refs:
            out[FIELD] = refs
        return out

    def set_params(self, params: dict[str, Any], local_word: str) -> None:
        """Show stored (normalized) parameters or a draft's raw ones."""
        exact = bool(params.get("size"))
        (self.by_size if exact else self.by_ratio).setChecked(True)
        self.size.setText(str(params.get("size") or ""))
        self.ratio.setCurrentText(str(params.get("aspect_ratio") or h3i.DEFAULT_ASPECT_RATIO))
        i = self.area.findData(params.get("area") or h3i.DEFAULT_AREA)
        self.area.setCurrentIndex(max(i, 0))
        self.n.setValue(int(params.get("n") or 1))
        items: list[MediaInput] = []
        for value in params.get(FIELD) or []:
            items.append(_reference_item(value, local_word))
        self.references.set_items(items)

    def set_read_only(self, ro: bool) -> None:
        for w in (self.by_ratio, self.by_size, self.ratio, self.area, self.n):
            w.setEnabled(not ro)
        self.size.setReadOnly(ro)
        self.references.set_read_only(ro)

    def clear(self) -> None:
        self.references.set_items([])
        self.size.clear()
        self.by_ratio.setChecked(True)
        self.n.setValue(1)

    def field_widgets(self) -> dict[str, QWidget]:
        """The widget a rule's field names (marked when the rule refuses it)."""
        return {
            "size": self.size,
            "aspect_ratio": self.ratio,
            "area": self.area,
            "n": self.n,
            FIELD: self.references.list,
        }


def _reference_item(value: Any, local_word: str) -> MediaInput:
    """A stored reference (its facts, a URL, another slot's result) or a draft's raw value."""
    from pathlib import Path

    from app.domain.params_v2 import MediaFacts

    if isinstance(value, str):
        name = "pasted image" if value.startswith("data:") else (Path(value).name or value)
        return MediaInput(value, "image", name)
    if isinstance(value, dict) and value.get("url"):
        url = str(value["url"])
        return MediaInput(url, "image", url.rsplit("/", 1)[-1])
    item = dict(value) if isinstance(value, dict) else {}
    name = str(item.get("request_id") or local_word)
    facts = MediaFacts(
        "image",
        str(item.get("sha256") or ""),
        int(item.get("bytes") or 0),
        str(item.get("format") or ""),
        name,
        item.get("width"),
        item.get("height"),
    )
    return MediaInput("", "image", name, facts)


__all__ = ["FIELD", "H3ImageFields", "ImageReferences", "PROTOCOL"]
