"""The entries of a tournament: a name typed and entered, each entry checked in when the player
arrives (only those checked in are paired), a late entry or a withdrawal once play has begun
(the project's choices `late_entry` and `withdrawal`, shown below the list)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.i18n import gettext as _
from referee_app.ui.common.tables import record_table
from referee_app.ui.retranslate import follow_language
from .reason_dialog import ask_reason


class EntriesView(QWidget):
    def __init__(self, desk, parent=None):
        super().__init__(parent)
        self.setObjectName("tournament_entries")
        self.desk = desk
        self.name_edit = QLineEdit(objectName="entry_name")
        self.enter_button = QPushButton(objectName="enter_player")
        self.withdraw_button = QPushButton(objectName="withdraw_player")
        row = QHBoxLayout()
        row.addWidget(self.name_edit, 1)
        row.addWidget(self.enter_button)
        row.addWidget(self.withdraw_button)
        self.table = record_table("entries_table", 4)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.notes = QLabel(objectName="entries_notes")
        self.notes.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes)
        self.enter_button.clicked.connect(self.enter)
        self.name_edit.returnPressed.connect(self.enter)
        self.withdraw_button.clicked.connect(self.withdraw)
        self.table.itemChanged.connect(self._check_in_changed)
        follow_language(self)
        self.retranslate()

    def enter(self) -> None:
        name = self.name_edit.text().strip()
        if self.desk.tid is None:
            self.desk.show_message(_("Create a tournament first."))
            return
        if not name:
            self.desk.show_message(_("Type the player's name first."))
            return
        if any(e["name"] == name for e in self.desk.store.entries(self.desk.tid)):
            self.desk.show_message(_("{name} is already entered.").format(name=name))
            return
        if self.desk.run(lambda: self.desk.store.add_player(self.desk.tid, name)) is None and self.desk.message.isVisible():
            return
        self.name_edit.clear()
        self.desk.refresh()
        self.name_edit.setFocus()

    def selected(self) -> str | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.table.item(rows[0].row(), 0).text() if rows else None

    def withdraw(self) -> None:
        name = self.selected()
        if name is None:
            self.desk.show_message(_("Choose the player who withdraws in the list first."))
            return
        entry = next(e for e in self.desk.store.entries(self.desk.tid) if e["name"] == name)
        if entry["withdrawn_after"] is not None:
            self.desk.show_message(_("{name} has already withdrawn.").format(name=name))
            return
        if not entry["checked_in"]:
            self.desk.show_message(_("{name} is not checked in: there is nothing to withdraw from.").format(name=name))
            return
        reason = ask_reason(self, _("Withdraw {name}").format(name=name),
                            _("{name} will not be paired any more. Withdraw the player?").format(name=name))
        if reason is None:
            self.desk.show_message(_("{name} stays in the tournament: a withdrawal needs its reason.").format(name=name))
            return
        self.desk.run(lambda: self.desk.store.withdraw(self.desk.tid, name, reason))
        self.desk.refresh()

    def check_in(self, name: str, present: bool = True) -> None:
        entry = next(e for e in self.desk.store.entries(self.desk.tid) if e["name"] == name)
        paired = len(self.desk.store.load(self.desk.tid).rounds)
        if not present and entry["first_round"] is not None and entry["first_round"] <= paired:
            self.desk.show_message(_("{name} has already been paired: withdraw the player instead.").format(name=name))
            self.refresh()
            return
        self.desk.run(lambda: self.desk.store.check_in(self.desk.tid, name, present))
        self.desk.refresh()

    def _check_in_changed(self, item: QTableWidgetItem) -> None:
        if item.column() != 1 or self.table.signalsBlocked():
            return
        name = self.table.item(item.row(), 0).text()
        self.check_in(name, item.checkState() == Qt.CheckState.Checked)

    def refresh(self) -> None:
        self.table.blockSignals(True)
        entries = self.desk.store.entries(self.desk.tid) if self.desk.tid is not None else []
        self.table.setRowCount(len(entries))
        for i, e in enumerate(entries):
            name = QTableWidgetItem(e["name"])
            check = QTableWidgetItem()
            check.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            check.setCheckState(Qt.CheckState.Checked if e["checked_in"] else Qt.CheckState.Unchecked)
            first = QTableWidgetItem("" if e["first_round"] is None else str(e["first_round"]))
            gone = QTableWidgetItem("" if e["withdrawn_after"] is None else str(e["withdrawn_after"]))
            for j, item in enumerate((name, check, first, gone)):
                self.table.setItem(i, j, item)
        self.table.blockSignals(False)
        self._headers()

    def _headers(self) -> None:
        self.table.setHorizontalHeaderLabels([_("Player"), _("Checked in"), _("Plays from round"),
                                              _("Withdrew after round")])

    def retranslate(self) -> None:
        lang = i18n.current_language()
        self.name_edit.setPlaceholderText(_("Player's name"))
        self.name_edit.setAccessibleName(_("Player's name"))
        self.enter_button.setText(_("Enter the player"))
        self.withdraw_button.setText(_("Withdraw the player"))
        self.table.setAccessibleName(_("Entries"))
        self._headers()
        choices = [self.desk.store.ffc.choice(c) for c in ("late_entry", "withdrawal")]
        cite = self.desk.store.knowledge.clause_label   # a clause as people cite it, never its id
        self.notes.setText("\n".join(f"{c[lang]} ({cite(c['clause'], lang)})" for c in choices))
