"""The rounds: the next round paired (ffc-tournament:1.14) with its tables (1.2), printed; one
score sheet per table, printed pre-filled or kept on screen as a match linked to the table; the
results as they arrive, from the score sheets under the FFC limits (1.5-1.8) or typed at the
desk; a round closed once every result is in. A result of a round whose next round is paired
is changed only by a correction with its reason (choice `correction`)."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton,
                               QComboBox, QSpinBox, QTableWidgetItem, QVBoxLayout, QWidget)

from referee_app.core.tournament import documents, sheet_status
from referee_app.core.tournament.store import FINAL, begun_table
from referee_app.core.tournament.table_matches import collect, open_match
from referee_app.core.storage.errors import VersionConflict
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui.common.tables import keep_rows, record_table
from referee_app.ui.common import conflict_dialog
from referee_app.ui.retranslate import follow_language
from .reason_dialog import ask_reason


GAME_ID = Qt.ItemDataRole.UserRole   # a row's game, by its id: what the result entry is bound to
BLANK = -1                             # a points box with nothing typed in it


class PointsBox(QSpinBox):
    """A player's points, blank until typed; Enter saves the result (`entered`)."""
    entered = Signal()

    def __init__(self, objectName: str):
        super().__init__(objectName=objectName)
        self.setRange(BLANK, 99)
        self.setSpecialValueText("–")   # shown for BLANK
        self.setValue(BLANK)

    def keyPressEvent(self, event):
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers():
            self.interpretText()
            self.entered.emit()
            return
        super().keyPressEvent(event)


