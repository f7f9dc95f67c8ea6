"""The equipment inspection page: measure an item, see each verdict as it is typed, save the
record, reopen or re-inspect a past one, print its certificate.

Left, the form of the item being inspected: one row per measurement in the order an inspector
takes them (the order of knowledge/equipment/*.yaml), each with the limit beside it and a
verdict that is a mark and a word as well as a colour; a coin set is a table, one coin per row.
Right, the past inspections. Everything about limits comes from the specifications through the
core (core/inspection.py); this page only reads fields and shows answers. Typing that is not a
reading shows why under the field, never a traceback.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QFileDialog, QFormLayout, QFrame,
                               QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QPlainTextEdit, QPushButton, QScrollArea, QSplitter, QStackedWidget, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from .. import i18n
from ..core import inspection_format as fmt
from ..core.errors import BadInput
from ..core.inspection import ReadingRefused, check_measurement, choose_limit, inspect
from ..core.inspection_entry import EntryError, reading_typed, refusal, typed_text, unit_of
from ..core.inspection_spec import Item, Measurement, default_specs
from ..i18n import gettext as _

# The striker first: every player's must be approved before each match (icf-fr 4.b, it 98).
ITEM_ORDER = ("striker", "board", "coin_set", "coin", "stand", "chair", "lamp")
ID_ROLE = Qt.ItemDataRole.UserRole


def _colours(widget: QWidget) -> tuple[str, str, str]:
    """Pass, fail and muted text colours readable on the widget's own background (light or dark)."""
    dark = widget.palette().color(QPalette.ColorRole.Window).lightness() < 128
    return ("#81c784", "#ef9a9a", "#b0b0b0") if dark else ("#1b5e20", "#b71c1c", "#555555")


def _show(label: QLabel, text: str, state: str) -> None:
    """Sets a verdict: `state` is ok, fail or muted; the text always carries its own mark."""
    ok, fail, muted = _colours(label)
    label.setText(text)
    label.setStyleSheet(f"color: {dict(ok=ok, fail=fail, muted=muted)[state]};"
                        + ("font-weight: bold;" if state != "muted" else ""))
    label.setProperty("state", state)


def _mark_input(widget: QWidget, state: str | None) -> None:
    """A coloured frame round the field itself, beside the verdict's text."""
    ok, fail, _muted = _colours(widget)
    colour = {"ok": ok, "fail": fail}.get(state or "")
    widget.setStyleSheet(f"border: 2px solid {colour}; border-radius: 3px; padding: 1px;" if colour else "")
    widget.setProperty("state", state or "")


def _clause(clause_id: str) -> str:
    return clause_id.replace(":", " ")


def _limit_tooltip(m: Measurement, facts: dict) -> str:
    """The printed limit(s) behind a field: the one applied and the others the sources print."""
    lim, _remark = choose_limit(m, facts)
    lines = [f"{_clause(lim.clause)}: « {lim.printed} »"]
    if lim.note:
        lines.append(fmt.localized(lim.note))
    for other in m.limits:
        if other is not lim:
            lines.append(f"{_clause(other.clause)} ({_('not applied')}): « {other.printed} »")
            if other.note:
                lines.append(fmt.localized(other.note))
    return "\n".join(lines)


