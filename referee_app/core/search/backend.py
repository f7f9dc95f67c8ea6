"""The full-text backend: whoosh, and the only module of the project that imports it.

Everything else in the search speaks to whoosh through this module: the analysis chain, building
an index, and reading one (postings, statistics, stored fields, the lexicon); so that replacing
whoosh touches this file only (tests/core/search/test_search_layout.py keeps it so).

whoosh builds the index; reading one needs no whoosh. Importing whoosh (its compat module pulls
in urllib.request, http and email; its reader, asyncio) costs more than the rest of a `search`
command's start, so a built index is kept as a snapshot of what the ranking reads from it: each
term's BM25 score in each document as whoosh computes it, the field lengths, the stored fields,
the columns, the documents holding each value of a filter field, each document's terms in order
(for phrases) and the stem of every word the rulebook has in each language; in one file read
back as plain data, each term's scores unpacked only when a search asks for them. A query is
analysed by the same chain in plain Python (`Analyser`, which is also what whoosh indexes with,
so both analyse alike by construction); whoosh itself is imported only to build an index, to stem
a word the rulebook does not have, and to guess a typo.
"""
from __future__ import annotations

import gc
import io
import math
import pickle
import re
import struct
import threading
import zlib
from array import array
from functools import cache
from pathlib import Path
from typing import Callable, Iterable

import whoosh
from whoosh.lang.stopwords import stoplists  # plain lists of words: imports none of whoosh's machinery

from referee_app.languages import LANGUAGES

__all__ = ["STOPLISTS", "Analyser", "Index", "accents", "build", "distance", "levenshtein_dfa", "open_dir"]

STOPLISTS = {lang: frozenset(stoplists[lang]) for lang in LANGUAGES}
# What the snapshot's contents depend on besides this code: another whoosh may stem or score otherwise.
VERSION = ".".join(map(str, whoosh.__version__))
SNAPSHOT = "index.pickle"
MIN_CHARS = 2  # shorter words are not indexed (whoosh's StopFilter drops them)
TEXT = "text_"  # the analysed fields' prefix
_UNFILTERED = ("key",)  # an indexed field no search filters on: one value per document
# The errors reading changed or damaged index files raises.
READ_ERRORS = (OSError, EOFError, ValueError, KeyError, IndexError, zlib.error, struct.error,
               pickle.UnpicklingError)


# --- Analysis ----------------------------------------------------------------------------------

_stem_lock = threading.Lock()
_stems: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}  # lang -> word -> stem, as whoosh stems it
# lang -> the open snapshots' stem tables, the latest first: ("\nword\tstem\n...", where each line
# starts), the words in order: a word is looked up by bisection, which costs a start less than
# making a dictionary of the table, or searching it through
_tables: dict[str, list[tuple[str, array]]] = {lang: [] for lang in LANGUAGES}
_MAX_TABLES = 4
_accents: dict | None = None
_MAX_STEMS = 200_000


def accents() -> dict:
    """The str.translate table folding accents and ligatures (whoosh's, kept in each snapshot)."""
    global _accents
    if _accents is None:
        from whoosh.support.charset import accent_map

        _accents = accent_map
    return _accents


@cache
def _stemmer(lang: str) -> Callable[[str], str]:
    from whoosh.lang import stemmer_for_language

    return stemmer_for_language(lang)


def stem_word(lang: str, word: str) -> str:
    """whoosh's Snowball stem of one folded word: remembered, and known without whoosh for every
    word of the rulebook once an index is open, so that whoosh is imported for an unknown word only."""
    found = _stems[lang].get(word)
    if found is None:
        if not any(c.isalpha() for c in word):  # a number: no suffix to strip (Snowball's are letters)
            return word
        found = _in_tables(lang, word)
        if found is None:
            with _stem_lock:  # whoosh's stemmers are not thread-safe
                found = _stemmer(lang)(word)
        if len(_stems[lang]) < _MAX_STEMS:  # a long session's typing does not grow it for ever
            _stems[lang][word] = found
    return found


