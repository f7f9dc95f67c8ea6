"""The equipment inspection page: measure an item, see each verdict as it is typed, save the
record, reopen or re-inspect a past one, print its certificate.

Left, the form of the item being inspected: one row per measurement in the order an inspector
takes them (the order of knowledge/equipment/*.yaml), each with the limit beside it and a
verdict that is a mark and a word as well as a colour; a coin set is a table, one coin per row.
Right, the past inspections. Everything about limits comes from the specifications through the
core (core/inspection.py); this page only reads fields and shows answers. Typing that is not a
reading shows why under the field, never a traceback. The pieces live beside it:
reading_row.py and measurement_form.py, coin_set_table.py, inspection_history.py,
verdict_style.py and limit_text.py.
"""
from __future__ import annotations


from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFormLayout, QFrame, QGroupBox, QHBoxLayout, QLabel,
                               QLineEdit, QPlainTextEdit, QPushButton, QScrollArea, QSplitter, QStackedWidget,
                               QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.core.inspection import wording as fmt
from referee_app.core.errors import BadInput
from referee_app.core.storage.errors import StoreError
from referee_app.ui.common.server_state import server_state
from referee_app.core.inspection.verdict import ReadingRefused, inspect
from referee_app.core.inspection.entry import EntryError, refusal
from referee_app.core.inspection.model import Item
from referee_app.i18n import gettext as _
from .coin_set_table import CoinSetForm
from .history import InspectionHistory
from .measurement_form import MeasurementForm
from referee_app.ui.common.verdict_style import show_verdict
from referee_app.ui.common.accessible import names_from_labels

# The striker first: every player's must be approved before each match (icf-fr 4.b, it 98).
ITEM_ORDER = ("striker", "board", "coin_set", "coin", "stand", "chair", "lamp")


