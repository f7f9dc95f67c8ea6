"""The Rulings area: the stroke wizard over the live score sheet, a thin widget over the core's
match session (core/play/session.py), which keeps the match, its record, its corrections and
its what-if.

The referee ticks what happened; the ruling updates at every tick; Ctrl+Enter records the
stroke in the match (saved at once), Ctrl+Z takes it back, a double-click on an earlier stroke
corrects it (the later strokes are re-ruled and any ruling that changes is shown before it is
accepted). "What if" rules a stroke on a situation edited by hand, without recording it. What is
shown as the stroke is ticked and what is recorded are one ruling: `MatchSession.preview`.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from referee_app.core.errors import BadInput
from referee_app.core.play.session import MatchOver, MatchSession
from referee_app.core.rules.engine import Conflict, NoRule
from referee_app.core.storage.errors import StoreUnavailable
from referee_app import i18n
from referee_app.i18n import gettext as _
from referee_app.ui.common.focus import enter
from referee_app.ui.common.server_state import server_state
from referee_app.ui.retranslate import follow_language
from . import match_dialogs, match_tools
from .area_layout import build, make_actions, retranslate_texts, show_board, what_if_board
from .board_status import open_colour_names, status_text
from .refusal_words import match_refusal, refusal_text


def _open_records(knowledge):
    from referee_app.core.play.store import MatchStore
    from referee_app.ui.common.records_source import records_database

    return MatchStore(knowledge, records_database())


def _from_session(name: str) -> property:
    return property(lambda area: getattr(area.session, name))


class RulingsArea(QWidget):
    open_clause = Signal(str)
    ruleset_in_force = Signal(str)  # the match's ruleset, whenever a match is opened or begun
    protest = Signal(dict)          # the fields of a protest form about a stroke of this match

    def __init__(self, knowledge, ruleset: str | None = None, store=None, parent=None,
                 first_ruling_later: bool = False):
        """`knowledge`: the window's knowledge root. `first_ruling_later`: the empty stroke is not
        ruled as the area is built, but by the first `update_ruling()` (the window's, just after
        its first paint); until then the ruling says to tick what happened. Any tick, and Record,
        rule at once as always."""
        super().__init__(parent)
        self.setObjectName("rulings_area")
        self._ruling_now = not first_ruling_later
        self.knowledge = knowledge
        self.session = MatchSession(knowledge, ruleset, store,
                                    open_store=lambda: _open_records(knowledge))
        self.last_ruling: dict | None = None
        self.just_recorded: tuple | None = None   # (ruling, sides, n, situation) shown until the next tick
        self._clock_saved: tuple | None = None    # (match id, the match clock's state) last saved
        self._situation = None   # the what-if board: built when first asked for (`situation`)
        build(self)              # the widgets, their places and the clocks (area_layout.py)

        self.form.changed.connect(self._ticked)
        self.form.typed.connect(lambda: self.just_recorded is not None and self._ticked())
        self.ruling_view.open_clause.connect(self.open_clause)
        self.doubles.toggled.connect(self._doubles_toggled)
        for button, slot in ((self.record_button, self.record), (self.undo_button, self.undo),
                             (self.cancel_button, self.cancel_correction), (self.tie_button, self.ask_deciding_strokes),
                             (self.new_button, self.new_match), (self.open_button, self.choose_match),
                             (self.compare_button, self.compare), (self.print_button, self.print_sheet),
                             (self.protest_button, self.protest_stroke), (self.resume.resume_button, self._resume_offered),
                             (self.resume.dismiss_button, self.resume.hide)):
            button.clicked.connect(slot)
        self.what_if.toggled.connect(self._what_if_toggled)
        self.sheet.correct_stroke.connect(self.start_correction)
        self.first_name.editingFinished.connect(self.refresh)
        self.second_name.editingFinished.connect(self.refresh)
        self.header.edited.connect(self._header_edited)
        self.match_clock.changed.connect(self._save_clock)
        make_actions(self)
        follow_language(self)
        self._apply_ruleset_parameters()
        self.retranslate()   # which shows the board and rules the empty stroke (refresh)
        self._ruling_now = True

    # --- the session's state, as the window and its tests read it -------------------------------
    match = _from_session("match")
    match_id = _from_session("match_id")
    ruleset = _from_session("ruleset")          # the ruleset chosen for the next match
    correcting = _from_session("correcting")    # the 1-based stroke being corrected, or None
    store = _from_session("store")

    @property
    def _store(self):
        return self.session._store

    @_store.setter
    def _store(self, store) -> None:   # a store put in its place (a test's server that goes away)
        self.session._store = store

    @property
    def situation(self):
        """The what-if board, above the stroke form; built the first time it is needed, hidden."""
        if self._situation is None:
            self._situation = what_if_board(self)
        return self._situation

    def names(self) -> tuple[str, str]:
        return (self.first_name.text().strip() or _("First"), self.second_name.text().strip() or _("Second"))

    def focus_entry(self) -> None:
        """Where Ctrl+1 lands. In a match (a stroke recorded, or its players named) the stroke's
        first tick, never a name; before it, the first player's name, its text left unselected so
        that no key typed replaces a name already saved."""
        if self.match.strokes or self.first_name.text().strip() or self.second_name.text().strip():
            self.form.own.setFocus(Qt.FocusReason.ShortcutFocusReason)
        else:
            enter(self.first_name)

    def what_if_ruleset(self) -> str:
        return self.match.ruleset  # one ruleset everywhere: the match's

    # --- which match --------------------------------------------------------------------------
    def set_ruleset(self, ruleset: str) -> bool:
        """The ruleset chosen in the toolbar; returns whether the match now plays under it.

        Before the first stroke the match simply takes it. Once strokes are recorded, changing it
        is an explicit act: the referee confirms, every stroke is ruled again under the new rules
        (refused if one cannot happen under them), and the change stays in the match's history."""
        if ruleset not in self.knowledge.rulesets:
            return False
        if ruleset == self.match.ruleset:
            self.session.ruleset = ruleset
            return True
        if self.match.strokes and not match_dialogs.confirm_ruleset_change(self, self.knowledge, self.match.ruleset, ruleset):
            return False
        was_correcting = self.correcting
        try:
            self.session.change_ruleset(ruleset)
        except BadInput as exc:
            QMessageBox.warning(self, _("Ruleset not changed"), self.refusal(exc))
            return False
        self._correction_ended(was_correcting)
        self._apply_ruleset_parameters()
        self.refresh()
        return True

    def _doubles_toggled(self, on: bool) -> None:
        """Singles or doubles, for a match not yet begun (four seats, the turn to the right: it 29)."""
        if self.session.set_doubles(on):
            if not self.match.strokes:
                self.refresh()
            return
        self.doubles.blockSignals(True)
        self.doubles.setChecked(self.match.doubles)
        self.doubles.blockSignals(False)

    def _apply_ruleset_parameters(self) -> None:
        stroke, brk = self.session.clock_seconds()
        self.stroke_clock.set_seconds(stroke)
        self.break_clock.set_seconds(brk)
        self.form.set_fouls(self.knowledge, self.match.ruleset)

    def _match_shown(self, was_correcting) -> None:
        """After a match is begun or opened: the board, the clocks and the toolbar follow it."""
        self.just_recorded = None
        self.resume.hide()
        self._correction_ended(was_correcting)
        self._apply_ruleset_parameters()
        self.refresh()
        self.ruleset_in_force.emit(self.match.ruleset)

    def new_match(self) -> None:
        """A match begun (strokes recorded, kept in the records) gives way to a new one. A match
        with no stroke yet is the new match already: it is kept rather than left behind as an
        empty duplicate in "Open match…", and a header typed for it is cleared only if the referee
        says so. A stroke waiting for the records server is a match begun: it stays bound to it."""
        if not self.match.strokes and not server_state().waiting(("stroke", id(self.match))):
            typed = {f: e.text() for f, e in self.header.fields.items() if e.text().strip()}
            if typed and not match_dialogs.confirm_clear_header(self, self.header.values()):
                return
            for field in typed:
                self.header.fields[field].clear()
                self._header_edited(field, "")
            self.match_clock.reset()
            self.form.reset()
            self.refresh()
            enter(self.first_name)
            return
        was_correcting = self.correcting
        self.session.new(self.doubles.isChecked())
        self.header.clear()
        self.match_clock.reset()
        self._match_shown(was_correcting)

    def refusal(self, exc: Exception) -> str:
        """A refusal of the match's records or sheet, in the referee's language."""
        return match_refusal(self.knowledge, exc, self.match.ruleset)

    def open_match(self, match_id: int) -> None:
        was_correcting = self.correcting
        try:
            meta = self.session.open(match_id)
        except BadInput as exc:  # a match stored unreadably: said, and the match on screen stays
            QMessageBox.warning(self, _("Open a match"), self.refusal(exc))
            return
        self.doubles.blockSignals(True)
        self.doubles.setChecked(self.match.doubles)
        self.doubles.blockSignals(False)
        self.header.load(meta)
        self._match_shown(was_correcting)
        self._restore_clock()

    def _save_clock(self) -> None:
        """The match clock saved with the sheet, as a stroke is: committed, or kept waiting while
        the server is out of reach (the latest state wins)."""
        state = self.match_clock.state()
        if (self.match_id, state) == self._clock_saved:   # a paused clock at each stroke: once is enough
            return
        write = self.session.clock_write(state["spent_ms"], state["running"])
        if write is None:
            return
        self._clock_saved = (self.match_id, state)
        from referee_app.ui.common.records import saving   # with the records: not before the first paint

        saving(self, _("The match clock"), write, key=("clock", id(self.match)))

    def _restore_clock(self) -> None:
        """The match clock where it was last saved, paused (the referee restarts it with play)."""
        try:
            saved = self.session.saved_clock()
        except StoreUnavailable as exc:
            server_state().noticed(exc)
            return
        self.match_clock.setToolTip("")
        self._clock_saved = (self.match_id, {"spent_ms": saved["spent_ms"], "running": False}) if saved else None
        if saved is None:
            self.match_clock.restore(0)
            return
        self.match_clock.restore(saved["spent_ms"])
        if saved.get("running"):
            self.match_clock.setToolTip(_("The clock was running when the window closed; it is paused at the "
                                          "time last saved: start it when play resumes"))

    def _header_edited(self, field: str, text: str) -> None:
        """A header field is saved as it is typed, before or after the first stroke."""
        if self.match_id is None and not text.strip():
            return
        from .stroke_saving import save_header   # with the records: not before the first paint

        save_header(self, field, text)
        if field in ("first_name", "second_name"):
            self.refresh()

    def offer_resume(self) -> None:
        """Shows the unfinished match, if any, ready to resume (called when the window opens)."""
        found = self.session.unfinished()
        if found:
            self.resume.offer(found, lambda lang, rid=found["ruleset"]: self.knowledge.ruleset_name(rid, lang))
        if any(self.session.kept()):   # strokes kept on this machine by an earlier run: said, and sent
            from .stroke_saving import _kept_offline

            _kept_offline(self, None)

    def _resume_offered(self) -> None:
        if self.resume.match:
            self.open_match(self.resume.match["id"])
            self.form.own.setFocus()

    def choose_match(self) -> None:
        chosen = match_dialogs.choose_match(self, self.session.saved(),
                                            lambda rid: self.knowledge.ruleset_name(rid, i18n.current_language()),
                                            self.session.pairings_to_open())
        if isinstance(chosen, dict):
            self.open_pairing(chosen)
        elif chosen is not None:
            self.open_match(chosen)

    def open_pairing(self, pairing: dict) -> None:
        """The score sheet of a paired game, tied to it (made the first time)."""
        try:
            match_id = self.session.pairing_sheet(pairing["tournament"], pairing["round"], pairing["table"])
        except BadInput as exc:   # the result entered meanwhile, the server away: said, nothing changes
            if not server_state().noticed(exc):
                QMessageBox.warning(self, _("Open a match"), self.refusal(exc))
            return
        self.open_match(match_id)

    # --- the stroke ---------------------------------------------------------------------------
    def _what_if_before(self) -> dict | None:
        return self.situation.before() if self.what_if.isChecked() else None

    def situation_doc(self) -> dict:
        return self.session.situation_doc(self.form.stroke(), self._what_if_before())

    def _striker_names(self) -> tuple[str, str]:
        first, second = self.names()
        if self.what_if.isChecked():
            return _("the striking side"), _("the opponent")  # mid-sentence; the view capitalises a sentence's start
        side = self.session.entry_game().state.turn
        return (first, second) if side == "first" else (second, first)

    def update_ruling(self) -> None:
        """Rules the stroke as ticked so far (the session's preview); never records."""
        if not self._ruling_now:   # the area being built for a window's first paint: ruled just after it
            return
        self.last_ruling = None
        self.record_button.setEnabled(False)
        problem = self.form.problem()
        if problem:
            self.ruling_view.show_error(problem)
            show_board(self, None, None)
            return
        try:
            ruling = self.session.preview(self.form.stroke(), trace=True, what_if=self._what_if_before())
        except MatchOver:
            self.ruling_view.show_error(_("the match is over"))
            show_board(self, None, None)
            return
        except (BadInput, NoRule, Conflict) as exc:
            text = refusal_text(self.knowledge, exc, self.match.ruleset, self.form.foul_id())
            self.ruling_view.show_error(text)
            self._mark_board(exc.field if isinstance(exc, BadInput) else None, text)
            show_board(self, None, None)
            return
        self._mark_board(None)
        self.last_ruling = ruling   # what Record records: the stroke as ticked
        if self.just_recorded is not None and not self.what_if.isChecked() and not self.correcting:
            shown, sides, n, doc = self.just_recorded
            self.ruling_view.show_ruling(shown, sides, recorded=n)
            show_board(self, doc, shown)
        else:
            self.ruling_view.show_ruling(ruling, self._striker_names())
            show_board(self, self._ruled_doc(), ruling)
        self.record_button.setEnabled(not self.what_if.isChecked())

    def _mark_board(self, field: str | None, text: str = "") -> None:
        """A what-if board no game reaches: the refusal beside the field it is about."""
        if self._situation is not None:
            self._situation.mark(field if self.what_if.isChecked() else None, text)

    def _ruled_doc(self) -> dict | None:
        """The situation the stroke as ticked was ruled on, for its diagram."""
        try:
            return self.situation_doc()
        except BadInput:
            return None

    def record(self) -> None:
        self.update_ruling()  # what is recorded is what the form says now, foul included
        if self.what_if.isChecked() or self.last_ruling is None:
            if self.form.problem():
                self.form.foul.setFocus()
            return
        stroke = self.form.stroke()
        if not self.correcting:
            self._save_stroke(stroke)
            return
        if not match_dialogs.confirm_correction(self, self.session, self.correcting, stroke, self.names()):
            return
        try:
            self.session.correct(self.correcting, stroke)
        except BadInput as exc:   # a correction refused; or not made, the server out of reach (the banner)
            if not server_state().noticed(exc):
                QMessageBox.warning(self, _("Not recorded"), self.refusal(exc))
            return
        self.cancel_button.hide()  # the correction is done: nothing left to cancel
        self._stroke_done()

    def _save_stroke(self, stroke: dict) -> None:
        from .stroke_saving import save_stroke   # with the records: not before the first paint

        save_stroke(self, self.session.pending(stroke, self.header.values()))

    def _stroke_done(self, recorded: tuple | None = None) -> None:
        """`recorded`: (ruling, sides, stroke number, situation) of the stroke just recorded, kept in the
        headline until the next stroke is ticked: the referee announces it now, and the blank next
        stroke's ruling ("the turn passes") would contradict the play at the table."""
        self.form.reset()
        self.just_recorded = recorded
        if self.match_clock.elapsed_ms():   # a clock started before the match was stored is kept now
            self._save_clock()
        self.stroke_clock.restart() if self.stroke_clock.running else self.stroke_clock.reset()
        self.refresh()
        self.form.own.setFocus()

    def _ticked(self) -> None:
        """The stroke form changed: the next stroke's ruling replaces the one just recorded."""
        self.just_recorded = None
        self.update_ruling()

    def ask_deciding_strokes(self) -> None:
        attempts = match_dialogs.ask_deciding_strokes(self, self.names())
        if attempts is not None:
            self.record_deciding_strokes(attempts)

    def record_deciding_strokes(self, attempts: dict) -> None:
        try:
            self.session.record_deciding_strokes(attempts)
        except BadInput as exc:
            if not server_state().noticed(exc):
                QMessageBox.warning(self, _("Not recorded"), self.refusal(exc))
            return
        self.refresh()

    def undo(self) -> None:
        if not self.match.strokes or self.what_if.isChecked():
            return
        was_correcting = self.correcting
        try:
            self.session.undo()
        except StoreUnavailable as exc:   # nothing undone: the banner says why; undo again later
            server_state().noticed(exc)
            return
        self.just_recorded = None
        self._correction_ended(was_correcting)
        self.refresh()

    def start_correction(self, n: int) -> None:
        if self.what_if.isChecked():
            return
        self.form.load(self.session.start_correction(n))
        self.cancel_button.show()
        self.refresh()

    def cancel_correction(self) -> None:
        if self.correcting is None:
            return
        self._correction_ended(self.correcting)
        self.refresh()

    def _correction_ended(self, was_correcting) -> None:
        """No stroke corrected any more: the form is cleared of the one that was."""
        self.session.cancel_correction()
        self.cancel_button.hide()
        if was_correcting:
            self.form.reset()

    def _what_if_toggled(self, on: bool) -> None:
        if on:
            self.situation.load(self.match.game.situation_doc({})["before"])
        if on or self._situation is not None:
            self.situation.setVisible(on)
        self._apply_ruleset_parameters()
        self.refresh()

    def compare(self) -> None:
        match_tools.compare(self)

    def protest_stroke(self) -> None:
        """Opens a protest about the stroke chosen in the sheet (the last one if none is chosen)."""
        match_tools.protest_stroke(self)

    def print_sheet(self) -> None:
        match_tools.print_sheet(self)

    # --- showing ------------------------------------------------------------------------------
    def refresh(self) -> None:
        game, what_if = self.session.entry_game(), self.what_if.isChecked()
        if what_if:
            self.form.set_colours(None)
            self.form.set_board(self.situation.own.value(), self.situation.opponent.value(),
                                self.situation.queen.currentData() == "on_board")
        else:
            st = game.state
            self.form.set_colours(open_colour_names(game))
            self.form.set_board(st.coins[st.turn], st.coins["second" if st.turn == "first" else "first"],
                                st.queen == "on_board")
        first, second = self.names()
        self.status.setText(status_text(self.session, first, second, what_if))
        self.sheet.show_match(self.match.ruleset, self.match.doubles, self.match.strokes, (first, second),
                              self.session.corrected())
        self.undo_button.setEnabled(bool(self.match.strokes) and not what_if)
        self.tie_button.setVisible(self.match.game.tie_breaker_due and not what_if)
        self.update_ruling()

    def refresh_colours(self) -> None:
        """After a change of light or dark: the rich text drawn with the palette's colours."""
        self.ruling_view.retranslate()
        self.form.foul.retranslate()

    def retranslate(self) -> None:
        retranslate_texts(self)
        # the parts are plain widgets: the area re-translates them with itself
        for part in (self.form, self._situation, self.sheet, self.ruling_view, self.header, self.resume):
            if part is not None:
                part.retranslate()
        if hasattr(self, "sheet"):
            self.refresh()
