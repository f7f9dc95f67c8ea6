"""The forms page: protests and disqualifications, filled in on screen and saved as they are typed.

Left, the list of forms (filtered by tournament and status) and the incidents of the matches;
right, the form being edited. Every change of a field is one committed write to the records
database (core/forms_store.py), so closing the window, or a crash, loses at most the keystroke
being typed. A protest's countdown to its filing deadline is refreshed each second.

Field labels are those of the printed form (the label table of knowledge/forms.yaml) in the
interface language, so the screen and the paper use the same words; the page's own strings are
marked with `_()`.
"""
from __future__ import annotations

import unicodedata
from datetime import datetime
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QDateTime, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIntValidator
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDateTimeEdit, QFileDialog, QFormLayout, QFrame,
                               QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QMenu, QPlainTextEdit, QPushButton, QScrollArea, QSplitter, QStackedWidget,
                               QTableWidget, QTableWidgetItem, QTabWidget, QToolButton, QVBoxLayout, QWidget)

from .. import i18n
from ..core.errors import BadInput, KnowledgeError
from ..core.forms import (FIELDS, LANGS, SIDES, STATUSES, check_kind, disqualification_rules, now, parse_time,
                          protest_rules)
from ..core.forms_rules import forms_data
from ..i18n import gettext as _
from .retranslate import follow_language

ID_ROLE = Qt.ItemDataRole.UserRole
MULTILINE = ("decision", "facts")   # fields written as a paragraph
PICKER_LIMIT = 200                  # clauses listed at once by the clause picker


def _label(key: str) -> str:
    return forms_data().label(key, i18n.current_language())


def _field_label(kind: str, name: str) -> str:
    return forms_data().field_label(kind, name, i18n.current_language())


def _fold(text: str) -> str:
    """Lower case without accents, so that "regle" finds "règle"."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def _time(value, format: str = "short") -> str:
    """A stored time as the interface language writes the time of day, in this computer's zone."""
    return i18n.format_time(parse_time(value, "time").astimezone(), format)


def _clock_text(seconds: int) -> str:
    seconds = abs(seconds)
    hours, rest = divmod(seconds, 3600)
    return (f"{hours}:" if hours else "") + f"{rest // 60:02d}:{rest % 60:02d}"


# -- one editor per kind of field ---------------------------------------------------------------
# Each has `edited` (emitted only for the user's own changes, never for set_value), `value()` in
# the shape core/forms.py stores, and `set_value()`.

class TextField(QLineEdit):
    edited = Signal()

    def __init__(self, numeric: bool = False):
        super().__init__()
        self.numeric = numeric
        if numeric:
            self.setValidator(QIntValidator(0, 9999, self))
        self.textEdited.connect(lambda _t: self.edited.emit())

    def value(self):
        text = self.text().strip()
        return (int(text) if text.isdigit() else text) if self.numeric else text

    def set_value(self, value) -> None:
        self.setText("" if value is None else str(value))


class ParagraphField(QPlainTextEdit):
    edited = Signal()

    def __init__(self):
        super().__init__()
        self.setTabChangesFocus(True)
        self.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self._loading = False
        self.textChanged.connect(lambda: None if self._loading else self.edited.emit())

    def value(self):
        return self.toPlainText()

    def set_value(self, value) -> None:
        self._loading = True
        self.setPlainText("" if value is None else str(value))
        self._loading = False


class ChoiceField(QComboBox):
    """A closed list; the first item is "none" when the field is optional."""

    edited = Signal()

    def __init__(self, optional: bool = True):
        super().__init__()
        self.optional = optional
        # the grounds are whole sentences: the list pops up wide, the closed box stays narrow
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(12)
        self.activated.connect(lambda _i: self.edited.emit())

    def set_choices(self, choices: list[tuple[str, str]]) -> None:
        """`choices`: (value, text); keeps the current value when it is still a choice."""
        current = self.value()
        self.blockSignals(True)
        self.clear()
        if self.optional:
            self.addItem("—", None)
        for value, text in choices:
            self.addItem(text, value)
            self.setItemData(self.count() - 1, text, Qt.ItemDataRole.ToolTipRole)
        self.set_value(current)
        self.blockSignals(False)

    def value(self):
        return self.currentData()

    def set_value(self, value) -> None:
        self.setCurrentIndex(max(self.findData(value), 0))   # unknown: "none", or the first choice


