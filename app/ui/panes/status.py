"""The status bar: the provider (DEMO in an unmistakable badge), team / designer, today's quota,
tasks running, the connection, warnings, and a short notice of what just happened.

Bound to the controller: ``statusChanged`` redraws the counts, ``reset`` (a new service) the
provider and identity.
"""

from __future__ import annotations

from typing import Any

from app.ui.qt import QLabel, QStatusBar, Qt, QTimer, QWidget
from app.ui.style import set_tone
from app.ui.widgets import ElidedLabel


def _repolish(widget: QWidget) -> None:
    widget.style().unpolish(widget)
    widget.style().polish(widget)


class NoticeLabel(ElidedLabel):
    """The status bar's note of what just happened: it takes the room the counts leave and ends
    in "…" when that is too little (the whole note in its tooltip), so a long note never squeezes
    the quota, running and connection labels at the window's smallest width."""

    elide = Qt.TextElideMode.ElideRight


class StatusPane(QStatusBar):
    """Provider, identity, quota, running, connection and warnings; a notice at the right."""

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusBar")
        self.controller = controller
        self.provider_badge = QLabel(objectName="demoBadge")
        self.identity = QLabel(objectName="identityLabel")
        self.quota_label = QLabel(objectName="quotaLabel")
        self.running_label = QLabel(objectName="runningLabel")
        self.connection = QLabel(objectName="connectionLabel")
        self.warning_label = QLabel(objectName="warningLabel")
        for w in (
            self.provider_badge,
            self.identity,
            self.quota_label,
            self.running_label,
            self.connection,
            self.warning_label,
        ):
            self.addWidget(w)
        self.warning_label.hide()  # shown with a warning only: no empty padding
        self.notice = NoticeLabel(
            objectName="noticeLabel"
        )  # what just happened (settings applied…)
        self.notice.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.addPermanentWidget(self.notice, 1)
        self._notice_timer = QTimer(self, singleShot=True, interval=8000)
        self._notice_timer.timeout.connect(self.notice.clear)
        controller.statusChanged.connect(self.show_status)
        controller.reset.connect(self.show_provider)
        controller.ready.connect(self.show_provider)  # the warnings of the start come with it
        self.show_provider()

    def show_status(self, status: Any) -> None:
        """Today's quota, the tasks running, and whether the provider answers."""
        quota = status.quota

        def part(kind: str, label: str) -> str:
            q = getattr(quota, kind) if quota is not None else None
            used, limit = (q.used, q.limit) if q is not None else (0, None)
            return f"{label} {used}/{limit}" if limit is not None else f"{label} {used}"

        self.quota_label.setText(
            self.tr("Today: %1 · %2")
            .replace("%1", part("video", self.tr("videos")))
            .replace("%2", part("image", self.tr("images")))
        )
        running = int(status.running or 0)
        self.running_label.setText(self.tr("%1 running").replace("%1", str(running)))
        failing = int(status.failing or 0)
        if failing:
            self.connection.setObjectName("troubleLabel")
            self.connection.setText(
                self.tr("⚠ Provider not answering: 1 task retrying")
                if failing == 1
                else self.tr("⚠ Provider not answering: %1 tasks retrying").replace(
                    "%1", str(failing)
                )
            )
        else:
            self.connection.setObjectName("connectionLabel")
            self.connection.setText(self.tr("Connection OK"))
        _repolish(self.connection)
        self._lay_out()

    def _lay_out(self) -> None:
        """Give the labels their new widths now, not at the next turn of the event loop: on a busy
        machine that turn can come after a screenshot (or a glance), and a label whose text just
        arrived would still have the width of its old text."""
        layout = self.layout()
        if layout is not None:
            layout.activate()

    def show_provider(self) -> None:
        """The provider's badge, the team and designer, and the warnings of this run."""
        c = self.controller
        badge = self.provider_badge
        if c.demo:
            badge.setObjectName("demoBadge")
            badge.setText(self.tr("DEMO"))
            badge.setToolTip(
                self.tr(
                    "Demo provider: nothing is billed and media are made on this computer. "
                    "Set an API key in Settings to use MiniMax."
                )
            )
        else:
            badge.setObjectName("providerBadge")
            badge.setText(c.provider_label)
            badge.setToolTip(self.tr("Real provider: every create is billed."))
        badge.setAccessibleName(badge.text())
        _repolish(badge)
        tenant, user = c.config.tenant, c.config.user
        # A designer on their own (the default team "personal") is named alone; else with the team.
        self.identity.setText(user if tenant == "personal" else f"{user} · {tenant}")
        self.identity.setToolTip(self.tr("Designer · team"))
        if c.warnings:
            n = len(c.warning_sentences())
            self.warning_label.setText(
                self.tr("⚠ 1 warning") if n == 1 else self.tr("⚠ %1 warnings").replace("%1", str(n))
            )
            self.warning_label.setToolTip("\n".join(c.warning_sentences()))
        else:
            self.warning_label.clear()
        self.warning_label.setVisible(bool(c.warnings))
        self._lay_out()

    def show_notice(self, text: str, *, error: bool = False, keep: bool = False) -> None:
        """A short note at the right; cleared after a few seconds unless ``keep``."""
        self.notice.setText(text)
        self.notice.setToolTip(text)
        self.notice.setStyleSheet("font-weight: 600;" if error else "")
        set_tone(self.notice, "error" if error else "")
        self.notice._fit()  # (the style sheet may change the font: elided in the font shown)
        if keep:
            self._notice_timer.stop()
        else:
            self._notice_timer.start()
