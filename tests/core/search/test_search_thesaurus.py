"""The carrom thesaurus (knowledge/thesaurus.yaml, core/knowledge/thesaurus.py): grown from the
glossary, every entry citing clauses that use it, checked by check-kb."""
from __future__ import annotations

import pytest

from support.kbcopy import kb_with_file
from referee_app.core.knowledge import thesaurus as T


def test_the_thesaurus_is_valid(kb):
    assert T.problems(kb) == []


def test_it_grows_from_the_glossary(kb):
    thes, _ = T.load(kb)
    ids = {c.id for c in thes.concepts}
    assert {t.id for t in kb.glossary} <= ids and len(ids) > len(kb.glossary)
    coin = thes.concept("coin")
    for lang, words in (("fr", {"jeton", "pion", "J/C"}), ("it", {"pedina"}), ("en", {"coin", "c/m", "carrom men"})):
        assert words <= set(coin.words[lang]), coin.words[lang]
    assert coin.defined_in == tuple(next(t for t in kb.glossary if t.id == "coin").defined_in)


def test_every_concept_has_words_in_each_language_and_cites_its_use(kb):
    thes, _ = T.load(kb)
    for c in thes.concepts:
        assert all(c.words[lang] for lang in T.LANGS), c.id
        assert c.used_in and all(cid in kb.clauses for cid in c.used_in), c.id


def test_each_language_asks_for_definitions(kb):
    thes, _ = T.load(kb)
    assert all(thes.definition_questions[lang] for lang in T.LANGS)


@pytest.mark.parametrize("entry,expected", [
    ("- {id: broken, fr: [rompu], it: [rotto], en: [broken], used_in: [icf-fr:99]}", "points nowhere"),
    ("- {id: broken, fr: [rompu], it: [rotto], en: [broken], used_in: [icf-fr:2.7]}", "uses none of its words"),
    ("- {id: newthing, fr: [rompu], it: [], en: [broken], used_in: [icf-fr:4.f]}", "no word in 'it'"),
    ("- {id: coin, fr: [jeton], used_in: [icf-fr:2.2]}", "already one of its words"),
    ("- {id: broken, fr: [rompu], it: [rotto], en: [broken]}", "used_in must cite"),
    ("- {id: broken, fr: [rompu], it: [rotto], en: [broken], used_in: [icf-fr:4.f], colour: red}", "unknown field"),
])
def test_check_kb_reports_a_broken_entry(tmp_path, kb, entry, expected):
    questions = "definition_questions: {fr: [c'est quoi], it: [cos'è], en: [what is]}\n"
    copy = kb_with_file(tmp_path, kb, T.FILE, "concepts:\n  " + entry + "\n" + questions)
    problems = [str(p) for p in T.problems(copy)]
    assert any(expected in p for p in problems), problems


def test_check_kb_runs_the_thesaurus_check(kb, monkeypatch):
    from referee_app.core.checks.knowledge_base import other_problems

    monkeypatch.setattr(T, "problems", lambda kb: [T.Problem(T.FILE, 1, "planted")])
    assert any("planted" in str(p) for p in other_problems(kb))
