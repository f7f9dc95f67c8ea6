"""Results from the tables: a score sheet opened at a table carries tournament, round and table,
and its result flows into the standings under the FFC limits (ffc-tournament:1.5-1.8)."""
from __future__ import annotations

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.play.store import MatchStore
from referee_app.core.storage.database import Database
from referee_app.core.tournament.standings import current
from referee_app.core.tournament.store import TournamentStore
from referee_app.core.tournament.table_matches import collect, match_result, open_match
from support.kbcopy import installed

# The breaker pockets two coins, the queen, then covers it with his last seven: 12 points.
CLEARING_BOARD = [{"touched_coin": True, "pocketed": {"own": 2}}, {"pocketed": {"queen": True}},
                  {"pocketed": {"own": 7}}]


@pytest.fixture
def stores(records_url):
    conn = Database(records_url)
    tournaments, matches = TournamentStore(installed(), conn), MatchStore(installed(), conn)
    tid = tournaments.create("Open", ["A", "B", "C"], "icf")
    pairing = tournaments.pair(tid, seed=1)
    yield tournaments, matches, tid, pairing
    conn.close()


def play(matches, match_id, boards: int, partial: int = 0):
    for _ in range(boards):
        for stroke in CLEARING_BOARD:
            matches.add_stroke(match_id, stroke)
    for stroke in CLEARING_BOARD[:partial]:
        matches.add_stroke(match_id, stroke)


def test_a_match_at_a_table_carries_tournament_round_and_table(stores):
    tournaments, matches, tid, pairing = stores
    table = pairing["tables"][0]
    match_id = open_match(tournaments, matches, tid, 1, 1)
    meta = matches.meta(match_id)
    assert (meta["first_name"], meta["second_name"]) == (table["first"], table["second"])
    assert (meta["tournament"], meta["round"], meta["table_no"]) == ("Open", "1", "1")
    assert open_match(tournaments, matches, tid, 1, 1) == match_id      # one sheet per table
    with pytest.raises(BadInput, match="ghost"):
        open_match(tournaments, matches, tid, 1, pairing["tables"][-1]["table"])


def test_the_result_flows_into_the_standings_when_25_points_are_reached(stores):
    tournaments, matches, tid, pairing = stores
    match_id = open_match(tournaments, matches, tid, 1, 1)
    play(matches, match_id, 2)
    assert collect(tournaments, matches, tid, 1, 1) is None              # 12-12: the match goes on
    play(matches, match_id, 3)                # 24-24, then 33-24 (the queen is worth nothing past 22, icf-fr 3.7 c)
    result = collect(tournaments, matches, tid, 1, 1)
    assert result == {"score": [33, 24], "ended_by": "points", "clause": "ffc-tournament:1.6"}
    first = pairing["tables"][0]["first"]
    row = next(r for r in current(tournaments.load(tid)) if r.player == first)
    assert (row.victories, row.difference, row.played) == (2, 9, 1)
    assert tournaments.game(tid, 1, 1)["match_id"] == match_id


def test_at_time_the_unfinished_board_is_not_counted_and_a_level_match_is_a_draw(stores):
    tournaments, matches, tid, _ = stores
    match_id = open_match(tournaments, matches, tid, 1, 1)
    play(matches, match_id, 2, partial=2)                                # 12-12 and a board under way
    result = collect(tournaments, matches, tid, 1, 1, time_called=True)
    assert result == {"score": [12, 12], "ended_by": "time", "clause": "ffc-tournament:1.8"}
    assert [r.victories for r in current(tournaments.load(tid))][:2] == [2, 1]   # the ghost's opponent first


def test_the_final_has_no_time_limit():
    from referee_app.core.play.match import Match

    m = Match(installed(), "icf")
    for stroke in CLEARING_BOARD:
        m.play(stroke)
    assert match_result(installed().ffc, m, time_called=True, final=True) is None
    assert match_result(installed().ffc, m, time_called=True)["score"] == [12, 0]
