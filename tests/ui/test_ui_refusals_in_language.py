"""A French (or Italian) referee never meets English: what the core refuses or fails in English for
the command line, naming the field, the window says in its own language, from what the refusal
carries (its code and values, the clauses it cites by their labels), never the English text."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from referee_app import i18n
from referee_app.ui.rulebook import search_worker
from referee_app.ui.rulings import match_dialogs, match_tools
from support.gui import a_desk_with_a_round, a_table_with_a_paired_tournament, focused, key, make_window, type_text
from support.kbcopy import installed

ENGLISH = ("no game ends", "is not a result", "round 1", "has begun", "ffc-tournament:", "records",
           "its game", "The search failed", "Error")


@pytest.fixture
def desk(qtbot, gui_env, tmp_path, monkeypatch):
    with a_desk_with_a_round(qtbot, tmp_path / "records.sqlite3", monkeypatch, 'Open de Cannes') as area:
        yield area


def type_points(qtbot, desk, first: str, second: str) -> None:
    rounds = desk.rounds
    rounds.table.selectRow(0)
    for box, points in ((rounds.first_points, first), (rounds.second_points, second)):
        box.setFocus()
        box.selectAll()
        qtbot.keyClicks(box, points)
    qtbot.keyClick(rounds.second_points, Qt.Key.Key_Return)


def english_in(text: str) -> list[str]:
    return [w for w in ENGLISH if w in text]


def label(desk, clause_id: str, lang: str) -> str:
    return desk.store.knowledge.clause_label(clause_id, lang)


def test_a_score_both_sides_at_the_end_is_refused_in_french_with_the_clause_s_label(desk, qtbot):
    i18n.set_language("fr")
    type_points(qtbot, desk, "25", "25")
    text = desk.message.text()
    assert desk.message.isVisible()
    assert desk.store.round_games(desk.tid, 1)[0]["score_first"] is None
    assert text.startswith("25–25 n'est pas un résultat : aucune partie ne finit avec les deux camps à 25 points")
    assert f"({label(desk, 'ffc-tournament:1.6', 'fr')})" in text
    assert english_in(text) == [], text


def test_a_score_no_board_reaches_is_refused_in_italian(desk, qtbot):
    i18n.set_language("it")
    type_points(qtbot, desk, "60", "3")
    text = desk.message.text()
    assert text.startswith("60–3 non è un risultato: un game ai 25 punti finisce con"), text
    assert label(desk, "ffc-tournament:1.6", "it") in text
    assert english_in(text) == [], text


def test_pairing_a_round_again_once_a_table_has_played_is_refused_in_french(desk, qtbot, monkeypatch):
    desk.store.result(desk.tid, 1, 1, [25, 3])
    desk.refresh()
    i18n.set_language("fr")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("erreur de saisie", True))
    desk.rounds.pair_again()
    text = desk.message.text()
    assert text == ("La table 1 a commencé ou fini sa partie : tour 1 est en cours. Changez ses résultats par des "
                    "corrections enregistrées."), text


def test_moving_a_played_game_is_refused_in_italian(desk, qtbot):
    desk.store.result(desk.tid, 1, 1, [25, 3])
    desk.refresh()
    i18n.set_language("it")
    choices = desk.choices
    desk.tabs.setCurrentWidget(choices)
    choices.move_round.setValue(1)
    choices.move_from.setValue(1)
    choices.move_to.setValue(2)
    choices.reason.setText("luce migliore")
    choices.move()
    text = desk.message.text()
    assert text == "Il tavolo 1 ha il suo risultato: il suo game è stato giocato.", text


def test_opening_the_sheet_of_a_game_with_its_result_is_refused_in_french(desk, qtbot):
    desk.store.result(desk.tid, 1, 1, [25, 3])
    desk.refresh()
    i18n.set_language("fr")
    desk.rounds.select_table(1)
    desk.rounds.open_sheet()
    text = desk.message.text()
    assert text == ("Le résultat de la table 1 (tour 1) est déjà saisi : sa partie n'a pas de feuille de match "
                    "à tenir."), text


def test_a_player_s_name_too_long_is_refused_in_french_naming_the_field(desk, qtbot):
    desk.tabs.setCurrentWidget(desk.entries)
    i18n.set_language("fr")
    desk.entries.name_edit.setText("Anne-" * 50)
    desk.entries.enter()
    assert desk.message.text() == "« Nom du joueur » : 250 caractères, c'est trop long (au plus 200).", \
        desk.message.text()


def test_a_server_failure_at_the_desk_is_said_in_italian_the_server_s_words_in_the_tooltip(desk, monkeypatch):
    from referee_app.core.storage.errors import StoreError

    def fails(*_a, **_k):
        raise StoreError("postgresql://desk@club/carrom", "failed", "(psycopg.errors.DeadlockDetected) deadlock "
                                                                     "detected")

    monkeypatch.setattr(desk.store, "add_player", fails)
    desk.tabs.setCurrentWidget(desk.entries)
    i18n.set_language("it")
    desk.entries.name_edit.setText("Zoé")
    desk.entries.enter()
    assert desk.message.text() == ("Il database delle registrazioni non è riuscito: nulla di questa modifica è stato "
                                   "salvato. Riprovate."), desk.message.text()
    assert "deadlock detected" in desk.message.toolTip()


# --- the rulebook's search -------------------------------------------------------------------
class FailingSearcher:
    def __init__(self, at: str):
        self.at = at

    def open(self):
        if self.at == "open":
            raise OSError(28, "No space left on device")

    def search(self, query, **_filters):
        raise RuntimeError("whoosh: segment _MAIN_1 is missing")


@pytest.fixture
def failing(mini_kb):
    previous = search_worker._backend

    def install(at: str):
        search_worker.set_backend(search_worker.SearchBackend(lambda: FailingSearcher(at), kb=mini_kb))

    yield install
    search_worker.wait_for_searches()
    search_worker.set_backend(previous)


@pytest.mark.parametrize("lang,at,said", [
    ("fr", "open", "L'index de recherche n'a pas pu être construit"),
    ("it", "search", "La ricerca non è riuscita: nessun articolo è mostrato."),
])
def test_a_failed_search_is_said_in_the_reader_s_language_the_error_only_in_the_tooltip(
        mini_window, qtbot, failing, lang, at, said):
    failing(at)
    i18n.set_language(lang)
    key(mini_window, "Ctrl+F")
    type_text(focused(), "reine")
    status = mini_window.rulebook.search.status
    qtbot.waitUntil(lambda: said in status.text(), timeout=5000)
    assert english_in(status.text()) == [] and "whoosh" not in status.text() and "space" not in status.text()
    assert ("No space left" if at == "open" else "whoosh") in status.toolTip()


# --- the Rulings area ------------------------------------------------------------------------
@pytest.fixture
def boxes(monkeypatch):
    """The message boxes' texts, counted instead of shown (a modal box would wait forever offscreen)."""
    shown = []
    for name in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(
            lambda *a, **k: shown.append((a[1], a[2])) or QMessageBox.StandardButton.Ok))
    return shown


