"""Rulebook search (core/search): cross-lingual, accent- and typo-tolerant, filtered, and an index
cache that rebuilds itself when stale or damaged. Every test reads the real knowledge base."""
from __future__ import annotations

import json
import re
import shutil
import threading
from pathlib import Path

import pytest

from referee_app.core.search import Searcher, analysis, backend, documents, index_cache, searcher as searcher_module
from referee_app.core.search.snippets import SNIPPET_CHARS, snippet
from referee_app.core.errors import BadInput
from referee_app.core.knowledge.root import Knowledge


def ids(hits):
    return [h["id"] for h in hits]


# --- Results and their fields ---------------------------------------------------------------

def test_a_hit_carries_the_contract_fields_and_its_clause(searcher, kb):
    hits = searcher.search("reine", limit=5)
    assert hits
    for h in hits:
        assert {"id", "source", "lang", "title", "snippet", "score", "paragraph", "kind"} <= set(h)
        clause = kb.clauses[h["id"]]
        assert (h["source"], h["title"], h["paragraph"], h["kind"]) == \
               (clause.source, clause.title_in(h["lang"]), clause.paragraph, clause.kind)
        assert h["lang"] in clause.texts
        assert h["official"] is clause.texts[h["lang"]]["official"]


def test_hits_are_best_first_and_each_clause_once(searcher):
    hits = searcher.search("queen cover", limit=30)
    assert len(ids(hits)) == len(set(ids(hits)))
    exact = [h["score"] for h in hits if h["match"] == "exact"]
    assert exact == sorted(exact, reverse=True)


def test_limit_is_respected(searcher):
    assert len(searcher.search("reine", limit=3)) == 3
    assert len(searcher.search("reine", limit=1)) == 1


def test_empty_and_absurd_queries_give_nothing(searcher):
    for query in ("", "   ", "?!, …", "zzqxw", "qqqqqqqqqqqqqq xkcdzz"):
        assert searcher.search(query) == []


def test_stop_words_alone_give_nothing(searcher):
    assert searcher.search("le la les des") == []
    assert searcher.search("the of and") == []


# --- Snippets ----------------------------------------------------------------------------------

def test_snippet_marks_the_matched_words(searcher):
    hit = searcher.search("filet", limit=1)[0]
    assert "**filet" in hit["snippet"].lower()
    assert "<b>filet" in hit["snippet_html"].lower()
    assert "**" not in hit["snippet_html"]


def test_snippet_html_escapes_the_text():
    plain, marked = snippet('Le "striker" & <la> reine', "fr", {analysis.stem("fr", "reine")})
    assert plain == 'Le "striker" & <la> **reine**'
    assert marked == "Le &quot;striker&quot; &amp; &lt;la&gt; <b>reine</b>"


def test_a_long_text_is_cut_around_its_matches(kb):
    clause = max(kb.clauses.values(), key=lambda c: len(c.text))
    words = [w for w in analysis.TOKEN_RE.findall(clause.text) if analysis.stem(clause.lang, w)]
    last = words[-1]
    plain, _ = snippet(clause.text, clause.lang, {analysis.stem(clause.lang, last)})
    assert len(plain) <= SNIPPET_CHARS + 2
    assert plain.startswith("…") and f"**{last}**" in plain


# --- Languages, accents, typos -----------------------------------------------------------------

@pytest.mark.parametrize("query,lang", [("reine", "fr"), ("regina", "it"), ("queen", "en"),
                                        ("pénalité", "fr"), ("arbitro", "it"), ("penalty", "en"),
                                        ("jeton", "fr"), ("pedina", "it"), ("umpire", "en")])
def test_a_query_in_each_language_ranks_its_own_language_first(searcher, query, lang):
    hits = searcher.search(query, limit=5)
    assert hits and hits[0]["lang"] == lang, [(h["id"], h["lang"]) for h in hits]


