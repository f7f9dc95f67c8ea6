"""Bookmarked clauses, kept in the settings file in the order they were added."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from referee_app.core.knowledge.model import KnowledgeBase
from referee_app.i18n import gettext as _
from referee_app.ui import settings
from .clause_html import citation
from referee_app.ui.retranslate import follow_language

ID_ROLE = Qt.ItemDataRole.UserRole


def load() -> list[str]:
    return settings.get_list(settings.BOOKMARKS)


def save(ids: list[str]) -> None:
    settings.put(settings.BOOKMARKS, list(ids))


class BookmarksList(QListWidget):
    """The bookmarks tab: Enter or double-click opens, Delete removes."""

    clause_requested = Signal(str)
    changed = Signal()

    def __init__(self, kb: KnowledgeBase, parent=None):
        super().__init__(parent)
        self.kb = kb
        self.setObjectName("bookmarks_list")
        self.itemActivated.connect(lambda item: self.clause_requested.emit(item.data(ID_ROLE)))
        follow_language(self)
        self.reload()

    def ids(self) -> list[str]:
        return load()

    def contains(self, clause_id: str) -> bool:
        return clause_id in load()

    def toggle(self, clause_id: str) -> bool:
        """Add or remove `clause_id`; returns whether it is bookmarked now."""
        ids = load()
        if clause_id in ids:
            ids.remove(clause_id)
        else:
            ids.append(clause_id)
        save(ids)
        self.reload()
        self.changed.emit()
        return clause_id in ids

    def reload(self) -> None:
        current = self.currentItem().data(ID_ROLE) if self.currentItem() else None
        self.clear()
        for cid in load():
            clause = self.kb.get(cid)
            if clause is None:  # a clause renumbered since: kept in the file, not shown
                continue
            text = " ".join(clause.text.split())
            item = QListWidgetItem(f"{citation(self.kb, clause)} — {clause.title}")
            item.setToolTip(text[:300])
            item.setData(ID_ROLE, cid)
            self.addItem(item)
            if cid == current:
                self.setCurrentItem(item)
        if self.count() and self.currentItem() is None:
            self.setCurrentRow(0)
        self.retranslate()

    def keyPressEvent(self, event):
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.currentItem():
            self.toggle(self.currentItem().data(ID_ROLE))
            return
        super().keyPressEvent(event)

    def retranslate(self) -> None:
        self.setAccessibleName(_("Bookmarks"))
        self.setToolTip(_("Enter opens a bookmark, Delete removes it. Ctrl+D bookmarks the clause shown.")
                        if self.count() else _("No bookmarks yet: Ctrl+D bookmarks the clause shown."))
