"""The full-text backend: whoosh, and the only module of the project that imports it.

Everything else in the search speaks to whoosh through this module: the analysis chain's parts,
building an index on disk or in memory, and reading one (postings, statistics, stored fields,
the lexicon); so that replacing whoosh touches this file only (tests/test_search_layout.py
keeps it so).
"""
from __future__ import annotations

import pickle
import struct
import zlib
from pathlib import Path
from typing import Callable, Iterable

from whoosh import index as whoosh_index
from whoosh.analysis import CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.codec.base import Automata
from whoosh.fields import BOOLEAN, ID, KEYWORD, STORED, TEXT, Schema
from whoosh.filedb.filestore import RamStorage
from whoosh.lang.stopwords import stoplists
from whoosh.query import Phrase, Term
from whoosh.scoring import bm25
from whoosh.support.charset import accent_map
from whoosh.support.levenshtein import distance

from referee_app.languages import LANGUAGES

__all__ = ["ACCENTS", "STOPLISTS", "Index", "analyzer", "build", "distance", "levenshtein_dfa", "open_dir"]

ACCENTS = accent_map   # str.translate table folding accents and ligatures
STOPLISTS = {lang: frozenset(stoplists[lang]) for lang in LANGUAGES}
# The errors reading changed or damaged index files raises.
READ_ERRORS = (OSError, EOFError, ValueError, KeyError, IndexError, zlib.error, struct.error,
               pickle.UnpicklingError)


class _Rewrite(Filter):
    """Rewrites each token with a plain function (pickled with the schema by name)."""

    def __init__(self, rewrite: Callable[[str], str]):
        self.rewrite = rewrite

    def __call__(self, tokens):
        for t in tokens:
            t.text = self.rewrite(t.text)
            yield t


class _Pairs(Filter):
    """Renames a word after a given word: `temps` after `même` is "at the same time", not time."""

    def __init__(self, pairs: dict):
        self.pairs = pairs

    def __call__(self, tokens):
        prev = None
        for t in tokens:
            word = t.text
            t.text = self.pairs.get((prev, word), word)
            prev = word
            yield t


def analyzer(lang: str, token: str, stopwords: frozenset, rewrite: Callable[[str], str] | None = None,
             before_folding: Callable[[str], str] | None = None, pairs: dict | None = None):
    """Tokens, lower case, `pairs`, `before_folding`, stop words, accents folded, `rewrite`, stems of `lang`."""
    chain = RegexTokenizer(token) | LowercaseFilter()
    if pairs:
        chain = chain | _Pairs(pairs)
    if before_folding is not None:
        chain = chain | _Rewrite(before_folding)
    chain = chain | StopFilter(stoplist=stopwords) | CharsetFilter(accent_map)
    if rewrite is not None:
        chain = chain | _Rewrite(rewrite)
    return chain | StemFilter(lang=lang)


def levenshtein_dfa(word: str, k: int):
    """An automaton accepting the words within k edits of `word` (its first letter fixed)."""
    return Automata.levenshtein_dfa(word, k, prefix=1)


def _schema(text_analyzers: dict) -> Schema:
    fields = dict(
        key=ID(unique=True),                  # clause id and language: one document each
        id=ID(stored=True, sortable=True),    # a column too: the ranking maps documents to clauses
        source=ID(stored=True),
        kind=ID(stored=True),
        lang=ID(stored=True, sortable=True),  # a column: the ranking needs each document's language
        paragraph=ID(stored=True),
        title=ID(stored=True),
        rulesets=KEYWORD(stored=True, commas=True, scorable=False),
        official=BOOLEAN(stored=True),
        body=STORED(),                        # the text itself, for snippets without the YAML
        stems=STORED(),                       # its words' stems in order, worked out once at build
    )
    for lang, an in text_analyzers.items():
        fields[f"text_{lang}"] = TEXT(analyzer=an)
    return Schema(**fields)


class _MemoryStorage(RamStorage):
    """An index in memory whose writer keeps its scratch files in memory too: whoosh's own puts
    them in `<system temp folder>/MAIN.tmp`, one fixed folder that two processes building at once
    destroy under each other, and that another user of the machine may own."""

    def temp_storage(self, name=None):
        return RamStorage()


def build(folder: Path | None, docs: Iterable[dict], text_analyzers: dict) -> "Index | int":
    """Index `docs` into `folder` and return how many, or into memory (folder None) and return it open."""
    storage = _MemoryStorage() if folder is None else None
    ix = storage.create_index(_schema(text_analyzers)) if storage else \
        whoosh_index.create_in(str(folder), _schema(text_analyzers))
    writer = ix.writer(limitmb=256)
    count = 0
    for doc in docs:
        writer.add_document(**doc)
        count += 1
    writer.commit()
    if storage is not None:
        return Index(ix)
    ix.close()
    return count


def open_dir(path: Path) -> "Index":
    return Index(whoosh_index.open_dir(str(path)))


