"""The score sheet as on paper: one row per board (breaker, winner, points, who covered the
queen, dues), then every stroke, each a double-click away from a correction; print to PDF."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from referee_app.core.play.match import rows_of, timeline
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from .citation import clause_tooltip, human_citation


class ScoreSheetView(QWidget):
    correct_stroke = Signal(int)  # 1-based stroke number

    def __init__(self, knowledge, parent=None):
        super().__init__(parent)
        self.setObjectName("scoresheet_view")
        self.boards = QTableWidget(0, 7, objectName="scoresheet_boards")
        self.strokes = QTableWidget(0, 6, objectName="scoresheet_strokes")
        for table in (self.boards, self.strokes):
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            table.verticalHeader().hide()
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            table.horizontalHeader().setStretchLastSection(True)
        # the sheet keeps to its column of the screen: what happened and the ruling share the
        # width left, the clauses keep their own column; a long cell wraps onto more lines
        # rather than ending in "…" (each is also whole in its tooltip)
        header = self.strokes.horizontalHeader()
        header.setStretchLastSection(False)
        for j in (3, 4):
            header.setSectionResizeMode(j, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(5, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(5, 90)
        self.strokes.setWordWrap(True)
        self.strokes.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.boards.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.strokes.itemActivated.connect(lambda item: self.correct_stroke.emit(item.row() + 1))
        self.strokes_label = QLabel()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.boards, 1)
        layout.addWidget(self.strokes_label)
        layout.addWidget(self.strokes, 2)
        self.knowledge = knowledge
        self._data = (knowledge.default_ruleset, False, [], ("", ""))
        self._corrected: set[int] = set()
        self.retranslate()

    def show_match(self, ruleset: str, doubles: bool, strokes: list, names: tuple[str, str],
                   corrected=()) -> None:
        """`corrected`: the 1-based strokes a correction replaced after they were recorded."""
        self._data = (ruleset, doubles, list(strokes), names)
        self._corrected = set(corrected)
        self._set_headers()
        self._fill()

    def _name(self, side: str | None) -> str:
        names = self._data[3]
        if side is None:
            return ""
        return (names[0] if side == "first" else names[1]) or (_("First") if side == "first" else _("Second"))

    def _fill(self) -> None:
        ruleset, doubles, strokes, _names = self._data
        entries = timeline(self.knowledge, ruleset, doubles, strokes)   # the match replayed once for both tables
        rows = rows_of(entries)
        self.boards.setRowCount(len(rows))
        for i, row in enumerate(rows):
            values = [f"{row['game']}.{row['board']}", self._name(row["breaker"]), self._name(row["winner"]),
                      str(row["points"]["first"]), str(row["points"]["second"]), self._name(row["queen"]),
                      ", ".join(f"{self._name(s)}: {n}" for s, n in row["dues"].items() if n)]
            for j, v in enumerate(values):
                self.boards.setItem(i, j, QTableWidgetItem(v))
        self.strokes.setRowCount(len(entries))
        if entries:   # the sheet's wording is not imported for the empty sheet of the first paint
            from referee_app.core.play.sheet_document import explanation, stroke_summary
        lang = current_language()
        for i, e in enumerate(entries):
            clauses = e["ruling"].get("clauses", [])
            values = [str(e["n"]), f"{e['game']}.{e['board']}", self._name(e["side"]),
                      stroke_summary(self.knowledge, e["stroke"], ruleset, lang),
                      explanation(e["ruling"], lang),
                      ", ".join(human_citation(self.knowledge.kb, c) for c in clauses)]
            fixed = e["n"] in self._corrected
            if fixed:
                values[0] += " ✎"
            for j, v in enumerate(values):
                item = QTableWidgetItem(v)
                if fixed and j == 0:
                    item.setToolTip(_("Corrected after it was recorded"))
                    font = item.font()
                    font.setItalic(True)
                    item.setFont(font)
                elif j == 5 and clauses:
                    item.setToolTip("".join(clause_tooltip(self.knowledge.kb, c) for c in clauses))
                elif j in (3, 4):
                    item.setToolTip(v + "\n\n" + _("Double-click or press Enter to correct this stroke"))
                else:
                    item.setToolTip(_("Double-click or press Enter to correct this stroke"))
                self.strokes.setItem(i, j, item)
        if entries:
            self.strokes.scrollToBottom()

    def retranslate(self) -> None:
        self._set_headers()
        self.strokes_label.setText(_("Strokes (double-click one to correct it)"))
        self._fill()

    def _set_headers(self) -> None:
        names = self._data[3]
        self.boards.setHorizontalHeaderLabels([
            _("Board"), _("Break"), _("Winner"), names[0] or _("First"), names[1] or _("Second"),
            _("Queen covered by"), _("Dues")])
        self.strokes.setHorizontalHeaderLabels([_("Stroke"), _("Board"), _("Played by"), _("What happened"),
                                                _("Ruling"), _("Clauses")])

    def html(self, meta: dict) -> str:
        ruleset, doubles, strokes, names = self._data
        meta = {**meta, "ruleset": ruleset, "doubles": doubles, "first_name": names[0], "second_name": names[1]}
        from referee_app.core.play.sheet_document import sheet_html

        return sheet_html(self.knowledge, meta, strokes, current_language(), meta.get("events"))[0]

    def save_pdf(self, path: str, meta: dict) -> None:
        from referee_app.printing.pdf import write_pdf

        write_pdf(self.html(meta), path, _("Score sheet"))
