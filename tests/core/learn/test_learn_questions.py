"""Generated questions: the key is the engine's ruling, the wrong choices are real confusions."""
from __future__ import annotations

import json

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.knowledge.citations import cite
from support.kbcopy import installed
from referee_app.core.learn.questions import Scope, generate, outcome, plausibility
from referee_app.core.learn.render import render
from referee_app.core.rules.ruling import rule

RULESETS = list(installed().rulesets)
PER_RULESET = 250  # a thousand over the four rulesets


def canon(o) -> str:
    return json.dumps(o, sort_keys=True)


@pytest.fixture(scope="module")
def thousand():
    return {r: generate(installed(), Scope(r), PER_RULESET, seed=22) for r in RULESETS}


def test_a_thousand_questions_keyed_by_the_engine(thousand):
    kb = installed().kb
    total = sum(len(qs) for qs in thousand.values())
    assert len(RULESETS) >= 4 and total >= 1000
    for ruleset, questions in thousand.items():
        assert len(questions) == PER_RULESET
        assert len({q.id for q in questions}) == len(questions), "a question asked twice in one quiz"
        for q in questions:
            ruling = rule(installed(), q.situation, ruleset)  # the engine, asked afresh through its public door
            assert q.key == outcome(ruling), q.situation
            assert q.choices[q.answer].source == {"kind": "key"}
            keys = [canon(c.outcome) for c in q.choices]
            assert len(set(keys)) == len(keys) >= 2, f"choices not unique: {q.situation}"
            for c in q.choices:
                if c.source["kind"] != "key":
                    assert canon(c.outcome) != canon(q.key)
            assert ruling["clauses"] and q.deciding_clause == ruling["clauses"][0]
            assert q.deciding_clause in kb.clauses
            # the engine's derivation names the rule the deciding clause holds
            assert q.deciding_clause in {c for step in q.derivation
                                         for c in [step["clause"]] + [a["clause"] for a in step["agreeing"]]}


def test_distractors_are_what_they_claim(thousand):
    """A choice from another ruleset is that ruleset's ruling; an overridden rule's choice comes
    from a rule that applied and was set aside by those that decided."""
    kinds = set()
    for ruleset, questions in thousand.items():
        rs = installed().compiled(ruleset)
        rules = {r.id: r for r in rs.rules}
        for q in questions[:80]:
            for c in q.choices:
                kinds.add(c.source["kind"])
                if c.source["kind"] == "ruleset":
                    assert c.source["ruleset"] != ruleset
                    assert outcome(rule(installed(), q.situation | {"ruleset": c.source["ruleset"]}, c.source["ruleset"])) == c.outcome
                if c.source["kind"] == "overridden":
                    set_aside = rules[c.source["rule"]]
                    assert set_aside.id not in q.ruling["rules"]
                    if c.source["how"] == "exception":  # set aside by rules that override it
                        assert c.source["by"] and all(set_aside.id in rules[b].overrides for b in c.source["by"])
                    else:  # a base case giving way to the specific rules that decided
                        assert all(b in q.ruling["rules"] for b in c.source["by"])
    assert {"key", "ruleset", "overridden"} <= kinds


def test_choice_texts_are_unique_in_every_language(thousand):
    for questions in thousand.values():
        for q in questions[:60]:
            for lang in ("fr", "it", "en"):
                texts = [c["text"] for c in render(installed(), q, lang)["choices"]]
                assert len(set(texts)) == len(texts), (lang, texts)


