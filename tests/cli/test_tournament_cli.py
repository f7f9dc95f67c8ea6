"""`carrom-referee tournament …` as the contract writes it, the stored tournaments, and the
exports written and read back."""
from __future__ import annotations

import json

import pytest
import yaml

from referee_app.core.errors import BadInput
from referee_app.core.storage import db
from referee_app.core.tournament import export
from referee_app.core.tournament.generator import generate
from referee_app.core.tournament.model import parse
from referee_app.core.tournament.standings import current
from referee_app.core.tournament.store import TournamentStore

from support.cli import run_cli
from support.kbcopy import installed

EXAMPLE = """\
name: Open de Cannes
players: [A, B, C, D]
rounds:
  - [{first: A, second: B, score: [25, 15]}, {first: C, second: D, score: [25, 0]}]
  - [{first: C, second: A, score: [18, 16]}, {first: B, second: D, score: [25, 6]}]
"""


def cli_json(*args, input=None, env_db=None):
    out = run_cli(*args, "--json", input=input)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_standings_pair_check_as_the_contract_says(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(EXAMPLE, encoding="utf-8")
    assert cli_json("tournament", "standings", str(path)) == [
        {"rank": 1, "player": "C", "victories": 4, "bucholz": 2, "difference": 27, "played": 2},
        {"rank": 2, "player": "A", "victories": 2, "bucholz": 6, "difference": 8, "played": 2},
        {"rank": 3, "player": "B", "victories": 2, "bucholz": 2, "difference": 9, "played": 2},
        {"rank": 4, "player": "D", "victories": 0, "bucholz": 6, "difference": -44, "played": 2}]
    assert cli_json("tournament", "pair", str(path)) == \
        {"round": 3, "tables": [{"table": 1, "first": "C", "second": "B"}, {"table": 2, "first": "A", "second": "D"}]}
    assert cli_json("tournament", "check", "-", input=EXAMPLE) == {"ok": True, "problems": []}


def test_round_one_with_a_seed_and_a_ghost():
    doc = json.dumps({"name": "x", "players": ["A", "B", "C", "D", "E"], "rounds": []})
    a = cli_json("tournament", "pair", "-", "--seed", "5", input=doc)
    b = cli_json("tournament", "pair", "-", "--seed", "5", input=doc)
    assert a == b and a["round"] == 1 and a["seed"] == 5
    assert [t["table"] for t in a["tables"]] == [1, 2, 3] and a["tables"][-1]["second"] is None


def test_after_the_final_pair_is_bad_input(tmp_path):
    t = generate(installed().ffc, 4, 2, final=True)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(t.to_doc()), encoding="utf-8")
    out = run_cli("tournament", "pair", str(path), "--json")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "final" in out.stderr and "Traceback" not in out.stderr
    no_final = dict(t.to_doc())
    del no_final["final"]
    assert cli_json("tournament", "pair", "-", input=json.dumps(no_final))["round"] == "final"


@pytest.mark.parametrize("text,field", [
    ("name: x\nplayers: [A, A]\n", "players.2"),
    ("name: x\nplayers: [A, B]\nrounds: [[{first: A, second: Z, score: [1, 2]}]]\n", "round 1, game 1.second"),
    ("[1, 2]\n", "tournament"),
])
def test_bad_files_exit_2_naming_the_field(text, field):
    out = run_cli("tournament", "standings", "-", "--json", input=text)
    assert out.returncode == 2 and out.stderr.startswith(f"carrom-referee: {field}:") and out.stderr.count("\n") == 1


@pytest.fixture
def records(tmp_path, records_env):
    return tmp_path


