"""SoL's files: tournaments written as `.sol`/`.sol.gz` and read back equal, Swiss tourneys of a
SoL file read with SoL's phantom score, absences, late entries and withdrawals, round-robin and
knockout tourneys refused by name, bounded reading, and the command line's import and export.
Every file here is written by the tests (no SoL file is stored in this repository)."""
from __future__ import annotations

import datetime
import gzip
import json

import pytest
import yaml

from referee_app.core.errors import BadInput
from referee_app.core.tournament import sol
from referee_app.core.tournament.choices import changed, departures
from referee_app.core.tournament.generator import generate
from referee_app.core.tournament.model import parse
from referee_app.core.tournament.standings import after_each_round

from support.cli import run_cli
from support.kbcopy import installed

CHOICES = {"rounds_total": 4, "ghost_points": 15, "absent": {"P03": [2]}, "avoid_rematches": True}


def through_sol(t, gzipped=False):
    data = sol.dump_bytes(t, gzipped, datetime.date(2026, 5, 1))
    entries = sol.tournaments(installed().ffc, sol.read_bytes(data))
    assert len(entries) == 1 and "refused" not in entries[0]
    return entries[0]


@pytest.mark.parametrize("gzipped", [False, True])
def test_a_tournament_with_every_choice_comes_back_from_a_sol_file_as_it_went(gzipped):
    t = generate(installed().ffc, 11, 5, final=True, choices=CHOICES)
    entry = through_sol(t, gzipped)
    back = entry["tournament"]
    doc, again = t.to_doc(), back.to_doc()
    assert again.pop("name") == f"{t.name} (2026-05-01)"
    doc.pop("name")
    doc.pop("seed")                      # SoL keeps no draw seed
    assert again == doc
    assert entry["sol"] == {r.player: {"points": r.victories, "bucholz": r.bucholz, "netscore": r.difference,
                                       "totscore": entry["sol"][r.player]["totscore"]}
                            for r in after_each_round(t)[-1]}
    # and out again: the date goes back to SoL's own field, the name as it was
    twice = sol.tournaments(installed().ffc, sol.read_bytes(sol.dump_bytes(back, gzipped)))[0]["tournament"]
    assert twice.name == back.name and twice.to_doc() == again | {"name": back.name}


def test_the_file_is_what_sol_writes_a_stream_of_a_head_and_one_tourney():
    t = generate(installed().ffc, 5, 1, choices={"ghost_points": 8})
    head, tourney = list(yaml.safe_load_all(sol.dump(t, datetime.date(2026, 5, 1))))
    assert [(p["firstname"], p["lastname"]) for p in head["players"]] == [("", p) for p in t.players]
    assert tourney["phantomscore"] == 8 and tourney["system"] == "swiss" and tourney["date"] == datetime.date(2026, 5, 1)
    phantom = [m for m in tourney["matches"] if m["competitor2"] is None]
    assert phantom and all((m["score1"], m["score2"]) == (8, 0) for m in phantom)


def sol_file(tourneys, players=("Ann Lee", "Bob Ray", "Cy Moe", "Di Fox", "Ed Poe")) -> bytes:
    head = {"players": [{"firstname": p.split()[0], "lastname": p.split()[1], "club": 1} for p in players],
            "clubs": [{"description": "Club Carrom Cannes"}],
            "championships": [{"description": "Championnat 2026", "club": 1}]}
    return yaml.safe_dump_all([head, *tourneys]).encode()


def M(turn, a, b, s1, s2, board=1, **more):
    return {"turn": turn, "competitor1": a, "competitor2": b, "score1": s1, "score2": s2, "board": board, **more}


