"""The ruling at a glance: who plays, what goes back, the queen, dues, the result, the clauses.

Clause ids are links (`open_clause`), so a referee reaches the paragraph in one click.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui import theme


class RulingView(QWidget):
    open_clause = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("ruling_view")
        self.headline = QLabel(objectName="ruling_headline")
        font = self.headline.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.headline.setFont(font)
        self.headline.setWordWrap(True)
        self.details = QLabel(objectName="ruling_details")
        self.details.setWordWrap(True)
        self.details.setTextFormat(self.details.textFormat().RichText)
        self.details.linkActivated.connect(lambda href: self.open_clause.emit(href.removeprefix("clause:")))
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.details)
        layout.addStretch(1)
        self._ruling = None
        self._error = None
        self._sides = None

    def show_ruling(self, ruling: dict, sides: tuple[str, str] | None = None) -> None:
        """`sides`: the names of the striking side and of its opponent, when the sheet knows them."""
        self._ruling, self._error, self._sides = ruling, None, sides
        self.retranslate()

    def show_error(self, message: str) -> None:
        self._ruling, self._error = None, message
        self.retranslate()

    def retranslate(self) -> None:
        c = theme.colors()
        if self._error is not None:
            self.headline.setText(_("Cannot rule this stroke"))
            self.details.setText(f"<p style='color:{c.accent}'>{html.escape(self._error)}</p>")
            return
        r = self._ruling
        if r is None:
            self.headline.setText(_("Tick what happened in the stroke"))
            self.details.setText("")
            return
        striker, opponent = self._sides or (_("The striking side"), _("The opponent"))
        board = r["board"]
        if board["over"]:
            winner = striker if board["winner"] == "striker" else opponent
            self.headline.setText(_("Board over: {winner} wins {points} to {other}").format(
                winner=winner, points=board["points"][board["winner"]],
                other=board["points"]["opponent" if board["winner"] == "striker" else "striker"]))
        elif r["turn"] == "continues":
            self.headline.setText(_("{side} plays again").format(side=striker))
        else:
            self.headline.setText(_("Turn passes to {side}").format(side=opponent))
        rows = []
        ret = r["returned"]
        back = []
        if ret["queen"]:
            back.append(_("the queen"))
        if ret["own"]:
            back.append(_("{n} coin(s) of {side}").format(n=ret["own"], side=striker))
        if ret["opponent"]:
            back.append(_("{n} coin(s) of {side}").format(n=ret["opponent"], side=opponent))
        if not board["over"]:
            rows.append((_("Back to the centre"), ", ".join(back) if back else _("nothing")))
            after = r["after"]
            rows.append((_("On the board"), _("{own} of {side}, {opp} of {other}").format(
                own=after["own_on_board"], side=striker, opp=after["opponent_on_board"], other=opponent)))
            rows.append((_("Queen"), queen_text(after["queen"], striker, opponent)))
            if after["dues"] or after["opponent_dues"]:
                rows.append((_("Dues"), _("{side} owes {n}").format(side=striker, n=after["dues"])
                             if after["dues"] else _("{side} owes {n}").format(side=opponent, n=after["opponent_dues"])))
        if not r.get("break_made", True):
            rows.append((_("Break"), _("not made")))
        lang = current_language()
        rows.append((_("Why"), r["explanation"].get(lang) or r["explanation"]["en"]))
        links = ", ".join(f"<a href='clause:{html.escape(cid)}' style='color:{c.link}'>{html.escape(cid)}</a>"
                          for cid in r["clauses"])
        body = "".join(f"<tr><td style='color:{c.muted};padding-right:12px'>{html.escape(k)}</td>"
                       f"<td>{html.escape(v)}</td></tr>" for k, v in rows)
        body += f"<tr><td style='color:{c.muted};padding-right:12px'>{html.escape(_('Clauses'))}</td><td>{links}</td></tr>"
        notes = "".join(f"<p style='background:{c.mark_bg};padding:4px'>{html.escape(_('Note'))} "
                        f"({html.escape(n['clause'])}): {html.escape(n.get(lang) or n.get('en', ''))}</p>"
                        for n in r.get("notes", []))
        self.details.setText(f"<table>{body}</table>{notes}")


def queen_text(state: str, striker: str, opponent: str) -> str:
    return {
        "on_board": _("on the board"),
        "awaiting_cover": _("to be covered by {side} with the next stroke").format(side=striker),
        "covered_by_striker": _("covered by {side}").format(side=striker),
        "covered_by_opponent": _("covered by {side}").format(side=opponent),
    }[state]
