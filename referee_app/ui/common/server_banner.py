"""The banner across the top of the window while the records server cannot be reached: says so at
once, how many changes wait to be saved, when the next try is, and offers to try now."""
from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from referee_app.core.storage import location
from referee_app.i18n import gettext as _, ngettext
from referee_app.ui.retranslate import follow_language
from .server_state import ServerState, server_state


class ServerBanner(QFrame):
    def __init__(self, state: ServerState | None = None, parent=None):
        super().__init__(parent)
        self.setObjectName("server_banner")
        self.state = state or server_state()
        # amber, not red: nothing is lost, the referee carries on
        self.setStyleSheet("#server_banner { background: #fff3cd; border: 2px solid #b26a00; border-radius: 4px; }"
                           "#server_banner QLabel { color: #3d2600; }")
        self.text = QLabel(objectName="server_banner_text", wordWrap=True)
        self.retry_button = QPushButton(objectName="server_retry")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.retry_button)
        self.retry_button.clicked.connect(self.state.retry_now)
        self.ticker = QTimer(self, interval=1000)   # the countdown to the next try
        self.ticker.timeout.connect(self.retranslate)
        self.state.changed.connect(self.retranslate)
        follow_language(self)
        self.retranslate()

    def retranslate(self) -> None:
        state = self.state
        self.retry_button.setText(_("Retry now"))
        self.retry_button.setToolTip(_("Try to reach the records server now"))
        if not state.unreachable:
            self.ticker.stop()
            self.hide()
            return
        where = location.shown(getattr(state.problem, "url", "") or "")
        lines = [_("⚠ The records server cannot be reached ({where}).").format(where=where)]
        n = len(state.pending)
        if n:
            lines.append(ngettext("{n} change is not saved yet: it stays on screen and is saved as soon as the "
                                  "server answers.",
                                  "{n} changes are not saved yet: they stay on screen and are saved as soon as "
                                  "the server answers.", n).format(n=n))
        else:
            lines.append(_("What you enter stays on screen until it is saved."))
        seconds = state.seconds_to_next_try()
        if seconds is not None:
            lines.append(ngettext("Next try in {n} second.", "Next try in {n} seconds.", seconds).format(n=seconds))
        self.text.setText(" ".join(lines))
        self.show()
        if not self.ticker.isActive():
            self.ticker.start()