def test_a_sol_tourney_keeps_its_phantom_score_absences_late_entries_withdrawals_and_final():
    ctors = [{"players": [i]} for i in range(1, 6)]
    matches = [
        # turn 1: Ed has not come yet; 4 play
        M(1, 1, 2, 25, 10, 1), M(1, 3, 4, 25, 20, 2),
        # turn 2: Ed arrives (5 players: the phantom), scored 1-0 before the organiser set 15
        M(2, 1, 3, 25, 5, 1), M(2, 2, 5, 10, 25, 2), M(2, 4, None, 1, 0, 3),
        # turn 3: Cy sits out
        M(3, 1, 5, 25, 0, 1), M(3, 2, 4, 25, 3, 2),
        # turn 4: Cy is back, Di has gone (withdrawn after turn 3)
        M(4, 1, 2, 20, 20, 1), M(4, 3, 5, 25, 24, 2),
        M(5, 1, 3, 25, 1, 1, final=True),
    ]
    doc = {"description": "Open", "date": datetime.date(2026, 4, 12), "championship": 1, "phantomscore": 15,
           "system": "swiss", "prized": True, "finals": 1, "finalkind": "simple",
           "competitors": ctors, "matches": matches}
    entry = sol.tournaments(installed().ffc, sol.read_bytes(sol_file([doc])))[0]
    t = entry["tournament"]
    assert t.name == "Open (2026-04-12)"
    assert t.late == {"Ed Poe": 2} and t.withdrawn == {"Di Fox": 3} and t.absent == {"Cy Moe": [3]}
    assert t.ghost_points == 15 and t.rounds[1][2].score == (15, 0)
    assert t.rounds_total == 4 and t.avoid_rematches
    assert any("1-0" in n for n in entry["notes"]) and any("Club Carrom Cannes" in n for n in entry["notes"])
    assert [d["choice"] for d in departures(t)] == ["rounds_total", "ghost_points", "absent", "avoid_rematches"]
    assert {d["clause"] for d in departures(t)} == {"ffc-tournament:1.13", "ffc-tournament:1.15", "ffc-tournament:1.14"}
    assert t.final is None or t.final.players() == ("Ann Lee", "Cy Moe")


@pytest.mark.parametrize("tourney, kind", [({"system": "roundrobin"}, "round-robin"),
                                           ({"system": "knockout"}, "knockout"),
                                           ({"couplings": "all"}, "round-robin")])
def test_round_robin_and_knockout_tourneys_are_refused_by_name(tourney, kind):
    doc = {"description": "Coppa", "date": "2026-01-01", "championship": 1, "competitors": [], "matches": [],
           **tourney}
    entry = sol.tournaments(installed().ffc, sol.read_bytes(sol_file([doc])))[0]
    assert entry["refused"] == f"Coppa (2026-01-01): a {kind} tourney, not a Swiss tournament: not imported"


@pytest.mark.parametrize("raw, problem", [
    (gzip.compress(b"[" * 100 + b"]" * 100), "nested too deeply"),
    (b"players: [", "not valid YAML"),
    (b"- {}\n", "not a SoL file"),
    (gzip.compress(b" " * (sol.MAX_BYTES + 10)), "too large once unzipped"),
    (b"\x1f\x8b not gzip", "not a readable .sol.gz"),
    (b"a: &a [1, 2]\nb: [*a, *a, *a]\n" + b"c: !!python/object:os.system ls\n", "not valid YAML"),
])
def test_a_file_that_cannot_be_one_is_refused_in_one_line(raw, problem):
    with pytest.raises(BadInput) as err:
        sol.read_bytes(raw)
    assert problem in err.value.problem and "\n" not in err.value.problem


def test_a_choice_changes_only_before_the_round_it_affects():
    t = parse(installed().ffc, {"name": "x", "players": ["A", "B", "C"], "rounds": [
        [{"first": "A", "second": "B", "score": [25, 3]}, {"first": "C", "second": None}]]})
    with pytest.raises(BadInput) as err:
        changed(t, "ghost_points", 10)
    assert "round 1 is already paired" in err.value.problem
    assert changed(t, "rounds_total", 3).rounds_total == 3
    assert changed(t, "absent", ("C", [2])).absent == {"C": [2]}
    with pytest.raises(BadInput):
        changed(t, "absent", ("C", [1]))
    assert changed(t, "avoid_rematches", True).avoid_rematches