@pytest.mark.parametrize("query,equivalents", [
    ("queen", {"fr": "reine", "it": "regina"}),
    ("cover", {"fr": "confirm", "it": "conferm"}),
    ("striker", {"fr": "percuteur", "it": "striker"}),
    ("regina", {"fr": "reine", "en": "queen"}),
    ("reine", {"it": "regina", "en": "queen"}),
])
def test_a_word_finds_its_glossary_equivalents_in_the_other_languages(searcher, query, equivalents):
    for lang, stem_word in equivalents.items():
        hits = searcher.search(query, lang=lang, limit=5)
        assert hits, f"{query!r} finds nothing in {lang}"
        assert all(h["lang"] == lang for h in hits)
        assert any(stem_word in h["snippet"].lower() for h in hits), [h["snippet"] for h in hits]


def test_a_multi_word_glossary_term_is_one_concept(searcher):
    """`cercle central` is one term: its Italian equivalent `cerchio centrale` is found as a phrase."""
    hits = searcher.search("cercle central", lang="it", limit=5)
    assert hits
    assert any("**cerchio** **centrale**" in h["snippet"].lower() for h in hits)


@pytest.mark.parametrize("typed,proper", [("penalite", "pénalité"), ("PENALITE", "pénalité"),
                                          ("arbitré", "arbitre"), ("penalita", "penalità")])
def test_accents_and_case_do_not_matter(searcher, typed, proper):
    assert ids(searcher.search(typed, limit=10)) == ids(searcher.search(proper, limit=10))


def test_french_feminine_endings_meet_their_verb(searcher):
    """Folding `confirmée` before stemming must still meet `confirmer` (the -ée ending is mended)."""
    assert analysis.analyse("fr", "confirmée confirmées confirmer confirmé") == ("confirm",) * 4
    assert analysis.analyse("fr", "première premier") == ("premi",) * 2


@pytest.mark.parametrize("typo,word", [("regnia", "regina"),
                                       ("arbittre", "arbitre"), ("pedinna", "pedina"),
                                       ("penallty", "penalty"), ("confremare", "confermare"), ("strikker", "striker")])
def test_a_typo_of_one_or_two_letters_finds_the_word(searcher, typo, word):
    hits = searcher.search(typo, limit=10)
    assert hits and all(h["match"] == "fuzzy" for h in hits)
    exact = set(ids(searcher.search(word, limit=10)))
    assert exact & set(ids(hits)), f"{typo!r} finds none of the clauses {word!r} finds"


def test_exact_matches_rank_above_fuzzy_ones(searcher):
    hits = searcher.search("filet strikker", limit=100)
    kinds = [h["match"] for h in hits]
    assert "exact" in kinds and "fuzzy" in kinds
    assert kinds == sorted(kinds)  # every "exact" before the first "fuzzy"


def test_a_word_the_rulebook_has_is_not_taken_for_a_typo(searcher):
    assert all(h["match"] == "exact" for h in searcher.search("filet", limit=20))


def test_no_language_is_guessed_every_analyser_reads_the_query(searcher):
    """`board` is French, Italian and English alike: a one-word query finds texts in all three."""
    hits = searcher.search("board", limit=30)
    assert {h["lang"] for h in hits} == {"fr", "it", "en"}


# --- Filters -----------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", analysis.LANGS)
def test_lang_keeps_only_texts_in_that_language(searcher, lang):
    hits = searcher.search("queen cover", lang=lang, limit=20)
    assert hits and {h["lang"] for h in hits} == {lang}


def test_ruleset_keeps_only_the_clauses_of_its_sources(searcher):
    from support.kbcopy import installed

    rulesets = installed().rulesets
    for rid, rs in rulesets.items():
        sources = set(rs.all_sources(rulesets))
        hits = searcher.search("reine regina queen", ruleset=rid, limit=20)
        assert {h["source"] for h in hits} <= sources, rid
        assert all(rid in h["rulesets"] for h in hits)


