"""Where the Tournament area sits in the window: built the first time it is shown, so that a
referee opening the app for a ruling does not wait for it (benchmarks/bench_startup.py)."""
from __future__ import annotations

from referee_app.ui.areas import AreaHost


class TournamentHost(AreaHost):
    def __init__(self, knowledge, ruleset, open_match=None, parent=None):
        """`knowledge`: the window's knowledge root; `ruleset`: a function giving the toolbar's ruleset, for a new tournament's matches;
        `open_match`: called with a match id when a table's score sheet is opened."""
        # in a scroll area: at 1024×600 or in large type the desk scrolls to the result entry, Save,
        # print and check-in, instead of the window growing past the screen
        super().__init__(self._make_area, "tournament_host", scroll=True, parent=parent)
        self._knowledge = knowledge
        self._ruleset = ruleset
        self._open_match = open_match

    def _make_area(self):
        from .area import TournamentArea

        area = TournamentArea(self._knowledge, ruleset=self._ruleset)
        if self._open_match is not None:
            area.rounds.match_opened.connect(self._open_match)
        return area
