"""The rulings engine: bad input refused by name, mechanics carried out, and the verifier's
two refusals (a gap, a conflict) proven on small rule sets built for the purpose."""
from __future__ import annotations

import json
import textwrap

import pytest
import yaml

from referee_app.core.rules.compile import compile_ruleset
from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.knowledge.loader import load
from referee_app.core.knowledge.rulesets import load_rulesets
from referee_app.core.rules.ruling import rule
from referee_app.core.rules.verify import verify, verify_compiled

from support.cli import run_cli
from support.kbcopy import installed


def rule_cli(situation: dict, *args):
    return run_cli("rule", "--json", *args, "-", input=yaml.safe_dump(situation))


@pytest.mark.parametrize("situation,field", [
    ({"before": {"own_on_board": 2}, "stroke": {"pocketed": {"own": 3}}}, "stroke.pocketed.own"),
    ({"before": {"queen": "covered_by_opponent"}, "stroke": {"pocketed": {"queen": True}}}, "stroke.pocketed.queen"),
    ({"before": {"own_on_board": 10}, "stroke": {"pocketed": {"own": 1}}}, "before.own_on_board"),
    ({"before": {"queen": "lost"}, "stroke": {"pocketed": {}}}, "before.queen"),
    ({"before": {}, "stroke": {"pocketed": {"own": 1, "coins": 2}}}, "stroke.pocketed.coins"),
    ({"before": {}, "stroke": {"pocketed": {}, "foul": "sneezing"}}, "stroke.foul"),
    ({"before": {"break": True, "own_on_board": 8}, "stroke": {"pocketed": {}}}, "before.break"),
    ({"before": {}, "stroke": {"pocketed": {"own": "two"}}}, "stroke.pocketed.own"),
    ({"before": {}, "stroke": {"touched_coin": False, "pocketed": {"own": 1}}}, "stroke.touched_coin"),
    ({"before": {"own_on_board": 0}, "stroke": {"pocketed": {}}}, "before.own_on_board"),
    ({"ruleset": "chess", "stroke": {"pocketed": {}}}, "ruleset"),
    ({"stroke": {"pocketed": {}, "foul": "standing_up"}, "before": {}, "extra": 1}, "extra"),
])
def test_bad_situations_exit_2_naming_the_field(situation, field):
    done = rule_cli(situation)
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert f" {field}: " in lines[0], lines[0]


def test_a_foul_outside_the_stroke_is_refused_with_pockets():
    with pytest.raises(BadInput) as err:
        rule(installed(), {"before": {}, "stroke": {"pocketed": {"own": 1}, "foul": "standing_up"}}, "icf")
    assert err.value.field == "stroke.foul"


def test_the_ruleset_option_and_the_file_must_agree():
    done = rule_cli({"ruleset": "it", "stroke": {"pocketed": {}}}, "--ruleset", "icf")
    assert done.returncode == 2 and "ruleset:" in done.stderr


def test_a_penalty_with_nothing_in_the_pockets_becomes_a_due_then_is_paid():
    first = rule(installed(), {"before": {"own_on_board": 9, "opponent_on_board": 8}, "stroke": {"pocketed": {"striker": True}}}, "icf")
    assert first["after"]["dues"] == 1 and first["after"]["own_on_board"] == 9 and first["turn"] == "passes"
    assert "icf-fr:3.11.a" in first["clauses"]
    later = rule(installed(), {"before": {"own_on_board": 9, "opponent_on_board": 8, "dues": 1},
                  "stroke": {"pocketed": {"own": 1}}}, "icf")
    # the coin just pocketed pays the due at once (icf-fr 3.11 a, g)
    assert later["after"] == {"own_on_board": 9, "opponent_on_board": 8, "queen": "on_board", "dues": 0,
                              "opponent_dues": 0}
    assert later["returned"]["own"] == 1 and later["turn"] == "continues"
    assert "icf-fr:3.11.a" in later["clauses"]  # the due paid, as 3.11 a says


def test_pocketing_a_coin_of_an_opponent_who_owes_pays_his_due():
    r = rule(installed(), {"before": {"own_on_board": 5, "opponent_on_board": 9, "opponent_dues": 1},
              "stroke": {"pocketed": {"own": 1, "opponent": 1}}}, "icf")
    assert r["after"]["opponent_on_board"] == 9 and r["after"]["opponent_dues"] == 0
    assert r["returned"]["opponent"] == 1


