"""The rulebook reads in the reader's language down to its headings, and follows a switch."""
from __future__ import annotations


def _line(window, clause_id):
    tree = window.rulebook.tree
    tree.select_clause(clause_id)
    return tree._clause_items[clause_id].parent().text(0)


def test_headings_and_lines_follow_the_interface_language(window):
    assert _line(window, "icf-fr:3.12.c") == "The queen"
    item = window.rulebook.tree._clause_items["icf-fr:3.12.c"]
    assert item.text(0).startswith("3.12 c)  If a player pockets the queen")
    window.language_combo.setCurrentIndex(window.language_combo.findData("it"))
    assert _line(window, "icf-fr:3.12.c") == "La regina"
    assert "regina" in item.text(0).lower()
    window.language_combo.setCurrentIndex(window.language_combo.findData("fr"))
    assert _line(window, "icf-fr:3.12.c") == "La reine"
    assert item.text(0).startswith("3.12 c)  Si un joueur loge la reine")
