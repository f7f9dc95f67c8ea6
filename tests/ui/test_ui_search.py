"""Search in the window: type-ahead in a worker, stale answers dropped, matches highlighted,
filters, Enter opens the clause, the first search builds the index without freezing the window."""
from __future__ import annotations

import re
import time

import pytest
from PySide6.QtCore import QTimer

from referee_app.core.knowledge.root import Knowledge
from referee_app.core.search import Searcher
from referee_app.ui.rulebook import search_panel
from referee_app.ui.rulebook import search_worker
from referee_app.ui import settings
from referee_app.ui.common.html_delegate import HTML_ROLE
from referee_app.ui.main_window import RULEBOOK
from support.gui import focused, key, type_text

BUILD = 30000  # ms: the index may have to be built by the first search of the session


def results(w) -> list[str]:
    box = w.rulebook.search.results
    return [box.item(i).text() for i in range(box.count())]


def status(w) -> str:
    return w.rulebook.search.status.text()


class FakeSearcher:
    """A searcher whose speed the test controls: `open()` is the index build."""

    def __init__(self, kb, build_seconds=0.0, delays=None):
        self.kb, self.build_seconds, self.delays = kb, build_seconds, delays or {}
        self.calls = []

    def open(self):
        time.sleep(self.build_seconds)

    def search(self, query, lang=None, ruleset=None, source=None, limit=10):
        self.calls.append(query)
        time.sleep(self.delays.get(query, 0.0))
        out = []
        for c in self.kb.clauses.values():
            if query.split()[0].lower() in c.text.lower() and (source is None or c.source == source):
                out.append({"id": c.id, "source": c.source, "lang": c.lang, "title": c.title, "paragraph": c.paragraph,
                            "snippet": c.text, "score": 1.0})
        return out[:limit]


@pytest.fixture
def fake(mini_kb):
    """Install a fake searcher for the test; the process's real one comes back afterwards."""
    previous = search_worker._backend
    holder = {}

    def install(**kw):
        searcher = FakeSearcher(mini_kb, **kw)
        search_worker.set_backend(search_worker.SearchBackend(lambda: searcher, kb=mini_kb))
        holder["s"] = searcher
        return searcher

    yield install
    search_worker.wait_for_searches()
    search_worker.set_backend(previous)


def test_typing_shows_results_as_you_type_with_matches_marked(window, qtbot):
    key(window, "Ctrl+F")
    type_text(focused(), "reine")
    qtbot.waitUntil(lambda: bool(results(window)), timeout=BUILD)
    assert window.stack.currentIndex() == RULEBOOK and window.rulebook.nav.currentIndex() == 1
    first = window.rulebook.search.results.item(0)
    # shown in the window's language (English), the reader's: the queen the French word names
    assert "queen" in first.text().lower()
    assert "<b" in first.data(HTML_ROLE)  # the matching words are in bold
    assert status(window).endswith("results") or status(window).endswith("result")


def test_non_ascii_query_and_enter_opens_the_first_result(window, qtbot):
    key(window, "Ctrl+F")
    type_text(focused(), "pénalité")
    assert window.rulebook.search.search_box.text() == "pénalité"
    qtbot.waitUntil(lambda: bool(results(window)), timeout=BUILD)
    wanted = window.rulebook.search.results.item(0).data(search_panel.ID_ROLE)
    key(focused(), "Return")
    assert window.rulebook.current_clause == wanted
    assert focused() is window.rulebook.view
    assert settings.get_list(settings.RECENT_SEARCHES)[0] == "pénalité"


def test_down_and_double_click_choose_a_result(window, qtbot):
    key(window, "Ctrl+F")
    type_text(focused(), "queen cover")
    qtbot.waitUntil(lambda: len(results(window)) > 2, timeout=BUILD)
    key(focused(), "Down")
    lst = window.rulebook.search.results
    assert lst.currentRow() == 1 and focused() is window.rulebook.search.search_box
    second = lst.item(1).data(search_panel.ID_ROLE)
    rect = lst.visualItemRect(lst.item(1))
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    QTest.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.rulebook.current_clause == second


def test_language_and_source_filters_narrow_the_results(window, qtbot):
    panel = window.rulebook.search
    key(window, "Ctrl+F")
    type_text(focused(), "regina")
    qtbot.waitUntil(lambda: bool(results(window)), timeout=BUILD)
    panel.lang_filter.setCurrentIndex(panel.lang_filter.findData("it"))
    qtbot.waitUntil(lambda: bool(panel._results) and all(r["lang"] == "it" for r in panel._results), timeout=BUILD)
    panel.lang_filter.setCurrentIndex(0)
    panel.source_filter.setCurrentIndex(panel.source_filter.findData("icf-fr"))
    qtbot.waitUntil(lambda: bool(panel._results) and all(r["source"] == "icf-fr" for r in panel._results), timeout=BUILD)
    assert all(t.startswith("ICF ") for t in results(window))
    panel.source_filter.setCurrentIndex(0)
    panel.ruleset_filter.setCurrentIndex(panel.ruleset_filter.findData("it"))
    qtbot.waitUntil(lambda: bool(panel._results) and all(r["source"] == "it" for r in panel._results), timeout=BUILD)


