"""The desk's pairings say, per table, whether its game is playing, finished, or has a score sheet
that disagrees with the result entered, the two scores in the tooltip (issue 31, "Sheets tied to
pairings"), in the interface language."""
from __future__ import annotations

from referee_app import i18n
from support.kbcopy import installed

# one board over: the second player wins it 11-0
BOARD = [{"pocketed": {"own": 2}}, {"pocketed": {}, "foul": "improper_stroke"}, {"pocketed": {"own": 1, "queen": True}},
         {"pocketed": {"own": 1}}, {"pocketed": {"own": 7}}]


def test_the_pairings_mark_a_sheet_that_disagrees_with_the_typed_result(gui_env, qtbot, tmp_path):
    from referee_app.core.play.store import MatchStore
    from referee_app.core.tournament.store import TournamentStore
    from referee_app.core.tournament.table_matches import open_match
    from referee_app.ui.tournament.area import TournamentArea

    url = str(tmp_path / "records.sqlite3")
    store = TournamentStore(installed(), url)
    matches = MatchStore(installed(), store.database)
    tid = store.create("Open de Cannes", ["Anne", "Bruno", "Chloé", "David", "Emma", "Fanny"], "icf")
    store.pair(tid, seed=1)
    for table in (1, 2):
        match_id = open_match(store, matches, tid, 1, table)
        for stroke in BOARD:
            matches.add_stroke(match_id, stroke)
    store.result(tid, 1, 1, [25, 0])          # typed at the desk over a sheet reading 0-11
    store.result(tid, 1, 3, [25, 9])          # kept on paper: no sheet

    area = TournamentArea(installed(), store=store, matches=matches)
    qtbot.addWidget(area)
    area.show()
    area.rounds.refresh()
    table = area.rounds.table
    status = table.columnCount() - 1
    assert table.horizontalHeaderItem(status).text() == "Status"
    assert [table.item(i, status).text() for i in range(3)] == ["⚠ Disagrees with the sheet", "Playing", "Finished"]
    assert table.item(0, status).toolTip() == ("The score sheet reads 0–11; the result entered is 25–0. "
                                               "Correct the result, or the sheet.")
    assert table.item(1, status).toolTip() == "The score sheet reads 0–11 so far."

    i18n.set_language("fr")
    assert table.horizontalHeaderItem(status).text() == "État"
    assert [table.item(i, status).text() for i in range(3)] == ["⚠ Ne concorde pas avec la feuille", "En cours",
                                                                 "Terminée"]
    assert "25–0" in table.item(0, status).toolTip() and "0–11" in table.item(0, status).toolTip()


def test_the_desk_sees_a_table_start_playing_without_a_refresh(gui_env, qtbot, tmp_path):
    from referee_app.core.play.store import MatchStore
    from referee_app.core.tournament.store import TournamentStore
    from referee_app.core.tournament.table_matches import open_match
    from referee_app.ui.tournament.area import TournamentArea

    url = str(tmp_path / "records.sqlite3")
    store = TournamentStore(installed(), url)
    tid = store.create("Open de Cannes", ["Anne", "Bruno", "Chloé", "David"], "icf")
    store.pair(tid, seed=1)
    table = TournamentStore(installed(), url)          # another machine of the hall, on the same records
    sheets = MatchStore(installed(), table.database)
    match_id = open_match(table, sheets, tid, 1, 1)
    area = TournamentArea(installed(), store=store)
    qtbot.addWidget(area)
    area.show()
    area.poller.timer.setInterval(100)
    area.tournament_combo.setCurrentIndex(area.tournament_combo.findData(tid))
    area.refresh()
    status = area.rounds.table.columnCount() - 1
    assert area.rounds.table.item(0, status).text() == ""      # a sheet opened, nothing played yet
    sheets.add_stroke(match_id, BOARD[0])
    qtbot.waitUntil(lambda: area.rounds.table.item(0, status).text() == "Playing", timeout=3000)
    sheets.undo(match_id)
    qtbot.waitUntil(lambda: area.rounds.table.item(0, status).text() == "", timeout=3000)
