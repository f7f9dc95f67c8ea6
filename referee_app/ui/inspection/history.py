"""The past inspections beside the inspection form: number, date, item, identifier and verdict,
latest first, with the buttons to reopen one or to re-inspect the item.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from referee_app import i18n
from referee_app.core.inspection import wording as fmt
from referee_app.i18n import gettext as _
from referee_app.ui.common.tables import record_table
from referee_app.ui.common.verdict_style import verdict_colours
from referee_app.ui.common.accessible import name as accessible_name

ID_ROLE = Qt.ItemDataRole.UserRole


class InspectionHistory(QWidget):
    """The list of records given to `show_records`; the page reads them and acts on the buttons."""

    def __init__(self, specs, parent=None):
        super().__init__(parent)
        self.specs = specs
        layout = QVBoxLayout(self)
        self.title = QLabel(objectName="history_title")
        layout.addWidget(self.title)
        # The list a referee checks at the table before a match: strikers whose latest inspection
        # passed, for the tournament typed on the left (all tournaments when it is empty).
        self.approved_only = QCheckBox(objectName="approved_only")
        layout.addWidget(self.approved_only)
        self.table = record_table("history_table", 5)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.reopen_button = QPushButton(objectName="reopen_button")
        self.reinspect_button = QPushButton(objectName="reinspect_button")
        row.addWidget(self.reopen_button)
        row.addWidget(self.reinspect_button)
        row.addStretch(1)
        layout.addLayout(row)

    def show_records(self, records: list, select: int | None = None) -> None:
        """One row per record, in the order given; `select` is the number of the row to select."""
        self.table.setRowCount(len(records))
        lang = i18n.current_language()
        from referee_app.core.inspection.certificate import when

        for i, rec in enumerate(records):
            item = self.specs.item(rec.item)
            cells = [str(rec.id), when(rec.inspected_at, lang, "short") if rec.inspected_at else "",
                     item.label_in(lang) if item else rec.item, rec.label, fmt.overall(rec.compliant, lang)]
            for j, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setData(ID_ROLE, rec.id)
                if j == 4:
                    ok_c, fail_c, _muted = verdict_colours(self.table)
                    cell.setForeground(QColor(ok_c if rec.compliant else fail_c))
                    if rec.previous_id:
                        cell.setToolTip(_("Re-inspection of no. {number}").format(number=rec.previous_id))
                self.table.setItem(i, j, cell)
            if rec.id == select:
                self.table.selectRow(i)

    def selected_record_id(self) -> int | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows:
            return None
        return self.table.item(rows[0].row(), 0).data(ID_ROLE)

    def retranslate(self) -> None:
        self.title.setText(_("Past inspections"))
        self.approved_only.setText(_("Only the approved strikers (of the tournament typed on the left)"))
        self.table.setHorizontalHeaderLabels([_("No."), _("Date"), _("Item"), _("Identifier"), _("Verdict")])
        accessible_name(self.table, _("Past inspections"), _("Enter reopens the inspection chosen"))
        self.reopen_button.setText(_("Reopen"))
        self.reinspect_button.setText(_("Re-inspect"))
