"""The window shown when the data dir or the store cannot be used: what is wrong, in the
designer's words, and a way on — choose another folder and continue there, or quit.

``build_or_ask`` is the loop the app starts with: build; on a :class:`BadConfiguration`, ask;
build again in the folder chosen. The decision of what is wrong is ``app.unusable``'s; this
module only says it and hands the chosen folder back.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from app.domain.errors import BadConfiguration
from app.ui.current import QT_TRANSLATE_NOOP
from app.ui.qt import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
    translate,
)

CONTEXT = "Unusable"
TITLE = QT_TRANSLATE_NOOP("Unusable", "Slate cannot use its folder")
#: reason → what is wrong (``%1``: the path).
WHAT = {
    "is_file": QT_TRANSLATE_NOOP(
        "Unusable", "Slate keeps its slots and results in %1, but that is a file, not a folder."
    ),
    "under_file": QT_TRANSLATE_NOOP(
        "Unusable", "Slate cannot make its folder %1: a part of that path is a file."
    ),
    "not_writable": QT_TRANSLATE_NOOP("Unusable", "Slate cannot write in its folder %1."),
    "disk_full": QT_TRANSLATE_NOOP(
        "Unusable", "The disk that holds %1 is full. Nothing stored was lost."
    ),
    "not_database": QT_TRANSLATE_NOOP("Unusable", "The file %1 is not a Slate store."),
    "cannot_open": QT_TRANSLATE_NOOP("Unusable", "Slate cannot open its store %1."),
    "is_folder": QT_TRANSLATE_NOOP("Unusable", "The store %1 is a folder, not a Slate store file."),
}
WAY_ON = QT_TRANSLATE_NOOP(
    "Unusable",
    "Choose another folder to continue there, or quit and set it right (for a full disk: free "
    "some space).",
)
CHOOSE = QT_TRANSLATE_NOOP("Unusable", "Choose another folder…")
QUIT = QT_TRANSLATE_NOOP("Unusable", "Quit")
CHOOSER_TITLE = QT_TRANSLATE_NOOP("Unusable", "A folder for Slate's slots and results")

Chooser = Callable[[QWidget, str], str]


def _choose_directory(parent: QWidget, title: str) -> str:
    return QFileDialog.getExistingDirectory(parent, title)


def say(problem: BadConfiguration) -> str:
    """What is wrong and the way on, in the user's language."""
    what = translate(CONTEXT, WHAT[problem.reason]).replace("%1", problem.path)
    return f"{what}\n\n{translate(CONTEXT, WAY_ON)}"


class UnusableDialog(QDialog):
    """Says what is wrong; *Choose another folder…* asks for one (``folder`` holds it and the
    dialog is accepted), *Quit* rejects."""

    def __init__(
        self,
        problem: BadConfiguration,
        parent: QWidget | None = None,
        chooser: Chooser = _choose_directory,
    ) -> None:
        super().__init__(parent)
        self.problem = problem
        self.chooser = chooser
        self.folder: Path | None = None
        self.setWindowTitle(translate(CONTEXT, TITLE))
        self.setObjectName("unusableDialog")
        layout = QVBoxLayout(self)
        self.text = QLabel(say(problem))
        self.text.setWordWrap(True)
        self.text.setObjectName("unusableText")
        layout.addWidget(self.text)
        buttons = QDialogButtonBox()
        self.choose = QPushButton(translate(CONTEXT, CHOOSE))
        self.choose.setObjectName("chooseFolder")
        self.quit = QPushButton(translate(CONTEXT, QUIT))
        self.quit.setObjectName("quit")
        buttons.addButton(self.choose, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.quit, QDialogButtonBox.ButtonRole.RejectRole)
        self.choose.clicked.connect(self._choose)
        self.quit.clicked.connect(self.reject)
        self.choose.setDefault(True)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)

    def _choose(self) -> None:
        chosen = self.chooser(self, translate(CONTEXT, CHOOSER_TITLE))
        if chosen:
            self.folder = Path(chosen)
            self.accept()


async def ask(problem: BadConfiguration, chooser: Chooser = _choose_directory) -> Path | None:
    """Show the dialog without blocking the loop; the folder chosen, or None (quit)."""
    dialog = UnusableDialog(problem, chooser=chooser)
    done: asyncio.Future[None] = asyncio.get_event_loop().create_future()
    dialog.finished.connect(lambda _r: done.done() or done.set_result(None))
    dialog.open()
    try:
        await done
    finally:
        dialog.deleteLater()
    return dialog.folder


async def build_or_ask(
    config: Any,
    build: Callable[[Any], Awaitable[Any]],
    asker: Callable[[BadConfiguration], Awaitable[Path | None]] = ask,
) -> Any | None:
    """Build; while the data dir or store cannot be used, ask for another folder and build
    there. None when the designer quits."""
    from app.unusable import another_folder

    while True:
        try:
            return await build(config)
        except BadConfiguration as problem:
            sys.stderr.write(f"slate: {problem}\n")
            folder = await asker(problem)
            if folder is None:
                return None
            config = another_folder(config, folder, problem)
