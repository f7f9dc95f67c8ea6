"""The Tournament area, driven as the desk would: players entered and checked in, a round paired
with a ghost, the pairings and the score sheets printed, the round played through the score
sheets at the tables, closed, and the standings updated, large on a second screen too."""
from __future__ import annotations

import shutil
import subprocess
import unicodedata

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from referee_app import i18n
from referee_app.core.tournament.standings import current
from referee_app.ui.main_window import RULINGS, TOURNAMENT
from support.gui import key, make_window, type_text

CLEARING_BOARD = [{"touched_coin": True, "pocketed": {"own": 2}}, {"pocketed": {"queen": True}},
                  {"pocketed": {"own": 7}}]


def pdf_text(path) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed")
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(unicodedata.normalize("NFKC", text).split())   # the font's ﬀ ligature as two letters


@pytest.fixture
def desk(qtbot, gui_env, tmp_path, monkeypatch):
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.sqlite3"))
    window = make_window(qtbot)
    key(window, "Ctrl+5")
    assert window.stack.currentIndex() == TOURNAMENT and window.windowTitle().startswith("Tournament")
    yield window.tournament.area
    # Every window of the test really gone before the settings are reset around the others
    # (theme.apply_type_size walks every widget still alive).
    window.close()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()


def test_a_round_paired_printed_played_at_the_tables_and_closed(desk, qtbot, tmp_path, monkeypatch):
    type_text(desk.new_name, "Open de Cannes")
    qtbot.mouseClick(desk.create_button, Qt.MouseButton.LeftButton)
    assert desk.tournament_combo.currentText() == "Open de Cannes"

    entries = desk.entries
    for name in ("Anne", "Bruno", "Chloé", "David", "Emma"):
        type_text(entries.name_edit, name)
        qtbot.mouseClick(entries.enter_button, Qt.MouseButton.LeftButton)
    assert entries.table.rowCount() == 5
    for i in range(4):   # four players have arrived; Emma not yet
        entries.table.item(i, 1).setCheckState(Qt.CheckState.Checked)
    assert desk.store.load(desk.tid).players == ["Anne", "Bruno", "Chloé", "David"]
    entries.table.item(4, 1).setCheckState(Qt.CheckState.Checked)
    entries.table.item(4, 1).setCheckState(Qt.CheckState.Unchecked)  # a wrong tick, taken back
    assert desk.store.load(desk.tid).players == ["Anne", "Bruno", "Chloé", "David"]
    type_text(entries.name_edit, "Anne")
    qtbot.mouseClick(entries.enter_button, Qt.MouseButton.LeftButton)
    assert desk.message.isVisible() and "already entered" in desk.message.text()
    entries.name_edit.clear()
    # Three players and the ghost would pair too; four players are checked in, the fifth arrives:
    entries.table.item(4, 1).setCheckState(Qt.CheckState.Checked)

    rounds = desk.rounds
    qtbot.mouseClick(rounds.pair_button, Qt.MouseButton.LeftButton)
    assert desk.tabs.currentWidget() is rounds and rounds.round_combo.currentText() == "Round 1"
    assert rounds.table.rowCount() == 3
    ghost_row = [rounds.table.item(2, j).text() for j in range(5)]
    assert ghost_row[0] == "3" and ghost_row[2] == "(ghost)" and ghost_row[3:] == ["25", "0"]
    qtbot.mouseClick(rounds.pair_button, Qt.MouseButton.LeftButton)     # results are missing
    assert desk.message.isVisible() and "missing" in desk.message.text()

    # The pairings and one score sheet per played table, pre-filled.
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "pairings.pdf"), "PDF"))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path / "sheets"))
    qtbot.mouseClick(rounds.print_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(rounds.sheets_button, Qt.MouseButton.LeftButton)
    games = desk.store.round_games(desk.tid, 1)
    text = pdf_text(tmp_path / "pairings.pdf")
    assert "Open de Cannes" in text and "Round 1" in text and "(ghost)" in text
    assert all(g["first"] in text for g in games)
    sheets = sorted((tmp_path / "sheets").glob("*.pdf"))
    assert [p.name for p in sheets] == ["round-1-table-1.pdf", "round-1-table-2.pdf"]
    sheet = pdf_text(sheets[0])
    for expected in (games[0]["first"], games[0]["second"], "Round: 1", "Table: 1",
                     "Ruleset: International rules (ICF)", "FFC tournament 1.8"):   # names, not ids
        assert expected in sheet

    # Both tables keep their score sheet on screen; table 1 reaches 25 points, table 2 runs out of time.
    opened = []
    rounds.match_opened.connect(opened.append)
    for table in (1, 2):
        key(desk.window(), "Ctrl+5")        # each opened sheet comes up in the Rulings area
        rounds.select_table(table)
        qtbot.mouseClick(rounds.open_button, Qt.MouseButton.LeftButton)
    assert len(opened) == 2 and rounds.table.item(0, 5).text().startswith("Score sheet")
    window = desk.window()
    assert window.stack.currentIndex() == RULINGS and window.rulings_area.match_id == opened[1]
    key(window, "Ctrl+5")
    assert window.stack.currentIndex() == TOURNAMENT
    meta = desk.matches.meta(opened[0])
    assert (meta["tournament"], meta["round"], meta["table_no"]) == ("Open de Cannes", "1", "1")
    for _board in range(5):
        for stroke in CLEARING_BOARD:
            desk.matches.add_stroke(opened[0], stroke)
    for stroke in CLEARING_BOARD + CLEARING_BOARD[:1]:                    # 12-0 and a board under way
        desk.matches.add_stroke(opened[1], stroke)
    qtbot.mouseClick(rounds.collect_button, Qt.MouseButton.LeftButton)
    assert [rounds.table.item(i, 3).text() for i in range(3)] == ["33", "", "25"]
    qtbot.mouseClick(rounds.close_button, Qt.MouseButton.LeftButton)     # table 2 is still playing
    assert "table 2" in desk.message.text()
    rounds.time_called.setChecked(True)
    qtbot.mouseClick(rounds.collect_button, Qt.MouseButton.LeftButton)
    assert [rounds.table.item(1, j).text() for j in (3, 4)] == ["12", "0"]   # the unfinished board not counted
    qtbot.mouseClick(rounds.close_button, Qt.MouseButton.LeftButton)
    assert not desk.message.isVisible() and desk.tabs.currentWidget() is desk.standings

    # The standings update, every criterion shown, as the core computes them.
    expected = [r.to_doc() for r in current(desk.store.load(desk.tid))]
    table = desk.standings.table
    shown = [[table.item(i, j).text() for j in range(6)] for i in range(table.rowCount())]
    assert shown == [[str(r[k]) for k in ("rank", "player", "victories", "bucholz", "difference", "played")]
                     for r in expected]
    assert len(shown) == 5 and desk.standings.title.text() == "Standings after round 1"
    assert "FFC tournament 1.15" in desk.standings.choices.text()   # cited as people do
    qtbot.mouseClick(desk.standings.fullscreen_button, Qt.MouseButton.LeftButton)
    screen = desk.standings.screen_view
    qtbot.waitExposed(screen)
    assert screen.isFullScreen() and screen.table.rowCount() == 5
    assert screen.table.item(0, 1).text() == expected[0]["player"]
    assert screen.table.font().pointSizeF() > table.font().pointSizeF() * 2

    # Round 2 is paired: a round 1 result now needs a correction with its reason.
    qtbot.mouseClick(rounds.pair_button, Qt.MouseButton.LeftButton)
    assert rounds.round_combo.currentText() == "Round 2"
    rounds.round_combo.setCurrentIndex(0)
    rounds.round_combo.activated.emit(0)
    rounds.select_table(2)
    rounds.first_points.setValue(13)
    qtbot.mouseClick(rounds.record_button, Qt.MouseButton.LeftButton)
    assert "correction" in desk.message.text() and rounds.table.item(1, 3).text() == "12"
    type_text(rounds.reason_edit, "board 2 was finished")
    qtbot.mouseClick(rounds.record_button, Qt.MouseButton.LeftButton)
    assert rounds.table.item(1, 3).text() == "13"
    assert desk.store.corrections(desk.tid)[0]["reason"] == "board 2 was finished"
    screen.close()


def test_the_area_speaks_french(desk, qtbot):
    i18n.set_language("fr")
    assert desk.create_button.text() == "Créer"
    assert desk.tabs.tabText(0) == "Inscriptions"
    assert desk.rounds.pair_button.text() == "Apparier le tour suivant"
    assert "Le fantôme" in desk.standings.choices.text()
    type_text(desk.new_name, "Open")
    qtbot.mouseClick(desk.create_button, Qt.MouseButton.LeftButton)
    for _twice in range(2):
        type_text(desk.entries.name_edit, "Anne")
        qtbot.mouseClick(desk.entries.enter_button, Qt.MouseButton.LeftButton)
    assert desk.message.text() == "Anne est déjà inscrit."
    qtbot.mouseClick(desk.rounds.pair_button, Qt.MouseButton.LeftButton)
    assert desk.message.text() == "Il faut au moins deux joueurs présents pour apparier un tour."
    i18n.set_language("it")
    assert desk.tabs.tabText(2) == "Classifica"


def test_the_organisers_choices_are_set_shown_as_departures_and_the_opponents_beside_the_standings(desk, qtbot):
    type_text(desk.new_name, "Open de Nice")
    qtbot.mouseClick(desk.create_button, Qt.MouseButton.LeftButton)
    for name in ("Anne", "Bruno", "Chloé"):
        desk.store.add_player(desk.tid, name, checked_in=True)
    desk.refresh()
    choices = desk.choices
    assert "the FFC text as it stands" in choices.departures.text()
    choices.ghost_points.setValue(15)
    choices.avoid.setChecked(True)
    qtbot.mouseClick(choices.apply_button, Qt.MouseButton.LeftButton)   # before round 1: no reason asked
    t = desk.store.load(desk.tid)
    assert (t.ghost_points, t.avoid_rematches) == (15, True)
    assert "FFC tournament 1.15" in choices.departures.text() and "FFC tournament 1.14" in choices.departures.text()
    desk.store.pair(desk.tid, seed=2)
    desk.refresh()
    table = desk.standings.table
    assert table.horizontalHeaderItem(table.columnCount() - 1).text() == "Playing now"
    playing = {table.item(i, 1).text(): table.item(i, table.columnCount() - 1).text() for i in range(table.rowCount())}
    assert sum("the ghost" in v for v in playing.values()) == 1 and all("(table " in v for v in playing.values())
    choices.ghost_points.setValue(20)                                     # round 1 paired: refused, said
    type_text(choices.reason, "club rule")
    qtbot.mouseClick(choices.apply_button, Qt.MouseButton.LeftButton)
    assert desk.message.isVisible() and "already paired" in desk.message.text()
    assert desk.store.load(desk.tid).ghost_points == 15
