"""The live standings: every criterion in its column, in the FFC's order (victories, Bucholz,
difference: ffc-tournament:1.9-1.12), the final once played, the project's documented choices
where the text is silent, and a full-screen view in large type for the players' screen."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.core.errors import BadInput
from referee_app.core.tournament.standings import current
from referee_app.i18n import gettext as _
from referee_app.ui.retranslate import follow_language

COLUMNS = ("rank", "player", "victories", "bucholz", "difference", "played")


def headers() -> list[str]:
    return [_("Rank"), _("Player"), _("Victories"), _("Bucholz"), _("Difference"), _("Played")]


def fill(table: QTableWidget, rows: list[dict], opponents: dict | None = None) -> None:
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
    table.setHorizontalHeaderLabels(headers() + ([_("Playing now")] if opponents is not None else []))


def standings_table(name: str, opponents: bool = False) -> QTableWidget:
    table = QTableWidget(0, len(COLUMNS) + int(opponents), objectName=name)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
    return table


class StandingsView(QWidget):
    def __init__(self, desk, parent=None):
        super().__init__(parent)
        self.setObjectName("tournament_standings")
        self.desk = desk
        self.rows: list[dict] = []
        self.title = QLabel(objectName="standings_title")
        self.fullscreen_button = QPushButton(objectName="standings_fullscreen")
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.fullscreen_button)
        self.table = standings_table("standings_table", opponents=True)
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
                self.desk.show_message(str(exc))
        fill(self.table, self.rows, self.opponents)
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

    def show_full_screen(self) -> None:
        if self.screen_view is None:
            self.screen_view = FullScreenStandings(self)   # a window of its own, deleted with the view
        self.screen_view.show_rows(self.rows, self.title.text())
        self.screen_view.showFullScreen()

    def retranslate(self) -> None:
        lang = i18n.current_language()
        self.fullscreen_button.setText(_("Full screen for the players"))
        self.fullscreen_button.setToolTip(_("Large standings on a second screen; Esc closes them"))
        self.table.setAccessibleName(_("Standings"))
        self.table.setHorizontalHeaderLabels(headers() + [_("Playing now")])
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
