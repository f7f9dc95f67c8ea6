"""The Rulings area: the stroke wizard over the live score sheet.

The referee ticks what happened; the ruling updates at every tick; Enter records the stroke in
the match (saved at once), Ctrl+Z takes it back, a double-click on an earlier stroke corrects it
(the later strokes are re-ruled and any ruling that changes is shown before it is accepted).
"What if" rules a stroke on a situation edited by hand, without recording it.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QCheckBox, QGridLayout, QLabel, QMessageBox, QPushButton, QSplitter, QVBoxLayout, QWidget

from referee_app.core.errors import BadInput
from referee_app.core.knowledge.files import load_file
from referee_app.core.knowledge.loader import knowledge_root
from referee_app.core.knowledge.rulesets import default_rulesets
from referee_app.core.play.match import Match, replayed
from referee_app.core.rules.colours import colour_name
from referee_app.core.rules.compile import compiled
from referee_app.core.rules.engine import Conflict, NoRule
from referee_app.core.rules.ruling import rule
from referee_app.core.storage.errors import StoreUnavailable
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui.common.layout import column, tool_row
from referee_app.ui.common.server_state import server_state
from .clocks import Countdown
from .match_header import MatchHeader
from .refusal_words import refusal_text
from .resume_banner import ResumeBanner
from referee_app.ui import theme
from referee_app.ui.retranslate import follow_language
from .ruling_view import RulingView, queen_text, ruling_differences
from .scoresheet_view import ScoreSheetView
from .stroke_form import StrokeForm


class RulingsArea(QWidget):
    open_clause = Signal(str)
    ruleset_in_force = Signal(str)  # the match's ruleset, whenever a match is opened or begun

    def __init__(self, ruleset: str = "icf", store=None, parent=None, first_ruling_later: bool = False):
        """`first_ruling_later`: the empty stroke is not ruled as the area is built, but by the first
        `update_ruling()` (the window's, just after its first paint); until then the ruling says
        to tick what happened. Any tick, and Record, rule at once as always."""
        super().__init__(parent)
        self.setObjectName("rulings_area")
        self._ruling_now = not first_ruling_later
        if ruleset not in default_rulesets():
            ruleset = "icf"
        self._store = store
        self.match_id: int | None = None
        self.ruleset = ruleset
        self.match = Match(ruleset)
        self.correcting: int | None = None  # the 1-based stroke being corrected
        self.last_ruling: dict | None = None

        self.header = MatchHeader()
        self.first_name = self.header.fields["first_name"]
        self.second_name = self.header.fields["second_name"]
        self.new_button = QPushButton(objectName="new_match")
        self.open_button = QPushButton(objectName="open_match")
        self.doubles = QCheckBox(objectName="doubles")
        self.doubles.toggled.connect(self._doubles_toggled)
        self.what_if = QCheckBox(objectName="what_if")
        self.compare_button = QPushButton(objectName="compare_rulesets")
        self.print_button = QPushButton(objectName="print_scoresheet")
        self.protest_button = QPushButton(objectName="protest_stroke")
        tools = tool_row(self.new_button, self.open_button, self.doubles)
        self.resume = ResumeBanner()
        self.status = QLabel(objectName="board_status")
        theme.keep_scaled(self.status, 1.1)
        self.status.setWordWrap(True)

        self._situation = None   # the what-if board: built when first asked for (`situation`)
        self.form = StrokeForm()
        self.ruling_view = RulingView()
        self.record_button = QPushButton(objectName="record_stroke")
        self.undo_button = QPushButton(objectName="undo_stroke")
        self.cancel_button = QPushButton(objectName="cancel_correction")
        self.cancel_button.hide()
        self.tie_button = QPushButton(objectName="deciding_strokes")
        self.tie_button.hide()
        theme.keep_scaled(self.record_button, 1.15, bold=True)
        self.record_button.setMinimumHeight(40)
        buttons = QGridLayout()
        buttons.addWidget(self.record_button, 0, 0, 1, 2)
        buttons.addWidget(self.undo_button, 1, 0)
        buttons.addWidget(self.cancel_button, 1, 1)
        buttons.addWidget(self.tie_button, 2, 0, 1, 2)
        self.waiting = QLabel(objectName="stroke_waiting", wordWrap=True)
        self.waiting.setStyleSheet("color: #8a4b00; font-weight: bold;")
        self.waiting.hide()
        buttons.addWidget(self.waiting, 3, 0, 1, 2)
        # set from the ruleset's parameters by _apply_ruleset_parameters before any use
        self.stroke_clock = Countdown("stroke_clock", 0)
        self.break_clock = Countdown("break_clock", 0)
        clock = load_file(knowledge_root() / "tournament.yaml")["match_clock"]
        self.match_clock = Countdown("match_clock", clock["minutes"] * 60, clock["extra_minutes"] * 60)
        self.sheet = ScoreSheetView()

        # One screen at the table (1280×720 and up): the stroke, its ruling and the score sheet
        # side by side, none below the fold.
        left = self._stroke_column = column("stroke_column", (self.form, 1), buttons)
        middle = column("ruling_column", tool_row(self.what_if, self.compare_button), (self.ruling_view, 1),
                        self.stroke_clock, self.break_clock, self.match_clock)
        right = column("sheet_column", tool_row(self.print_button, self.protest_button), (self.sheet, 1))
        self.columns = QSplitter(Qt.Orientation.Horizontal, objectName="rulings_columns")
        self.columns.setChildrenCollapsible(False)
        for w, stretch in ((left, 3), (middle, 4), (right, 4)):
            self.columns.addWidget(w)
            self.columns.setStretchFactor(self.columns.indexOf(w), stretch)
        self.columns.setSizes([300, 450, 450])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.header)
        layout.addLayout(tools)
        layout.addWidget(self.resume)
        layout.addWidget(self.status)
        layout.addWidget(self.columns, 1)

        self.form.changed.connect(self.update_ruling)
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
        self.header.edited.connect(self._header_edited)
        self.protest_button.clicked.connect(self.protest_stroke)
        self.resume.resume_button.clicked.connect(self._resume_offered)
        self.resume.dismiss_button.clicked.connect(self.resume.hide)
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
        self._apply_ruleset_parameters()
        self.retranslate()   # which shows the board and rules the empty stroke (refresh)
        self._ruling_now = True

    # --- the match --------------------------------------------------------------------------
    @property
    def store(self):
        if self._store is None:
            from referee_app.core.play.store import MatchStore
            from referee_app.ui.common.records_source import records_database

            self._store = MatchStore(records_database())
        return self._store

    @property
    def situation(self):
        """The what-if board, above the stroke form; built the first time it is needed, hidden."""
        if self._situation is None:
            from .situation_editor import SituationEditor

            editor = self._situation = SituationEditor()
            editor.hide()
            self._stroke_column.layout().insertWidget(0, editor)
            # A widget made now would come last in the Tab order: its fields go where the board
            # stands on screen, after the match's tools and before the stroke's ticks.
            chain = [self.doubles, *editor.fields()]
            for before, after in zip(chain, chain[1:]):
                QWidget.setTabOrder(before, after)
            editor.changed.connect(self.refresh)
        return self._situation

    def names(self) -> tuple[str, str]:
        return (self.first_name.text().strip() or _("First"), self.second_name.text().strip() or _("Second"))

    def set_ruleset(self, ruleset: str) -> bool:
        """The ruleset chosen in the toolbar; returns whether the match now plays under it.

        Before the first stroke the match simply takes it. Once strokes are recorded, changing it
        is an explicit act: the referee confirms, every stroke is ruled again under the new rules
        (refused if one cannot happen under them), and the change stays in the match's history."""
        if ruleset not in default_rulesets():
            return False
        if ruleset == self.match.ruleset:
            self.ruleset = ruleset
            return True
        try:
            if self.match.strokes:
                names = default_rulesets()
                lang = current_language()
                answer = QMessageBox.question(
                    self, _("Change the ruleset of this match?"),
                    _("This match is played under {old}. Play it under {new} from now on? Every stroke "
                      "recorded is ruled again under {new}, and the change is kept in the match's record.").format(
                        old=names[self.match.ruleset].name.get(lang, self.match.ruleset),
                        new=names[ruleset].name.get(lang, ruleset)),
                    QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
                if answer != QMessageBox.StandardButton.Yes:
                    return False
            if self.match_id is not None:
                self.match = self.store.change_ruleset(self.match_id, ruleset)
            else:
                self.match = replayed(ruleset, self.match.doubles, self.match.strokes)
        except BadInput as exc:
            QMessageBox.warning(self, _("Ruleset not changed"), str(exc))
            return False
        self.ruleset = ruleset
        self.cancel_correction()
        self._apply_ruleset_parameters()
        self.refresh()
        return True

    def _doubles_toggled(self, on: bool) -> None:
        """Singles or doubles, for a match not yet begun (four seats, the turn to the right: it 29)."""
        if not self.match.strokes:
            self.match = Match(self.match.ruleset, on)
            if self.match_id is not None:
                self.store.set_doubles(self.match_id, on)
            self.refresh()
        elif on != self.match.doubles:
            self.doubles.blockSignals(True)
            self.doubles.setChecked(self.match.doubles)
            self.doubles.blockSignals(False)

    def _apply_ruleset_parameters(self) -> None:
        params = compiled(self.match.ruleset).params
        stroke = int(params["stroke_clock_seconds"])
        self.stroke_clock.set_seconds(stroke)
        self.break_clock.set_seconds(int(params.get("break_clock_seconds", stroke)))
        self.form.set_fouls([{"id": f["id"], "names": f.get("name", {}), "clauses": f.get("clauses", [])}
                             for f in compiled(self.what_if_ruleset()).fouls.values()])

    def what_if_ruleset(self) -> str:
        return self.match.ruleset  # one ruleset everywhere: the match's

    def new_match(self) -> None:
        self.match_id = None
        self.match = Match(self.ruleset, self.doubles.isChecked())
        self.header.clear()
        self.resume.hide()
        self.cancel_correction()
        self.match_clock.reset()
        self._apply_ruleset_parameters()
        self.refresh()
        self.ruleset_in_force.emit(self.match.ruleset)

    def open_match(self, match_id: int) -> None:
        try:
            meta, match = self.store.meta(match_id), self.store.load(match_id)
        except BadInput as exc:  # a match stored unreadably: said, and the match on screen stays
            QMessageBox.warning(self, _("Open a match"), str(exc))
            return
        self.match_id = match_id
        self.match = match
        self.ruleset = self.match.ruleset
        self.doubles.blockSignals(True)
        self.doubles.setChecked(self.match.doubles)
        self.doubles.blockSignals(False)
        self.header.load(meta)
        self.resume.hide()
        self.cancel_correction()
        self._apply_ruleset_parameters()
        self.refresh()
        self.ruleset_in_force.emit(self.match.ruleset)

    def _ensure_saved(self) -> int:
        """The match's record, created with its header the first time something is to be kept."""
        if self.match_id is None:
            self.match_id = self.store.create(self.match.ruleset, self.match.doubles, **self.header.values())
            self.resume.hide()
        return self.match_id

    def _header_edited(self, field: str, text: str) -> None:
        """A header field is saved as it is typed, before or after the first stroke."""
        if self.match_id is None and not text.strip():
            return

        match, match_id = self.match, self.match_id

        def write() -> None:
            if match_id is None:
                if self.match is match:
                    self._ensure_saved()   # with the whole header as it reads then
            else:
                self.store.update_header(match_id, **{field: text})

        # imported at the first save, not before the first paint (benchmarks/bench_startup.py)
        from referee_app.ui.common.records import saving

        # out of reach, the field keeps what was typed and the last text typed is saved once it answers
        saving(self, _("The match header"), write, key=("header", id(match), field))
        if field in ("first_name", "second_name"):
            self.refresh()

    def offer_resume(self) -> None:
        """Shows the unfinished match, if any, ready to resume (called when the window opens)."""
        if self.match_id is not None or self.match.strokes:
            return
        found = self.store.unfinished()
        if found:
            rs = default_rulesets().get(found["ruleset"])
            self.resume.offer(found, rs.name.get(current_language(), rs.id) if rs else found["ruleset"])

    def _resume_offered(self) -> None:
        if self.resume.match:
            self.open_match(self.resume.match["id"])
            self.form.own.setFocus()

    def choose_match(self) -> None:
        matches = self.store.list()
        if not matches:
            QMessageBox.information(self, _("Open a match"), _("No match has been saved yet."))
            return
        labels = [f"{m['id']}: {m['first_name'] or _('First')} – {m['second_name'] or _('Second')} "
                  f"({m['ruleset']}, {m['strokes']})" for m in reversed(matches)]
        from PySide6.QtWidgets import QInputDialog   # the dialogs' classes: not for the first paint

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
            return _("the striking side"), _("the opponent")  # mid-sentence; the view capitalises a sentence's start
        side = self._game_for_entry().state.turn
        return (first, second) if side == "first" else (second, first)

    def _game_for_entry(self):
        if self.correcting:
            return replayed(self.match.ruleset, self.match.doubles, self.match.strokes[:self.correcting - 1]).game
        return self.match.game

    def update_ruling(self) -> None:
        """Rules the stroke as ticked so far; never records."""
        if not self._ruling_now:   # the area being built for a window's first paint: ruled just after it
            return
        problem = self.form.problem()
        if problem:
            self.last_ruling = None
            self.ruling_view.show_error(problem)
            self.record_button.setEnabled(False)
            return
        try:
            if self.what_if.isChecked():
                ruling = rule(self.situation_doc(), self.match.ruleset, trace=True)
            elif self.match.over:
                raise BadInput("match", _("the match is over"))
            else:
                ruling = rule(self.situation_doc(), self.match.ruleset, trace=True)
        except (BadInput, NoRule, Conflict) as exc:
            self.last_ruling = None
            self.ruling_view.show_error(refusal_text(exc, self.match.ruleset, self.form.foul_id()))
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
                self.cancel_button.hide()  # the correction is done: nothing left to cancel
            else:
                self._save_stroke(stroke)
                return
        except BadInput as exc:   # a correction refused; or not made, the server out of reach (the banner)
            if not server_state().noticed(exc):
                QMessageBox.warning(self, _("Not recorded"), str(exc))
            return
        self._stroke_done()

    def _save_stroke(self, stroke: dict) -> None:
        """Appends the stroke to the stored sheet; it joins the sheet on screen only once committed.

        Unsaved (a file that refuses it, a server out of reach), it stays ticked in the form, and a
        server's wait is said beside the Record button; the save is tried again on its own."""
        match, match_id, header = self.match, self.match_id, self.header.values()

        def write():
            # bound to the match it was entered in: another match opened meanwhile never receives it
            nonlocal match_id
            if match_id is None:
                match_id = self.store.create(match.ruleset, match.doubles, **header)
                if self.match is match:
                    self.match_id = match_id
                    self.resume.hide()
            return self.store.add_stroke(match_id, stroke)

        def committed(_ruling) -> None:
            self.waiting.hide()
            if self.match is not match:   # another match was opened meanwhile: its sheet is not this one
                return
            self.match.play(stroke)
            if self.form.stroke() == stroke:  # the form still shows it: done with it
                self._stroke_done()
            else:
                self.refresh()

        def refused(exc) -> None:
            self.waiting.hide()
            QMessageBox.warning(self, _("Not recorded"), str(exc))

        from referee_app.ui.common.records import saving

        key = ("stroke", id(match))   # one waiting stroke per match: recorded again, the form's latest wins
        if not saving(self, _("The stroke"), write, key=key, on_saved=committed, on_refused=refused):
            # the stroke stays ticked in the form, to record again
            self.waiting.setVisible(server_state().waiting(key))

    def _stroke_done(self) -> None:
        self.form.reset()
        self.stroke_clock.restart() if self.stroke_clock.running else self.stroke_clock.reset()
        self.refresh()
        self.form.own.setFocus()

    def ask_deciding_strokes(self) -> None:
        from PySide6.QtWidgets import QInputDialog

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
            if not server_state().noticed(exc):
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
        lines = []
        for c in changes:
            what = ruling_differences(c["before"], c["after"], current_language())
            if what:  # a line that would read "X → X" tells the referee nothing
                lines.append(_("Stroke {n}:").format(n=c["stroke"]) + "\n" + "\n".join(f"  • {w}" for w in what))
        if not lines:
            return True
        answer = QMessageBox.question(self, _("Rulings that change"),
                                      _("This correction changes these rulings:") + "\n\n" + "\n".join(lines)
                                      + "\n\n" + _("Accept the correction?"))
        return answer == QMessageBox.StandardButton.Yes

    def undo(self) -> None:
        if not self.match.strokes or self.what_if.isChecked():
            return
        if self.match_id is not None:
            try:
                self.store.undo(self.match_id)
                self.match = self.store.load(self.match_id)
            except StoreUnavailable as exc:   # nothing undone: the banner says why; undo again later
                server_state().noticed(exc)
                return
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
        if on or self._situation is not None:
            self.situation.setVisible(on)
        self._apply_ruleset_parameters()
        self.refresh()

    def compare(self) -> None:
        try:
            doc = self.situation_doc()
        except BadInput as exc:
            QMessageBox.warning(self, _("Compare rulesets"), str(exc))
            return
        from .compare_view import CompareDialog   # a dialog of its own: not needed for the first paint

        dialog = CompareDialog(doc, self, reference=self.what_if_ruleset())
        follow_language(dialog)
        dialog.show()
        self.compare_dialog = dialog

    protest = Signal(dict)  # the fields of a protest form about a stroke of this match

    def protest_stroke(self) -> None:
        """Opens a protest about the stroke chosen in the sheet (the last one if none is chosen)."""
        from referee_app.core.play.protest_draft import protest_fields

        if not self.match.strokes:
            QMessageBox.information(self, _("Protest this stroke"), _("No stroke has been recorded yet."))
            return
        row = self.sheet.strokes.currentRow()
        n = row + 1 if 0 <= row < len(self.match.strokes) else len(self.match.strokes)
        meta = self.store.meta(self._ensure_saved())
        self.protest.emit(protest_fields(meta, self.match.strokes, n, current_language()))

    def print_sheet(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _filter = QFileDialog.getSaveFileName(self, _("Save the score sheet as PDF"), "score-sheet.pdf", "PDF (*.pdf)")
        if path:
            meta = {}
            try:
                if self.match_id is not None:
                    meta = dict(self.store.meta(self.match_id), events=self.store.events(self.match_id))
                self.sheet.save_pdf(path, meta)
            except BadInput as exc:
                QMessageBox.warning(self, _("Save the score sheet as PDF"), str(exc))

    # --- showing ----------------------------------------------------------------------------
    def refresh(self) -> None:
        game = self._game_for_entry()
        st = game.state
        first, second = self.names()
        name = {"first": first, "second": second}
        if self.what_if.isChecked():
            self.form.set_colours(None)
            self.form.set_board(self.situation.own.value(), self.situation.opponent.value(),
                                self.situation.queen.currentData() == "on_board")
        else:
            self.form.set_colours(self._open_colour_names(game))
            side = st.turn
            self.form.set_board(st.coins[side], st.coins["second" if side == "first" else "first"],
                                st.queen == "on_board")
        won = self.match.games_won
        if self.match.over:
            text = _("Match over: {winner} wins {a}–{b} in games").format(
                winner=name[self.match.winner], a=won["first"], b=won["second"])
        elif game.colours_by_first_coin:
            text = _("Game {g}, board {b}: {side} to play. {colours} Score {a}–{c}. Queen: {queen}.").format(
                g=len(self.match.games), b=len(game.boards), side=name[st.turn], colours=self._colours_text(game, name),
                a=game.score["first"], c=game.score["second"],
                queen=queen_text(st.queen_for(st.turn), name[st.turn], name["second" if st.turn == "first" else "first"]))
        else:
            white = st.breaker
            text = _("Game {g}, board {b}: {side} to play. {white} has the white coins. Score {a}–{c}. "
                     "Coins on the board: {w} white, {k} black. Queen: {queen}.").format(
                g=len(self.match.games), b=len(game.boards), side=name[st.turn], white=name[white],
                a=game.score["first"], c=game.score["second"], w=st.coins[white],
                k=st.coins["second" if white == "first" else "first"],
                queen=queen_text(st.queen_for(st.turn), name[st.turn], name["second" if st.turn == "first" else "first"]))
        if not self.match.over:
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

    def refresh_colours(self) -> None:
        """After a change of light or dark: the rich text drawn with the palette's colours."""
        self.ruling_view.retranslate()
        self.form.foul.retranslate()

    def _open_colour_names(self, game) -> tuple[str, str] | None:
        """The light and dark coins as the ruleset's text names them, while the first coin is to set them."""
        if not game.colours_open():
            return None
        lang = current_language()
        return (colour_name(game.ruleset, "light", lang, True), colour_name(game.ruleset, "dark", lang, True))

    def _colours_text(self, game, name: dict) -> str:
        """Each side's colour by its name in the source, or that no coin has set them yet."""
        st = game.state
        if st.colours is None:
            return _("Colours not yet decided: the first coin pocketed sets them.")
        if not st.colours:
            return _("Colours set before the board (strokes recorded as own and opponent coins).")
        lang = current_language()
        return _("{a} plays the {ca} coins ({x} on the board), {b} the {cb} coins ({y}).").format(
            a=name["first"], ca=colour_name(game.ruleset, st.colours["first"], lang, True), x=st.coins["first"],
            b=name["second"], cb=colour_name(game.ruleset, st.colours["second"], lang, True), y=st.coins["second"])

    def retranslate(self) -> None:
        self.new_button.setText(_("New match"))
        self.open_button.setText(_("Open match…"))
        self.doubles.setText(_("Doubles"))
        self.doubles.setToolTip(_("Two players a side, partners face to face; for a match not yet begun"))
        self.what_if.setText(_("What if (Ctrl+W)"))
        self.what_if.setToolTip(_("Rule a stroke on a situation you set by hand, without recording it"))
        self.compare_button.setText(_("Compare rulesets (Ctrl+K)"))
        self.print_button.setText(_("Score sheet PDF…"))
        self.protest_button.setText(_("Protest this stroke…"))
        self.protest_button.setToolTip(_("A protest form filled from the match: the stroke chosen in the score "
                                         "sheet, or the last one"))
        self.record_button.setText(_("Record stroke (Ctrl+Enter)"))
        self.undo_button.setText(_("Undo last stroke (Ctrl+Z)"))
        self.cancel_button.setText(_("Cancel correction (Esc)"))
        self.tie_button.setText(_("Deciding strokes…"))
        self.waiting.setText(_("Not recorded yet: the records server cannot be reached. The stroke stays ticked "
                               "and is recorded as soon as the server answers."))
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
        for part in (self.form, self._situation, self.sheet, self.ruling_view, self.header, self.resume):
            if part is not None:
                part.retranslate()
        if hasattr(self, "sheet"):
            self.refresh()
