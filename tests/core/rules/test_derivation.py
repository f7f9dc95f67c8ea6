"""The derivation behind a ruling (`rule --trace`) and the explanation read from it: which
paragraph decided each part, which it set aside, in the reader's language, plurals right."""
from __future__ import annotations

import json

import yaml

from support.cli import run_cli
from referee_app.core.rules.ruling import rule
from support.kbcopy import installed

QUEEN_TOO_EARLY = {"ruleset": "icf", "before": {"own_on_board": 9, "opponent_on_board": 8},
                   "stroke": {"pocketed": {"queen": True}}}


def test_trace_names_the_deciding_paragraph_and_the_one_it_overrides():
    done = run_cli("rule", "--trace", "--json", "-", input=yaml.safe_dump(QUEEN_TOO_EARLY))
    assert done.returncode == 0, done.stderr
    trace = json.loads(done.stdout)["trace"]
    turn = trace["turn"][0]
    assert turn["rule"] == "icf-fr:3.12.c/queen-too-early" and turn["clause"] == "icf-fr:3.12.c"
    assert turn["tested"] == {"queen_pocketed": True, "own_pocketed": 0, "own_pocketed_earlier": False}
    overridden = {o["rule"]: o for o in turn["overridden"]}
    assert overridden["icf-fr:3.6.a/queen-continues"]["how"] == "exception"
    assert overridden["icf-fr:3.6.a/queen-continues"]["by"] == ["icf-fr:3.12.c/queen-too-early"]
    assert trace["after.queen"][0]["clause"] == "icf-fr:3.12.c"


def test_without_trace_the_ruling_has_no_trace():
    assert "trace" not in rule(installed(), QUEEN_TOO_EARLY)


def test_the_explanation_says_which_paragraph_applies_and_which_it_overrides():
    text = rule(installed(), QUEEN_TOO_EARLY)["explanation"]
    assert text["en"].startswith("ICF 3.12 c applies, not ICF 3.6 a: the queen was pocketed")
    assert text["fr"].startswith("ICF 3.12 c s'applique, et non ICF 3.6 a : la reine a été logée")
    assert text["it"].startswith("Si applica ICF 3.12 c, non ICF 3.6 a: la Regina è stata imbucata")


def test_points_read_in_the_singular_and_the_plural():
    # the queen and the opponent's last coin with no own coin left (aicf-2009 13): 2 points;
    # the last coin with a single opponent coin left (icf, no queen points past the cut-off): 1 point
    one = rule(installed(), {"ruleset": "icf", "before": {"own_on_board": 1, "opponent_on_board": 1,
                                              "queen": "covered_by_striker", "score": {"striker": 23}},
                "stroke": {"pocketed": {"own": 1}}})
    assert one["board"]["points"]["striker"] == 1
    assert "wins the board: 1 point to 0." in one["explanation"]["en"]
    assert "1 point à 0." in one["explanation"]["fr"] and "1 punto a 0." in one["explanation"]["it"]
    many = rule(installed(), {"ruleset": "icf", "before": {"own_on_board": 1, "opponent_on_board": 3,
                                               "queen": "covered_by_striker"}, "stroke": {"pocketed": {"own": 1}}})
    assert "wins the board: 6 points to 0." in many["explanation"]["en"]
    assert "6 points à 0." in many["explanation"]["fr"] and "6 punti a 0." in many["explanation"]["it"]


def test_coins_put_back_read_in_the_singular_and_the_plural():
    foul = rule(installed(), {"ruleset": "icf", "before": {"own_on_board": 5, "opponent_on_board": 5},
                 "stroke": {"pocketed": {"own": 1, "opponent": 1}, "foul": "improper_stroke"}})
    assert "2 coins of the striking side" in foul["explanation"]["en"]
    assert "1 coin of the opponent" in foul["explanation"]["en"]
    assert "2 jetons du camp qui joue" in foul["explanation"]["fr"]
    assert "1 pedina dell'avversario" in foul["explanation"]["it"]


def test_an_italian_rule_is_cited_as_an_italian_reader_writes_it():
    r = rule(installed(), {"ruleset": "it", "before": {"own_on_board": 5, "opponent_on_board": 6},
              "stroke": {"pocketed": {"own": 1, "striker": True}}})
    assert "regola 53" in r["explanation"]["it"]


def test_no_definition_is_ever_cited():
    from support.kbcopy import installed

    kb = installed().kb
    r = rule(installed(), {"ruleset": "it", "before": {"own_on_board": 6, "opponent_on_board": 6, "queen": "awaiting_cover"},
              "stroke": {"pocketed": {"own": 1}}})
    assert r["clauses"] and all(kb.clauses[c].kind != "definition" for c in r["clauses"])
