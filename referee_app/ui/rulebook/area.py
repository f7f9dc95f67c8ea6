"""The Rulebook area: contents, search and bookmarks on the left, the reading pane on the right.

Its actions (history, bookmark, citation, compare) are QActions with shortcuts, made with the main
window's menus (actions.py), so they work from anywhere in the window, before this area is built.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QLabel, QSplitter, QStyle, QTabWidget, QToolBar, QVBoxLayout, QWidget

from referee_app.i18n import gettext as _
from referee_app.ui import settings
from .actions import RulebookActions
from .bookmarks import BookmarksList
from .clause_html import citation
from .clause_view import ClauseView
from .contents_tree import ContentsTree
from .history import History
from referee_app.ui.retranslate import follow_language
from .search_panel import SearchPanel

CONTENTS_TAB, SEARCH_TAB, BOOKMARKS_TAB = range(3)


class RulebookView(QWidget):
    status_message = Signal(str)
    clause_shown = Signal(str)

    def __init__(self, knowledge, actions: RulebookActions | None = None, parent=None):
        """`knowledge`: the window's knowledge root; `actions`: the window's (made with its menus);
        the area makes its own without them."""
        super().__init__(parent)
        self.knowledge = knowledge
        self.kb = kb = knowledge.kb
        self.setObjectName("rulebook_view")
        self.history = History()
        self.current_clause: str | None = None

        self.tree = ContentsTree(kb)
        self.search = SearchPanel(knowledge)
        self.bookmarks = BookmarksList(kb)
        self.bookmarks_hint = QLabel(objectName="bookmarks_hint")
        self.bookmarks_hint.setWordWrap(True)
        bookmarks_page = QWidget()
        bl = QVBoxLayout(bookmarks_page)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.bookmarks_hint)
        bl.addWidget(self.bookmarks, 1)
        self.nav = QTabWidget(objectName="rulebook_nav")
        self.nav.setDocumentMode(True)
        self.nav.addTab(self.tree, "")
        self.nav.addTab(self.search, "")
        self.nav.addTab(bookmarks_page, "")

        self.view = ClauseView(knowledge)
        self.toolbar = QToolBar(objectName="clause_toolbar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self._take_actions(actions or RulebookActions(self, lambda: self))
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.setSpacing(0)
        rl.addWidget(self.toolbar)
        rl.addWidget(self.view, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="rulebook_splitter")
        self.splitter.addWidget(self.nav)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([380, 900])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        self.tree.clause_chosen.connect(self.open_clause)
        self.tree.section_chosen.connect(self._open_section)
        self.search.clause_requested.connect(lambda cid, found: self.open_clause(cid, focus_view=True, found=found))
        self.bookmarks.clause_requested.connect(lambda cid: self.open_clause(cid, focus_view=True))
        self.bookmarks.changed.connect(self._update_actions)
        self.view.clause_link.connect(lambda cid: self.open_clause(cid, focus_view=True))
        self.view.compare_link.connect(lambda: self.compare_action.setChecked(True))
        self.search.search_box.textEdited.connect(lambda _t: self.nav.setCurrentIndex(SEARCH_TAB))
        self.setTabOrder(self.nav, self.view)
        follow_language(self)
        self.retranslate()
        self._update_actions()

    def _take_actions(self, actions: RulebookActions) -> None:
        """The actions made with the window's menus: this area shows them in its toolbar and keeps
        their state; they act on it (`back`, `toggle_bookmark`, `compare`...)."""
        self.back_action, self.forward_action = actions.back, actions.forward
        self.bookmark_action, self.citation_action, self.compare_action = actions.bookmark, actions.citation, actions.compare
        self.contents_action, self.bookmarks_action = actions.contents, actions.bookmarks
        for a, icon in ((self.back_action, QStyle.StandardPixmap.SP_ArrowBack),
                        (self.forward_action, QStyle.StandardPixmap.SP_ArrowForward)):
            a.setIcon(self.style().standardIcon(icon))
        for a in (self.back_action, self.forward_action, self.bookmark_action, self.citation_action,
                  self.compare_action):
            self.toolbar.addAction(a)
            self.toolbar.widgetForAction(a).setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys do it; Tab stays in the text

    def retranslate(self) -> None:
        self.nav.setTabText(CONTENTS_TAB, _("Contents"))
        self.nav.setTabText(SEARCH_TAB, _("Search"))
        self.nav.setTabText(BOOKMARKS_TAB, _("Bookmarks"))
        keys = {a: a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
                for a in (self.contents_action, self.bookmarks_action)}
        self.nav.setTabToolTip(CONTENTS_TAB, _("Every source, section by section ({keys})").format(
            keys=keys[self.contents_action]))
        self.nav.setTabToolTip(SEARCH_TAB, _("Search the rules (Ctrl+F)"))
        self.nav.setTabToolTip(BOOKMARKS_TAB, _("Your bookmarked clauses ({keys})").format(
            keys=keys[self.bookmarks_action]))
        self.bookmarks_hint.setText(_("Ctrl+D bookmarks the clause shown; Delete removes the selected bookmark."))
        self.toolbar.setWindowTitle(_("Clause tools"))

    # --- navigation -----------------------------------------------------------------------
    def open_clause(self, clause_id: str, record: bool = True, focus_view: bool = False,
                    found: dict | None = None) -> bool:
        """Show a clause; `found`: how a search found it, its matches to mark on the page."""
        if clause_id not in self.kb.clauses:
            self.status_message.emit(_("No clause {id} in the knowledge base.").format(id=clause_id))
            return False
        if record:
            self.history.visit(clause_id)
        self.current_clause = clause_id
        self.compare_action.blockSignals(True)
        self.compare_action.setChecked(False)
        self.compare_action.blockSignals(False)
        self.view.show_clause(clause_id, self.bookmarks.contains(clause_id), found)
        self.tree.select_clause(clause_id)
        settings.put(settings.LAST_CLAUSE, clause_id)
        self._update_actions()
        if focus_view:
            self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        self.clause_shown.emit(clause_id)
        return True

    def _open_section(self, source_id: str, index: int) -> None:
        title, members = self.tree.section(source_id, index)
        self.current_clause = None
        self.view.show_section(title, [c.id for c in members])
        self._update_actions()

    def back(self) -> None:
        if self.history.can_back():
            self.open_clause(self.history.back(), record=False)

    def forward(self) -> None:
        if self.history.can_forward():
            self.open_clause(self.history.forward(), record=False)

    def toggle_bookmark(self, _checked: bool = False) -> None:
        if self.current_clause is None:
            return
        on = self.bookmarks.toggle(self.current_clause)
        cite = citation(self.kb, self.kb.clauses[self.current_clause])
        self.status_message.emit((_("Bookmarked: {citation}") if on else _("Bookmark removed: {citation}")).format(citation=cite))
        if self.view.mode == "clause":
            self.view.show_clause(self.current_clause, on)

    def copy_citation(self) -> str | None:
        if self.current_clause is None:
            return None
        text = citation(self.kb, self.kb.clauses[self.current_clause])
        QGuiApplication.clipboard().setText(text)
        self.status_message.emit(_("Copied to the clipboard: {citation}").format(citation=text))
        return text

    def compare(self, checked: bool) -> None:
        if self.current_clause is None:
            return
        if checked:
            self.view.show_compare(self.current_clause)
        else:
            self.view.show_clause(self.current_clause, self.bookmarks.contains(self.current_clause))

    def _update_actions(self) -> None:
        has = self.current_clause is not None
        self.back_action.setEnabled(self.history.can_back())
        self.forward_action.setEnabled(self.history.can_forward())
        for a in (self.bookmark_action, self.citation_action, self.compare_action):
            a.setEnabled(has)
        self.bookmark_action.blockSignals(True)
        self.bookmark_action.setChecked(has and self.bookmarks.contains(self.current_clause))
        self.bookmark_action.blockSignals(False)

    # --- focus ----------------------------------------------------------------------------
    def focus_search(self) -> None:
        self.nav.setCurrentIndex(SEARCH_TAB)
        self.search.focus_search()

    def focus_contents(self) -> None:
        self.nav.setCurrentIndex(CONTENTS_TAB)
        self.tree.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_bookmarks(self) -> None:
        self.nav.setCurrentIndex(BOOKMARKS_TAB)
        self.bookmarks.setFocus(Qt.FocusReason.ShortcutFocusReason)
