"""The live standings: every criterion in its column, in the FFC's order (victories, Bucholz,
difference: ffc-tournament:1.9-1.12), the final once played, the project's documented choices
where the text is silent, and a full-screen view in large type for the players' screen."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractItemView, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.core.errors import BadInput
from referee_app.core.tournament import documents
from referee_app.core.tournament.standings import current
from referee_app.i18n import gettext as _
from referee_app.ui.common.tables import keep_rows
from referee_app.ui.retranslate import follow_language

COLUMNS = ("rank", "player", "victories", "bucholz", "difference", "played")


def headers() -> list[str]:
    return documents.standings_headers(i18n.current_language())


def fill(table: QTableWidget, rows: list[dict], opponents: dict | None = None, ffc=None) -> None:
    """The standings; with `opponents` (the desk's table), each player's opponent and table in the
    round being played, in a last column (as SoL's desk shows it)."""
    table.setRowCount(len(rows))
    for i, row in enumerate(rows):
        for j, key in enumerate(COLUMNS):
            item = QTableWidgetItem(str(row[key]))
            if key != "player":
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            table.setItem(i, j, item)
        if opponents is not None:
            now = opponents.get(row["player"])
            text = "" if now is None else _("{opponent} (table {table})").format(
                opponent=now["opponent"] if now["opponent"] is not None else _("the ghost"), table=now["table"])
            table.setItem(i, len(COLUMNS), QTableWidgetItem(text))
    set_headers(table, opponents is not None, ffc)


def set_headers(table: QTableWidget, opponents: bool, ffc=None) -> None:
    """The column titles; the wins column says in its tooltip what a victory point is, and why."""
    table.setHorizontalHeaderLabels(headers() + ([_("Playing now")] if opponents else []))
    if ffc is not None:
        table.horizontalHeaderItem(COLUMNS.index("victories")).setToolTip(
            documents.victory_points_text(ffc, i18n.current_language()))


def standings_table(name: str, opponents: bool = False) -> QTableWidget:
    table = QTableWidget(0, len(COLUMNS) + int(opponents), objectName=name)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    header = table.horizontalHeader()
    # every title whole ("Bucholz", not "uchhol"), in large type and on the players' screen too
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    return table


class StandingsView(QWidget):
    def __init__(self, desk, parent=None):
        super().__init__(parent)
        self.setObjectName("tournament_standings")
        self.desk = desk
        self.rows: list[dict] = []
        self.title = QLabel(objectName="standings_title")
        self.fullscreen_button = QPushButton(objectName="standings_fullscreen")
        self.export_button = QPushButton(objectName="standings_export")
        self.print_button = QPushButton(objectName="standings_print")
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.print_button)
        top.addWidget(self.export_button)
        top.addWidget(self.fullscreen_button)
        self.table = keep_rows(standings_table("standings_table", opponents=True), 4)
        self.opponents: dict = {}
        self.final_label = QLabel(objectName="final_label")
        self.final_label.setWordWrap(True)
        self.choices = QLabel(objectName="tournament_choices")
        self.choices.setWordWrap(True)
        self.choices.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.final_label)
        layout.addWidget(self.choices)
        self.screen_view: FullScreenStandings | None = None
        self.fullscreen_button.clicked.connect(self.show_full_screen)
        self.export_button.clicked.connect(self.export)
        self.print_button.clicked.connect(self.print_standings)
        follow_language(self)
        self.retranslate()

    def refresh(self) -> None:
        self.rows, t, self.opponents = [], None, {}
        if self.desk.tid is not None:
            t = self.desk.store.load(self.desk.tid)
            try:
                self.rows = [r.to_doc() for r in current(t)] if t.players else []
                self.opponents = self.desk.store.opponents_now(self.desk.tid)
            except BadInput as exc:
                self.desk.show_message(self.desk.refusal(exc))
        fill(self.table, self.rows, self.opponents, self.desk.store.ffc)
        self._texts(t)
        if self.screen_view is not None:
            self.screen_view.show_rows(self.rows, self.title.text())

    def _texts(self, t=None) -> None:
        if t is None and self.desk.tid is not None:
            t = self.desk.store.load(self.desk.tid)
        done = sum(1 for rnd in t.rounds if all(g.done for g in rnd)) if t is not None else 0
        self.title.setText(_("Standings after round {n}").format(n=done) if done else _("Standings"))
        final = ""
        if t is not None and t.final is not None:
            a, b = t.final.players()
            if t.final.done:
                final = _("Final: {a} {sa} – {sb} {b}. The winner is first ({clause}).").format(
                    a=a, b=b, sa=t.final.score[0], sb=t.final.score[1],
                    clause=self.desk.store.knowledge.clause_label("ffc-tournament:1.16", i18n.current_language()))
            else:
                final = _("Final: {a} – {b}, to be played.").format(a=a, b=b)
        self.final_label.setText(final)
        self.final_label.setVisible(bool(final))

    def export(self) -> None:
        """The standings and results as files, as `carrom-referee tournament export` writes them."""
        if self.desk.tid is None:
            self.desk.show_message(_("Create a tournament first."))
            return
        kinds = {_("Standings (CSV)") + " (*.csv)": ("standings.csv", ".csv"),
                 _("Results (CSV)") + " (*.csv)": ("results.csv", ".csv"),
                 _("Ranking file (text)") + " (*.txt)": ("text", ".txt")}
        path, chosen = QFileDialog.getSaveFileName(self, _("Export the standings"), _("standings") + ".csv",
                                                   ";;".join(kinds))
        if not path:
            return
        kind, suffix = kinds.get(chosen, ("standings.csv", ".csv"))
        if "." not in path.rsplit("/", 1)[-1]:
            path += suffix

        def write():
            from referee_app.core.storage import files
            from referee_app.core.tournament import export

            t = self.desk.store.load(self.desk.tid)
            text = {"standings.csv": lambda: export.standings_csv(t), "results.csv": lambda: export.results_csv(t),
                    "text": lambda: export.to_text(t, self.desk.store.meta(self.desk.tid)["created_at"][:10])}[kind]()
            files.write_text(path, text, "file")
            return path

        if self.desk.run(write):
            self.desk.status.setText(_("Written: {path}").format(path=path))

    def print_standings(self) -> None:
        if self.desk.tid is None:
            self.desk.show_message(_("Create a tournament first."))
            return
        path, _filter = QFileDialog.getSaveFileName(self, _("Save the standings as PDF"), _("standings") + ".pdf",
                                                    "PDF (*.pdf)")
        if path:
            def write():
                from referee_app.printing.pdf import write_pdf

                html, title = documents.standings_document(self.desk.store.ffc, self.desk.store.meta(self.desk.tid)["name"],
                                                           self.title.text(), self.rows, i18n.current_language())
                return write_pdf(html, path, title)

            if self.desk.run(write):
                self.desk.status.setText(_("Written: {path}").format(path=path))

    def show_full_screen(self) -> None:
        if self.screen_view is None:
            self.screen_view = FullScreenStandings(self)   # a window of its own, deleted with the view
        self.screen_view.show_rows(self.rows, self.title.text())
        self.screen_view.showFullScreen()

    def retranslate(self) -> None:
        lang = i18n.current_language()
        self.fullscreen_button.setText(_("Full screen for the players"))
        self.export_button.setText(_("Export…"))
        self.export_button.setToolTip(_("The standings or the results as CSV, or the plain-text ranking file"))
        self.print_button.setText(_("Print the standings…"))
        self.fullscreen_button.setToolTip(_("Large standings on a second screen; Esc closes them"))
        self.table.setAccessibleName(_("Standings"))
        set_headers(self.table, True, self.desk.store.ffc)
        self.choices.setText(_("Where the federation's text is silent:") + "\n" + "\n".join(
            f"• {c[lang]} ({self.desk.store.knowledge.clause_label(c['clause'], lang)})" for c in self.desk.store.ffc.choices))
        if self.desk.tid is not None:
            self._texts()
            if self.screen_view is not None:
                self.screen_view.show_rows(self.rows, self.title.text())
        else:
            self.title.setText(_("Standings"))
            self.final_label.hide()


class FullScreenStandings(QWidget):
    """The standings in large type for the players, alone on a screen; Esc closes it."""

    def __init__(self, parent=None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("standings_screen")
        self.heading = QLabel(objectName="standings_screen_title")
        self.heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.table = standings_table("standings_screen_table")
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 2.2)
        self.table.setFont(font)
        self.table.horizontalHeader().setFont(font)
        big = self.font()
        big.setPointSizeF(big.pointSizeF() * 3)
        big.setBold(True)
        self.heading.setFont(big)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.table, 1)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.close)

    def show_rows(self, rows: list[dict], title: str) -> None:
        self.heading.setText(title)
        self.setWindowTitle(title)
        fill(self.table, rows)
        self.table.resizeRowsToContents()
