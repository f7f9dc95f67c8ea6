"""Type-ahead search over the whole rulebook.

Typing waits for a pause of DEBOUNCE_MS, then asks the worker (search_worker.py); the GUI
never waits for the index. Words that match nothing in any language are named under the box
("No match for: …"), never silently dropped; a citation typed (`ICF 3.12 e`, `regola 53`)
puts its clause first, and Enter opens it. Up/Down move in the results from the search box, Enter opens the
current result in the browser, Escape clears. With an empty box the list shows the recent
searches (the ones that led to a clause being opened).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QSizePolicy, QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.i18n import gettext as _
from . import search_worker
from referee_app.ui import settings
from .clause_html import esc, language_label
from referee_app.ui.common.highlight import highlight_html
from referee_app.ui.common.html_delegate import HTML_ROLE, HtmlDelegate
from referee_app.ui.retranslate import follow_language
from referee_app.ui.theme import colors
from referee_app.ui.common.accessible import name as accessible_name

DEBOUNCE_MS = 150
LIMIT = 50
ID_ROLE = Qt.ItemDataRole.UserRole
KIND_ROLE = Qt.ItemDataRole.UserRole + 1  # "result" or "recent"


class SearchPanel(QWidget):
    clause_requested = Signal(str, object)   # clause id, how the search found it: its marks (or None)

    def __init__(self, knowledge, parent=None):
        super().__init__(parent)
        self.knowledge = knowledge
        self.kb, self.rulesets = kb, rulesets = knowledge.kb, knowledge.rulesets
        self.setObjectName("search_panel")
        self._generation = 0
        self._results: list[dict] = []
        self._status = ("idle", 0, "")
        self._shown_query = ""
        self._shown_in: str | None = None   # the language the hits shown were asked in
        self._open_when_done = False
        self._unmatched: list[str] = []

        self.search_box = QLineEdit(objectName="search_box")
        self.search_box.setClearButtonEnabled(True)
        self.search_box.installEventFilter(self)
        self.lang_filter = QComboBox(objectName="lang_filter")
        self.source_filter = QComboBox(objectName="source_filter")
        self.ruleset_filter = QComboBox(objectName="ruleset_filter")
        for combo in (self.lang_filter, self.source_filter, self.ruleset_filter):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.lang_filter.addItem("", None)
        for lang in i18n.LANGUAGES:
            self.lang_filter.addItem("", lang)
        self.source_filter.addItem("", None)
        for sid, src in kb.sources.items():
            self.source_filter.addItem(src.short, sid)
            self.source_filter.setItemData(self.source_filter.count() - 1, src.title, Qt.ItemDataRole.ToolTipRole)
        self.ruleset_filter.addItem("", None)
        for rid in rulesets:
            self.ruleset_filter.addItem(rid, rid)
        self.status = QLabel(objectName="search_status")
        self.status.setWordWrap(True)
        self.results = QListWidget(objectName="search_results")
        self.results.setItemDelegate(HtmlDelegate(self.results))
        self.results.setWordWrap(True)
        self.results.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results.itemActivated.connect(self._activate)

        filters = QHBoxLayout()
        filters.setContentsMargins(0, 0, 0, 0)
        for combo in (self.lang_filter, self.source_filter, self.ruleset_filter):
            filters.addWidget(combo, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search_box)
        layout.addLayout(filters)
        layout.addWidget(self.status)
        layout.addWidget(self.results, 1)
        self.setTabOrder(self.search_box, self.results)
        self.setTabOrder(self.results, self.lang_filter)
        self.setTabOrder(self.lang_filter, self.source_filter)
        self.setTabOrder(self.source_filter, self.ruleset_filter)

        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self.run_search)
        self.search_box.textChanged.connect(self._text_changed)
        for combo in (self.lang_filter, self.source_filter, self.ruleset_filter):
            combo.currentIndexChanged.connect(self._filters_changed)
        self._signals = search_worker.SearchSignals(self)
        self._signals.building.connect(self._building)
        self._signals.finished.connect(self._finished)
        self._signals.unmatched.connect(self._got_unmatched)
        self._signals.failed.connect(self._failed)
        follow_language(self)
        self.retranslate()
        self._show_recent()

    # --- strings --------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.search_box.setPlaceholderText(_("Search the rules (Ctrl+F)"))
        self.search_box.setToolTip(_("Type words in any language; results appear as you type. "
                                     "Up and Down choose, Enter opens, Escape clears."))
        self.search_box.setAccessibleName(_("Search the rules"))
        self.lang_filter.setItemText(0, _("All languages"))
        for i, lang in enumerate(i18n.LANGUAGES, 1):
            self.lang_filter.setItemText(i, language_label(lang))
        self.lang_filter.setToolTip(_("Only clauses written or translated in this language"))
        self.source_filter.setItemText(0, _("All sources"))
        self.source_filter.setToolTip(_("Only clauses of this source"))
        self.ruleset_filter.setItemText(0, _("All rulesets"))
        lang = i18n.current_language()
        for i, rs in enumerate(self.rulesets.values(), 1):
            self.ruleset_filter.setItemText(i, self.knowledge.ruleset_name(rs.id, lang))
        self.ruleset_filter.setToolTip(_("Only the sources a ruleset applies"))
        accessible_name(self.lang_filter, _("Language of the clauses"))
        accessible_name(self.source_filter, _("Source of the clauses"))
        accessible_name(self.ruleset_filter, _("Ruleset of the clauses"))
        for combo in (self.lang_filter, self.source_filter, self.ruleset_filter):
            combo.setAccessibleName(combo.toolTip())
        self.results.setAccessibleName(_("Search results"))
        self._show_status()
        if not self.search_box.text().strip():
            self._show_recent()
        elif lang != self._shown_in:
            self._search_again_in(lang)

    def _show_status(self) -> None:
        kind, n, message = self._status
        text = {
            "idle": "",
            "searching": _("Searching…"),
            "building": _("Building the search index (first search only)…"),
            "results": i18n.ngettext("{n} result", "{n} results", n).format(n=n),
            "none": "" if self._unmatched else _("No clause matches these words."),
            # what failed, and what to do, in the reader's words; the error's own words (a library's,
            # in English) only in the tooltip, for whoever looks after the installation
            "failed_index": _("The search index could not be built, so no clause can be found yet. Check that "
                              "there is free space on the disk, then search again."),
            "failed": _("The search failed, so no clause is shown. Search again; if it fails again, restart "
                        "carrom-referee."),
            "recent": _("Recent searches") if n else "",
        }[kind]
        if kind in ("results", "none") and self._unmatched:
            missing = _("No match for: {words}").format(words=", ".join(self._unmatched))
            text = f"{missing} — {text}" if text else missing
        self.status.setText(text)
        self.status.setToolTip(message if kind in ("failed", "failed_index") else "")
        self.status.setVisible(bool(text))

    def _set_status(self, kind: str, n: int = 0, message: str = "") -> None:
        self._status = (kind, n, message)
        self._show_status()

    # --- searching ------------------------------------------------------------------------
    def filters(self) -> dict:
        out = {}
        for key, combo in (("lang", self.lang_filter), ("source", self.source_filter), ("ruleset", self.ruleset_filter)):
            value = combo.currentData()
            if value:
                out[key] = value
        return out

    def query(self) -> str:
        return " ".join(self.search_box.text().split())

    def _text_changed(self, _text: str) -> None:
        if not self.query():
            self._timer.stop()
            self._generation += 1  # whatever is still running is stale now
            self._shown_query = ""
            self._open_when_done = False
            self._unmatched = []
            self._show_recent()
            return
        self._timer.start()

    def _filters_changed(self, _index: int) -> None:
        if self.query():
            self._timer.stop()
            self.run_search()

    def run_search(self) -> None:
        query = self.query()
        if not query:
            return
        self._generation += 1
        engine = search_worker.backend(self.knowledge)
        self._set_status("searching" if engine.ready else "building")
        # every hit in the window's language, the reader's (the contract's search section); the
        # query is still read in every language
        self._shown_in = i18n.current_language()
        search_worker.start(search_worker.SearchJob(self._generation, query, self.filters(), self._signals,
                                                    engine, LIMIT, reader=self._shown_in))

    def _search_again_in(self, lang: str) -> None:
        """The hits shown again in the reader's new language. With the index open this is a few
        milliseconds, done at once so that no hit is left in the old language; otherwise in the
        worker, as any search."""
        engine = search_worker.backend(self.knowledge)
        if not engine.ready:
            self.run_search()
            return
        self._generation += 1
        self._shown_in = lang
        try:
            found = engine.search_detailed(self.query(), reader=lang, limit=LIMIT, **self.filters())
        except Exception as exc:  # as the worker does: said in the panel, never a crash
            self._failed(self._generation, "search", f"{type(exc).__name__}: {exc}")
            return
        self._got_unmatched(self._generation, found["unmatched"])
        self._finished(self._generation, found["hits"])

    def _building(self, generation: int) -> None:
        if generation == self._generation:
            self._set_status("building")

    def _failed(self, generation: int, what: str, detail: str) -> None:
        if generation == self._generation:
            self.results.clear()
            self._set_status("failed_index" if what == "index" else "failed", message=detail)

    def _got_unmatched(self, generation: int, words: list) -> None:
        if generation == self._generation:
            self._unmatched = list(words)

    def _finished(self, generation: int, results: list) -> None:
        if generation != self._generation:
            return  # an older query's answer, arriving late
        self._results = results
        self._shown_query = self.query()
        self._fill_results()
        if self._open_when_done:
            self._open_when_done = False
            if self._results:
                self.open_current()

    def _fill_results(self) -> None:
        self.results.clear()
        style = f"background-color: {colors().mark_bg};"
        for r in self._results:
            clause = self.kb.get(r.get("id", ""))
            src = self.kb.sources.get(r.get("source", ""))
            cite = r.get("cite") or \
                f"{src.short if src else r.get('source', '')} {r.get('paragraph') or (clause.paragraph if clause else '')}"
            title = r.get("title") or (clause.title if clause else "")
            plain = " ".join(str(r.get("snippet") or "").replace("**", "").split())
            if r.get("snippet_html"):  # the search marked its own matches, stems and translations included
                marked = str(r["snippet_html"]).replace("<b>", f'<b style="{style}">')
            else:
                marked = highlight_html(plain, self._shown_query, style)
            mark = str(r.get("lang", "")).upper()
            if r.get("official") is False:  # the text shown is the project's translation: said so, and of what
                original = r.get("original_lang") or r.get("translation_of")
                mark = _("Unofficial translation ({language}), original: {original}").format(
                    language=language_label(r.get("lang", "")), original=language_label(original)) if original \
                    else _("Unofficial translation ({language})").format(language=language_label(r.get("lang", "")))
            head = f"<b>{esc(cite)}</b> — {esc(title)} <small>[{esc(mark)}]</small>"
            item = QListWidgetItem(f"{cite} — {title}\n{plain}")
            item.setData(HTML_ROLE, f"{head}<br>{marked}{self._reader_snippet(r, style)}")
            item.setData(ID_ROLE, r.get("id"))
            item.setData(KIND_ROLE, "result")
            self.results.addItem(item)
        if self._results:
            self.results.setCurrentRow(0)
            self._set_status("results", len(self._results))
        else:
            self._set_status("none")

    @staticmethod
    def _reader_snippet(r: dict, style: str) -> str:
        """Below a text that matched in another language, the same passage in the reader's
        language, its matches marked too, and said to be the official text or a translation."""
        lang = i18n.current_language()
        other = (r.get("snippets") or {}).get(lang)
        if lang == r.get("lang") or not other or not other.get("html"):
            return ""
        label = (_("Official text ({language})") if other.get("official") else
                 _("Unofficial translation ({language})")).format(language=language_label(lang))
        text = str(other["html"]).replace("<b>", f'<b style="{style}">')
        return f'<br><small><i>[{esc(label)}]</i> {text}</small>'

    def _show_recent(self) -> None:
        self.results.clear()
        recent = settings.get_list(settings.RECENT_SEARCHES)
        for query in recent:
            item = QListWidgetItem(query)
            item.setData(HTML_ROLE, "🕘 " + esc(query))
            item.setData(KIND_ROLE, "recent")
            item.setData(ID_ROLE, query)
            self.results.addItem(item)
        self._set_status("recent", len(recent))

    # --- choosing a result ----------------------------------------------------------------
    def _activate(self, item: QListWidgetItem) -> None:
        if item.data(KIND_ROLE) == "recent":
            self.search_box.setText(item.data(ID_ROLE))
            self.search_box.setFocus()
            return
        settings.remember_search(self.query())
        cid = item.data(ID_ROLE)
        hit = next((r for r in self._results if r.get("id") == cid), {})
        marks = {lang: snip.get("marks") for lang, snip in (hit.get("snippets") or {}).items() if snip.get("marks")}
        self.clause_requested.emit(cid, {"lang": hit.get("lang"), "marks": marks} if marks else None)

    def open_current(self) -> None:
        item = self.results.currentItem() or self.results.item(0)
        if item is not None:
            self._activate(item)

    def eventFilter(self, obj, event):
        if obj is self.search_box and event.type() == QEvent.Type.KeyPress:
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
                if self.results.count():
                    row = self.results.currentRow()
                    step = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: 5, Qt.Key.Key_PageUp: -5}[key]
                    self.results.setCurrentRow(max(0, min(self.results.count() - 1, row + step)))
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if self._timer.isActive():  # Enter before the pause: search now
                    self._timer.stop()
                    self.run_search()
                if self.query() and self._shown_query != self.query():
                    self._open_when_done = True  # the results shown are an older query's: wait
                else:
                    self.open_current()
                return True
            if key == Qt.Key.Key_Escape and self.search_box.text():
                self.search_box.clear()
                return True
        return super().eventFilter(obj, event)

    def focus_search(self) -> None:
        self.search_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_box.selectAll()

    def refresh_colours(self) -> None:
        if self.query() and self._results:
            self._fill_results()