class InspectionPage(QWidget):
    """The whole page; `store` defaults to the user's records database."""

    saved = Signal(int)

    def __init__(self, knowledge, store=None, parent=None):
        super().__init__(parent)
        self.setObjectName("inspection_page")
        self._store = store
        self.knowledge = knowledge
        self.specs = knowledge.equipment   # read when the page is first shown, not at start-up
        self.record_id: int | None = None        # the record shown (saved or reopened)
        self.previous_id: int | None = None      # set while re-inspecting
        self._dirty = False
        self._build()
        self._item_changed(0)
        self.retranslate()
        remove = i18n.on_language_changed(lambda _lang: self.retranslate())
        self.destroyed.connect(lambda *_a: remove())
        self.refresh_history()

    # -- building -----------------------------------------------------------------------------
    def _build(self) -> None:
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addWidget(splitter)

        left = QWidget()
        form_side = QVBoxLayout(left)
        head = QFormLayout()
        head.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.item_combo = QComboBox(objectName="item_combo")
        names = [n for n in ITEM_ORDER if n in self.specs.items] + [n for n in self.specs.items if n not in ITEM_ORDER]
        for name in names:
            self.item_combo.addItem(name, name)
        self.label_edit = QLineEdit(objectName="label_edit")
        self.inspector_edit = QLineEdit(objectName="inspector_edit")
        self.tournament_edit = QLineEdit(objectName="tournament_edit")
        self.head_labels = [QLabel() for _i in range(4)]
        for label, field in zip(self.head_labels, (self.item_combo, self.label_edit, self.inspector_edit,
                                                   self.tournament_edit)):
            label.setBuddy(field)
            head.addRow(label, field)
        form_side.addLayout(head)

        self.banner = QLabel(objectName="banner")
        self.banner.setWordWrap(True)
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.setStyleSheet("QLabel#banner { padding: 6px; font-weight: bold; }")
        self.banner.hide()
        form_side.addWidget(self.banner)

        self.hint = QLabel(objectName="entry_hint")
        self.hint.setWordWrap(True)
        form_side.addWidget(self.hint)
        # One page per kind of item. A form of rows scrolls on its own; the coin table scrolls
        # itself, so the buttons and counts under it stay in view.
        self.forms = QStackedWidget(objectName="forms")
        self.form_of: dict[str, QWidget] = {}
        self.page_of: dict[str, QWidget] = {}
        for name in names:
            item = self.specs.item(name)
            form = CoinSetForm(item, self.specs.item(item.each), kb=self.knowledge.kb) if item.each \
                else MeasurementForm(item, kb=self.knowledge.kb)
            form.changed.connect(self._form_changed)
            page = form
            if not item.each:
                page = QScrollArea()
                page.setWidgetResizable(True)
                page.setFrameShape(QFrame.Shape.NoFrame)
                page.setWidget(form)
            self.forms.addWidget(page)
            self.form_of[name], self.page_of[name] = form, page
        form_side.addWidget(self.forms, 1)
        self.item_combo.currentIndexChanged.connect(self._item_changed)

        self.approval = QLabel(objectName="approval_note")
        self.approval.setWordWrap(True)
        form_side.addWidget(self.approval)

        self.record_box = QGroupBox()
        record = QFormLayout(self.record_box)
        self.notes_edit = QPlainTextEdit(objectName="notes_edit")
        self.notes_edit.setFixedHeight(48)
        self.notes_edit.textChanged.connect(self._form_changed)
        photo_row = QHBoxLayout()
        self.photo_edit = QLineEdit(objectName="photo_edit")
        self.photo_edit.textChanged.connect(self._form_changed)
        self.photo_button = QPushButton(objectName="photo_button")
        self.photo_button.clicked.connect(self._choose_photo)
        photo_row.addWidget(self.photo_edit, 1)
        photo_row.addWidget(self.photo_button)
        self.notes_label, self.photo_label = QLabel(), QLabel()
        self.notes_label.setBuddy(self.notes_edit)
        self.photo_label.setBuddy(self.photo_edit)
        record.addRow(self.notes_label, self.notes_edit)
        record.addRow(self.photo_label, photo_row)
        form_side.addWidget(self.record_box)

        self.overall = QLabel(objectName="overall_verdict")
        font = self.overall.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        self.overall.setFont(font)
        self.overall.setWordWrap(True)
        form_side.addWidget(self.overall)
        self.status = QLabel(objectName="status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form_side.addWidget(self.status)
        actions = QHBoxLayout()
        self.save_button = QPushButton(objectName="save_button")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        self.new_button = QPushButton(objectName="new_button")
        self.new_button.clicked.connect(self.new_inspection)
        self.certificate_button = QPushButton(objectName="certificate_button")
        self.certificate_button.clicked.connect(lambda: self.export_certificate())
        for b in (self.save_button, self.new_button, self.certificate_button):
            actions.addWidget(b)
        actions.addStretch(1)
        form_side.addLayout(actions)
        splitter.addWidget(left)

        self.past = InspectionHistory(self.specs)
        # the history's widgets stay reachable from the page, where its callers and tests drive them
        self.history, self.approved_only = self.past.table, self.past.approved_only
        self.reopen_button, self.reinspect_button = self.past.reopen_button, self.past.reinspect_button
        self.approved_only.toggled.connect(lambda _c: self.refresh_history())
        self.tournament_edit.editingFinished.connect(
            lambda: self.refresh_history() if self.approved_only.isChecked() else None)
        self.history.doubleClicked.connect(lambda _i: self.reopen())
        self.history.itemSelectionChanged.connect(self._update_buttons)
        self.reopen_button.clicked.connect(lambda: self.reopen())
        self.reinspect_button.clicked.connect(lambda: self.reinspect())
        splitter.addWidget(self.past)
        splitter.setStretchFactor(0, 5)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([1000, 400])

    # -- the store ----------------------------------------------------------------------------
    @property
    def store(self):
        if self._store is None:
            from referee_app.core.inspection.store import InspectionStore
            from referee_app.ui.common.records_source import records_database

            self._store = InspectionStore(records_database())
            store = self._store
            self.destroyed.connect(lambda *_a: store.close())
        return self._store

    # -- the form -----------------------------------------------------------------------------
    def current_item(self) -> Item:
        return self.specs.item(self.item_combo.currentData())

    def current_form(self):
        return self.form_of[self.item_combo.currentData()]

    def set_item(self, name: str) -> None:
        self.item_combo.setCurrentIndex(self.item_combo.findData(name))

    def _item_changed(self, _index: int) -> None:
        self.forms.setCurrentWidget(self.page_of[self.item_combo.currentData()])
        self._show_approval()
        self.hint.setVisible(not self.current_item().each)
        self._form_changed()

    def _form_changed(self) -> None:
        self._dirty = True
        self._update_overall()
        self._update_buttons()

    def _update_overall(self) -> None:
        try:
            result = inspect(self.current_form().document(), self.specs)
        except (EntryError, ReadingRefused):
            show_verdict(self.overall, "⚠ " + _("Some readings cannot be judged: correct the fields marked ⚠."),
                         "fail")
            return
        except BadInput as exc:
            show_verdict(self.overall, "⚠ " + self._refusal(exc), "fail")
            return
        lang = i18n.current_language()
        item = self.current_item()
        missing = []
        for name in result["missing"]:
            m = item.measurement(name.rsplit(".", 1)[-1])
            missing.append(m.label_in(lang) if m is not None else name)
        status = result["status"]
        text = fmt.overall_status(status, missing, lang)
        if status == "not_compliant" and result["missing"]:
            text += "  " + i18n.ngettext("({n} required reading not taken yet)", "({n} required readings not taken yet)",
                                         len(result["missing"])).format(n=len(result["missing"]))
        show_verdict(self.overall, text, {"compliant": "ok", "not_compliant": "fail"}.get(status, "muted"))
        self.overall.setProperty("status", status)

    def _show_approval(self) -> None:
        item = self.current_item()
        self.approval.setVisible(bool(item.approval))
        if item.approval:
            self.approval.setText(fmt.localized(item.approval["note"], i18n.current_language()))

    def _choose_photo(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, _("Photo of the item"), self.photo_edit.text(),
                                                    _("Images (*.jpg *.jpeg *.png *.heic *.webp);;All files (*)"))
        if path:
            self.photo_edit.setText(path)

    def _say(self, text: str, state: str = "muted") -> None:
        show_verdict(self.status, text, state)
        self.status.setToolTip("")   # a failure's own words, set after it by whoever had them

    def new_inspection(self) -> None:
        """Empties the form for the next item (inspector and tournament stay: same person, same day)."""
        self.record_id = self.previous_id = None
        self.current_form().clear()
        for form in self.form_of.values():
            if isinstance(form, MeasurementForm):
                for row in form.rows.values():
                    row.remeasure_from = None
        self.label_edit.clear()
        self.notes_edit.clear()
        self.photo_edit.clear()
        self.banner.hide()
        self._say("")
        self._dirty = False
        self._form_changed()

    # -- saving -------------------------------------------------------------------------------
    def save(self) -> int | None:
        """Saves the inspection; returns its number, or None with the reason shown."""
        try:
            document = self.current_form().document()
            status = inspect(document, self.specs)["status"]
            if status in ("not_measured", "incomplete"):
                # not measured is not a failure: nothing is recorded until every reading is taken
                self._say("⚠ " + _("Not saved: an incomplete inspection is not recorded.") + " "
                          + self.overall.text(), "fail")
                return None
            meta = dict(inspector=self.inspector_edit.text(), label=self.label_edit.text(),
                        tournament=self.tournament_edit.text(), notes=self.notes_edit.toPlainText(),
                        photo=self.photo_edit.text(), previous_id=self.previous_id)
            saved = []
            if not server_state().save(("inspection", id(self)), lambda: self.store.save(document, self.specs, **meta),
                                       on_saved=lambda record: saved.append(self._saved(record)),
                                       on_refused=self._refused):
                # the server is out of reach: the readings stay in the form and are saved once it answers
                self._say("⚠ " + _("Not saved yet: the records server cannot be reached. The readings stay here "
                                   "and are saved as soon as it answers."), "fail")
                return None
            return saved[0]
        except (EntryError, BadInput) as exc:
            self._refused(exc)
            return None

    def _refused(self, exc) -> None:
        if isinstance(exc, StoreError):  # the readings stay in the form, to save again
            self._say("⚠ " + _("Not saved: {problem}").format(problem=self._refusal(exc)), "fail")
        else:
            self._say("⚠ " + self._refusal(exc), "fail")

    def _refusal(self, exc) -> str:
        """A refusal in the inspector's language: a reading's as core/inspection/entry.py words it,
        any other from its code (ui/common/refusal_words.py)."""
        from referee_app.ui.common.refusal_words import knows, said

        if isinstance(exc, (EntryError, ReadingRefused)) or not knows(exc):
            return refusal(exc, i18n.current_language())
        return said(exc, self.knowledge)

    def _saved(self, record) -> int:
        """Once the inspection is committed: its number and verdict shown, the history updated."""
        self.record_id, self._dirty = record.id, False
        verdict = fmt.overall(record.compliant, i18n.current_language())
        self._say(_("Saved as inspection no. {number} ({verdict}).").format(number=record.id, verdict=verdict),
                  "ok" if record.compliant else "fail")
        if self.previous_id is not None:
            self.banner.setText(_("Re-inspection of no. {previous} saved as no. {number}.").format(
                previous=self.previous_id, number=record.id))
        self.previous_id = None
        self.refresh_history(select=record.id)
        self._update_buttons()
        self.saved.emit(record.id)
        return record.id

    # -- past inspections ---------------------------------------------------------------------
    def refresh_history(self, select: int | None = None) -> None:
        try:
            if self.approved_only.isChecked():
                records = self.store.approved_strikers(self.tournament_edit.text().strip() or None)
            else:
                records = list(reversed(self.store.list()))
        except Exception as exc:  # a locked or unreadable database: say so, keep the form usable
            from referee_app.ui.common.refusal_words import detail, knows, said

            # what happened and what to do in the inspector's words; the driver's own in the tooltip
            self._say("⚠ " + (said(exc) if knows(exc) else _("The records cannot be read: try again in a moment; "
                                                              "if it goes on, check the records database.")), "fail")
            self.status.setToolTip(detail(exc))
            records = []
        self.past.show_records(records, select)
        self._update_buttons()

    def selected_record_id(self) -> int | None:
        return self.past.selected_record_id()

    def _update_buttons(self) -> None:
        chosen = self.selected_record_id()
        self.reopen_button.setEnabled(chosen is not None)
        self.reinspect_button.setEnabled(chosen is not None or self.record_id is not None)
        self.certificate_button.setEnabled(self.record_id is not None and not self._dirty or chosen is not None)

    def _load(self, document: dict, label: str, tournament: str, notes: str, photo: str, remeasure=None) -> None:
        self.set_item(document.get("item"))
        form = self.current_form()
        if isinstance(form, CoinSetForm):
            form.load(document, {(int(k.split("]")[0].split("[")[1]), k.split(".")[-1]): v
                                 for k, v in (remeasure or {}).items()})
        else:
            form.load(document, remeasure)
        self.label_edit.setText(label)
        self.tournament_edit.setText(tournament)
        self.notes_edit.setPlainText(notes)
        self.photo_edit.setText(photo)
        self._update_overall()

    def reopen(self, record_id: int | None = None) -> None:
        """Shows a saved inspection in the form (saving it again makes a new record)."""
        record_id = record_id or self.selected_record_id()
        if record_id is None:
            return
        try:
            rec = self.store.get(record_id)
        except BadInput as exc:
            self._say("⚠ " + self._refusal(exc), "fail")
            return
        if rec.readings.get("item") not in self.form_of:  # stored unreadably: said, the form stays
            self._say("⚠ " + _("Inspection no. {number}: its stored readings cannot be shown.").format(number=rec.id),
                      "fail")
            return
        self.previous_id = None
        self._load(rec.readings, rec.label, rec.tournament, rec.notes, rec.photo)
        self.inspector_edit.setText(rec.inspector)
        self.record_id, self._dirty = rec.id, False
        self.banner.setText(_("Inspection no. {number} of {date} by {inspector}. Saving creates a new record.").format(
            number=rec.id, date=self._date(rec.inspected_at), inspector=rec.inspector))
        self.banner.show()
        self._say("")
        self._update_buttons()

    def reinspect(self, record_id: int | None = None) -> None:
        """Starts a re-inspection: the readings that passed kept, those that failed to take again."""
        record_id = record_id or self.selected_record_id() or self.record_id
        if record_id is None:
            return
        draft = self.store.reinspection_draft(record_id)
        remeasure = {name: record_id for name in draft["to_remeasure"]}
        document = draft["document"]
        self._load(document, document.get("label", ""), document.get("tournament", ""), draft["notes"],
                   draft["photo"], remeasure)
        self.record_id, self.previous_id = None, record_id
        names = draft["to_remeasure"]
        self.banner.setText(_("Re-inspection of no. {number}: measure again the readings marked ✘.").format(number=record_id)
                            if names else _("Re-inspection of no. {number}: nothing failed there.").format(number=record_id))
        self.banner.show()
        self._say("")
        self._dirty = True
        self._update_buttons()

    @staticmethod
    def _date(iso: str) -> str:
        from referee_app.core.inspection.certificate import when

        return when(iso, i18n.current_language())

    # -- certificate --------------------------------------------------------------------------
    def export_certificate(self, path: str | None = None) -> Path | None:
        """Writes the certificate of the saved (or selected) inspection as PDF, in the interface language."""
        record_id = self.record_id if self.record_id is not None and not self._dirty else self.selected_record_id()
        if record_id is None:
            self._say("⚠ " + _("Save the inspection first: a certificate is made from a saved record."), "fail")
            return None
        record = self.store.get(record_id)
        if path is None:
            # TRANSLATORS: a file name: lower case, hyphens, no spaces
            suggested = _("inspection-{number}").format(number=record.id) + ".pdf"
            path, _filter = QFileDialog.getSaveFileName(self, _("Export certificate"), suggested, _("PDF (*.pdf)"))
            if not path:
                return None
        from referee_app.core.inspection.certificate import certificate_html, certificate_title
        from referee_app.printing.pdf import write_pdf

        try:
            lang = i18n.current_language()
            written = write_pdf(certificate_html(record, lang, self.specs, self.knowledge.kb), path, title=certificate_title(record, lang))
        except (OSError, BadInput) as exc:
            self._say("⚠ " + _("The certificate could not be written: {problem}").format(
                problem=self._refusal(exc) if isinstance(exc, BadInput) else
                _("check that there is free space on the disk, then try again.")), "fail")
            return None
        self._say(_("Certificate written to {path}").format(path=written), "ok")
        return written

    # -- language -----------------------------------------------------------------------------
    def retranslate(self) -> None:
        lang = i18n.current_language()
        for i in range(self.item_combo.count()):
            self.item_combo.setItemText(i, self.specs.item(self.item_combo.itemData(i)).label_in(lang))
        for label, text in zip(self.head_labels, (_("Item"), _("Identifier"), _("Inspector"), _("Tournament"))):
            label.setText(text)
        self.label_edit.setPlaceholderText(_("e.g. striker of A. Rossi, board 7"))
        self.hint.setText(_("Type a reading with a decimal comma or point. A dimension measured several times "
                            "(the four pockets, the four sides): separate the readings with “;”. Hover a limit "
                            "to read the clause as printed."))
        show_verdict(self.hint, self.hint.text(), "muted")
        self.inspector_edit.setPlaceholderText(_("who measures"))
        self.tournament_edit.setPlaceholderText(_("optional"))
        self.record_box.setTitle(_("Record"))
        self.notes_label.setText(_("Notes"))
        self.photo_label.setText(_("Photo"))
        self.photo_edit.setPlaceholderText(_("path of a photo of the item (optional)"))
        self.photo_button.setText(_("Browse…"))
        self.save_button.setText(_("Save inspection"))
        self.new_button.setText(_("New inspection"))
        self.certificate_button.setText(_("Export certificate (PDF)…"))
        self.past.retranslate()
        names_from_labels(self)   # once every label reads in the new language
        for form in self.form_of.values():
            form.retranslate()   # then each reading's own name (a yes/no box, a unit box)
        self._show_approval()
        self._update_overall()
        if self._store is not None:
            self.refresh_history(select=self.selected_record_id())
