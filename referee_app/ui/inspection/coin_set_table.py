"""The form of a set of coins: a table, one coin per row (its colour, whether it is a spare, its
readings and their verdict), and the counts of each colour against the complete set.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.core.inspection import wording as fmt
from referee_app.core.inspection.verdict import ReadingRefused, check_measurement
from referee_app.core.inspection.entry import EntryError, reading_typed, refusal, typed_text, unit_of
from referee_app.core.inspection.model import Item
from referee_app.i18n import gettext as _
from .limit_text import clause_text
from referee_app.ui.common.verdict_style import show_verdict, verdict_colours
from referee_app.ui.common.accessible import name as accessible_name


class CoinSetForm(QWidget):
    """A set of coins: one row per coin (colour, spare, its three readings) and the counts."""

    changed = Signal()
    FIXED = 3   # columns before the measurements: number, colour, spare

    def __init__(self, item: Item, member: Item, parent=None, kb=None):
        super().__init__(parent)
        self.item, self.member = item, member
        self.kb = kb   # the knowledge base its clauses are cited from
        self.setObjectName(f"form_{item.name}")
        self.remeasure: dict[tuple[int, str], int] = {}
        self._loading = False
        layout = QVBoxLayout(self)
        units = QHBoxLayout()
        self.unit_labels, self.units = {}, {}
        for m in member.measurements:
            label = QLabel()
            combo = QComboBox(objectName=f"unit_{m.name}")
            for unit in m.units():
                combo.addItem(unit, unit)
            combo.setCurrentIndex(combo.findData(m.unit))
            combo.currentIndexChanged.connect(lambda _i: self._refresh())
            label.setBuddy(combo)
            self.unit_labels[m.name], self.units[m.name] = label, combo
            units.addWidget(label)
            units.addWidget(combo)
        units.addStretch(1)
        layout.addLayout(units)
        self.table = QTableWidget(0, self.FIXED + len(member.measurements) + 1, objectName="coins_table")
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setMinimumHeight(140)   # the page must fit a 1366x768 laptop; the table scrolls
        self.table.itemChanged.connect(lambda _item: self._refresh())
        layout.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        self.standard_button = QPushButton(objectName="standard_set_button")
        self.standard_button.clicked.connect(self.fill_standard_set)
        self.add_button = QPushButton(objectName="add_coin_button")
        self.add_button.clicked.connect(lambda: self.add_coin(next(iter(item.composition.counts))))
        self.remove_button = QPushButton(objectName="remove_coin_button")
        self.remove_button.clicked.connect(self.remove_selected)
        for b in (self.standard_button, self.add_button, self.remove_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.counts = QLabel(objectName="coin_counts")
        self.counts.setWordWrap(True)
        layout.addWidget(self.counts)

    # -- rows ---------------------------------------------------------------------------------
    def add_coin(self, colour: str, spare: bool = False, readings: dict | None = None) -> int:
        self._loading = True
        try:
            row = self.table.rowCount()
            self.table.insertRow(row)
            number = QTableWidgetItem(str(row + 1))
            number.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.table.setItem(row, 0, number)
            combo = QComboBox()
            for c in self.item.colours:
                combo.addItem(self.item.colour_label(c, i18n.current_language()), c)
            combo.setCurrentIndex(max(0, combo.findData(colour)))
            combo.currentIndexChanged.connect(lambda _i: self._refresh())
            self.table.setCellWidget(row, 1, combo)
            box = QCheckBox()
            box.setChecked(spare)
            box.toggled.connect(lambda _c: self._refresh())
            self.table.setCellWidget(row, 2, box)
            for j, m in enumerate(self.member.measurements):
                self.table.setItem(row, self.FIXED + j, QTableWidgetItem(typed_text((readings or {}).get(m.name), i18n.current_language())))
            verdict = QTableWidgetItem("")
            verdict.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.table.setItem(row, self.table.columnCount() - 1, verdict)
        finally:
            self._loading = False
        self._refresh()
        return row

    def fill_standard_set(self) -> None:
        """One row per coin of the complete set, in the set's colours (knowledge/equipment)."""
        self.clear()
        for colour, n in self.item.composition.counts.items():
            for _i in range(n):
                self.add_coin(colour)

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True) or [self.table.rowCount() - 1]
        for row in rows:
            if row >= 0:
                self.table.removeRow(row)
        self._renumber()
        self._refresh()

    def _renumber(self) -> None:
        for row in range(self.table.rowCount()):
            self.table.item(row, 0).setText(str(row + 1))

    def clear(self) -> None:
        self.table.setRowCount(0)
        self.remeasure = {}
        self._refresh()

    # -- reading ------------------------------------------------------------------------------
    def _coin(self, row: int) -> dict:
        coin = {"colour": self.table.cellWidget(row, 1).currentData()}
        if self.table.cellWidget(row, 2).isChecked():
            coin["spare"] = True
        for j, m in enumerate(self.member.measurements):
            raw = reading_typed(self.table.item(row, self.FIXED + j).text(), self.units[m.name].currentData(),
                                i18n.current_language())
            if raw is not None:
                coin[m.name] = raw
        return coin

    def document(self) -> dict:
        return {"item": self.item.name, "coins": [self._coin(r) for r in range(self.table.rowCount())]}

    def load(self, document: dict, remeasure: dict | None = None) -> None:
        self.clear()
        self.remeasure = dict(remeasure or {})
        for coin in document.get("coins") or []:
            readings = coin.get("measurements", coin)
            colour = self.item.colour_of(coin.get("colour", "")) or next(iter(self.item.colours))
            self.add_coin(colour, bool(coin.get("spare")), readings)
        for m in self.member.measurements:
            first = next((c.get(m.name) for c in document.get("coins") or [] if c.get(m.name)), None)
            if first is not None:
                self.units[m.name].setCurrentIndex(max(0, self.units[m.name].findData(unit_of(first, m.unit))))

    # -- verdicts -----------------------------------------------------------------------------
    def _refresh(self) -> None:
        if self._loading:
            return
        self._loading = True   # colouring cells emits itemChanged
        try:
            ok_c, fail_c, _muted = verdict_colours(self)
            for row in range(self.table.rowCount()):
                problems = []
                for j, m in enumerate(self.member.measurements):
                    cell = self.table.item(row, self.FIXED + j)
                    state, tip = None, ""
                    try:
                        raw = reading_typed(cell.text(), self.units[m.name].currentData(), i18n.current_language())
                        if raw is None:
                            if (row, m.name) in self.remeasure:
                                state, tip = "fail", _("measure again (failed in no. {number})").format(
                                    number=self.remeasure[(row, m.name)])
                                problems.append(m.label_in(i18n.current_language()))
                        else:
                            check = check_measurement(self.member, m, raw)
                            state, tip = ("ok" if check["ok"] else "fail"), fmt.verdict(check, i18n.current_language())
                            if not check["ok"]:
                                problems.append(m.label_in(i18n.current_language()))
                    except (EntryError, ReadingRefused) as exc:
                        state, tip = "fail", f"⚠ {refusal(exc, i18n.current_language())}"
                        problems.append(f"{m.label_in(i18n.current_language())}: {refusal(exc, i18n.current_language())}")
                    if state:
                        tint = QColor(ok_c if state == "ok" else fail_c)
                        tint.setAlpha(70)
                        cell.setBackground(tint)
                    else:
                        cell.setData(Qt.ItemDataRole.BackgroundRole, None)
                    cell.setToolTip(tip)
                verdict = self.table.item(row, self.table.columnCount() - 1)
                verdict.setText(f"{fmt.FAIL_MARK} " + ", ".join(problems) if problems else
                                (f"{fmt.OK_MARK}" if self._row_complete(row) else "—"))
                verdict.setForeground(QColor(fail_c if problems else ok_c))
        finally:
            self._loading = False
        self._show_counts()
        self.changed.emit()

    def _row_complete(self, row: int) -> bool:
        return all(self.table.item(row, self.FIXED + j).text().strip() for j in range(len(self.member.measurements)))

    def _show_counts(self) -> None:
        lang = i18n.current_language()
        counted = [self.table.cellWidget(r, 1).currentData() for r in range(self.table.rowCount())
                   if not self.table.cellWidget(r, 2).isChecked()]
        spares = self.table.rowCount() - len(counted)
        wanted = self.item.composition.counts
        parts = []
        for colour in list(wanted) + sorted(set(counted) - set(wanted)):
            n, want = counted.count(colour), wanted.get(colour, 0)
            mark = fmt.OK_MARK if n == want else fmt.FAIL_MARK
            parts.append(f"{mark} {self.item.colour_label(colour, lang)} {n}/{want}")
        text = " · ".join(parts)
        if spares:
            text += " · " + i18n.ngettext("{n} spare, not counted", "{n} spares, not counted", spares).format(n=spares)
        all_ok = all(counted.count(c) == n for c, n in wanted.items()) and not set(counted) - set(wanted)
        show_verdict(self.counts, _("Coins in the set: {counts}").format(counts=text)
                     + f"   ({clause_text(self.item.composition.clause, self.kb)})", "ok" if all_ok else "fail")

    def evaluate(self) -> dict:
        self._refresh()
        return {}

    def retranslate(self) -> None:
        lang = i18n.current_language()
        headers = ["#", _("Colour"), _("Spare")]
        for m in self.member.measurements:
            lim = m.applied()[0]
            headers.append(f"{m.label_in(lang)}\n{fmt.bounds(lim.min, lim.max, m.unit, lang)}")
            self.unit_labels[m.name].setText(_("{measurement} in").format(measurement=m.label_in(lang)))
            accessible_name(self.units[m.name], _("Unit of {measurement}").format(measurement=m.label_in(lang)))
        headers.append(_("Verdict"))
        self.table.setHorizontalHeaderLabels(headers)
        accessible_name(self.table, _("Coins of the set"), _("One row per coin: its colour, its readings, its verdict"))
        for row in range(self.table.rowCount()):
            combo = self.table.cellWidget(row, 1)
            for i in range(combo.count()):
                combo.setItemText(i, self.item.colour_label(combo.itemData(i), lang))
        self.standard_button.setText(_("Complete set ({counts})").format(counts=", ".join(
            f"{n} {self.item.colour_label(c, lang)}" for c, n in self.item.composition.counts.items())))
        self.add_button.setText(_("Add a coin"))
        self.remove_button.setText(_("Remove the selected coins"))
        self._refresh()
