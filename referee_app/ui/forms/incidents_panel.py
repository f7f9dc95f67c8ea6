"""The incidents of a match (e.g. each disturbance), recorded as they happen, so that a repeated
offence can be counted when a disqualification is filed.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from referee_app.core.errors import BadInput
from referee_app.i18n import gettext as _
from .fields import ChoiceField, TextField
from .labels import field_label, label_text, local_time
from referee_app.ui.common.accessible import name as accessible_name
from referee_app.ui.common.accessible import names_from_labels


class IncidentsPanel(QWidget):
    """Records the incidents of a match (e.g. each disturbance), which a repeated offence counts."""

    recorded = Signal()

    def __init__(self, store):
        super().__init__()
        self.store = store
        self.knowledge = store.knowledge
        self._message: Callable[[], str] = str
        self.inputs = {name: TextField(numeric=False) for name in ("tournament", "round", "table", "player", "note")}
        for name, widget in self.inputs.items():
            widget.setObjectName(f"incident_{name}")
        self.kind = ChoiceField(optional=False)
        self.kind.setObjectName("incident_kind")
        self.labels = {name: QLabel() for name in (*self.inputs, "kind")}
        self.record_button = QPushButton(objectName="record_incident")
        self.message = QLabel(objectName="incident_message")
        self.message.setWordWrap(True)
        self.list = QListWidget(objectName="incidents_list")
        for name, label in self.labels.items():
            label.setBuddy(self.kind if name == "kind" else self.inputs[name])   # a label names its field
        form = QFormLayout()
        for name in ("tournament", "round", "table", "player"):
            form.addRow(self.labels[name], self.inputs[name])
        form.addRow(self.labels["kind"], self.kind)
        form.addRow(self.labels["note"], self.inputs["note"])
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.record_button, 0, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.message)
        layout.addWidget(self.list, 1)
        self.record_button.clicked.connect(self.record)
        self.refresh()

    def record(self) -> None:
        fields = {name: w.value() for name, w in self.inputs.items() if w.value() not in ("", None)}
        fields["kind"] = self.kind.value()
        try:
            self.store.record_incident(fields)
        except BadInput as exc:
            self.message.setStyleSheet("color: #b00020; font-weight: bold;")
            self._show(lambda e=exc: self._refusal(e))
            return
        self.message.setStyleSheet("")
        self._show(lambda: _("Incident recorded."))
        self.inputs["note"].clear()
        self.refresh()
        self.recorded.emit()

    def _refusal(self, exc: BadInput) -> str:
        """The refusal in the window's language, the field named by its label (the colon of the
        label left out)."""
        from referee_app.ui.common.refusal_words import knows, said

        label = self.labels[exc.field].text().rstrip(": \u00a0") if exc.field in self.labels else None
        if knows(exc):
            return said(exc, self.store.knowledge, label)
        return f"{label or exc.field}: {exc.problem}"

    def _show(self, message: Callable[[], str]) -> None:
        self._message = message
        self.message.setText(message())

    def refresh(self) -> None:
        self.list.clear()
        for i in reversed(self.store.incidents()):
            when = local_time(i["at"], "medium")
            text = (f"{when}  {i['tournament']} · {i['round']} · {i['table']} · {i['player']}: "
                    f"{label_text(self.knowledge, i['kind'])}")
            self.list.addItem(text + (f" – {i['note']}" if i["note"] else ""))

    def retranslate(self) -> None:
        for name, label in self.labels.items():
            label.setText(_("Note") if name == "note" else _("Kind") if name == "kind"
                          else field_label(self.knowledge, "disqualification", name))
        self.kind.set_choices([(k, label_text(self.knowledge, k)) for k in self.knowledge.forms.incident_kinds])
        self.record_button.setText(_("Record incident"))
        self.record_button.setToolTip(_("Each incident is counted when a repeated offence is a ground "
                                        "for disqualification"))
        self._show(self._message)
        names_from_labels(self)
        accessible_name(self.list, _("Incidents recorded"), _("The latest first: when, where, who and what"))
        self.refresh()
