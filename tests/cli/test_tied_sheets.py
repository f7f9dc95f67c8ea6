"""Sheets tied to pairings (issue 31, "What breaks" 3): `matches new --pairing T R TABLE` checked
against the tournament, and `tournament add-result ... --from-sheet`, on either engine. The sheet
closed to the tables once the result is in is the table role's (test_db_roles, test_role_matrix):
here the records' owner is the desk, which may change everything."""
from __future__ import annotations

import json

import yaml

from referee_app.core.tournament.store import TournamentStore
from support.cli import run_cli
from support.kbcopy import installed

BOARD = [{"pocketed": {"own": 2}}, {"pocketed": {}, "foul": "improper_stroke"}, {"pocketed": {"own": 1, "queen": True}},
         {"pocketed": {"own": 1}}, {"pocketed": {"own": 7}}]


def _ok(*args):
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if "--json" in args else done.stdout


def _refused(*args) -> str:
    done = run_cli(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_sheet_tied_to_its_pairing_takes_the_result_from_it(records_env, tmp_path):
    tournaments = TournamentStore(installed())
    tid = tournaments.create("Open de Cannes", ["Anna", "Bela", "Carl", "Dora"], "icf")
    tournaments.pair(tid, seed=1)
    game = tournaments.game(tid, 1, 2)
    # checked against the tournament: no such table, no such tournament, header options refused
    assert "no table 9" in _refused("matches", "new", "--pairing", str(tid), "1", "9")
    assert "tournament" in _refused("matches", "new", "--pairing", str(tid + 7), "1", "1")
    assert "pairing" in _refused("matches", "new", "--pairing", str(tid), "1", "2", "--first-name", "X")
    match_id = _ok("matches", "new", "--pairing", str(tid), "1", "2", "--json")["id"]
    assert _ok("matches", "new", "--pairing", str(tid), "1", "2", "--json")["id"] == match_id   # one sheet per pairing
    shown = _ok("matches", "show", str(match_id), "--json")
    assert shown["pairing"] == {"tournament": tid, "round": 1, "table": 2}
    assert (shown["meta"]["first_name"], shown["meta"]["second_name"], shown["meta"]["table_no"]) == \
        (game["first"], game["second"], "2")
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(BOARD))
    board = _ok("matches", "play", str(match_id), str(tmp_path / "board.yaml"), "--json")
    assert board[-1]["board"]["over"]
    # the match goes on: no result is taken from it unless the clock ran out
    assert "still going on" in _refused("tournament", "add-result", str(tid), "1", "2", "--from-sheet")
    assert "--from-sheet" in _refused("tournament", "add-result", str(tid), "1", "2", "--time-called")
    entered = _ok("tournament", "add-result", str(tid), "1", "2", "--from-sheet", "--time-called", "--json")
    points = _ok("matches", "show", str(match_id), "--json")["games"][0]["boards"][0]["points"]
    assert entered["score"] == [points["first"], points["second"]] and entered["ended_by"] == "time"
    assert entered["match"] == match_id
    assert tournaments.game(tid, 1, 2)["score_first"] == points["first"]
    # a pairing with its result in (typed at the desk) opens no sheet
    _ok("tournament", "add-result", str(tid), "1", "1", "13", "0", "--json")
    tournaments.pair(tid, seed=2)
    tournaments.result(tid, 2, 1, [5, 13])
    assert "already entered" in _refused("matches", "new", "--pairing", str(tid), "2", "1")
