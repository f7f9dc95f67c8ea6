"""The searcher: opens the index (building it if need be, in memory if the cache folder cannot be
used), reads a query, ranks, and answers with hits in the contract's format.

    from referee_app.core.search import search
    search("queen cover", lang="fr")   # [{"id", "source", "lang", "title", "snippet", ...}]
"""
from __future__ import annotations

import gc
import threading
from pathlib import Path

from referee_app.core.errors import BadInput
from referee_app.core.knowledge.citations import Citations

from . import index_cache, numbers
from .analysis import LANGS, fold, tokens
from .backend import READ_ERRORS, Index
from .language import Detector
from .query import Understanding
from .ranking import Ranker
from .snippets import matches, passage, words
from .terms import Terms


class Searcher:
    """Opened once and reused: the index is checked (and built if need be) on first use.

    Safe to call from a worker thread: every search holds the searcher's lock.
    """

    def __init__(self, knowledge, folder: Path | None = None, settle: bool = True):
        """`knowledge`: the knowledge root searched (its knowledge base is read only when the
        index must be checked against it or built)."""
        self._knowledge = knowledge
        self._settle = settle   # collect opening's garbage at once (not worth it for one search)
        self._folder = Path(folder) if folder else None
        self._lock = threading.RLock()
        self._index: Index | None = None
        self.built = False      # whether opening had to build the index
        self.in_memory = False  # whether the cache folder could not be used

    # Opening and closing

    @property
    def folder(self) -> Path:
        return self._folder or index_cache.cache_dir()

    def open(self) -> None:
        """Check the index and open it (building it first if it is missing, damaged or stale)."""
        with self._lock:
            if self._index is not None:
                return
            folder = self.folder
            try:
                fresh = index_cache.fresh(folder, self._knowledge)
                current = index_cache.read_current(folder) if fresh else index_cache.build(folder, self._knowledge)
            except OSError:  # the cache folder is a file, or cannot be written: keep the index in memory
                self._open_memory()
                return
            self.built = self.built or not fresh
            try:
                self._attach(*index_cache.open_built(folder, current))
            except Exception:  # damaged in a way the checksums missed, or removed under us: build anew
                self._rebuild()

    def _open_memory(self) -> None:
        self._attach(*index_cache.build_in_memory(self._knowledge))
        self.built = self.in_memory = True

    def _rebuild(self) -> None:
        self.close()
        if self.in_memory:
            self._open_memory()
            return
        try:
            current = index_cache.build(self.folder, self._knowledge)
        except OSError:
            self._open_memory()
            return
        self.built = True
        self._attach(*index_cache.open_built(self.folder, current))

    def _attach(self, index, aux: dict) -> None:
        self._index = index
        index.use_phrases(aux.get("phrases") or [])
        self._stored_fields: dict[int, dict] = {}
        self.rulesets: dict[str, list[str]] = aux["rulesets"]
        self.sources: list[str] = aux["sources"]
        self._citations = Citations(aux["citations"])
        self._terms = Terms(aux["terms"])
        self._understanding = Understanding(index, self._terms, self._citations, aux["questions"], self._official_source,
                                            aux.get("lexicon") or {})
        self._filters: dict[tuple[str, object], frozenset] = {}
        self._sources_of: list | None = None   # document -> source of an official text (_official_source)
        self._doc_words: dict[int, list] = {}
        self._doc_keys: dict[int, list] = {}
        self._doc_numbers: dict[int, tuple] = {}
        ids = index.column("id")
        self._ids = ids
        self._docs_of: dict[str, list[int]] = {}
        for doc, cid in enumerate(ids):
            self._docs_of.setdefault(cid, []).append(doc)
        self._translations = self._docs("official", False)
        self._detector = Detector(aux.get("lexicon") or {})
        self._source_names = self._citations.source_names()
        self._readable: dict[str, frozenset] = {}
        summaries = frozenset().union(*(self._docs("source", s) for s in aux["summaries"])) if aux["summaries"] \
            else frozenset()
        self._measures = {cid: [numbers.Quantity(lo, hi, unit, 0, 0) for lo, hi, unit in ms]
                          for cid, ms in aux["measures"].items()}
        self._ranker = Ranker(index, ids, self._translations, summaries, self._docs("kind", "definition"),
                              aux["links"], self._measures, self._docs_of, index.column("lang"),
                              self._keys, self._numbers_stated, self._docs("kind", "tournament"))
        # Opening has just made tens of thousands of objects that live as long as the index: the
        # full collection they call for is made now, not in the middle of one of the first
        # searches (measured: a pause of 15-20 ms among the first 25); a command that searches
        # once and exits does not pay for it (about 20 ms, a fifth of its start).
        if self._settle:
            gc.collect()

    def close(self) -> None:
        with self._lock:
            if self._index is not None:
                self._index.close()
            self._index = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # Searching

    def search(self, query: str, lang: str | None = None, ruleset: str | None = None,
               source: str | None = None, limit: int = 10, reader: str | None = None) -> list[dict]:
        """The clauses best matching `query`, best first, one hit per clause (its best-matching text).

        `lang` is the reader's language (without it, `reader`, then the language the query is
        written in, when its words say it: language.Detector): each clause is shown in that
        language's text, its original or the project's translation, or in its original where it
        has no such text; the language never narrows which clauses are found. `lang` also ranks
        the texts of that language (`--lang`, the window's language filter); `reader` only shows
        the hits in it, the query's words read in every language as without it (the window's own
        language: a French query typed in an English window). `ruleset` and `source` keep only
        their clauses. Each hit: id, source, lang, title, paragraph, kind, official (false for a project
        translation), translation_of (the language of the original, for a translation),
        original_lang (the language of the original, always), rulesets,
        cite (the clause as a reader of `lang` writes it), snippet (matches in **), snippet_html
        (escaped, matches in <b>), snippets (the same for each language the clause has, its own
        matches lit, and "marks": where they are in that language's whole text, [start, end]
        character offsets, for a reader that shows the whole clause lit), score, and match
        ("exact"; "fuzzy" when found only through a guessed spelling; "citation" for a clause the
        query cites).
        """
        return self.search_detailed(query, lang, ruleset, source, limit, reader)["hits"]

    def search_detailed(self, query: str, lang: str | None = None, ruleset: str | None = None,
                        source: str | None = None, limit: int = 10, reader: str | None = None) -> dict:
        """search() and what the query was understood as: {"hits", "unmatched" (words that match
        nothing in any language), "definition" (a definition was asked for), "cited", "lang" (the
        reader's language the hits are shown in: `lang`, `reader`, or the query's; None when none
        says)}."""
        with self._lock:
            self.open()
            self._check_filters(lang, ruleset, source, limit)
            if reader is not None and reader not in LANGS:
                raise BadInput("reader", f"unknown language '{reader}' (known: {', '.join(LANGS)})")
            written = self._language_of(query or "")
            reader = lang or reader or written
            try:
                found = self._search(query or "", reader, ruleset, source, limit, ranked_in=lang, written=written)
            except READ_ERRORS:
                # what reading changed or damaged index files raises: build anew and try once more
                # (an error that is not the index's shows again, from the fresh one)
                self._rebuild()
                found = self._search(query or "", reader, ruleset, source, limit, ranked_in=lang, written=written)
            found["lang"] = reader
            return found

    def _language_of(self, text: str) -> str | None:
        """The query's language, read from its words, the names of sources in its citations left
        out (`it 53` names a source, not the English pronoun; `règle 53` is French)."""
        for c in reversed(self._citations.find(text)):
            kept = [w for w in tokens(text[c.start:c.end]) if fold(w) not in self._source_names]
            text = text[:c.start] + " " + " ".join(kept) + " " + text[c.end:]
        return self._detector.detect(text)

    def _check_filters(self, lang, ruleset, source, limit) -> None:
        if lang is not None and lang not in LANGS:
            raise BadInput("lang", f"unknown language '{lang}' (known: {', '.join(LANGS)})")
        if ruleset is not None and ruleset not in self.rulesets:
            raise BadInput("ruleset", f"unknown ruleset '{ruleset}' (known: {', '.join(self.rulesets)})")
        if source is not None and source not in self.sources:
            raise BadInput("source", f"unknown source '{source}' (known: {', '.join(self.sources)})")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise BadInput("limit", f"must be a whole number of at least 1, not {limit!r}")

    def _search(self, text, lang, ruleset, source, limit, ranked_in=None, written=None) -> dict:
        q = self._understanding.read(text, written)
        # a measurement no clause states matches nothing, and is said so as a word is
        q.unmatched[:0] = [c.words for c in q.concepts if c.quantity is not None and not any(
            numbers.nearness(m, c.quantity) for ms in self._measures.values() for m in ms)]
        # A language the reader names ranks the texts that reader reads (each clause has one: its
        # own or its original); a language read from the query ranks every text of every clause
        # (ranking only the query language's texts lost relevant clauses on the evaluation set:
        # a guess must not cost what a choice may), and each clause found is shown in it.
        allowed = self._allowed(ranked_in, ruleset, source)
        ranked = []
        if q.concepts:
            candidates = self._ranker.collect(q.concepts)
            # a query naming one concept and nothing else asks what it is, unless it asks for a
            # number (`combien de temps pour casser`: the seconds the break takes, not what it is)
            one_concept = len(q.concepts) == 1 and bool(q.concepts[0].concepts) and q.asks is None
            ranked = self._ranker.rank(candidates, q.concepts, allowed, limit + len(q.cited), q.definition,
                                       tuple(q.defined) if q.definition or one_concept else (), q.keys, q.asks, tuple(q.counts))
        hits = []
        if q.cited:  # the cited clauses first, in the order cited
            top = ranked[0][2] if ranked else 0.0
            cited = self._cited(q.cited, self._allowed(lang, ruleset, source), limit)
            hits = [self._record(cid, doc, top + len(cited) - i, None, q, "citation")
                    for i, (cid, doc) in enumerate(cited)]
        shown = {h["id"] for h in hits}
        for cid, doc, score, cand in ranked:
            if len(hits) == limit:
                break
            if cid not in shown:
                if lang:
                    doc = self._reader_doc(cid, lang, doc)
                hits.append(self._record(cid, doc, score, cand, q, "exact" if cand.exact else "fuzzy"))
        return {"hits": hits, "unmatched": list(q.unmatched), "definition": q.definition, "cited": list(q.cited)}

    def _cited(self, ids: list[str], allowed, limit: int) -> list[tuple[str, int]]:
        """Each cited clause through its official text, unless a filter keeps only a translation."""
        out = []
        for cid in dict.fromkeys(ids):
            docs = [d for d in self._docs_of.get(cid, ()) if allowed is None or d in allowed]
            if docs:
                out.append((cid, min(docs, key=lambda d: d in self._translations)))
            if len(out) == limit:
                break
        return out

    def _docs(self, fieldname: str, value) -> frozenset:
        """The documents holding one value of a filter field (the index does not change while open)."""
        key = (fieldname, value)
        if key not in self._filters:
            assert self._index is not None  # open
            self._filters[key] = self._index.docs_with(fieldname, value)
        return self._filters[key]

    def _allowed(self, lang, ruleset, source) -> frozenset | None:
        sets = [self._docs(name, value) for name, value in (("rulesets", ruleset), ("source", source)) if value]
        if lang:
            sets.append(self._readable_in(lang))
        return frozenset.intersection(*sets) if sets else None

    def _reader_doc(self, cid: str, lang: str, doc: int) -> int:
        """The clause's text a reader of `lang` is shown (`doc`, the one found, if it is that)."""
        readable = self._readable_in(lang)
        return next((d for d in self._docs_of[cid] if d in readable), doc)

    def _readable_in(self, lang: str) -> frozenset:
        """The texts a reader of `lang` is shown: each clause's text in that language, and the
        original of a clause that has none (the reader's language never hides a clause)."""
        found = self._readable.get(lang)
        if found is None:
            in_lang = self._docs("lang", lang)
            extra = [min(docs, key=lambda d: d in self._translations) for docs in self._docs_of.values()
                     if in_lang.isdisjoint(docs)]
            found = self._readable[lang] = in_lang | frozenset(extra)
        return found

    # Hits

    def _record(self, cid: str, doc: int, score: float, cand, q, match: str) -> dict:
        fields = self._stored(doc)
        lang = fields["lang"]
        stems = self._stems_by_lang(q)
        snippets, original = {}, lang
        for other in self._docs_of[cid]:
            f = self._stored(other)
            if f["official"]:
                original = f["lang"]
            found = matches(f["body"], f["lang"], stems.get(f["lang"], set()), spans=self._spans(f["body"], q),
                            tokens=self._words(other, f))
            plain, marked = passage(f["body"], found)
            snippets[f["lang"]] = {"text": plain, "html": marked, "official": f["official"],
                                   "marks": [list(span) for span in found]}
        return {"id": cid, "source": fields["source"], "lang": lang, "title": fields["title"],
                "paragraph": fields["paragraph"], "kind": fields["kind"], "official": fields["official"],
                "translation_of": None if fields["official"] else original, "original_lang": original,
                "rulesets": [r for r in fields["rulesets"].split(",") if r],
                "cite": self._citations.cite(cid, lang),
                "snippet": snippets[lang]["text"], "snippet_html": snippets[lang]["html"], "snippets": snippets,
                "score": round(score, 4), "match": match}

    def _stored(self, doc: int) -> dict:
        found = self._stored_fields.get(doc)
        if found is None:
            assert self._index is not None  # open
            found = self._stored_fields[doc] = self._index.stored(doc)
        return found

    def _official_source(self, doc: int) -> str | None:
        """The source of an official text, None for a translation (from the filters: reading each
        document's stored fields for it cost a first search a few milliseconds)."""
        if self._sources_of is None:
            assert self._index is not None  # open
            self._sources_of = [None] * self._index.doc_count
            for source in self.sources:
                for d in self._docs("source", source) - self._translations:
                    self._sources_of[d] = source
        return self._sources_of[doc]

    def _words(self, doc: int, fields: dict) -> list:
        """A document's words and their stems, worked out once (snippets recur as a query is typed)."""
        found = self._doc_words.get(doc)
        if found is None:
            stems = [None if k.startswith("=") else k for k in self._keys(doc)]   # a stop word has none
            found = self._doc_words[doc] = words(fields["body"], fields["lang"], stems)
        return found

    def _numbers_stated(self, doc: int) -> tuple[set, list]:
        """The kinds of number a document's text states, and its ranges of whole numbers."""
        found = self._doc_numbers.get(doc)
        if found is None:
            body = self._stored(doc)["body"]
            found = self._doc_numbers[doc] = (numbers.stated(body), numbers.count_ranges(body))
        return found

    def _keys(self, doc: int) -> list[str]:
        """A document's words as the ranking compares them with the query's: stems, stop words as
        written (the snapshot keeps them as one string a document: a list of words each would be
        a quarter of a million objects for the garbage collector to walk, again and again)."""
        found = self._doc_keys.get(doc)
        if found is None:
            keys = self._stored(doc)["keys"]
            found = self._doc_keys[doc] = keys.split(" ") if keys else []
        return found

    @staticmethod
    def _stems_by_lang(q) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for concept in q.concepts:
            for fname, stems in concept.leaves:
                out.setdefault(fname[-2:], set()).update(stems)
        return out

    @staticmethod
    def _spans(text: str, q) -> list[tuple[int, int]]:
        asked = [c.quantity for c in q.concepts if c.quantity is not None]
        if not asked:
            return []
        return [(m.start, m.end) for m in numbers.measurements(text) if any(numbers.nearness(m, a) for a in asked)]


# --- The module-level API ----------------------------------------------------------------------

_shared: Searcher | None = None
_shared_lock = threading.Lock()


def searcher() -> Searcher:
    """The process's searcher over the installed knowledge base, opened on first use: a script's
    shortcut, choosing the installed knowledge as a program does (the window and the commands
    make their own Searcher over the root they were handed)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            from referee_app.core.knowledge.root import Knowledge

            _shared = Searcher(Knowledge.load())
        return _shared


def search(query: str, lang: str | None = None, ruleset: str | None = None, source: str | None = None,
           limit: int = 10, reader: str | None = None) -> list[dict]:
    """Search the installed rulebook with the process's shared searcher; see Searcher.search."""
    return searcher().search(query, lang=lang, ruleset=ruleset, source=source, limit=limit, reader=reader)


def search_detailed(query: str, lang: str | None = None, ruleset: str | None = None, source: str | None = None,
                    limit: int = 10, reader: str | None = None) -> dict:
    return searcher().search_detailed(query, lang=lang, ruleset=ruleset, source=source, limit=limit, reader=reader)