class PairField(QWidget):
    """Two values side by side, one per side of the match (players, score)."""

    edited = Signal()

    def __init__(self, numeric: bool = False):
        super().__init__()
        self.edits = {side: TextField(numeric) for side in SIDES}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for i, side in enumerate(SIDES):
            if i:
                layout.addWidget(QLabel("–"))
            layout.addWidget(self.edits[side], 1)
            self.edits[side].edited.connect(self.edited)

    def value(self):
        out = {side: e.value() for side, e in self.edits.items() if e.value() not in ("", None)}
        return out or None

    def set_value(self, value) -> None:
        for side, edit in self.edits.items():
            edit.set_value((value or {}).get(side))


class TimeField(QWidget):
    """A time that may not be known yet: unticked = not yet; "Now" ticks it at the current time."""

    edited = Signal()

    def __init__(self, clock: Callable[[], datetime]):
        super().__init__()
        self.clock = clock
        self._loading = False
        self.known = QCheckBox()
        self.edit = QDateTimeEdit()
        self.edit.setDisplayFormat("yyyy-MM-dd HH:mm:ss")
        self.edit.setCalendarPopup(True)
        self.now_button = QPushButton()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.known)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.now_button)
        self.known.toggled.connect(self._toggled)
        self.edit.dateTimeChanged.connect(lambda _d: self.edited.emit() if self.known.isChecked() else None)
        self.now_button.clicked.connect(self.set_now)
        self.set_value(None)

    def _show(self, moment: datetime) -> None:
        """Shows `moment` in this computer's zone, without it counting as an edit."""
        self.edit.blockSignals(True)
        self.edit.setDateTime(QDateTime(moment.astimezone().replace(tzinfo=None)))
        self.edit.blockSignals(False)

    def _toggled(self, on: bool) -> None:
        self.edit.setEnabled(on)
        if not self._loading:
            if on:
                self._show(self.clock())
            self.edited.emit()

    def set_now(self) -> None:
        self._loading = True
        self.known.setChecked(True)
        self._loading = False
        self._show(self.clock())
        self.edited.emit()

    def value(self):
        if not self.known.isChecked():
            return None
        return self.edit.dateTime().toPython().astimezone().isoformat(timespec="seconds")

    def set_value(self, value) -> None:
        self._loading = True
        self.known.setChecked(bool(value))
        self.edit.setEnabled(bool(value))
        self._loading = False
        self._show(parse_time(value, "time") if value else self.clock())

    def retranslate(self) -> None:
        self.known.setToolTip(_("Tick when the time is known"))
        self.now_button.setText(_("Now"))
        self.now_button.setToolTip(_("Set to the current time"))