class ReadingRow:
    """One measurement of the form: label, field, unit, the limit beside it and its verdict."""

    def __init__(self, item: Item, m: Measurement, grid: QGridLayout, row: int, on_change):
        self.item, self.m = item, m
        self.remeasure_from: int | None = None     # set when a re-inspection asks for this again
        self.label = QLabel(objectName=f"label_{m.name}")
        self.label.setWordWrap(True)
        self.unit = None
        if m.quantity == "boolean":
            self.input = QComboBox(objectName=f"field_{m.name}")
            for _i in range(3):
                self.input.addItem("")
            self.input.currentIndexChanged.connect(lambda _i: on_change(self))
        else:
            self.input = QLineEdit(objectName=f"field_{m.name}")
            self.input.setMinimumWidth(110)
            self.input.textChanged.connect(lambda _t: on_change(self))
            if m.numeric and len(m.units()) > 1:
                self.unit = QComboBox(objectName=f"unit_{m.name}")
                for unit in m.units():
                    self.unit.addItem(unit, unit)
                self.unit.setCurrentIndex(self.unit.findData(m.unit))
                self.unit.currentIndexChanged.connect(lambda _i: on_change(self))
        self.label.setBuddy(self.input)
        self.limit = QLabel(objectName=f"limit_{m.name}")
        self.verdict = QLabel(objectName=f"verdict_{m.name}")
        self.verdict.setMinimumWidth(120)
        grid.addWidget(self.label, row, 0)
        grid.addWidget(self.input, row, 1)
        if self.unit is not None:
            grid.addWidget(self.unit, row, 2)
        elif m.numeric:
            grid.addWidget(QLabel(m.unit), row, 2)
        grid.addWidget(self.limit, row, 3)
        grid.addWidget(self.verdict, row, 4)

    def current_unit(self) -> str:
        return self.unit.currentData() if self.unit is not None else self.m.unit

    def raw(self):
        """The reading as the core reads it; None when empty; EntryError when it is not a reading."""
        if self.m.quantity == "boolean":
            return self.input.currentData()
        text = self.input.text().strip()
        if self.m.quantity == "text":
            return text or None
        return reading_typed(text, self.current_unit())

    def set_raw(self, reading) -> None:
        if self.m.quantity == "boolean":
            self.input.setCurrentIndex(self.input.findData(reading) if reading is not None else 0)
        elif self.m.quantity == "text":
            self.input.setText("" if reading is None else str(reading))
        else:
            if self.unit is not None:
                self.unit.setCurrentIndex(max(0, self.unit.findData(unit_of(reading, self.m.unit))))
            self.input.setText(typed_text(reading))

    def retranslate(self, facts: dict) -> None:
        lang = i18n.current_language()
        required = "" if self.m.required else f" ({_('optional')})"
        self.label.setText(self.m.label_in(lang) + required)
        if self.m.quantity == "boolean":
            for i, (text, data) in enumerate(((("—"), None), (_("yes"), True), (_("no"), False))):
                self.input.setItemText(i, text)
                self.input.setItemData(i, data)
        elif self.m.numeric:
            self.input.setPlaceholderText(_("e.g. {example}").format(example=fmt.number(self._example())))
        lim, _remark = choose_limit(self.m, facts)
        bounds = fmt.bounds(lim.min, lim.max, self.m.unit, expected=lim.equals)
        if self.m.condition_for:
            bounds = _("decides the limit of: {names}").format(
                names=", ".join(self.item.measurement(n).label_in(lang) for n in self.m.condition_for))
        elif self.m.quantity == "text":
            bounds = _("recorded")
        self.limit.setText(f"{bounds}   {_clause(lim.clause)}")
        self.limit.setToolTip(_limit_tooltip(self.m, facts))
        self.input.setToolTip(self.limit.toolTip())

    def _example(self):
        lim = self.m.applied()[0]
        if lim.nominal is not None:
            return lim.nominal
        if lim.min is not None and lim.max is not None:
            return (lim.min + lim.max) / 2
        return lim.max if lim.max is not None else lim.min

    def evaluate(self, facts: dict):
        """Shows this field's verdict; returns its check, None when empty, or the refusal."""
        try:
            raw = self.raw()
            if raw is None:
                self._show_empty()
                return None
            check = check_measurement(self.item, self.m, raw, facts)
        except (EntryError, ReadingRefused) as exc:
            _show(self.verdict, f"⚠ {refusal(exc)}", "fail")
            _mark_input(self.input, "fail")
            return exc
        notes = fmt.notices(check)
        if self.m.condition_for or self.m.quantity == "text":
            _show(self.verdict, f"{fmt.OK_MARK} {_('recorded')}", "ok")
            _mark_input(self.input, None)
        else:
            # ⓘ: the sources print another limit that this reading would pass or fail; hover to read it.
            _show(self.verdict, fmt.verdict(check) + (" ⓘ" if notes else ""), "ok" if check["ok"] else "fail")
            _mark_input(self.input, "ok" if check["ok"] else "fail")
        self.verdict.setToolTip("\n".join(notes))
        return check

    def _show_empty(self) -> None:
        _mark_input(self.input, None)
        self.verdict.setToolTip("")
        if self.remeasure_from is not None:
            _show(self.verdict, f"{fmt.FAIL_MARK} " + _("measure again (failed in no. {number})").format(
                number=self.remeasure_from), "fail")
        elif self.m.required:
            _show(self.verdict, "— " + _("required"), "muted")
        elif self.m.condition_for or self.m.quantity == "text":
            _show(self.verdict, "", "muted")
        else:
            _show(self.verdict, "— " + _("not checked"), "muted")


