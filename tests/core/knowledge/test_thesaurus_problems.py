"""Every message check-kb gives for a malformed thesaurus.yaml, word for word and line for line,
and what the thesaurus keeps of an entry that is partly wrong."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from referee_app.core.knowledge import thesaurus as T

QUESTIONS = "definition_questions: {fr: [c'est quoi], it: [cos'è], en: [what is]}\n"
BROKEN = "{id: broken, fr: [rompu], it: [rotto], en: [broken], used_in: [icf-fr:4.f]"


def _load(kb, tmp_path, text: str | None):
    """The thesaurus read from `text` beside the real glossary and clauses."""
    if text is not None:
        (tmp_path / T.FILE).write_text(text, encoding="utf-8")
    return T.load(SimpleNamespace(root=tmp_path, glossary=kb.glossary, clauses=kb.clauses))


@pytest.mark.parametrize("text,expected", [
    (None, ["thesaurus.yaml:0: the thesaurus is missing"]),
    ("concepts: [\n", ["thesaurus.yaml:2: not valid YAML: did not find expected node content"]),
    ("- a\n- b\n", ["thesaurus.yaml:0: must be a mapping with `concepts` and `definition_questions`"]),
    ("concepts: {a: 1}\n" + QUESTIONS, ["thesaurus.yaml:1: concepts: must be a list"]),
    ("concepts:\n  - {fr: [x]}\n  - just a word\n  - {id: ''}\n" + QUESTIONS,
     ["thesaurus.yaml:2: concepts #1: a concept needs an id",
      "thesaurus.yaml:2: concepts #1: used_in must cite the clauses that use its words",
      "thesaurus.yaml:1: concepts #2: a concept needs an id",
      "thesaurus.yaml:4: concepts #3: used_in must cite the clauses that use its words",
      "thesaurus.yaml:4: concepts #3.id: a concept needs an id"]),
    ("concepts:\n  - " + BROKEN + "}\n  - {id: broken, fr: [cassé], used_in: [icf-fr:4.f]}\n" + QUESTIONS,
     ["thesaurus.yaml:3: concept broken: listed twice"]),
    ("concepts:\n  - " + BROKEN + ", colour: red, size: 2}\n" + QUESTIONS,
     ["thesaurus.yaml:2: concept broken: unknown field 'colour'", "thesaurus.yaml:2: concept broken: unknown field 'size'"]),
    ("concepts:\n  - {id: broken, fr: rompu, it: [rotto, '--'], en: [broken, 3], used_in: [icf-fr:4.f]}\n" + QUESTIONS,
     ["thesaurus.yaml:2: concept broken.fr: must be a list of words", "thesaurus.yaml:2: concept broken.it #2: '--' is not a word",
      "thesaurus.yaml:2: concept broken.en #2: '3' is not a word",
      "thesaurus.yaml:2: concept broken: icf-fr:4.f uses none of its words"]),
    ("concepts:\n  - {id: half, fr: [moitié], used_in: [icf-fr:4.f]}\n" + QUESTIONS,
     ["thesaurus.yaml:2: concept half: no word in 'it' (not a glossary term)",
      "thesaurus.yaml:2: concept half: no word in 'en' (not a glossary term)",
      "thesaurus.yaml:2: concept half: icf-fr:4.f uses none of its words"]),
    ("concepts:\n  - {id: coin, fr: [Jéton, jeton], used_in: [icf-fr:2.2]}\n" + QUESTIONS,
     ["thesaurus.yaml:2: concept coin.fr: 'Jéton' is already one of its words",
      "thesaurus.yaml:2: concept coin.fr: 'jeton' is already one of its words"]),
    ("concepts:\n  - {id: broken, fr: [rompu], it: [rotto], en: [broken], used_in: icf-fr:4.f}\n" + QUESTIONS,
     ["thesaurus.yaml:2: concept broken.used_in: must cite the clauses that use its words"]),
    ("concepts:\n  - {id: broken, fr: [rompu], it: [rotto], en: [broken], used_in: []}\n" + QUESTIONS,
     ["thesaurus.yaml:2: concept broken.used_in: must cite the clauses that use its words"]),
    ("concepts:\n  - {id: broken, fr: [rompu], it: [rotto], en: [broken], used_in: [icf-fr:99, icf-fr:2.7]}\n" + QUESTIONS,
     ["thesaurus.yaml:2: concept broken: used_in icf-fr:99 points nowhere",
      "thesaurus.yaml:2: concept broken: icf-fr:2.7 uses none of its words"]),
    ("concepts:\n  - " + BROKEN + ", asked: {de: [was]}}\n  - {id: coin, asked: [x], used_in: [icf-fr:2.2]}\n"
     "  - {id: striker, asked: {en: [1]}, used_in: [icf-fr:2.3]}\n  - {id: pocket, asked: {en: hole}, used_in: [icf-fr:2.1.c]}\n"
     + QUESTIONS,
     ["thesaurus.yaml:2: concept broken.asked.de: unknown language 'de'",
      "thesaurus.yaml:3: concept coin.asked: must map languages to lists of phrases",
      "thesaurus.yaml:4: concept striker.asked.en #1: must be a text",
      "thesaurus.yaml:5: concept pocket.asked.en: must be a list of phrases"]),
    ("concepts:\n  - " + BROKEN + ", loose: [Rompu, cassé]}\n" + QUESTIONS,
     ["thesaurus.yaml:2: concept broken: loose word 'cassé' is none of its words"]),
    ("concepts: []\ndefinition_questions: {fr: [], it: ['  '], en: what}\n",
     ["thesaurus.yaml:2: definition_questions.fr: needs a list of phrases",
      "thesaurus.yaml:2: definition_questions.it #1: '  ' is not a phrase",
      "thesaurus.yaml:2: definition_questions.en: needs a list of phrases"]),
    ("concepts: []\ndefinition_questions: [what]\n",
     ["thesaurus.yaml:1: definition_questions: must map each language to the phrases that ask what a word means"]),
    ("concepts: []\ndefinition_questions: {fr: [quoi], en: [what]}\n",
     ["thesaurus.yaml:2: definition_questions: needs a list of phrases in 'it'"]),
    ("concepts:\n  - {id: half, fr: [moitié], used_in: [icf-fr:4.f]}\n" + QUESTIONS + "symbols: {'Ø': nothing, '%': half, '=': coin}\n",
     ["thesaurus.yaml:2: concept half: no word in 'it' (not a glossary term)",
      "thesaurus.yaml:2: concept half: no word in 'en' (not a glossary term)",
      "thesaurus.yaml:2: concept half: icf-fr:4.f uses none of its words",
      "thesaurus.yaml:4: symbols: 'Ø' stands for no known concept",
      "thesaurus.yaml:4: symbols: '%' stands for no known concept"]),
])
def test_each_malformed_input_gets_its_message(kb, tmp_path, text, expected):
    _, problems = _load(kb, tmp_path, text)
    assert [str(p) for p in problems] == expected


def test_a_good_entry_adds_to_a_glossary_term(kb, tmp_path):
    glossary_coin = next(t for t in kb.glossary if t.id == "coin")
    text = ("concepts:\n  - {id: coin, fr: [palet rond], en: [disc], loose: [disc], used_in: [icf-fr:2.2, icf-fr:2.2],"
            " asked: {en: [what is a man]}}\n" + QUESTIONS + "symbols: {'©': coin}\n")
    thes, problems = _load(kb, tmp_path, text)
    assert problems == []
    coin = thes.concept("coin")
    assert coin.words["fr"] == (*glossary_coin.words["fr"], "palet rond")
    assert coin.words["en"] == (*glossary_coin.words["en"], "disc")
    assert coin.words["it"] == tuple(glossary_coin.words["it"])
    assert coin.defined_in == tuple(glossary_coin.defined_in)
    assert coin.used_in == tuple(dict.fromkeys([*glossary_coin.defined_in, "icf-fr:2.2"]))
    assert coin.loose == (*glossary_coin.loose, "disc")
    assert coin.asked == {"en": ("what is a man",)}
    assert thes.definition_questions == {"fr": ("c'est quoi",), "it": ("cos'è",), "en": ("what is",)}
    assert thes.symbols == {"©": "coin"}


def test_an_entry_whose_words_are_wrong_keeps_its_place_but_no_words(kb, tmp_path):
    text = "concepts:\n  - {id: broken, fr: rompu, it: [rotto], en: [broken], used_in: [icf-fr:4.f]}\n" + QUESTIONS
    thes, _ = _load(kb, tmp_path, text)
    broken = thes.concept("broken")
    assert broken.words == {"fr": (), "it": ("rotto",), "en": ("broken",)}
    assert [c.id for c in thes.concepts][-1] == "broken"
