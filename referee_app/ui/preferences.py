"""Preferences: where the records live (this machine's file, or a server the tournament shares).

The URL is checked before it is kept (core/storage/location.py): only SQLite and PostgreSQL, and
never a password, which would sit in a plain settings file; the message says where secrets go.
The choice takes effect when carrom-referee next starts, because every open score sheet and form
is bound to the records it was read from: switching under them would mix two databases.
"""
from __future__ import annotations

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QGroupBox, QLabel, QLineEdit, QVBoxLayout)

from referee_app.core.storage import location
from referee_app.i18n import gettext as _
from . import settings


def refusal_text(exc: location.UrlRefused) -> str:
    return {
        "malformed": _("This is not a database address."),
        "scheme": _("Only two kinds of database can hold the records: sqlite:///PATH (a file) or "
                    "postgresql://HOST/DATABASE (a server)."),
        "password": _("A password is never kept in the settings. Put it in PostgreSQL's password file "
                      "(PGPASSFILE, ~/.pgpass), in a service of the service file (PGSERVICEFILE, then "
                      "postgresql:///?service=NAME), or in the PG* environment variables (PGPASSWORD)."),
        "no_file": _("An SQLite address names its file: sqlite:///PATH."),
        "no_database": _("Name the database: postgresql://HOST/DATABASE, or postgresql:///?service=NAME."),
    }.get(exc.reason, str(exc))


class PreferencesDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("preferences")
        self.setWindowTitle(_("Preferences"))
        self.setMinimumWidth(560)
        self.records_box = QGroupBox(_("Records database"))
        self.explanation = QLabel(_("Where the score sheets, forms, inspections and tournaments are kept. Leave it "
                                    "empty for this computer's own records file. For a server every table of the "
                                    "tournament shares: postgresql://HOST/DATABASE."), wordWrap=True)
        self.url = QLineEdit(objectName="database_url")
        self.url.setPlaceholderText(_("empty: this computer's records file"))
        self.url.setAccessibleName(_("Records database address"))
        self.url_label = QLabel(_("Address:"))
        self.url_label.setBuddy(self.url)
        self.environment = QLabel(objectName="database_url_environment", wordWrap=True)
        self.problem = QLabel(objectName="database_url_problem", wordWrap=True)
        self.problem.setStyleSheet("color: #b00020; font-weight: bold;")
        self.problem.hide()
        self.when = QLabel(_("The change takes effect the next time carrom-referee starts."),
                           objectName="database_url_when", wordWrap=True)
        form = QFormLayout()
        form.addRow(self.url_label, self.url)
        box = QVBoxLayout(self.records_box)
        for w in (self.explanation,):
            box.addWidget(w)
        box.addLayout(form)
        for w in (self.environment, self.problem, self.when):
            box.addWidget(w)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.records_box)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.url.textEdited.connect(lambda _t: self.problem.hide())
        self._load()

    def _load(self) -> None:
        kept = settings.get_str(settings.DATABASE_URL)
        url, source = location.chosen(kept)
        if source == "environment":
            # what the field holds would not be used: show what is, and why it cannot be changed here
            self.url.setText(location.shown(url))
            self.url.setReadOnly(True)
            self.url.setEnabled(False)
            self.environment.setText(_("The environment variable {name} is set: it chooses the records database "
                                       "and wins over this setting. Unset it to choose here.").format(
                name=location.ENV_VAR))
        else:
            self.url.setText(kept)
            self.environment.hide()

    def accept(self) -> None:
        if self.url.isReadOnly():
            super().accept()
            return
        try:
            url = location.check_setting(self.url.text())
        except location.UrlRefused as exc:
            self.problem.setText(refusal_text(exc))
            self.problem.show()
            self.adjustSize()   # room for the wrapped message, under the field
            self.url.setFocus()
            return
        settings.put(settings.DATABASE_URL, url)
        super().accept()
