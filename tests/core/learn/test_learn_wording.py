"""What a learner reads of a stroke (core/learn/wording.py describe_situation): one sentence for
each thing the situation says, in order, and nothing for what it leaves at its default."""
from __future__ import annotations

import pytest

from referee_app.core.learn.wording import Words, describe_situation
from support.kbcopy import installed


@pytest.fixture(scope="module")
def fouls():
    """How the quiz names a foul: the knowledge root's one way (Knowledge.foul_name)."""
    return lambda foul, lang: installed().foul_name("icf", foul, lang)


def test_everything_a_stroke_can_say_in_order(fouls):
    doc = {"before": {"break": True, "break_attempt": 2, "own_on_board": 1, "opponent_on_board": 0, "dues": 1,
                      "opponent_dues": 2, "score": {"striker": 3}},
           "stroke": {"pocketed": {"own": 2, "queen": True}, "touched_coin": False,
                      "off_board": {"opponent": 1, "striker": True}, "foul": "improper_stroke"}}
    foul = installed().compiled("icf").fouls["improper_stroke"]["name"]["en"]
    assert describe_situation(Words("en"), doc, fouls) == [
        "The opening break, attempt 2.",
        "On the board before the stroke: 1 coin of the striking side and no coin of the opponent.",
        "The queen is on the board.",
        "The striking side owes 1 penalty coin.",
        "The opponent owes 2 penalty coins.",
        "Game score so far: the striking side 3, the opponent 0.",
        "The striker touches no coin.",
        "The stroke pockets 2 coins of the striking side and the queen.",
        "Off the board: 1 coin of the opponent and the striker.",
        f"The referee calls a foul: {foul}."]


def test_a_plain_stroke_says_the_board_the_queen_and_what_fell(fouls):
    assert describe_situation(Words("en"), {"stroke": {"pocketed": {"opponent": 1}}}, fouls) == [
        "On the board before the stroke: 9 coins of the striking side and 9 coins of the opponent.",
        "The queen is on the board.",
        "The stroke pockets 1 coin of the opponent."]


@pytest.mark.parametrize("before,said", [
    ({"break": True}, "The opening break."),
    ({"own_pocketed_earlier": True}, "The striking side has pocketed a coin before, since put back as a penalty."),
    ({"own_pocketed_earlier": False, "own_on_board": 5},
     "None of the striking side's own strokes has pocketed one of its coins yet."),
    ({"queen": "awaiting_cover"}, "The queen is pocketed and must be covered with the next stroke."),
    ({"score": {"opponent": 4}}, "Game score so far: the striking side 0, the opponent 4."),
    ({"own_on_board": 0}, "On the board before the stroke: no coin of the striking side and 9 coins of the opponent."),
])
def test_each_fact_of_the_board_has_its_sentence(fouls, before, said):
    assert said in describe_situation(Words("en"), {"before": before, "stroke": {}}, fouls)


@pytest.mark.parametrize("before,same_as", [
    ({"own_pocketed_earlier": True, "own_on_board": 5}, {"own_on_board": 5}), ({"own_pocketed_earlier": False}, {}),
    ({"score": {"striker": 0}}, {}), ({"dues": 0}, {}), ({"break": False}, {})])
def test_what_says_nothing_new_is_not_said(fouls, before, same_as):
    plain = describe_situation(Words("en"), {"before": same_as, "stroke": {}}, fouls)
    assert describe_situation(Words("en"), {"before": before, "stroke": {}}, fouls) == plain


@pytest.mark.parametrize("foul,said", [("none", None), ("made_up", "The referee calls a foul: made up.")])
def test_a_foul_is_named_by_the_ruleset_or_by_its_id_in_words(fouls, foul, said):
    sentences = describe_situation(Words("en"), {"stroke": {"foul": foul}}, fouls)
    assert sentences[-1] == (said or "The stroke pockets nothing.")


def test_the_sentences_are_in_the_language_asked(fouls):
    said = describe_situation(Words("fr"), {"before": {"break": True}, "stroke": {"foul": "improper_stroke"}}, fouls)
    assert said[:4] == ["Le break.", "Sur le plateau avant le tir : 9 jetons du camp qui joue et 9 jetons de l'adversaire.",
                        "La reine est sur le plateau.", "Le tir ne loge rien."]
    assert said[4] == f"L'arbitre signale une faute : {installed().compiled('icf').fouls['improper_stroke']['name']['fr']}."