class MeasurementForm(QWidget):
    """The rows of one kind of item."""

    changed = Signal()

    def __init__(self, item: Item, parent=None):
        super().__init__(parent)
        self.item = item
        self.setObjectName(f"form_{item.name}")
        grid = QGridLayout(self)
        grid.setColumnStretch(0, 2)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 2)
        grid.setColumnMinimumWidth(0, 170)   # a measurement's name on one or two lines, not four
        grid.setHorizontalSpacing(10)
        self.rows: dict[str, ReadingRow] = {}
        for i, m in enumerate(item.measurements):
            self.rows[m.name] = ReadingRow(item, m, grid, i, self._row_changed)
        grid.setRowStretch(len(item.measurements), 1)   # rows keep their height, the space goes below
        self._loading = False

    def _row_changed(self, row: ReadingRow) -> None:
        if self._loading:
            return
        if row.m.quantity == "boolean":
            self.retranslate()          # a yes/no may choose another limit (reinforcement plates)
        self.evaluate()
        self.changed.emit()

    def facts(self) -> dict:
        return {name: row.input.currentData() for name, row in self.rows.items()
                if row.m.quantity == "boolean" and row.input.currentData() is not None}

    def evaluate(self) -> dict:
        facts = self.facts()
        return {name: row.evaluate(facts) for name, row in self.rows.items()}

    def document(self) -> dict:
        """The inspection document; raises the first refusal of a field."""
        measurements = {}
        for name, row in self.rows.items():
            raw = row.raw()
            if raw is not None:
                measurements[name] = raw
        return {"item": self.item.name, "measurements": measurements}

    def load(self, document: dict, remeasure: dict | None = None) -> None:
        """Fills the fields from a saved document; `remeasure` names fields to take again."""
        self._loading = True
        try:
            readings = document.get("measurements") or {}
            for name, row in self.rows.items():
                row.set_raw(readings.get(name))
                row.remeasure_from = (remeasure or {}).get(name)
        finally:
            self._loading = False
        self.retranslate()
        self.evaluate()

    def clear(self) -> None:
        self.load({})

    def retranslate(self) -> None:
        facts = self.facts()
        for row in self.rows.values():
            row.retranslate(facts)
        self.evaluate()