def test_stored_tournament_through_the_command_line(records):
    tid = cli_json("tournament", "new", "-", input=EXAMPLE)["id"]
    assert cli_json("tournament", "pair", "--id", str(tid)) == \
        {"round": 3, "tables": [{"table": 1, "first": "C", "second": "B"}, {"table": 2, "first": "A", "second": "D"}]}
    cli_json("tournament", "add-result", str(tid), "3", "1", "25", "20")
    cli_json("tournament", "add-result", str(tid), "3", "2", "10", "25")
    # Round 4 is paired: a round 3 result is now refused, unless corrected with its reason.
    cli_json("tournament", "pair", "--id", str(tid))
    refused = run_cli("tournament", "add-result", str(tid), "3", "2", "25", "10")
    assert refused.returncode == 2 and "correction" in refused.stderr
    fix = cli_json("tournament", "add-result", str(tid), "3", "2", "25", "10", "--correction", "scores swapped")
    assert fix["before"] == [10, 25] and fix["after"] == [25, 10] and fix["reason"] == "scores swapped"
    shown = cli_json("tournament", "show", str(tid))
    assert shown["corrections"][0]["reason"] == "scores swapped"
    assert {c["id"] for c in shown["choices"]} >= {"ties", "forced_rematch", "ghost", "correction"}
    assert {"round": 4, "table": 1} in shown["pending"]
    assert [t["id"] for t in cli_json("tournament", "list")] == [tid]

    # Every export written and read back.
    text_path, st_path, res_path = records / "t.txt", records / "s.csv", records / "r.csv"
    for fmt, path in (("text", text_path), ("standings.csv", st_path), ("results.csv", res_path)):
        out = run_cli("tournament", "export", str(tid), "--format", fmt, "--out", str(path))
        assert out.returncode == 0, out.stderr
    back = export.read_text(text_path.read_text(encoding="utf-8"))
    t = parse(installed().ffc, back["tournament"])
    assert back["standings"] == [r.to_doc() for r in current(t)] == shown["standings"]
    assert back["tournament"]["rounds"][2][1]["score"] == [25, 10]
    assert export.read_csv(st_path.read_text(encoding="utf-8")) == shown["standings"]
    results = export.read_csv(res_path.read_text(encoding="utf-8"))
    assert results[0] == {"round": 1, "table": 1, "first": "A", "second": "B", "first_score": 25, "second_score": 15}
    assert len(results) == 8 and results[-1]["first_score"] == ""
    doc = yaml.safe_load(run_cli("tournament", "export", str(tid), "--format", "yaml").stdout)
    assert doc == shown["tournament"]


def test_store_entries_check_in_late_entry_withdrawal_and_ghost(records, records_env):
    stamp = iter(range(10_000))
    with TournamentStore(installed(), records_env,
                         clock=lambda: db.local_now().replace(second=next(stamp) % 60)) as store:
        tid = store.create("Open", [], "icf")
        for name in ("A", "B", "C", "D"):
            store.add_player(tid, name)
        for name in ("A", "B", "C"):
            store.check_in(tid, name)
        assert store.load(tid).players == ["A", "B", "C"]       # D did not come
        first = store.pair(tid, seed=3)
        assert first["tables"][-1]["second"] is None
        ghost_table = first["tables"][-1]["table"]
        with pytest.raises(BadInput, match="ghost"):
            store.result(tid, 1, ghost_table, [0, 25])
        real = first["tables"][0]
        store.result(tid, 1, real["table"], [25, 11])
        store.check_in(tid, "D")                                  # a late entry: plays from round 2
        store.add_player(tid, "E", checked_in=True)
        t = store.load(tid)
        assert t.late == {"D": 2, "E": 2} and t.rounds_total == 6
        store.withdraw(tid, real["second"], "fell ill")
        second = store.pair(tid)
        names = {p for x in second["tables"] for p in (x["first"], x["second"])}
        assert names == {"A", "B", "C", "D", "E"} - {real["second"]}      # four: no ghost now
        assert parse(installed().ffc, store.document(tid)).to_doc() == store.document(tid)   # a valid contract file
        with pytest.raises(BadInput, match="correction"):
            store.result(tid, 1, real["table"], [25, 12])
        with pytest.raises(BadInput, match="reason"):
            store.correct(tid, 1, real["table"], [25, 12], " ")
        with pytest.raises(BadInput):
            store.result(tid, 9, 1, [25, 1])
        with pytest.raises(BadInput):
            store.result(tid, "x", 1, [25, 1])


def test_the_plain_text_export_round_trips_a_random_tournament():
    t = generate(installed().ffc, 17, 8, final=True)
    back = export.read_text(export.to_text(t, "2026-05-14"))
    assert back["date"] == "2026-05-14" and back["rounds_total"] == 6
    again = parse(installed().ffc, back["tournament"])
    assert again.to_doc() == t.to_doc()
    assert back["standings"] == [r.to_doc() for r in current(t)]
    with pytest.raises(BadInput):
        export.read_text("not a ranking file\n")
