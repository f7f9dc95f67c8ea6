"""A clause page shows its logic: the rules it carries in plain words, its worked examples with the
ruling each gives, the clauses that make exceptions to it, the rulesets that apply it, and every
translation; `show ID` (text and --json) and the rulebook's clause page say the same."""
from __future__ import annotations

import json

import pytest

from support.cli import run_cli
from support.kbcopy import installed


def show_json(clause_id: str) -> dict:
    done = run_cli("show", clause_id, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def queen_too_early():
    return show_json("icf-fr:3.12.c")


def test_show_json_keeps_the_record_and_adds_the_logic(queen_too_early, kb):
    record = kb.clauses["icf-fr:3.12.c"].record()
    assert {k: queen_too_early[k] for k in record} == json.loads(json.dumps(record))
    assert set(queen_too_early) - set(record) == {"rules", "examples", "exceptions", "rulesets"}


def test_the_rules_are_in_plain_words_in_each_language(queen_too_early):
    [rule] = queen_too_early["rules"]
    assert rule["id"] == "icf-fr:3.12.c/queen-too-early" and rule["exception_to"] == ["icf-fr:3.6.a"]
    assert rule["when"]["en"] == "queen pocketed: yes; own coins pocketed: 0; an own coin pocketed earlier: no"
    assert rule["then"]["en"] == "queen: on the board; turn: passes to the opponent"
    assert "reine logée" in rule["when"]["fr"] and "passe à l'adversaire" in rule["then"]["fr"]
    assert "regina imbucata" in rule["when"]["it"]


def test_a_bound_reads_as_words():
    cover = show_json("icf-fr:3.12.d")
    whens = {r["id"].split("/")[1]: r["when"] for r in cover["rules"]}
    assert "own coins pocketed: at least 1" in whens["covered"]["en"]
    assert "au moins 1" in whens["covered"]["fr"] and "almeno 1" in whens["covered"]["it"]


def test_the_examples_carry_the_ruling_the_engine_gives(queen_too_early, kb):
    examples = queen_too_early["examples"]
    assert [e["name"] for e in examples] == [e["name"] for e in kb.clauses["icf-fr:3.12.c"].examples]
    for e in examples:
        assert e["ruleset"] == "icf" and e["holds"] is True
        assert e["ruling"]["turn"] == "passes" and "icf-fr:3.12.c" in e["ruling"]["clauses"]


def test_the_exceptions_that_point_at_a_clause_are_listed():
    assert "icf-fr:3.12.c" in show_json("icf-fr:3.6.a")["exceptions"]


def test_the_rulesets_that_apply_a_clause():
    assert show_json("icf-fr:3.12.c")["rulesets"] == ["aicf-2009", "icf"]
    # aicf-2009 disables 3.12 a (its rule 11 replaces it); the Italian ruleset has its own text
    assert show_json("icf-fr:3.12.a")["rulesets"] == ["icf"]
    assert "it" in show_json("it:76")["rulesets"]
    assert "icf" in show_json("it:53")["rulesets"], "icf borrows it:53"


def test_show_as_text_says_the_same():
    done = run_cli("show", "icf-fr:3.12.c", "--lang", "fr")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "rule icf-fr:3.12.c/queen-too-early" in out
    assert "when: reine logée" in out
    assert "exception to: icf-fr:3.6.a" in out
    assert "Replacer au centre" in out and "[as expected]" in out
    assert "rulesets: aicf-2009, icf" in out
    assert "it (translation):" in out and "en (translation):" in out, "the other languages' texts"


def test_the_clause_page_lays_the_logic_out_in_the_reader_s_language(qapp, kb):
    from referee_app import i18n
    from referee_app.ui.rulebook.clause_html import clause_html
    from referee_app.ui.theme import colors

    i18n.set_language("fr")
    try:
        page = clause_html(installed(), kb.clauses["icf-fr:3.12.c"], "fr", colors())
    finally:
        i18n.set_language("en")
    assert "Ce que décide cet article" in page and "reine logée" in page
    assert "✔ comme attendu" in page and "Replacer au centre" in page
    assert "Règlements qui l&#x27;appliquent" in page or "Règlements qui l'appliquent" in page
    assert 'href="clause:icf-fr:3.6.a"' in page
    assert "Traductions" in page and "imbuca la regina" in page, "the Italian text, when reading French"
    assert "Exceptions à cet article" in page and 'href="clause:icf-fr:3.12.g"' in page


def test_every_fact_a_rule_may_test_has_words():
    from referee_app.core.rules.situation import FACTS
    from referee_app.core.rulebook.logic import FIELD_LABELS

    assert sorted(set(FACTS) - set(FIELD_LABELS)) == [], "name the new fact in core/rulebook/logic.py"


def test_search_marks_on_the_clause_page_are_escaped_and_bad_spans_ignored(qapp):
    from referee_app.ui.rulebook.clause_html import lit
    from referee_app.ui.theme import colors

    out = lit("a<b & c d", [[0, 1], [4, 5], [7, 99], ["x", 2], [6, 6], [2, 3]], colors())
    assert out.count("font-weight: bold") == 2, "a span past the end, garbled or empty lights nothing"
    assert ">a</span>&lt;b <span" in out and ">&amp;</span>" in out
    assert lit("x<y", None, colors()) == "x&lt;y"
