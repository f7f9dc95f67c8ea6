"""The organiser's choices: what the organiser decided where it departs from the FFC text
(rounds, the ghost's points, a player sitting rounds out, pairing without rematches), each shown
with the clause it departs from. Set freely before round 1; once play has begun, a change needs
its reason and is refused for a round already paired (core/tournament/choices.py). A game moved
to another table, with its reason, is here too. Thin: the store decides, this only asks."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QSpinBox, QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.core.tournament.choices import departures
from referee_app.core.tournament.model import MAX_GHOST_POINTS, MAX_ROUNDS
from referee_app.i18n import gettext as _
from referee_app.ui.retranslate import follow_language


class ChoicesView(QWidget):
    def __init__(self, desk, parent=None):
        super().__init__(parent)
        self.setObjectName("tournament_choices_view")
        self.desk = desk
        self.rounds_total = QSpinBox(objectName="choice_rounds_total")
        self.rounds_total.setRange(1, MAX_ROUNDS)
        self.ghost_points = QSpinBox(objectName="choice_ghost_points")
        self.ghost_points.setRange(1, MAX_GHOST_POINTS)
        self.avoid = QCheckBox(objectName="choice_avoid_rematches")
        self.absent_player = QComboBox(objectName="choice_absent_player")
        self.absent_rounds = QLineEdit(objectName="choice_absent_rounds")
        absent = QHBoxLayout()
        absent.addWidget(self.absent_player, 1)
        absent.addWidget(self.absent_rounds, 1)
        self.reason = QLineEdit(objectName="choice_reason")
        self.apply_button = QPushButton(objectName="apply_choices")
        self.form = QFormLayout()
        self.labels = [QLabel() for _i in range(5)]
        for label, field in zip(self.labels, (self.rounds_total, self.ghost_points, self.avoid, absent, self.reason)):
            self.form.addRow(label, field)
            if isinstance(field, QWidget):
                label.setBuddy(field)
        self.labels[3].setBuddy(self.absent_player)

        self.move_round = QSpinBox(objectName="move_round")
        self.move_from = QSpinBox(objectName="move_from_table")
        self.move_to = QSpinBox(objectName="move_to_table")
        for box in (self.move_round, self.move_from, self.move_to):
            box.setRange(1, 999)
        self.move_label = QLabel()
        self.move_button = QPushButton(objectName="move_table")
        move = QHBoxLayout()
        for w in (self.move_label, self.move_round, self.move_from, self.move_to, self.move_button):
            move.addWidget(w)
        move.addStretch(1)

        self.departures = QLabel(objectName="tournament_departures")
        self.departures.setWordWrap(True)
        self.departures.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addLayout(move)
        layout.addWidget(self.departures)
        layout.addStretch(1)
        self.apply_button.clicked.connect(self.apply)
        self.move_button.clicked.connect(self.move)
        self.absent_player.activated.connect(lambda _i: self._show_absence())
        follow_language(self)
        self.retranslate()

    def refresh(self) -> None:
        t = self.desk.store.load(self.desk.tid) if self.desk.tid is not None else None
        self.setEnabled(t is not None)
        if t is None:
            self.departures.clear()
            return
        self.t = t
        self.rounds_total.setValue(t.rounds_total)
        self.ghost_points.setValue(t.ghost_score[0])
        self.avoid.setChecked(t.avoid_rematches)
        current = self.absent_player.currentText()
        self.absent_player.clear()
        self.absent_player.addItems(t.players)
        if current in t.players:
            self.absent_player.setCurrentText(current)
        self._show_absence()
        self.move_round.setValue(max(1, len(t.rounds)))
        cite = self.desk.store.knowledge.clause_label   # a clause as people cite it, never its id
        lines = [f"• {d['text']} ({cite(d['clause'], i18n.current_language())})"
                 for d in departures(t, i18n.current_language())]
        self.departures.setText(_("Where the organiser departs from the federation's text:") + "\n" +
                                ("\n".join(lines) if lines else _("nowhere: the FFC text as it stands.")))

    def _show_absence(self) -> None:
        t = getattr(self, "t", None)
        rounds = t.absent.get(self.absent_player.currentText(), []) if t is not None else []
        self.absent_rounds.setText(" ".join(str(r) for r in rounds))

    def apply(self) -> None:
        """Each choice changed on the form, one after the other, with the reason typed."""
        t, tid, reason = self.t, self.desk.tid, self.reason.text()
        wanted = [("rounds_total", self.rounds_total.value(), t.rounds_total),
                  ("ghost_points", self.ghost_points.value(), t.ghost_score[0]),
                  ("avoid_rematches", self.avoid.isChecked(), t.avoid_rematches)]
        player = self.absent_player.currentText()
        try:
            rounds = sorted({int(x) for x in self.absent_rounds.text().replace(",", " ").split()})
        except ValueError:
            self.desk.show_message(_("Type the rounds the player sits out as numbers, like 2 3."))
            return
        if player and rounds != t.absent.get(player, []):
            wanted.append(("absent", (player, rounds), None))
        for choice, value, before in wanted:
            def set_it(choice=choice, value=value):
                return self.desk.store.set_choice(tid, choice, value, reason)

            if value != before and self.desk.run(set_it) is None:
                return
        self.reason.clear()
        self.desk.refresh()

    def move(self) -> None:
        tid = self.desk.tid
        done = self.desk.run(lambda: self.desk.store.move_table(tid, self.move_round.value(), self.move_from.value(),
                                                               self.move_to.value(), self.reason.text()))
        if done is not None:
            self.reason.clear()
            self.desk.refresh()

    def retranslate(self) -> None:
        for label, text in zip(self.labels, (_("Rounds before the final:"), _("Points for beating the ghost:"),
                                             _("Pairing:"), _("Sits out rounds:"), _("Reason:"))):
            label.setText(text)
        self.avoid.setText(_("No two players meet twice (backtracking from the bottom)"))
        self.absent_rounds.setPlaceholderText(_("rounds, like 2 3"))
        self.absent_rounds.setAccessibleName(_("Rounds the player sits out"))
        self.reason.setPlaceholderText(_("why (needed once play has begun)"))
        self.apply_button.setText(_("Apply the organiser's choices"))
        self.move_label.setText(_("Move a game: round, table, to table"))
        self.move_round.setAccessibleName(_("Round of the game to move"))
        self.move_from.setAccessibleName(_("Table of the game to move"))
        self.move_to.setAccessibleName(_("Table to move it to"))
        self.move_button.setText(_("Move"))
        if self.desk.tid is not None and hasattr(self, "t"):
            self.refresh()
