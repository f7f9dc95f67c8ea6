"""The index is kept as a snapshot read without whoosh (core/search/backend.py): it answers what a
whoosh index analysed by whoosh's own filters answers (statistics, scores, stored fields, filters,
phrases), a search over it imports none of whoosh's machinery (its import alone cost more than the
rest of a `search` command's start; benchmarks/bench_startup.py), and a damaged one is rebuilt."""
from __future__ import annotations

import json
import math
import pickle
import random
import subprocess
import sys
import zlib

import pytest
from whoosh.analysis import CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.support.charset import accent_map

from referee_app.core.knowledge.root import Knowledge
from referee_app.core.search import Searcher, analysis, backend, index_cache
from referee_app.core.search.documents import analyzers, aux_data, documents, vocabulary


class _Rewrite(Filter):
    def __init__(self, rewrite):
        self.rewrite = rewrite

    def __call__(self, tokens):
        for t in tokens:
            t.text = self.rewrite(t.text)
            yield t


class _Pairs(Filter):
    def __init__(self, pairs):
        self.pairs = pairs

    def __call__(self, tokens):
        prev = None
        for t in tokens:
            word = t.text
            t.text = self.pairs.get((prev, word), word)
            prev = word
            yield t


def _whoosh_chain(lang: str, every_word: bool = False):
    """A language's analysis chain made of whoosh's own filters (as the index was analysed before
    the plain-Python Analyser): the reference the Analyser must agree with."""
    an = analysis.analyzer(lang)
    chain = RegexTokenizer(analysis.TOKEN) | LowercaseFilter()
    if an.pairs:
        chain = chain | _Pairs(an.pairs)
    if an.before_folding is not None:
        chain = chain | _Rewrite(an.before_folding)
    chain = chain | StopFilter(stoplist=frozenset() if every_word else an.stopwords) | CharsetFilter(accent_map)
    if an.rewrite is not None:
        chain = chain | _Rewrite(an.rewrite)
    return chain | StemFilter(lang=lang)


@pytest.fixture(scope="module")
def docs(kb):
    from referee_app.core.knowledge.rulesets import load_rulesets

    return list(documents(kb, load_rulesets(kb)))


@pytest.fixture(scope="module")
def both(docs):
    """The rulebook indexed by whoosh with whoosh's own filters, in memory, and the backend's snapshot."""
    from whoosh.fields import TEXT
    from whoosh.filedb.filestore import RamStorage

    schema = backend._schema(analyzers())
    for lang in analysis.LANGS:
        schema.remove(f"text_{lang}")
        schema.add(f"text_{lang}", TEXT(analyzer=_whoosh_chain(lang)))
    ix = RamStorage().create_index(schema)
    with ix.writer() as writer:
        for doc in docs:
            writer.add_document(**doc)
    snapshot = backend.build(None, docs, analyzers())
    with ix.searcher() as searcher:
        yield searcher, snapshot


def _texts(docs):
    return [(doc["lang"], doc[f"text_{doc['lang']}"]) for doc in docs] + [(doc["lang"], doc["body"]) for doc in docs]


@pytest.mark.parametrize("every_word", [False, True])
def test_the_analyser_analyses_as_whoosh_s_filters_do(docs, every_word):
    """Every text in its own language, every seventh in the others, stop words dropped and kept;
    whoosh numbers the words it keeps one after the other, as the snapshot's phrases count them."""
    texts = _texts(docs)
    for lang in analysis.LANGS:
        chain = _whoosh_chain(lang, every_word)
        mine = analysis.analyse_all if every_word else analysis.analyse
        for i, (text_lang, text) in enumerate(texts):
            if text_lang != lang and i % 7:
                continue
            tokens = [(t.text, t.pos) for t in chain(text, positions=True)]
            assert mine(lang, text) == tuple(word for word, _ in tokens), text[:60]
            positions = [pos for _, pos in tokens]
            assert positions == list(range(positions[0], positions[0] + len(positions))) if positions else True


