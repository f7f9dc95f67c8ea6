"""The FFC Swiss system (ffc-tournament): standings, pairing, ghost, rounds, final, checker.

The worked example is read from the clause text of the knowledge base (ffc-tournament:1.22, the
text of 003 verbatim), so the test proves the standings against the source, not against a copy.
"""
from __future__ import annotations

import re

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.tournament.checker import check, rematches
from referee_app.core.tournament.generator import generate
from referee_app.core.tournament.model import GHOST, parse
from referee_app.core.tournament.pairing import draw, from_the_top, next_round
from referee_app.core.tournament.standings import after_each_round, current
from support.kbcopy import installed


def worked_example(kb):
    """The results and the standings printed after each round, as the clause text gives them."""
    text = kb.clauses["ffc-tournament:1.22"].text
    parts = re.split(r"\d+(?:er|ème) tour :", text)[1:]
    rounds, tables = [], []
    for part in parts:
        games = re.findall(r"(\w) gagne (\w) par (\d+) à (\d+)", part)
        rounds.append([{"first": a, "second": b, "score": [int(x), int(y)]} for a, b, x, y in games])
        rows = re.findall(r"(\d+)(?:er|ème) (\w) Victoires : (-?\d+) Bucholz : (-?\d+) Différence : (-?\d+)", part)
        tables.append([{"rank": int(r), "player": p, "victories": int(v), "bucholz": int(b), "difference": int(d)}
                       for r, p, v, b, d in rows])
    return rounds, tables


def test_the_worked_example_standings_after_each_round_match_the_text(kb):
    rounds, expected = worked_example(kb)
    assert len(rounds) == 2 and all(len(r) == 2 for r in rounds) and all(len(t) == 4 for t in expected)
    t = parse(installed().ffc, {"name": "Exemple", "players": ["A", "B", "C", "D"], "rounds": rounds})
    got = after_each_round(t)
    for n, (table, standing) in enumerate(zip(expected, got), 1):
        assert [{k: row.to_doc()[k] for k in ("rank", "player", "victories", "bucholz", "difference")}
                for row in standing] == table, f"after round {n}"
        assert all(row.played == n for row in standing)


def test_the_worked_example_round_2_is_the_pairing_from_the_top(kb):
    rounds, _ = worked_example(kb)
    t = parse(installed().ffc, {"name": "Exemple", "players": ["A", "B", "C", "D"], "rounds": rounds[:1]})
    pairs = {frozenset((x["first"], x["second"])) for x in next_round(t)["tables"]}
    assert pairs == {frozenset((g["first"], g["second"])) for g in rounds[1]}
    assert check(parse(installed().ffc, {"name": "Exemple", "players": ["A", "B", "C", "D"], "rounds": rounds})) == \
        {"ok": True, "problems": []}


def test_the_contract_example():
    t = parse(installed().ffc, {"name": "Open de Cannes", "players": ["A", "B", "C", "D"], "rounds": [
        [{"first": "A", "second": "B", "score": [25, 15]}, {"first": "C", "second": "D", "score": [25, 0]}],
        [{"first": "C", "second": "A", "score": [18, 16]}, {"first": "B", "second": "D", "score": [25, 6]}]]})
    assert [r.to_doc() for r in current(t)][0] == \
        {"rank": 1, "player": "C", "victories": 4, "bucholz": 2, "difference": 27, "played": 2}
    # Round 3: C has met D and A, so the first below not met is B; A then meets D.
    assert next_round(t) == {"round": 3, "tables": [{"table": 1, "first": "C", "second": "B"},
                                                    {"table": 2, "first": "A", "second": "D"}]}


def test_victory_points_and_a_draw_at_time():
    t = parse(installed().ffc, {"name": "x", "players": ["A", "B", "C", "D"], "rounds": [
        [{"first": "A", "second": "B", "score": [12, 12]}, {"first": "C", "second": "D", "score": [9, 20]}]]})
    rows = {r.player: r for r in current(t)}
    assert (rows["A"].victories, rows["B"].victories) == (installed().ffc.draw, installed().ffc.draw) == (1, 1)
    assert (rows["D"].victories, rows["C"].victories) == (2, 0)
    assert rows["D"].difference == 11 and rows["A"].difference == 0
    assert rows["A"].bucholz == 1 and rows["C"].bucholz == 2


def test_ties_on_all_three_criteria_keep_the_previous_order():
    # Round 1: everybody draws 10-10, so the standings keep the order of entry.
    players = ["D", "B", "A", "C"]
    t = parse(installed().ffc, {"name": "x", "players": players, "rounds": [
        [{"first": "D", "second": "B", "score": [10, 10]}, {"first": "A", "second": "C", "score": [10, 10]}]]})
    assert [r.player for r in current(t)] == players
    # Round 2: D and A draw again, B and C too: still level on all three, still in the previous order.
    t = parse(installed().ffc, {"name": "x", "players": players, "rounds": t.to_doc()["rounds"] + [
        [{"first": "D", "second": "A", "score": [5, 5]}, {"first": "B", "second": "C", "score": [7, 7]}]]})
    assert [r.player for r in current(t)] == players


