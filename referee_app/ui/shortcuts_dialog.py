"""F1: every action of the window and its keys, generated from the actions themselves so that
a shortcut added anywhere shows up here."""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QDialog, QDialogButtonBox, QHeaderView, QTableWidget, QTableWidgetItem, QVBoxLayout

from referee_app.i18n import gettext as _


def shortcut_rows(window) -> list[tuple[str, str]]:
    rows, seen = [], set()
    for action in window.findChildren(QAction):
        keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts())
        text = action.text().replace("&", "")
        if keys and text and (text, keys) not in seen:
            seen.add((text, keys))
            rows.append((text, keys))
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("shortcuts_dialog")
        rows = shortcut_rows(window)
        self.table = table = QTableWidget(len(rows), 2, self)
        table.verticalHeader().hide()
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        for i, (text, keys) in enumerate(rows):
            table.setItem(i, 0, QTableWidgetItem(text))
            table.setItem(i, 1, QTableWidgetItem(keys))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)
        self.resize(520, 560)
        self.retranslate()

    def retranslate(self) -> None:
        # A modal dialog: the language cannot change while it is open, so no listener is needed.
        self.setWindowTitle(_("Keyboard shortcuts"))
        self.table.setHorizontalHeaderLabels([_("Action"), _("Keys")])
