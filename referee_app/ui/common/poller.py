"""A short poll of the records, so that what other machines write shows up without a restart.

Every INTERVAL_MS, while its widget is on screen, the poller reads a cheap mark of the records
(core/storage/change_marks.py) and calls back only when the mark has changed. A server out of
reach is told to the window's server state (the banner), and the poll carries on.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QTimer

from .server_state import server_state

INTERVAL_MS = 2000
_UNREAD = object()


class ChangePoller(QObject):
    def __init__(self, widget, mark: Callable[[], tuple], changed: Callable[[], None], interval: int = INTERVAL_MS):
        super().__init__(widget)
        self.widget, self.mark, self.changed = widget, mark, changed
        self.last = _UNREAD
        self.timer = QTimer(self, interval=interval)
        self.timer.timeout.connect(self.poll)
        self.timer.start()

    def remember(self) -> None:
        """What is on screen now is up to date (after the widget showed the records itself)."""
        self.last = server_state().attempt(self.mark, _UNREAD)

    def poll(self) -> None:
        if not self.widget.isVisible():
            return
        mark = server_state().attempt(self.mark, _UNREAD)
        if mark is _UNREAD or mark == self.last:
            return
        first = self.last is _UNREAD
        self.last = mark
        if not first:
            self.changed()
