"""The Rulebook's actions (history, bookmark, citation, compare, contents, bookmarks), made with the
window's menus, before the Rulebook area itself: the window builds that area the first time it is
shown or asked for (benchmarks/bench_startup.py), and an action triggered before then builds it
and acts on it, as if it had been there all along."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from referee_app.i18n import gettext as _
from referee_app.ui.retranslate import follow_language


class RulebookActions(QObject):
    """`area()` gives the Rulebook area, building it if need be; its `back()`, `forward()`,
    `toggle_bookmark()`, `copy_citation()`, `compare(checked)`, `focus_contents()` and
    `focus_bookmarks()` carry the actions out."""

    def __init__(self, owner: QWidget, area: Callable):
        super().__init__(owner)
        self._area = area

        def action(name, keys, run, checkable=False):
            a = QAction(owner, objectName=name, checkable=checkable)
            a.setShortcuts([QKeySequence(k) for k in keys])
            (a.toggled if checkable else a.triggered).connect(run)
            return a

        # their arrows are given by the area's toolbar (QStyle's icons cost a start 5 ms)
        self.back = action("back_action", ["Alt+Left"], lambda: self._area().back())
        self.forward = action("forward_action", ["Alt+Right"], lambda: self._area().forward())
        self.bookmark = action("bookmark_action", ["Ctrl+D"], lambda _c: self._area().toggle_bookmark(), checkable=True)
        self.citation = action("citation_action", ["Ctrl+Shift+C"], lambda: self._area().copy_citation())
        self.compare = action("compare_action", ["Ctrl+M"], lambda checked: self._area().compare(checked),
                              checkable=True)
        # Not Ctrl+T: the Rulings area restarts the stroke clock with it.
        self.contents = action("contents_action", ["Ctrl+E"], lambda: self._area().focus_contents())
        self.bookmarks = action("bookmarks_action", ["Ctrl+B"], lambda: self._area().focus_bookmarks())
        follow_language(self)
        self.retranslate()

    def for_menus(self) -> dict[str, list[QAction]]:
        return {"go": [self.back, self.forward, self.contents],
                "bookmarks": [self.bookmark, self.bookmarks, self.citation, self.compare]}

    def before_the_area(self, clause_open: bool, bookmarked: bool) -> None:
        """The actions' state while the area is not built yet: no history; `clause_open`, the area
        will open the clause last read when it is built; `bookmarked`, that clause is bookmarked."""
        self.back.setEnabled(False)
        self.forward.setEnabled(False)
        for a in (self.bookmark, self.citation, self.compare):
            a.setEnabled(clause_open)
        self.bookmark.blockSignals(True)   # a state shown, not a bookmark toggled
        self.bookmark.setChecked(clause_open and bookmarked)
        self.bookmark.blockSignals(False)

    def retranslate(self) -> None:
        texts = {
            self.back: (_("Back"), _("Previous clause read")),
            self.forward: (_("Forward"), _("Next clause read")),
            self.bookmark: (_("Bookmark"), _("Bookmark this clause, or remove the bookmark")),
            self.citation: (_("Copy citation"), _("Copy the citation, e.g. “ICF 3.12 e)”, to the clipboard")),
            self.compare: (_("Compare sources"), _("Show the corresponding clauses of every source side by side")),
            self.contents: (_("Contents"), _("Go to the table of contents")),
            self.bookmarks: (_("Bookmarks"), _("Go to your bookmarks")),
        }
        for a, (text, tip) in texts.items():
            a.setText(text)
            keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            a.setToolTip(f"{tip} ({keys})" if keys else tip)