def test_a_correction_that_leaves_a_later_stroke_impossible_is_refused_in_french(gui_env, qtbot, boxes):
    window = make_window(qtbot)
    area = window.rulings_area
    for stroke in ({"pocketed": {"own": 1}}, {"pocketed": {"own": 1, "queen": True}}, {"pocketed": {"own": 1}}):
        area.session.record(stroke, area.header.values())
    area.refresh()
    i18n.set_language("fr")
    assert not match_dialogs.confirm_correction(area, area.session, 1, {"pocketed": {"own": 1, "queen": True}},
                                                area.names())
    assert boxes == [("Correction refusée", "Tir 2 : La reine n'est plus sur le plateau.")], boxes


def test_the_sheet_of_a_game_whose_result_the_desk_entered_is_refused_in_italian(gui_env, qtbot, boxes):
    area, tournaments, tid = a_table_with_a_paired_tournament(qtbot)
    tournaments.result(tid, 1, 1, [25, 3])       # the desk enters it before the table opened its sheet
    i18n.set_language("it")
    area.open_pairing({"tournament": tid, "round": 1, "table": 1})
    assert [text for _title, text in boxes] == [
        "Il risultato del tavolo 1 (turno 1) è già inserito: il suo game non ha un foglio segnapunti "
        "da tenere."], boxes


