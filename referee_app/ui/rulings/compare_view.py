"""The same stroke under every ruleset, side by side, differences marked: the question organisers
ask when they choose the rules of an event."""
from __future__ import annotations

from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QDialog, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout

from referee_app.core.rules.engine import Conflict, NoRule
from referee_app.core.errors import BadInput
from referee_app.core.knowledge.rulesets import default_rulesets
from referee_app.core.rules.ruling import rule
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui import theme
from .ruling_view import queen_text


def rulings_for_all(situation: dict) -> dict[str, dict | str]:
    """Each ruleset's ruling for the situation, or the reason it cannot rule it."""
    out = {}
    for rid in default_rulesets():
        doc = {k: v for k, v in situation.items() if k != "ruleset"}
        try:
            out[rid] = rule(doc, rid)
        except (BadInput, NoRule, Conflict) as exc:
            out[rid] = str(exc)
    return out


def _rows(ruling) -> list[str]:
    if isinstance(ruling, str):
        return [ruling] + [""] * 6
    s, o = _("striker"), _("opponent")
    b, a, r = ruling["board"], ruling["after"], ruling["returned"]
    back = [x for x in (_("queen") if r["queen"] else "", _("{n} own").format(n=r["own"]) if r["own"] else "",
                        _("{n} opponent's").format(n=r["opponent"]) if r["opponent"] else "") if x]
    result = (_("{winner} wins {a}–{b}").format(winner=s if b["winner"] == "striker" else o,
                                               a=b["points"]["striker"], b=b["points"]["opponent"])
              if b["over"] else _("goes on"))
    return [
        "" if b["over"] else (_("continues") if ruling["turn"] == "continues" else _("passes")),
        ", ".join(back) or _("nothing"),
        f"{a['own_on_board']} / {a['opponent_on_board']}",
        queen_text(a["queen"], s, o),
        f"{a['dues']} / {a['opponent_dues']}",
        result,
        ", ".join(ruling["clauses"]),
    ]


class CompareDialog(QDialog):
    def __init__(self, situation: dict, parent=None):
        super().__init__(parent)
        self.setObjectName("compare_dialog")
        self.situation = situation
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.table = QTableWidget(7, 0, objectName="compare_table")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table)
        self.resize(900, 420)
        self.rulings = rulings_for_all(situation)
        self.retranslate()

    def differing(self) -> set[tuple[int, int]]:
        """(row, column) cells whose value is not the one most rulesets give."""
        cols = [_rows(r) for r in self.rulings.values()]
        out = set()
        for i in range(7):
            values = [c[i] for c in cols]
            common = max(set(values), key=values.count)
            out |= {(i, j) for j, v in enumerate(values) if v != common}
        return out

    def retranslate(self) -> None:
        self.setWindowTitle(_("Compare rulesets"))
        self.note.setText(_("The same stroke under every ruleset. Marked cells differ from what most rulesets say."))
        names = [default_rulesets()[rid].name.get(current_language(), rid) for rid in self.rulings]
        self.table.setColumnCount(len(names))
        self.table.setHorizontalHeaderLabels(names)
        self.table.setVerticalHeaderLabels([_("Turn"), _("Back to the centre"), _("Coins on the board (own / opponent)"),
                                            _("Queen"), _("Dues (own / opponent)"), _("Board"), _("Clauses")])
        marked = self.differing()
        bold = QFont(self.font())
        bold.setBold(True)
        for j, ruling in enumerate(self.rulings.values()):
            for i, text in enumerate(_rows(ruling)):
                item = QTableWidgetItem(text)
                if (i, j) in marked:
                    item.setBackground(QBrush(QColor(theme.colors().mark_bg)))
                    item.setFont(bold)
                    item.setToolTip(_("Differs from most rulesets"))
                self.table.setItem(i, j, item)
        self.table.resizeRowsToContents()