class RoundsView(QWidget):
    match_opened = Signal(int)      # a score sheet opened at a table: the match id

    def __init__(self, desk, parent=None):
        super().__init__(parent)
        self.setObjectName("tournament_rounds")
        self.desk = desk
        self.typed_over: tuple = (None, None)   # (table, version of its game as shown)
        self.round_label = QLabel()
        self.round_combo = QComboBox(objectName="round_combo")
        self.round_label.setBuddy(self.round_combo)
        self.pair_button = QPushButton(objectName="pair_round")
        self.again_button = QPushButton(objectName="pair_round_again")
        self.close_button = QPushButton(objectName="close_round")
        self.print_button = QPushButton(objectName="print_pairings")
        self.sheets_button = QPushButton(objectName="print_score_sheets")
        top = QHBoxLayout()
        for w in (self.round_label, self.round_combo, self.pair_button, self.again_button, self.close_button):
            top.addWidget(w)
        top.addStretch(1)
        top.addWidget(self.print_button)
        top.addWidget(self.sheets_button)

        self.table = keep_rows(record_table("pairings_table", 7), 3)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)   # every title whole
        for col in (1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)

        self.open_button = QPushButton(objectName="open_score_sheet")
        self.time_called = QCheckBox(objectName="time_called")
        self.collect_button = QPushButton(objectName="collect_results")
        sheets = QHBoxLayout()
        for w in (self.open_button, self.time_called, self.collect_button):
            sheets.addWidget(w)
        sheets.addStretch(1)

        # The result typed at the desk is bound to one game, the one selected when it was shown
        # (`entry_game`, by its id), and says which it is: never a row number, which a line
        # appearing above the list would shift onto the next table.
        self.entry_game: dict | None = None
        self.entry_for = QLabel(objectName="result_entry_for")
        self.first_points = PointsBox(objectName="first_points")
        self.second_points = PointsBox(objectName="second_points")
        self.reason_edit = QLineEdit(objectName="correction_reason")
        self.record_button = QPushButton(objectName="record_result")
        typed = QHBoxLayout()
        self.points_label = QLabel()
        for w in (self.points_label, self.entry_for, self.first_points, self.second_points, self.reason_edit,
                  self.record_button):
            typed.addWidget(w)
        self.reason_edit.setMinimumWidth(160)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addLayout(sheets)
        layout.addLayout(typed)

        self.round_combo.activated.connect(lambda _i: self._fill())
        self.pair_button.clicked.connect(self.pair)
        self.again_button.clicked.connect(self.pair_again)
        self.close_button.clicked.connect(self.close_round)
        self.print_button.clicked.connect(self.print_pairings)
        self.sheets_button.clicked.connect(self.print_score_sheets)
        self.open_button.clicked.connect(self.open_sheet)
        self.collect_button.clicked.connect(self.collect)
        self.record_button.clicked.connect(self.record)
        for box in (self.first_points, self.second_points):
            box.entered.connect(self.record)
        self.reason_edit.returnPressed.connect(self.record)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        follow_language(self)
        self.retranslate()

    # --- what is shown ---------------------------------------------------------------------
    @property
    def round_no(self):
        return self.round_combo.currentData()

    def games(self) -> list[dict]:
        if self.desk.tid is None or self.round_no is None:
            return []
        return self.desk.store.round_games(self.desk.tid, self.round_no)

    def selected_game(self) -> dict | None:
        """The game of the selected row, found by the id its row carries."""
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows:
            return None
        game_id = self.table.item(rows[0].row(), 0).data(GAME_ID)
        return next((g for g in self.games() if g["id"] == game_id), None)

    def selected_table(self) -> int | None:
        game = self.selected_game()
        return None if game is None else game["table_no"]

    def select_table(self, table: int) -> None:
        for i in range(self.table.rowCount()):
            if int(self.table.item(i, 0).text()) == table:
                self.table.selectRow(i)
                return

    def refresh(self, select=None) -> None:
        # the round being played is shown: on opening, on another tournament, and when the next round
        # is paired while its predecessor was on screen; a round the user chose otherwise stays
        count = self.round_combo.count()
        latest = self.round_combo.itemData(count - 1) if count else None
        following = self.desk.tid != getattr(self, "_shown_tid", None) or self.round_no in (None, latest)
        self._shown_tid = self.desk.tid
        current = select if select is not None else (None if following else self.round_no)
        self.round_combo.blockSignals(True)
        self.round_combo.clear()
        if self.desk.tid is not None:
            t = self.desk.store.load(self.desk.tid)
            for r in range(1, len(t.rounds) + 1):
                self.round_combo.addItem(documents.round_title(r, current_language()), r)
            if t.final is not None:
                self.round_combo.addItem(documents.round_title(FINAL, current_language()), FINAL)
        index = self.round_combo.findData(current) if current is not None else -1
        self.round_combo.setCurrentIndex(index if index >= 0 else self.round_combo.count() - 1)
        self.round_combo.blockSignals(False)
        self._fill()

    def sheets(self) -> dict:
        """Each table's sheet as the desk sees it (sheet_status: playing, finished, disagrees)."""
        if self.desk.tid is None or self.round_no is None:
            return {}
        # read as games() reads the round: not through desk.run, which would hide a message being shown
        found = sheet_status.round_sheets(self.desk.store, self.desk.matches, self.desk.tid, self.round_no)
        return {s["table"]: s for s in found}

    @staticmethod
    def _status(sheet: dict | None) -> tuple[str, str]:
        """The status column's text and tooltip for one game's sheet."""
        if sheet is None or sheet["sheet"] == sheet_status.NONE:
            return "", ""
        read = sheet["sheet_score"]
        if sheet["sheet"] == sheet_status.PLAYING:
            return _("Playing"), _("The score sheet reads {a}–{b} so far.").format(a=read[0], b=read[1])
        if sheet["sheet"] == sheet_status.DISAGREES:
            typed = sheet["score"]
            return "⚠ " + _("Disagrees with the sheet"), _(
                "The score sheet reads {a}–{b}; the result entered is {x}–{y}. Correct the result, or the "
                "sheet.").format(a=read[0], b=read[1], x=typed[0], y=typed[1])
        return _("Finished"), ""

    def _fill(self) -> None:
        games = self.games()
        sheets = self.sheets()
        lang = current_language()
        self.table.setRowCount(len(games))
        for i, g in enumerate(games):
            sheet = "" if g["match_id"] is None else _("Score sheet {n}").format(n=g["match_id"])
            status, why = self._status(sheets.get(g["table_no"]))
            values = (str(g["table_no"]), documents.player(g["first"], lang), documents.player(g["second"], lang),
                      "" if g["score_first"] is None else str(g["score_first"]),
                      "" if g["score_second"] is None else str(g["score_second"]), sheet, status)
            for j, v in enumerate(values):
                item = QTableWidgetItem(v)
                if j in (0, 3, 4):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setData(GAME_ID, g["id"])
                if j == 6 and why:
                    item.setToolTip(why)
                self.table.setItem(i, j, item)
        self._headers()
        has = self.desk.tid is not None
        for w in (self.pair_button,):
            w.setEnabled(has)
        # the store's own test: a round with a game begun is refused, so it is not offered
        self.again_button.setEnabled(bool(games) and self.round_combo.currentIndex() == self.round_combo.count() - 1
                                     and begun_table(games) is None)
        for w in (self.close_button, self.print_button, self.sheets_button, self.open_button, self.collect_button,
                  self.record_button):
            w.setEnabled(bool(games))
        self._selection_changed()

    def _selection_changed(self) -> None:
        game = self.selected_game()
        self.entry_for.setText("" if game is None else _("Table {n}: {first} – {second}").format(
            n=game["table_no"], first=documents.player(game["first"], current_language()),
            second=documents.player(game["second"], current_language())))
        if game is not None and self.entry_game is not None and game["id"] == self.entry_game["id"]:
            return   # the same game shown again (a refresh, another language): what is being typed stays
        self.entry_game = game
        # the game a result typed now is typed over: a change made elsewhere since is caught on saving
        self.typed_over = (game["table_no"], game.get("version")) if game else (None, None)
        # its result when it has one, else blank boxes: never the previous table's points
        for box, key in ((self.first_points, "score_first"), (self.second_points, "score_second")):
            box.setValue(BLANK if game is None or game[key] is None else game[key])
        for w in (self.first_points, self.second_points, self.reason_edit, self.record_button):
            w.setEnabled(game is not None)

    # --- actions ---------------------------------------------------------------------------
    def pair(self) -> None:
        if self.desk.tid is None:
            return
        t = self.desk.store.load(self.desk.tid)
        if len(t.players) < 2:
            self.desk.show_message(_("At least two players must be checked in to pair a round."))
            return
        if t.final is not None:
            self.desk.show_message(_("The tournament is over: the final has been paired."))
            return
        if not t.complete():
            self.desk.show_message(_("Some results of the round are missing: the next round is paired once every "
                                     "result is in."))
            return
        pairing = self.desk.run(lambda: self.desk.store.pair(self.desk.tid))
        if pairing is not None:
            self.desk.refresh()
            self.refresh(select=pairing["round"])
            self.desk.tabs.setCurrentWidget(self)

    def pair_again(self) -> None:
        """The round on screen, the last paired and not begun, paired again with a reason (a
        withdrawal or an absence since): its first pairing is set aside, both kept in the journal."""
        round_no = self.round_no
        if self.desk.tid is None or round_no is None:
            return
        title = documents.round_title(round_no, current_language())
        reason = ask_reason(self, _("Pair {round} again").format(round=title),
                            _("The pairing of {round} will be set aside and the round paired again from the "
                              "entries as they are now. Go on?").format(round=title))
        if reason is None:
            self.desk.show_message(_("{round} stays as paired: pairing it again needs its reason.").format(round=title))
            return
        pairing = self.desk.run(lambda: self.desk.store.repair(self.desk.tid, round_no, reason))
        if pairing is not None:
            self.desk.refresh()
            self.refresh(select=pairing["round"])

    def close_round(self) -> None:
        missing = [g["table_no"] for g in self.games() if g["score_first"] is None]
        if missing:
            self.desk.show_message(_("The round cannot be closed: no result yet at table {tables}.").format(
                tables=", ".join(str(m) for m in missing)))
            return
        self.desk.refresh()
        self.desk.status.setText(_("{round} is closed: every result is in, and the standings are up to date.").format(
            round=documents.round_title(self.round_no, current_language())))
        self.desk.tabs.setCurrentWidget(self.desk.standings)

    def open_sheet(self) -> None:
        table = self.selected_table()
        if table is None:
            self.desk.show_message(_("Choose a table in the list first."))
            return
        if self._ghost_game(table):
            self.desk.show_message(_("The ghost's game is not played: it is always {a}–{b}.").format(
                a=self.desk.store.ffc.ghost_score[0], b=self.desk.store.ffc.ghost_score[1]))
            return
        match_id = self.desk.run(lambda: open_match(self.desk.store, self.desk.matches, self.desk.tid,
                                                     self.round_no, table))
        if match_id is not None:
            self._fill()
            self.select_table(table)
            self.match_opened.emit(match_id)

    def collect(self) -> None:
        """Every table whose score sheet has ended (or, time called, every sheet) gives its result."""
        pending = [g for g in self.games() if g["match_id"] is not None and g["score_first"] is None]
        if not pending:
            self.desk.show_message(_("No score sheet is waiting for its result in this round."))
            return
        time_called = self.time_called.isChecked()
        for g in pending:
            if self.desk.run(lambda g=g: collect(self.desk.store, self.desk.matches, self.desk.tid, self.round_no,
                                                 g["table_no"], time_called)) is None and self.desk.message.isVisible():
                break
        self.desk.refresh()
        self.refresh()

    def record(self) -> None:
        """The points typed, as the result of the game they were typed for (`entry_game`)."""
        game = self.entry_game
        if game is None:
            self.desk.show_message(_("Choose a table in the list first."))
            return
        table = game["table_no"]
        score = [self.first_points.value(), self.second_points.value()]
        if BLANK in score:
            self.desk.show_message(_("Type both players' points first."))
            (self.first_points if score[0] == BLANK else self.second_points).setFocus()
            return
        if self._ghost_game(table):
            self.desk.show_message(_("The ghost's game is not played: it is always {a}–{b}.").format(
                a=self.desk.store.ffc.ghost_score[0], b=self.desk.store.ffc.ghost_score[1]))
            return
        if self.round_no == FINAL and score[0] == score[1]:
            self.desk.show_message(_("The final is played to {points} points: it cannot end level.").format(
                points=self.desk.store.ffc.final_points))
            return
        t = self.desk.store.load(self.desk.tid)
        locked = self.round_no == FINAL or len(t.rounds) > self.round_no or t.final is not None
        if locked and self.round_no != FINAL:
            reason = self.reason_edit.text().strip()
            if not reason:
                self.desk.show_message(_("The next round is already paired: this result can only be changed by a "
                                         "correction. Type its reason first."))
                self.reason_edit.setFocus()
                return
            done = self._write_result(table, score, reason)
            if done is not None:
                self.reason_edit.clear()
        else:
            self._write_result(table, score, None)
        shown = self.desk.message.isVisible() and self.desk.message.text()
        typed = score if shown else None   # refused: the points stay as typed, to be put right
        self.desk.refresh()
        if shown:
            self.desk.show_message(shown)
        self.refresh()
        self.entry_game = None   # shown afresh: its new result, or the points refused
        self.select_table(table)
        self._selection_changed()
        if typed is not None and self.entry_game is not None and self.entry_game["id"] == game["id"]:
            self.first_points.setValue(typed[0])
            self.second_points.setValue(typed[1])

    def _write_result(self, table: int, score: list, reason: str | None):
        """The result typed at the desk, over the version of the game the desk was shown: when another
        machine gave this table's result meanwhile, both are shown and the desk chooses."""
        store, tid, round_no = self.desk.store, self.desk.tid, self.round_no

        def write(version):
            if reason is not None:
                return store.correct(tid, round_no, table, score, reason, expected_version=version)
            return store.result(tid, round_no, table, score, expected_version=version) or True

        shown_table, version = self.typed_over
        try:
            return self.desk.run(lambda: write(version if shown_table == table else None))
        except VersionConflict as exc:
            theirs = exc.theirs or {}
            labels = {"points": _("Points"), "entered_at": _("Entered at")}
            choice = conflict_dialog.ask_conflict(
                self, _("The result of table {n}").format(n=table), {"points": score, "entered_at": ""},
                {"points": theirs.get("score"), "entered_at": theirs.get("entered_at")}, labels)
            if choice == conflict_dialog.KEEP_MINE:
                return self.desk.run(lambda: write(theirs.get("version")))
            return None   # theirs stays, and the refresh that follows shows it

    def _ghost_game(self, table: int) -> bool:
        game = next((g for g in self.games() if g["table_no"] == table), None)
        return game is not None and None in (game["first"], game["second"])

    def print_pairings(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self, _("Save the pairings as PDF"),
                                                    # TRANSLATORS: a file name: lower case, hyphens, no spaces
                                                    _("pairings-{round}").format(round=self.round_no) + ".pdf",
                                                    "PDF (*.pdf)")
        if path:
            def write():
                from referee_app.printing.pdf import write_pdf

                html, title = documents.pairings_document(self.desk.store.meta(self.desk.tid)["name"], self.round_no,
                                                          self.games(), current_language())
                return write_pdf(html, path, title)

            self.desk.run(write)

    def print_score_sheets(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Choose the folder for the score sheets (one PDF per table)"))
        if folder:
            meta = self.desk.store.meta(self.desk.tid)

            def write():
                from pathlib import Path

                from referee_app.printing.pdf import write_pdf

                Path(folder).mkdir(parents=True, exist_ok=True)   # the app's own folder; write_pdf never creates one
                return [write_pdf(html, Path(folder) / name, title) for name, html, title in
                        documents.score_sheet_documents(
                            self.desk.store.ffc, meta["name"], self.round_no, self.games(),
                            self.desk.store.knowledge.ruleset_name(meta["ruleset"], current_language()), current_language(),
                            lambda c: self.desk.store.knowledge.clause_label(c, current_language()))]

            written = self.desk.run(write)
            if written:
                self.desk.status.setText(_("{n} score sheets written in {folder}.").format(n=len(written),
                                                                                         folder=folder))

    # --- strings ---------------------------------------------------------------------------
    def _headers(self) -> None:
        self.table.setHorizontalHeaderLabels([_("Table"), _("First"), _("Second"), _("Points (first)"),
                                              _("Points (second)"), _("Score sheet"), _("Status")])

    def retranslate(self) -> None:
        self.round_label.setText(_("Round:"))
        self.round_combo.setAccessibleName(_("Round"))
        self.pair_button.setText(_("Pair the next round"))
        self.pair_button.setToolTip(_("Round 1 is drawn; then each player from the top meets the first player below "
                                      "not yet met ({clause}). After the last round: the final.").format(
            clause=self.desk.store.knowledge.clause_label("ffc-tournament:1.14", current_language())))
        self.close_button.setText(_("Close the round"))
        self.again_button.setText(_("Pair this round again…"))
        self.again_button.setToolTip(_("Before any of its games has begun: after a withdrawal or an absence, the "
                                       "round is paired again; the first pairing and the reason stay in the journal."))
        self.print_button.setText(_("Print the pairings…"))
        self.sheets_button.setText(_("Score sheets (PDF)…"))
        self.open_button.setText(_("Open the table's score sheet"))
        self.time_called.setText(_("Time is up (40 + 5 minutes)"))
        self.time_called.setToolTip(documents.limits_text(
            self.desk.store.ffc, False, current_language(), lambda c: self.desk.store.knowledge.clause_label(c, current_language())))
        self.collect_button.setText(_("Take the results from the score sheets"))
        self.points_label.setText(_("Result typed at the desk:"))
        self.first_points.setAccessibleName(_("Points of the first player"))
        self.second_points.setAccessibleName(_("Points of the second player"))
        self.reason_edit.setPlaceholderText(_("Reason of a correction"))
        self.reason_edit.setAccessibleName(_("Reason of a correction"))
        self.record_button.setText(_("Record the result"))
        self.table.setAccessibleName(_("Pairings"))
        self._headers()
        for i in range(self.round_combo.count()):
            self.round_combo.setItemText(i, documents.round_title(self.round_combo.itemData(i), current_language()))
        if self.desk.tid is not None:
            self._fill()
