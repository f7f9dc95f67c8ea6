"""The organiser's choices at the desk (set at creation, changed with a reason before the round
they affect, journaled), pairing that honours them, each player's current opponent, and a game
moved to another table with its reason."""
from __future__ import annotations

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.storage.database import Database
from referee_app.core.tournament.checker import check
from referee_app.core.tournament.store import TournamentStore
from support.kbcopy import installed


@pytest.fixture
def store(records_url):
    conn = Database(records_url)
    yield TournamentStore(installed(), conn)
    conn.close()


def test_choices_set_at_creation_then_changed_with_a_reason_before_their_round(store):
    tid = store.create("Open", ["A", "B", "C", "D", "E"], "icf", choices={"ghost_points": 10, "rounds_total": 3})
    t = store.load(tid)
    assert (t.ghost_points, t.rounds_total) == (10, 3)
    store.set_choice(tid, "avoid_rematches", True, "")            # nothing paired yet: no reason asked
    pairing = store.pair(tid, seed=3)
    ghost = next(x for x in pairing["tables"] if x["second"] is None)
    assert store.game(tid, 1, ghost["table"])["score_first"] == 10
    with pytest.raises(BadInput) as err:
        store.set_choice(tid, "ghost_points", 20, "")
    assert err.value.field == "reason"
    with pytest.raises(BadInput) as err:
        store.set_choice(tid, "ghost_points", 20, "the club's rule")
    assert "round 1 is already paired" in err.value.problem
    with pytest.raises(BadInput):
        store.set_choice(tid, "absent", ("A", [1]), "late train")
    change = store.set_choice(tid, "absent", ("A", [2]), "late train")
    assert change["after"] == {"A": [2]} and change["reason"] == "late train"
    for g in store.round_games(tid, 1):
        if g["score_first"] is None:
            store.result(tid, 1, g["table_no"], [25, 5])
    second = store.pair(tid)
    assert "A" not in {p for x in second["tables"] for p in (x["first"], x["second"])}
    assert len(second["tables"]) == 2 and all(None not in (x["first"], x["second"]) for x in second["tables"])
    show = store.show(tid, "en")
    assert [c["choice"] for c in show["choice_changes"]] == ["avoid_rematches", "absent"]
    assert {d["choice"] for d in show["departures"]} == {"ghost_points", "rounds_total", "absent", "avoid_rematches"}
    assert check(store.load(tid))["ok"]


def test_each_players_opponent_now_and_a_game_moved_to_another_table(store):
    tid = store.create("Open", ["A", "B", "C", "D"], "icf")
    pairing = store.pair(tid, seed=1)
    now = store.opponents_now(tid)
    first = pairing["tables"][0]
    assert now[first["first"]] == {"opponent": first["second"], "table": 1}
    with pytest.raises(BadInput):
        store.move_table(tid, 1, 1, 2, " ")
    change = store.move_table(tid, 1, 1, 2, "board 1 is warped")
    assert change["before"] == 1 and change["after"] == 2 and change["reason"] == "board 1 is warped"
    moved = {g["table_no"]: (g["first"], g["second"]) for g in store.round_games(tid, 1)}
    assert moved[2] == (first["first"], first["second"])
    assert moved[1] == (pairing["tables"][1]["first"], pairing["tables"][1]["second"])
    store.result(tid, 1, 2, [25, 3])
    with pytest.raises(BadInput):
        store.move_table(tid, 1, 2, 3, "again")
    assert store.show(tid)["choice_changes"][-1]["choice"] == "table"
    store.result(tid, 1, 1, [25, 3])
    assert store.opponents_now(tid) == {}
