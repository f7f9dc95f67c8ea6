"""The score sheet as on paper: one row per board (breaker, winner, points, who covered the
queen, dues), then every stroke, each a double-click away from a correction; print to PDF."""
from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from referee_app.core.play.match import board_rows, timeline
from referee_app.i18n import current_language, format_datetime
from referee_app.i18n import gettext as _
from referee_app.ui.common.pdf import esc, write_pdf


def stroke_summary(stroke: dict) -> str:
    if "tie_breaker" in stroke:
        marks = {side: "".join("✓" if hit else "✗" for hit in stroke["tie_breaker"].get(side, []))
                 for side in ("first", "second")}
        return _("deciding strokes: {a} / {b}").format(a=marks["first"], b=marks["second"])
    p, o = stroke.get("pocketed") or {}, stroke.get("off_board") or {}
    parts = []
    if p.get("own"):
        parts.append(_("{n} own").format(n=p["own"]))
    if p.get("opponent"):
        parts.append(_("{n} opponent's").format(n=p["opponent"]))
    if p.get("queen"):
        parts.append(_("queen"))
    if p.get("striker"):
        parts.append(_("striker"))
    off = [str(o[k]) if isinstance(o.get(k), int) and o.get(k) else k for k in ("own", "opponent", "queen", "striker")
           if o.get(k)]
    if off:
        parts.append(_("off the board: {what}").format(what=", ".join(off)))
    if stroke.get("foul"):
        parts.append(_("foul: {id}").format(id=stroke["foul"]))
    if stroke.get("touched_coin") is False:
        parts.append(_("no coin touched"))
    return ", ".join(parts) if parts else _("nothing pocketed")


class ScoreSheetView(QWidget):
    correct_stroke = Signal(int)  # 1-based stroke number

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("scoresheet_view")
        self.boards = QTableWidget(0, 7, objectName="scoresheet_boards")
        self.strokes = QTableWidget(0, 5, objectName="scoresheet_strokes")
        for table in (self.boards, self.strokes):
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            table.verticalHeader().hide()
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            table.horizontalHeader().setStretchLastSection(True)
        self.strokes.itemActivated.connect(lambda item: self.correct_stroke.emit(item.row() + 1))
        self.strokes_label = QLabel()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.boards, 2)
        layout.addWidget(self.strokes_label)
        layout.addWidget(self.strokes, 3)
        self._data = ("icf", False, [], ("", ""))
        self.retranslate()

    def show_match(self, ruleset: str, doubles: bool, strokes: list, names: tuple[str, str]) -> None:
        self._data = (ruleset, doubles, list(strokes), names)
        self._set_headers()
        self._fill()

    def _name(self, side: str | None) -> str:
        names = self._data[3]
        if side is None:
            return ""
        return (names[0] if side == "first" else names[1]) or (_("First") if side == "first" else _("Second"))

    def _fill(self) -> None:
        ruleset, doubles, strokes, _names = self._data
        rows = board_rows(ruleset, doubles, strokes)
        self.boards.setRowCount(len(rows))
        for i, row in enumerate(rows):
            values = [f"{row['game']}.{row['board']}", self._name(row["breaker"]), self._name(row["winner"]),
                      str(row["points"]["first"]), str(row["points"]["second"]), self._name(row["queen"]),
                      ", ".join(f"{self._name(s)}: {n}" for s, n in row["dues"].items() if n)]
            for j, v in enumerate(values):
                self.boards.setItem(i, j, QTableWidgetItem(v))
        entries = timeline(ruleset, doubles, strokes)
        self.strokes.setRowCount(len(entries))
        lang = current_language()
        for i, e in enumerate(entries):
            values = [str(e["n"]), f"{e['game']}.{e['board']}", self._name(e["side"]), stroke_summary(e["stroke"]),
                      e["ruling"]["explanation"].get(lang, e["ruling"]["explanation"]["en"])]
            for j, v in enumerate(values):
                item = QTableWidgetItem(v)
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
                                                _("Ruling")])

    def html(self, meta: dict) -> str:
        ruleset, doubles, strokes, names = self._data
        rows = board_rows(ruleset, doubles, strokes)
        head = "".join(f"<th>{esc(self.boards.horizontalHeaderItem(j).text())}</th>" for j in range(7))
        body = "".join("<tr>" + "".join(f"<td>{esc(self.boards.item(i, j).text())}</td>" for j in range(7)) + "</tr>"
                       for i in range(len(rows)))
        total = {s: sum(r["points"][s] for r in rows) for s in ("first", "second")}
        info = [(_("Tournament"), meta.get("tournament", "")), (_("Round"), meta.get("round", "")),
                (_("Table"), meta.get("table_no", "")), (_("Referee"), meta.get("referee", "")),
                (_("Ruleset"), ruleset), (_("Printed"), format_datetime(datetime.now()))]
        return (f"<h2>{esc(_('Score sheet'))}: {esc(self._name('first'))} – {esc(self._name('second'))}</h2>"
                + "".join(f"<p><b>{esc(k)}:</b> {esc(v)}</p>" for k, v in info if v)
                + f"<table border='1' cellpadding='4' cellspacing='0'><tr>{head}</tr>{body}</table>"
                + f"<p><b>{esc(_('Total'))}:</b> {esc(self._name('first'))} {total['first']}, "
                  f"{esc(self._name('second'))} {total['second']}</p>"
                + f"<p><br>{esc(_('Referee signature'))}: ______________________</p>")

    def save_pdf(self, path: str, meta: dict) -> None:
        write_pdf(self.html(meta), path, _("Score sheet"))