def test_the_score_sheet_saved_over_a_folder_is_refused_in_italian(gui_env, qtbot, boxes, tmp_path, monkeypatch):
    window = make_window(qtbot)
    area = window.rulings_area
    area.session.record({"pocketed": {"own": 1}}, area.header.values())
    area.refresh()
    i18n.set_language("it")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path), "PDF (*.pdf)"))
    match_tools.print_sheet(area)
    assert [text for _title, text in boxes] == [f"{tmp_path} è una cartella: indicate il nome di un file al suo "
                                                "interno."], boxes


def test_a_failed_save_is_said_in_french_the_driver_s_words_only_in_the_details(gui_env, qtbot, monkeypatch):
    from referee_app.core.storage.errors import StoreError
    from referee_app.ui.common import records

    asked = []
    monkeypatch.setattr(records, "ask_retry", lambda parent, what, problem, detail="": asked.append(
        (what, problem, detail)) and False)

    def fails():
        raise StoreError("/tmp/records.sqlite3", "failed", "(sqlite3.OperationalError) disk I/O error")

    i18n.set_language("fr")
    assert records.saving(None, i18n.gettext("The stroke"), fails) is False
    [(what, problem, detail)] = asked
    assert problem == ("La base des enregistrements a échoué : rien de ce changement n'a été enregistré. "
                       "Réessayez."), problem
    assert "disk I/O error" in detail


# --- the forms --------------------------------------------------------------------------------
@pytest.fixture
def forms_page(qtbot, user_dirs):
    from referee_app.core.forms.store import FormsStore
    from referee_app.core.storage import db
    from referee_app.ui.forms.page import FormsPage

    page = FormsPage(installed(), store=FormsStore(installed(), db.connect(user_dirs / "records.sqlite3")))
    qtbot.addWidget(page)
    page.resize(1280, 820)
    page.show()
    yield page
    i18n.set_language("en")


def test_deleting_an_announced_protest_is_refused_in_italian_with_the_clause_s_label(forms_page, qtbot):
    page = forms_page
    qtbot.mouseClick(page.new_protest, Qt.MouseButton.LeftButton)
    form_id = page.current.id
    qtbot.mouseClick(page.editors["protest"].fields["announced_at"].now_button, Qt.MouseButton.LeftButton)
    i18n.set_language("it")
    qtbot.mouseClick(page.delete_button, Qt.MouseButton.LeftButton)
    text = page.message.text()
    assert text.startswith(f"Il reclamo {form_id} è stato annunciato: non si può mai ritirare né eliminare ("), text
    assert "withdrawn" not in text and "icf-fr:" not in text and "forms decide" not in text, text
    assert page.store.get(form_id)


def test_an_incident_missing_its_tournament_is_refused_in_french(forms_page, qtbot):
    page = forms_page
    page.left_tabs.setCurrentWidget(page.incidents)
    inc = page.incidents
    i18n.set_language("fr")
    qtbot.mouseClick(inc.record_button, Qt.MouseButton.LeftButton)
    text = inc.message.text()
    assert text == "Remplissez d'abord « Tournoi ».", text
    assert "required" not in text and inc.list.count() == 0, text


def test_a_second_conflict_while_keeping_one_s_version_is_said_in_italian(forms_page, qtbot):
    from referee_app.ui.forms import conflicts

    page = forms_page
    qtbot.mouseClick(page.new_protest, Qt.MouseButton.LeftButton)
    read = page.current
    page.store.set_field(read.id, "tournament", "Open de Lyon")   # another machine, meanwhile
    i18n.set_language("it")
    conflicts.keep_mine(page, read.id, {"tournament": "Open de Nice"}, {"tournament": ""}, read.version)
    assert page.message.text() == ("Questo è stato modificato su un'altra macchina nel frattempo: nulla è stato "
                                   "sovrascritto. Guardatelo di nuovo, poi rifate la vostra modifica."), \
        page.message.text()
    assert page.store.get(read.id).fields["tournament"] == "Open de Lyon"


