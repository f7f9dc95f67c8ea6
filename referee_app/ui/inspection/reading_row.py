"""One measurement of an inspection form: its label, the field where the reading is typed, the
unit, the limit beside it and its verdict, judged again at each keystroke.
"""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QLineEdit

from referee_app import i18n
from referee_app.core.inspection import wording as fmt
from referee_app.core.inspection.verdict import ReadingRefused, check_measurement, choose_limit
from referee_app.core.inspection.entry import EntryError, reading_typed, refusal, typed_text, unit_of
from referee_app.core.inspection.model import Item, Measurement
from referee_app.i18n import gettext as _
from .limit_text import clause_text, limit_tooltip
from referee_app.ui.common.verdict_style import mark_input, show_verdict
from referee_app.ui.common.accessible import name as accessible_name


class ReadingRow:
    """One measurement of the form: label, field, unit, the limit beside it and its verdict."""

    def __init__(self, item: Item, m: Measurement, grid: QGridLayout, row: int, on_change, kb=None):
        self.item, self.m = item, m
        self.kb = kb   # the knowledge base its clauses are cited from
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
        return reading_typed(text, self.current_unit(), i18n.current_language())

    def set_raw(self, reading) -> None:
        if self.m.quantity == "boolean":
            self.input.setCurrentIndex(self.input.findData(reading) if reading is not None else 0)
        elif self.m.quantity == "text":
            self.input.setText("" if reading is None else str(reading))
        else:
            if self.unit is not None:
                self.unit.setCurrentIndex(max(0, self.unit.findData(unit_of(reading, self.m.unit))))
            self.input.setText(typed_text(reading, i18n.current_language()))

    def retranslate(self, facts: dict) -> None:
        lang = i18n.current_language()
        required = "" if self.m.required else f" ({_('optional')})"
        self.label.setText(self.m.label_in(lang) + required)
        # a yes/no box would be read as its value ("—"), a unit box as "cm": each is named
        accessible_name(self.input, self.m.label_in(lang))
        if self.unit is not None:
            accessible_name(self.unit, _("Unit of {measurement}").format(measurement=self.m.label_in(lang)))
        if self.m.quantity == "boolean":
            for i, (text, data) in enumerate(((("—"), None), (_("yes"), True), (_("no"), False))):
                self.input.setItemText(i, text)
                self.input.setItemData(i, data)
        elif self.m.numeric:
            self.input.setPlaceholderText(_("e.g. {example}").format(example=fmt.number(self._example(), i18n.current_language())))
        lim, _remark = choose_limit(self.m, facts)
        bounds = fmt.bounds(lim.min, lim.max, self.m.unit, i18n.current_language(), expected=lim.equals)
        if self.m.condition_for:
            bounds = _("decides the limit of: {names}").format(
                names=", ".join(self.item.measurement(n).label_in(lang) for n in self.m.condition_for))
        elif self.m.quantity == "text":
            bounds = _("recorded")
        self.limit.setText(f"{bounds}   {clause_text(lim.clause, self.kb)}")
        self.limit.setToolTip(limit_tooltip(self.m, facts, self.kb))
        self.input.setToolTip(self.limit.toolTip())
        self.input.setAccessibleDescription(_("Limit: {limit}").format(limit=bounds))

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
            show_verdict(self.verdict, f"⚠ {refusal(exc, i18n.current_language())}", "fail")
            mark_input(self.input, "fail")
            return exc
        notes = fmt.notices(check, i18n.current_language())
        if self.m.condition_for or self.m.quantity == "text":
            show_verdict(self.verdict, f"{fmt.OK_MARK} {_('recorded')}", "ok")
            mark_input(self.input, None)
        else:
            # ⓘ: the sources print another limit that this reading would pass or fail; hover to read it.
            show_verdict(self.verdict, fmt.verdict(check, i18n.current_language()) + (" ⓘ" if notes else ""),
                         "ok" if check["ok"] else "fail")
            mark_input(self.input, "ok" if check["ok"] else "fail")
        self.verdict.setToolTip("\n".join(notes))
        return check

    def _show_empty(self) -> None:
        mark_input(self.input, None)
        self.verdict.setToolTip("")
        if self.remeasure_from is not None:
            show_verdict(self.verdict, f"{fmt.FAIL_MARK} " + _("measure again (failed in no. {number})").format(
                number=self.remeasure_from), "fail")
        elif self.m.required:
            show_verdict(self.verdict, "— " + _("required"), "muted")
        elif self.m.condition_for or self.m.quantity == "text":
            show_verdict(self.verdict, "", "muted")
        else:
            show_verdict(self.verdict, "— " + _("not checked"), "muted")
