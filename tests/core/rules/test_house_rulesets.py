"""fr-house and carom-bi: their parameters, the colours set by the first coin pocketed, whole games
on the score sheet, shared rules cited as the house text, and every special case decided."""
from __future__ import annotations

import json
import subprocess

import pytest

from support.cli import cli_command
from referee_app.core.errors import BadInput
from support.kbcopy import installed
from referee_app.core.play.game import replay
from referee_app.core.rules.encoding import encoding
from referee_app.core.rules.ruling import rule


def _cli(*args, stdin=None):
    return subprocess.run(cli_command() + list(args), input=stdin, capture_output=True, text=True, timeout=120)


def test_rulesets_lists_both_with_their_parameters_and_clauses():
    done = _cli("rulesets", "--json")
    assert done.returncode == 0, done.stderr
    by_id = {r["id"]: r for r in json.loads(done.stdout)}
    house, leaflet = by_id["fr-house"], by_id["carom-bi"]
    assert house["extends"] == leaflet["extends"] == "fr-simplified"
    assert house["parameters"]["game_points"] == {"value": 29, "clause": "fr-house:3.2"}
    assert house["parameters"]["queen_cutoff"] == {"value": 24, "clause": "fr-house:3.2"}
    assert house["parameters"]["queen_value_past_cutoff"]["value"] == 0
    assert house["parameters"]["penalty_coin_place"] == {"value": "centre", "clause": "fr-house:8.1"}
    assert leaflet["parameters"]["penalty_coin_place"] == {"value": "between_centre_circles", "clause": "carom-bi:7.1"}
    assert leaflet["parameters"]["game_boards"] == {"value": 1, "clause": "carom-bi:1.1"}
    assert leaflet["parameters"]["queen_cutoff"]["value"] is None
    assert house["colours"]["clause"] == "fr-house:2.2" and leaflet["colours"]["light"]["fr"] == "marron"


def test_a_shared_rule_is_cited_as_the_house_text_and_keeps_its_id():
    ruling = rule(installed(), {"before": {"own_on_board": 7, "opponent_on_board": 4}, "stroke": {"pocketed": {}}}, "fr-house")
    assert "fr-house:4.1" in ruling["clauses"] and "fr-simplified:3.2" not in ruling["clauses"]
    assert "fr-simplified:3.2/missed-passes" in ruling["rules"]


def test_where_the_house_text_is_silent_the_simplified_rule_decides_and_says_so():
    ruling = rule(installed(), {"before": {"own_on_board": 6, "opponent_on_board": 7}, "stroke": {"pocketed": {"opponent": 1}}},
                  "fr-house")
    assert ruling["turn"] == "continues" and "fr-simplified:9.1" in ruling["clauses"]
    assert any(n["clause"] == "fr-simplified:9.1" and "the simplified rules printed on the same page" in n["en"] for n in ruling["notes"])


def test_the_house_rules_add_a_penalty_coin_to_the_striker_queen_and_coin():
    stroke = {"before": {"own_on_board": 6, "opponent_on_board": 7},
              "stroke": {"pocketed": {"own": 1, "queen": True, "striker": True}}}
    house, simplified = rule(installed(), stroke, "fr-house"), rule(installed(), stroke, "fr-simplified")
    assert house["returned"] == {"own": 2, "opponent": 0, "queen": True} and house["clauses"][0] == "fr-house:9.2"
    assert simplified["returned"] == {"own": 1, "opponent": 0, "queen": True}


