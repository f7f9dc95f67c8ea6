"""The index is kept as a snapshot read without whoosh: it answers what whoosh's own index answers,
and a search over a built index imports none of whoosh's machinery (its import alone costs more
than the rest of a `search` command's start; benchmarks/bench_startup.py)."""
from __future__ import annotations

import math
import subprocess
import sys

import pytest

from referee_app.core.search import analysis, backend, index_cache
from referee_app.core.search.documents import analyzers, documents


@pytest.fixture(scope="module")
def both(kb):
    """The rulebook indexed by whoosh in memory, and the snapshot the backend keeps of it."""
    from whoosh.filedb.filestore import RamStorage

    from referee_app.core.knowledge.rulesets import load_rulesets

    docs = list(documents(kb, load_rulesets(kb)))
    ix = RamStorage().create_index(backend._schema(analyzers()))
    with ix.writer() as writer:
        for doc in docs:
            writer.add_document(**doc)
    snapshot = backend.build(None, docs, analyzers())
    with ix.searcher() as searcher:
        yield searcher, snapshot


def test_the_snapshot_has_whoosh_s_statistics_and_scores(both):
    from whoosh.scoring import bm25

    searcher, snap = both
    reader = searcher.reader()
    assert snap.doc_count == reader.doc_count_all()
    for lang in analysis.LANGS:
        fname = f"text_{lang}"
        terms = [t.decode("utf-8") for t in reader.lexicon(fname)]
        assert snap.lexicon(fname) == terms
        assert snap.avg_field_length(fname) == searcher.avg_field_length(fname)
        for term in terms[::7]:
            assert snap.doc_frequency(fname, term) == reader.doc_frequency(fname, term)
            assert snap.idf(fname, term) == searcher.idf(fname, term)
            expected, m = {}, reader.postings(fname, term)
            while m.is_active():
                expected[m.id()] = bm25(searcher.idf(fname, term), m.weight(), reader.doc_field_length(m.id(), fname, 0),
                                        searcher.avg_field_length(fname), searcher.weighting.B, searcher.weighting.K1)
                m.next()
            assert snap.term_scores(fname, term) == expected
        assert snap.doc_frequency(fname, "zzzznotaword") == 0 and snap.term_scores(fname, "zzzznotaword") == {}
        assert snap.idf(fname, "zzzznotaword") == math.log(snap.doc_count) + 1


def test_the_snapshot_has_whoosh_s_stored_fields_columns_and_filters(both):
    from whoosh.query import Term

    searcher, snap = both
    for doc in range(0, snap.doc_count, 37):
        assert snap.stored(doc) == searcher.stored_fields(doc)
    assert snap.column("id") == list(searcher.reader().column_reader("id"))
    assert snap.column("lang") == list(searcher.reader().column_reader("lang"))
    for fname, value in (("lang", "it"), ("official", False), ("official", True), ("kind", "definition"),
                         ("source", "icf-fr"), ("rulesets", "icf")):
        assert snap.docs_with(fname, value) == frozenset(searcher.docs_for_query(Term(fname, value))), (fname, value)


def test_a_word_the_rulebook_does_not_have_is_stemmed_by_whoosh():
    from whoosh.lang import stemmer_for_language

    for lang, word in (("fr", "xylophoniques"), ("it", "xilofoni"), ("en", "xylophonists")):
        assert analysis.stem(lang, word) == stemmer_for_language(lang)(word)


SEARCH_WITHOUT_WHOOSH = """
import sys
from referee_app.core.search import Searcher
hits = Searcher(folder=sys.argv[1]).search("reine confirmer")
assert hits and hits[0]["snippet"], hits
print(sorted(m for m in sys.modules if m.split(".")[0] == "whoosh"))
"""


def test_a_search_over_a_built_index_imports_no_whoosh_machinery(tmp_path):
    index_cache.ensure_index(folder=tmp_path)
    done = subprocess.run([sys.executable, "-c", SEARCH_WITHOUT_WHOOSH, str(tmp_path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    # its word lists only: no index reading, no analysis classes, no stemmer
    assert done.stdout.split("\n")[0] == "['whoosh', 'whoosh.lang', 'whoosh.lang.stopwords']"
