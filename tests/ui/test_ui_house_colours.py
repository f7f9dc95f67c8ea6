"""The wizard under fr-house and carom-bi: colours not yet decided until the first coin falls, then
each side's colour by its name in the source; the referee chooses when both colours fell. And one
stroke compared across all six rulesets, every ruling shown, the differences marked."""
from __future__ import annotations

import pytest

from support.kbcopy import installed
from referee_app.ui.rulings.area import RulingsArea
from referee_app.ui.rulings.compare_view import CompareDialog
from support.gui import shown


@pytest.fixture
def house(qtbot, user_dirs):
    widget = shown(qtbot, RulingsArea(installed(), "fr-house"))
    widget.first_name.setText("Anna")
    widget.second_name.setText("Bruno")
    widget.refresh()
    return widget


def test_colours_are_open_until_the_first_coin_then_each_side_has_its_colour(qtbot, house):
    assert "Colours not yet decided" in house.status.text()
    assert "white" in house.form.own_label.text() and "black" in house.form.opponent_label.text()
    assert house.form.own.accessibleName() == "Coins pocketed: white"
    house.form.opponent.setValue(2)          # two black coins fall first: Anna plays black
    assert house.last_ruling["after"]["striker_colour"] == "dark"
    house.record()
    assert house.match.strokes[-1]["pocketed"]["dark"] == 2
    assert "Anna plays the black coins (7 on the board), Bruno the white coins (9)" in house.status.text()
    assert house.form.own_label.text() == "&Own coins"      # from now on: own and opponent coins
    assert "2 black" in house.sheet.strokes.item(0, 3).text()


def test_both_colours_in_the_first_stroke_the_referee_says_which_fell_first(qtbot, house):
    assert house.form.first_colour.isHidden()
    house.form.own.setValue(1)
    house.form.opponent.setValue(1)
    assert not house.form.first_colour.isHidden()
    assert house.last_ruling["after"]["striker_colour"] == "light"
    assert "first_colour" in house.ruling_view.notes.text()      # the note says the referee chooses
    house.form.first_colour.setCurrentIndex(house.form.first_colour.findData("dark"))
    assert house.last_ruling["after"]["striker_colour"] == "dark"
    house.record()
    assert house.match.game.state.colours == {"first": "dark", "second": "light"}
    assert "Anna plays the black coins" in house.status.text()


def test_the_leaflet_names_its_colours_brown_and_black(qtbot, user_dirs):
    area = RulingsArea(installed(), "carom-bi")
    qtbot.addWidget(area)
    assert "brown" in area.form.own_label.text() and "black" in area.form.opponent_label.text()


def test_a_stroke_compared_across_all_six_rulesets_marks_what_differs_from_the_one_played(qtbot, user_dirs):
    # the striker, the queen and an own coin: the house rules put back the queen, the coin and a
    # penalty coin (fr-house 9.2); the simplified rules and the leaflet the queen and the coin
    # (fr-simplified 9.8); the international texts let the player go on (icf-fr 3.12 f, it 76)
    situation = {"before": {"own_on_board": 6, "opponent_on_board": 7},
                 "stroke": {"pocketed": {"own": 1, "queen": True, "striker": True}}}
    dialog = CompareDialog(installed(), situation, reference="fr-house")
    qtbot.addWidget(dialog)
    ids = list(dialog.rulings)
    assert sorted(ids) == sorted(installed().rulesets) and len(ids) == 6
    headers = [dialog.table.horizontalHeaderItem(j).text() for j in range(dialog.table.columnCount())]
    assert "House rules ★" in headers and "Carom Indian billiards (leaflet)" in headers
    for j in range(6):       # every ruleset rules it: a turn and a board, no refusal
        assert dialog.table.item(0, j).text() in ("continues", "passes")
        assert dialog.table.item(5, j).text() == "goes on"
    marked = dialog.differing()
    col = {rid: ids.index(rid) for rid in ids}
    assert {j for i, j in marked if i == 0} == {col["icf"], col["it"], col["aicf-2009"]}
    assert {j for i, j in marked if i == 1} == {col["fr-simplified"], col["carom-bi"]}
    cell = dialog.table.item(1, col["carom-bi"])
    assert cell.font().bold() and "House rules" in cell.toolTip()
    assert not dialog.table.item(1, col["fr-house"]).font().bold()


def test_an_open_colours_stroke_is_compared_with_the_rulesets_whose_colours_are_set(qtbot, user_dirs):
    dialog = CompareDialog(installed(), {"before": {"colours": "open"}, "stroke": {"pocketed": {"dark": 1}}}, reference="icf")
    qtbot.addWidget(dialog)
    ids = list(dialog.rulings)
    assert all(isinstance(r, dict) for r in dialog.rulings.values()), dialog.rulings
    colours_row = {rid: dialog.table.item(6, j).text() for j, rid in enumerate(ids)}
    assert colours_row["fr-house"] == colours_row["carom-bi"] == "striker: black"
    assert colours_row["icf"] == ""
    assert (6, ids.index("fr-house")) in dialog.differing()