class Index:
    """An open index, read the way the ranking needs: term statistics and postings, stored fields."""

    def __init__(self, ix):
        self._ix = ix
        self._searcher = ix.searcher()
        self._reader = self._searcher.reader()
        self.k1, self.b = self._searcher.weighting.K1, self._searcher.weighting.B
        self.doc_count = self._reader.doc_count_all()
        self._term_scores: dict[tuple[str, str], dict[int, float]] = {}
        # the index does not change while open: what a term's statistics are is read once
        self._frequencies: dict[tuple[str, str], int] = {}
        self._idfs: dict[tuple[str, str], float] = {}
        self._field_lengths: dict[str, list[int]] = {}
        self._phrases: dict[tuple, frozenset] = {}
        self._lexicons: dict[str, list[str]] = {}

    def close(self) -> None:
        self._searcher.close()
        self._ix.close()

    def doc_frequency(self, fname: str, term: str) -> int:
        key = (fname, term)
        found = self._frequencies.get(key)
        if found is None:
            if len(self._frequencies) > 100_000:
                self._frequencies.clear()
            found = self._frequencies[key] = self._reader.doc_frequency(fname, term)
        return found

    def idf(self, fname: str, term: str) -> float:
        key = (fname, term)
        found = self._idfs.get(key)
        if found is None:
            if len(self._idfs) > 100_000:
                self._idfs.clear()
            found = self._idfs[key] = self._searcher.idf(fname, term)
        return found

    def avg_field_length(self, fname: str) -> float:
        return self._searcher.avg_field_length(fname) or 1.0

    def field_lengths(self, fname: str) -> list[int]:
        length = self._reader.doc_field_length
        return [length(d, fname, 0) or 0 for d in range(self.doc_count)]

    def term_scores(self, fname: str, term: str) -> dict[int, float]:
        """document -> BM25F score of one term (whoosh's formula and statistics), for every
        document holding it; read once and kept: as a query is typed the same terms recur."""
        key = (fname, term)
        scores = self._term_scores.get(key)
        if scores is None:
            scores = {}
            if self.doc_frequency(fname, term):
                idf = self.idf(fname, term)
                avgfl = self.avg_field_length(fname)
                lengths = self._lengths(fname)
                k1, b = self.k1, self.b
                m = self._reader.postings(fname, term)
                while m.is_active():
                    doc = m.id()
                    scores[doc] = bm25(idf, m.weight(), lengths[doc], avgfl, b, k1)
                    m.next()
            if len(self._term_scores) > 50_000:
                self._term_scores.clear()
            self._term_scores[key] = scores
        return scores

    def text_lengths(self) -> dict[str, list[int]]:
        """Every analysed field's lengths: read at build and kept beside the index, since reading
        them one document at a time is most of the first search's cost."""
        return {f: self.field_lengths(f) for f in self.text_fields()}

    def use_lengths(self, lengths: dict[str, list[int]]) -> None:
        """Take the field lengths kept beside the index (those of another document count are ignored)."""
        for fname, values in lengths.items():
            if isinstance(values, list) and len(values) == self.doc_count:
                self._field_lengths[fname] = values

    def text_fields(self) -> list[str]:
        return [f for f in self._ix.schema.names() if f.startswith("text_")]

    def use_lexicons(self, lexicons: dict[str, list[str]]) -> None:
        """Take the fields' terms kept beside the index (read whole, they cost a first fuzzy search
        more than the rest of it)."""
        for fname, terms in lexicons.items():
            if isinstance(terms, list):
                self._lexicons[fname] = terms

    def use_phrases(self, phrases: list) -> None:
        """Take the documents saying each thesaurus phrase, found when the index was built
        ([field, terms, slop, documents] each): a phrase query per phrase is a first search's
        slowest part."""
        for fname, terms, slop, docs in phrases:
            self._phrases[(fname, tuple(terms), slop)] = frozenset(docs)

    def _lengths(self, fname: str) -> list[int]:
        if fname not in self._field_lengths:
            self._field_lengths[fname] = self.field_lengths(fname)
        return self._field_lengths[fname]

    def phrase_docs(self, fname: str, terms: tuple[str, ...], slop: int = 1) -> frozenset:
        """The documents saying `terms` in this order, at most `slop` words apart (stop words not
        counted); read once and kept."""
        key = (fname, terms, slop)
        found = self._phrases.get(key)
        if found is None:
            if len(self._phrases) > 20_000:
                self._phrases.clear()
            found = self._phrases[key] = frozenset(self._searcher.docs_for_query(Phrase(fname, list(terms), slop=slop)))
        return found

    def lexicon(self, fname: str) -> list[str]:
        """A field's terms, sorted."""
        found = self._lexicons.get(fname)
        if found is None:
            found = self._lexicons[fname] = [t.decode("utf-8") for t in self._reader.lexicon(fname)]
        return found

    def docs_with(self, fname: str, value) -> frozenset:
        return frozenset(self._searcher.docs_for_query(Term(fname, value)))

    def column(self, fname: str) -> list:
        return list(self._reader.column_reader(fname))

    def stored(self, doc: int) -> dict:
        return self._searcher.stored_fields(doc)
