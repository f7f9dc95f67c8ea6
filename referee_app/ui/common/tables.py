"""The table every area lists its records in, and the rows it keeps in view."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QAbstractItemView, QTableWidget


def record_table(name: str, columns: int) -> QTableWidget:
    """A read-only table of records, chosen one whole row at a time, without row numbers."""
    table = QTableWidget(0, columns, objectName=name)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    return table


class _RowsKept(QObject):
    def __init__(self, table: QTableWidget, rows: int):
        super().__init__(table)
        self.rows = rows
        table.installEventFilter(self)
        self.apply(table)

    def apply(self, table: QTableWidget) -> None:
        row = table.fontMetrics().lineSpacing() + 10
        table.setMinimumHeight(table.horizontalHeader().sizeHint().height() + self.rows * row + 2 * table.frameWidth())

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.FontChange:
            self.apply(watched)
        return False


def keep_rows(table: QTableWidget, rows: int) -> QTableWidget:
    """At least `rows` rows of `table` in view, in whatever type size: in a scroll area the page then
    scrolls, rather than squeezing the list to one row under a long text in large type."""
    _RowsKept(table, rows)
    return table
