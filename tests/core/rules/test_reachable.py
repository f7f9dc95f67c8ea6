"""Reachable boards only (issue 30, item 6): one definition, core/rules/reachable.py, of the boards
a game can reach under each ruleset, its bounds read from the knowledge base with their clauses;
`rule`, `replay`, the verifier's representatives and the quiz all keep to it."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_app.core.errors import BadInput
from referee_app.core.learn.questions import Scope, generate
from referee_app.core.play.game import Game, replay
from referee_app.core.rules import reachable
from referee_app.core.rules.ruling import rule
from referee_app.core.rules.situation import parse
from referee_app.core.rules.verify import situations
from support.cli import run_cli
from support.kbcopy import installed

STROKE = {"pocketed": {}}


def at(score: tuple[int, int], **before) -> dict:
    return {"before": {"score": {"striker": score[0], "opponent": score[1]}, **before}, "stroke": STROKE}


def refused(doc: dict, ruleset: str) -> BadInput:
    with pytest.raises(BadInput) as caught:
        rule(installed(), doc, ruleset)
    return caught.value


def test_a_score_past_the_games_end_is_refused_naming_the_field_and_the_clause():
    exc = refused(at((999, 999)), "icf")
    assert exc.field == "before.score.striker" and "icf-fr:3.7.e" in str(exc) and "25" in str(exc)
    assert isinstance(exc, reachable.UnreachableBoard) and exc.clauses == ("icf-fr:3.7.e",)


@pytest.mark.parametrize("ruleset", sorted(installed().rulesets))
def test_each_rulesets_bound_comes_from_its_own_parameters(ruleset):
    rs = installed().compiled(ruleset)
    end = reachable.game_end(rs)
    target, boards = rs.params.get("game_points"), rs.params.get("game_boards")
    # the bound is the knowledge base's: one point short of game_points, else a one-board game's 0
    assert end.most == (target - 1 if target is not None else 0 if boards == 1 else end.most)
    assert end.clauses == ((rs.param_clauses["game_points"],) if target is not None
                           else (rs.param_clauses["game_boards"],))
    rule(installed(), at((end.most, 0)), ruleset)          # the last score a stroke is played at
    exc = refused(at((0, end.most + 1)), ruleset)
    assert exc.field == "before.score.opponent" and all(c in str(exc) for c in end.clauses)


def test_sides_level_past_the_end_play_on_only_where_both_score_on_a_board():
    # fr-simplified: each side scores its own coins, so the sides may be level at 29 and play on
    rule(installed(), at((30, 30)), "fr-simplified")
    assert refused(at((30, 29)), "fr-simplified").field == "before.score.striker"
    assert refused(at((25, 25)), "icf").field == "before.score.striker"   # only the winner scores


def test_only_the_winner_scoring_bounds_what_both_sides_hold_together():
    # aicf-2009: 4 boards (rule 1) of at most 11 (rule 7), the winner alone scoring: 33 before the last
    rule(installed(), at((22, 11)), "aicf-2009")
    exc = refused(at((22, 12)), "aicf-2009")
    assert exc.field == "before.score" and "aicf-2009:1" in str(exc) and "aicf-2009:7" in str(exc)


def test_a_one_board_game_starts_every_stroke_at_nothing():
    exc = refused(at((1, 0)), "carom-bi")
    assert exc.field == "before.score.striker" and "carom-bi:1.1" in str(exc)


@pytest.mark.parametrize("ruleset,clause", [("icf", "icf-fr:3.5.c"), ("it", "it:19"),
                                            ("fr-simplified", "fr-simplified:3.2"), ("fr-house", "fr-house:4.1")])
def test_a_break_attempt_after_a_coin_of_the_striker_was_pocketed_is_no_break(ruleset, clause):
    doc = {"before": {"break": True, "own_pocketed_earlier": True}, "stroke": {"pocketed": {"own": 1}}}
    exc = refused(doc, ruleset)
    assert exc.field == "before.own_pocketed_earlier" and clause in str(exc)
    # the same board once the break is made is an ordinary stroke
    rule(installed(), {**doc, "before": {"own_pocketed_earlier": True}}, ruleset)


def test_the_queen_against_the_coins():
    covered = {"before": {"queen": "covered_by_striker", "own_pocketed_earlier": False}, "stroke": STROKE}
    assert refused(covered, "icf").field == "before.queen"
    # a side back at nine coins may have paid a due with its cover: only its word says otherwise
    rule(installed(), {"before": {"queen": "covered_by_striker"}, "stroke": STROKE}, "icf")
    awaiting = {"before": {"queen": "awaiting_cover", "own_pocketed_earlier": False}, "stroke": STROKE}
    exc = refused(awaiting, "icf")
    assert exc.field == "before.queen" and "icf-fr:3.12.c" in str(exc)


def test_a_due_beside_a_pocketed_coin_names_the_clause_that_pays_it():
    exc = refused({"before": {"own_on_board": 8, "dues": 1}, "stroke": STROKE}, "icf")
    assert exc.field == "before.dues" and "icf-fr:3.11.a" in str(exc)


@pytest.mark.parametrize("ruleset,clause", [("icf", "icf-fr:2.2"), ("aicf-2009", "icf-fr:2.2"), ("it", "it:B.XXII"),
                                            ("fr-house", "fr-house:1.3"), ("carom-bi", "carom-bi:2.1")])
def test_more_coins_than_a_set_holds_names_the_clause_that_counts_them(ruleset, clause):
    exc = refused({"before": {"own_on_board": 10}, "stroke": STROKE}, ruleset)
    assert exc.field == "before.own_on_board" and clause in str(exc)
    assert clause in refused({"stroke": {"pocketed": {"opponent": 10}}}, ruleset).clauses


def test_where_the_text_never_counts_the_coins_the_nine_are_an_assumption_said():
    exc = refused({"before": {"opponent_on_board": 12}, "stroke": STROKE}, "fr-simplified")
    assert exc.field == "before.opponent_on_board" and exc.clauses == ()
    assert exc.assumptions == (reachable.NINE_ASSUMED,) and "assumed where the text is silent" in str(exc)


def test_the_command_line_refuses_in_one_line_with_exit_2(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: icf\nbefore: {score: {striker: 999, opponent: 999}}\nstroke: {pocketed: {}}\n")
    p = run_cli("rule", str(path))
    rc, out, err = p.returncode, p.stdout, p.stderr
    assert rc == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "before.score.striker" in err and "icf-fr:3.7.e" in err


def _reachable(ruleset: str, doc: dict) -> bool:
    rs = installed().compiled(ruleset)
    return reachable.unreachable(rs, parse(doc, ruleset, set(rs.fouls), rs.allow_empty_side)) is None


@pytest.mark.parametrize("ruleset", sorted(installed().rulesets))
def test_every_verify_representative_is_reachable(ruleset):
    rs = installed().compiled(ruleset)
    count = 0
    for s, _facts in situations(rs):
        assert reachable.unreachable(rs, s) is None, s
        count += 1
    assert count > 10_000


@pytest.mark.slow   # the first draw of each ruleset walks its whole space
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(sorted(installed().rulesets)), seed=st.integers(0, 2**32 - 1))
def test_every_quiz_question_is_a_reachable_board(ruleset, seed):
    questions = generate(installed(), Scope(ruleset=ruleset), 8, seed=seed)
    assert questions
    for q in questions:
        assert _reachable(ruleset, {k: v for k, v in q.situation.items() if k != "ruleset"}), q.situation


@settings(max_examples=200, deadline=None)
@given(ruleset=st.sampled_from(sorted(installed().rulesets)), striker=st.integers(0, 999),
       opponent=st.integers(0, 999), breaking=st.booleans(), earlier=st.sampled_from([None, False, True]),
       queen=st.sampled_from(["on_board", "awaiting_cover", "covered_by_striker", "covered_by_opponent"]))
def test_rule_rules_exactly_the_reachable_boards(ruleset, striker, opponent, breaking, earlier, queen):
    before: dict = {"score": {"striker": striker, "opponent": opponent}, "queen": queen, "break": breaking}
    if earlier is not None:
        before["own_pocketed_earlier"] = earlier
    doc = {"before": before, "stroke": STROKE}
    rs = installed().compiled(ruleset)
    try:
        s = parse(doc, ruleset, set(rs.fouls), rs.allow_empty_side)
    except BadInput:
        return   # what no board allows, whatever the ruleset (situation.py)
    why = reachable.unreachable(rs, s)
    try:
        rule(installed(), doc, ruleset)
    except BadInput as exc:
        assert why is None or exc.field == why.field
        return
    assert why is None


CLEARED = [{"touched_coin": True, "pocketed": {"own": 2}}, {"pocketed": {}}, {"pocketed": {"own": 3}},
           {"pocketed": {}}, {"pocketed": {"queen": True}}, {"pocketed": {"own": 1}}, {"pocketed": {"own": 6}}]


def test_a_replayed_game_stands_only_on_reachable_boards_and_ends_where_they_do():
    # each board cleared by its breaker (9 points, ../shared/cases/replay.yaml): 9-0, 9-9, 18-9,
    # 18-18, then 27-18 ends the game, as icf-fr 3.7 e bounds the boards a stroke is played on
    game, seen = Game(installed(), "icf"), []
    while not game.over:
        for stroke in CLEARED:
            doc = game.situation_doc(stroke)
            assert _reachable("icf", doc), doc
            seen.append(doc["before"]["score"])
            game.play(stroke)
    assert game.score == {"first": 27, "second": 18} and {"striker": 18, "opponent": 18} in seen
    report = replay(installed(), {"ruleset": "icf", "boards": [CLEARED] * 5})
    assert report["score"] == {"first": 27, "second": 18} and report["game"]["over"]