def test_a_ruleset_that_extends_another_searches_its_clauses_too(searcher):
    from support.kbcopy import installed

    rulesets = installed().rulesets
    child = next((rs for rs in rulesets.values() if rs.extends), None)
    if child is None:
        pytest.skip("no ruleset extends another")
    parent_sources = set(rulesets[child.extends].all_sources(rulesets)) - set(child.sources)
    hits = searcher.search("reine regina queen", ruleset=child.id, limit=50)
    assert {h["source"] for h in hits} & parent_sources


def test_source_keeps_only_that_source(searcher, kb):
    for source in kb.sources:
        if kb.by_source(source):
            assert {h["source"] for h in searcher.search("reine queen regina", source=source)} <= {source}


def test_filters_combine(searcher):
    hits = searcher.search("queen", lang="fr", source="icf-fr", ruleset="icf", limit=20)
    assert hits
    assert all((h["lang"], h["source"]) == ("fr", "icf-fr") and "icf" in h["rulesets"] for h in hits)


@pytest.mark.parametrize("kwargs,field", [({"ruleset": "nope"}, "ruleset"), ({"source": "nope"}, "source"),
                                          ({"lang": "de"}, "lang"), ({"limit": 0}, "limit")])
def test_an_unknown_filter_is_bad_input(searcher, kwargs, field):
    with pytest.raises(BadInput) as exc:
        searcher.search("reine", **kwargs)
    assert exc.value.field == field
    with pytest.raises(BadInput):  # even with nothing to search for
        searcher.search("", **kwargs)


# --- Documents ---------------------------------------------------------------------------------

def test_every_text_of_every_clause_is_a_document(kb):
    from support.kbcopy import installed

    docs = list(documents.documents(kb, installed().rulesets))
    assert len(docs) == sum(len(c.texts) for c in kb.clauses.values())
    assert len({d["key"] for d in docs}) == len(docs)
    for d in docs:
        clause = kb.clauses[d["id"]]
        assert d["body"] == clause.texts[d["lang"]]["text"]
        # the indexed text: heading, the term a definition defines, the body with a sign's word beside it (Ø diameter)
        assert re.sub(r"Ø \S+ ", "Ø", d[f"text_{d['lang']}"]).endswith(d["body"])
        translated_heading = d["lang"] == clause.lang or d["lang"] in clause.title_translations
        assert d[f"text_{d['lang']}"].startswith(clause.title_in(d["lang"])) == translated_heading


def test_a_clause_belongs_to_every_ruleset_that_applies_its_source(kb):
    from support.kbcopy import installed

    rulesets = installed().rulesets
    for d in documents.documents(kb, rulesets):
        expected = {rid for rid, rs in rulesets.items() if d["source"] in rs.all_sources(rulesets)}
        assert set(filter(None, d["rulesets"].split(","))) == expected


# --- The index cache ---------------------------------------------------------------------------

def test_the_index_lives_in_the_user_cache(user_dirs):
    assert index_cache.ensure_index(Knowledge.load()) is True
    folder = index_cache.cache_dir()
    assert folder.is_relative_to(user_dirs / "cache")
    current = json.loads((folder / index_cache.CURRENT).read_text())
    assert (folder / current["dir"]).is_dir()
    assert index_cache.ensure_index(Knowledge.load()) is False  # fresh: reused, not rebuilt


def test_the_index_is_never_written_inside_the_package(user_dirs):
    import referee_app

    package = Path(referee_app.__file__).resolve().parent
    before = {p for p in package.rglob("*") if "__pycache__" not in p.parts}
    index_cache.ensure_index(Knowledge.load())
    Searcher(Knowledge.load()).search("reine")
    assert {p for p in package.rglob("*") if "__pycache__" not in p.parts} == before


def test_a_stale_stamp_triggers_a_rebuild(user_dirs):
    index_cache.ensure_index(Knowledge.load())
    path = index_cache.cache_dir() / index_cache.CURRENT
    current = json.loads(path.read_text())
    path.write_text(json.dumps(dict(current, stamp="0" * 16)))
    assert index_cache.ensure_index(Knowledge.load()) is True
    rebuilt = json.loads(path.read_text())
    assert rebuilt["stamp"] == current["stamp"] and rebuilt["dir"] != current["dir"]
    assert index_cache.ensure_index(Knowledge.load()) is False