# --- equipment inspection, learning ------------------------------------------------------------
def test_reopening_an_inspection_no_longer_in_the_records_is_said_in_italian(qtbot, user_dirs, monkeypatch):
    from referee_app.ui.inspection.page import InspectionPage
    from support.gui import shown

    monkeypatch.delenv("CARROM_REFEREE_DATABASE", raising=False)
    page = shown(qtbot, InspectionPage(installed()), (1400, 900))
    try:
        i18n.set_language("it")
        page.reopen(999)
        assert page.status.text() == "⚠ Non c'è il controllo n. 999 nei verbali.", page.status.text()
    finally:
        i18n.set_language("en")


def test_an_exam_paper_saved_over_a_folder_is_refused_in_french(window, tmp_path):
    key(focused() or window, "Ctrl+4")
    area = window.learn
    area.count.setValue(3)
    i18n.set_language("fr")
    assert area.print_exam(str(tmp_path)) is None
    assert area.feedback.text() == (f"Le sujet n'a pas pu être imprimé : {tmp_path} est un dossier : donnez un nom "
                                    "de fichier dedans."), area.feedback.text()


def test_a_match_stored_unreadably_is_refused_in_french(records_file, gui_env, qtbot, boxes):
    import sqlite3

    from referee_app.core.play.store import MatchStore
    from referee_app.core.storage import db

    with MatchStore(installed(), db.connect(records_file)) as store:
        broken = store.create("icf")
        store.add_stroke(broken, {"pocketed": {"own": 1}})
    conn = sqlite3.connect(records_file)
    with conn:   # what a damaged page or a hand edit leaves, written past the trigger that keeps strokes
        conn.execute("DROP TRIGGER strokes_never_rewritten")
        conn.execute("UPDATE strokes SET stroke = '{broken' WHERE match_id = ?", (broken,))
    conn.close()
    window = make_window(qtbot)
    i18n.set_language("fr")
    window.rulings_area.open_match(broken)
    assert [text for _title, text in boxes] == [
        "Le tir 1 de ce match est enregistré sous une forme illisible : la feuille ne peut pas être rejouée au-delà, "
        "le match reste donc fermé."], boxes


def test_a_ruleset_the_match_s_strokes_cannot_be_played_under_is_refused_in_italian(gui_env, qtbot, boxes,
                                                                                   monkeypatch):
    window = make_window(qtbot)
    area = window.rulings_area
    area.session.record({"pocketed": {}, "foul": "standing_up"}, area.header.values())
    area.refresh()
    monkeypatch.setattr(match_dialogs, "confirm_ruleset_change", lambda *a: True)
    i18n.set_language("it")
    assert not area.set_ruleset("carom-bi")
    [(title, text)] = boxes
    name = area.knowledge.foul_name("carom-bi", "standing_up", "it")
    ruleset = area.knowledge.ruleset_name("carom-bi", "it")
    assert text == f"Tiro 1: «{name}» non è un fallo secondo {ruleset}.", text
    assert area.match.ruleset == "icf"


# --- every code the window words ------------------------------------------------------------
SAMPLE = {"score": [25, 25], "end": 25, "most": 36, "board": 12, "table": 3, "round": 2, "name": "Anne",
          "length": 250, "least": 1, "value": "15h", "path": "/tmp/x.pdf", "number": 7, "form": 4, "days": 1,
          "more_than": 3, "times": 2, "available": 3, "asked": 5, "year": 1, "first": 1900, "last": 2100, "at": 2,
          "record": "form", "digits": 11, "foul": "standing_up", "ruleset": "icf", "clauses": ["ffc-tournament:1.6"]}


@pytest.mark.parametrize("lang", ["fr", "it", "en"])
def test_every_code_is_worded_whole_in_every_language(lang):
    from referee_app.core.errors import BadInput
    from referee_app.ui.common.refusal_words import _CODES, said

    knowledge = installed()
    i18n.set_language(lang)
    try:
        for code in _CODES:
            text = said(BadInput("field", "the English problem", code, SAMPLE), knowledge, "Round")
            assert text and "{" not in text and "the English problem" not in text, (code, text)
            assert "ffc-tournament:" not in text, (code, text)
    finally:
        i18n.set_language("en")
