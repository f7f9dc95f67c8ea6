"""Every message check-kb gives for a malformed citations.yaml, word for word and line for line,
and what the grammar keeps of a source whose entry is partly wrong."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from referee_app.core.knowledge import citations as C

WORDS = "rule_words: {fr: [règle], it: [regola], en: [rule]}\n"


def _file(kb, **entries: str | None) -> str:
    """A citations.yaml with a plain entry for every source, or the one given (None: no entry)."""
    lines = ["sources:"]
    for sid in kb.sources:
        entry = entries.get(sid.replace("-", "_"), "{cite: {fr: 'S {p}', it: 'S {p}', en: 'S {p}'}}")
        if entry is not None:
            lines.append(f"  {sid}: {entry}")
    return "\n".join(lines) + "\n"


def _grammar(kb, tmp_path, text: str | None) -> C.Citations:
    if text is not None:
        (tmp_path / C.FILE).write_text(text, encoding="utf-8")
    return C.Citations.from_kb(SimpleNamespace(root=tmp_path, sources=kb.sources, clauses=kb.clauses))


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_good_file_has_no_problem(kb, tmp_path):
    grammar = _grammar(kb, tmp_path, _file(kb) + WORDS)
    assert grammar.problems == []
    assert grammar.data["rule_words"] == {"fr": ["règle"], "it": ["regola"], "en": ["rule"]}


@pytest.mark.parametrize("text,expected", [
    (None, ["citations.yaml:0: the citation names are missing"]),
    ("sources: {: [", ["citations.yaml:1: not valid YAML: did not find expected node content"]),
    ("[a, b]", ["citations.yaml:0: must be a mapping with `sources` and `rule_words`"]),
])
def test_an_unreadable_file_gets_one_message_and_an_empty_grammar(kb, tmp_path, text, expected):
    grammar = _grammar(kb, tmp_path, text)
    assert [str(p) for p in grammar.problems] == expected
    assert grammar.data == {"sources": {}, "rule_words": {}}
    assert grammar.parse("it:53") == ["it:53"]  # the ids still cite


def test_an_empty_file_misses_every_source_and_rule_word(kb, tmp_path):
    grammar = _grammar(kb, tmp_path, "")
    assert [str(p) for p in grammar.problems] == (
        [f"citations.yaml:0: sources: no citation form for source '{sid}'" for sid in kb.sources]
        + [f"citations.yaml:0: rule_words.{lang}: needs a list of words" for lang in C.LANGS])


def test_an_unknown_source_and_a_missing_one(kb, tmp_path):
    text = _file(kb, it=None) + "  nope: {names: [X]}\n" + WORDS
    assert [str(p) for p in _grammar(kb, tmp_path, text).problems] == [
        f"citations.yaml:{_line_of(text, '  nope')}: sources: unknown source 'nope'",
        "citations.yaml:0: sources: no citation form for source 'it'"]


def test_a_source_that_is_no_mapping(kb, tmp_path):
    grammar = _grammar(kb, tmp_path, _file(kb, it="[IT]") + WORDS)
    assert [str(p) for p in grammar.problems] == ["citations.yaml:0: sources.it: must be a mapping with names and cite"]
    assert "it" not in grammar.data["sources"]


def test_names_that_are_no_list_of_names_are_dropped(kb, tmp_path):
    text = _file(kb, it="{names: IT, cite: {fr: 'IT {p}', it: 'regola {p}', en: 'IT rule {p}'}}",
                 aicf_2009="{names: [AICF, '--'], cite: {fr: 'A {p}', it: 'A {p}', en: 'A {p}'}}") + WORDS
    grammar = _grammar(kb, tmp_path, text)
    assert [str(p) for p in grammar.problems] == [
        f"citations.yaml:{_line_of(text, '  it:')}: sources.it.names: must be a list of names",
        f"citations.yaml:{_line_of(text, '  aicf-2009:')}: sources.aicf-2009.names: must be a list of names"]
    assert grammar.data["sources"]["it"] == {"names": [], "cite": {"fr": "IT {p}", "it": "regola {p}", "en": "IT rule {p}"}}


def test_each_bad_citation_form_is_named_and_the_good_ones_kept(kb, tmp_path):
    text = _file(kb, it="{names: [IT], cite: {fr: 'IT', it: '{p} {p}', en: 'IT rule {p}'}}",
                 aicf_2009="{names: [AICF], cite: 'A {p}'}",
                 fr_house="{cite: {fr: '{x} {p}', it: 'M {p}', en: 'M {p}'}}") + WORDS
    grammar = _grammar(kb, tmp_path, text)
    it, aicf, house = (_line_of(text, f"  {sid}:") for sid in ("it", "aicf-2009", "fr-house"))
    assert [str(p) for p in grammar.problems] == [
        f"citations.yaml:{it}: sources.it.cite.fr: needs a form with {{p}} once",
        f"citations.yaml:{it}: sources.it.cite.it: needs a form with {{p}} once",
        *(f"citations.yaml:{aicf}: sources.aicf-2009.cite.{lang}: needs a form with {{p}} once" for lang in C.LANGS),
        f"citations.yaml:{house}: sources.fr-house.cite.fr: needs a form with {{p}} once"]
    assert grammar.data["sources"]["it"] == {"names": ["IT"], "cite": {"en": "IT rule {p}"}}
    assert grammar.data["sources"]["aicf-2009"] == {"names": ["AICF"], "cite": {}}


@pytest.mark.parametrize("words,line", [("rule_words: {fr: [], it: ['  '], en: rule}\n", "last"),
                                        ("rule_words: [rule]\n", 0)])
def test_rule_words_need_a_list_per_language(kb, tmp_path, words, line):
    text = _file(kb) + words
    line = len(text.splitlines()) if line == "last" else line
    grammar = _grammar(kb, tmp_path, text)
    assert [str(p) for p in grammar.problems] == [
        f"citations.yaml:{line}: rule_words.{lang}: needs a list of words" for lang in C.LANGS]
    assert grammar.data["rule_words"] == {}


def test_rule_words_are_kept_stripped(kb, tmp_path):
    grammar = _grammar(kb, tmp_path, _file(kb) + "rule_words: {fr: [' règle '], it: [regola], en: [rule, law]}\n")
    assert grammar.data["rule_words"] == {"fr": ["règle"], "it": ["regola"], "en": ["rule", "law"]}


def test_a_name_claimed_by_two_sources(kb, tmp_path):
    text = _file(kb, it="{names: [AICF 2009, icf], cite: {fr: 'a {p}', it: 'b {p}', en: 'c {p}'}}") + WORDS
    assert [str(p) for p in _grammar(kb, tmp_path, text).problems] == [
        "citations.yaml:0: the name 'icf' is claimed by icf-fr and it",
        "citations.yaml:0: the name 'aicf-2009' is claimed by it and aicf-2009",
        "citations.yaml:0: the name 'AICF 2009' is claimed by it and aicf-2009"]