def _in_tables(lang: str, word: str) -> str | None:
    for table, starts in _tables[lang]:
        lo, hi = 0, len(starts)
        while lo < hi:
            mid = (lo + hi) // 2
            start = starts[mid]
            tab = table.index("\t", start)
            found = table[start:tab]
            if found == word:
                return table[tab + 1:table.index("\n", tab)]
            if found < word:
                lo = mid + 1
            else:
                hi = mid
    return None


def _stem_table(words: list[str], lang: str) -> tuple[str, bytes]:
    """(the lines "word\tstem" of sorted words, after a first "\n"; where each line starts, packed)."""
    lines = [f"{word}\t{stem_word(lang, word)}\n" for word in words]
    starts, at = array("I"), 1
    for line in lines:
        starts.append(at)
        at += len(line)
    return "\n" + "".join(lines), starts.tobytes()


def _know_stems(tables: dict[str, tuple[str, bytes]]) -> None:
    with _stem_lock:
        for lang, (table, packed) in tables.items():
            if lang in _tables and all(table != known for known, _ in _tables[lang]):
                starts = array("I")
                starts.frombytes(packed)
                _tables[lang] = [(table, starts), *_tables[lang]][:_MAX_TABLES]


class Analyser:
    """Tokens, lower case, `pairs`, `before_folding`, stop words and words under two letters
    dropped, accents folded, `rewrite`, stems of `lang`: a text's indexed forms, in order (the chain
    whoosh's RegexTokenizer, LowercaseFilter, StopFilter, CharsetFilter and StemFilter make)."""

    def __init__(self, lang: str, token: str, stopwords: frozenset, rewrite: Callable[[str], str] | None = None,
                 before_folding: Callable[[str], str] | None = None, pairs: dict | None = None):
        self.lang, self.token, self.stopwords = lang, token, stopwords
        self.rewrite, self.before_folding, self.pairs = rewrite, before_folding, pairs or {}
        self._token_re = re.compile(token)

    def words(self, text: str) -> list[str]:
        """The word the stemmer is given, for each word kept, in order."""
        out, prev = [], None
        for m in self._token_re.finditer(text):
            word = m.group(0).lower()
            if self.pairs:  # `pairs` looks at the word before, stop words included
                word, prev = self.pairs.get((prev, word), word), word
            form = self._form(word)
            if form is not None:
                out.append(form)
        return out

    def _form(self, word: str) -> str | None:
        """What the stemmer is given for one lower-case word (its pair's name already given), or
        None for a stop word or a word under two letters."""
        if self.before_folding is not None:
            word = self.before_folding(word)
        if len(word) < MIN_CHARS or word in self.stopwords:
            return None
        word = word.translate(accents())
        return self.rewrite(word) if self.rewrite is not None else word

    def forms(self, texts: Iterable[str]) -> set[str]:
        """What the stemmer is given for every word of `texts` (and a few more: a word that a pair
        always renames), each word worked out once however often the texts say it."""
        said: set[str] = set()
        renamed: set[str] = set()
        for text in texts:
            words = [word.lower() for word in self._token_re.findall(text)]
            said.update(words)
            if self.pairs:
                renamed.update(self.pairs[pair] for pair in zip([None, *words], words) if pair in self.pairs)
        return {form for word in said | renamed if (form := self._form(word)) is not None}

    def every_word(self) -> "Analyser":
        """The same chain keeping the stop words."""
        return Analyser(self.lang, self.token, frozenset(), self.rewrite, self.before_folding, self.pairs)

    def __call__(self, text: str) -> tuple[str, ...]:
        return tuple(stem_word(self.lang, word) for word in self.words(text))


def levenshtein_dfa(word: str, k: int):
    """An automaton accepting the words within k edits of `word` (its first letter fixed)."""
    from whoosh.codec.base import Automata

    return Automata.levenshtein_dfa(word, k, prefix=1)


