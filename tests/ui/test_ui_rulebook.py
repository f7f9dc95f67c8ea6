"""The rulebook browser: contents tree, clause page, links, comparison, history, bookmarks,
citations. Most tests use a three-clause knowledge base whose text they know by heart; a few
check the real one."""
from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QApplication

from referee_app import i18n
from referee_app.ui import settings
from referee_app.ui.rulebook.contents_tree import KEY_ROLE, sections
from support.gui import focused, key, make_window


def page(w) -> str:
    return w.rulebook.view.toPlainText()


def open_with_keys(w, source_row: int, path: list[int]):
    """Walk the contents tree with the arrow keys, as a referee would."""
    tree = w.rulebook.tree
    key(w, "Ctrl+E")
    tree.setCurrentItem(tree.topLevelItem(0))
    for _ in range(source_row):
        key(tree, "Down")
    for step in path:
        key(tree, "Right")  # expand
        key(tree, "Right")  # first child
        for _ in range(step):
            key(tree, "Down")
    return tree.currentItem()


def test_tree_lists_sources_then_sections_in_reading_order(mini_window):
    tree = mini_window.rulebook.tree
    assert [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())] == [
        "ALPHA — Règles Alpha", "BETA — Regolamento Beta"]
    assert "3 clauses" in tree.topLevelItem(0).toolTip(0)
    assert tree.topLevelItem(0).childCount() == 0  # built when first opened
    item = open_with_keys(mini_window, 0, [])
    item.setExpanded(True)
    labels = [item.child(i).text(0) for i in range(item.childCount())]
    assert labels == ["La reine", "2.1  Le striker"]  # a one-paragraph section is a single line
    reine = item.child(0)
    assert [reine.child(i).data(0, KEY_ROLE) for i in range(reine.childCount())] == ["alpha:1.1", "alpha:1.2"]


def test_sections_group_consecutive_clauses_under_one_heading(kb):
    clauses = kb.by_source("icf-fr")
    groups = sections(clauses)
    assert [c for _t, members in groups for c in members] == clauses  # nothing lost, order kept
    assert any(t == "La reine" and len(m) > 5 for t, m in groups)
    assert all(groups[i][0] != groups[i + 1][0] for i in range(len(groups) - 1))


def test_arrow_keys_open_a_clause(mini_window):
    item = open_with_keys(mini_window, 0, [0, 0])  # ALPHA → La reine → 1.1 a)
    assert item.data(0, KEY_ROLE) == "alpha:1.1"
    text = page(mini_window)
    assert text.startswith("ALPHA 1.1")
    assert "Règles Alpha" in text and "La reine" in text and "Rule" in text


def test_clause_page_shows_translation_beside_original_escaped(mini_window):
    w = mini_window
    w.rulebook.open_clause("alpha:1.1")
    text = page(w)
    assert "The player pockets the queen & covers it." in text
    assert "Le joueur <b>loge</b> la reine & la confirme." in text  # shown literally, not as markup
    assert "Unofficial translation (English)" in text and "Original (French)" in text


def test_clause_without_translation_says_the_original_is_shown(mini_window):
    w = mini_window
    w.rulebook.open_clause("alpha:1.2")
    assert "No English translation of this clause yet: the original French text is shown." in page(w)
    w.language_combo.setCurrentIndex(w.language_combo.findData("fr"))
    text = page(w)
    assert "Deuxième paragraphe sur la reine." in text
    assert "traduction" not in text  # in its own language there is nothing to say


def test_differences_are_highlighted_and_examples_readable(mini_window):
    w = mini_window
    w.rulebook.open_clause("alpha:1.1")
    text = page(w)
    assert "Differs from BETA 7: Beta gives the turn to the opponent." in text
    assert "Worked examples" in text
    assert "Example 1 — queen and own coin together" in text
    assert "own coins on the board: 5" in text and "queen: on the board" in text
    assert "Expected ruling" in text and "turn: continues" in text
    html = w.rulebook.view.toHtml()
    assert "background-color" in html  # the differences stand out from the page