class ClausePicker(QFrame):
    """Searches and browses the whole rulebook so that a cited paragraph is a real clause."""

    chosen = Signal(str)

    def __init__(self):
        super().__init__()
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.kb = forms_data().kb
        self._index: list[tuple[str, str]] | None = None   # (clause id, folded searchable text)
        self.query = QLineEdit(objectName="clause_query")
        self.query.setClearButtonEnabled(True)
        self.source = QComboBox(objectName="clause_source")
        self.source.addItem("", None)
        for sid, src in self.kb.sources.items():
            self.source.addItem(src.short, sid)
        self.results = QListWidget(objectName="clause_results")
        self.results.setMinimumHeight(120)
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # long lines are elided
        self.preview = QLabel(objectName="clause_preview")
        self.preview.setWordWrap(True)
        self.preview.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.cite = QPushButton(objectName="clause_cite")
        top = QHBoxLayout()
        top.addWidget(self.query, 3)
        top.addWidget(self.source, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.preview)
        layout.addWidget(self.cite, 0, Qt.AlignmentFlag.AlignRight)
        self.query.textChanged.connect(self.refresh)
        self.source.currentIndexChanged.connect(self.refresh)
        self.results.currentItemChanged.connect(self._show_preview)
        self.results.itemActivated.connect(lambda _i: self._cite())
        self.cite.clicked.connect(self._cite)

    def _searchable(self) -> list[tuple[str, str]]:
        if self._index is None:  # built on first use: the page opens without reading every clause
            self._index = [(c.id, _fold(" ".join([c.id, c.paragraph, c.title, *(t["text"] for t in c.texts.values())])))
                           for c in self.kb.clauses.values()]
        return self._index

    def refresh(self) -> None:
        words = _fold(self.query.text()).split()
        source = self.source.currentData()
        lang = i18n.current_language()
        self.results.clear()
        shown = 0
        for cid, text in self._searchable():
            clause = self.kb.clauses[cid]
            if (source and clause.source != source) or not all(w in text for w in words):
                continue
            body, _official = clause.text_in(lang)
            item = QListWidgetItem(f"{cid}  ·  {clause.title}: {body[:90]}{'…' if len(body) > 90 else ''}")
            item.setData(ID_ROLE, cid)
            item.setToolTip(body)
            self.results.addItem(item)
            shown += 1
            if shown >= PICKER_LIMIT:
                break
        if self.results.count():
            self.results.setCurrentRow(0)
        else:
            self.preview.setText(_("No clause matches these words."))
        self.cite.setEnabled(bool(self.results.count()))

    def _show_preview(self, item, _previous=None) -> None:
        if item is None:
            return
        clause = self.kb.clauses[item.data(ID_ROLE)]
        text, official = clause.text_in(i18n.current_language())
        self.preview.setText(f"{clause.id} – {clause.paragraph}, {clause.title}\n{text}"
                             + ("" if official else "\n" + _("(translation, not official)")))

    def _cite(self) -> None:
        item = self.results.currentItem()
        if item is not None:
            self.chosen.emit(item.data(ID_ROLE))

    def retranslate(self) -> None:
        self.query.setPlaceholderText(_("Search the rulebook: words, or a paragraph such as 3.12"))
        self.source.setItemText(0, _("All sources"))
        self.cite.setText(_("Cite this paragraph"))
        if self.isVisible():
            self.refresh()


class ClauseField(QWidget):
    """The paragraph a protest relies on: typed as an id, or picked in the rulebook."""

    edited = Signal()

    def __init__(self):
        super().__init__()
        self.kb = forms_data().kb
        self.edit = QLineEdit(objectName="clause_edit")
        self.browse = QPushButton(objectName="clause_browse")
        self.browse.setCheckable(True)
        self.status = QLabel(objectName="clause_status")
        self.status.setWordWrap(True)
        self.picker = ClausePicker()
        self.picker.hide()
        row = QHBoxLayout()
        row.addWidget(self.edit, 1)
        row.addWidget(self.browse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.picker)
        self.edit.textEdited.connect(self._typed)
        self.browse.toggled.connect(self._toggle_picker)
        self.picker.chosen.connect(self._chosen)

    def _typed(self, _text) -> None:
        self.show_status()
        self.edited.emit()

    def _toggle_picker(self, on: bool) -> None:
        self.picker.setVisible(on)
        if on:
            self.picker.refresh()
            self.picker.query.setFocus()

    def _chosen(self, clause_id: str) -> None:
        self.edit.setText(clause_id)
        self.browse.setChecked(False)
        self.show_status()
        self.edited.emit()

    def value(self):
        return self.edit.text().strip()

    def set_value(self, value) -> None:
        self.edit.setText(value or "")
        self.show_status()

    def show_status(self) -> None:
        cid = self.value()
        clause = self.kb.get(cid) if cid else None
        if clause:
            text, _official = clause.text_in(i18n.current_language())
            self.status.setText(f"{clause.paragraph}, {clause.title}: {text[:160]}{'…' if len(text) > 160 else ''}")
            self.status.setStyleSheet("")
        else:
            self.status.setText(_label("not_a_clause") if cid else "")
            self.status.setStyleSheet("color: #b00020;" if cid else "")
        self.status.setVisible(bool(self.status.text()))

    def retranslate(self) -> None:
        self.edit.setPlaceholderText(_("e.g. icf-fr:3.12.d"))
        self.browse.setText(_("Browse the rulebook…"))
        self.picker.retranslate()
        self.show_status()


# -- the editor of one kind of form ----------------------------------------------------------------