def distance(a: str, b: str, limit: int | None = None) -> int:
    """The Damerau-Levenshtein distance of two words (whoosh's; past `limit` it stops counting)."""
    from whoosh.support.levenshtein import distance as whoosh_distance

    return whoosh_distance(a, b, limit)


# --- Building ----------------------------------------------------------------------------------

class _Terms:
    """whoosh's tokenizer for a text an `Analyser` has already analysed (its terms, space-separated):
    the index holds exactly what a query is analysed into, and each text is analysed once. (A class
    of this module: whoosh pickles the schema, even in memory.)"""

    def __call__(self, value, positions=False, chars=False, keeporiginal=False, removestops=True,
                 start_pos=0, start_char=0, tokenize=True, mode="", **kwargs):
        from whoosh.analysis import Token

        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for n, term in enumerate(value.split(" ") if value else ()):
            t.text, t.boost, t.stopped = term, 1.0, False
            if positions:
                t.pos = start_pos + n
            yield t


def _schema(text_analysers: dict[str, Analyser]):
    from whoosh.fields import BOOLEAN, ID, KEYWORD, STORED, TEXT as WORDS, Schema

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
        keys=STORED(),                        # its words as the ranking compares them (documents.word_keys)
    )
    for lang in text_analysers:
        fields[f"{TEXT}{lang}"] = WORDS(analyzer=_Terms())
    return Schema(**fields)


def build(folder: Path | None, docs: Iterable[dict], text_analysers: dict[str, Analyser],
          vocabulary: Iterable[str] = ()) -> "Index | int":
    """Index `docs` into `folder` and return how many, or into memory (folder None) and return it
    open. `vocabulary`: more words than the texts' whose stems a query will want (the thesaurus's)."""
    ix = _memory_storage().create_index(_schema(text_analysers))
    writer = ix.writer(limitmb=256)
    sequences: dict[str, dict[int, str]] = {f"{TEXT}{lang}": {} for lang in text_analysers}
    texts = list(vocabulary)
    for n, doc in enumerate(docs):
        analysed = {}
        for fname, seq in sequences.items():
            if doc.get(fname):
                analysed[fname] = seq[n] = " ".join(text_analysers[fname[len(TEXT):]](doc[fname]))
                texts.append(doc[fname])
        texts.append(doc.get("body", ""))
        writer.add_document(**dict(doc, **analysed))
    writer.commit()
    snapshot = _snapshot(ix, sequences, _vocabulary_stems(texts, text_analysers))
    ix.close()
    if folder is None:
        return Index(snapshot)
    (Path(folder) / SNAPSHOT).write_bytes(pickle.dumps(snapshot, protocol=pickle.HIGHEST_PROTOCOL))
    return snapshot["doc_count"]


def _memory_storage():
    """A storage in memory whose index writer keeps its scratch files in memory too: whoosh's own
    puts them in `<system temp folder>/MAIN.tmp`, one fixed folder that two processes building at
    once destroy under each other, and that another user of the machine may own."""
    from whoosh.filedb.filestore import RamStorage

    class MemoryStorage(RamStorage):
        def temp_storage(self, name=None):
            return RamStorage()

    return MemoryStorage()


