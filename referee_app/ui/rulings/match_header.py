"""The head of the score sheet: the two players (or teams), tournament, round, table and referee.

Editable at any time, before the first stroke or after the last; each field reports every edit
(`edited(field, text)`), and the area saves it at once, so a name typed after the first stroke is
never lost.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QWidget

from referee_app.i18n import gettext as _
from referee_app.core.validation import MAX_NAME

# (field, object name, stretch): the stored field names of core/play/store.py's HEADER
FIELDS = (("first_name", "first_name", 4), ("second_name", "second_name", 4), ("tournament", "tournament", 4),
          ("round", "round", 1), ("table_no", "table_no", 1), ("referee", "referee", 3))


class MatchHeader(QWidget):
    edited = Signal(str, str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("match_header")
        self.fields: dict[str, QLineEdit] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for field, name, stretch in FIELDS:
            edit = QLineEdit(objectName=name)
            edit.setMaxLength(MAX_NAME)   # the store's one limit of names: never a refused autosave
            edit.textEdited.connect(lambda text, f=field: self.edited.emit(f, text))
            self.fields[field] = edit
            if field == "second_name":
                self.vs = QLabel("–")
                layout.addWidget(self.vs)
            layout.addWidget(edit, stretch)
        self.retranslate()

    def values(self) -> dict[str, str]:
        return {f: e.text().strip() for f, e in self.fields.items()}

    def load(self, meta: dict) -> None:
        for f, e in self.fields.items():
            e.setText(str(meta.get(f) or ""))

    def clear(self) -> None:
        for e in self.fields.values():
            e.clear()

    def retranslate(self) -> None:
        texts = {
            "first_name": (_("First player or team (breaks first)"), _("First player or team")),
            "second_name": (_("Second player or team"), _("Second player or team")),
            "tournament": (_("Tournament"), _("Tournament")),
            "round": (_("Round"), _("Round")),
            "table_no": (_("Table"), _("Table")),
            "referee": (_("Referee"), _("Referee")),
        }
        for f, (placeholder, name) in texts.items():
            self.fields[f].setPlaceholderText(placeholder)
            self.fields[f].setAccessibleName(name)
            self.fields[f].setToolTip(_("{field}: saved with the match as you type").format(field=name))
