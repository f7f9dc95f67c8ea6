"""The paragraph a protest relies on: typed as a clause id, or found in the rulebook with the
clause picker, so that a cited paragraph is always a real clause.
"""
from __future__ import annotations

import unicodedata

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFrame, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QPushButton, QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.core.clause_labels import label
from referee_app.core.knowledge.citations import parse
from referee_app.i18n import gettext as _
from .labels import label_text
from referee_app.ui.common.accessible import name as accessible_name

ID_ROLE = Qt.ItemDataRole.UserRole
PICKER_LIMIT = 200                  # clauses listed at once by the clause picker


def _fold(text: str) -> str:
    """Lower case without accents, so that "regle" finds "règle"."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


class ClausePicker(QFrame):
    """Searches and browses the whole rulebook so that a cited paragraph is a real clause."""

    chosen = Signal(str)

    def __init__(self, knowledge):
        super().__init__()
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.kb = knowledge.kb
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

    def _matches(self):
        """A citation ("3.12 e", "ICF 3.12.e", "regola 53") lists the clauses it names; other
        words find the clauses holding them all."""
        query = self.query.text()
        cited = parse(query, self.kb) if query.strip() else []
        if cited:
            yield from (cid for cid in cited if cid in self.kb.clauses)
            return
        words = _fold(query).split()
        yield from (cid for cid, text in self._searchable() if all(w in text for w in words))

    def refresh(self) -> None:
        source = self.source.currentData()
        lang = i18n.current_language()
        self.results.clear()
        shown = 0
        for cid in self._matches():
            clause = self.kb.clauses[cid]
            if source and clause.source != source:
                continue
            body, _official = clause.text_in(lang)
            item = QListWidgetItem(f"{label(cid, lang, self.kb)}  ·  {clause.title_in(lang)}: {body[:90]}"
                                   f"{'…' if len(body) > 90 else ''}")
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
        self.preview.setText(f"{label(clause.id, i18n.current_language(), self.kb)} – {clause.title_in(i18n.current_language())}\n{text}"
                             + ("" if official else "\n" + _("(translation, not official)")))

    def _cite(self) -> None:
        item = self.results.currentItem()
        if item is not None:
            self.chosen.emit(item.data(ID_ROLE))

    def retranslate(self) -> None:
        self.query.setPlaceholderText(_("Search the rulebook: words, or a paragraph such as 3.12 e or regola 53"))
        self.source.setItemText(0, _("All sources"))
        self.cite.setText(_("Cite this paragraph"))
        accessible_name(self.query, _("Search the rulebook for a paragraph"),
                        _("Words, or a paragraph such as 3.12 e or regola 53"))
        accessible_name(self.source, _("Source of the paragraphs"))
        accessible_name(self.results, _("Paragraphs found"), _("Enter cites the chosen paragraph"))
        if self.isVisible():
            self.refresh()


class ClauseField(QWidget):
    """The paragraph a protest relies on: typed as an id, or picked in the rulebook."""

    edited = Signal()

    def __init__(self, knowledge):
        super().__init__()
        self.knowledge = knowledge
        self.kb = knowledge.kb
        self.edit = QLineEdit(objectName="clause_edit")
        self._shown: tuple[str, str] | None = None   # (label shown, its clause id)
        self.browse = QPushButton(objectName="clause_browse")
        self.browse.setCheckable(True)
        self.status = QLabel(objectName="clause_status")
        self.status.setWordWrap(True)
        self.picker = ClausePicker(knowledge)
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
        self.set_shown(clause_id)
        self.browse.setChecked(False)
        self.show_status()
        self.edited.emit()

    def set_shown(self, clause_id: str) -> None:
        """Shows a clause as people cite it ("ICF 3.12 c"), never its id; `value()` reads it back."""
        self._shown = (label(clause_id, i18n.current_language(), self.kb), clause_id) if self.kb.get(clause_id) else None
        self.edit.setText(self._shown[0] if self._shown else clause_id)

    def value(self):
        """The clause id: as shown, typed as an id, or as people cite it ("ICF 3.12 e", "regola 53")."""
        text = self.edit.text().strip()
        shown = self._shown
        if shown and text == shown[0]:
            return shown[1]
        if not text or self.kb.get(text):
            return text
        ids = parse(text, self.kb)
        return ids[0] if len(ids) == 1 else text

    def set_value(self, value) -> None:
        self.set_shown(value or "")
        self.show_status()

    def show_status(self) -> None:
        cid = self.value()
        clause = self.kb.get(cid) if cid else None
        if clause:
            text, _official = clause.text_in(i18n.current_language())
            self.status.setText(f"{label(clause.id, i18n.current_language(), self.kb)}, {clause.title_in(i18n.current_language())}: "
                                f"{text[:160]}{'…' if len(text) > 160 else ''}")
            self.status.setStyleSheet("")
        else:
            self.status.setText(label_text(self.knowledge, "not_a_clause") if cid else "")
            self.status.setStyleSheet("color: #b00020;" if cid else "")
        self.status.setVisible(bool(self.status.text()))

    def name_parts(self, field: str) -> None:
        accessible_name(self.edit, field, _("A paragraph as people cite it, e.g. ICF 3.12 d, or regola 53"))

    def retranslate(self) -> None:
        if self._shown and self.edit.text().strip() == self._shown[0]:
            self.set_shown(self._shown[1])   # the label in the new language
        self.edit.setPlaceholderText(_("e.g. ICF 3.12 d, or regola 53"))
        self.browse.setText(_("Browse the rulebook…"))
        self.picker.retranslate()
        self.show_status()