def test_the_snapshot_has_whoosh_s_statistics_and_scores(both):
    from whoosh.scoring import bm25

    searcher, snap = both
    reader = searcher.reader()
    assert snap.doc_count == reader.doc_count_all()
    assert sorted(snap.text_fields()) == [f"text_{lang}" for lang in sorted(analysis.LANGS)]
    for lang in analysis.LANGS:
        fname = f"text_{lang}"
        terms = [t.decode("utf-8") for t in reader.lexicon(fname)]
        assert snap.lexicon(fname) == terms
        avgfl = searcher.avg_field_length(fname)
        assert snap.avg_field_length(fname) == avgfl
        lengths = [reader.doc_field_length(d, fname, 0) or 0 for d in range(reader.doc_count_all())]
        assert snap.field_lengths(fname) == lengths
        for term in terms:
            assert snap.doc_frequency(fname, term) == reader.doc_frequency(fname, term)
            assert snap.idf(fname, term) == searcher.idf(fname, term)
            expected, m = {}, reader.postings(fname, term)
            while m.is_active():
                expected[m.id()] = bm25(searcher.idf(fname, term), m.weight(), lengths[m.id()], avgfl,
                                        searcher.weighting.B, searcher.weighting.K1)
                m.next()
            assert snap.term_scores(fname, term) == expected, term
        assert snap.doc_frequency(fname, "zzzznotaword") == 0 and snap.term_scores(fname, "zzzznotaword") == {}
        assert snap.idf(fname, "zzzznotaword") == searcher.idf(fname, "zzzznotaword") == math.log(snap.doc_count) + 1


def test_the_snapshot_has_whoosh_s_stored_fields_columns_and_filters(both):
    from whoosh.query import Term

    searcher, snap = both
    for doc in range(snap.doc_count):
        assert snap.stored(doc) == searcher.stored_fields(doc)
    assert snap.column("id") == list(searcher.reader().column_reader("id"))
    assert snap.column("lang") == list(searcher.reader().column_reader("lang"))
    for fname, value in (("lang", "it"), ("lang", "fr"), ("official", False), ("official", True),
                         ("kind", "definition"), ("source", "icf-fr"), ("source", "it"), ("rulesets", "icf"),
                         ("rulesets", "nope"), ("id", "icf-fr:3.12.e"), ("nofield", "x")):
        assert snap.docs_with(fname, value) == frozenset(searcher.docs_for_query(Term(fname, value))), (fname, value)


def _phrases(kb, snap) -> set[tuple[str, tuple[str, ...]]]:
    """Every thesaurus phrase, and runs of two to four words of the texts, side by side or a word
    or two apart, and a few words taken anywhere."""
    from referee_app.core.knowledge.rulesets import load_rulesets

    found = {(f"text_{lang}", tuple(form["stems"])) for concept in aux_data(kb, load_rulesets(kb))["terms"]
             for lang, forms in concept["words"].items() for form in forms if len(form["stems"]) > 1}
    rng = random.Random(20)
    for fname, seqs in snap._sequences.items():
        for _doc, seq in rng.sample(sorted(seqs.items()), 150):
            words = seq.split(" ")
            for _ in range(4):
                size, step = rng.randint(2, 4), rng.randint(1, 3)
                start = rng.randrange(len(words))
                run = tuple(words[start::step][:size])
                if len(run) > 1:
                    found.add((fname, run))
            found.add((fname, tuple(rng.choice(words) for _ in range(2))))
    return found


def test_the_snapshot_finds_phrases_as_whoosh_s_phrase_query_does(kb, both):
    from whoosh.query import Phrase

    searcher, snap = both
    phrases = _phrases(kb, snap)
    assert len(phrases) > 2000
    said = 0
    for fname, terms in sorted(phrases):
        for slop in (1, 2):
            expected = frozenset(searcher.docs_for_query(Phrase(fname, list(terms), slop=slop)))
            assert snap.phrase_docs(fname, terms, slop) == expected, (fname, terms, slop)
            said += bool(expected)
    assert said > 1000  # most are said somewhere: the comparison is not between empty sets


def test_a_word_the_rulebook_does_not_have_is_stemmed_by_whoosh():
    from whoosh.lang import stemmer_for_language

    for lang, word in (("fr", "xylophoniques"), ("it", "xilofoni"), ("en", "xylophonists")):
        assert analysis.stem(lang, word) == stemmer_for_language(lang)(word)


def test_the_snapshot_knows_the_stem_of_every_word_of_the_rulebook_the_thesaurus_and_the_stop_lists(kb, docs):
    backend.build(None, docs[:40], analyzers(), vocabulary(kb))  # opened: its stem tables are the latest
    for lang in analysis.LANGS:
        table, _ = backend._tables[lang][0]
        entries = [line.split("\t") for line in table.strip("\n").split("\n")]
        known = dict(entries)
        assert len(known) == len(entries) > 1000
        assert {"reine", "confirmer", "pedina", "carrom", "men", "queen", "combien", "quoi", "the"} <= set(known)
        stemmer = backend._stemmer(lang)
        assert all(stem == stemmer(word) for word, stem in entries[::20])
        assert all(backend._in_tables(lang, word) == stem for word, stem in entries)
        assert "\nxylophonique\t" not in table   # (an earlier test's index of this process may know it)
        # bisection's edges: before the first word, past the last, between two
        assert [backend._in_tables(lang, w) for w in ("", "\uffff", entries[0][0] + "\x01")] == [None] * 3


