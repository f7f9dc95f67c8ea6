"""The reading pane: a clause, a section, or the comparison of a clause across the sources."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QUrl, Signal
from PySide6.QtWidgets import QTextBrowser

from referee_app import i18n
from referee_app.i18n import gettext as _
from . import clause_html
from referee_app.ui.retranslate import follow_language
from referee_app.ui.theme import colors


KEEP = object()  # show_clause: the marks of the page already shown stay


class ClauseView(QTextBrowser):
    clause_link = Signal(str)   # a `clause:` link was followed
    compare_link = Signal()     # the "compare side by side" link was followed

    def __init__(self, knowledge, parent=None):
        super().__init__(parent)
        self.knowledge = knowledge
        self.kb = knowledge.kb
        self.setObjectName("clause_view")
        self.setOpenLinks(False)  # links are ours: clause ids, not URLs to load
        self.anchorClicked.connect(self._anchor)
        self.mode: str | None = None       # "clause", "compare", "section" or None
        self.key = None                    # clause id, or (source id, title, clause ids) for a section
        self.bookmarked = False
        self.found: dict | None = None     # the search's matches marked on the clause page
        self._rendered = None
        follow_language(self)
        self.retranslate()

    def show_clause(self, clause_id: str, bookmarked: bool = False, found=KEEP) -> None:
        """`found`: how a search found the clause (clause_html.clause_html), to mark its matches;
        by default, the marks of the page shown stay if it is the same clause."""
        if found is KEEP:
            found = self.found if (self.mode, self.key) == ("clause", clause_id) else None
        self.mode, self.key, self.bookmarked, self.found = "clause", clause_id, bookmarked, found
        self.render()

    def show_compare(self, clause_id: str) -> None:
        self.mode, self.key = "compare", clause_id
        self.render()

    def show_section(self, title: str, clause_ids: list[str]) -> None:
        self.mode, self.key = "section", (title, clause_ids)
        self.render()

    def render(self) -> None:
        """Build the page again: after a language, theme or bookmark change too."""
        lang, c = i18n.current_language(), colors(self.palette())
        scroll = self.verticalScrollBar().value()
        if self.mode == "clause":
            html = clause_html.clause_html(self.knowledge, self.kb.clauses[self.key], lang, c, self.bookmarked, self.found)
        elif self.mode == "compare":
            html = clause_html.compare_html(self.kb, self.kb.clauses[self.key], lang, c)
        elif self.mode == "section":
            title, ids = self.key
            html = clause_html.section_html(self.kb, title, [self.kb.clauses[i] for i in ids], lang, c)
        else:
            hint = _("Choose a clause in the contents, or search with Ctrl+F.")
            html = f"<p style='color: {c.muted};'>{clause_html.esc(hint)}</p>"
        same_page = self._rendered == (self.mode, self.key)
        self.setHtml(html)
        self._rendered = (self.mode, self.key)
        if same_page:  # re-rendering the same page (language, theme) keeps the reader's place
            self.verticalScrollBar().setValue(scroll)

    def retranslate(self) -> None:
        self.setAccessibleName(_("Clause text"))
        self.render()

    def changeEvent(self, event):
        if event.type() == QEvent.Type.PaletteChange:  # dark/light switch: colours come from the palette
            self.render()
        super().changeEvent(event)

    def _anchor(self, url: QUrl) -> None:
        if url.scheme() == "clause":
            self.clause_link.emit(url.path())
        elif url.toString() == "action:compare":
            self.compare_link.emit()