class CoinSetForm(QWidget):
    """A set of coins: one row per coin (colour, spare, its three readings) and the counts."""

    changed = Signal()
    FIXED = 3   # columns before the measurements: number, colour, spare

    def __init__(self, item: Item, member: Item, parent=None):
        super().__init__(parent)
        self.item, self.member = item, member
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
                self.table.setItem(row, self.FIXED + j, QTableWidgetItem(typed_text((readings or {}).get(m.name))))
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
            raw = reading_typed(self.table.item(row, self.FIXED + j).text(), self.units[m.name].currentData())
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
            ok_c, fail_c, _muted = _colours(self)
            for row in range(self.table.rowCount()):
                problems = []
                for j, m in enumerate(self.member.measurements):
                    cell = self.table.item(row, self.FIXED + j)
                    state, tip = None, ""
                    try:
                        raw = reading_typed(cell.text(), self.units[m.name].currentData())
                        if raw is None:
                            if (row, m.name) in self.remeasure:
                                state, tip = "fail", _("measure again (failed in no. {number})").format(
                                    number=self.remeasure[(row, m.name)])
                                problems.append(m.label_in(i18n.current_language()))
                        else:
                            check = check_measurement(self.member, m, raw)
                            state, tip = ("ok" if check["ok"] else "fail"), fmt.verdict(check)
                            if not check["ok"]:
                                problems.append(m.label_in(i18n.current_language()))
                    except (EntryError, ReadingRefused) as exc:
                        state, tip = "fail", f"⚠ {refusal(exc)}"
                        problems.append(f"{m.label_in(i18n.current_language())}: {refusal(exc)}")
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
        _show(self.counts, _("Coins in the set: {counts}").format(counts=text) + f"   ({_clause(self.item.composition.clause)})",
              "ok" if all_ok else "fail")

    def evaluate(self) -> dict:
        self._refresh()
        return {}

    def retranslate(self) -> None:
        lang = i18n.current_language()
        headers = ["#", _("Colour"), _("Spare")]
        for m in self.member.measurements:
            lim = m.applied()[0]
            headers.append(f"{m.label_in(lang)}\n{fmt.bounds(lim.min, lim.max, m.unit)}")
            self.unit_labels[m.name].setText(_("{measurement} in").format(measurement=m.label_in(lang)))
        headers.append(_("Verdict"))
        self.table.setHorizontalHeaderLabels(headers)
        for row in range(self.table.rowCount()):
            combo = self.table.cellWidget(row, 1)
            for i in range(combo.count()):
                combo.setItemText(i, self.item.colour_label(combo.itemData(i), lang))
        self.standard_button.setText(_("Complete set ({counts})").format(counts=", ".join(
            f"{n} {self.item.colour_label(c, lang)}" for c, n in self.item.composition.counts.items())))
        self.add_button.setText(_("Add a coin"))
        self.remove_button.setText(_("Remove the selected coins"))
        self._refresh()