def test_a_fresh_index_opens_without_parsing_the_knowledge(user_dirs, monkeypatch):
    index_cache.ensure_index(Knowledge.load())

    from referee_app.core.knowledge import loader

    def no_yaml(*args, **kwargs):
        raise AssertionError("the knowledge base was loaded")

    monkeypatch.setattr(loader, "load", no_yaml)
    knowledge = Knowledge.load()
    assert index_cache.ensure_index(knowledge) is False
    assert not knowledge.kb_read


def test_a_fresh_index_is_vouched_for_by_the_knowledge_files_stat_without_hashing_them(user_dirs, monkeypatch):
    import sys

    from referee_app.core.knowledge import cache as knowledge_cache

    if not knowledge_cache.STAMPS_TRUSTED:
        pytest.skip("no change time (ctime) to trust a stamp by")
    monkeypatch.setattr(knowledge_cache, "SETTLED_NS", 0)   # a fresh clone's files are seconds old
    index_cache.ensure_index(Knowledge.load())
    hashed = []
    contents = knowledge_cache._contents
    monkeypatch.setattr(knowledge_cache, "_contents", lambda root: hashed.append(root) or contents(root))
    assert index_cache.ensure_index(Knowledge.load()) is False   # may hash the files once, and keep their stamp
    hashed.clear()
    monkeypatch.setitem(sys.modules, "hashlib", None)   # importing it now fails
    assert index_cache.ensure_index(Knowledge.load()) is False and hashed == []


def test_the_knowledge_fingerprint_sees_an_edit_at_once(user_dirs, tmp_path, kb, monkeypatch):
    from referee_app.core.knowledge import cache as knowledge_cache

    monkeypatch.setattr(knowledge_cache, "SETTLED_NS", 0)
    root = tmp_path / "knowledge"
    shutil.copytree(kb.root, root)
    first = index_cache.fingerprint(root)
    assert index_cache.fingerprint(root) == first
    path = root / "rulesets" / "icf.yaml"
    path.write_bytes(path.read_bytes() + b"\n# edited\n")
    assert index_cache.fingerprint(root) != first


def test_an_index_another_version_of_the_code_built_is_rebuilt(user_dirs, monkeypatch):
    """Same knowledge files, but the analysis or the index's layout changed with the code: the
    quick check that spares parsing the knowledge must not vouch for the old index."""
    index_cache.ensure_index(Knowledge.load())
    monkeypatch.setattr(index_cache, "SCHEMA_VERSION", index_cache.SCHEMA_VERSION + 1)
    assert index_cache.ensure_index(Knowledge.load()) is True
    assert index_cache.ensure_index(Knowledge.load()) is False


def test_files_changed_but_not_what_the_index_holds_is_no_rebuild(user_dirs, monkeypatch):
    """A knowledge file the index does not read changed (say an equipment limit): the stamp is
    compared once, found equal, and remembered."""
    index_cache.ensure_index(Knowledge.load())
    real = index_cache.fingerprint
    monkeypatch.setattr(index_cache, "fingerprint", lambda root: "changed:" + real(root))
    assert index_cache.ensure_index(Knowledge.load()) is False
    monkeypatch.setattr(index_cache, "stamp", lambda kb, rulesets: pytest.fail("the stamp was compared again"))
    knowledge = Knowledge.load()
    assert index_cache.ensure_index(knowledge) is False
    assert not knowledge.kb_read


def test_a_changed_knowledge_base_triggers_a_rebuild_and_is_searchable(user_dirs, tmp_path, kb):
    from referee_app.core.knowledge.loader import load

    root = tmp_path / "knowledge"
    shutil.copytree(kb.root, root)
    first, _ = load(root, strict=False)
    assert index_cache.ensure_index(Knowledge(first)) is True
    assert index_cache.ensure_index(Knowledge(first)) is False
    clause = next(iter(first.clauses.values()))
    path = root / clause.file
    text = path.read_text(encoding="utf-8")
    word = clause.text.split()[0]
    path.write_text(text.replace(word, "Xylophonique " + word, 1), encoding="utf-8")
    second, _ = load(root, strict=False)
    assert second.stamp != first.stamp
    searcher = Searcher(Knowledge(second))
    hits = searcher.search("xylophonique")
    assert searcher.built and ids(hits) == [clause.id]


