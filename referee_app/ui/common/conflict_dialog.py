"""Two versions of one record side by side, when it was changed on another machine while it was
being edited here: the user keeps theirs or writes theirs over it, knowingly; nothing is
overwritten without that choice. Closing the dialog decides nothing: what was typed stays on
screen, not saved."""
from __future__ import annotations

import json

from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QHeaderView, QLabel, QPushButton,
                               QTableWidget, QTableWidgetItem, QVBoxLayout)

from referee_app.i18n import gettext as _
from referee_app.ui.common.accessible import name as accessible_name

KEEP_MINE, TAKE_THEIRS = "mine", "theirs"


def value_text(value) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


class ConflictDialog(QDialog):
    def __init__(self, record: str, mine: dict, theirs: dict, labels: dict | None = None, parent=None):
        """`record`: what it is, as the user calls it ("Protest – No. 12"); `mine` and `theirs`: the
        fields as this machine would write them and as now stored; `labels`: each field's name on screen."""
        super().__init__(parent)
        self.setObjectName("conflict_dialog")
        self.choice: str | None = None
        labels = labels or {}
        self.setWindowTitle(_("Changed on another machine"))
        self.setMinimumSize(640, 360)
        self.intro = QLabel(_("{record} was changed on another machine while you were editing it here. Nothing has "
                              "been overwritten. Compare the two versions and choose which one to keep.").format(
            record=record), objectName="conflict_intro", wordWrap=True)
        names = list(mine) + [k for k in theirs if k not in mine]
        self.differing = [k for k in names if mine.get(k) != theirs.get(k)]
        # the differences first, then what both versions agree on, for context
        rows = self.differing + [k for k in names if k not in self.differing]
        self.table = QTableWidget(len(rows), 3, objectName="conflict_table")
        self.table.setHorizontalHeaderLabels([_("Field"), _("Yours (this machine)"),
                                              _("Saved on the other machine")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        accessible_name(self.table, _("The two versions"), _("Each field: yours, and the one saved on the other machine"))
        self.table.setWordWrap(True)
        bold = QFont()
        bold.setBold(True)
        for row, key in enumerate(rows):
            cells = (labels.get(key, key), value_text(mine.get(key)), value_text(theirs.get(key)))
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if key in self.differing:
                    item.setFont(bold)
                    item.setToolTip(_("The two versions differ here"))
                self.table.setItem(row, col, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for col in (1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        self.note = QLabel(objectName="conflict_note", wordWrap=True)
        self.note.setText(_("The differences are in bold. Keeping yours writes it over the other machine's version; "
                            "that version stays in the history."))
        self.buttons = QDialogButtonBox()
        self.keep_button = QPushButton(_("Keep mine"), objectName="conflict_keep_mine")
        self.keep_button.setToolTip(_("Write your version over the one saved on the other machine"))
        self.take_button = QPushButton(_("Take theirs"), objectName="conflict_take_theirs")
        self.take_button.setToolTip(_("Show the version saved on the other machine; yours is not written"))
        self.later_button = QPushButton(_("Decide later"), objectName="conflict_later")
        self.buttons.addButton(self.keep_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.take_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.later_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.keep_button.clicked.connect(lambda: self._choose(KEEP_MINE))
        self.take_button.clicked.connect(lambda: self._choose(TAKE_THEIRS))
        self.later_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.take_button.setDefault(True)   # Enter never overwrites

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()


def ask_conflict(parent, record: str, mine: dict, theirs: dict, labels: dict | None = None) -> str | None:
    """KEEP_MINE, TAKE_THEIRS, or None to decide later. Tests replace this."""
    dialog = ConflictDialog(record, mine, theirs, labels, parent)
    dialog.exec()
    return dialog.choice
