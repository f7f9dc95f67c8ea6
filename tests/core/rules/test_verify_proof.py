"""The proof has no holes: conflicts injected into a copy of the knowledge base, each one only
where an old sampling never looked (two own or opponent coins off the board, two dues owed, the
last break attempt and beyond), are all reported by `verify`, run in this process on the edited
copy's knowledge root (CARROM_REFEREE_KNOWLEDGE, as an author names a copy, is tested once)."""
from __future__ import annotations

import json
import os
import shutil

import pytest
import yaml

from support.cli import REPO, cli_command
from support.kbcopy import run_main
from referee_app.core.knowledge.root import Knowledge
import subprocess

CLAUSE_FILE = "icf-fr/03.06-deroulement-du-jeu.yaml"
CLAUSE = "icf-fr:3.6.a"


def _verify(root, ruleset="icf"):
    done = run_main(["verify", "--ruleset", ruleset, "--json"], Knowledge.load(root))
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


# --- parameters: declared once, checked, never a Python default -------------------------------

def _check_kb(root):
    return run_main(["check-kb"], Knowledge.load(root))


@pytest.mark.parametrize("old,new,named", [
    ("  queen_value: {value: 3, clause: icf-fr:3.7.b}", "  queen_valeu: {value: 3, clause: icf-fr:3.7.b}",
     ["unknown parameter queen_valeu", "parameter queen_value is missing"]),
    ("  board_cap: {value: 12, clause: icf-fr:3.7.d}", "  board_cap: {value: twelve, clause: icf-fr:3.7.d}",
     ["parameter board_cap: takes a whole number, not 'twelve'"]),
    ("  break_attempts: {value: 2, clause: icf-fr:3.5.d}", "  break_attempts: {value: 0, clause: icf-fr:3.5.d}",
     ["parameter break_attempts: 0 is out of range"]),
])
def test_check_kb_refuses_a_misspelt_or_ill_typed_parameter_naming_it(tmp_path, old, new, named):
    root = tmp_path / "knowledge"
    shutil.copytree(REPO / "knowledge", root)
    path = root / "rulesets" / "icf.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    done = _check_kb(root)
    assert done.returncode == 1
    for message in named:
        assert "rulesets/icf.yaml:" in done.stdout and message in done.stdout, done.stdout[-2000:]


def test_no_ruleset_value_is_a_python_default():
    """A parameter read with a fallback (`params.get("x", 15)`, `_param("x", 1)`) would be a
    ruleset value living in Python; so would a clock started at a number of seconds."""
    import re

    names = yaml.safe_load((REPO / "knowledge" / "parameters.yaml").read_text(encoding="utf-8"))["parameters"]
    fallback = re.compile(r"""(?:get|_param)\(\s*["'](%s)["']\s*,\s*(?:-?\d|["']|True|False)""" % "|".join(names))
    clock = re.compile(r"""Countdown\(\s*["'](?:stroke|break)_clock["']\s*,\s*[1-9]""")
    found = []
    for path in sorted((REPO / "referee_app").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for rx in (fallback, clock):
            found += [f"{path.relative_to(REPO)}: {m.group(0)}" for m in rx.finditer(text)]
    assert not found, found


# --- the encoding: every rule, penalty and scoring clause of a played ruleset accounted for -----

def test_every_played_clause_carries_rules_or_says_why_not():
    done = subprocess.run(cli_command() + ["check-kb", "--json"], capture_output=True, text=True, timeout=300)
    report = json.loads(done.stdout)
    encoded = report["encoding"]
    assert encoded["neither"] == 0 and encoded["with_rules"] > 100 and encoded["not_formalised"] > 40, encoded


def test_check_kb_lists_a_clause_with_neither_rules_nor_a_reason(tmp_path):
    root = tmp_path / "knowledge"
    shutil.copytree(REPO / "knowledge", root)
    path = root / "icf-fr" / "03.10-jetons-qui-roulent.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.strip() == "- id: icf-fr:3.10.a")
    drop = next(i for i in range(at, len(lines)) if lines[i].startswith("    not_formalised:"))
    path.write_text("\n".join(lines[:drop] + lines[drop + 1:]), encoding="utf-8")
    done = _check_kb(root)
    assert done.returncode == 1
    assert "icf-fr:3.10.a: a rule clause of a played ruleset with neither rules nor `not_formalised: reason`" \
        in done.stdout