def test_the_ghost_loses_0_25_gives_no_bucholz_and_is_not_listed():
    t = parse(installed().ffc, {"name": "x", "players": ["A", "B", "C"], "rounds": [
        [{"first": "A", "second": "B", "score": [25, 10]}, {"first": "C", "second": None}]]})
    assert t.rounds[0][1].score == (25, 0)
    rows = {r.player: r for r in current(t)}
    assert set(rows) == {"A", "B", "C"}
    assert rows["C"].victories == 2 and rows["C"].difference == 25 and rows["C"].bucholz == 0
    assert rows["C"].played == 1
    with pytest.raises(BadInput, match="ghost always loses"):
        parse(installed().ffc, {"name": "x", "players": ["A", "B", "C"], "rounds": [
            [{"first": "A", "second": "B", "score": [25, 10]}, {"first": None, "second": "C", "score": [25, 0]}]]})
    with pytest.raises(BadInput, match="the ghost already plays"):
        parse(installed().ffc, {"name": "x", "players": ["A", "B", "C", "D"], "rounds": [
            [{"first": "A", "second": "B"}, {"first": "C", "second": None}, {"first": "D", "second": None}]]})


def test_the_ghost_is_ranked_last_for_pairing_and_not_met_twice_unless_forced():
    t = parse(installed().ffc, {"name": "x", "players": ["A", "B", "C"], "rounds": [
        [{"first": "A", "second": "B", "score": [25, 10]}, {"first": "C", "second": None}]]})
    # Standings C (difference 25), A (15), B, then the ghost: C meets A; B meets the ghost.
    assert next_round(t)["tables"] == [{"table": 1, "first": "C", "second": "A"},
                                       {"table": 2, "first": "B", "second": None}]
    assert from_the_top(["A", "B", "C", GHOST], {"C": {GHOST}, GHOST: {"C"}}) == [("A", "B"), ("C", GHOST)]
    assert from_the_top(["A", "C", "B", GHOST], {"B": {GHOST}, GHOST: {"B"}, "A": {"C"}, "C": {"A"}}) == \
        [("A", "B"), ("C", GHOST)]


def test_a_forced_rematch_is_the_next_player_below():
    met = {"A": {"B", "C"}, "B": {"A"}, "C": {"A", "D"}, "D": {"C"}}
    # A has met B and C: D. Then B and C are left, and have not met.
    assert from_the_top(["A", "B", "C", "D"], met) == [("A", "D"), ("B", "C")]
    # Everybody has met everybody below: the next one below, again.
    everyone = {p: set("ABCD") - {p} for p in "ABCD"}
    assert from_the_top(["A", "B", "C", "D"], everyone) == [("A", "B"), ("C", "D")]


def test_round_one_is_drawn_reproducibly_and_the_ghost_game_comes_last():
    players = [f"P{i}" for i in range(1, 10)]
    a, b = draw(players, 42), draw(players, 42)
    assert a == b and a != draw(players, 43)
    assert sorted(p for pair in a for p in pair if p) == sorted(players)
    assert a[-1][1] is GHOST and all(GHOST not in pair for pair in a[:-1])
    t = parse(installed().ffc, {"name": "x", "players": players, "rounds": []})
    first = next_round(t, 42)
    assert first["round"] == 1 and first["seed"] == 42
    assert [x["table"] for x in first["tables"]] == [1, 2, 3, 4, 5]
    assert "seed" in next_round(t)  # an unseeded draw says which seed it used


@pytest.mark.parametrize("entries,rounds", [(2, 6), (39, 6), (40, 7), (59, 7), (60, 8), (200, 8)])
def test_the_number_of_rounds_follows_the_entries(entries, rounds):
    t = parse(installed().ffc, {"name": "x", "players": [f"P{i}" for i in range(entries)], "rounds": []})
    assert t.rounds_total == rounds
    assert installed().ffc.clauses["rounds"] == "ffc-tournament:1.13"


def test_the_final_after_the_last_round_sets_the_first_two():
    t = generate(installed().ffc, 6, 11)
    assert len(t.rounds) == 6
    pairing = next_round(t)
    top = [r.player for r in current(t)]
    assert pairing == {"round": "final", "tables": [{"table": 1, "first": top[0], "second": top[1]}],
                       "clause": "ffc-tournament:1.16"}
    doc = t.to_doc()
    doc["final"] = {"first": top[0], "second": top[1], "score": [20, 25]}
    done = parse(installed().ffc, doc)
    after = [r.player for r in current(done)]
    assert after[:2] == [top[1], top[0]] and after[2:] == top[2:]
    assert [r.rank for r in current(done)] == list(range(1, 7))
    with pytest.raises(BadInput, match="over"):
        next_round(done)
    # The final written as one more round of a single game reads the same.
    alt = dict(doc, rounds=doc["rounds"] + [[doc["final"]]])
    del alt["final"]
    assert [r.player for r in current(parse(installed().ffc, alt))] == after
    with pytest.raises(BadInput, match="level"):
        parse(installed().ffc, dict(doc, final={"first": top[0], "second": top[1], "score": [20, 20]}))
    wrong = dict(doc, final={"first": top[0], "second": top[2], "score": [25, 20]})
    assert not check(parse(installed().ffc, wrong))["ok"]
    with pytest.raises(BadInput, match="first two"):
        current(parse(installed().ffc, wrong))