def test_the_leaflet_gives_no_extra_points_and_no_queen_cut_off():
    last = {"before": {"own_on_board": 1, "opponent_on_board": 4}, "stroke": {"pocketed": {"own": 1}}}
    assert rule(installed(), last, "carom-bi")["board"]["points"] == {"striker": 9, "opponent": 5}
    assert rule(installed(), last, "fr-house")["board"]["points"] == {"striker": 9, "opponent": 10}
    late = {"before": {"own_on_board": 1, "opponent_on_board": 3, "queen": "covered_by_striker",
                       "score": {"striker": 25, "opponent": 0}}, "stroke": {"pocketed": {"own": 1}}}
    assert rule(installed(), late, "fr-house")["board"]["points"]["striker"] == 9
    # the leaflet's game is one board (carom-bi 1.1): no score comes before it, so no cut-off can
    # lower the queen, and a board at 25 points is one no game reaches
    with pytest.raises(BadInput, match=r"before\.score\.striker.*carom-bi:1\.1"):
        rule(installed(), late, "carom-bi")
    assert rule(installed(), dict(late, before={**late["before"], "score": {}}), "carom-bi")["board"]["points"][
        "striker"] == 13


@pytest.mark.parametrize("ruleset,light,dark", [("fr-house", "blancs", "noirs"), ("carom-bi", "marron", "noirs"),
                                                ("fr-simplified", "blancs", "noirs")])
def test_the_first_coin_pocketed_sets_the_colours(ruleset, light, dark):
    ruling = rule(installed(), {"before": {"colours": "open"}, "stroke": {"pocketed": {"dark": 1}}}, ruleset)
    assert ruling["after"]["striker_colour"] == "dark" and ruling["turn"] == "continues"
    assert ruling["after"]["own_on_board"] == 8 and ruling["after"]["opponent_on_board"] == 9
    assert {"fr-house": "fr-house:2.2", "carom-bi": "carom-bi:1.1",
            "fr-simplified": "fr-simplified:1.2"}[ruleset] in ruling["clauses"]
    assert f"les {dark}" in ruling["explanation"]["fr"] and f"les {light}" in ruling["explanation"]["fr"]


def test_colours_stay_open_until_a_coin_falls():
    ruling = rule(installed(), {"before": {"colours": "open"}, "stroke": {"pocketed": {"queen": True}}}, "fr-house")
    assert ruling["after"]["colours"] == "open" and "striker_colour" not in ruling["after"]
    assert ruling["returned"]["queen"] is True and ruling["turn"] == "passes"


def test_both_colours_in_the_first_stroke_give_a_ruling_a_note_and_the_other_reading():
    doc = {"before": {"colours": "open"}, "stroke": {"pocketed": {"light": 1, "dark": 2}}}
    ruling = rule(installed(), doc, "carom-bi")
    assert ruling["after"]["striker_colour"] == "dark" and ruling["after"]["own_on_board"] == 7
    assert ruling["notes"][0]["clause"] == "carom-bi:1.1" and all(ruling["notes"][0][lang] for lang in ("fr", "it", "en"))
    other = ruling["alternatives"][0]
    assert other["after"]["striker_colour"] == "light" and other["after"]["own_on_board"] == 8
    chosen = rule(installed(), {**doc, "stroke": {**doc["stroke"], "first_colour": "light"}}, "carom-bi")
    assert chosen["after"]["striker_colour"] == "light" and chosen["after"]["opponent_on_board"] == 7