def test_escape_clears_and_the_recent_searches_come_back(window, qtbot):
    settings.remember_search("coup d'envoi")
    key(window, "Ctrl+F")
    type_text(focused(), "queen")
    qtbot.waitUntil(lambda: bool(results(window)) and results(window)[0] != "coup d'envoi", timeout=BUILD)
    key(focused(), "Escape")
    assert window.rulebook.search.search_box.text() == ""
    assert results(window) == ["coup d'envoi"] and status(window) == "Recent searches"
    key(focused(), "Return")
    assert window.rulebook.search.search_box.text() == "coup d'envoi"


def test_stale_answers_never_replace_fresh_ones(mini_window, qtbot, fake):
    searcher = fake(delays={"reine": 0.6})
    panel = mini_window.rulebook.search
    key(mini_window, "Ctrl+F")
    type_text(focused(), "reine")
    qtbot.waitUntil(lambda: searcher.calls == ["reine"], timeout=3000)  # the slow search is running
    focused().clear()
    type_text(focused(), "striker")
    qtbot.waitUntil(lambda: "striker" in searcher.calls and bool(panel._results), timeout=5000)
    qtbot.wait(800)  # the slow answer for "reine" arrives now, and must be ignored
    assert [r["id"] for r in panel._results] == ["alpha:2.1"]
    assert results(mini_window)[0].startswith("ALPHA 2.1")


def test_typing_is_debounced(mini_window, qtbot, fake):
    searcher = fake()
    key(mini_window, "Ctrl+F")
    type_text(focused(), "reine")
    qtbot.waitUntil(lambda: bool(mini_window.rulebook.search._results), timeout=3000)
    assert searcher.calls == ["reine"]  # one search for five keystrokes


def test_window_keeps_working_while_the_index_is_built(mini_window, qtbot, fake):
    fake(build_seconds=1.5)
    ticks = []
    timer = QTimer(interval=20)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    key(mini_window, "Ctrl+F")
    type_text(focused(), "rei")
    qtbot.waitUntil(lambda: status(mini_window).startswith("Building the search index"), timeout=2000)
    started = len(ticks)
    type_text(focused(), "ne")  # typing goes on during the build
    assert mini_window.rulebook.search.search_box.text() == "reine"
    qtbot.wait(600)
    assert len(ticks) - started >= 10  # the event loop kept turning: no frozen window
    qtbot.waitUntil(lambda: bool(results(mini_window)), timeout=5000)
    assert status(mini_window) == "2 results"
    timer.stop()


def test_first_real_search_builds_the_index_in_the_worker(mini_window, qtbot, tmp_path, mini_kb):
    previous = search_worker._backend
    search_worker.set_backend(search_worker.SearchBackend(lambda: Searcher(Knowledge(mini_kb), folder=tmp_path / "ix"),
                                                          kb=mini_kb))
    try:
        key(mini_window, "Ctrl+F")
        type_text(focused(), "reine")
        seen = []
        qtbot.waitUntil(lambda: seen.append(status(mini_window)) or bool(results(mini_window)), timeout=BUILD)
        assert any(s.startswith("Building the search index") for s in seen)
        assert results(mini_window)[0].split(" — ")[0].startswith("ALPHA 1.")  # the clause as cited
        assert (tmp_path / "ix").is_dir()
    finally:
        search_worker.wait_for_searches()
        search_worker.set_backend(previous)


def test_a_failing_search_says_so(mini_window, qtbot, fake):
    searcher = fake()
    searcher.search = lambda *a, **k: (_ for _ in ()).throw(OSError("disk full"))
    key(mini_window, "Ctrl+F")
    type_text(focused(), "reine")
    # said in the reader's words; the error's own, for whoever looks after the installation, in the tooltip
    qtbot.waitUntil(lambda: "The search failed" in status(mini_window), timeout=3000)
    assert "disk full" in mini_window.rulebook.search.status.toolTip()


def test_words_that_match_nothing_are_named_under_the_box(window, qtbot):
    key(window, "Ctrl+F")
    type_text(focused(), "reine xqzvw")
    qtbot.waitUntil(lambda: "xqzvw" in status(window), timeout=BUILD)
    assert results(window), "the other word still finds its clauses"
    assert status(window).startswith("No match for: xqzvw")


