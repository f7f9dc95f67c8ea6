"""The Rulings area opens the score sheet of a chosen pairing (issue 31, sheets tied to
pairings): the current round's games are offered with the saved matches; the sheet opened is tied
to its game, and a game with its result in is no longer offered."""
from __future__ import annotations

from PySide6.QtWidgets import QInputDialog

from support.gui import a_table_with_a_paired_tournament


def test_the_rulings_area_opens_the_sheet_of_a_chosen_pairing(gui_env, qtbot, monkeypatch):
    area, tournaments, tid = a_table_with_a_paired_tournament(qtbot)
    game = tournaments.game(tid, 1, 2)
    offered = []

    def pick(_parent, _title, _label, labels, *_rest):
        offered.extend(labels)
        chosen = next((label for label in labels if "round 1, table 2" in label), None)
        return (chosen, True) if chosen else ("", False)

    monkeypatch.setattr(QInputDialog, "getItem", pick)
    area.choose_match()
    assert f"Open de Cannes, round 1, table 2: {game['first']} – {game['second']}" in offered
    assert area.match_id is not None and area.store.pairing(area.match_id) == {"tournament": tid, "round": 1,
                                                                               "table": 2}
    assert area.names() == (game["first"], game["second"])
    first = area.match_id
    area.choose_match()                          # asked again: the same sheet
    assert area.match_id == first
    area.form.own.setValue(1)
    area.record()
    assert len(area.match.strokes) == 1
    tournaments.result(tid, 1, 2, [13, 0])       # the desk enters the result
    offered.clear()
    area.choose_match()
    assert not any("table 2" in label for label in offered), "a game with its result is not offered"
