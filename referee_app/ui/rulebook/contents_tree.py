"""The table of contents: sources → sections → clauses, in reading order.

A section is a run of consecutive clauses printed under the same heading (`Clause.title`). A
source's sections are built only when it is first expanded or a clause of it is shown, so
opening the window costs one item per source whatever the size of the knowledge base.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QTreeWidget, QTreeWidgetItem

from referee_app.core.knowledge.model import Clause, KnowledgeBase
from referee_app.i18n import gettext as _
from referee_app.i18n import current_language, ngettext
from referee_app.ui.retranslate import follow_language

KIND_ROLE = Qt.ItemDataRole.UserRole          # "source", "section" or "clause"
KEY_ROLE = Qt.ItemDataRole.UserRole + 1       # source id, (source id, section index) or clause id
PREVIEW = 70                                   # characters of a clause shown in its tree line


def sections(clauses: list[Clause]) -> list[tuple[str, list[Clause]]]:
    """Group consecutive clauses under the same heading; reading order kept."""
    out: list[tuple[str, list[Clause]]] = []
    for clause in clauses:
        if out and out[-1][0] == clause.title:
            out[-1][1].append(clause)
        else:
            out.append((clause.title, [clause]))
    return out


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PREVIEW else text[:PREVIEW].rsplit(" ", 1)[0] + "…"


class ContentsTree(QTreeWidget):
    clause_chosen = Signal(str)                  # a clause item became current
    section_chosen = Signal(str, int)            # a section item became current: source id, index

    def __init__(self, kb: KnowledgeBase, parent=None):
        super().__init__(parent)
        self.kb = kb
        self.setObjectName("contents_tree")
        self.setHeaderHidden(True)
        self.setUniformRowHeights(True)  # lets Qt lay out long sources without measuring each row
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self._by_source: dict[str, list[Clause]] = {}
        for clause in kb.clauses.values():
            self._by_source.setdefault(clause.source, []).append(clause)
        self._sections: dict[str, list[tuple[str, list[Clause]]]] = {}
        self._source_items: dict[str, QTreeWidgetItem] = {}
        self._clause_items: dict[str, QTreeWidgetItem] = {}
        self._section_items: list[tuple[QTreeWidgetItem, Clause]] = []
        self._headed: dict[str, bool] = {}  # a clause alone under its heading shows the heading
        self._highlighted: list[str] = []
        self.itemExpanded.connect(self._populate)
        self.currentItemChanged.connect(self._current_changed)
        self.set_source_order(list(kb.sources))
        follow_language(self)

    # --- building -------------------------------------------------------------------------
    def set_source_order(self, first: list[str]) -> None:
        """Sources of the current ruleset first (`first`), in bold; then the others."""
        current = self.current_key()
        self._highlighted = [s for s in first if s in self.kb.sources]
        order = self._highlighted + [s for s in self.kb.sources if s not in self._highlighted]
        self.blockSignals(True)
        self.clear()
        self._source_items.clear()
        self._clause_items.clear()
        self._section_items.clear()
        self._headed.clear()
        for sid in order:
            src = self.kb.sources[sid]
            item = QTreeWidgetItem([f"{src.short} — {src.title}"])
            item.setData(0, KIND_ROLE, "source")
            item.setData(0, KEY_ROLE, sid)
            if sid in self._highlighted:
                font = QFont(item.font(0))
                font.setBold(True)
                item.setFont(0, font)
            if self._by_source.get(sid):
                item.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator)
            else:
                item.setDisabled(True)
            self.addTopLevelItem(item)
            self._source_items[sid] = item
        self.blockSignals(False)
        self.retranslate()
        if current and current[0] == "clause":
            self.select_clause(current[1], emit=False)

    def _populate(self, item: QTreeWidgetItem) -> None:
        if item.data(0, KIND_ROLE) != "source" or item.childCount():
            return
        sid = item.data(0, KEY_ROLE)
        groups = self._sections.setdefault(sid, sections(self._by_source.get(sid, [])))
        for index, (_title, members) in enumerate(groups):
            if len(members) == 1:  # a heading over a single paragraph: one line, one click less
                self._add_clause(item, members[0], headed=True)
                continue
            sec = QTreeWidgetItem(item, [members[0].title_in(current_language())])
            sec.setData(0, KIND_ROLE, "section")
            sec.setData(0, KEY_ROLE, (sid, index))
            sec.setToolTip(0, f"{members[0].paragraph} … {members[-1].paragraph}")
            self._section_items.append((sec, members[0]))
            for clause in members:
                self._add_clause(sec, clause, headed=False)

    def _add_clause(self, parent: QTreeWidgetItem, clause: Clause, headed: bool) -> None:
        child = QTreeWidgetItem(parent)
        child.setData(0, KIND_ROLE, "clause")
        child.setData(0, KEY_ROLE, clause.id)
        self._clause_items[clause.id] = child
        self._headed[clause.id] = headed
        self._label(child, clause)

    def _label(self, item: QTreeWidgetItem, clause: Clause) -> None:
        """The line of a clause in the reader's language: its heading, or the start of its text."""
        lang = current_language()
        text = clause.text_in(lang)[0]
        item.setText(0, f"{clause.paragraph}  {clause.title_in(lang) if self._headed[clause.id] else _preview(text)}")
        item.setToolTip(0, _preview(text))

    def retranslate(self) -> None:
        for cid, item in self._clause_items.items():
            self._label(item, self.kb.clauses[cid])
        for item, first in self._section_items:
            item.setText(0, first.title_in(current_language()))
        for sid, item in self._source_items.items():
            n = len(self._by_source.get(sid, []))
            tip = self.kb.sources[sid].title + "\n"
            tip += ngettext("{n} clause", "{n} clauses", n).format(n=n) if n else _("No clauses in the knowledge base yet")
            if sid in self._highlighted:
                tip += "\n" + _("A source of the current ruleset")
            item.setToolTip(0, tip)
        self.setAccessibleName(_("Contents"))

    # --- navigation -----------------------------------------------------------------------
    def section(self, sid: str, index: int) -> tuple[str, list[Clause]]:
        groups = self._sections.setdefault(sid, sections(self._by_source.get(sid, [])))
        return groups[index]

    def select_clause(self, clause_id: str, emit: bool = False) -> bool:
        """Show `clause_id` in the tree (expanding its source); emits `clause_chosen` only if asked."""
        clause = self.kb.get(clause_id)
        if clause is None or clause.source not in self._source_items:
            return False
        self._populate(self._source_items[clause.source])
        item = self._clause_items.get(clause_id)
        if item is None:
            return False
        parent = item.parent()
        while parent is not None:
            parent.setExpanded(True)
            parent = parent.parent()
        self.blockSignals(not emit)
        self.setCurrentItem(item)
        self.blockSignals(False)
        self.scrollToItem(item)
        return True

    def current_key(self):
        item = self.currentItem()
        if item is None:
            return None
        return item.data(0, KIND_ROLE), item.data(0, KEY_ROLE)

    def _current_changed(self, item: QTreeWidgetItem | None, _previous) -> None:
        if item is None:
            return
        kind, key = item.data(0, KIND_ROLE), item.data(0, KEY_ROLE)
        if kind == "clause":
            self.clause_chosen.emit(key)
        elif kind == "section":
            self.section_chosen.emit(key[0], key[1])
