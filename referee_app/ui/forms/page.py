"""The forms page: protests and disqualifications, filled in on screen and saved as they are typed.

Left, the list of forms (filtered by tournament and status) and the incidents of the matches;
right, the form being edited. Every change of a field is one committed write to the records
database (core/forms_store.py), so closing the window, or a crash, loses at most the keystroke
being typed. A protest's countdown to its filing deadline is refreshed each second.

Field labels are those of the printed form (the label table of knowledge/forms.yaml) in the
interface language, so the screen and the paper use the same words; the page's own strings are
marked with `_()`. The pieces live beside it: form_fields.py (one editor per kind of field),
clause_picker.py, form_editor.py, forms_list.py, incidents_panel.py, protest_countdown.py.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QFileDialog, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSplitter,
                               QStackedWidget, QTabWidget, QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.forms.fields import FIELDS, disqualification_rules, now, protest_rules
from referee_app.i18n import gettext as _
from referee_app.ui.common.layout import tool_row
from referee_app.core.storage.errors import StoreUnavailable, VersionConflict
from . import conflicts
from .editor import FormEditor
from .labels import field_label, label_text, outcome_text
from .forms_list import FormsList
from .incidents_panel import IncidentsPanel
from .protest_countdown import ProtestCountdown
from referee_app.core.storage.change_marks import forms_mark
from referee_app.ui.common.poller import ChangePoller
from referee_app.ui.common.server_state import server_state
from referee_app.ui.retranslate import follow_language



def _file_name(kind: str, number: int | None) -> str:
    """The name a form's PDF is offered under, in the interface language."""
    # TRANSLATORS: file names: lower case, hyphens, no spaces
    names = {("protest", True): _("protest-{number}"), ("disqualification", True): _("disqualification-{number}"),
             ("protest", False): _("protest-blank"), ("disqualification", False): _("disqualification-blank")}
    return names[(kind, number is not None)].format(number=number) + ".pdf"

