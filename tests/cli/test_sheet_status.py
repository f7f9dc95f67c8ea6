"""The desk sees which tables are playing, which finished, and which sheets disagree with the
typed result (issue 31, "Sheets tied to pairings"): `tournament show --json` carries each game's
`sheet`, `tournament check --id` names a disagreeing table with both scores, on either engine."""
from __future__ import annotations

import json

from referee_app.core.play.store import MatchStore
from referee_app.core.tournament.store import TournamentStore
from referee_app.core.tournament.table_matches import open_match
from support.cli import run_cli
from support.kbcopy import installed
from test_schemas import validate

# one board over: the second player wins it 11-0 (the first player's foul hands it over)
BOARD = [{"pocketed": {"own": 2}}, {"pocketed": {}, "foul": "improper_stroke"}, {"pocketed": {"own": 1, "queen": True}},
         {"pocketed": {"own": 1}}, {"pocketed": {"own": 7}}]


def _json(*args):
    done = run_cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_show_and_check_say_which_sheet_disagrees_with_the_typed_result(records_env):
    knowledge = installed()
    tournaments = TournamentStore(knowledge)
    matches = MatchStore(knowledge, tournaments.database)
    tid = tournaments.create("Open de Cannes", ["Anna", "Bela", "Carl", "Dora", "Emil", "Fay"], "icf")
    tournaments.pair(tid, seed=1)
    typed_over, playing = open_match(tournaments, matches, tid, 1, 1), open_match(tournaments, matches, tid, 1, 2)
    for match_id in (typed_over, playing):
        for stroke in BOARD:
            matches.add_stroke(match_id, stroke)
    tournaments.result(tid, 1, 1, [25, 0])       # typed at the desk over a sheet reading 0-11

    shown = _json("tournament", "show", str(tid))
    validate(shown, "tournament.json#/$defs/show")
    sheets = {s["table"]: s for s in shown["sheets"]}
    assert sheets[1] == {"round": 1, "table": 1, "sheet": "disagrees", "match": typed_over, "score": [25, 0],
                         "sheet_score": [0, 11]}
    assert (sheets[2]["sheet"], sheets[2]["sheet_score"], sheets[2]["score"]) == ("playing", [0, 11], None)
    assert (sheets[3]["sheet"], sheets[3]["match"]) == ("none", None)

    report = _json("tournament", "check", "--id", str(tid))
    validate(report, "tournament.json#/$defs/check")
    assert not report["ok"]
    assert [(p["table"], p["score"], p["sheet_score"]) for p in report["problems"]] == [(1, [25, 0], [0, 11])]
    plain = run_cli("tournament", "check", "--id", str(tid))
    assert plain.returncode == 0 and plain.stdout.strip() == \
        "round 1: the score sheet of table 1 reads 0-11, the result entered is 25-0"

    # corrected to what the sheet reads, and table 2's taken from its sheet: both finished, check ok
    tournaments.result(tid, 1, 1, [0, 11])
    assert run_cli("tournament", "add-result", str(tid), "1", "2", "--from-sheet", "--time-called").returncode == 0
    assert [s["sheet"] for s in _json("tournament", "show", str(tid))["sheets"]] == ["finished", "finished", "none"]
    assert _json("tournament", "check", "--id", str(tid))["ok"]