def test_import_and_export_on_the_command_line(tmp_path, monkeypatch):
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.db"))
    src = tmp_path / "choices.json"
    src.write_text(json.dumps(generate(installed().ffc, 9, 3, choices=CHOICES | {"absent": {"P2": [3]}}).to_doc()))
    new = run_cli("tournament", "new", str(src), "--json")
    assert new.returncode == 0, new.stderr
    tid = json.loads(new.stdout)["id"]
    show = json.loads(run_cli("tournament", "show", str(tid), "--json", "--lang", "fr").stdout)
    assert [d["choice"] for d in show["departures"]] == ["rounds_total", "ghost_points", "absent", "avoid_rematches"]
    out = tmp_path / "t.sol.gz"
    done = run_cli("tournament", "export", str(tid), "--format", "sol", "--out", str(out))
    assert done.returncode == 0, done.stderr and out.read_bytes()[:2] == b"\x1f\x8b"
    imported = run_cli("tournament", "import", str(out), "--json")
    assert imported.returncode == 0, imported.stderr
    new_id = json.loads(imported.stdout)["imported"][0]["id"]
    one = json.loads(run_cli("tournament", "standings", "--id", str(tid), "--json").stdout)
    two = json.loads(run_cli("tournament", "standings", "--id", str(new_id), "--json").stdout)
    assert one == two
    change = run_cli("tournament", "choose", str(new_id), "rounds_total", "5", "--reason", "time left", "--json")
    assert change.returncode == 0, change.stderr
    assert json.loads(change.stdout)["after"] == 5
    refused = run_cli("tournament", "choose", str(new_id), "ghost_points", "10", "--reason", "x")
    assert refused.returncode == 2 and "already paired" in refused.stderr
    rr = tmp_path / "rr.sol"
    rr.write_bytes(sol_file([{"description": "Coppa", "date": "2026-01-01", "championship": 1, "system": "roundrobin",
                              "competitors": [], "matches": []}]))
    nothing = run_cli("tournament", "import", str(rr))
    assert nothing.returncode == 2 and "Coppa (2026-01-01) (roundrobin)" in nothing.stderr


def test_every_export_carries_the_choices():
    from referee_app.core.tournament import export

    t = generate(installed().ffc, 9, 4, choices=CHOICES | {"absent": {"P2": [3]}})
    assert parse(installed().ffc, export.read_text(export.to_text(t, "2026-05-01"))["tournament"]).to_doc() == t.to_doc()
    assert parse(installed().ffc, json.loads(json.dumps(t.to_doc()))).choices_doc() == CHOICES | {"absent": {"P2": [3]}}
    head, tourney = list(yaml.safe_load_all(sol.dump(t)))
    assert tourney["phantomscore"] == 15


def test_a_doubles_team_goes_out_as_two_of_sols_players_and_comes_back_as_one_entry():
    t = parse(installed().ffc, {"name": "Doubles", "players": ["Ann Lee / Bob Ray", "Cy Moe / Di Fox", "Ed Poe / Flo Day"],
               "rounds": [[{"first": "Ann Lee / Bob Ray", "second": "Cy Moe / Di Fox", "score": [25, 7]},
                           {"first": "Ed Poe / Flo Day", "second": None}]]})
    head, tourney = list(yaml.safe_load_all(sol.dump(t)))
    assert head["championships"][0]["playersperteam"] == 2 and len(head["players"]) == 6
    assert [c["players"] for c in tourney["competitors"]] == [[1, 2], [3, 4], [5, 6]]
    back = through_sol(t)["tournament"]
    assert back.players == t.players
    assert [(g.first, g.second, g.score) for g in back.rounds[0]] == [(g.first, g.second, g.score) for g in t.rounds[0]]