def test_links_open_corresponding_clauses_and_history_goes_back(mini_window):
    w = mini_window
    key(w, "Ctrl+2")  # the window opens on the Rulings area
    w.rulebook.open_clause("alpha:1.1")
    view = w.rulebook.view
    view.setFocus()
    key(view, "Tab")  # the first link of the page: the corresponding clause
    assert view.textCursor().selectedText() == "BETA 7"
    key(view, "Return")
    assert w.rulebook.current_clause == "beta:7"
    assert page(w).startswith("BETA 7")
    assert w.rulebook.tree.currentItem().data(0, KEY_ROLE) == "beta:7"  # the contents follow
    key(view, "Alt+Left")
    assert w.rulebook.current_clause == "alpha:1.1"
    assert not w.rulebook.back_action.isEnabled() and w.rulebook.forward_action.isEnabled()
    key(view, "Alt+Right")
    assert w.rulebook.current_clause == "beta:7"


def test_compare_puts_corresponding_clauses_side_by_side(mini_window):
    w = mini_window
    w.rulebook.open_clause("alpha:1.1")
    key(w.rulebook.view, "Ctrl+M")
    assert w.rulebook.compare_action.isChecked()
    text = page(w)
    assert text.startswith("Compare: ALPHA 1.1")
    doc = w.rulebook.view.document()
    tables = [f for f in doc.rootFrame().childFrames() if f.__class__.__name__ == "QTextTable"]
    assert tables and tables[-1].columns() == 2  # one column per source
    assert "Se un giocatore imbuca la Regina, il turno passa." in text
    assert "The player pockets the queen & covers it." in text
    assert "Beta gives the turn to the opponent." in text
    key(w.rulebook.view, "Ctrl+M")
    assert page(w).startswith("ALPHA 1.1")


def test_compare_link_on_the_page(mini_window):
    w = mini_window
    w.rulebook.open_clause("alpha:1.1")
    w.rulebook.view.anchorClicked.emit(QUrl("action:compare"))
    assert w.rulebook.compare_action.isChecked() and page(w).startswith("Compare:")


def test_copy_citation_puts_source_and_paragraph_on_the_clipboard(window):
    window.rulebook.open_clause("icf-fr:3.12.e")
    key(window.rulebook.view, "Ctrl+Shift+C")
    assert QApplication.clipboard().text() == "ICF 3.12 e"
    assert "ICF 3.12 e" in window.statusBar().currentMessage()


def test_bookmarks_toggle_persist_and_open(qtbot, gui_env, mini_kb):
    w = make_window(qtbot, mini_kb)
    w.rulebook.open_clause("alpha:1.2")
    key(w.rulebook.view, "Ctrl+D")
    w.rulebook.open_clause("beta:7")
    key(w.rulebook.view, "Ctrl+D")
    assert w.rulebook.bookmark_action.isChecked()
    assert settings.get_list(settings.BOOKMARKS) == ["alpha:1.2", "beta:7"]
    assert "★ Bookmarked" in page(w)
    w.close()

    again = make_window(qtbot, mini_kb)
    key(again, "Ctrl+B")
    marks = again.rulebook.bookmarks
    assert focused() is marks
    assert [marks.item(i).text() for i in range(marks.count())] == ["ALPHA 1.2 — La reine", "BETA 7 — La regina"]
    marks.setCurrentRow(0)
    key(marks, "Return")
    assert again.rulebook.current_clause == "alpha:1.2"
    marks.setFocus()
    key(marks, "Delete")
    assert settings.get_list(settings.BOOKMARKS) == ["beta:7"]
    assert not again.rulebook.bookmark_action.isChecked()


def test_a_section_reads_as_a_whole(mini_window):
    w = mini_window
    tree = w.rulebook.tree
    top = tree.topLevelItem(0)
    top.setExpanded(True)
    tree.setCurrentItem(top.child(0))
    text = page(w)
    assert text.startswith("La reine")
    assert "1.1 a)" in text and "1.2" in text and "Deuxième paragraphe" in text
    assert not w.rulebook.citation_action.isEnabled()


def test_real_rulebook_clause_page(window):
    window.rulebook.open_clause("icf-fr:3.12.c")
    text = page(window)
    assert text.startswith("ICF 3.12 c")
    clause = window.kb.clauses["icf-fr:3.12.c"]
    assert " ".join(clause.text.split())[:60] in " ".join(text.split())
    for other in clause.corresponds_to:
        from referee_app.ui.rulebook.clause_html import citation

        assert citation(window.kb, window.kb.clauses[other]) in text


def test_clause_page_follows_the_language(mini_window):
    w = mini_window
    w.rulebook.open_clause("alpha:1.1")
    i18n.set_language("it")
    text = page(w)
    assert "Differisce da BETA 7" in text