def _snapshot(ix, sequences: dict[str, dict[int, str]], stems: dict[str, tuple[str, bytes]]) -> dict:
    """What the ranking reads from a whoosh index, as plain data. The bulky parts (each term's
    documents and scores, each document's stored fields) are packed, to be unpacked on demand."""
    from whoosh.scoring import bm25

    with ix.searcher() as searcher:
        reader = searcher.reader()
        n = reader.doc_count_all()
        k1, b = searcher.weighting.K1, searcher.weighting.B
        schema = ix.schema
        postings: dict = {}
        lengths: dict = {}
        averages: dict = {}
        docs: dict = {}
        for fname in schema.names():
            field = schema[fname]
            if not field.indexed or fname in _UNFILTERED:
                continue
            terms = list(reader.lexicon(fname))
            if not fname.startswith(TEXT):
                docs[fname] = {_value(field, t): _pack(sorted(reader.postings(fname, t).all_ids())) for t in terms}
                continue
            lengths[fname] = [reader.doc_field_length(d, fname, 0) or 0 for d in range(n)]
            averages[fname] = searcher.avg_field_length(fname) or 1.0
            postings[fname] = {}
            for raw in terms:
                term = raw.decode("utf-8")
                idf = searcher.idf(fname, term)
                m, found = reader.postings(fname, raw), {}
                while m.is_active():
                    found[m.id()] = bm25(idf, m.weight(), lengths[fname][m.id()], averages[fname], b, k1)
                    m.next()
                postings[fname][term] = _pack(found) + array("d", found.values()).tobytes()
        columns = {fname: list(reader.column_reader(fname)) for fname in schema.names()
                   if schema[fname].column_type is not None}
        stored = [pickle.dumps(searcher.stored_fields(d), protocol=pickle.HIGHEST_PROTOCOL) for d in range(n)]
    return {"version": VERSION, "doc_count": n, "k1": k1, "b": b, "postings": postings, "lengths": lengths,
            "averages": averages, "docs": docs, "columns": columns, "stored": stored, "sequences": sequences,
            "accents": accents(), "stems": stems}


def _value(field, term: bytes):
    """A filter field's term as a search asks for it: True or False for a yes-or-no field."""
    from whoosh.fields import BOOLEAN

    return term == field.to_bytes(True) if isinstance(field, BOOLEAN) else field.from_bytes(term)


def _pack(docs) -> bytes:
    return array("i", docs).tobytes()


def _unpack_docs(packed: bytes, count: int | None = None) -> array:
    docs = array("i")
    docs.frombytes(packed[:4 * count] if count is not None else packed)
    return docs


def _unpack_scores(packed: bytes) -> dict[int, float]:
    count = len(packed) // 12  # an int and a double per document
    scores = array("d")
    scores.frombytes(packed[4 * count:])
    return dict(zip(_unpack_docs(packed, count), scores))


def _vocabulary_stems(texts: list[str], text_analysers: dict[str, Analyser]) -> dict[str, tuple[str, bytes]]:
    """Each language's stem of every word of the rulebook, in whichever language it is written (a
    query is looked up in every language), stop words included (a phrase asking for a concept
    counts them): a table a language (_stem_table)."""
    return {lang: _stem_table(sorted(an.every_word().forms(texts)), lang) for lang, an in text_analysers.items()}


# --- Reading -----------------------------------------------------------------------------------

class _PlainData(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"{module}.{name}: an index snapshot holds plain data only")