class FormsPage(QWidget):
    """Protest and disqualification forms: list, editor, countdown, decisions, PDF."""

    def __init__(self, knowledge, store=None, clock: Callable[[], datetime] | None = None, parent=None):
        """`knowledge`: what the forms are checked against and labelled with (the window's root);
        `store`: the forms' records (the window's records database when None)."""
        super().__init__(parent)
        self.setObjectName("forms_page")
        self.clock = clock or now
        if store is None:
            from referee_app.core.forms.store import FormsStore
            from referee_app.ui.common.records_source import records_database

            store = FormsStore(knowledge, records_database(), clock=self.clock)
        self.store = store
        self.knowledge = knowledge
        self.current = None   # the Form being edited
        self._message: Callable[[], str] = str   # the message shown, as a function of the language

        # left: the list and its filters, the incidents
        self.forms_list = listed = FormsList(self.store, self.clock, lambda: self.current)
        # the list's widgets stay reachable from the page, where its callers and tests drive them
        self.table, self.tournament_filter, self.status_filter = listed.table, listed.tournament_filter, listed.status_filter
        self.new_protest, self.new_disqualification = listed.new_protest, listed.new_disqualification
        self.blank_button, self.blank_actions = listed.blank_button, listed.blank_actions

        self.incidents = IncidentsPanel(self.store)
        self.left_tabs = QTabWidget(objectName="forms_left_tabs")
        self.left_tabs.addTab(self.forms_list, "")
        self.left_tabs.addTab(self.incidents, "")

        # right: the form being edited
        self.title = QLabel(objectName="form_title")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        self.status_label = QLabel(objectName="form_status")
        self.countdown = ProtestCountdown(lambda: self.current, self.clock)
        self.notes = QLabel(objectName="form_notes")
        self.notes.setWordWrap(True)
        self.message = QLabel(objectName="form_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020; font-weight: bold;")
        self.message.hide()
        self.editors = {kind: FormEditor(knowledge, kind, self.clock) for kind in FIELDS}
        self.stack = QStackedWidget()
        self.empty = QLabel(objectName="forms_empty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.empty)
        for editor in self.editors.values():
            self.stack.addWidget(editor)
            editor.edited.connect(self._field_edited)
        self.file_button = QPushButton(objectName="file_form")
        self.upheld_button = QPushButton(objectName="decide_upheld")
        self.rejected_button = QPushButton(objectName="decide_rejected")
        self.export_button = QPushButton(objectName="export_pdf")
        self.delete_button = QPushButton(objectName="delete_draft")
        # the decisions on a row of their own: one row of five is wider than a 1280 screen in French
        decisions = tool_row(self.file_button, self.upheld_button, self.rejected_button)
        actions = tool_row(right=(self.export_button, self.delete_button))

        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.status_label)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.stack)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.addLayout(header)
        right_layout.addWidget(self.countdown)
        right_layout.addWidget(self.notes)
        right_layout.addWidget(self.message)
        right_layout.addWidget(scroll, 1)
        right_layout.addLayout(decisions)
        right_layout.addLayout(actions)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.left_tabs)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([440, 760])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

        self.forms_list.opened.connect(self.open_form)
        self.new_protest.clicked.connect(lambda: self.new_form("protest"))
        self.new_disqualification.clicked.connect(lambda: self.new_form("disqualification"))
        for kind, action in self.blank_actions.items():
            action.triggered.connect(lambda _c=False, k=kind: self.print_blank(k))
        self.file_button.clicked.connect(self.file_current)
        self.upheld_button.clicked.connect(lambda: self.decide("upheld"))
        self.rejected_button.clicked.connect(lambda: self.decide("rejected"))
        self.export_button.clicked.connect(lambda: self.export_pdf())
        self.delete_button.clicked.connect(self.delete_current)
        self.incidents.recorded.connect(self._incident_recorded)

        follow_language(self)
        self.retranslate()
        self.refresh_list()
        self.show_form(None)
        # forms filed or decided at other machines appear in the list without a restart
        self.poller = ChangePoller(self, lambda: forms_mark(self.store), self.refresh_list)
        self.poller.remember()

    # the countdown only runs while the page is on screen
    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.countdown.start()

    def hideEvent(self, event) -> None:
        self.countdown.stop()
        super().hideEvent(event)

    # -- strings --------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.left_tabs.setTabText(0, _("Forms"))
        self.left_tabs.setTabText(1, _("Incidents"))
        self.forms_list.retranslate()
        self.file_button.setText(_("File"))
        self.file_button.setToolTip(_("The form is complete and handed in"))
        self._show_decision_buttons()
        self.export_button.setText(_("Export PDF…"))
        self.delete_button.setText(_("Delete draft"))
        self.empty.setText(_("Choose a form in the list, or start a new protest or disqualification. "
                             "Every field is saved as you type."))
        for editor in self.editors.values():
            editor.retranslate()
        self.incidents.retranslate()
        self.refresh_list()
        if self.current is not None:
            self._show_header()
        self.show_message(self._message)

    # -- the list -------------------------------------------------------------------------------
    def refresh_list(self) -> None:
        self.forms_list.refresh()

    def select_form(self, form_id: int) -> None:
        if not self.forms_list.select(form_id):
            self.open_form(form_id)

    # -- one form -------------------------------------------------------------------------------
    def new_form(self, kind: str, prefill: dict | None = None) -> None:
        """A new draft, saved at once; the tournament filter and the interface language prefill it,
        and `prefill` (a protest filled from the match it is about) before them."""
        fields = {"lang": i18n.current_language()}
        if self.tournament_filter.currentData():
            fields["tournament"] = self.tournament_filter.currentData()
        fields.update(prefill or {})
        try:
            form = self.store.create(kind, fields)
        except StoreUnavailable as exc:
            server_state().noticed(exc)
            self.show_message(lambda e=exc: self._problem(e))
            return
        self.status_filter.setCurrentIndex(0)
        self.current = form
        self.refresh_list()
        self.show_form(form)
        self.editors[kind].fields["tournament"].setFocus()

    def open_form(self, form_id: int) -> None:
        try:
            self.show_form(self.store.get(form_id))
        except BadInput as exc:
            self.show_message(lambda e=exc: self._problem(e))

    def show_form(self, form) -> None:
        self.current = form
        self.show_message("")
        if form is None:
            self.stack.setCurrentWidget(self.empty)
            for w in (self.title, self.status_label, self.countdown, self.notes):
                w.setText("")
            for b in (self.file_button, self.upheld_button, self.rejected_button, self.export_button,
                      self.delete_button):
                b.setEnabled(False)
            return
        editor = self.editors[form.kind]
        editor.load(form.fields)
        editor.set_read_only(form.status == "decided")
        self.stack.setCurrentWidget(editor)
        self._show_header()

    def _show_decision_buttons(self) -> None:
        kind = self.current.kind if self.current else "protest"
        for button, outcome in ((self.upheld_button, "upheld"), (self.rejected_button, "rejected")):
            text = outcome_text(kind, outcome)
            button.setText(text[:1].upper() + text[1:])
            button.setToolTip(_("The tournament director's decision (fill in the director's name first)"))

    def _show_header(self) -> None:
        form = self.current
        number = self.knowledge.forms.label("form_no", i18n.current_language(), id=form.id)
        self.title.setText(f"{label_text(self.knowledge, form.kind)} – {number}")
        status = label_text(self.knowledge, form.status) + (f", {outcome_text(form.kind, form.outcome)}" if form.outcome else "")
        self.status_label.setText(_("Status: {status}").format(status=status))
        self.file_button.setEnabled(form.status == "draft")
        self.upheld_button.setEnabled(form.status == "filed")
        self.rejected_button.setEnabled(form.status == "filed")
        self.export_button.setEnabled(True)
        self.delete_button.setEnabled(form.status == "draft")
        self._show_decision_buttons()
        self.notes.setText(self._notes_text(form))
        self.notes.setVisible(bool(self.notes.text()))
        if form.kind == "disqualification":
            self._show_recorded()
        self.update_countdown()

    def _notes_text(self, form) -> str:
        """Where the ruleset borrows its rules, as the knowledge base says."""
        lang = i18n.current_language()
        try:
            if form.kind == "protest":
                return "\n".join(protest_rules(self.knowledge, form.fields).note_texts(lang))
            rules = disqualification_rules(self.knowledge, form.fields)
            ground = rules.ground(form.fields.get("ground") or "")
            return "\n".join(rules.note_texts(lang) + ([ground.note.get(lang, "")] if ground and ground.note else []))
        except (BadInput, KnowledgeError) as exc:
            return str(exc)

    def _show_recorded(self) -> None:
        editor = self.editors["disqualification"]
        incidents = self.store.counted_incidents("disqualification", self.current.fields)
        try:
            ground = disqualification_rules(self.knowledge, self.current.fields).ground(self.current.fields.get("ground") or "")
        except (BadInput, KnowledgeError):
            ground = None
        if ground and ground.count:
            editor.recorded.setText(_("{n} recorded incidents of this player in this match (more than {limit} "
                                      "needed)").format(n=len(incidents), limit=ground.count.more_than))
        else:
            editor.recorded.setText("")
        editor.recorded.setVisible(bool(editor.recorded.text()))

    def update_countdown(self) -> None:
        self.countdown.refresh()

    def _field_edited(self, name: str) -> None:
        """Autosave: every change of a field is written at once; a server out of reach keeps it waiting."""
        if self.current is None:
            return
        form_id, editor = self.current.id, self.editors[self.current.kind]
        widget, value = editor.fields.get(name), editor.value(name)
        key = ("form", form_id, name)
        try:
            # the version is read when the write is made, not when typed: a save that waited for the
            # server follows this machine's own saves made before it, and is refused only when another
            # machine changed the form meanwhile
            saved = server_state().save(key, lambda: self.store.set_field(form_id, name, value,
                                                                          expected_version=self._version(form_id)),
                                        on_saved=lambda form: self._field_saved(form, name),
                                        on_refused=lambda exc: self._field_refused(form_id, name, exc))
        except (BadInput, KnowledgeError, OSError) as exc:   # a failed write (StoreError) too: said in the page
            self._field_refused(form_id, name, exc)
            return
        if not saved and server_state().waiting(key):
            # what was typed stays in the field, marked as not saved yet, until the server takes it
            self._mark(widget, "waiting", _("Not saved yet: waiting for the records server"))
            self.show_message(lambda: _("Not saved yet: the records server cannot be reached. What you typed stays "
                                        "here and is saved as soon as it answers."))

    def _mark(self, widget, state: str, tip: str = "") -> None:
        """A field's border says whether what it shows is saved: refused (red), waiting (amber), or saved."""
        if widget is None:
            return
        widget.setProperty("save_state", state)
        widget.setProperty("refused", state == "refused")
        widget.setToolTip(tip)
        widget.setStyleSheet({"refused": "border: 2px solid #b00020;",
                              "waiting": "border: 2px dashed #b26a00;"}.get(state, ""))

    def _version(self, form_id: int):
        return self.current.version if self.current is not None and self.current.id == form_id else None

    def _field_refused(self, form_id: int, name: str, exc) -> None:
        if self.current is None or self.current.id != form_id:
            return
        if isinstance(exc, VersionConflict):
            conflicts.resolve(self, form_id, name, exc)
            return
        # what was typed stays in the field, marked with the reason; the next change saves it again
        self.show_message(lambda e=exc: _("Not saved: {problem}").format(problem=self._problem(e)))
        self._mark(self.editors[self.current.kind].fields.get(name), "refused", self._problem(exc))

    def field_not_saved(self, form_id: int, name: str, text: str) -> None:
        if self.current is None or self.current.id != form_id:
            return
        self.show_message(text)
        self._mark(self.editors[self.current.kind].fields.get(name), "refused", text)

    def _field_saved(self, form, name: str) -> None:
        if self.current is None or self.current.id != form.id:
            self.forms_list.update_row(form)
            return
        self.current = form
        editor = self.editors[form.kind]
        widget = editor.fields.get(name)
        if widget is not None and widget.property("save_state") in ("refused", "waiting"):
            self._mark(widget, "saved")
        if not any(w.property("save_state") in ("refused", "waiting") for w in editor.fields.values()):
            self.show_message("")
        if name == "ruleset" and "ground" in editor.fields:
            editor.fill_grounds(self.current.fields.get("ruleset"))
        if name in ("tournament", "players", "player", "board_ended_at", "ruleset", "filed_at"):
            self.forms_list.update_row(self.current)
        if name in ("ruleset", "ground", "player", "round", "table", "tournament", "at"):
            self._show_header()
        elif name == "board_ended_at":
            self.update_countdown()

    def _elsewhere(self, exc) -> bool:
        """A filing or a decision refused because another machine changed the form meanwhile: both
        versions are shown (then File or the decision is given again on the version kept)."""
        server_state().noticed(exc)
        if isinstance(exc, VersionConflict):
            conflicts.resolve(self, self.current.id, "", exc)
            return True
        return False

    def _problem(self, exc) -> str:
        """A refusal in the page's language: from its code, naming the field by its label."""
        from referee_app.ui.common.refusal_words import knows, said

        if isinstance(exc, StoreUnavailable):
            return _("the records server cannot be reached; nothing was changed. Try again once it answers.")
        label = None
        if isinstance(exc, BadInput) and exc.field:
            name = exc.field.split(".")[0]
            kind = self.current.kind if self.current else "protest"
            label = field_label(self.knowledge, kind, name) if name in self.editors[kind].fields else None
        if knows(exc):
            return said(exc, self.knowledge, label)
        if isinstance(exc, BadInput) and exc.field:
            return f"{label or exc.field}: {exc.problem}"
        return str(exc)

    def show_message(self, text: str | Callable[[], str]) -> None:
        """A visible message; given as a function, it is worded again when the language changes."""
        self._message = text if callable(text) else (lambda: text)
        self.message.setText(self._message())
        self.message.setVisible(bool(self.message.text()))

    def file_current(self) -> None:
        try:
            self.current = self.store.file(self.current.id, expected_version=self.current.version)
        except (BadInput, KnowledgeError) as exc:
            if self._elsewhere(exc):
                return
            self.show_message(lambda e=exc: _("Cannot file it yet: {problem}").format(problem=self._problem(e)))
            return
        self.show_form(self.current)
        self.refresh_list()

    def decide(self, outcome: str) -> None:
        director = self.editors[self.current.kind].value("director") or None
        try:
            self.current = self.store.decide(self.current.id, outcome, director, expected_version=self.current.version)
        except (BadInput, KnowledgeError) as exc:
            if self._elsewhere(exc):
                return
            self.show_message(lambda e=exc: self._problem(e))
            return
        self.show_form(self.current)
        self.refresh_list()

    def delete_current(self) -> None:
        try:
            self.store.delete(self.current.id)
        except BadInput as exc:
            server_state().noticed(exc)
            self.show_message(lambda e=exc: self._problem(e))
            return
        self.current = None
        self.refresh_list()
        self.show_form(None)

    def _ask_path(self, suggested: str) -> str:
        path, _filter = QFileDialog.getSaveFileName(self, _("Save as PDF"), str(Path.home() / suggested),
                                                    _("PDF documents (*.pdf)"))
        return path

    def export_pdf(self, path: str | None = None) -> Path | None:
        """The current form as PDF, in the form's language (else the interface's)."""
        from referee_app.core.forms.document import form_document
        from referee_app.printing.pdf import write_pdf

        form = self.current
        path = path or self._ask_path(_file_name(form.kind, form.id))
        if not path:
            return None
        try:
            html, title = form_document(self.store, form, None, i18n.current_language())
            return write_pdf(html, path, title)
        except (BadInput, KnowledgeError, OSError) as exc:
            self.show_message(lambda e=exc: _("The PDF was not written: {problem}").format(problem=self._problem(e)))
            return None

    def print_blank(self, kind: str, path: str | None = None) -> Path | None:
        """A blank form in the interface language, under the current form's ruleset (or the default)."""
        from referee_app.core.forms.document import blank_document
        from referee_app.printing.pdf import write_pdf

        path = path or self._ask_path(_file_name(kind, None))
        if not path:
            return None
        ruleset = self.current.fields.get("ruleset") if self.current else None
        try:
            html, title = blank_document(self.knowledge, kind, i18n.current_language(), ruleset)
            return write_pdf(html, path, title)
        except (BadInput, KnowledgeError, OSError) as exc:
            self.show_message(lambda e=exc: _("The PDF was not written: {problem}").format(problem=self._problem(e)))
            return None

    def _incident_recorded(self) -> None:
        self.refresh_list()
        if self.current is not None and self.current.kind == "disqualification":
            self._show_recorded()
