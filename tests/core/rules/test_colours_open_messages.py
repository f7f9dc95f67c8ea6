"""What a stroke with the colours open is refused for, field and message word for word (the
command line prints them), and the one refusal no ruleset's texts reach today."""
from __future__ import annotations

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.rules import colours
from referee_app.core.rules.ruling import rule
from support.kbcopy import installed

OPEN = {"colours": "open"}


@pytest.mark.parametrize("doc,ruleset,field,problem", [
    ({"before": OPEN, "stroke": {"pocketed": {"light": 1}}}, "icf", "before.colours",
     "open, but under icf the colours are not set by the first coin pocketed"),
    ({"before": {**OPEN, "own_on_board": 8}, "stroke": {"pocketed": {}}}, "fr-house", "before.own_on_board",
     "8, but while the colours are open no coin has been pocketed: both sides have 9"),
    ({"before": {**OPEN, "opponent_on_board": 7}, "stroke": {"pocketed": {}}}, "fr-house", "before.opponent_on_board",
     "7, but while the colours are open no coin has been pocketed: both sides have 9"),
    ({"before": {**OPEN, "queen": "covered_by_striker"}, "stroke": {"pocketed": {}}}, "fr-house", "before.queen",
     "covered_by_striker, but while the colours are open no coin has been pocketed, so no queen can be covered"),
    ({"before": OPEN}, "fr-house", "stroke", "missing"),
    ({"before": OPEN, "stroke": "x"}, "fr-house", "stroke", "missing"),
    ({"before": OPEN, "stroke": {}}, "fr-house", "stroke.pocketed", "missing (write {} when nothing was pocketed)"),
    ({"before": OPEN, "stroke": {"pocketed": [1]}}, "fr-house", "stroke.pocketed", "expected a mapping, got [1]"),
    ({"before": OPEN, "stroke": {"pocketed": {"opponent": 1}}}, "fr-house", "stroke.pocketed.opponent",
     "the colours are still open: name the coins light or dark"),
    ({"before": OPEN, "stroke": {"pocketed": {"blue": 1}}}, "carom-bi", "stroke.pocketed.blue",
     "unknown field (known: dark, light, queen, striker)"),
    ({"before": OPEN, "stroke": {"pocketed": {}, "off_board": {"own": 1}}}, "fr-house", "stroke.off_board.own",
     "the colours are still open: name the coins light or dark"),
    ({"before": OPEN, "stroke": {"pocketed": {"light": -1}}}, "fr-house", "stroke.pocketed.light",
     "expected a whole number, got -1"),
    ({"before": OPEN, "stroke": {"pocketed": {"dark": True}}}, "fr-simplified", "stroke.pocketed.dark",
     "expected a whole number, got True"),
    ({"before": OPEN, "stroke": {"pocketed": {"light": 1, "dark": 1}, "first_colour": "red"}}, "fr-house",
     "stroke.first_colour", "unknown value 'red' (known: light, dark)"),
    ({"before": OPEN, "stroke": {"pocketed": {"light": 1}, "first_colour": "dark"}}, "fr-house",
     "stroke.first_colour", "only needed when coins of both colours fell in this stroke"),
])
def test_what_cannot_be_while_the_colours_are_open(doc, ruleset, field, problem):
    with pytest.raises(BadInput) as err:
        rule(installed(), doc, ruleset)
    assert (err.value.field, err.value.problem) == (field, problem)


def test_a_coin_off_the_board_with_no_colour_decided_is_refused_when_its_colour_would_matter():
    """No ruleset's texts rule a light and a dark coin off the board differently today; a rule
    that did would leave the referee a ruling that depends on what is not decided."""
    def by_colour(side_doc):
        off = side_doc["stroke"]["off_board"]
        return {"turn": "passes" if off.get("own") else "continues", "returned": {}, "after": {}, "board": {},
                "clauses": []}

    doc = {"before": OPEN, "stroke": {"pocketed": {}, "off_board": {"light": 1}}}
    with pytest.raises(BadInput) as err:
        colours.rule_open(doc, "fr-house", installed().colours("fr-house"), by_colour)
    assert (err.value.field, err.value.problem) == (
        "stroke.off_board", "the ruling depends on whose colour left the board, and no colour is decided yet")


@pytest.mark.parametrize("pocketed,first,chosen,why", [
    ({"light": 2, "dark": 1}, None, "light", "more"), ({"light": 1, "dark": 1}, None, "light", "tie"),
    ({"light": 1, "dark": 3}, None, "dark", "more"), ({"light": 2, "dark": 1}, "dark", "dark", "first"),
])
def test_both_colours_at_once_say_why_the_colour_was_taken(pocketed, first, chosen, why):
    stroke = {"pocketed": pocketed, **({"first_colour": first} if first else {})}
    ruling = rule(installed(), {"before": OPEN, "stroke": stroke}, "fr-house")
    assert ruling["after"]["striker_colour"] == chosen
    named = installed().colours("fr-house")
    for lang in ("en", "fr", "it"):   # each language's reason, from its catalog, in its note
        own_word = colours.colour_name(named, chosen, lang)
        reason = colours.why_taken(why, lang).format(own_word=own_word,
                                                     own_words=colours.colour_name(named, chosen, lang, True))
        assert reason in ruling["notes"][0][lang]
    assert "l'arbitre" in colours.why_taken("first", "fr") and "l'arbitro" in colours.why_taken("first", "it")
    assert ruling["alternatives"][0]["after"]["striker_colour"] == colours.other_colour(chosen)


def test_one_colour_only_gives_no_note_and_no_alternative():
    ruling = rule(installed(), {"before": OPEN, "stroke": {"pocketed": {"dark": 2}}}, "fr-house")
    assert ruling["after"]["striker_colour"] == "dark" and "alternatives" not in ruling
    assert not any(n.get("clause") == "fr-house:2.2" and "both" in n.get("en", "") for n in ruling.get("notes", []))
