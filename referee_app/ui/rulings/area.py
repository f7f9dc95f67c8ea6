"""The Rulings area: the stroke wizard over the live score sheet.

The referee ticks what happened; the ruling updates at every tick; Enter records the stroke in
the match (saved at once), Ctrl+Z takes it back, a double-click on an earlier stroke corrects it
(the later strokes are re-ruled and any ruling that changes is shown before it is accepted).
"What if" rules a stroke on a situation edited by hand, without recording it.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout,
                               QInputDialog, QLabel, QLineEdit, QMessageBox, QPushButton, QSpinBox, QSplitter,
                               QVBoxLayout, QWidget)

from referee_app.core.rules.engine import Conflict, NoRule, compiled
from referee_app.core.errors import BadInput
from referee_app.core.play.match import Match, replayed
from referee_app.core.knowledge.rulesets import default_rulesets
from referee_app.core.rules.ruling import rule
from referee_app.core.rules.situation import QUEEN_STATES
from referee_app.core.knowledge.loader import knowledge_root
from referee_app.core.knowledge.yamlio import load_file
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from .clocks import Countdown
from .compare_view import CompareDialog
from referee_app.ui.retranslate import follow_language
from .ruling_view import RulingView, queen_text
from .scoresheet_view import ScoreSheetView
from .stroke_form import StrokeForm


class SituationEditor(QGroupBox):
    """The board before the stroke, editable by hand (what-if mode)."""

    changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("situation_editor")
        self.own = QSpinBox(objectName="what_if_own", maximum=9, value=9)
        self.opponent = QSpinBox(objectName="what_if_opponent", maximum=9, value=9)
        self.queen = QComboBox(objectName="what_if_queen")
        self.break_ = QCheckBox(objectName="what_if_break")
        self.attempt = QSpinBox(objectName="what_if_attempt", minimum=1, maximum=9)
        self.dues = QSpinBox(objectName="what_if_dues", maximum=9)
        self.opponent_dues = QSpinBox(objectName="what_if_opponent_dues", maximum=9)
        self.score = QSpinBox(objectName="what_if_score", maximum=99)
        self.opponent_score = QSpinBox(objectName="what_if_opponent_score", maximum=99)
        self.form = QFormLayout(self)
        self.labels = [QLabel() for _ in range(9)]
        for label, w in zip(self.labels, (self.own, self.opponent, self.queen, self.break_, self.attempt, self.dues,
                                          self.opponent_dues, self.score, self.opponent_score)):
            label.setBuddy(w)
            self.form.addRow(label, w)
            signal = w.toggled if isinstance(w, QCheckBox) else (
                w.currentIndexChanged if isinstance(w, QComboBox) else w.valueChanged)
            signal.connect(self.changed)
        self.retranslate()

    def load(self, before: dict) -> None:
        self.blockSignals(True)
        self.own.setValue(before["own_on_board"])
        self.opponent.setValue(before["opponent_on_board"])
        self.queen.setCurrentIndex(QUEEN_STATES.index(before["queen"]))
        self.break_.setChecked(before["break"])
        self.attempt.setValue(before["break_attempt"])
        self.dues.setValue(before["dues"])
        self.opponent_dues.setValue(before["opponent_dues"])
        self.score.setValue(before["score"]["striker"])
        self.opponent_score.setValue(before["score"]["opponent"])
        self.blockSignals(False)
        self.changed.emit()

    def before(self) -> dict:
        return {"own_on_board": self.own.value(), "opponent_on_board": self.opponent.value(),
                "queen": self.queen.currentData(), "break": self.break_.isChecked(),
                "break_attempt": self.attempt.value(), "dues": self.dues.value(),
                "opponent_dues": self.opponent_dues.value(),
                "score": {"striker": self.score.value(), "opponent": self.opponent_score.value()}}

    def retranslate(self) -> None:
        self.setTitle(_("The board before the stroke (what if)"))
        texts = (_("Own coins on the board"), _("Opponent's coins on the board"), _("Queen"), _("Break not yet made"),
                 _("Break attempt"), _("Own dues"), _("Opponent's dues"), _("Own score in the game"),
                 _("Opponent's score in the game"))
        for label, text in zip(self.labels, texts):
            label.setText(text)
        current = self.queen.currentData()
        self.queen.blockSignals(True)
        self.queen.clear()
        for state in QUEEN_STATES:
            self.queen.addItem(queen_text(state, _("the striking side"), _("the opponent")), state)
        self.queen.setCurrentIndex(max(self.queen.findData(current), 0))
        self.queen.blockSignals(False)


class RulingsArea(QWidget):
    open_clause = Signal(str)

    def __init__(self, ruleset: str = "icf", store=None, parent=None):
        super().__init__(parent)
        self.setObjectName("rulings_area")
        if ruleset not in default_rulesets():
            ruleset = "icf"
        self._store = store
        self.match_id: int | None = None
        self.ruleset = ruleset
        self.match = Match(ruleset)
        self.correcting: int | None = None  # the 1-based stroke being corrected
        self.last_ruling: dict | None = None

        self.first_name = QLineEdit(objectName="first_name")
        self.second_name = QLineEdit(objectName="second_name")
        self.vs = QLabel("–")
        self.new_button = QPushButton(objectName="new_match")
        self.open_button = QPushButton(objectName="open_match")
        self.doubles = QCheckBox(objectName="doubles")
        self.doubles.toggled.connect(self._doubles_toggled)
        self.what_if = QCheckBox(objectName="what_if")
        self.compare_button = QPushButton(objectName="compare_rulesets")
        self.print_button = QPushButton(objectName="print_scoresheet")
        top = QHBoxLayout()
        for w in (self.first_name, self.vs, self.second_name, self.doubles, self.new_button, self.open_button,
                  self.what_if, self.compare_button, self.print_button):
            top.addWidget(w)
        self.status = QLabel(objectName="board_status")
        font = self.status.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.status.setFont(font)
        self.status.setWordWrap(True)

        self.situation = SituationEditor()
        self.situation.hide()
        self.form = StrokeForm()
        self.ruling_view = RulingView()
        self.record_button = QPushButton(objectName="record_stroke")
        self.undo_button = QPushButton(objectName="undo_stroke")
        self.cancel_button = QPushButton(objectName="cancel_correction")
        self.cancel_button.hide()
        self.tie_button = QPushButton(objectName="deciding_strokes")
        self.tie_button.hide()
        buttons = QHBoxLayout()
        for w in (self.record_button, self.tie_button, self.undo_button, self.cancel_button):
            buttons.addWidget(w)
        self.stroke_clock = Countdown("stroke_clock", 15)
        self.break_clock = Countdown("break_clock", 15)
        clock = load_file(knowledge_root() / "tournament.yaml")["match_clock"]
        self.match_clock = Countdown("match_clock", clock["minutes"] * 60, clock["extra_minutes"] * 60)
        self.sheet = ScoreSheetView()

        left = QVBoxLayout()
        left.addWidget(self.situation)
        left.addWidget(self.form, 1)
        right = QVBoxLayout()
        right.addWidget(self.ruling_view, 1)
        right.addLayout(buttons)
        clocks = QHBoxLayout()
        for c in (self.stroke_clock, self.break_clock, self.match_clock):
            clocks.addWidget(c)
        right.addLayout(clocks)
        upper = QWidget()
        row = QHBoxLayout(upper)
        row.setContentsMargins(0, 0, 0, 0)
        row.addLayout(left, 2)
        row.addLayout(right, 3)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(upper)
        splitter.addWidget(self.sheet)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([440, 260])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(splitter, 1)

        self.form.changed.connect(self.update_ruling)
        self.situation.changed.connect(self.refresh)
        self.ruling_view.open_clause.connect(self.open_clause)
        self.record_button.clicked.connect(self.record)
        self.undo_button.clicked.connect(self.undo)
        self.cancel_button.clicked.connect(self.cancel_correction)
        self.tie_button.clicked.connect(self.ask_deciding_strokes)
        self.new_button.clicked.connect(self.new_match)
        self.open_button.clicked.connect(self.choose_match)
        self.what_if.toggled.connect(self._what_if_toggled)
        self.compare_button.clicked.connect(self.compare)
        self.print_button.clicked.connect(self.print_sheet)
        self.sheet.correct_stroke.connect(self.start_correction)
        self.first_name.editingFinished.connect(self.refresh)
        self.second_name.editingFinished.connect(self.refresh)
        # A stroke is recorded by its own action only (the button or Ctrl+Enter): Enter belongs to
        # the field it is pressed in (a completer, a name, the list of strokes) and records nothing.
        self.actions_by_name: dict[str, QAction] = {}
        for name, keys, slot in (("record_action", ("Ctrl+Return", "Ctrl+Enter"), self.record),
                                 ("undo_action", ("Ctrl+Z",), self.undo),
                                 ("what_if_action", ("Ctrl+W",), self.what_if.toggle),
                                 ("compare_action", ("Ctrl+K",), self.compare),
                                 ("stroke_clock_action", ("Ctrl+T",), self.stroke_clock.restart),
                                 ("cancel_correction_action", ("Escape",), self.cancel_correction)):
            action = QAction(self, objectName=name)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.addAction(action)
            self.actions_by_name[name] = action
        follow_language(self)
        self.retranslate()
        self._apply_ruleset_parameters()
        self.refresh()

    # --- the match --------------------------------------------------------------------------
    @property
    def store(self):
        if self._store is None:
            from referee_app.core.play.store import MatchStore

            self._store = MatchStore()
        return self._store

    def names(self) -> tuple[str, str]:
        return (self.first_name.text().strip() or _("First"), self.second_name.text().strip() or _("Second"))

    def set_ruleset(self, ruleset: str) -> None:
        """The toolbar's ruleset: it rules what-if strokes, and a match not yet begun."""
        if ruleset not in default_rulesets():
            return  # a rulebook-only ruleset (no decisions to rule with): keep ruling as before
        self.ruleset = ruleset
        if not self.match.strokes and self.match_id is None:
            self.match = Match(ruleset, self.doubles.isChecked())
        self._apply_ruleset_parameters()
        self.refresh()

    def _doubles_toggled(self, on: bool) -> None:
        """Singles or doubles, for a match not yet begun (four seats, the turn to the right: it 29)."""
        if not self.match.strokes and self.match_id is None:
            self.match = Match(self.match.ruleset, on)
            self.refresh()
        elif on != self.match.doubles:
            self.doubles.blockSignals(True)
            self.doubles.setChecked(self.match.doubles)
            self.doubles.blockSignals(False)

    def _apply_ruleset_parameters(self) -> None:
        params = compiled(self.match.ruleset).params
        stroke = int(params.get("stroke_clock_seconds", 15))
        self.stroke_clock.set_seconds(stroke)
        self.break_clock.set_seconds(int(params.get("break_clock_seconds", stroke)))
        self.form.set_fouls([{"id": f["id"], "names": f.get("name", {}), "clauses": f.get("clauses", [])}
                             for f in compiled(self.what_if_ruleset()).fouls.values()])

    def what_if_ruleset(self) -> str:
        return self.ruleset if self.what_if.isChecked() else self.match.ruleset

    def new_match(self) -> None:
        self.match_id = None
        self.match = Match(self.ruleset, self.doubles.isChecked())
        self.first_name.clear()
        self.second_name.clear()
        self.cancel_correction()
        self.match_clock.reset()
        self._apply_ruleset_parameters()
        self.refresh()

    def open_match(self, match_id: int) -> None:
        meta = self.store.meta(match_id)
        self.match_id = match_id
        self.match = self.store.load(match_id)
        self.doubles.blockSignals(True)
        self.doubles.setChecked(self.match.doubles)
        self.doubles.blockSignals(False)
        self.first_name.setText(meta["first_name"])
        self.second_name.setText(meta["second_name"])
        self._apply_ruleset_parameters()
        self.refresh()

    def choose_match(self) -> None:
        matches = self.store.list()
        if not matches:
            QMessageBox.information(self, _("Open a match"), _("No match has been saved yet."))
            return
        labels = [f"{m['id']}: {m['first_name'] or _('First')} – {m['second_name'] or _('Second')} "
                  f"({m['ruleset']}, {m['strokes']})" for m in reversed(matches)]
        choice, ok = QInputDialog.getItem(self, _("Open a match"), _("Saved matches"), labels, 0, False)
        if ok:
            self.open_match(int(choice.split(":")[0]))

    # --- the stroke -------------------------------------------------------------------------
    def situation_doc(self) -> dict:
        stroke = self.form.stroke()
        if self.what_if.isChecked():
            return {"before": self.situation.before(), "stroke": stroke}
        if self.correcting:
            trial = replayed(self.match.ruleset, self.match.doubles, self.match.strokes[:self.correcting - 1])
            return trial.game.situation_doc(stroke)
        return self.match.game.situation_doc(stroke)

    def _striker_names(self) -> tuple[str, str]:
        first, second = self.names()
        if self.what_if.isChecked():
            return _("The striking side"), _("The opponent")
        side = self._game_for_entry().state.turn
        return (first, second) if side == "first" else (second, first)

    def _game_for_entry(self):
        if self.correcting:
            return replayed(self.match.ruleset, self.match.doubles, self.match.strokes[:self.correcting - 1]).game
        return self.match.game

    def update_ruling(self) -> None:
        """Rules the stroke as ticked so far; never records."""
        problem = self.form.problem()
        if problem:
            self.last_ruling = None
            self.ruling_view.show_error(problem)
            self.record_button.setEnabled(False)
            return
        try:
            if self.what_if.isChecked():
                ruling = rule(self.situation_doc(), self.ruleset)
            elif self.match.over:
                raise BadInput("match", _("the match is over"))
            else:
                ruling = rule(self.situation_doc(), self.match.ruleset)
        except (BadInput, NoRule, Conflict) as exc:
            self.last_ruling = None
            self.ruling_view.show_error(str(exc))
            self.record_button.setEnabled(False)
            return
        self.last_ruling = ruling
        self.ruling_view.show_ruling(ruling, self._striker_names())
        self.record_button.setEnabled(not self.what_if.isChecked())

    def record(self) -> None:
        self.update_ruling()  # what is recorded is what the form says now, foul included
        if self.what_if.isChecked() or self.last_ruling is None:
            if self.form.problem():
                self.form.foul.setFocus()
            return
        stroke = self.form.stroke()
        try:
            if self.correcting:
                if not self._confirm_correction(self.correcting, stroke):
                    return
                if self.match_id is not None:
                    self.store.correct(self.match_id, self.correcting, stroke)
                    self.match = self.store.load(self.match_id)
                else:
                    self.match = self.match.correction(self.correcting - 1, stroke)[0]
                self.correcting = None
            else:
                if self.match_id is None:
                    self.match_id = self.store.create(self.match.ruleset, self.match.doubles,
                                                      first_name=self.first_name.text().strip(),
                                                      second_name=self.second_name.text().strip())
                self.store.add_stroke(self.match_id, stroke)
                self.match.play(stroke)
        except BadInput as exc:
            QMessageBox.warning(self, _("Not recorded"), str(exc))
            return
        self.form.reset()
        self.stroke_clock.restart() if self.stroke_clock.running else self.stroke_clock.reset()
        self.refresh()
        self.form.own.setFocus()

    def ask_deciding_strokes(self) -> None:
        first, second = self.names()
        attempts = {}
        for side, name in (("first", first), ("second", second)):
            text, ok = QInputDialog.getText(self, _("Deciding strokes"), _(
                "{name}'s attempts in order, 1 for a coin pocketed, 0 for a miss (e.g. 1 0 1):").format(name=name))
            if not ok:
                return
            marks = [c for c in text if not c.isspace()]
            if not marks or any(c not in "01" for c in marks):
                QMessageBox.warning(self, _("Deciding strokes"), _("Write each attempt as 1 or 0."))
                return
            attempts[side] = [c == "1" for c in marks]
        self.record_deciding_strokes(attempts)

    def record_deciding_strokes(self, attempts: dict) -> None:
        entry = {"tie_breaker": attempts}
        try:
            if self.match_id is not None:
                self.store.add_stroke(self.match_id, entry)
                self.match = self.store.load(self.match_id)
            else:
                self.match.play(entry)
        except BadInput as exc:
            QMessageBox.warning(self, _("Not recorded"), str(exc))
            return
        self.refresh()

    def _confirm_correction(self, n: int, stroke: dict) -> bool:
        try:
            _new, changes = self.match.correction(n - 1, stroke)
        except BadInput as exc:
            QMessageBox.warning(self, _("Correction refused"), str(exc))
            return False
        if not changes:
            return True
        lines = [_("Stroke {n}: {before} → {after}").format(
            n=c["stroke"], before=self._gist(c["before"]), after=self._gist(c["after"])) for c in changes]
        answer = QMessageBox.question(self, _("Rulings that change"),
                                      _("This correction changes these rulings:") + "\n\n" + "\n".join(lines)
                                      + "\n\n" + _("Accept the correction?"))
        return answer == QMessageBox.StandardButton.Yes

    @staticmethod
    def _gist(ruling: dict) -> str:
        return ruling["explanation"].get(current_language()) or ruling["explanation"]["en"]

    def undo(self) -> None:
        if not self.match.strokes or self.what_if.isChecked():
            return
        if self.match_id is not None:
            self.store.undo(self.match_id)
            self.match = self.store.load(self.match_id)
        else:
            self.match.undo()
        self.cancel_correction()
        self.refresh()

    def start_correction(self, n: int) -> None:
        if self.what_if.isChecked():
            return
        self.correcting = n
        self.form.load(self.match.strokes[n - 1])
        self.cancel_button.show()
        self.refresh()

    def cancel_correction(self) -> None:
        if self.correcting is None:
            return
        self.correcting = None
        self.cancel_button.hide()
        self.form.reset()
        self.refresh()

    def _what_if_toggled(self, on: bool) -> None:
        if on:
            self.situation.load(self.match.game.situation_doc({})["before"])
        self.situation.setVisible(on)
        self._apply_ruleset_parameters()
        self.refresh()

    def compare(self) -> None:
        try:
            doc = self.situation_doc()
        except BadInput as exc:
            QMessageBox.warning(self, _("Compare rulesets"), str(exc))
            return
        dialog = CompareDialog(doc, self)
        follow_language(dialog)
        dialog.show()
        self.compare_dialog = dialog

    def print_sheet(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self, _("Save the score sheet as PDF"), "score-sheet.pdf", "PDF (*.pdf)")
        if path:
            meta = self.store.meta(self.match_id) if self.match_id is not None else {}
            self.sheet.save_pdf(path, meta)

    # --- showing ----------------------------------------------------------------------------
    def refresh(self) -> None:
        game = self._game_for_entry()
        st = game.state
        first, second = self.names()
        name = {"first": first, "second": second}
        if self.what_if.isChecked():
            self.form.set_board(self.situation.own.value(), self.situation.opponent.value(),
                                self.situation.queen.currentData() == "on_board")
        else:
            side = st.turn
            self.form.set_board(st.coins[side], st.coins["second" if side == "first" else "first"],
                                st.queen == "on_board")
        won = self.match.games_won
        if self.match.over:
            text = _("Match over: {winner} wins {a}–{b} in games").format(
                winner=name[self.match.winner], a=won["first"], b=won["second"])
        else:
            white = st.breaker
            text = _("Game {g}, board {b}: {side} to play. {white} has the white coins. Score {a}–{c}. "
                     "Coins on the board: {w} white, {k} black. Queen: {queen}.").format(
                g=len(self.match.games), b=len(game.boards), side=name[st.turn], white=name[white],
                a=game.score["first"], c=game.score["second"], w=st.coins[white],
                k=st.coins["second" if white == "first" else "first"],
                queen=queen_text(st.queen_for(st.turn), name[st.turn], name["second" if st.turn == "first" else "first"]))
            if self.match.doubles:
                text += " " + _("Seat {n} (the seats go round to the right).").format(n=st.seat + 1)
            if game.tie_breaker_due:
                text = _("Game {g} is level after its last board: record the deciding strokes.").format(
                    g=len(self.match.games))
            if st.dues["first"] or st.dues["second"]:
                text += " " + _("Dues: {a} {x}, {b} {y}.").format(a=first, x=st.dues["first"], b=second, y=st.dues["second"])
        if self.correcting:
            text = _("Correcting stroke {n} (Escape to cancel). ").format(n=self.correcting) + text
        if self.what_if.isChecked():
            text = _("What if: this stroke is ruled but not recorded.")
        self.status.setText(text)
        self.sheet.show_match(self.match.ruleset, self.match.doubles, self.match.strokes, (first, second))
        self.undo_button.setEnabled(bool(self.match.strokes) and not self.what_if.isChecked())
        self.tie_button.setVisible(self.match.game.tie_breaker_due and not self.what_if.isChecked())
        self.update_ruling()

    def retranslate(self) -> None:
        self.first_name.setPlaceholderText(_("First player or team (breaks first)"))
        self.second_name.setPlaceholderText(_("Second player or team"))
        self.new_button.setText(_("New match"))
        self.open_button.setText(_("Open match…"))
        self.doubles.setText(_("Doubles"))
        self.doubles.setToolTip(_("Two players a side, partners face to face; for a match not yet begun"))
        self.what_if.setText(_("What if (Ctrl+W)"))
        self.what_if.setToolTip(_("Rule a stroke on a situation you set by hand, without recording it"))
        self.compare_button.setText(_("Compare rulesets (Ctrl+K)"))
        self.print_button.setText(_("Score sheet PDF…"))
        self.record_button.setText(_("Record stroke (Ctrl+Enter)"))
        self.undo_button.setText(_("Undo last stroke (Ctrl+Z)"))
        self.cancel_button.setText(_("Cancel correction (Esc)"))
        self.tie_button.setText(_("Deciding strokes…"))
        for name, text in (("record_action", _("Record the stroke")), ("undo_action", _("Undo the last stroke")),
                           ("what_if_action", _("What if: rule without recording")),
                           ("compare_action", _("Compare rulesets")),
                           ("stroke_clock_action", _("Restart the stroke clock")),
                           ("cancel_correction_action", _("Cancel the correction"))):
            self.actions_by_name[name].setText(text)
        self.record_button.setAccessibleName(_("Record stroke"))
        self.ruling_view.setAccessibleName(_("Ruling"))
        self.sheet.strokes.setAccessibleName(_("Score sheet"))
        self.sheet.boards.setAccessibleName(_("Boards of the score sheet"))
        self.first_name.setAccessibleName(_("First player or team"))
        self.second_name.setAccessibleName(_("Second player or team"))
        self.stroke_clock.set_title(lambda: _("Stroke clock"))
        self.break_clock.set_title(lambda: _("Break clock"))
        self.match_clock.set_title(lambda: _("Match clock"))
        # the parts are plain widgets: the area re-translates them with itself
        for part in (self.form, self.situation, self.sheet, self.ruling_view):
            part.retranslate()
        if hasattr(self, "sheet"):
            self.refresh()
