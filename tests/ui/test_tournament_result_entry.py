"""The desk's result entry as a desk uses it on the day (issue 32 item 7): the points typed belong to
the game selected, shown beside them; a refusal moves no row of the list; the boxes show the newly
selected game's result or nothing; an impossible result is refused with its clause; Enter saves;
the standings say their unit, keep their titles whole, and are exported and printed from the window."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QFileDialog

from referee_app import i18n
from referee_app.core.tournament import export
from support.gui import DESK_PLAYERS, a_desk_with_a_round



@pytest.fixture
def desk(qtbot, gui_env, tmp_path, monkeypatch):
    name = "Open de Cannes et de la Côte d'Azur, édition d'automne"
    with a_desk_with_a_round(qtbot, tmp_path / "records.sqlite3", monkeypatch, name) as area:
        yield area


def click_row(qtbot, table, row: int) -> None:
    rect = table.visualItemRect(table.item(row, 1))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_a_refusal_moves_no_row_and_the_click_lands_on_the_table_aimed_at(desk, qtbot):
    rounds = desk.rounds
    click_row(qtbot, rounds.table, 0)
    where = rounds.table.viewport().mapTo(desk, QPoint(0, 0))
    aimed = rounds.table.visualItemRect(rounds.table.item(1, 1)).center()   # the desk aims at table 2
    qtbot.mouseClick(rounds.record_button, Qt.MouseButton.LeftButton)      # nothing typed: refused
    assert desk.message.isVisible()
    qtbot.wait(50)
    assert rounds.table.viewport().mapTo(desk, QPoint(0, 0)) == where
    qtbot.mouseClick(rounds.table.viewport(), Qt.MouseButton.LeftButton, pos=aimed)
    assert rounds.selected_table() == 2
    desk.message.hide()
    qtbot.wait(50)
    assert rounds.table.viewport().mapTo(desk, QPoint(0, 0)) == where


def test_the_points_belong_to_the_game_selected_cleared_or_loaded_and_enter_saves(desk, qtbot):
    rounds = desk.rounds
    games = {g["table_no"]: g for g in rounds.games()}
    desk.store.result(desk.tid, 1, 2, [25, 7])
    desk.refresh()
    click_row(qtbot, rounds.table, 1)
    assert (rounds.first_points.value(), rounds.second_points.value()) == (25, 7)   # table 2's own result
    assert games[2]["first"] in rounds.entry_for.text() and "2" in rounds.entry_for.text()
    click_row(qtbot, rounds.table, 0)
    assert rounds.first_points.text() == rounds.second_points.text() == "–"        # nothing kept from table 2
    assert games[1]["first"] in rounds.entry_for.text()
    # 25–25 is no result: refused with the clause, nothing stored, the points left to put right
    for box, points in ((rounds.first_points, "25"), (rounds.second_points, "25")):
        box.setFocus()
        box.selectAll()
        qtbot.keyClicks(box, points)
    qtbot.keyClick(rounds.second_points, Qt.Key.Key_Return)
    # the clause as people cite it, never its id
    assert desk.message.isVisible() and desk.store.knowledge.clause_label("ffc-tournament:1.6", "en") in desk.message.text()
    assert "ffc-tournament:" not in desk.message.text()
    assert desk.store.round_games(desk.tid, 1)[0]["score_first"] is None
    assert rounds.first_points.value() == 25 and rounds.selected_table() == 1
    rounds.second_points.selectAll()
    qtbot.keyClicks(rounds.second_points, "13")
    qtbot.keyClick(rounds.second_points, Qt.Key.Key_Return)                       # Enter saves
    saved = {g["table_no"]: [g["score_first"], g["score_second"]] for g in desk.store.round_games(desk.tid, 1)}
    assert saved == {1: [25, 13], 2: [25, 7]}, desk.message.text()
    assert not desk.message.isVisible()


@pytest.mark.parametrize("lang,title", [("en", "Wins (points)"), ("fr", "Victoires (points)"),
                                        ("it", "Vittorie (punti)")])
def test_the_standings_say_their_unit_and_the_clause(desk, qtbot, lang, title):
    i18n.set_language(lang)
    header = desk.standings.table.horizontalHeaderItem(2)
    assert header.text() == title
    assert "ffc-tournament:1.9" in header.toolTip() and "2" in header.toolTip()


def test_the_titles_and_the_tournament_are_not_cut(desk, qtbot):
    desk.store.result(desk.tid, 1, 1, [25, 3])
    desk.refresh()
    combo = desk.tournament_combo
    assert combo.width() >= combo.fontMetrics().horizontalAdvance(combo.currentText())
    qtbot.mouseClick(desk.standings.fullscreen_button, Qt.MouseButton.LeftButton)
    screen = desk.standings.screen_view
    qtbot.waitExposed(screen)
    for table in (desk.standings.table, screen.table):
        header = table.horizontalHeader()
        for j in range(table.columnCount()):
            text = table.horizontalHeaderItem(j).text()
            assert header.sectionSize(j) >= header.fontMetrics().horizontalAdvance(text), (table.objectName(), text)
    screen.close()


def test_the_standings_are_exported_and_printed_from_the_window(desk, qtbot, tmp_path, monkeypatch):
    desk.store.result(desk.tid, 1, 1, [25, 3])
    desk.store.result(desk.tid, 1, 2, [11, 25])
    desk.refresh()
    t = desk.store.load(desk.tid)
    for label, expected in (("Standings (CSV)", export.standings_csv(t)), ("Results (CSV)", export.results_csv(t))):
        path = tmp_path / f"{label[:7]}.csv"
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            lambda *a, p=path, lab=label, **k: (str(p), f"{lab} (*.csv)"))
        qtbot.mouseClick(desk.standings.export_button, Qt.MouseButton.LeftButton)
        assert path.read_text(encoding="utf-8") == expected      # as `tournament export` writes it
    pdf = tmp_path / "standings.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(pdf), "PDF (*.pdf)"))
    qtbot.mouseClick(desk.standings.print_button, Qt.MouseButton.LeftButton)
    assert pdf.read_bytes().startswith(b"%PDF")
    from test_tournament_ui import pdf_text

    text = pdf_text(pdf)
    assert all(p in text for p in DESK_PLAYERS) and "Wins (points)" in text and "ffc-tournament:1.9" in text
