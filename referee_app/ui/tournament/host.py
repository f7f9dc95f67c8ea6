"""Where the Tournament area sits in the window: built the first time it is shown, so that a
referee opening the app for a ruling does not wait for it (benchmarks/bench_startup.py)."""
from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget


class TournamentHost(QWidget):
    def __init__(self, ruleset, open_match=None, parent=None):
        """`ruleset`: a function giving the toolbar's ruleset, for a new tournament's matches;
        `open_match`: called with a match id when a table's score sheet is opened."""
        super().__init__(parent)
        self.setObjectName("tournament_host")
        self._ruleset = ruleset
        self._open_match = open_match
        self.area = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    def ensure_area(self):
        if self.area is None:
            from .area import TournamentArea

            self.area = TournamentArea(ruleset=self._ruleset)
            if self._open_match is not None:
                self.area.rounds.match_opened.connect(self._open_match)
            self._layout.addWidget(self.area)
        return self.area

    def showEvent(self, event):
        self.ensure_area()
        super().showEvent(event)
