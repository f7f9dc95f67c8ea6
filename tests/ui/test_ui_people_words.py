"""Issue 32, item 8, in the window: Qt's own dialogs, default file names and the resume offer in
the user's language; a protest from a stroke offers the players by name, carries the score at
the incident and shows the clause as people cite it, never an id."""
from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QFileDialog, QLabel

from referee_app.ui.rulings import match_tools
from support.gui import make_window
from support.kbcopy import installed

from test_ui_match_record import fill_header, record, reopened_with_an_unfinished_match

RAW_ID = re.compile(r"\b(?:icf-fr|aicf-2009|fr-house|fr-simplified|ffc-[a-z]+|it):[\w.\-]+")


def choose_language(window, lang):
    window.language_combo.setCurrentIndex(window.language_combo.findData(lang))


@pytest.mark.parametrize("lang,words", [("fr", ("Voir dans", "Fichiers de type")),
                                        ("it", ("Cerca in", "File di tipo"))])
def test_qts_own_file_dialog_speaks_the_users_language(window, lang, words):
    choose_language(window, lang)
    dialog = QFileDialog(window)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)   # Qt's own, as offscreen and on Linux
    texts = " ".join(label.text().replace("&", "") for label in dialog.findChildren(QLabel))
    for word in words:
        assert word in texts, texts
    assert "Look in" not in texts and "Files of type" not in texts


@pytest.mark.parametrize("lang,name", [("fr", "feuille-de-match.pdf"), ("it", "referto.pdf"),
                                       ("en", "score-sheet.pdf")])
def test_the_score_sheet_is_offered_under_a_name_in_the_users_language(window, monkeypatch, lang, name):
    choose_language(window, lang)
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda parent, title, suggested, *a: (offered.append(suggested), ("", ""))[1]))
    match_tools.print_sheet(window.rulings_area)
    assert offered == [name]


def test_the_forms_pdf_names_are_in_the_users_language(window, monkeypatch):
    from referee_app.ui.forms.page import _file_name

    choose_language(window, "fr")
    assert _file_name("protest", 4) == "contestation-4.pdf" and _file_name("disqualification", None) == \
        "disqualification-vierge.pdf"
    choose_language(window, "it")
    assert _file_name("protest", 4) == "reclamo-4.pdf"


def test_the_resume_offer_follows_a_change_of_language(qtbot, gui_env):
    second = reopened_with_an_unfinished_match(qtbot)
    banner = second.rulings_area.resume
    assert banner.isVisible() and "strokes" in banner.label.text()
    choose_language(second, "fr")
    assert "Un match inachevé" in banner.label.text(), banner.label.text()
    ruleset = second.knowledge.ruleset_name(second.knowledge.default_ruleset, "fr")
    assert ruleset in banner.label.text() and "International rules" not in banner.label.text()


def test_a_protest_from_a_stroke_names_the_players_carries_the_score_and_cites_the_clause(window, qtbot):
    choose_language(window, "fr")
    area = window.rulings_area
    fill_header(area, {"first_name": "Élodie", "second_name": "Luca", "tournament": "Open de Lyon",
                       "round": "2", "table_no": "3", "referee": "Ana"})
    record(area, {"pocketed": {"own": 1}})
    record(area, {"pocketed": {}, "foul": "improper_stroke"})
    area.sheet.strokes.setCurrentCell(1, 0)
    area.protest_button.click()
    page = next(p for p in window.equipment.pages if p.objectName() == "forms_page")
    editor = page.editors["protest"]
    protester = editor.fields["protester"]
    offered = [protester.itemText(i) for i in range(protester.count())]
    assert any("Élodie" in t for t in offered) and any("Luca" in t for t in offered), offered
    score = editor.fields["score"]
    assert score.value() == {"first": 0, "second": 0}
    shown = editor.fields["clause"].edit.text()
    assert shown == installed().clause_label("icf-fr:4.1.2", "fr") and not RAW_ID.search(shown)
    assert editor.fields["clause"].value() == "icf-fr:4.1.2"
    match = editor.fields["match"].text()
    assert "Élodie" in match and "Luca" in match