class FormEditor(QWidget):
    """The fields of one kind of form, laid out from core/forms.py FIELDS."""

    edited = Signal(str)   # the field's name

    def __init__(self, kind: str, clock: Callable[[], datetime]):
        super().__init__()
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
            if f.name == "times":
                self.form.addRow("", self.recorded)
        self._fill_choices()

    @staticmethod
    def _make(f, clock):
        if f.type == "time":
            return TimeField(clock)
        if f.type == "pair":
            return PairField()
        if f.type == "score":
            return PairField(numeric=True)
        if f.type in ("side", "ruleset", "lang") or f.name == "ground":
            return ChoiceField()
        if f.type == "clause":
            return ClauseField()
        if f.type in ("label", "count"):
            return TextField(numeric=f.type == "count")
        return ParagraphField() if f.name in MULTILINE else TextField()

    def _fill_choices(self) -> None:
        data, lang = forms_data(), i18n.current_language()
        if "protester" in self.fields:
            self.fields["protester"].set_choices([(s, data.label(s, lang)) for s in SIDES])
        self.fields["ruleset"].optional = False   # no ruleset named means the default one, shown as such
        self.fields["ruleset"].set_choices([(rid, rs.name.get(lang, rid)) for rid, rs in data.rulesets.items()])
        self.fields["lang"].set_choices([(lg, i18n.LANGUAGE_NAMES.get(lg, lg)) for lg in LANGS])
        if "ground" in self.fields:
            self.fill_grounds(self.fields["ruleset"].value())

    def fill_grounds(self, ruleset: str | None) -> None:
        """The grounds of the form's ruleset, each with its clause's text in the interface language."""
        kb, lang = forms_data().kb, i18n.current_language()
        try:
            rules = disqualification_rules({"ruleset": ruleset} if ruleset else {})
        except (BadInput, KnowledgeError):
            self.fields["ground"].set_choices([])
            return
        choices = []
        for g in rules.grounds:
            clause = kb.get(g.clause)
            text = clause.text_in(lang)[0] if clause else ""
            choices.append((g.clause, f"{clause.paragraph if clause else g.clause} – {text}"))
        self.fields["ground"].set_choices(choices)

    def load(self, fields: dict) -> None:
        fields = {"ruleset": forms_data().default_ruleset, **fields}
        for name, widget in self.fields.items():
            widget.blockSignals(True)
            widget.set_value(fields.get(name))
            widget.blockSignals(False)
        if "ground" in self.fields:
            self.fill_grounds(fields.get("ruleset"))
            self.fields["ground"].set_value(fields.get("ground"))

    def value(self, name: str):
        return self.fields[name].value()

    def set_read_only(self, read_only: bool) -> None:
        for widget in self.fields.values():
            widget.setEnabled(not read_only)

    def retranslate(self) -> None:
        for name, label in self.labels.items():
            label.setText(_field_label(self.kind, name))
        players = self.fields.get("players")
        score = self.fields.get("score")
        for pair in (players, score):
            if pair is not None:
                for side, edit in pair.edits.items():
                    edit.setPlaceholderText(_label(side))
        for widget in self.fields.values():
            if hasattr(widget, "retranslate"):
                widget.retranslate()
        self._fill_choices()


# -- the page ------------------------------------------------------------------------------------

