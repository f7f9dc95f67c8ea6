"""Citations (core/knowledge/citations.py): what a referee types to name a clause, and how the app
names one back. Every test reads the real knowledge base."""
from __future__ import annotations

import pytest

from support.kbcopy import installed, kb_with_file
from referee_app.core.knowledge import citations


class C:
    """The citation grammar's functions, over the installed knowledge base unless told another."""

    FILE, Problem, citations, problems = citations.FILE, citations.Problem, citations.citations, citations.problems

    @staticmethod
    def parse(text, kb=None):
        return citations.parse(text, kb or installed().kb)

    @staticmethod
    def find(text, kb=None, **options):
        return citations.find(text, kb or installed().kb, **options)

    @staticmethod
    def cite(clause_id, lang, kb=None):
        return citations.cite(clause_id, lang, kb or installed().kb)


@pytest.mark.parametrize("typed,expected", [
    ("ICF 3.12 e", ["icf-fr:3.12.e"]),
    ("icf-fr:3.12.e", ["icf-fr:3.12.e"]),
    ("3.12 e", ["icf-fr:3.12.e"]),
    ("3.12e", ["icf-fr:3.12.e"]),
    ("3.12 e)", ["icf-fr:3.12.e"]),
    ("icf 3.12.E", ["icf-fr:3.12.e"]),
    ("regola 53", ["it:53"]),
    ("règle 53", ["it:53"]),
    ("regle 53", ["it:53"]),
    ("rule 53", ["it:53"]),
    ("regola n. 53", ["it:53"]),
    ("art. 53", ["it:53"]),
    ("it 53", ["it:53"]),
    ("AICF 13", ["aicf-2009:13"]),
    ("AICF 2009 13", ["aicf-2009:13"]),
    ("aicf rule 13", ["aicf-2009:13"]),
    ("ICF 4 l", ["icf-fr:4.l"]),
    ("4.1.2", ["icf-fr:4.1.2"]),
    ("3.11 i 1", ["icf-fr:3.11.i.1"]),
    ("IT B.XI", ["it:B.XI"]),
    ("Simplifiées 9.2", ["fr-simplified:9.2"]),
    ("simplifiees 9.2", ["fr-simplified:9.2"]),
    ("FFC résumé 2.4", ["ffc-summary:2.4"]),
    ("ICF Reine (La)", ["icf-fr:5.reine"]),
])
def test_a_citation_names_its_clause(typed, expected):
    assert C.parse(typed) == expected


def test_a_rule_number_is_first_looked_up_in_the_words_language():
    assert C.parse("rule 13") == ["aicf-2009:13"]
    assert C.parse("regola 13") == ["it:13"]
    assert C.parse("règle 13") == ["it:13", "aicf-2009:13"]  # no French source numbers its rules
    assert C.parse("rule 53") == ["it:53"]  # the AICF rules stop at 26


def test_a_section_number_gives_its_clauses_in_reading_order(kb):
    ids = C.parse("3.12")
    assert ids == [cid for cid in kb.clauses if cid.startswith("icf-fr:3.12.")]
    assert ids[0] == "icf-fr:3.12.a" and "icf-fr:3.12.e" in ids


def test_a_whole_query_that_is_a_bare_number_cites(kb):
    assert C.parse("53") == ["it:53"]
    assert set(C.parse("13")) == {"it:13", "aicf-2009:13"}


@pytest.mark.parametrize("text", ["74 cm", "73,50 cm", "73.50 cm", "2.5 cm", "3.13", "reine", "13 jetons",
                                  "is it 74 cm", "icf-fr:nope", "regola 999", "", "   "])
def test_what_cites_nothing(text):
    assert C.parse(text) == []
    assert C.find(text) == []


def test_a_count_inside_a_sentence_is_no_citation():
    assert C.find("13 jetons sur le plateau") == []
    assert C.find("la reine et 2 jetons") == []


def test_citations_are_found_inside_a_sentence_with_their_place():
    text = "que dit la règle 53 et ICF 3.12 e sur la reine"
    found = C.find(text)
    assert [(text[c.start:c.end], c.ids) for c in found] == [("règle 53", ("it:53",)),
                                                             ("ICF 3.12 e", ("icf-fr:3.12.e",))]


def test_a_trailing_word_that_is_no_part_of_the_number_is_left_out():
    """`e` is Italian for "and": rule 53 has no paragraph e, so the citation stops at 53."""
    found = C.find("regola 53 e 54")
    assert found[0].ids == ("it:53",) and "regola 53 e 54"[found[0].start:found[0].end] == "regola 53"
    assert C.parse("regola 53 e 54") == []  # not only a citation: the search reads the rest


