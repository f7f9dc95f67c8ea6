"""The same stroke under every ruleset, side by side, differences marked: the question organisers
ask when they choose the rules of an event."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QDialog, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout

from referee_app.core.rules import colours
from referee_app.core.rules.compare import rule_everywhere
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui import theme
from .ruling_view import queen_text
from referee_app.ui.common.accessible import name as accessible_name
from .citation import human_citation


def rulings_for_all(knowledge, situation: dict) -> dict[str, dict | str]:
    """Each ruleset's ruling for the situation, or the reason it cannot rule it (rule_everywhere).

    A stroke ticked while the colours are open is ruled so by the rulesets whose first coin sets
    the colours; the others see it with the striking side playing the colour those gave it."""
    return {r["ruleset"]: r.get("refused") or r for r in rule_everywhere(knowledge, situation, open_as_set=True)}


ROWS = 8


def _colour(knowledge, ruling: dict, ruleset: str) -> str:
    after = ruling["after"]
    if after.get("colours") == "open":
        return _("not yet decided")
    if "striker_colour" in after:
        return _("striker: {colour}").format(colour=colours.colour_name(knowledge.colours(ruleset), after["striker_colour"],
                                                                         current_language()))
    return ""


def _rows(knowledge, ruling, ruleset: str = "") -> list[str]:
    if isinstance(ruling, str):
        return [ruling] + [""] * (ROWS - 1)
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
        _colour(knowledge, ruling, ruleset),
        ", ".join(human_citation(knowledge.kb, c) for c in ruling["clauses"]),   # as people cite them
    ]


class CompareDialog(QDialog):
    """`reference`: the ruleset the others are compared with (the one being played); without
    it, a cell is marked where it differs from what most rulesets say."""

    def __init__(self, knowledge, situation: dict, parent=None, reference: str | None = None):
        super().__init__(parent)
        self.knowledge = knowledge
        self.setObjectName("compare_dialog")
        self.situation = situation
        self.reference = reference
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.table = QTableWidget(ROWS, 0, objectName="compare_table")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table)
        self.resize(900, 420)
        self.rulings = rulings_for_all(knowledge, situation)
        self.retranslate()

    def columns(self) -> list[list[str]]:
        return [_rows(self.knowledge, r, rid) for rid, r in self.rulings.items()]

    def differing(self) -> set[tuple[int, int]]:
        """(row, column) cells whose value is not the reference ruleset's, or not the one most
        rulesets give. The clauses row always differs between texts and is not marked."""
        cols = self.columns()
        ids = list(self.rulings)
        out = set()
        for i in range(ROWS - 1):
            values = [c[i] for c in cols]
            common = (values[ids.index(self.reference)] if self.reference in ids
                      else max(sorted(set(values)), key=values.count))
            out |= {(i, j) for j, v in enumerate(values) if v != common}
        return out

    def retranslate(self) -> None:
        self.setWindowTitle(_("Compare rulesets"))
        accessible_name(self.table, _("The stroke under every ruleset"), _("One column per ruleset, one row per part of the ruling"))
        names = [self.knowledge.ruleset_name(rid, current_language()) for rid in self.rulings]
        if self.reference in self.rulings:
            ref = self.knowledge.ruleset_name(self.reference, current_language())
            self.note.setText(_("The same stroke under every ruleset. Marked cells differ from {ruleset}, the "
                                "ruleset being played.").format(ruleset=ref))
            names = [n + (" ★" if rid == self.reference else "") for rid, n in zip(self.rulings, names)]
        else:
            ref = None
            self.note.setText(_("The same stroke under every ruleset. Marked cells differ from what most rulesets "
                                "say."))
        self.table.setColumnCount(len(names))
        self.table.setHorizontalHeaderLabels(names)
        self.table.setVerticalHeaderLabels([_("Turn"), _("Back to the centre"), _("Coins on the board (own / opponent)"),
                                            _("Queen"), _("Dues (own / opponent)"), _("Board"), _("Colours"),
                                            _("Clauses")])
        marked = self.differing()
        bold = QFont(self.font())
        bold.setBold(True)
        for j, column in enumerate(self.columns()):
            for i, text in enumerate(column):
                item = QTableWidgetItem(text)
                if (i, j) in marked:
                    item.setBackground(QBrush(QColor(theme.colors().mark_bg)))
                    item.setFont(bold)
                    item.setToolTip(_("Differs from {ruleset}").format(ruleset=ref) if ref
                                    else _("Differs from most rulesets"))
                    item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, item.toolTip())
                self.table.setItem(i, j, item)
        self.table.resizeRowsToContents()