def test_a_board_won_cancels_dues_and_is_capped():
    r = rule(installed(), {"before": {"own_on_board": 1, "opponent_on_board": 9, "opponent_dues": 1, "queen": "covered_by_striker"},
              "stroke": {"pocketed": {"own": 1}}}, "icf")
    assert r["board"] == {"over": True, "winner": "striker", "points": {"striker": 12, "opponent": 0}}
    assert r["after"]["opponent_dues"] == 0
    assert {"icf-fr:3.7.b", "icf-fr:3.7.d"} <= set(r["clauses"])


def test_the_explanation_speaks_three_languages_and_matches_the_ruling():
    r = rule(installed(), {"before": {"own_on_board": 5, "opponent_on_board": 5}, "stroke": {"pocketed": {"own": 1, "opponent": 1},
                                                                              "foul": "improper_stroke"}}, "icf")
    assert set(r["explanation"]) == {"fr", "it", "en"}
    assert "2 coins of the striking side" in r["explanation"]["en"]
    assert "opponent" in r["explanation"]["en"].split(".")[-2]


def test_a_borrowed_clause_says_so_in_a_note():
    r = rule(installed(), {"before": {"own_on_board": 4}, "stroke": {"pocketed": {"own": 1, "striker": True}}}, "icf")
    assert "it:53" in r["clauses"]
    assert any(n["clause"] == "it:53" and "it 53" in n["en"] for n in r["notes"])


def test_rule_is_json_and_ends_cleanly():
    done = rule_cli({"before": {"own_on_board": 6, "opponent_on_board": 7}, "stroke": {"pocketed": {"own": 2}}})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["turn"] == "continues"


# --- the verifier on rule sets built to fail ------------------------------------------------

SOURCES = """\
sources:
  - id: icf-fr
    lang: fr
    title: t
    files: [x]
    numbered: true
    order: '^(\\d+)(?:\\.(\\d+))?(?:\\.([a-z]))?$'
languages: [fr, it, en]
kinds: [rule]
"""


def tiny_ruleset(tmp_path, decides: str):
    root = tmp_path / "knowledge"
    (root / "icf-fr").mkdir(parents=True)
    (root / "rulesets").mkdir()
    (root / "sources.yaml").write_text(SOURCES)
    (root / "glossary.yaml").write_text("terms: []\n")
    (root / "parameters.yaml").write_text(
        "parameters:\n  break_attempts: {type: int, range: [1, 9], meaning: attempts at the break}\n")
    body = textwrap.indent(textwrap.dedent(decides), "    ")
    (root / "icf-fr" / "03.yaml").write_text(
        "source: icf-fr\nclauses:\n  - id: icf-fr:3.6.a\n    paragraph: 3.6 a)\n    title: t\n    kind: rule\n"
        "    text: t\n" + body)
    (root / "rulesets" / "icf.yaml").write_text(
        "id: icf\nname: {en: t}\nsources: [icf-fr]\nparameters:\n  break_attempts: {value: 1, clause: icf-fr:3.6.a}\n"
        "fouls:\n  - {id: improper_stroke, name: {en: f}, clauses: [icf-fr:3.6.a]}\n")
    kb, _ = load(root, strict=False)
    return compile_ruleset(kb, load_rulesets(kb), "icf")


BASE = """\
decides:
  - {name: board, default: true, then: {board: continues}}
  - {name: no-penalty, default: true, then: {penalty: 0}}
  - {name: stays, default: true, then: {own: stays}}
  - {name: counts, default: true, then: {opponent: stays}}
  - {name: queen, when: {queen_pocketed: true}, then: {queen: on_board}}
  - {name: queen-off, when: {queen_off: true}, then: {queen: on_board}}
  - {name: awaiting, when: {queen: awaiting_cover}, then: {queen: on_board}}
  - {name: made, when: {break: true}, then: {break_made: true}}
"""