class FormsPage(QWidget):
    """Protest and disqualification forms: list, editor, countdown, decisions, PDF."""

    def __init__(self, store=None, clock: Callable[[], datetime] | None = None, parent=None):
        super().__init__(parent)
        self.setObjectName("forms_page")
        self.clock = clock or now
        if store is None:
            from ..core.forms_store import FormsStore

            store = FormsStore(clock=self.clock)
        self.store = store
        self.current = None   # the Form being edited
        self._message: Callable[[], str] = str   # the message shown, as a function of the language

        # left: the list and its filters, the incidents
        self.tournament_filter = QComboBox(objectName="tournament_filter")
        self.status_filter = QComboBox(objectName="status_filter")
        self.status_filter.addItem("", None)
        for status in STATUSES:
            self.status_filter.addItem("", status)
        self.table = QTableWidget(0, 6, objectName="forms_table")
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
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
        filters.addWidget(self.tournament_label)
        filters.addWidget(self.tournament_filter, 2)
        filters.addWidget(self.status_label_filter)
        filters.addWidget(self.status_filter, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_protest)
        buttons.addWidget(self.new_disqualification)
        buttons.addStretch(1)
        buttons.addWidget(self.blank_button)
        forms_tab = QWidget()
        forms_layout = QVBoxLayout(forms_tab)
        forms_layout.addLayout(filters)
        forms_layout.addWidget(self.table, 1)
        forms_layout.addLayout(buttons)

        self.incidents = IncidentsPanel(self.store)
        self.left_tabs = QTabWidget(objectName="forms_left_tabs")
        self.left_tabs.addTab(forms_tab, "")
        self.left_tabs.addTab(self.incidents, "")

        # right: the form being edited
        self.title = QLabel(objectName="form_title")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        self.status_label = QLabel(objectName="form_status")
        self.countdown = QLabel(objectName="form_countdown")
        self.countdown.setWordWrap(True)
        self.notes = QLabel(objectName="form_notes")
        self.notes.setWordWrap(True)
        self.message = QLabel(objectName="form_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020; font-weight: bold;")
        self.message.hide()
        self.editors = {kind: FormEditor(kind, self.clock) for kind in FIELDS}
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
        actions = QHBoxLayout()
        for b in (self.file_button, self.upheld_button, self.rejected_button):
            actions.addWidget(b)
        actions.addStretch(1)
        actions.addWidget(self.export_button)
        actions.addWidget(self.delete_button)

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

        self.tournament_filter.activated.connect(lambda _i: self.refresh_list())
        self.status_filter.activated.connect(lambda _i: self.refresh_list())
        self.table.itemSelectionChanged.connect(self._selection_changed)
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

        # the countdown to the filing deadline, refreshed each second
        self.timer = QTimer(self, interval=1000)
        self.timer.timeout.connect(self.update_countdown)

        follow_language(self)
        self.retranslate()
        self.refresh_list()
        self.show_form(None)

    # the countdown only runs while the page is on screen
    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.update_countdown()
        self.timer.start()

    def hideEvent(self, event) -> None:
        self.timer.stop()
        super().hideEvent(event)

    # -- strings --------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.left_tabs.setTabText(0, _("Forms"))
        self.left_tabs.setTabText(1, _("Incidents"))
        self.tournament_label.setText(_("Tournament:"))
        self.status_label_filter.setText(_("Status:"))
        self.status_filter.setItemText(0, _("All"))
        for i, status in enumerate(STATUSES, 1):
            self.status_filter.setItemText(i, _label(status))
        self.table.setHorizontalHeaderLabels([_("No."), _("Form"), _("Tournament"), _("Who"), _("Status"),
                                              _("Deadline")])
        self.new_protest.setText(_("New protest"))
        self.new_disqualification.setText(_("New disqualification"))
        self.blank_button.setText(_("Print blank form"))
        self.blank_button.setToolTip(_("A blank form as PDF, to fill in by hand"))
        for kind, action in self.blank_actions.items():
            action.setText(_label(kind))
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
        selected = self.current.id if self.current else None
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
        outcome = self._outcome_text(form.kind, form.outcome) if form.outcome else ""
        for col, text in enumerate((str(form.id), _label(form.kind), s["tournament"] or "", s["subject"],
                                    _label(form.status), _time(s["deadline"]) if s["deadline"] else "")):
            item = QTableWidgetItem(str(text))
            item.setData(ID_ROLE, form.id)
            if outcome:
                item.setToolTip(outcome)
            self.table.setItem(row, col, item)
        if s["late"]:  # in red rather than in words: the narrow column leaves "who" its room
            late = self.table.item(row, 5)
            late.setForeground(QColor("#b00020"))
            late.setText(f"{late.text()} !")
            late.setToolTip(_label("late"))

    def _update_row(self) -> None:
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).data(ID_ROLE) == self.current.id:
                self._fill_row(row, self.current)

    def _selection_changed(self) -> None:
        items = self.table.selectedItems()
        if items:
            self.open_form(items[0].data(ID_ROLE))

    def select_form(self, form_id: int) -> None:
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).data(ID_ROLE) == form_id:
                self.table.selectRow(row)
                return
        self.open_form(form_id)

    # -- one form -------------------------------------------------------------------------------
    def new_form(self, kind: str) -> None:
        """A new draft, saved at once; the tournament filter and the interface language prefill it."""
        fields = {"lang": i18n.current_language()}
        if self.tournament_filter.currentData():
            fields["tournament"] = self.tournament_filter.currentData()
        form = self.store.create(kind, fields)
        self.status_filter.setCurrentIndex(0)
        self.current = form
        self.refresh_list()
        self.show_form(form)
        self.editors[kind].fields["tournament"].setFocus()

    def open_form(self, form_id: int) -> None:
        try:
            self.show_form(self.store.get(form_id))
        except BadInput as exc:
            self.show_message(str(exc))

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

    @staticmethod
    def _outcome_text(kind: str, outcome: str) -> str:
        """What the tournament director's decision means for this kind of form."""
        if kind == "protest":
            return _("upheld: the match is replayed") if outcome == "upheld" else _("rejected: the result stands")
        return _("confirmed: the match is lost") if outcome == "upheld" else _("lifted")

    def _show_decision_buttons(self) -> None:
        kind = self.current.kind if self.current else "protest"
        for button, outcome in ((self.upheld_button, "upheld"), (self.rejected_button, "rejected")):
            text = self._outcome_text(kind, outcome)
            button.setText(text[:1].upper() + text[1:])
            button.setToolTip(_("The tournament director's decision (fill in the director's name first)"))

    def _show_header(self) -> None:
        form = self.current
        number = forms_data().label("form_no", i18n.current_language(), id=form.id)
        self.title.setText(f"{_label(form.kind)} – {number}")
        status = _label(form.status) + (f", {self._outcome_text(form.kind, form.outcome)}" if form.outcome else "")
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
                return "\n".join(protest_rules(form.fields).note_texts(lang))
            rules = disqualification_rules(form.fields)
            ground = rules.ground(form.fields.get("ground") or "")
            return "\n".join(rules.note_texts(lang) + ([ground.note.get(lang, "")] if ground and ground.note else []))
        except (BadInput, KnowledgeError) as exc:
            return str(exc)

    def _show_recorded(self) -> None:
        editor = self.editors["disqualification"]
        incidents = self.store.counted_incidents("disqualification", self.current.fields)
        try:
            ground = disqualification_rules(self.current.fields).ground(self.current.fields.get("ground") or "")
        except (BadInput, KnowledgeError):
            ground = None
        if ground and ground.count:
            editor.recorded.setText(_("{n} recorded incidents of this player in this match (more than {limit} "
                                      "needed)").format(n=len(incidents), limit=ground.count.more_than))
        else:
            editor.recorded.setText("")
        editor.recorded.setVisible(bool(editor.recorded.text()))

    def update_countdown(self) -> None:
        """The time left to hand in a protest's written report; "late" once the deadline has passed."""
        form = self.current
        if form is None or form.kind != "protest":
            self.countdown.setText("")
            self.countdown.hide()
            return
        self.countdown.show()
        try:
            t = form.timing(self.clock())
        except (BadInput, KnowledgeError) as exc:
            self.countdown.setText(str(exc))
            return
        style = ""
        if t["deadline"] is None:
            text = _("Deadline: it starts when the board ends (tick “{field}”).").format(
                field=_field_label("protest", "board_ended_at"))
        else:
            due = _time(t["deadline"], "medium")
            if form.status == "draft" and not t["late"]:
                text = _("Written report due in {left} (by {due})").format(left=_clock_text(t["remaining_seconds"]),
                                                                          due=due)
                style = "font-weight: bold;"
            elif form.status == "draft":
                text = _("LATE by {late} (due by {due}): it can still be filed, and will be marked late.").format(
                    late=_clock_text(t["remaining_seconds"]), due=due)
                style = "color: #b00020; font-weight: bold;"
            elif t["late"]:
                text = _("Filed late (due by {due}).").format(due=due)
                style = "color: #b00020; font-weight: bold;"
            else:
                text = _("Filed on time (due by {due}).").format(due=due)
        self.countdown.setText(text)
        self.countdown.setStyleSheet(style)

    def _field_edited(self, name: str) -> None:
        """Autosave: every change of a field is written at once."""
        if self.current is None:
            return
        editor = self.editors[self.current.kind]
        try:
            self.current = self.store.set_field(self.current.id, name, editor.value(name))
        except (BadInput, KnowledgeError) as exc:
            self.show_message(lambda e=exc: _("Not saved: {problem}").format(problem=self._problem(e)))
            return
        self.show_message("")
        if name == "ruleset" and "ground" in editor.fields:
            editor.fill_grounds(self.current.fields.get("ruleset"))
        if name in ("tournament", "players", "player", "board_ended_at", "ruleset", "filed_at"):
            self._update_row()
        if name in ("ruleset", "ground", "player", "round", "table", "tournament", "at"):
            self._show_header()
        elif name == "board_ended_at":
            self.update_countdown()

    def _problem(self, exc) -> str:
        if isinstance(exc, BadInput) and exc.field:
            name = exc.field.split(".")[0]
            kind = self.current.kind if self.current else "protest"
            label = _field_label(kind, name) if name in self.editors[kind].fields else exc.field
            return f"{label}: {exc.problem}"
        return str(exc)

    def show_message(self, text: str | Callable[[], str]) -> None:
        """A visible message; given as a function, it is worded again when the language changes."""
        self._message = text if callable(text) else (lambda: text)
        self.message.setText(self._message())
        self.message.setVisible(bool(self.message.text()))

    def file_current(self) -> None:
        try:
            self.current = self.store.file(self.current.id)
        except (BadInput, KnowledgeError) as exc:
            self.show_message(lambda e=exc: _("Cannot file it yet: {problem}").format(problem=self._problem(e)))
            return
        self.show_form(self.current)
        self.refresh_list()

    def decide(self, outcome: str) -> None:
        director = self.editors[self.current.kind].value("director") or None
        try:
            self.current = self.store.decide(self.current.id, outcome, director)
        except (BadInput, KnowledgeError) as exc:
            self.show_message(lambda e=exc: self._problem(e))
            return
        self.show_form(self.current)
        self.refresh_list()

    def delete_current(self) -> None:
        try:
            self.store.delete(self.current.id)
        except BadInput as exc:
            self.show_message(str(exc.problem))
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
        from ..core.forms_document import form_document
        from .pdf import write_pdf

        form = self.current
        path = path or self._ask_path(f"{form.kind}-{form.id}.pdf")
        if not path:
            return None
        try:
            html, title = form_document(self.store, form)
            return write_pdf(html, path, title)
        except (BadInput, KnowledgeError, OSError) as exc:
            self.show_message(lambda e=exc: _("The PDF was not written: {problem}").format(problem=e))
            return None

    def print_blank(self, kind: str, path: str | None = None) -> Path | None:
        """A blank form in the interface language, under the current form's ruleset (or the default)."""
        from ..core.forms_document import blank_document
        from .pdf import write_pdf

        path = path or self._ask_path(f"{kind}-blank.pdf")
        if not path:
            return None
        ruleset = self.current.fields.get("ruleset") if self.current else None
        try:
            html, title = blank_document(kind, ruleset=ruleset)
            return write_pdf(html, path, title)
        except (BadInput, KnowledgeError, OSError) as exc:
            self.show_message(lambda e=exc: _("The PDF was not written: {problem}").format(problem=e))
            return None

    def _incident_recorded(self) -> None:
        self.refresh_list()
        if self.current is not None and self.current.kind == "disqualification":
            self._show_recorded()