def plain_data(data: bytes):
    """Unpickle plain data (no class of any module), the garbage collector paused: what is read
    lives as long as the index, and the collector, run every few hundred containers made, would
    walk it again and again."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        found = _PlainData(io.BytesIO(data)).load()
    finally:
        if collecting:
            gc.enable()
    return found


def open_dir(path: Path) -> "Index":
    snapshot = plain_data((Path(path) / SNAPSHOT).read_bytes())
    if not isinstance(snapshot, dict) or snapshot.get("version") != VERSION:
        raise ValueError("not an index snapshot of this whoosh")
    return Index(snapshot)


class Index:
    """An open index, read the way the ranking needs: term statistics and postings, stored fields."""

    def __init__(self, snapshot: dict):
        global _accents
        self.k1, self.b = snapshot["k1"], snapshot["b"]
        self.doc_count: int = snapshot["doc_count"]
        self._postings: dict[str, dict[str, bytes]] = snapshot["postings"]
        self._docs: dict[str, dict] = snapshot["docs"]
        self._columns: dict[str, list] = snapshot["columns"]
        self._stored: list[bytes] = snapshot["stored"]
        self._sequences: dict[str, dict[int, str]] = snapshot["sequences"]
        self._averages: dict[str, float] = snapshot["averages"]
        self._field_lengths: dict[str, list[int]] = snapshot["lengths"]
        self._term_scores: dict[tuple[str, str], dict[int, float]] = {}
        self._phrases: dict[tuple, frozenset] = {}
        self._lexicons: dict[str, list[str]] = {}
        if _accents is None:
            _accents = snapshot["accents"]
        _know_stems(snapshot["stems"])

    def close(self) -> None:
        """Nothing to release: the snapshot was read whole."""

    def doc_frequency(self, fname: str, term: str) -> int:
        return len(self._postings[fname].get(term, b"")) // 12

    def idf(self, fname: str, term: str) -> float:
        """whoosh's idf (BM25F's): log(documents / (documents with the term + 1)) + 1."""
        return math.log(self.doc_count / (self.doc_frequency(fname, term) + 1)) + 1

    def avg_field_length(self, fname: str) -> float:
        return self._averages[fname]

    def field_lengths(self, fname: str) -> list[int]:
        return list(self._field_lengths[fname])

    def term_scores(self, fname: str, term: str) -> dict[int, float]:
        """document -> BM25F score of one term (whoosh's formula and statistics), for every
        document holding it; unpacked once and kept: as a query is typed the same terms recur."""
        key = (fname, term)
        scores = self._term_scores.get(key)
        if scores is None:
            packed = self._postings[fname].get(term)
            if len(self._term_scores) > 50_000:
                self._term_scores.clear()
            scores = self._term_scores[key] = _unpack_scores(packed) if packed else {}
        return scores

    def text_fields(self) -> list[str]:
        return list(self._postings)

    def use_phrases(self, phrases: list) -> None:
        """Take the documents saying each thesaurus phrase, found when the index was built
        ([field, terms, slop, documents] each): looking a phrase up is a first search's slowest part."""
        for fname, terms, slop, docs in phrases:
            self._phrases[(fname, tuple(terms), slop)] = frozenset(docs)

    def phrase_docs(self, fname: str, terms: tuple[str, ...], slop: int = 1) -> frozenset:
        """The documents saying `terms` in this order, each at most `slop` words after the one
        before (stop words not counted), as whoosh's Phrase query finds them; read once and kept."""
        key = (fname, terms, slop)
        found = self._phrases.get(key)
        if found is None:
            if len(self._phrases) > 20_000:
                self._phrases.clear()
            found = self._phrases[key] = frozenset(self._phrase_docs(fname, terms, slop))
        return found

    def _phrase_docs(self, fname: str, terms: tuple[str, ...], slop: int) -> list[int]:
        packed = [self._postings.get(fname, {}).get(t) for t in terms]
        if not terms or not all(packed):
            return []
        holding = set.intersection(*(set(_unpack_docs(p, len(p) // 12)) for p in packed if p))
        sequences = self._sequences[fname]
        return [doc for doc in holding if _says(sequences[doc].split(" "), terms, slop)]

    def lexicon(self, fname: str) -> list[str]:
        """A field's terms, sorted (as whoosh sorts them: by their UTF-8 bytes, which is by code point)."""
        found = self._lexicons.get(fname)
        if found is None:
            found = self._lexicons[fname] = sorted(self._postings[fname])
        return found

    def docs_with(self, fname: str, value) -> frozenset:
        packed = self._docs.get(fname, {}).get(value)
        return frozenset(_unpack_docs(packed)) if packed else frozenset()

    def column(self, fname: str) -> list:
        return list(self._columns[fname])

    def stored(self, doc: int) -> dict:
        return _PlainData(io.BytesIO(self._stored[doc])).load()


def _says(words: list[str], terms: tuple[str, ...], slop: int) -> bool:
    """Whether `words` hold `terms` in order, each 1 to `slop` places after the one before."""
    ends = {i for i, w in enumerate(words) if w == terms[0]}
    for term in terms[1:]:
        ends = {i for i, w in enumerate(words) if w == term and any(1 <= i - e <= slop for e in ends)}
        if not ends:
            return False
    return bool(ends)
