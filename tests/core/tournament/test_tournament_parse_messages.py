"""What a tournament file is refused for: the field named and the message word for word (the
command line prints both), and what a good file reads as."""
from __future__ import annotations

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.tournament.model import parse
from support.kbcopy import installed


def G(first, second, score=None, **more):
    return {"first": first, "second": second, **({"score": score} if score else {}), **more}


P4 = ["A", "B", "C", "D"]
R1 = [G("A", "B", [25, 1]), G("C", "D", [25, 2])]
ROUNDS = installed().ffc.rounds_for(4)
GHOST = f"the ghost always loses {installed().ffc.ghost_score[1]}-{installed().ffc.ghost_score[0]} ({installed().ffc.clauses['ghost']})"
SCORE = "expected the two players' points, like [25, 15]"
NOT_HERE = "is not a player of this round"


@pytest.mark.parametrize("doc,field,problem", [
    ({"players": P4, "colour": 1}, "colour", "unknown field (known: absent, avoid_rematches, final, ghost_points, late, "
                                             "name, players, rounds, rounds_total, seed, withdrawn)"),
    ({"name": 3, "players": P4}, "name", "expected text"),
    ({"players": ["A", " "]}, "players.2", "expected a name"),
    ({"players": ["A", "B\tC"]}, "players.2", "a name cannot hold a tab or a line break"),
    ({"players": P4, "late": [1]}, "late", "expected a mapping of player to round number"),
    ({"players": P4, "late": {"E": 2}}, "late.E", "not a player of the tournament"),
    ({"players": P4, "late": {"D": 0}}, "late.D", "expected a round number"),
    ({"players": P4, "withdrawn": {"D": -1}}, "withdrawn.D", "expected a round number"),
    ({"players": P4, "withdrawn": {"D": True}}, "withdrawn.D", "expected a round number"),
    ({"players": P4 + ["E"], "late": {"E": 3}, "withdrawn": {"E": 1}}, "withdrawn.E",
     "withdrew after round 1, before entering in round 3"),
    ({"players": P4, "seed": "7"}, "seed", "expected a whole number"),
    ({"players": P4, "seed": True}, "seed", "expected a whole number"),
    ({"players": P4, "rounds": "x"}, "rounds", "expected a list of rounds, each a list of games"),
    ({"players": P4, "rounds": [R1] * (ROUNDS + 2)}, "rounds",
     f"{ROUNDS + 2} rounds, but 4 entries play {ROUNDS} ({installed().ffc.clauses['rounds']}; the organiser may choose rounds_total)"),
    ({"players": P4, "rounds": ["x"]}, "round 1", "expected a list of games"),
    ({"players": ["A", "B", "C"], "rounds": [[G("A", "B", [25, 0])]], "late": {"C": 2}, "withdrawn": {"B": 0}},
     "round 1", "fewer than two players to pair"),
    ({"players": P4, "rounds": [R1, [G("A", "C", [25, 1])]]}, "round 2", "B does not play (nor 1 more)"),
    ({"players": P4, "rounds": [R1, [G("A", "C", [25, 1]), G("B", None)]]}, "round 2", "D does not play"),
    ({"players": P4 + ["E"], "rounds": [R1]}, "round 1", "E does not play"),
    ({"players": P4 + ["E"], "rounds": [R1 + [G("E", "A")]]}, "round 1, game 3", "A already plays in game 1"),
    ({"players": P4, "rounds": [R1 + [G(None, None)]]}, "round 1, game 3", "a player cannot meet the ghost twice"),
    ({"players": P4, "rounds": [[G("A", "B"), G("C", "D")], R1]}, "round 1, game 1.score",
     "missing, but a later round was paired: only the last round may wait for results"),
    ({"players": P4, "rounds": [R1], "final": G("A", "C", [25, 1])}, "final",
     f"the final comes after the {ROUNDS} rounds are played"),
    ({"players": P4, "rounds": [R1] * ROUNDS, "final": G("A", "C", [25, 25])}, "final.score",
     f"the final is played to {installed().ffc.final_points} points, it cannot end level ({installed().ffc.clauses['final']})"),
    ({"players": P4, "rounds": [R1] * ROUNDS, "final": G(None, "C", [25, 1])}, "final.first", "the ghost plays no final"),
    ({"players": P4, "rounds": [R1] * ROUNDS, "final": G("A", "D", [25, 1]), "withdrawn": {"D": ROUNDS}},
     "final.second", f"'D' {NOT_HERE}"),
    ({"players": P4, "rounds": [[G("A", "B", [25, 1]), "x"]]}, "round 1, game 2",
     "expected {first: NAME, second: NAME, score: [P, P]}"),
    ({"players": P4, "rounds": [[G("A", "B", [25, 1], colour=2)]]}, "round 1, game 1.colour",
     "unknown field (known: first, second, score, table)"),
    ({"players": P4, "rounds": [[{"second": "A"}]]}, "round 1, game 1.first", "missing (write null for the ghost)"),
    ({"players": P4, "rounds": [[{"first": "A"}]]}, "round 1, game 1.second", "missing (write null for the ghost)"),
    ({"players": P4, "rounds": [[G("A", 3)]]}, "round 1, game 1.second", f"'3' {NOT_HERE}"),
    ({"players": P4, "rounds": [[G("Z", "A")]]}, "round 1, game 1.first", f"'Z' {NOT_HERE}"),
    ({"players": P4, "rounds": [[G("A", "A")]]}, "round 1, game 1", "a player cannot meet himself"),
    ({"players": P4, "rounds": [[G("A", "B", table=0)]]}, "round 1, game 1.table", "expected a table number from 1"),
    ({"players": P4, "rounds": [[G("A", "B", table=True)]]}, "round 1, game 1.table", "expected a table number from 1"),
    ({"players": P4, "rounds": [[G("A", "B", table="1")]]}, "round 1, game 1.table", "expected a table number from 1"),
    ({"players": ["A", "B", "C"], "rounds": [[G("A", None, [25, 1])]]}, "round 1, game 1.score", GHOST),
    ({"players": ["A", "B", "C"], "rounds": [[G(None, "A", [25, 0])]]}, "round 1, game 1.score", GHOST),
    ({"players": ["A", "B", "C"], "rounds": [[G("A", None, "25-0")]]}, "round 1, game 1.score", SCORE),
    ({"players": P4, "rounds": [[G("A", "B", [25])]]}, "round 1, game 1.score", SCORE),
    ({"players": P4, "rounds": [[G("A", "B", [25, True])]]}, "round 1, game 1.score", SCORE),
    ({"players": P4, "rounds": [[G("A", "B", [25, -1])]]}, "round 1, game 1.score", SCORE),
])
def test_each_refusal_names_its_field(doc, field, problem):
    with pytest.raises(BadInput) as err:
        parse(installed().ffc, {"name": "x", **doc})
    assert (err.value.field, err.value.problem) == (field, problem)


