"""The Rulings area driven like a referee drives it: the keyboard alone, a whole board."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from referee_app.core.play.store import MatchStore
from referee_app.ui.rulings import match_dialogs
from referee_app.ui.rulings.area import RulingsArea
from support.gui import shown
from support.kbcopy import installed


@pytest.fixture
def area(qtbot, user_dirs):
    return shown(qtbot, RulingsArea(installed(), "icf"), active=True)


def type_stroke(qtbot, area, own=0, opponent=0, queen=False, striker=False):
    """Enters a stroke with keys only: digits in the spin boxes, Alt+letter for the boxes, Ctrl+Enter."""
    area.form.own.setFocus()
    qtbot.keyClick(area.form.own, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(area.form.own, str(own))
    qtbot.keyClick(area.form.own, Qt.Key.Key_Tab)
    qtbot.keyClick(area.form.opponent, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(area.form.opponent, str(opponent))
    if queen:  # a mnemonic clicks its box after a short animation
        qtbot.keyClick(area.form.opponent, Qt.Key.Key_Q, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(area.form.queen.isChecked)
    if striker:
        qtbot.keyClick(area.form.opponent, Qt.Key.Key_S, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(area.form.striker.isChecked)
    shown = area.ruling_view.headline.text()
    qtbot.keyClick(area.form.opponent, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    return shown


def test_a_whole_board_by_keyboard_with_each_ruling_shown(qtbot, area):
    area.first_name.setText("Anna")
    area.second_name.setText("Bruno")
    area.refresh()
    assert type_stroke(qtbot, area, own=2) == "Anna plays again"
    assert type_stroke(qtbot, area) == "Turn passes to Bruno"
    assert type_stroke(qtbot, area, own=3) == "Bruno plays again"
    assert type_stroke(qtbot, area) == "Turn passes to Anna"
    assert type_stroke(qtbot, area, queen=True) == "Anna plays again"
    assert area.match.game.state.queen == "awaiting_cover"
    assert type_stroke(qtbot, area, own=1) == "Anna plays again"
    assert type_stroke(qtbot, area, own=6) == "Board over: Anna wins 9 to 0"
    assert len(area.match.strokes) == 7
    # the paper score sheet: board 1 won by Anna 9-0, queen covered by Anna
    sheet = area.sheet.boards
    assert [sheet.item(0, j).text() for j in range(6)] == ["1.1", "Anna", "Anna", "9", "0", "Anna"]
    assert "Bruno" in area.status.text() and "board 2" in area.status.text()
    # saved as it was played
    saved = MatchStore(installed()).load(area.match_id)
    assert saved.strokes == area.match.strokes


def test_the_ruling_updates_at_each_tick_and_cites_clauses_as_people_do(qtbot, area):
    opened = []
    area.open_clause.connect(opened.append)
    area.form.own.setValue(1)
    assert area.ruling_view.headline.text().endswith("plays again")
    area.form.striker.setChecked(True)
    details = area.ruling_view.details.text()
    assert ">IT rule 53</a>" in details and "it:53<" not in details  # cited as people do, linked by id
    area.ruling_view.details.linkActivated.emit("clause:it:53")
    # the clause opens beside the ruling: the Rulings stay in view
    assert area.ruling_view.clause_panel.isVisible() and area.ruling_view.isVisible()
    assert "IT rule 53" in area.ruling_view.clause_text.toPlainText() and opened == []
    qtbot.mouseClick(area.ruling_view.to_rulebook, Qt.MouseButton.LeftButton)
    assert opened == ["it:53"]


def test_citations_are_reached_and_opened_from_the_keyboard(qtbot, area):
    area.form.own.setValue(1)
    area.form.striker.setChecked(True)
    label = area.ruling_view.details
    label.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(label.hasFocus)
    qtbot.keyClick(label, Qt.Key.Key_Tab)  # inside the label, Tab goes from link to link
    qtbot.keyClick(label, Qt.Key.Key_Return)
    assert area.ruling_view.clause_panel.isVisible()
    assert area.ruling_view.clause_text.toPlainText().strip()


def test_undo_takes_back_the_last_stroke(qtbot, area):
    type_stroke(qtbot, area, own=2)
    type_stroke(qtbot, area)
    qtbot.keyClick(area.form.own, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(area.match.strokes) == 1 and len(MatchStore(installed()).load(area.match_id).strokes) == 1
    assert area.sheet.strokes.rowCount() == 1


def test_a_correction_that_changes_a_later_ruling_is_shown_before_it_is_accepted(qtbot, area, monkeypatch):
    for own, queen in ((1, False), (0, True), (1, False)):
        type_stroke(qtbot, area, own=own, queen=queen)
    assert area.match.game.state.queen == "covered"
    asked = []

    def answer(parent, title, text, *args):
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    monkeypatch.setattr(match_dialogs, "ask_over_list", lambda parent, title, intro, listing, question:
                        answer(parent, title, f"{intro}\n\n{listing}\n\n{question}") == QMessageBox.StandardButton.Yes)
    area.sheet.correct_stroke.emit(1)
    assert "Correcting stroke 1" in area.status.text()
    area.form.own.setValue(0)  # the first stroke in fact pocketed nothing
    qtbot.keyClick(area.form.own, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert asked and "Stroke 2" in asked[0] and "Stroke 3" in asked[0]
    assert area.match.game.state.queen == "on_board"
    assert MatchStore(installed()).load(area.match_id).strokes[0]["pocketed"]["own"] == 0


def test_what_if_rules_without_recording(qtbot, area):
    qtbot.keyClick(area, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert area.what_if.isChecked() and area.situation.isVisible()
    area.situation.break_.setChecked(False)
    area.situation.own.setValue(1)
    area.situation.queen.setCurrentIndex(area.situation.queen.findData("covered_by_striker"))
    area.form.own.setValue(1)
    assert area.ruling_view.headline.text().startswith("Board over")
    qtbot.keyClick(area.form.own, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert area.match.strokes == [] and area.match_id is None
    # the sides have no names in what-if: the sentences read as sentences, in every language
    area.situation.break_.setChecked(False)
    area.situation.own.setValue(5)
    area.form.reset()
    assert area.ruling_view.headline.text() == "Turn passes to the opponent"
    area.form.own.setValue(1)
    assert area.ruling_view.headline.text() == "The striking side plays again"
    from referee_app import i18n

    i18n.set_language("fr")
    try:
        assert area.ruling_view.headline.text() == "Le joueur au tir rejoue"
        area.form.own.setValue(0)
        assert area.ruling_view.headline.text() == "Le tour passe à l'adversaire"
    finally:
        i18n.set_language("en")


def test_the_what_if_board_is_built_when_asked_for_and_tabbed_where_it_stands(qtbot, area):
    # not made for the first paint (benchmarks/bench_startup.py), nor by switching what-if off
    assert area._situation is None
    area.what_if.setChecked(False)
    assert area._situation is None
    area.first_name.setFocus()
    tools = []
    while not area.form.isAncestorOf(area.focusWidget()) and len(tools) < 40:
        tools.append(area.focusWidget())
        area.focusNextChild()
    assert area.doubles in tools
    qtbot.keyClick(area, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    board = area.situation
    assert board.isVisible() and area.situation is board
    assert board.title() == "The board before the stroke (what if)"
    # Tab from the last of the match's tools walks the board's fields top to bottom, then the stroke's
    area.doubles.setFocus()
    walked = []
    for _ in range(len(board.fields()) + 1):
        area.focusNextChild()
        walked.append(area.focusWidget())
    assert [w.parentWidget() if w.parentWidget() in board.fields() else w for w in walked[:-1]] == board.fields()
    assert area.form.isAncestorOf(walked[-1])
    # it is above the stroke's ticks on screen, and goes with what-if
    assert board.geometry().bottom() < area.form.geometry().top()
    qtbot.keyClick(area, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert not board.isVisible()


def test_the_foul_list_is_made_when_the_referee_comes_to_the_field_and_follows_the_language(qtbot, area):
    from referee_app import i18n

    field = area.form.foul
    assert not field._listed   # not for the first paint (benchmarks/bench_startup.py)
    field.setFocus()
    qtbot.waitUntil(lambda: field._listed)
    fouls = field._fouls
    assert len(field.completer().model().stringList()) == len(fouls) > 1
    i18n.set_language("fr")
    try:
        offered = field.labels()   # the field has the focus: listed again at once, in French
        assert field._listed and offered == field.completer().model().stringList()
        assert [label.rsplit(" (", 1)[0] for label in offered] == [area.knowledge.foul_name("icf", f["id"], "fr") for f in fouls]
    finally:
        i18n.set_language("en")


def test_the_foul_field_offers_only_the_fouls_that_fit_the_stroke(qtbot, area):
    # a foul committed between strokes (touching the coins, standing up...) is recorded on its own
    # entry with nothing pocketed: once the stroke pockets a coin, it is no longer offered
    field = area.form.foul
    between = [f for f in field._fouls if f["timing"] == "between_strokes"]
    assert between   # icf has them (carrom-referee fouls)
    assert len(field.labels()) == len(field._fouls)
    area.form.own.setValue(1)
    offered = field.labels()
    assert len(offered) == len(field._fouls) - len(between)
    assert not any(label.startswith(area.knowledge.foul_name("icf", f["id"], "en")) for f in between for label in offered)
    area.form.own.setValue(0)
    assert len(field.labels()) == len(field._fouls)


def test_compare_rulesets_marks_what_differs(qtbot, area):
    area.form.own.setValue(1)
    area.form.queen.setChecked(True)
    area.compare()
    dialog = area.compare_dialog
    qtbot.addWidget(dialog)
    headers = [dialog.table.horizontalHeaderItem(j).text() for j in range(dialog.table.columnCount())]
    assert len(headers) == 6
    assert dialog.differing(), "queen with one coin: the 2009 Indian rules need no cover, the others do"


def test_an_impossible_stroke_shows_a_message_and_records_nothing(qtbot, area):
    area.form.striker.setChecked(True)
    area.form.striker_off.setChecked(True)
    assert area.ruling_view.headline.text() == "Cannot rule this stroke"
    assert "The striker cannot both be pocketed and leave the board." in area.ruling_view.details.text()
    assert not area.record_button.isEnabled()


def test_the_score_sheet_prints_to_pdf_in_the_interface_language(qtbot, area, tmp_path):
    import shutil
    import subprocess

    from referee_app import i18n

    area.first_name.setText("Éloïse")
    area.second_name.setText("<b>Bruno</b>")
    area.refresh()
    for own, queen in ((1, False), (0, True), (1, False), (7, False)):
        type_stroke(qtbot, area, own=own, queen=queen)
    i18n.set_language("fr")
    try:
        path = tmp_path / "feuille.pdf"
        area.sheet.save_pdf(str(path), {"tournament": "Open de Cannes", "referee": "C. Martin"})
    finally:
        i18n.set_language("en")
    assert shutil.which("pdftotext"), "pdftotext (poppler-utils) is needed to read the PDF back"
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert "Feuille de match" in text and "Éloïse" in text and "<b>Bruno</b>" in text
    assert "Open de Cannes" in text and "12" in text  # Éloïse's board: 9 coins and the queen, capped at 12


def test_the_clocks_follow_the_ruleset_and_start_pause_and_reset(qtbot, area):
    assert area.stroke_clock.seconds == 15            # icf-fr 3.6 b
    area.set_ruleset("aicf-2009")
    assert area.stroke_clock.seconds == 10            # aicf-2009 6
    assert area.match_clock.seconds == 40 * 60 and area.match_clock.extra == 5 * 60  # ffc-tournament
    clock = area.stroke_clock
    qtbot.mouseClick(clock.toggle, Qt.MouseButton.LeftButton)
    assert clock.running
    qtbot.wait(250)
    qtbot.mouseClick(clock.toggle, Qt.MouseButton.LeftButton)
    spent = clock.elapsed_ms()
    assert not clock.running and spent >= 200
    qtbot.wait(100)
    assert clock.elapsed_ms() == spent                # paused: time stands still
    qtbot.mouseClick(clock.reset_button, Qt.MouseButton.LeftButton)
    assert clock.elapsed_ms() == 0 and clock.display.text().strip() == "10.0"


def test_a_doubles_match_goes_round_the_four_seats(qtbot, area):
    area.doubles.setChecked(True)
    assert area.match.doubles
    for seat in (1, 2, 3, 4):
        assert f"Seat {seat}" in area.status.text()
        type_stroke(qtbot, area)  # a miss: the turn passes to the player on the right
    assert "Seat 1" in area.status.text()
    area.doubles.setChecked(False)  # too late: the match has begun
    assert area.doubles.isChecked() and area.match.doubles
    assert area.store.meta(area.match_id)["doubles"] == 1


def test_a_level_aicf_set_is_settled_by_deciding_strokes_entered_in_the_wizard(qtbot, area, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    area.set_ruleset("aicf-2009")
    board = [(1, False), (0, True), (1, False), (7, False)]  # the breaker wins 11-0
    for _ in range(4):
        for own, queen in board:
            type_stroke(qtbot, area, own=own, queen=queen)
    assert area.match.game.tie_breaker_due and area.tie_button.isVisible()
    assert "deciding strokes" in area.status.text()
    assert area.ruling_view.headline.text() == "Cannot rule this stroke"
    answers = iter([("1 1 0", True), ("1 0 0", True)])
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: next(answers))
    qtbot.mouseClick(area.tie_button, Qt.MouseButton.LeftButton)
    assert area.match.games[0].winner == "first" and len(area.match.games) == 2
    assert not area.tie_button.isVisible()
    saved = MatchStore(installed()).load(area.match_id)
    assert saved.strokes[-1] == {"tie_breaker": {"first": [True, True, False], "second": [True, False, False]}}
    assert "deciding strokes: ✓✓✗ / ✓✗✗" in area.sheet.strokes.item(area.sheet.strokes.rowCount() - 1, 3).text()


def test_the_ruling_says_why_and_why_not_the_rule_it_set_aside(qtbot, area):
    opened = []
    area.open_clause.connect(opened.append)
    area.form.queen.setChecked(True)  # the queen before any own coin: 3.12 c overrides 3.6 a
    details = area.ruling_view.details.text()
    assert "ICF 3.12 c applies, not ICF 3.6 a" in details
    assert "whynot:icf-fr:3.6.a" in details  # "why not ICF 3.6 a?", a link the keyboard reaches
    area.ruling_view.details.linkActivated.emit("whynot:icf-fr:3.6.a")  # the answer, then the clause
    panel = area.ruling_view.clause_text.toPlainText()
    assert "Why not ICF 3.6 a?" in panel and "ICF 3.12 c is an exception to it." in panel
    assert "would have played again" in panel and area.ruling_view.clause_panel.isVisible()


def test_a_what_if_score_no_game_reaches_is_refused_beside_the_field(qtbot, area):
    # icf's game ends at 25 points (icf-fr 3.7 e): a board at 30 is refused, under the score's field
    qtbot.keyClick(area, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    board = area.situation
    board.break_.setChecked(False)
    board.score.setValue(30)
    assert area.last_ruling is None and not area.record_button.isEnabled()
    assert area.ruling_view.headline.text() == "Cannot rule this stroke"
    assert board.problem.isVisible() and "score" in board.problem.text() and "3.7" in board.problem.text()
    row, _role = board.form.getWidgetPosition(board.score)
    assert board.form.getWidgetPosition(board.problem)[0] == row + 1
    assert board.score.styleSheet() and board.score.accessibleDescription() == board.problem.text()
    board.score.setValue(24)
    assert area.last_ruling is not None and not board.problem.isVisible() and not board.score.styleSheet()


@pytest.mark.parametrize("lang, heading", [("en", "Interpretation"), ("fr", "Interprétation"),
                                           ("it", "Interpretazione")])
def test_a_note_resting_on_the_projects_reading_is_headed_as_an_interpretation(qtbot, area, lang, heading):
    from referee_app import i18n
    from referee_app.core.rules.ruling import rule

    kb = installed()
    # the queen before any own coin: ICF 3.12 c over 3.6 a is the project's reading (`reading: true`)
    read = rule(kb, {"ruleset": "icf", "before": {"own_on_board": 9, "opponent_on_board": 9},
                     "stroke": {"pocketed": {"queen": True}}})
    # an opponent's coin alone: 3.6 a's note says what the text means, no reading
    plain_note = rule(kb, {"ruleset": "icf", "before": {"own_on_board": 9, "opponent_on_board": 9},
                           "stroke": {"pocketed": {"opponent": 1}}})
    assert [n.get("reading") for n in read["notes"]] == [True]
    assert plain_note["notes"] and not any(n.get("reading") for n in plain_note["notes"])
    i18n.set_language(lang)
    try:
        note = i18n.gettext("Note")
        view = area.ruling_view
        view.show_ruling(read)
        assert f"{heading} (" in view.notes.text() and f"{note} (" not in view.notes.text()
        view.show_ruling(plain_note)
        assert f"{note} (" in view.notes.text() and f"{heading} (" not in view.notes.text()
    finally:   # the language is the process's: the next test's window must not open in this one
        i18n.set_language("en")