def test_the_verifier_finds_a_gap(tmp_path):
    rs = tiny_ruleset(tmp_path, BASE + "  - {name: continues, when: {own_pocketed: {min: 1}}, then: {turn: continues}}\n")
    report = verify_compiled(rs)
    assert not report.ok and [a for a, _ in report.gaps] == ["turn"]
    count, example = report.gaps[("turn", None)]
    assert example["own_pocketed"] == 0 and count > 0


def test_the_verifier_finds_a_conflict_and_an_exception_resolves_it(tmp_path):
    conflicting = BASE + (
        "  - {name: passes, default: true, then: {turn: passes}}\n"
        "  - {name: continues, when: {own_pocketed: {min: 1}}, then: {turn: continues}}\n"
        "  - {name: foul, when: {foul: improper_stroke}, then: {turn: passes}}\n")
    report = verify_compiled(tiny_ruleset(tmp_path / "a", conflicting))
    assert [k for k in report.conflicts] == [("turn", ("icf-fr:3.6.a/continues", "icf-fr:3.6.a/foul"))]
    resolved = conflicting.replace("then: {turn: passes}}\n", "then: {turn: passes}, exception_to: [icf-fr:3.6.a/continues],"
                                  " priority: {stated: Toutefois}}\n", 2)
    resolved = resolved.replace("{name: passes, default: true, then: {turn: passes}, exception_to: [icf-fr:3.6.a/continues],"
                                " priority: {stated: Toutefois}}",
                                "{name: passes, default: true, then: {turn: passes}}")
    report = verify_compiled(tiny_ruleset(tmp_path / "b", resolved))
    assert report.ok, report.as_dict()


def test_a_rule_that_never_decides_fails_unless_the_knowledge_base_says_why(tmp_path):
    shadowed = BASE + ("  - {name: passes, default: true, then: {turn: passes}}\n"
                       "  - {name: shadowed, when: {own_pocketed: {min: 1}}, then: {turn: continues}}\n"
                       "  - {name: wider, when: {own_pocketed: {min: 1}}, then: {turn: continues},"
                       " exception_to: [icf-fr:3.6.a/shadowed], priority: {reading: {en: why, fr: pourquoi, it: perché}}}\n")
    report = verify_compiled(tiny_ruleset(tmp_path / "a", shadowed))
    assert not report.ok and not report.gaps and not report.conflicts
    assert report.never_decisive == ["icf-fr:3.6.a/shadowed"]
    explained = shadowed.replace("then: {turn: continues}}", "then: {turn: continues}, never_decisive: kept for the record}", 1)
    report = verify_compiled(tiny_ruleset(tmp_path / "b", explained))
    assert report.ok and report.never_decisive_explained == {"icf-fr:3.6.a/shadowed": "kept for the record"}


def test_exceptions_that_loop_are_refused(tmp_path):
    looping = BASE + ("  - {name: passes, default: true, then: {turn: passes}}\n"
                      "  - {name: one, when: {own_pocketed: 1}, then: {turn: passes}, exception_to: [icf-fr:3.6.a/two],"
                      " priority: {reading: {en: why, fr: pourquoi, it: perché}}}\n"
                      "  - {name: two, when: {own_pocketed: 1}, then: {turn: continues}, exception_to: [icf-fr:3.6.a/one],"
                      " priority: {reading: {en: why, fr: pourquoi, it: perché}}}\n")
    with pytest.raises(KnowledgeError) as err:
        tiny_ruleset(tmp_path, looping)
    assert "icf-fr:3.6.a/one: exceptions form a cycle back to this rule" in str(err.value)


@pytest.mark.parametrize("ruleset", ["icf", "it", "aicf-2009", "fr-simplified"])
def test_every_ruleset_gives_exactly_one_ruling_everywhere(ruleset):
    report = verify(installed(), ruleset)
    assert report.situations > 1000
    assert report.ok, report.as_dict()


def test_board_points_are_capped():
    # the opponent's last coin with the striker, the queen still in play: 9 + 3 + 1, capped at 12
    r = rule(installed(), {"before": {"own_on_board": 9, "opponent_on_board": 1}, "stroke": {"pocketed": {"opponent": 1, "striker": True}}},
             "icf")
    assert r["board"] == {"over": True, "winner": "opponent", "points": {"striker": 0, "opponent": 12}}
    assert r["clauses"][0] == "icf-fr:3.7.n" and "icf-fr:3.7.d" in r["clauses"]
