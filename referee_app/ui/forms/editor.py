"""The editor of one kind of form (protest or disqualification): its fields laid out from
core/forms.py FIELDS, each labelled as on the printed form.
"""
from __future__ import annotations

from datetime import datetime
from typing import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QVBoxLayout, QWidget

from referee_app import i18n
from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.forms.fields import FIELDS, SIDES, check_kind, disqualification_rules
from referee_app.core.knowledge.model import ruleset_name
from .clause_picker import ClauseField
from .fields import ChoiceField, PairField, ParagraphField, TextField, TimeField
from .labels import field_label, label_text
from referee_app.ui.common.accessible import names_from_labels

MULTILINE = ("decision", "facts")   # fields written as a paragraph


class FormEditor(QWidget):
    """The fields of one kind of form, laid out from core/forms.py FIELDS."""

    edited = Signal(str)   # the field's name

    def __init__(self, knowledge, kind: str, clock: Callable[[], datetime]):
        super().__init__()
        self.knowledge = knowledge
        self.kind = check_kind(kind)
        self.fields: dict[str, QWidget] = {}
        self.labels: dict[str, QLabel] = {}
        outer = QVBoxLayout(self)
        self.form = QFormLayout()
        outer.addLayout(self.form)
        outer.addStretch(1)   # the shorter kind keeps its rows together at the top
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.recorded = QLabel(objectName="recorded_incidents")   # under "times", for a counted ground
        for f in FIELDS[kind]:
            widget = self._make(f, clock)
            widget.setObjectName(f"field_{f.name}")
            label = QLabel()
            label.setBuddy(widget)
            self.fields[f.name], self.labels[f.name] = widget, label
            self.form.addRow(label, widget)
            widget.edited.connect(lambda name=f.name: self.edited.emit(name))
            if f.name == "players":
                widget.edited.connect(self.fill_protester)
            if f.name == "times":
                self.form.addRow("", self.recorded)
        self._fill_choices()

    def _make(self, f, clock):
        if f.type == "time":
            return TimeField(clock)
        if f.type == "pair":
            return PairField()
        if f.type == "score":
            return PairField(numeric=True)
        if f.type in ("side", "ruleset", "lang") or f.name == "ground":
            return ChoiceField()
        if f.type == "clause":
            return ClauseField(self.knowledge)
        if f.type in ("label", "count"):
            return TextField(numeric=f.type == "count")
        return ParagraphField() if f.name in MULTILINE else TextField()

    def _fill_choices(self) -> None:
        data, lang = self.knowledge.forms, i18n.current_language()
        self.fill_protester()
        self.fields["ruleset"].optional = False   # no ruleset named means the default one, shown as such
        self.fields["ruleset"].set_choices([(rid, ruleset_name(data.rulesets, rid, lang)) for rid in data.rulesets])
        self.fields["lang"].set_choices([(lg, i18n.LANGUAGE_NAMES.get(lg, lg)) for lg in i18n.LANGUAGES])
        if "ground" in self.fields:
            self.fill_grounds(self.fields["ruleset"].value())

    def fill_protester(self) -> None:
        """The protesting side offered by the players' names as typed ("Élodie (Joueur ou équipe 1)"),
        the printed form's words alone while a name is missing."""
        if "protester" not in self.fields:
            return
        data, lang = self.knowledge.forms, i18n.current_language()
        names = self.fields["players"].value() or {}
        self.fields["protester"].set_choices(
            [(s, f"{names[s]} ({data.label(s, lang)})" if names.get(s) else data.label(s, lang)) for s in SIDES])

    def fill_grounds(self, ruleset: str | None) -> None:
        """The grounds of the form's ruleset, each with its clause's text in the interface language."""
        kb, lang = self.knowledge.kb, i18n.current_language()
        try:
            rules = disqualification_rules(self.knowledge, {"ruleset": ruleset} if ruleset else {})
        except (BadInput, KnowledgeError):
            self.fields["ground"].set_choices([])
            return
        choices = []
        for g in rules.grounds:
            clause = kb.get(g.clause)
            text = clause.text_in(lang)[0] if clause else ""
            choices.append((g.clause, f"{self.knowledge.clause_label(g.clause, lang)} – {text}"))
        self.fields["ground"].set_choices(choices)

    def load(self, fields: dict) -> None:
        fields = {"ruleset": self.knowledge.forms.default_ruleset, **fields}
        for name, widget in self.fields.items():
            widget.blockSignals(True)
            widget.set_value(fields.get(name))
            widget.blockSignals(False)
        if "ground" in self.fields:
            self.fill_grounds(fields.get("ruleset"))
            self.fields["ground"].set_value(fields.get("ground"))
        self.fill_protester()

    def value(self, name: str):
        return self.fields[name].value()

    def set_read_only(self, read_only: bool) -> None:
        for widget in self.fields.values():
            widget.setEnabled(not read_only)

    def retranslate(self) -> None:
        for name, label in self.labels.items():
            label.setText(field_label(self.knowledge, self.kind, name))
        players = self.fields.get("players")
        score = self.fields.get("score")
        for pair in (players, score):
            if pair is not None:
                for side, edit in pair.edits.items():
                    edit.setPlaceholderText(label_text(self.knowledge, side))
        for name, widget in self.fields.items():
            if hasattr(widget, "retranslate"):
                widget.retranslate()
            if hasattr(widget, "name_parts"):   # a field of several controls: each named after the field
                widget.name_parts(self.labels[name].text())
        self._fill_choices()
        names_from_labels(self)