@pytest.mark.parametrize("doc,ruleset,field", [
    ({"before": {"colours": "open"}, "stroke": {"pocketed": {"own": 1}}}, "fr-house", "stroke.pocketed.own"),
    ({"before": {"colours": "open"}, "stroke": {"pocketed": {"light": 1}}}, "icf", "before.colours"),
    ({"before": {"colours": "open", "own_on_board": 8}, "stroke": {"pocketed": {}}}, "fr-house", "before.own_on_board"),
    ({"before": {"colours": "shut"}, "stroke": {"pocketed": {}}}, "fr-house", "before.colours"),
    ({"before": {"colours": "open"}, "stroke": {"pocketed": {"light": 1}, "first_colour": "dark"}}, "fr-house",
     "stroke.first_colour"),
])
def test_colours_open_refuses_what_cannot_be(doc, ruleset, field):
    with pytest.raises(BadInput) as err:
        rule(installed(), doc, ruleset)
    assert err.value.field == field
    done = _cli("rule", "--json", "--ruleset", ruleset, "-", stdin=json.dumps(doc))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_replay_plays_a_leaflet_game_of_one_board_from_open_colours():
    # first breaks and pockets two black coins: black is first's colour; first then clears its coins
    strokes = [{"pocketed": {"dark": 2}}] + [{"pocketed": {"own": 1}}] * 6 + [{"pocketed": {"queen": True}},
                                                                            {"pocketed": {"own": 1}}]
    report = replay(installed(), {"ruleset": "carom-bi", "boards": [strokes]})
    board = report["boards"][0]
    assert board["colours"] == {"first": "dark", "second": "light"}
    assert board["winner"] == "first" and board["points"] == {"first": 13, "second": 0}
    assert report["game"] == {"over": True, "winner": "first"}


def test_replay_of_a_house_game_runs_to_29_points_over_several_boards():
    # each board: the breaker pockets all nine coins, the queen covered on the way (9 + 4 = 13)
    board = [{"pocketed": {"light": 1}}, {"pocketed": {"queen": True}}] + [{"pocketed": {"own": 1}}] * 8
    report = replay(installed(), {"ruleset": "fr-house", "boards": [board, board, board]})
    assert [b["points"] for b in report["boards"]] == [{"first": 13, "second": 0}, {"first": 0, "second": 13},
                                                     {"first": 13, "second": 0}]
    assert report["game"] == {"over": False, "winner": None} and report["next"]["colours"] == "open"
    report = replay(installed(), {"ruleset": "fr-house", "boards": [board] * 5})
    # level at 26 after four boards; then 13 + 13 + 9 for first (from 24 points the queen brings
    # nothing, 3.2: 9 coins only) = 35, past 29: the game is over
    assert report["score"] == {"first": 35, "second": 26} and report["game"]["winner"] == "first"


def test_house_rule_9_8_the_opponent_holding_the_queen_strikes_once_more():
    start = [{"pocketed": {"light": 1}}, {"pocketed": {"own": 7}}, {"pocketed": {}},   # first: 1 white left
             {"pocketed": {"own": 1}}, {"pocketed": {"queen": True}}, {"pocketed": {"own": 7}},  # second covers, 1 left
             {"pocketed": {}}]
    waiting = replay(installed(), {"ruleset": "fr-house", "boards": [start + [{"pocketed": {"own": 1}}]]})
    assert waiting["boards"][0]["winner"] is None and waiting["next"]["turn"] == "second"
    assert waiting["next"]["board_state"]["first_on_board"] == 0
    won = replay(installed(), {"ruleset": "fr-house", "boards": [start + [{"pocketed": {"own": 1}}, {"pocketed": {"own": 1}}]]})
    assert won["boards"][0]["winner"] == "second" and "fr-house:9.8" in won["boards"][0]["clauses"]
    missed = replay(installed(), {"ruleset": "fr-house", "boards": [start + [{"pocketed": {"own": 1}}, {"pocketed": {}}]]})
    assert missed["boards"][0]["winner"] == "first"
    assert missed["boards"][0]["points"] == {"first": 9, "second": 12}


def test_every_special_case_of_both_texts_is_decided_by_rules():
    kb, found = installed().kb, encoding(installed().kb, installed().rulesets)
    for source, n in (("fr-house", 8), ("carom-bi", 6)):
        special = [c.id for c in kb.by_source(source) if c.title.lower().startswith("cas particulier")]
        assert len(special) == n and set(special) <= set(found.with_rules), source
        assert not [c for c in found.neither if c.startswith(source)], source
    done = _cli("check-kb", "--json")
    by_source = json.loads(done.stdout)["encoding"]["by_source"]
    assert by_source["fr-house"]["neither"] == by_source["carom-bi"]["neither"] == 0
