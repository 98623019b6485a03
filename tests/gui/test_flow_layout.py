"""The wrapping layout of the action bars and filters: its height for a width is kept until a
widget of it changes (its text, its visibility, a widget added or taken)."""

from __future__ import annotations

from app.ui.flow import FlowLayout
from app.ui.qt import QtWidgets


def test_the_height_for_a_width_follows_every_change_of_its_widgets(qtbot):
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    flow = FlowLayout(host, spacing=6)
    buttons = [QtWidgets.QPushButton(f"b{i}") for i in range(3)]
    for b in buttons:
        flow.addWidget(b)
    one_row = flow.heightForWidth(2000)
    assert flow.heightForWidth(2000) == one_row
    buttons[0].setText("a much longer label " * 30)  # wider than the width: a row of its own
    assert flow.heightForWidth(2000) > one_row
    buttons[0].setText("b0")
    assert flow.heightForWidth(2000) == one_row
    narrow = flow.heightForWidth(10)  # one button a row
    assert narrow > one_row
    buttons[1].hide()
    buttons[2].hide()
    assert flow.heightForWidth(10) == one_row  # hidden widgets take no room
    buttons[1].show()
    buttons[2].show()
    assert flow.heightForWidth(10) == narrow
    flow.removeWidget(buttons[2])
    assert one_row < flow.heightForWidth(10) < narrow
    flow.addWidget(buttons[2])
    assert flow.heightForWidth(10) == narrow


def test_heights_asked_by_turns_for_a_few_widths_are_each_worked_out_once(qtbot, monkeypatch):
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    flow = FlowLayout(host, spacing=6)
    for i in range(3):
        flow.addWidget(QtWidgets.QPushButton(f"b{i}"))
    walks: list[int] = []
    arrange = flow._arrange

    def counted(rect, *, move):
        walks.append(rect.width())
        return arrange(rect, move=move)

    monkeypatch.setattr(flow, "_arrange", counted)
    heights = [flow.heightForWidth(w) for w in (2000, 10, 2000, 10, 2000, 10)]
    assert heights[0] < heights[1]  # one row, then one button a row
    assert heights == heights[:2] * 3
    assert walks == [2000, 10]
    flow.invalidate()  # a widget changed: worked out again
    assert flow.heightForWidth(2000) == heights[0]
    assert walks == [2000, 10, 2000]
    for w in range(100, 130):  # a window dragged wider: the heights kept stay few
        flow.heightForWidth(w)
    assert len(flow._hfw) <= 8
