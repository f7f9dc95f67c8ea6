"""The Tournament area: the desk of a Swiss tournament run the FFC's way (ffc-tournament).

Above, the tournament being run (or a new one); below, four tabs: the entries with their
check-in, the rounds (pairing, tables, printed pairings and score sheets, results as they
arrive from the tables or typed at the desk), the live standings with each criterion, each
player's current opponent, the final and a full-screen view for the players, and the
organiser's choices where they depart from the FFC text. Everything is saved at once in the records
database (core/tournament/store.py); the widgets only show it.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QTabWidget, QVBoxLayout,
                               QWidget)

from referee_app.core.errors import BadInput
from referee_app.core.storage.change_marks import tournament_mark
from referee_app.core.storage.errors import VersionConflict
from referee_app import i18n
from referee_app.i18n import gettext as _
from referee_app.ui.common.poller import ChangePoller
from referee_app.ui.retranslate import follow_language
from .choices_view import ChoicesView
from .entries import EntriesView
from .journal_view import JournalView
from .rounds import RoundsView
from .standings_view import StandingsView


class TournamentArea(QWidget):
    def __init__(self, knowledge, store=None, matches=None, ruleset=None, parent=None):
        """`ruleset`: a function giving the ruleset of a new tournament (default: the knowledge
        base's default ruleset)."""
        super().__init__(parent)
        self.knowledge = knowledge
        ruleset = ruleset or (lambda: knowledge.default_ruleset)
        self.setObjectName("tournament_area")
        if store is None:
            from referee_app.core.tournament.store import TournamentStore
            from referee_app.ui.common.records_source import records_database

            store = TournamentStore(knowledge, records_database())
        if matches is None:
            from referee_app.core.play.store import MatchStore

            matches = MatchStore(knowledge, store.database)
        self.store, self.matches, self.ruleset = store, matches, ruleset
        # a table's login sees the tournament and enters its results; the desk's actions are not offered
        try:
            self.is_desk = store.database.role() == "desk"
        except BadInput:
            self.is_desk = True   # the server out of reach: said by the banner; the database refuses what it must

        self.tournament_label = QLabel()
        self.tournament_combo = QComboBox(objectName="tournament_combo")
        self.tournament_label.setBuddy(self.tournament_combo)
        self.new_name = QLineEdit(objectName="new_tournament_name")
        self.create_button = QPushButton(objectName="create_tournament")
        top = QHBoxLayout()
        for w in (self.tournament_label, self.tournament_combo):
            top.addWidget(w)
        top.addStretch(1)
        top.addWidget(self.new_name, 1)
        top.addWidget(self.create_button)
        self.tournament_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)   # the name whole
        # A refusal is said below the tabs, in room kept for it: shown or gone, it moves no row of
        # the list above, so that the desk's next click lands on the table it aims at.
        self.message = QLabel(objectName="tournament_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020; font-weight: bold;")
        policy = self.message.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.message.setSizePolicy(policy)
        self.message.hide()
        self.status = QLabel(objectName="tournament_status")
        self.status.setWordWrap(True)

        self.entries = EntriesView(self)
        self.rounds = RoundsView(self)
        self.standings = StandingsView(self)
        self.choices = ChoicesView(self)
        self.journal = JournalView(self)
        self.tabs = QTabWidget(objectName="tournament_tabs")
        self.tabs.setDocumentMode(True)
        for view in (self.entries, self.rounds, self.standings, self.choices, self.journal):
            self.tabs.addTab(view, "")
        for w in (self.new_name, self.create_button, self.rounds.pair_button, self.rounds.again_button,
                  self.entries.enter_button, self.entries.withdraw_button):
            if not self.is_desk:
                w.hide()

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.message)

        self.create_button.clicked.connect(self.create)
        self.new_name.returnPressed.connect(self.create)
        self.tournament_combo.activated.connect(lambda _i: self.refresh())
        follow_language(self)
        self.retranslate()
        self.fill_tournaments()
        self.poller = ChangePoller(self, lambda: tournament_mark(self.store, self.tid), self.arrived)
        self.poller.remember()

    # --- the tournament being run ------------------------------------------------------------
    @property
    def tid(self):
        return self.tournament_combo.currentData()

    def fill_tournaments(self, select=None) -> None:
        current = select if select is not None else self.tid
        self.tournament_combo.blockSignals(True)
        self.tournament_combo.clear()
        for t in self.store.list():
            self.tournament_combo.addItem(t["name"], t["id"])
        index = self.tournament_combo.findData(current)
        self.tournament_combo.setCurrentIndex(index if index >= 0 else self.tournament_combo.count() - 1)
        self.tournament_combo.blockSignals(False)
        self.refresh()

    def create(self) -> None:
        name = self.new_name.text().strip()
        if not name:
            self.show_message(_("Type the name of the new tournament first."))
            return
        tid = self.run(lambda: self.store.create(name, [], self.ruleset()))
        if tid is not None:
            self.new_name.clear()
            self.fill_tournaments(select=tid)
            self.tabs.setCurrentWidget(self.entries)
            self.entries.name_edit.setFocus()

    def arrived(self) -> None:
        """What another machine wrote (a result, an entry, a pairing), shown at once, without losing
        the desk's place: the tournament, round and table chosen stay, and so do points being typed."""
        rounds = self.rounds
        table = rounds.selected_table()
        typing = {w: w.value() for w in (rounds.first_points, rounds.second_points)
                  if rounds.first_points.hasFocus() or rounds.second_points.hasFocus() or rounds.reason_edit.hasFocus()}
        typed_over = rounds.typed_over
        shown = self.message.text() if self.message.isVisible() else ""
        self.fill_tournaments()
        if table is not None:
            rounds.select_table(table)
        for w, value in typing.items():
            w.setValue(value)
        if typing:   # the points being typed are typed over the game as it was shown when typing began
            rounds.typed_over = typed_over
        if shown:
            self.show_message(shown)

    # --- shared by the tabs ------------------------------------------------------------------
    def run(self, action):
        """Runs a change of the records; a refusal is shown, never raised. Returns its result.
        A version conflict is raised: the view that wrote shows both versions (rounds.py)."""
        try:
            result = action()
        except VersionConflict:
            raise
        except BadInput as exc:
            from referee_app.ui.common.refusal_words import detail

            self.show_message(self.refusal(exc))
            self.message.setToolTip(detail(exc))   # a server's own words, for whoever runs it
            return None
        self.message.hide()
        return result

    def refusal(self, exc: BaseException) -> str:
        """A refusal of the records in the desk's language, its clauses as people cite them."""
        from referee_app.ui.common.refusal_words import said

        fields = {"player": _("Player's name"), "name": _("Name of a new tournament"), "reason": _("Reason")}
        return said(exc, self.store.knowledge, fields.get(getattr(exc, "field", "")))

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setToolTip("")
        self.message.show()

    def changeEvent(self, event):
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._keep_room()

    def showEvent(self, event):
        super().showEvent(event)
        self._keep_room()

    def _keep_room(self) -> None:
        """Two lines kept for a refusal, in the type as it is now."""
        self.message.setMinimumHeight(self.message.fontMetrics().lineSpacing() * 2)

    def refresh(self) -> None:
        self.message.hide()
        for view in (self.entries, self.rounds, self.standings, self.choices, self.journal):
            view.refresh()
        self._status()

    def _cite(self, clause_id: str) -> str:
        """A clause as people cite it ("FFC tournoi 1.13"), never its id."""
        return self.store.knowledge.clause_label(clause_id, i18n.current_language())

    def _status(self) -> None:
        if self.tid is None:
            self.status.setText(_("Create a tournament to start: type its name above."))
            return
        t = self.store.load(self.tid)
        self.status.setText(_("{players} players checked in: {rounds} rounds ({clause}); "
                              "{paired} paired.").format(players=len(t.players), rounds=t.rounds_total,
                                                         paired=len(t.rounds), clause=self._cite("ffc-tournament:1.13"))
                            + (" " + _("The organiser departs from the text: see the Organiser's choices tab.")
                               if t.choices_doc() else ""))

    def retranslate(self) -> None:
        self.tournament_label.setText(_("Tournament:"))
        self.tournament_combo.setAccessibleName(_("Tournament"))
        self.new_name.setPlaceholderText(_("Name of a new tournament"))
        self.new_name.setAccessibleName(_("Name of a new tournament"))
        self.create_button.setText(_("Create"))
        for i, title in enumerate((_("Entries"), _("Rounds"), _("Standings"), _("Organiser's choices"), _("Journal"))):
            self.tabs.setTabText(i, title)
        self._status()
