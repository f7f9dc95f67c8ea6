"""The journal: every change to the tournament, oldest first, with who made it and when (the
server's login), as `tournament log` prints it, in the interface language."""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget

from referee_app.core.errors import BadInput
from referee_app.core.tournament.journal import entry_text
from referee_app.i18n import current_language
from referee_app.i18n import gettext as _
from referee_app.ui.retranslate import follow_language


class JournalView(QWidget):
    def __init__(self, desk, parent=None):
        super().__init__(parent)
        self.setObjectName("tournament_journal")
        self.desk = desk
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.list = QListWidget(objectName="journal_list")
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.list, 1)
        follow_language(self)
        self.retranslate()

    def refresh(self) -> None:
        self.list.clear()
        if self.desk.tid is None:
            return
        try:
            entries = self.desk.store.log(self.desk.tid)
        except BadInput as exc:   # the server out of reach: said above the tabs, the list stays empty
            self.desk.show_message(self.desk.refusal(exc))
            return
        lang = current_language()
        self.list.addItems([entry_text(e, lang) for e in entries])
        self.list.scrollToBottom()

    def retranslate(self) -> None:
        self.heading.setText(_("Every change to the tournament, oldest first: when, who (the login), what."))
        self.list.setAccessibleName(_("Journal"))
        self.refresh()
