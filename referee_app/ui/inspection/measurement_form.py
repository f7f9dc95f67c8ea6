"""The form of one kind of item that is not a set (striker, board, stand…): one reading row per
measurement, in the order an inspector takes them (the order of knowledge/equipment/*.yaml).
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QWidget

from referee_app.core.inspection.model import Item
from .reading_row import ReadingRow


class MeasurementForm(QWidget):
    """The rows of one kind of item."""

    changed = Signal()

    def __init__(self, item: Item, parent=None, kb=None):
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
            self.rows[m.name] = ReadingRow(item, m, grid, i, self._row_changed, kb)
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