class IncidentsPanel(QWidget):
    """Records the incidents of a match (e.g. each disturbance), which a repeated offence counts."""

    recorded = Signal()

    def __init__(self, store):
        super().__init__()
        self.store = store
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
            self._show(lambda e=exc: f"{self.labels[e.field].text() if e.field in self.labels else e.field}: "
                                     f"{e.problem}")
            return
        self.message.setStyleSheet("")
        self._show(lambda: _("Incident recorded."))
        self.inputs["note"].clear()
        self.refresh()
        self.recorded.emit()

    def _show(self, message: Callable[[], str]) -> None:
        self._message = message
        self.message.setText(message())

    def refresh(self) -> None:
        self.list.clear()
        for i in reversed(self.store.incidents()):
            when = _time(i["at"], "medium")
            text = f"{when}  {i['tournament']} · {i['round']} · {i['table']} · {i['player']}: {_label(i['kind'])}"
            self.list.addItem(text + (f" – {i['note']}" if i["note"] else ""))

    def retranslate(self) -> None:
        for name, label in self.labels.items():
            label.setText(_("Note") if name == "note" else _("Kind") if name == "kind"
                          else _field_label("disqualification", name))
        self.kind.set_choices([(k, _label(k)) for k in forms_data().incident_kinds])
        self.record_button.setText(_("Record incident"))
        self.record_button.setToolTip(_("Each incident is counted when a repeated offence is a ground "
                                        "for disqualification"))
        self._show(self._message)
        self.refresh()
