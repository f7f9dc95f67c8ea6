"""The proof has no holes: conflicts injected into a copy of the knowledge base, each one only
where an old sampling never looked (two own or opponent coins off the board, two dues owed, the
last break attempt and beyond), are all reported by `verify`, run through
CARROM_REFEREE_KNOWLEDGE as a knowledge-base author would."""
from __future__ import annotations

import json
import os
import shutil

import pytest
import yaml

from conftest import REPO, cli_command
import subprocess

CLAUSE_FILE = "icf-fr/03.06-deroulement-du-jeu.yaml"
CLAUSE = "icf-fr:3.6.a"


def _verify(root, ruleset="icf"):
    env = dict(os.environ, CARROM_REFEREE_KNOWLEDGE=str(root))
    done = subprocess.run(cli_command() + ["verify", "--ruleset", ruleset, "--json"], capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)[0]


def _mutated(tmp_path, rule: dict):
    root = tmp_path / "knowledge"
    shutil.copytree(REPO / "knowledge", root)
    path = root / CLAUSE_FILE
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    clause = next(c for c in data["clauses"] if c["id"] == CLAUSE)
    clause["decides"].append(rule)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return root


MUTATIONS = {
    # each `when` holds only where the fact reaches 2 (or the last attempt at the break, or past it)
    "two own coins off": {"when": {"own_pocketed": {"min": 1}, "foul": "none", "own_off": {"min": 2}},
                          "then": {"turn": "passes"}},
    "two opponent coins off": {"when": {"own_pocketed": {"min": 1}, "foul": "none", "opponent_off": {"min": 2}},
                               "then": {"turn": "passes"}},
    "two dues owed": {"when": {"own_pocketed": {"min": 1}, "foul": "none", "dues": {"min": 2}},
                      "then": {"turn": "passes"}},
    "the last break attempt": {"when": {"break": True, "touched_coin": False, "foul": "none",
                                        "break_attempt": {"min": "$break_attempts"}},
                               "then": {"break_made": True}},
    "past the last break attempt": {"when": {"break": True, "touched_coin": False, "foul": "none",
                                             "break_attempt": {"min": 3}},
                                    "then": {"break_made": True}},
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_verify_reports_a_conflict_injected_where_it_never_looked_before(tmp_path, name):
    rule = dict(MUTATIONS[name], name="injected")
    code, report = _verify(_mutated(tmp_path, rule))
    assert code == 1 and not report["ok"]
    injected = f"{CLAUSE}/injected"
    found = [c for c in report["conflicts"] if injected in c["rules"]]
    assert found, report["conflicts"]
    example = found[0]["example"]
    for fact, cond in rule["when"].items():
        if isinstance(cond, dict) and isinstance(cond.get("min"), int):
            assert example[fact] >= cond["min"], example


def test_verify_json_shows_every_fact_range_and_its_representatives():
    done = subprocess.run(cli_command() + ["verify", "--ruleset", "it", "--json"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    report = json.loads(done.stdout)[0]
    facts = report["facts"]
    assert facts["own_off"]["range"] == [0, 9] and facts["dues"]["range"] == [0, 9]
    assert facts["break_attempt"]["range"][0] == 1
    for name, fact in facts.items():
        reps = fact["representatives"]
        assert reps, name
        if "range" in fact:
            lo, hi = fact["range"]
            assert all(lo <= r <= hi for r in reps), name
    # it 20: three attempts; the cut points of its conditions put both 2 and 3 among the representatives
    assert {2, 3} <= set(facts["break_attempt"]["representatives"])
    assert report["situations"] > 1000


def test_a_knowledge_folder_that_is_not_one_is_refused_by_name(tmp_path):
    env = dict(os.environ, CARROM_REFEREE_KNOWLEDGE=str(tmp_path))
    done = subprocess.run(cli_command() + ["verify", "--ruleset", "icf"], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "CARROM_REFEREE_KNOWLEDGE:" in done.stderr and "Traceback" not in done.stderr