def test_a_citation_typed_comes_first_as_its_readers_cite_it_and_enter_opens_it(window, qtbot):
    panel = window.rulebook.search
    key(window, "Ctrl+F")
    type_text(focused(), "regola 53")
    qtbot.waitUntil(lambda: bool(panel._results) and panel._results[0]["id"] == "it:53", timeout=BUILD)
    assert results(window)[0].startswith("IT rule 53")   # cited as the window's English reader cites it
    key(focused(), "Return")
    assert window.rulebook.current_clause == "it:53"


def test_a_translation_that_matched_is_marked_as_such(window, qtbot):
    panel = window.rulebook.search
    key(window, "Ctrl+F")
    type_text(focused(), "coins off the board")
    qtbot.waitUntil(lambda: bool(panel._results), timeout=BUILD)
    row = next(i for i, r in enumerate(panel._results) if r.get("official") is False)
    assert "Unofficial translation (English)" in panel.results.item(row).data(HTML_ROLE)
    # and of which original
    from referee_app.ui.rulebook.clause_html import language_label

    original = language_label(panel._results[row]["original_lang"])
    assert f"Unofficial translation (English), original: {original}" in panel.results.item(row).data(HTML_ROLE)


def marked_words(html: str) -> list[str]:
    """The words a rich text shows in bold on a background: the search's marks."""
    import re

    return [m.group(1).strip() for m in re.finditer(r'<span style="[^"]*font-weight:\s*(?:bold|[6-9]00)[^"]*'
                                                     r'background-color[^"]*">([^<]+)</span>', html)] + \
        [m.group(1).strip() for m in re.finditer(r'<span style="[^"]*background-color[^"]*font-weight:\s*'
                                                 r'(?:bold|[6-9]00)[^"]*">([^<]+)</span>', html)]


def test_the_clause_page_marks_the_matches_in_every_language_the_matched_text_first(window, qtbot):
    """An Italian query for a French rule, in an English window: the result is shown in the
    window's language, the reader's (issue 33), as the project's English translation of the French
    original, its matches lit; the page opened from it shows that English text first, then the
    original and the Italian translation, the matches lit in each."""
    panel, view = window.rulebook.search, window.rulebook.view
    clause = window.kb.clauses["icf-fr:4.f"]
    key(window, "Ctrl+F")
    type_text(focused(), "pedina rotta")
    qtbot.waitUntil(lambda: bool(panel._results), timeout=BUILD)
    assert panel._results[0]["id"] == clause.id and panel._results[0]["lang"] == "en"
    item = panel.results.item(0).data(HTML_ROLE)
    assert re.search(r"<b[^>]*>broken</b>.*<b[^>]*>coin</b>", item, re.I), item
    assert "Unofficial translation (English), original: French" in item, item

    key(focused(), "Return")
    qtbot.waitUntil(lambda: window.rulebook.current_clause == clause.id)
    text = view.toPlainText()
    starts = [text.index(clause.texts[lang]["text"][:25]) for lang in ("en", "fr", "it")]
    assert starts == sorted(starts), "the reader's English text comes first, then the original"
    assert text.index("Unofficial translation (English)") < starts[0]
    lit = [w.lower() for w in marked_words(view.toHtml())]
    assert {"pedina", "rotta", "broken", "coin", "rompu"} <= set(lit), lit

    window.rulebook.open_clause("icf-fr:4.e")  # reached another way: nothing marked
    assert marked_words(view.toHtml()) == []


def test_the_hits_are_shown_in_the_window_s_language_whatever_the_query_s(window, qtbot):
    """Issue 33: the window passes its own language as the reader's; an English query typed in a
    French window shows each clause in its French text (its original or the project's translation),
    and still finds what the English words say."""
    from referee_app import i18n

    panel = window.rulebook.search
    i18n.set_language("fr")
    try:
        key(window, "Ctrl+F")
        type_text(focused(), "queen covered on the next stroke")
        qtbot.waitUntil(lambda: len(panel._results) >= 5, timeout=BUILD)
        hits = panel._results
        assert all(h["lang"] == "fr" for h in hits if "fr" in window.kb.clauses[h["id"]].texts), \
            [(h["id"], h["lang"]) for h in hits]
        assert any(h["source"] == "aicf-2009" for h in hits), "the English rules are found, shown in French"
        assert len({h["id"] for h in hits}) == len(hits)
    finally:
        i18n.set_language("en")


def test_switching_the_window_s_language_shows_the_hits_in_the_new_one(window, qtbot):
    panel = window.rulebook.search
    key(window, "Ctrl+F")
    type_text(focused(), "reine couverte")
    qtbot.waitUntil(lambda: bool(panel._results) and panel._results[0]["lang"] == "en", timeout=BUILD)
    window.language_combo.setCurrentIndex(window.language_combo.findData("it"))
    qtbot.waitUntil(lambda: bool(panel._results) and all(
        r["lang"] == "it" for r in panel._results if "it" in window.kb.clauses[r["id"]].texts), timeout=BUILD)