@pytest.mark.parametrize("doc,field", [
    ({"players": ["A", "A"]}, "players.2"),
    ({"players": ["A"]}, "players"),
    ({"players": "A"}, "players"),
    ({"players": ["A", "B"], "rounds": [[{"first": "A", "second": "C"}]]}, "round 1, game 1.second"),
    ({"players": ["A", "B", "C", "D"], "rounds": [[{"first": "A", "second": "B", "score": [25, 1]}]]}, "round 1"),
    ({"players": ["A", "B", "C", "D"], "rounds": [[{"first": "A", "second": "B", "score": [25, 1]},
                                                  {"first": "C", "second": "A", "score": [25, 1]}]]}, "round 1, game 2"),
    ({"players": ["A", "B"], "rounds": [[{"first": "A", "second": "B", "score": [25, -1]}]]}, "round 1, game 1.score"),
    ({"players": ["A", "B"], "rounds": [[{"first": "A", "second": "B"}], [{"first": "A", "second": "B"}]]},
     "round 1, game 1.score"),
    ({"players": ["A", "B"], "rounds": [[{"first": "A", "second": "B", "score": [1, 0]}]] * 8}, "rounds"),
    ({"players": ["A", "B"], "colour": 1}, "colour"),
])
def test_bad_files_name_the_field(doc, field):
    with pytest.raises(BadInput) as err:
        parse(installed().ffc, {"name": "x", **doc})
    assert err.value.field == field


def test_pairing_waits_for_every_result():
    t = parse(installed().ffc, {"name": "x", "players": ["A", "B", "C", "D"], "rounds": [
        [{"first": "A", "second": "B", "score": [25, 15]}, {"first": "C", "second": "D"}]]})
    assert [r.played for r in current(t)] == [1, 1, 0, 0]
    with pytest.raises(BadInput) as err:
        next_round(t)
    assert err.value.field == "round 1, game 2.score"


def test_late_entry_and_withdrawal():
    t = parse(installed().ffc, {"name": "x", "players": ["A", "B", "C", "D", "E"], "late": {"E": 2}, "withdrawn": {"B": 1},
               "rounds": [[{"first": "A", "second": "B", "score": [25, 15]}, {"first": "C", "second": "D", "score": [25, 0]}]]})
    assert t.rounds_total == 6 and t.active(2) == ["A", "C", "D", "E"]
    tables = next_round(t)["tables"]
    assert {p for x in tables for p in (x["first"], x["second"])} == {"A", "C", "D", "E"}
    rows = {r.player: r for r in current(t)}
    assert rows["B"].played == 1 and rows["E"].played == 0 and rows["A"].bucholz == 0


def test_check_finds_a_round_that_was_not_paired_by_the_rules():
    t = generate(installed().ffc, 8, 5, rounds=3)
    assert check(t) == {"ok": True, "problems": []}
    doc = t.to_doc()
    r3 = doc["rounds"][2]
    r3[0]["second"], r3[1]["second"] = r3[1]["second"], r3[0]["second"]
    report = check(parse(installed().ffc, doc))
    assert not report["ok"] and {p["round"] for p in report["problems"]} == {3}
    assert "should meet" in report["problems"][0]["message"]
    doc = t.to_doc()
    doc["rounds"][1][0]["table"], doc["rounds"][1][1]["table"] = 2, 1
    assert any("table" in p["message"] for p in check(parse(installed().ffc, doc))["problems"])
    doc = t.to_doc()
    doc["seed"] = 6  # round 1 was not drawn with this seed
    assert any(p["round"] == 1 for p in check(parse(installed().ffc, doc))["problems"])


def test_rematches_are_reported_with_whether_they_were_forced():
    t = generate(installed().ffc, 4, 3)          # 4 players, 6 rounds: rematches cannot be avoided
    found = rematches(t)
    assert found and all(x["forced"] for x in found)
    doc = t.to_doc()            # a rematch nobody forced: round 2 replays round 1
    doc["rounds"] = [doc["rounds"][0], [dict(g, table=None) for g in doc["rounds"][0]]]
    for g in doc["rounds"][1]:
        del g["table"]
    assert any(not x["forced"] for x in rematches(parse(installed().ffc, doc)))


def test_generate_is_reproducible_and_rejects_bad_sizes():
    assert generate(installed().ffc, 9, 1).to_doc() == generate(installed().ffc, 9, 1).to_doc()
    assert generate(installed().ffc, 9, 1).to_doc() != generate(installed().ffc, 9, 2).to_doc()
    assert parse(installed().ffc, generate(installed().ffc, 9, 1, final=True).to_doc()).final is not None
    with pytest.raises(BadInput):
        generate(installed().ffc, 1, 1)
    with pytest.raises(BadInput):
        generate(installed().ffc, 4, 1, rounds=7)