def test_a_file_that_is_no_mapping():
    with pytest.raises(BadInput) as err:
        parse(installed().ffc, ["x"])
    assert (err.value.field, err.value.problem) == ("tournament", "expected a mapping with name, players and rounds")


def test_a_good_file_reads_as_written():
    ghost = list(installed().ffc.ghost_score)
    doc = {"name": "Open", "players": ["A", "B", "C"], "seed": 7, "late": {"C": 1}, "withdrawn": {"B": ROUNDS},
           "rounds": [[G("A", "B", [25, 1], table=2), G("C", None, table=1)]]
           + [[G("A", "B", [25, 1]), G(None, "C", list(reversed(ghost)))]] * (ROUNDS - 1)}
    t = parse(installed().ffc, doc)
    assert t.rounds[0][1].score == tuple(ghost) and t.rounds[0][1].table == 1
    assert t.to_doc() == {**doc, "rounds": [[G("A", "B", [25, 1], table=2), G("C", None, ghost, table=1)]]
                          + doc["rounds"][1:]}
    assert parse(installed().ffc, {"name": "x", "players": P4, "rounds": None}).rounds == []
    assert parse(installed().ffc, {"name": "x", "players": P4, "rounds": [[G("A", "B", [25, 1]), G("C", "D")]]}).rounds[0][1].score is None


def test_a_final_written_as_one_more_round_is_the_final():
    final = G("A", "C", [25, 20])
    as_round = parse(installed().ffc, {"name": "x", "players": P4, "rounds": [R1] * ROUNDS + [[final]]})
    as_final = parse(installed().ffc, {"name": "x", "players": P4, "rounds": [R1] * ROUNDS, "final": final})
    assert as_round.to_doc() == as_final.to_doc() and as_round.final.score == (25, 20)
    assert len(as_round.rounds) == ROUNDS
