"""The list of forms, latest first, filtered by tournament and status, with the buttons that start
a new form or print a blank one.
"""
from __future__ import annotations

from datetime import datetime
from typing import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QHeaderView, QLabel, QMenu, QPushButton, QTableWidgetItem,
                               QToolButton, QVBoxLayout, QWidget)

from referee_app.core.forms.fields import FIELDS, STATUSES
from referee_app.i18n import gettext as _
from referee_app.ui.common.tables import record_table
from .labels import label_text, local_time, outcome_text
from referee_app.ui.common.accessible import name as accessible_name
from referee_app.ui.common.accessible import names_from_labels

ID_ROLE = Qt.ItemDataRole.UserRole


class FormsList(QWidget):
    """The forms of the store; `current()` is the form being edited, kept selected in the list."""

    opened = Signal(int)   # the id of the form the user selected

    def __init__(self, store, clock: Callable[[], datetime], current: Callable[[], object]):
        super().__init__()
        self.store, self.clock, self.current = store, clock, current
        self.knowledge = store.knowledge
        self.tournament_filter = QComboBox(objectName="tournament_filter")
        self.status_filter = QComboBox(objectName="status_filter")
        self.status_filter.addItem("", None)
        for status in STATUSES:
            self.status_filter.addItem("", status)
        self.table = record_table("forms_table", 6)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(2, 110)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)   # who: the widest, most useful
        self.table.setWordWrap(False)
        self.new_protest = QPushButton(objectName="new_protest")
        self.new_disqualification = QPushButton(objectName="new_disqualification")
        self.blank_button = QToolButton(objectName="print_blank")
        self.blank_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.blank_menu = QMenu(self.blank_button)
        self.blank_actions = {kind: self.blank_menu.addAction("") for kind in FIELDS}
        self.blank_button.setMenu(self.blank_menu)

        filters = QHBoxLayout()
        self.tournament_label, self.status_label_filter = QLabel(), QLabel()
        self.tournament_label.setBuddy(self.tournament_filter)
        self.status_label_filter.setBuddy(self.status_filter)
        filters.addWidget(self.tournament_label)
        filters.addWidget(self.tournament_filter, 2)
        filters.addWidget(self.status_label_filter)
        filters.addWidget(self.status_filter, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_protest)
        buttons.addWidget(self.new_disqualification)
        buttons.addStretch(1)
        buttons.addWidget(self.blank_button)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)

        self.tournament_filter.activated.connect(lambda _i: self.refresh())
        self.status_filter.activated.connect(lambda _i: self.refresh())
        self.table.itemSelectionChanged.connect(self._selection_changed)

    def retranslate(self) -> None:
        self.tournament_label.setText(_("Tournament:"))
        self.status_label_filter.setText(_("Status:"))
        self.status_filter.setItemText(0, _("All"))
        for i, status in enumerate(STATUSES, 1):
            self.status_filter.setItemText(i, label_text(self.knowledge, status))
        self.table.setHorizontalHeaderLabels([_("No."), _("Form"), _("Tournament"), _("Who"), _("Status"),
                                              _("Deadline")])
        names_from_labels(self)
        accessible_name(self.table, _("Forms"), _("Protests and disqualifications, the latest first"))
        self.new_protest.setText(_("New protest"))
        self.new_disqualification.setText(_("New disqualification"))
        self.blank_button.setText(_("Print blank form"))
        self.blank_button.setToolTip(_("A blank form as PDF, to fill in by hand"))
        for kind, action in self.blank_actions.items():
            action.setText(label_text(self.knowledge, kind))

    def refresh(self) -> None:
        tournament = self.tournament_filter.currentData()
        self.tournament_filter.blockSignals(True)
        self.tournament_filter.clear()
        self.tournament_filter.addItem(_("All tournaments"), None)
        for name in self.store.tournaments():
            self.tournament_filter.addItem(name, name)
        index = self.tournament_filter.findData(tournament)
        self.tournament_filter.setCurrentIndex(max(index, 0))
        self.tournament_filter.blockSignals(False)

        forms = self.store.list(self.tournament_filter.currentData(), self.status_filter.currentData())
        current = self.current()
        selected = current.id if current else None
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        for form in reversed(forms):   # the latest first
            row = self.table.rowCount()
            self.table.insertRow(row)
            self._fill_row(row, form)
            if form.id == selected:
                self.table.selectRow(row)
        self.table.blockSignals(False)

    def _fill_row(self, row: int, form) -> None:
        s = form.summary(self.clock())
        outcome = outcome_text(form.kind, form.outcome) if form.outcome else ""
        for col, text in enumerate((str(form.id), label_text(self.knowledge, form.kind), s["tournament"] or "", s["subject"],
                                    label_text(self.knowledge, form.status), local_time(s["deadline"]) if s["deadline"] else "")):
            item = QTableWidgetItem(str(text))
            item.setData(ID_ROLE, form.id)
            if outcome:
                item.setToolTip(outcome)
            self.table.setItem(row, col, item)
        if s["late"]:  # in red rather than in words: the narrow column leaves "who" its room
            late = self.table.item(row, 5)
            late.setForeground(QColor("#b00020"))
            late.setText(f"{late.text()} !")
            late.setToolTip(label_text(self.knowledge, "late"))

    def update_row(self, form) -> None:
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).data(ID_ROLE) == form.id:
                self._fill_row(row, form)

    def _selection_changed(self) -> None:
        items = self.table.selectedItems()
        if items:
            self.opened.emit(items[0].data(ID_ROLE))

    def select(self, form_id: int) -> bool:
        """Selects the form's row (which opens it); False when the filters hide it."""
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).data(ID_ROLE) == form_id:
                self.table.selectRow(row)
                return True
        return False