def test_a_word_without_letters_is_its_own_stem():
    """A number has no suffix to strip (every Snowball suffix is made of letters): whoosh is not
    asked for it."""
    for lang in analysis.LANGS:
        stemmer = backend._stemmer(lang)
        for word in ("74", "4.45", "2.54", "3.12", "1.2.3", "007", "100000"):
            assert backend.stem_word(lang, word) == stemmer(word) == word


SEARCH_WITHOUT_WHOOSH = """
import json, sys
from referee_app.core.knowledge.root import Knowledge
from referee_app.core.search import Searcher
searcher = Searcher(Knowledge.load(), folder=sys.argv[1])
for query in ("reine confirmer", "dernier jeton de l'adversaire", "queen as the last coin", "pedina rotta"):
    hits = searcher.search(query)
    assert hits and hits[0]["snippet"], query
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "whoosh")))
"""


def test_a_search_over_a_built_index_imports_no_whoosh_machinery(tmp_path):
    """Phrases typed (`dernier jeton`, `last coin`) that the thesaurus's table does not hold
    included: they are looked up in the words each document keeps in order."""
    index_cache.ensure_index(Knowledge.load(), folder=tmp_path)
    done = subprocess.run([sys.executable, "-c", SEARCH_WITHOUT_WHOOSH, str(tmp_path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # its word lists only: no index reading, no analysis classes, no stemmer
    assert json.loads(done.stdout) == ["whoosh", "whoosh.lang", "whoosh.lang.stopwords"]


# --- A damaged or stale snapshot ----------------------------------------------------------------

def _snapshot_path():
    folder = index_cache.cache_dir()
    current = json.loads((folder / index_cache.CURRENT).read_text())
    return folder / current["dir"] / backend.SNAPSHOT, folder / index_cache.CURRENT, current


def _vouch_for(current_path, current, path) -> None:
    """Rewrite the manifest so that its checksum vouches for the damaged file (damage the
    checksums miss)."""
    data = path.read_bytes()
    current["manifest"][path.name] = [len(data), zlib.crc32(data)]
    current_path.write_text(json.dumps(current))


class _Shout:
    def __reduce__(self):
        return (print, ("a snapshot's pickle ran code",))


@pytest.mark.parametrize("content", [b"", b"not a pickle", pickle.dumps([1, 2, 3]), pickle.dumps({"version": "0"}),
                                     pickle.dumps(_Shout()), "truncated"])
def test_a_snapshot_damaged_behind_its_checksum_is_rebuilt(user_dirs, content, capsys):
    expected = Searcher(Knowledge.load()).search("reine confirmer")
    path, current_path, current = _snapshot_path()
    path.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 2] if content == "truncated" else content)
    _vouch_for(current_path, current, path)
    assert index_cache.fresh(index_cache.cache_dir(), Knowledge.load())  # the checksums cannot tell
    searcher = Searcher(Knowledge.load())
    assert searcher.search("reine confirmer") == expected
    assert searcher.built
    assert "ran code" not in capsys.readouterr().out
    assert backend.open_dir(_snapshot_path()[0].parent).doc_count > 1000  # the rebuilt one reads


def test_a_damaged_snapshot_is_rebuilt(user_dirs):
    expected = Searcher(Knowledge.load()).search("reine confirmer")
    path, _, current = _snapshot_path()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    assert not index_cache.fresh(index_cache.cache_dir(), Knowledge.load())
    searcher = Searcher(Knowledge.load())
    assert searcher.search("reine confirmer") == expected
    assert searcher.built and _snapshot_path()[2]["dir"] != current["dir"]


def test_a_snapshot_another_whoosh_made_is_stale(user_dirs, monkeypatch):
    assert index_cache.ensure_index(Knowledge.load()) is True
    monkeypatch.setattr(backend, "VERSION", "0.0.0")
    assert index_cache.ensure_index(Knowledge.load()) is True
    assert index_cache.ensure_index(Knowledge.load()) is False