@pytest.mark.parametrize("cid,lang,expected", [
    ("icf-fr:3.12.e", "fr", "ICF 3.12 e"), ("icf-fr:3.11.i.1", "en", "ICF 3.11 i 1"),
    ("icf-fr:4.1.2", "it", "ICF 4.1.2"), ("icf-fr:4.l", "fr", "ICF 4 l"),
    ("it:53", "it", "regola 53"), ("it:53", "fr", "IT règle 53"), ("it:53", "en", "IT rule 53"),
    ("aicf-2009:13", "en", "AICF 13"), ("aicf-2009:13", "it", "AICF 13"),
    ("fr-simplified:9.2", "fr", "Simplifiées 9.2"),
])
def test_a_clause_is_cited_the_way_its_readers_write_it(cid, lang, expected):
    assert C.cite(cid, lang) == expected


@pytest.mark.parametrize("lang", ["fr", "it", "en"])
def test_every_clause_cited_parses_back_to_itself(kb, lang):
    """Printed and project numbering come back as the one clause; the rest (figure legends,
    glossary entries) at least among the clauses the citation names."""
    cits = C.citations(kb)
    for cid in kb.clauses:
        src, local = cid.split(":", 1)
        back = C.parse(C.cite(cid, lang))
        assert cid in back, (cid, C.cite(cid, lang), back)
        if cits._order[src].match(local):
            assert back == [cid], (cid, C.cite(cid, lang), back)


def test_an_unknown_clause_is_cited_by_its_id():
    assert C.cite("icf-fr:99.z", "fr") == "icf-fr:99.z"


def test_the_citation_names_are_valid(kb):
    assert C.problems(kb) == []


@pytest.mark.parametrize("content,expected", [
    ("sources: {nope: {names: [X], cite: {fr: 'X {p}', it: 'X {p}', en: 'X {p}'}}}\nrule_words: {}",
     "unknown source 'nope'"),
    ("sources:\n  it: {names: [IT], cite: {fr: 'IT', it: 'regola {p}', en: 'IT rule {p}'}}\n", "sources.it.cite.fr"),
    ("sources:\n  it: {names: [AICF 2009], cite: {fr: 'a {p}', it: 'b {p}', en: 'c {p}'}}\n", "claimed by"),
    ("[not, a, mapping]", "must be a mapping"),
    ("sources: {: [", "not valid YAML"),
])
def test_check_kb_reports_a_broken_citation_file(tmp_path, kb, content, expected):
    copy = kb_with_file(tmp_path, kb, C.FILE, content)
    problems = [str(p) for p in C.problems(copy)]
    assert any(expected in p for p in problems), problems
    C.parse("regola 53", copy)  # a broken file still leaves a working grammar


def test_check_kb_runs_the_citation_check(tmp_path, kb, monkeypatch):
    from referee_app.core.checks.knowledge_base import other_problems

    monkeypatch.setattr(citations, "problems", lambda kb: [C.Problem(C.FILE, 1, "planted")])
    assert any("planted" in str(p) for p in other_problems(kb))


# --- The search opens a cited clause directly ----------------------------------------------------

@pytest.mark.parametrize("query,expected", [("ICF 3.12 e", "icf-fr:3.12.e"), ("3.12 e", "icf-fr:3.12.e"),
                                            ("regola 53", "it:53"), ("règle 53", "it:53"),
                                            ("AICF 13", "aicf-2009:13"), ("it 53", "it:53")])
def test_a_citation_searched_gives_its_clause_alone(searcher, query, expected):
    hits = searcher.search(query)
    assert [(h["id"], h["match"]) for h in hits] == [(expected, "citation")]
    # shown in the query's language (`règle`: French), or, when its words do not say one, as printed
    hit = hits[0]
    assert hit["original_lang"] == {"icf-fr": "fr", "it": "it", "aicf-2009": "en"}[expected.split(":")[0]]
    if query == "règle 53":
        assert (hit["lang"], hit["official"], hit["translation_of"]) == ("fr", False, "it")
    else:
        assert hit["official"] is True and hit["lang"] == hit["original_lang"]


def test_a_citation_searched_with_a_language_filter_shows_the_translation(searcher):
    hits = searcher.search("regola 53", lang="en")
    assert [(h["id"], h["lang"], h["official"]) for h in hits] == [("it:53", "en", False)]


def test_a_section_searched_gives_its_clauses_in_order(searcher):
    assert [h["id"] for h in searcher.search("3.12", limit=3)] == ["icf-fr:3.12.a", "icf-fr:3.12.a-exception",
                                                                  "icf-fr:3.12.b"]


def test_a_citation_inside_words_comes_first_and_the_words_are_searched(searcher):
    hits = searcher.search("que dit la règle 53 sur la reine", limit=5)
    assert hits[0]["id"] == "it:53" and hits[0]["match"] == "citation"
    assert all(h["match"] == "exact" for h in hits[1:]) and len(hits) == 5
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