def test_the_inspection_page_cites_its_clauses_as_people_do(window):
    from referee_app.ui.main_window import EQUIPMENT

    choose_language(window, "fr")
    window.show_area(EQUIPMENT)
    window.equipment.ensure_pages()
    page = next(p for p in window.equipment.pages if p.objectName() == "inspection_page")
    page.set_item("board")
    limit = page.form_of["board"].rows["pocket_diameter"].limit
    assert "ICF 2 cote C" in limit.text() and not RAW_ID.search(limit.text() + limit.toolTip())
    choose_language(window, "it")
    assert "ICF 2 quota C" in limit.text()


def test_open_match_names_the_ruleset_not_its_id(window, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    area = window.rulings_area
    record(area, {"pocketed": {"own": 1}})
    choose_language(window, "it")
    offered = []
    monkeypatch.setattr(QInputDialog, "getItem",
                        staticmethod(lambda parent, title, label, items, *a: (offered.extend(items), ("", False))[1]))
    area.choose_match()
    ruleset = window.knowledge.ruleset_name(area.match.ruleset, "it")
    assert offered and f"({ruleset}, 1 tiro)" in offered[0], offered


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_no_area_shows_a_clause_or_ruleset_id(qtbot, gui_env, tmp_path, monkeypatch, lang):
    """Every label, button, tooltip and list line of every area, a tournament open at the desk,
    in the user's language, names clauses and rulesets as people do."""
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QListWidget, QWidget

    from referee_app.ui.main_window import EQUIPMENT, LEARN, RULEBOOK, RULINGS, TOURNAMENT
    from support.gui import type_text

    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.sqlite3"))
    window = make_window(qtbot)
    choose_language(window, lang)
    for area in (RULINGS, RULEBOOK, EQUIPMENT, LEARN, TOURNAMENT):
        window.show_area(area)
    window.equipment.ensure_pages()
    desk = window.tournament.area
    type_text(desk.new_name, "Open de Cannes")
    desk.create_button.click()
    assert desk.tid is not None
    choose_language(window, "en")
    choose_language(window, lang)   # every view said again, the tournament open
    texts = []
    for w in window.findChildren(QWidget):
        if isinstance(w, (QLabel, QAbstractButton)):
            texts.append((w.objectName(), w.text()))
        if isinstance(w, QComboBox):
            texts += [(w.objectName(), w.itemText(i)) for i in range(w.count())]
        if isinstance(w, QListWidget):
            texts += [(w.objectName(), w.item(i).text()) for i in range(w.count())]
        texts.append((w.objectName(), w.toolTip()))
    shown = [(name, re.sub(r"<[^>]+>", " ", text)) for name, text in texts if text]   # a link's target is not shown
    leaks = [(name, RAW_ID.search(text).group()) for name, text in shown if RAW_ID.search(text)]
    assert leaks == []


def test_the_pairings_are_offered_under_a_name_in_the_users_language(qtbot, gui_env, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt

    from referee_app.ui.main_window import TOURNAMENT
    from support.gui import type_text

    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.sqlite3"))
    window = make_window(qtbot)
    choose_language(window, "fr")
    window.show_area(TOURNAMENT)
    desk = window.tournament.area
    type_text(desk.new_name, "Open de Lyon")
    desk.create_button.click()
    for name in ("Anne", "Bruno", "Chloé", "David"):
        type_text(desk.entries.name_edit, name)
        desk.entries.enter_button.click()
    for i in range(4):
        desk.entries.table.item(i, 1).setCheckState(Qt.CheckState.Checked)
    desk.rounds.pair_button.click()
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda parent, title, suggested, *a: (offered.append(suggested), ("", ""))[1]))
    desk.rounds.print_pairings()
    assert offered == ["appariements-1.pdf"]


def test_compare_rulesets_cites_the_clauses_as_people_do(window):
    from PySide6.QtWidgets import QTableWidget

    from referee_app.ui.rulings.compare_view import CompareDialog

    choose_language(window, "it")
    area = window.rulings_area
    area.form.load({"pocketed": {"own": 1, "queen": True}})
    dialog = CompareDialog(window.knowledge, area.situation_doc(), window)
    table = dialog.findChild(QTableWidget, "compare_table")
    cells = [table.item(r, c).text() for r in range(table.rowCount()) for c in range(table.columnCount())
             if table.item(r, c) is not None]
    assert any("ICF 3.12" in cell for cell in cells), cells
    assert not [cell for cell in cells if RAW_ID.search(cell)]
    dialog.close()
