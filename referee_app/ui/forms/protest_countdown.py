"""The countdown of a protest: the time left to hand in its written report, then how late it is
or was; a line of its own above the form, refreshed each second while it runs.
"""
from __future__ import annotations

from datetime import datetime
from typing import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel

from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.i18n import gettext as _
from .labels import field_label, local_time


def _clock_text(seconds: int) -> str:
    seconds = abs(seconds)
    hours, rest = divmod(seconds, 3600)
    return (f"{hours}:" if hours else "") + f"{rest // 60:02d}:{rest % 60:02d}"


class ProtestCountdown(QLabel):
    """Shows the countdown of the form `current()` returns; hidden for any other kind of form."""

    def __init__(self, current: Callable[[], object], clock: Callable[[], datetime]):
        super().__init__(objectName="form_countdown")
        self.setWordWrap(True)
        self.current, self.clock = current, clock
        self.timer = QTimer(self, interval=1000)
        self.timer.timeout.connect(self.refresh)

    # the page starts it while it is on screen and stops it when hidden
    def start(self) -> None:
        self.refresh()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def refresh(self) -> None:
        """The time left to hand in a protest's written report; "late" once the deadline has passed."""
        form = self.current()
        if form is None or form.kind != "protest":
            self.setText("")
            self.hide()
            return
        self.show()
        try:
            t = form.timing(self.clock())
        except (BadInput, KnowledgeError) as exc:
            from referee_app.ui.common.refusal_words import knows, said

            self.setText(said(exc) if knows(exc) else str(exc))   # a broken knowledge base: as its check says it
            return
        style = ""
        if t["deadline"] is None:
            text = _("Deadline: it starts when the board ends (tick “{field}”).").format(
                field=field_label(form.knowledge, "protest", "board_ended_at"))
        else:
            due = local_time(t["deadline"], "medium")
            if form.status == "draft" and not t["late"]:
                text = _("Written report due in {left} (by {due})").format(left=_clock_text(t["remaining_seconds"]),
                                                                          due=due)
                style = "font-weight: bold;"
            elif form.status == "draft":
                text = _("LATE by {late} (due by {due}): it can still be filed, and will be marked late.").format(
                    late=_clock_text(t["remaining_seconds"]), due=due)
                style = "color: #b00020; font-weight: bold;"
            elif t["late"]:
                text = _("Filed late (due by {due}).").format(due=due)
                style = "color: #b00020; font-weight: bold;"
            else:
                text = _("Filed on time (due by {due}).").format(due=due)
        self.setText(text)
        self.setStyleSheet(style)