def test_weighted_towards_exceptions_and_board_endings(thousand):
    """Strokes that end the board, and strokes an exception decides, are drawn more often than
    in the pool they are drawn from, weighed only by how usual each stroke is (plausibility: the
    baseline the extra weights stand out from; where exceptions are most of the pool already, as
    in fr-simplified's fouls, there is no room to draw more of them)."""
    def share(qs, tag):
        return sum(tag in q.tags for q in qs) / len(qs)

    def usual_share(qs, tag):
        weights = [(plausibility(q.situation, "board_ending" in q.tags), tag in q.tags) for q in qs]
        return sum(w for w, tagged in weights if tagged) / sum(w for w, _ in weights)

    for ruleset, questions in thousand.items():
        pool = generate(installed(), Scope(ruleset), 2000, seed=22, pool=2000)  # everything the pool admits
        if share(pool, "exception") < 0.5:
            assert share(questions, "board_ending") > usual_share(pool, "board_ending"), ruleset
            assert share(questions, "exception") > usual_share(pool, "exception"), ruleset
        else:
            # Most strokes are exceptions already (fr-simplified, and fr-house and carom-bi that
            # share its rules): the exception weight lifts nearly every stroke, so endings only
            # hold their share, within the sampling noise of 250 questions (two standard
            # deviations, about 0.05); which side of the baseline the seeded draw falls on moves
            # with any change to the rulesets its wrong choices are drawn from.
            assert share(questions, "board_ending") > usual_share(pool, "board_ending") - 0.05, ruleset


def test_the_same_seed_gives_the_same_paper():
    a = [q.id for q in generate(installed(), Scope("it"), 15, seed=5)]
    assert a == [q.id for q in generate(installed(), Scope("it"), 15, seed=5)]
    assert a != [q.id for q in generate(installed(), Scope("it"), 15, seed=6)]


def test_board_endings_only():
    qs = generate(installed(), Scope("icf", endings=True), 25, seed=1)
    assert len(qs) == 25
    assert all(rule(installed(), q.situation, "icf")["board"]["over"] for q in qs)


def test_where_rulesets_differ_only():
    for q in generate(installed(), Scope("aicf-2009", differ=True), 25, seed=1):
        others = [c for c in q.choices if c.source["kind"] == "ruleset"]
        assert any(c.outcome != q.key for c in others) or "rulesets_differ" in q.tags
        differs = False
        for other in RULESETS:
            if other == "aicf-2009":
                continue
            try:
                differs |= outcome(rule(installed(), q.situation | {"ruleset": other}, other)) != q.key
            except BadInput:
                continue
        assert differs, q.situation


def test_one_clause_and_one_chapter():
    qs = generate(installed(), Scope("icf", clause="icf-fr:3.12.c"), 5, seed=2)
    assert qs and all("icf-fr:3.12.c" in rule(installed(), q.situation, "icf")["clauses"] for q in qs)
    qs = generate(installed(), Scope("it", chapter="it/14-N-regina"), 8, seed=2)
    kb = installed().kb
    assert len(qs) == 8
    for q in qs:
        cited = {step["clause"] for step in q.derivation} | set(q.clauses)
        assert any(kb.clauses[c].file == "it/14-N-regina.yaml" for c in cited if c in kb.clauses)


def test_clause_text_and_derivation_in_the_learners_language():
    q = generate(installed(), Scope("icf", clause="icf-fr:3.12.c"), 1, seed=3)[0]
    kb = installed().kb
    for lang in ("fr", "it", "en"):
        shown = render(installed(), q, lang)
        entry = next(c for c in shown["clauses"] if c["id"] == "icf-fr:3.12.c")
        assert entry["text"] == kb.clauses["icf-fr:3.12.c"].text_in(lang)[0]
        assert cite("icf-fr:3.12.c", lang, installed().kb) in shown["why"]  # the engine's why: which clause applied
        assert shown["steps"] and any(cite("icf-fr:3.12.c", lang, installed().kb) in line for line in shown["steps"])
        assert entry["cited"] == cite("icf-fr:3.12.c", lang, installed().kb)
    assert render(installed(), q, "it")["question"] != render(installed(), q, "en")["question"]
    assert render(installed(), q, "fr")["choices"][0]["text"] != render(installed(), q, "en")["choices"][0]["text"]


@pytest.mark.parametrize("scope,count,field", [
    (Scope("icf"), 0, "count"), (Scope("nope"), 3, "ruleset"), (Scope("icf", clause="icf-fr:99"), 3, "clause"),
    (Scope("icf", chapter="nowhere"), 3, "chapter")])
def test_bad_selection_is_refused_by_name(scope, count, field):
    with pytest.raises(BadInput) as err:
        generate(installed(), scope, count)
    assert err.value.field == field