class InspectionPage(QWidget):
    """The whole page; `store` defaults to the user's records database."""

    saved = Signal(int)

    def __init__(self, store=None, parent=None):
        super().__init__(parent)
        self.setObjectName("inspection_page")
        self._store = store
        self.specs = default_specs()
        self.record_id: int | None = None        # the record shown (saved or reopened)
        self.previous_id: int | None = None      # set while re-inspecting
        self._dirty = False
        self._build()
        self._item_changed(0)
        self.retranslate()
        remove = i18n.on_language_changed(lambda _lang: self.retranslate())
        self.destroyed.connect(lambda *_a: remove())
        self.refresh_history()

    # -- building -----------------------------------------------------------------------------
    def _build(self) -> None:
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addWidget(splitter)

        left = QWidget()
        form_side = QVBoxLayout(left)
        head = QFormLayout()
        head.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.item_combo = QComboBox(objectName="item_combo")
        names = [n for n in ITEM_ORDER if n in self.specs.items] + [n for n in self.specs.items if n not in ITEM_ORDER]
        for name in names:
            self.item_combo.addItem(name, name)
        self.label_edit = QLineEdit(objectName="label_edit")
        self.inspector_edit = QLineEdit(objectName="inspector_edit")
        self.tournament_edit = QLineEdit(objectName="tournament_edit")
        self.head_labels = [QLabel() for _i in range(4)]
        for label, field in zip(self.head_labels, (self.item_combo, self.label_edit, self.inspector_edit,
                                                   self.tournament_edit)):
            label.setBuddy(field)
            head.addRow(label, field)
        form_side.addLayout(head)

        self.banner = QLabel(objectName="banner")
        self.banner.setWordWrap(True)
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.setStyleSheet("QLabel#banner { padding: 6px; font-weight: bold; }")
        self.banner.hide()
        form_side.addWidget(self.banner)

        self.hint = QLabel(objectName="entry_hint")
        self.hint.setWordWrap(True)
        form_side.addWidget(self.hint)
        # One page per kind of item. A form of rows scrolls on its own; the coin table scrolls
        # itself, so the buttons and counts under it stay in view.
        self.forms = QStackedWidget(objectName="forms")
        self.form_of: dict[str, QWidget] = {}
        self.page_of: dict[str, QWidget] = {}
        for name in names:
            item = self.specs.item(name)
            form = CoinSetForm(item, self.specs.item(item.each)) if item.each else MeasurementForm(item)
            form.changed.connect(self._form_changed)
            page = form
            if not item.each:
                page = QScrollArea()
                page.setWidgetResizable(True)
                page.setFrameShape(QFrame.Shape.NoFrame)
                page.setWidget(form)
            self.forms.addWidget(page)
            self.form_of[name], self.page_of[name] = form, page
        form_side.addWidget(self.forms, 1)
        self.item_combo.currentIndexChanged.connect(self._item_changed)

        self.approval = QLabel(objectName="approval_note")
        self.approval.setWordWrap(True)
        form_side.addWidget(self.approval)

        self.record_box = QGroupBox()
        record = QFormLayout(self.record_box)
        self.notes_edit = QPlainTextEdit(objectName="notes_edit")
        self.notes_edit.setFixedHeight(48)
        self.notes_edit.textChanged.connect(self._form_changed)
        photo_row = QHBoxLayout()
        self.photo_edit = QLineEdit(objectName="photo_edit")
        self.photo_edit.textChanged.connect(self._form_changed)
        self.photo_button = QPushButton(objectName="photo_button")
        self.photo_button.clicked.connect(self._choose_photo)
        photo_row.addWidget(self.photo_edit, 1)
        photo_row.addWidget(self.photo_button)
        self.notes_label, self.photo_label = QLabel(), QLabel()
        self.notes_label.setBuddy(self.notes_edit)
        self.photo_label.setBuddy(self.photo_edit)
        record.addRow(self.notes_label, self.notes_edit)
        record.addRow(self.photo_label, photo_row)
        form_side.addWidget(self.record_box)

        self.overall = QLabel(objectName="overall_verdict")
        font = self.overall.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        self.overall.setFont(font)
        self.overall.setWordWrap(True)
        form_side.addWidget(self.overall)
        self.status = QLabel(objectName="status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form_side.addWidget(self.status)
        actions = QHBoxLayout()
        self.save_button = QPushButton(objectName="save_button")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        self.new_button = QPushButton(objectName="new_button")
        self.new_button.clicked.connect(self.new_inspection)
        self.certificate_button = QPushButton(objectName="certificate_button")
        self.certificate_button.clicked.connect(lambda: self.export_certificate())
        for b in (self.save_button, self.new_button, self.certificate_button):
            actions.addWidget(b)
        actions.addStretch(1)
        form_side.addLayout(actions)
        splitter.addWidget(left)

        right = QWidget()
        history = QVBoxLayout(right)
        self.history_title = QLabel(objectName="history_title")
        history.addWidget(self.history_title)
        # The list a referee checks at the table before a match: strikers whose latest inspection
        # passed, for the tournament typed on the left (all tournaments when it is empty).
        self.approved_only = QCheckBox(objectName="approved_only")
        self.approved_only.toggled.connect(lambda _c: self.refresh_history())
        self.tournament_edit.editingFinished.connect(
            lambda: self.refresh_history() if self.approved_only.isChecked() else None)
        history.addWidget(self.approved_only)
        self.history = QTableWidget(0, 5, objectName="history_table")
        self.history.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.history.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.history.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.history.verticalHeader().hide()
        self.history.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.history.horizontalHeader().setStretchLastSection(True)
        self.history.doubleClicked.connect(lambda _i: self.reopen())
        self.history.itemSelectionChanged.connect(self._update_buttons)
        history.addWidget(self.history, 1)
        row = QHBoxLayout()
        self.reopen_button = QPushButton(objectName="reopen_button")
        self.reopen_button.clicked.connect(lambda: self.reopen())
        self.reinspect_button = QPushButton(objectName="reinspect_button")
        self.reinspect_button.clicked.connect(lambda: self.reinspect())
        row.addWidget(self.reopen_button)
        row.addWidget(self.reinspect_button)
        row.addStretch(1)
        history.addLayout(row)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 5)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([1000, 400])

    # -- the store ----------------------------------------------------------------------------
    @property
    def store(self):
        if self._store is None:
            from ..core.inspection_store import InspectionStore

            self._store = InspectionStore()
            store = self._store
            self.destroyed.connect(lambda *_a: store.close())
        return self._store

    # -- the form -----------------------------------------------------------------------------
    def current_item(self) -> Item:
        return self.specs.item(self.item_combo.currentData())

    def current_form(self):
        return self.form_of[self.item_combo.currentData()]

    def set_item(self, name: str) -> None:
        self.item_combo.setCurrentIndex(self.item_combo.findData(name))

    def _item_changed(self, _index: int) -> None:
        self.forms.setCurrentWidget(self.page_of[self.item_combo.currentData()])
        self._show_approval()
        self.hint.setVisible(not self.current_item().each)
        self._form_changed()

    def _form_changed(self) -> None:
        self._dirty = True
        self._update_overall()
        self._update_buttons()

    def _update_overall(self) -> None:
        try:
            result = inspect(self.current_form().document())
        except (EntryError, ReadingRefused):
            _show(self.overall, "⚠ " + _("Some readings cannot be judged: correct the fields marked ⚠."), "fail")
            return
        except BadInput as exc:
            _show(self.overall, "⚠ " + refusal(exc), "fail")
            return
        text = fmt.overall(result["compliant"])
        if result["missing"]:
            text += "  " + i18n.ngettext("({n} required reading not taken yet)", "({n} required readings not taken yet)",
                                         len(result["missing"])).format(n=len(result["missing"]))
        _show(self.overall, text, "ok" if result["compliant"] else "fail")

    def _show_approval(self) -> None:
        item = self.current_item()
        self.approval.setVisible(bool(item.approval))
        if item.approval:
            self.approval.setText(fmt.localized(item.approval["note"]))

    def _choose_photo(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, _("Photo of the item"), self.photo_edit.text(),
                                                    _("Images (*.jpg *.jpeg *.png *.heic *.webp);;All files (*)"))
        if path:
            self.photo_edit.setText(path)

    def _say(self, text: str, state: str = "muted") -> None:
        _show(self.status, text, state)

    def new_inspection(self) -> None:
        """Empties the form for the next item (inspector and tournament stay: same person, same day)."""
        self.record_id = self.previous_id = None
        self.current_form().clear()
        for form in self.form_of.values():
            if isinstance(form, MeasurementForm):
                for row in form.rows.values():
                    row.remeasure_from = None
        self.label_edit.clear()
        self.notes_edit.clear()
        self.photo_edit.clear()
        self.banner.hide()
        self._say("")
        self._dirty = False
        self._form_changed()

    # -- saving -------------------------------------------------------------------------------
    def save(self) -> int | None:
        """Saves the inspection; returns its number, or None with the reason shown."""
        try:
            document = self.current_form().document()
            record = self.store.save(document, inspector=self.inspector_edit.text(), label=self.label_edit.text(),
                                     tournament=self.tournament_edit.text(), notes=self.notes_edit.toPlainText(),
                                     photo=self.photo_edit.text(), previous_id=self.previous_id)
        except (EntryError, BadInput) as exc:
            self._say("⚠ " + refusal(exc), "fail")
            return None
        self.record_id, self._dirty = record.id, False
        verdict = fmt.overall(record.compliant)
        self._say(_("Saved as inspection no. {number} ({verdict}).").format(number=record.id, verdict=verdict),
                  "ok" if record.compliant else "fail")
        if self.previous_id is not None:
            self.banner.setText(_("Re-inspection of no. {previous} saved as no. {number}.").format(
                previous=self.previous_id, number=record.id))
        self.previous_id = None
        self.refresh_history(select=record.id)
        self._update_buttons()
        self.saved.emit(record.id)
        return record.id

    # -- past inspections ---------------------------------------------------------------------
    def refresh_history(self, select: int | None = None) -> None:
        try:
            if self.approved_only.isChecked():
                records = self.store.approved_strikers(self.tournament_edit.text().strip() or None)
            else:
                records = list(reversed(self.store.list()))
        except Exception as exc:  # a locked or unreadable database: say so, keep the form usable
            self._say("⚠ " + _("The records cannot be read: {problem}").format(problem=exc), "fail")
            records = []
        self.history.setRowCount(len(records))
        lang = i18n.current_language()
        from ..core.inspection_certificate import when

        for i, rec in enumerate(records):
            item = self.specs.item(rec.item)
            cells = [str(rec.id), when(rec.inspected_at, lang, "short") if rec.inspected_at else "",
                     item.label_in(lang) if item else rec.item, rec.label, fmt.overall(rec.compliant)]
            for j, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setData(ID_ROLE, rec.id)
                if j == 4:
                    ok_c, fail_c, _muted = _colours(self.history)
                    cell.setForeground(QColor(ok_c if rec.compliant else fail_c))
                    if rec.previous_id:
                        cell.setToolTip(_("Re-inspection of no. {number}").format(number=rec.previous_id))
                self.history.setItem(i, j, cell)
            if rec.id == select:
                self.history.selectRow(i)
        self._update_buttons()

    def selected_record_id(self) -> int | None:
        rows = self.history.selectionModel().selectedRows() if self.history.selectionModel() else []
        if not rows:
            return None
        return self.history.item(rows[0].row(), 0).data(ID_ROLE)

    def _update_buttons(self) -> None:
        chosen = self.selected_record_id()
        self.reopen_button.setEnabled(chosen is not None)
        self.reinspect_button.setEnabled(chosen is not None or self.record_id is not None)
        self.certificate_button.setEnabled(self.record_id is not None and not self._dirty or chosen is not None)

    def _load(self, document: dict, label: str, tournament: str, notes: str, photo: str, remeasure=None) -> None:
        self.set_item(document.get("item"))
        form = self.current_form()
        if isinstance(form, CoinSetForm):
            form.load(document, {(int(k.split("]")[0].split("[")[1]), k.split(".")[-1]): v
                                 for k, v in (remeasure or {}).items()})
        else:
            form.load(document, remeasure)
        self.label_edit.setText(label)
        self.tournament_edit.setText(tournament)
        self.notes_edit.setPlainText(notes)
        self.photo_edit.setText(photo)
        self._update_overall()

    def reopen(self, record_id: int | None = None) -> None:
        """Shows a saved inspection in the form (saving it again makes a new record)."""
        record_id = record_id or self.selected_record_id()
        if record_id is None:
            return
        try:
            rec = self.store.get(record_id)
        except BadInput as exc:
            self._say("⚠ " + str(exc), "fail")
            return
        self.previous_id = None
        self._load(rec.readings, rec.label, rec.tournament, rec.notes, rec.photo)
        self.inspector_edit.setText(rec.inspector)
        self.record_id, self._dirty = rec.id, False
        self.banner.setText(_("Inspection no. {number} of {date} by {inspector}. Saving creates a new record.").format(
            number=rec.id, date=self._date(rec.inspected_at), inspector=rec.inspector))
        self.banner.show()
        self._say("")
        self._update_buttons()

    def reinspect(self, record_id: int | None = None) -> None:
        """Starts a re-inspection: the readings that passed kept, those that failed to take again."""
        record_id = record_id or self.selected_record_id() or self.record_id
        if record_id is None:
            return
        draft = self.store.reinspection_draft(record_id)
        remeasure = {name: record_id for name in draft["to_remeasure"]}
        document = draft["document"]
        self._load(document, document.get("label", ""), document.get("tournament", ""), draft["notes"],
                   draft["photo"], remeasure)
        self.record_id, self.previous_id = None, record_id
        names = draft["to_remeasure"]
        self.banner.setText(_("Re-inspection of no. {number}: measure again the readings marked ✘.").format(number=record_id)
                            if names else _("Re-inspection of no. {number}: nothing failed there.").format(number=record_id))
        self.banner.show()
        self._say("")
        self._dirty = True
        self._update_buttons()

    @staticmethod
    def _date(iso: str) -> str:
        from ..core.inspection_certificate import when

        return when(iso, i18n.current_language())

    # -- certificate --------------------------------------------------------------------------
    def export_certificate(self, path: str | None = None) -> Path | None:
        """Writes the certificate of the saved (or selected) inspection as PDF, in the interface language."""
        record_id = self.record_id if self.record_id is not None and not self._dirty else self.selected_record_id()
        if record_id is None:
            self._say("⚠ " + _("Save the inspection first: a certificate is made from a saved record."), "fail")
            return None
        record = self.store.get(record_id)
        if path is None:
            suggested = f"inspection-{record.id}.pdf"
            path, _filter = QFileDialog.getSaveFileName(self, _("Export certificate"), suggested, _("PDF (*.pdf)"))
            if not path:
                return None
        from ..core.inspection_certificate import certificate_html, certificate_title
        from .pdf import write_pdf

        try:
            written = write_pdf(certificate_html(record), path, title=certificate_title(record))
        except OSError as exc:
            self._say("⚠ " + _("The certificate could not be written: {problem}").format(problem=exc), "fail")
            return None
        self._say(_("Certificate written to {path}").format(path=written), "ok")
        return written

    # -- language -----------------------------------------------------------------------------
    def retranslate(self) -> None:
        lang = i18n.current_language()
        for i in range(self.item_combo.count()):
            self.item_combo.setItemText(i, self.specs.item(self.item_combo.itemData(i)).label_in(lang))
        for label, text in zip(self.head_labels, (_("Item"), _("Identifier"), _("Inspector"), _("Tournament"))):
            label.setText(text)
        self.label_edit.setPlaceholderText(_("e.g. striker of A. Rossi, board 7"))
        self.hint.setText(_("Type a reading with a decimal comma or point. A dimension measured several times "
                            "(the four pockets, the four sides): separate the readings with “;”. Hover a limit "
                            "to read the clause as printed."))
        _show(self.hint, self.hint.text(), "muted")
        self.inspector_edit.setPlaceholderText(_("who measures"))
        self.tournament_edit.setPlaceholderText(_("optional"))
        self.record_box.setTitle(_("Record"))
        self.notes_label.setText(_("Notes"))
        self.photo_label.setText(_("Photo"))
        self.photo_edit.setPlaceholderText(_("path of a photo of the item (optional)"))
        self.photo_button.setText(_("Browse…"))
        self.save_button.setText(_("Save inspection"))
        self.new_button.setText(_("New inspection"))
        self.certificate_button.setText(_("Export certificate (PDF)…"))
        self.history_title.setText(_("Past inspections"))
        self.approved_only.setText(_("Only the approved strikers (of the tournament typed on the left)"))
        self.history.setHorizontalHeaderLabels([_("No."), _("Date"), _("Item"), _("Identifier"), _("Verdict")])
        self.reopen_button.setText(_("Reopen"))
        self.reinspect_button.setText(_("Re-inspect"))
        for form in self.form_of.values():
            form.retranslate()
        self._show_approval()
        self._update_overall()
        if self._store is not None:
            self.refresh_history(select=self.selected_record_id())