def _index_files(folder: Path) -> list[Path]:
    current = json.loads((folder / index_cache.CURRENT).read_text())
    return sorted(p for p in (folder / current["dir"]).iterdir() if p.is_file())


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _scramble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(0, len(data), 97):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["truncate", "scramble", "delete", "empty"])
def test_a_damaged_index_is_rebuilt_not_crashed_on(user_dirs, damage):
    expected = Searcher(Knowledge.load()).search("reine confirmer")
    folder = index_cache.cache_dir()
    for path in _index_files(folder):
        {"truncate": _truncate, "scramble": _scramble, "delete": Path.unlink,
         "empty": lambda p: p.write_bytes(b"")}[damage](path)
    searcher = Searcher(Knowledge.load())
    assert searcher.search("reine confirmer") == expected
    assert searcher.built


@pytest.mark.parametrize("content", [None, "", "{not json", "[]", '{"dir": "idx-gone"}', '{"dir": "../.."}'])
def test_a_missing_or_garbled_pointer_is_rebuilt(user_dirs, content):
    index_cache.ensure_index(Knowledge.load())
    path = index_cache.cache_dir() / index_cache.CURRENT
    if content is None:
        path.unlink()
    else:
        path.write_text(content)
    assert index_cache.ensure_index(Knowledge.load()) is True
    assert Searcher(Knowledge.load()).search("filet")


def test_a_half_written_build_is_ignored(user_dirs):
    index_cache.ensure_index(Knowledge.load())
    folder = index_cache.cache_dir()
    current = json.loads((folder / index_cache.CURRENT).read_text())
    half = folder / "build-crashed"
    shutil.copytree(folder / current["dir"], half)
    _truncate(half / backend.SNAPSHOT)
    assert index_cache.ensure_index(Knowledge.load()) is False
    assert Searcher(Knowledge.load()).search("filet")


def test_a_searcher_reopened_over_a_damaged_index_rebuilds_it(user_dirs):
    searcher = Searcher(Knowledge.load())
    expected = searcher.search("regina")
    searcher.close()
    for path in _index_files(index_cache.cache_dir()):
        _scramble(path)
    assert searcher.search("regina") == expected


def test_an_index_failing_while_open_is_rebuilt_once(user_dirs, monkeypatch):
    from referee_app.core.search.ranking import Ranker

    searcher = Searcher(Knowledge.load())
    expected = searcher.search("regina")
    real, calls = Ranker.collect, []

    def failing_once(self, concepts):
        calls.append(1)
        if len(calls) == 1:
            raise OSError("the disk went away")
        return real(self, concepts)

    monkeypatch.setattr(Ranker, "collect", failing_once)
    searcher.built = False
    assert searcher.search("regina") == expected
    assert searcher.built and len(calls) == 2


def test_searching_from_several_threads_at_once(searcher):
    queries = ["reine", "regina confermare", "queen cover", "strikker", "filet", "time between sets"]
    expected = {q: searcher.search(q) for q in queries}
    results, errors = {}, []

    def work(q):
        try:
            for _ in range(5):
                results.setdefault(q, []).append(searcher.search(q))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(q,)) for q in queries]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(r == expected[q] for q, rs in results.items() for r in rs)


def test_the_module_search_uses_one_shared_searcher(user_dirs, monkeypatch):
    monkeypatch.setattr(searcher_module, "_shared", None)
    assert searcher_module.search("reine") == Searcher(Knowledge.load()).search("reine")
    assert searcher_module.searcher() is searcher_module.searcher()
    searcher_module.searcher().close()
