"""The table every area lists its records in."""
from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableWidget


def record_table(name: str, columns: int) -> QTableWidget:
    """A read-only table of records, chosen one whole row at a time, without row numbers."""
    table = QTableWidget(0, columns, objectName=name)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    return table
